//! The catalogue against a broker that is not configured for it: an unmodified Kafka 4.4.0 at
//! `STREAMSPEC_KAFKA_STOCK=HOST:PORT` (`KAFKA_PROFILE=stock scripts/kafka/start.sh`: 45 s
//! sessions, 5 s heartbeats, a 3 s initial rebalance delay), reached three ways:
//! - directly;
//! - through `streamspec proxy --cap-version 88=0 --cap-version 89=0`, as a broker that speaks
//!   only v0 of the Streams RPCs;
//! - through `streamspec proxy --refuse-default-replication-factor`, as a broker that refuses
//!   CreateTopics with replication factor -1;
//! - through `streamspec proxy --dialect kip-draft`, as a broker that speaks the KIP draft on api
//!   key 88, graded with `check --dialect kip-draft`.
//!
//! Each run must pass every scenario it runs and skip the rest with a reason, with no failure and
//! no error; the skipped scenarios are exactly those whose declared needs the broker cannot meet.
//! Without the variable each test reports itself as skipped (hence the small harness in `main`).

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;
use streamspec::draft::Dialect;
use streamspec::proxy::{Proxy, ProxyConfig};
use streamspec::scenario::{Profile, Scenario, Step};

mod common;
use common::BrokerTest;

/// Runs the catalogue against `address`; returns the exit code, stdout and the JSON report.
fn check(address: &str, name: &str) -> (Option<i32>, String, Value) {
    check_with(address, name, &[])
}

fn check_with(address: &str, name: &str, flags: &[&str]) -> (Option<i32>, String, Value) {
    let json_path = std::env::temp_dir().join(format!(
        "streamspec-any-broker-{name}-{}.json",
        std::process::id()
    ));
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["check", "--target", address])
        .args(flags)
        .arg("--json")
        .arg(&json_path)
        .output()
        .expect("the streamspec binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = std::fs::read_to_string(&json_path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| {
            panic!(
                "no JSON report; stderr: {}\n{stdout}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
    std::fs::remove_file(&json_path).ok();
    (output.status.code(), stdout, json)
}

/// Whether a stock Kafka 4.4.0 cannot give the scenario what it declares: broker configs other
/// than Kafka's defaults (an authorizer, small groups, low timeout bounds), a session timeout
/// below the broker's minimum of 45 s, or another release's behaviour.
fn beyond_a_stock_broker(scenario: &Scenario) -> bool {
    let profiles = &scenario.requires.profiles;
    !scenario.requires.broker_configs.is_empty()
        || scenario
            .group_configs
            .contains_key("streams.session.timeout.ms")
        || (!profiles.is_empty() && !profiles.contains(&Profile::Kafka44))
}

/// Whether the scenario needs version 1 of a Streams RPC.
fn needs_v1(scenario: &Scenario) -> bool {
    scenario.requires.heartbeat_version == Some(1)
        || scenario.steps.iter().any(|step| match step {
            Step::Heartbeat { request, .. } => request.version == Some(1),
            Step::Describe { request, .. } => request.version == Some(1),
            _ => false,
        })
}

/// Every scenario the run ran passed; those it skipped are exactly `expected`, each with a
/// reason; the run passed.
fn passes_what_it_runs(run: (Option<i32>, String, Value), expected: BTreeSet<String>) {
    let (code, stdout, json) = run;
    let scenarios = json["scenarios"].as_array().unwrap();
    let not_passing: Vec<String> = scenarios
        .iter()
        .filter(|outcome| outcome["verdict"] != "pass" && outcome["verdict"] != "skip")
        .map(|outcome| {
            format!(
                "{} {} {}",
                outcome["scenario"], outcome["verdict"], outcome["reason"]
            )
        })
        .collect();
    assert!(
        not_passing.is_empty(),
        "{}\n{stdout}",
        not_passing.join("\n")
    );
    let skipped: BTreeSet<String> = scenarios
        .iter()
        .filter(|outcome| outcome["verdict"] == "skip")
        .map(|outcome| {
            assert!(
                outcome["reason"].as_str().is_some_and(|r| !r.is_empty()),
                "{outcome}"
            );
            outcome["scenario"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(skipped, expected, "{stdout}");
    assert_eq!(scenarios.len(), streamspec::scenario::catalogue().len());
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(json["passed"], true);
}

fn expected_skips(extra: impl Fn(&Scenario) -> bool) -> BTreeSet<String> {
    streamspec::scenario::catalogue()
        .into_iter()
        .filter(|scenario| beyond_a_stock_broker(scenario) || extra(scenario))
        .map(|scenario| scenario.name)
        .collect()
}

/// Serves a proxy with `config` on a thread of its own while `body` runs against it.
fn through_proxy(config: ProxyConfig, body: impl FnOnce(&str)) {
    let (address_sender, address) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let proxy = Proxy::bind("127.0.0.1:0", config)
                .await
                .expect("the proxy listens");
            address_sender.send(proxy.address()).unwrap();
            tokio::select! {
                () = proxy.serve() => {}
                _ = stopped => {}
            }
        });
    });
    body(&address.recv().expect("the proxy says where it listens"));
    stop.send(()).ok();
    server.join().expect("the proxy stops");
}

fn stock_broker_passes_what_it_runs(stock: &str) {
    passes_what_it_runs(check(stock, "stock"), expected_skips(|_| false));
}

