//! Nothing is left behind on a broker: `streamspec clean` removes what runs left, and a run
//! interrupted with Ctrl-C cleans up and still reports. Against a real broker at
//! `STREAMSPEC_KAFKA=HOST:PORT`; without one each test reports itself as skipped. Every name
//! carries a prefix of its own, so that other runs on a shared broker are left alone.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use streamspec::kafka::KafkaTarget;

mod common;
use common::BrokerTest;

const TIMEOUT: Duration = Duration::from_secs(15);

/// A prefix no other run uses.
fn unique_prefix(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{}{test}-{}-{nanos:x}-",
        streamspec::NAME_PREFIX,
        std::process::id()
    )
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn clean(address: &str, prefix: &str, dry_run: bool) -> (Option<i32>, Vec<String>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_streamspec"));
    command.args(["clean", "--target", address, "--prefix", prefix]);
    if dry_run {
        command.arg("--dry-run");
    }
    let output = command.output().expect("the streamspec binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    (
        output.status.code(),
        stdout.lines().map(str::to_owned).collect(),
    )
}

fn clean_removes_topics_and_group_configs(address: &str) {
    let prefix = unique_prefix("clean");
    let topic = format!("{prefix}in");
    let group = format!("{prefix}group");
    let runtime = runtime();
    let mut kafka = runtime
        .block_on(KafkaTarget::connect(address, &group, TIMEOUT, 1))
        .unwrap();
    runtime
        .block_on(async {
            kafka.create_topics(&[(topic.clone(), 1)], TIMEOUT).await?;
            kafka
                .set_group_configs(
                    &group,
                    &[("streams.num.standby.replicas".to_owned(), "1".to_owned())],
                )
                .await
        })
        .unwrap();
    let acls = runtime
        .block_on(kafka.acl_resources_with_prefix(&prefix))
        .unwrap();
    // Without an authorizer a broker refuses ACLs, so there are none to leave behind.
    let acl_line = match acls {
        None => {
            println!("  (the broker has no authorizer: the ACL part is not checked here)");
            "ACLs: none (the broker has no authorizer)".to_owned()
        }
        Some(found) => {
            assert_eq!(found, [], "no ACL carries the fresh prefix");
            "ACLs: none".to_owned()
        }
    };

    let (code, lines) = clean(address, &prefix, true);
    assert_eq!(code, Some(0));
    assert_eq!(
        lines,
        [
            format!("topics: would remove 1: {topic}"),
            format!("group configs: would remove 1: {group} (streams.num.standby.replicas)"),
            acl_line.clone(),
        ]
    );
    let (code, lines) = clean(address, &prefix, false);
    assert_eq!(code, Some(0), "{lines:?}");
    assert_eq!(
        lines,
        [
            format!("topics: removed 1 of 1: {topic}"),
            format!("group configs: removed 1 of 1: {group} (streams.num.standby.replicas)"),
            acl_line.clone(),
        ]
    );
    let overrides = runtime
        .block_on(kafka.group_config_overrides(&group))
        .unwrap();
    assert_eq!(overrides, Vec::<String>::new());
    // Deleting a topic takes a moment to show in metadata; bounded.
    let started = Instant::now();
    while runtime
        .block_on(kafka.topic_names())
        .unwrap()
        .contains(&topic)
    {
        assert!(started.elapsed() < TIMEOUT, "{topic} is still there");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (code, lines) = clean(address, &prefix, false);
    assert_eq!(code, Some(0));
    assert_eq!(lines, ["topics: none", "group configs: none", &acl_line]);
}

fn ctrl_c_cleans_up_and_writes_the_partial_report(address: &str) {
    interrupted_by("-INT", address);
}

/// SIGTERM, which CI systems and `timeout` send, is taken as Ctrl-C is.
fn sigterm_cleans_up_and_writes_the_partial_report(address: &str) {
    interrupted_by("-TERM", address);
}

/// `check` sent `signal` three seconds in ends as interrupted, with its reports and nothing
/// left on the broker.
fn interrupted_by(signal: &str, address: &str) {
    let run_id = unique_prefix(&format!("interrupt{}", signal.to_lowercase()))
        .trim_start_matches(streamspec::NAME_PREFIX)
        .trim_end_matches('-')
        .to_owned();
    let json = std::env::temp_dir().join(format!("{run_id}.json"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["check", "--target", address, "--run-id", &run_id, "--json"])
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the streamspec binary runs");
    // The first line comes once the Ctrl-C handler is in place and scenarios start.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(first.starts_with("streamspec check --target"), "{first}");
    std::thread::sleep(Duration::from_secs(3));
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIMEOUT * 2 {
            child.kill().ok();
            panic!("check did not end within {:?} of {signal}", TIMEOUT * 2);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    assert_eq!(report["verdict"], "interrupted");
    assert_eq!(report["exit_code"], 130);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), streamspec::scenario::catalogue().len());
    let not_run = scenarios
        .iter()
        .filter(|scenario| {
            scenario["verdict"] == "skip"
                && scenario["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with(streamspec::runner::NOT_RUN)
        })
        .count();
    assert!(not_run > 0, "three seconds cannot run the whole catalogue");
    assert!(
        scenarios
            .iter()
            .all(|scenario| scenario.get("cleanup").is_none()),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some(format!("interrupted: {not_run} scenarios not run; clean-up done").as_str())
    );
    // Nothing of the run is left.
    let (code, lines) = clean(
        address,
        &format!("{}{run_id}-", streamspec::NAME_PREFIX),
        true,
    );
    assert_eq!(code, Some(0));
    assert_eq!(lines[..2], ["topics: none", "group configs: none"]);
}

/// `doctor` tries group configs on a throwaway group: Ctrl-C while it does takes them back
/// before it ends, as it promises to change nothing that outlasts it.
fn ctrl_c_on_doctor_takes_back_the_group_configs_it_tried(address: &str) {
    let child = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["doctor", "--target", address])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the streamspec binary runs");
    // Past its look at the APIs and configs, into the scenarios (a whole look takes seconds).
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    let group = last
        .strip_prefix("interrupted: ")
        .and_then(|rest| rest.split_once(" scenarios looked at; the group configs tried on "))
        .and_then(|(_, rest)| rest.strip_suffix(" were taken back"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(group.starts_with("streamspec-doctor-"), "{group}");
    let (code, lines) = clean(address, group, true);
    assert_eq!(code, Some(0));
    assert_eq!(lines[..2], ["topics: none", "group configs: none"]);
}

fn a_run_id_whose_topics_or_groups_the_broker_has_is_refused(address: &str) {
    let run_id = unique_prefix("runid")
        .trim_start_matches(streamspec::NAME_PREFIX)
        .trim_end_matches('-')
        .to_owned();
    // The topic R31-leave of a run with this id makes ("in"), as a run still going would have.
    let topic = format!("{}{run_id}-R31-leave-in", streamspec::NAME_PREFIX);
    let runtime = runtime();
    let mut kafka = runtime
        .block_on(KafkaTarget::connect(address, &topic, TIMEOUT, 1))
        .unwrap();
    runtime
        .block_on(kafka.create_topics(&[(topic.clone(), 1)], TIMEOUT))
        .unwrap();
    let check = || {
        Command::new(env!("CARGO_BIN_EXE_streamspec"))
            .args(["check", "--target", address, "--run-id", &run_id])
            .args(["--rules", "R31", "-q"])
            .output()
            .expect("the streamspec binary runs")
    };
    let output = check();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim_end(),
        format!("streamspec: --run-id {run_id}: {address} already has a topic this run would make ({topic}): another run with this id is running, or one left them; choose another id, or remove them with `streamspec clean --target {address} --prefix streamspec-{run_id}-`")
    );
    // Once it is gone, the same id runs.
    let (code, _) = clean(address, &format!("streamspec-{run_id}-"), false);
    assert_eq!(code, Some(0));
    let output = check();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    // Its groups outlast it, emptied: the id is refused again, naming them.
    let output = check();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let refusal = format!(
        "streamspec: --run-id {run_id}: {address} already has {} groups this run would use ({}{run_id}-R31-",
        streamspec::scenario::catalogue()
            .iter()
            .filter(|scenario| scenario.rules.iter().any(|rule| rule == "R31"))
            .count(),
        streamspec::NAME_PREFIX
    );
    assert!(stderr.starts_with(&refusal), "{stderr}");
    assert!(
        stderr.trim_end().ends_with(", ...): Kafka keeps a streams group after its members leave, and a scenario joining it would find the last run's epochs and assignment, not a new group; choose another id"),
        "{stderr}"
    );
}

/// A campaign against a broker finishes the runs in progress when its duration runs out, takes
/// back what they made, and says how far past the duration it went.
fn a_fuzz_past_its_duration_cleans_up_and_says_where_the_time_went(address: &str) {
    let run_id = unique_prefix("overrun")
        .trim_start_matches(streamspec::NAME_PREFIX)
        .trim_end_matches('-')
        .to_owned();
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["fuzz", "--target", address, "--run-id", &run_id])
        .args(["--duration", "1s", "--operations", "20", "--groups", "1"])
        .output()
        .expect("the streamspec binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let suffix = " s past --duration 1s: the runs in progress when it ran out finished (a run against a broker waits on its real time: --operations makes runs shorter)";
    let line = stdout
        .lines()
        .find(|line| line.ends_with(suffix))
        .unwrap_or_else(|| panic!("{stdout}"));
    let over: f64 = line.trim_end_matches(suffix).parse().unwrap();
    assert!(over > 1.0, "{line}");
    let (code, lines) = clean(
        address,
        &format!("{}fuzz-{run_id}-", streamspec::NAME_PREFIX),
        true,
    );
    assert_eq!(code, Some(0));
    assert_eq!(lines[..2], ["topics: none", "group configs: none"]);
}

const TESTS: [BrokerTest; 6] = [
    (
        "clean_removes_topics_and_group_configs",
        clean_removes_topics_and_group_configs,
    ),
    (
        "ctrl_c_cleans_up_and_writes_the_partial_report",
        ctrl_c_cleans_up_and_writes_the_partial_report,
    ),
    (
        "sigterm_cleans_up_and_writes_the_partial_report",
        sigterm_cleans_up_and_writes_the_partial_report,
    ),
    (
        "ctrl_c_on_doctor_takes_back_the_group_configs_it_tried",
        ctrl_c_on_doctor_takes_back_the_group_configs_it_tried,
    ),
    (
        "a_fuzz_past_its_duration_cleans_up_and_says_where_the_time_went",
        a_fuzz_past_its_duration_cleans_up_and_says_where_the_time_went,
    ),
    (
        "a_run_id_whose_topics_or_groups_the_broker_has_is_refused",
        a_run_id_whose_topics_or_groups_the_broker_has_is_refused,
    ),
];

fn main() {
    common::run_broker_tests("STREAMSPEC_KAFKA", &TESTS);
}