fn stock_broker_speaking_only_v0_passes_what_it_runs(stock: &str) {
    let config = ProxyConfig {
        upstream: stock.to_owned(),
        version_caps: [(88, 0), (89, 0)].into(),
        ..ProxyConfig::default()
    };
    through_proxy(config, |address| {
        let run = check(address, "v0");
        let negotiated_v0 = run.2["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["reason"] == "needs StreamsGroupHeartbeat v1; the target speaks v0");
        assert!(negotiated_v0, "{}", run.1);
        passes_what_it_runs(run, expected_skips(needs_v1));
    });
}

fn stock_broker_refusing_the_default_replication_factor_passes_what_it_runs(stock: &str) {
    let config = ProxyConfig {
        upstream: stock.to_owned(),
        refuse_default_replication_factor: true,
        ..ProxyConfig::default()
    };
    through_proxy(config, |address| {
        passes_what_it_runs(check(address, "replication"), expected_skips(|_| false));
    });
}

/// A broker without the consumer group protocol (a Streams-only one) skips R19, which alone needs
/// it, naming the api, instead of failing it on a closed connection.
fn stock_broker_without_consumer_groups_skips_r19_naming_the_api(stock: &str) {
    let mut config = ProxyConfig {
        upstream: stock.to_owned(),
        ..ProxyConfig::default()
    };
    config.faults.refused_apis = vec![68];
    through_proxy(config, |address| {
        let (code, stdout, report) = check_with(address, "no-consumer", &["--rules", "R19"]);
        assert_eq!(code, Some(2), "{stdout}");
        let outcomes: Vec<(&str, &str, &str)> = report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                (
                    o["scenario"].as_str().unwrap(),
                    o["verdict"].as_str().unwrap(),
                    o["reason"].as_str().unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            outcomes,
            [(
                "R19-consumer-group-id-taken",
                "skip",
                "the target cannot make a consumer group: it does not offer ConsumerGroupHeartbeat (api key 68)"
            )]
        );
        // doctor foresees that skip, with the same reason.
        let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
            .args(["doctor", "--target", address, "--rules", "R19", "--verbose"])
            .env("COLUMNS", "1000")
            .output()
            .expect("the streamspec binary runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{stdout}");
        assert!(
            stdout.contains(
                "\nthe catalogue under --expect kafka-4.4: 1 scenario, 0 would run, 1 would be skipped\n"
            ),
            "{stdout}"
        );
        assert!(
            stdout.contains("the target cannot make a consumer group: it does not offer ConsumerGroupHeartbeat (api key 68)"),
            "{stdout}"
        );
    });
}

/// `doctor` foresees exactly the skips `check` makes.
fn doctor_foresees_the_skips_of_check(stock: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["doctor", "--target", stock, "--verbose"])
        .env("COLUMNS", "1000")
        .output()
        .expect("the streamspec binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let skipped = expected_skips(|_| false);
    let total = streamspec::scenario::catalogue().len();
    assert!(
        stdout.contains(&format!(
            "\nthe catalogue under --expect kafka-4.4: {total} scenarios, {} would run, {} would be skipped\n",
            total - skipped.len(),
            skipped.len()
        )),
        "{stdout}"
    );
    for name in &skipped {
        assert!(stdout.contains(name.as_str()), "{name}\n{stdout}");
    }
    assert!(
        stdout.contains("\n  StreamsGroupHeartbeat     88  v0-1     the protocol under test\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  group.streams.min.session.timeout.ms         45000\n"),
        "{stdout}"
    );
}

fn stock_broker_speaking_the_kip_draft_passes_what_it_runs(stock: &str) {
    let config = ProxyConfig {
        upstream: stock.to_owned(),
        dialect: Dialect::KipDraft,
        ..ProxyConfig::default()
    };
    through_proxy(config, |address| {
        let run = check_with(address, "kip-draft", &["--dialect", "kip-draft"]);
        let draft = streamspec::draft::applicability();
        passes_what_it_runs(
            run,
            expected_skips(|scenario| draft.reason(&scenario.name).is_some()),
        );
    });
}

/// A single broker cannot hold topics of 3 replicas: `check` and `fuzz` say so before anything
/// runs, where every scenario's topic creation was refused and read as 149 errors of the target.
fn a_replication_factor_above_the_brokers_is_refused_before_anything_runs(stock: &str) {
    for command in ["check", "fuzz"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_streamspec"))
            .args([command, "--target", stock, "--replication-factor", "3"])
            .output()
            .expect("the streamspec binary runs");
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert!(output.stdout.is_empty(), "{command}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr).trim_end(),
            format!("streamspec: --replication-factor 3: the cluster of {stock} has 1 broker, and a topic cannot have more replicas than there are brokers; give --replication-factor 1, or -1 for the broker's default"),
            "{command}"
        );
    }
}

const TESTS: [BrokerTest; 7] = [
    (
        "stock_broker_without_consumer_groups_skips_r19_naming_the_api",
        stock_broker_without_consumer_groups_skips_r19_naming_the_api,
    ),
    (
        "doctor_foresees_the_skips_of_check",
        doctor_foresees_the_skips_of_check,
    ),
    (
        "stock_broker_passes_what_it_runs",
        stock_broker_passes_what_it_runs,
    ),
    (
        "stock_broker_speaking_only_v0_passes_what_it_runs",
        stock_broker_speaking_only_v0_passes_what_it_runs,
    ),
    (
        "stock_broker_speaking_the_kip_draft_passes_what_it_runs",
        stock_broker_speaking_the_kip_draft_passes_what_it_runs,
    ),
    (
        "stock_broker_refusing_the_default_replication_factor_passes_what_it_runs",
        stock_broker_refusing_the_default_replication_factor_passes_what_it_runs,
    ),
    (
        "a_replication_factor_above_the_brokers_is_refused_before_anything_runs",
        a_replication_factor_above_the_brokers_is_refused_before_anything_runs,
    ),
];

fn main() {
    common::run_broker_tests("STREAMSPEC_KAFKA_STOCK", &TESTS);
}
