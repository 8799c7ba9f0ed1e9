//! The `streamspec` command line: usage and connection errors are one clear line and exit 2.

use std::process::{Command, Output};

fn streamspec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(args)
        .output()
        .expect("the streamspec binary runs")
}

fn stderr_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A file `name` holding `contents`, in a folder of this process's own named after `tag`.
fn scratch_file(tag: &str, name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("streamspec-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, contents).unwrap();
    file
}

#[test]
fn nothing_listening_is_one_line_and_exit_2() {
    let output = streamspec(&["check", "--target", "127.0.0.1:1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: cannot connect to 127.0.0.1:1: nothing listens there (connection refused)"]
    );
}

#[test]
fn an_address_without_port_is_one_line_and_exit_2() {
    let output = streamspec(&["check", "--target", "localhost"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: cannot connect to localhost: not HOST:PORT (e.g. localhost:9092), nor `embedded`"]
    );
}

#[test]
fn check_defaults_to_the_embedded_reference_coordinator() {
    let output = streamspec(&["check"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let catalogue = streamspec::scenario::catalogue();
    assert_eq!(
        stderr_lines(&output)[0],
        format!(
            "streamspec check --target embedded: {} scenarios, run id embedded",
            catalogue.len()
        )
    );
    // Every scenario passes against the reference, but for the divergences recorded for it and
    // those stating the behaviour of releases before 4.4 only.
    let rules: std::collections::BTreeSet<&String> =
        catalogue.iter().flat_map(|s| &s.rules).collect();
    let divergent = streamspec::runner::divergences()
        .iter()
        .filter(|divergence| divergence.target.as_deref() == Some("embedded"))
        .count();
    let skipped = catalogue
        .iter()
        .filter(|scenario| {
            let profiles = &scenario.requires.profiles;
            !profiles.is_empty() && !profiles.contains(&streamspec::scenario::Profile::Kafka44)
        })
        .count();
    assert_eq!(skipped, 2);
    let summary = format!(
        "{} rules (0 failing, 0 not checked) in {} scenarios: {} passed, 0 failed, 0 errors, 0 timed out, {skipped} skipped, 0 preconditions not met, {divergent} known divergences; PASSED",
        rules.len(),
        catalogue.len(),
        catalogue.len() - divergent - skipped
    );
    assert_eq!(stdout.lines().last(), Some(summary.as_str()), "{stdout}");
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let output = streamspec(&["check", "--target", "127.0.0.1:1", "--bogus"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unexpected argument '--bogus'"));
}

#[test]
fn a_malformed_scenario_file_is_refused_with_path_and_line() {
    let dir = std::env::temp_dir().join(format!("streamspec-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.json");
    std::fs::write(&file, "{\n  \"name\": \"x\",\n  \"title\": 5\n}\n").unwrap();
    let path = file.to_str().unwrap();
    let output = streamspec(&[
        "check",
        "--target",
        "127.0.0.1:1",
        "--scenarios",
        path,
        "--only-scenarios",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!(
            "streamspec: {path}:3:12: invalid type: integer `5`, expected a string"
        )]
    );
    let missing = dir.join("missing");
    let output = streamspec(&["list", "--scenarios", missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!(
            "streamspec: {}: no such file or folder",
            missing.display()
        )]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_names_every_rule_of_the_catalogue() {
    let output = streamspec(&["list"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text
        .lines()
        .any(|line| line.starts_with("R1 ") && line.contains("R01-blank-member-id")));
    let catalogue = streamspec::scenario::catalogue();
    let rules: std::collections::BTreeSet<&String> = catalogue
        .iter()
        .flat_map(|scenario| &scenario.rules)
        .collect();
    let with_evidence = catalogue
        .iter()
        .filter(|scenario| scenario.evidence.is_some())
        .count();
    assert!(
        text.ends_with(&format!(
            "\n{} rules, {} scenarios ({with_evidence} carry evidence from the real broker: --evidence)\n",
            rules.len(),
            catalogue.len()
        )),
        "{text}"
    );
}

#[test]
fn list_names_an_external_rule_id_as_written_after_the_specs() {
    let output = streamspec(&["list", "--rules", "KAFKA-*"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    let rules: Vec<&str> = text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .take(2)
        .collect();
    assert_eq!(rules, ["R54", "KAFKA-19233"], "{text}");
    // The rule column is as wide as its longest id, so the columns after it line up.
    let lines: Vec<&str> = text.lines().take(2).collect();
    assert!(lines[0].starts_with("R54         "), "{text}");
    assert_eq!(lines[0].find(" MUST"), lines[1].find(" MUST"), "{text}");
    assert!(lines[1].starts_with("KAFKA-19233 "), "{text}");
    assert!(
        text.ends_with(
            "\n2 rules, 1 scenario (1 carries evidence from the real broker: --evidence)\n"
        ),
        "{text}"
    );
}

#[test]
fn rule_selection_that_matches_nothing_is_a_usage_error() {
    let output = streamspec(&["list", "--rules", "R999"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: no scenario matches --rules R999"]
    );
}

#[test]
fn fuzz_prints_its_command_first_reports_every_invariant_and_writes_reports() {
    let dir = std::env::temp_dir().join(format!("streamspec-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junit = dir.join("fuzz.xml");
    let json = dir.join("fuzz.json");
    let html = dir.join("fuzz.html");
    // A count of runs, not a duration, so that every `sometimes` property is reached however
    // loaded the machine is (the 40 runs of seed 3 reach them all; 14 runs do not take an instance).
    let output = streamspec(&[
        "fuzz",
        "--runs",
        "40",
        "--seed",
        "3",
        "--operations",
        "50",
        "--check-determinism",
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "streamspec fuzz --target embedded --seed 3 --operations 50 --runs 40 --check-determinism"
    );
    let passing = lines
        .iter()
        .filter(|line| line.trim_end().ends_with(" pass        MUST"))
        .count();
    assert_eq!(passing, 14, "{stdout}");
    let rate = lines
        .iter()
        .find(|line| line.contains(" with the oracle on"))
        .unwrap();
    let runs: u64 = rate.split(' ').next().unwrap().parse().unwrap();
    assert!(runs > 0, "{rate}");
    // A line per `sometimes` property, in list order, each reached.
    let sometimes: Vec<&str> = lines
        .iter()
        .filter(|line| line.starts_with("sometimes: "))
        .map(|line| line.split(" reached ").next().unwrap().trim_end())
        .collect();
    assert_eq!(
        sometimes,
        [
            "sometimes: a task is revoked",
            "sometimes: a member is fenced",
            "sometimes: a member is unknown",
            "sometimes: a standby is placed",
            "sometimes: a static member leaves",
            "sometimes: an instance id is taken",
            "sometimes: the topology is not ready",
        ],
        "{stdout}"
    );
    assert!(
        lines.iter().any(|line| line
            .strip_prefix("sometimes: a task is revoked         reached ")
            .is_some_and(|count| count.ends_with(" times"))),
        "{stdout}"
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .collect();
    // An entry per `always` and `eventually` property, and per `sometimes` one.
    assert_eq!(cases.len(), 15 + 7);
    let revoked = cases
        .iter()
        .find(|case| case.attribute("classname") == Some("sometimes: a task is revoked"))
        .unwrap();
    assert_eq!(
        revoked.attribute("name"),
        Some("sometimes: a task is revoked (R27, R28)")
    );
    let property = |name: &str| {
        revoked
            .descendants()
            .find(|node| node.attribute("name") == Some(name))
            .and_then(|node| node.attribute("value"))
            .map(str::to_owned)
    };
    assert_eq!(property("verdict").as_deref(), Some("reached"));
    assert_eq!(property("fails-run").as_deref(), Some("false"));
    assert!(property("count").unwrap().parse::<u64>().unwrap() > 0);
    assert!(cases
        .iter()
        .all(|case| !case.children().any(|c| c.has_tag_name("failure"))));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["target"], "embedded");
    assert_eq!(report["passed"], true);
    assert_eq!(report["verdict"], "passed");
    assert_eq!(report["stopped_early"], serde_json::Value::Null);
    let sometimes = report["sometimes"].as_array().unwrap();
    assert_eq!(sometimes.len(), 7);
    assert_eq!(sometimes[0]["property"], "sometimes: a task is revoked");
    assert_eq!(sometimes[0]["rules"], "R27, R28");
    assert_eq!(sometimes[0]["reached"], true);
    assert!(sometimes[0]["count"].as_u64().unwrap() > 0, "{sometimes:?}");
    assert_eq!(report["warnings"], serde_json::json!([]));
    // The page: the same decision, every property reached, no failing run to lay out.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("data-verdict=\"passed\" data-exit-code=\"0\""));
    assert_eq!(page.matches("<tr class=\"reached\">").count(), 7);
    assert_eq!(page.matches("<tr class=\"rule pass\"").count(), 14);
    assert!(!page.contains("<section id=\"timeline\">"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fuzz_differential_compares_every_answer_and_says_so() {
    let output = streamspec(&[
        "fuzz",
        "--differential",
        "--seed",
        "3",
        "--operations",
        "50",
        "--duration",
        "1s",
    ]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "streamspec fuzz --target embedded --seed 3 --operations 50 --duration 1s --differential"
    );
    assert!(
        lines.iter().any(
            |line| line.starts_with("always: answers equal the reference's")
                && line.trim_end().ends_with(" pass        MUST")
        ),
        "{stdout}"
    );
    let compared = lines
        .iter()
        .find_map(|line| line.strip_prefix("compared with the reference: "))
        .expect("a line of what was compared");
    let heartbeats: u64 = compared.split(' ').next().unwrap().parse().unwrap();
    let rate = lines
        .iter()
        .find(|line| line.contains(" with the oracle on"))
        .unwrap();
    // Every heartbeat of every run was compared.
    assert_eq!(
        rate.split(", ")
            .nth(2)
            .and_then(|part| part.split(' ').next()),
        Some(heartbeats.to_string().as_str()),
        "{stdout}"
    );
}

/// The JSON report's `campaign` and the JUnit report's properties give the seed and totals the
/// console's closing lines print, so that CI tells a run of two from a long one.
#[test]
fn fuzz_reports_carry_the_seed_and_totals_the_console_prints() {
    let dir = std::env::temp_dir().join(format!("streamspec-totals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, junit) = (dir.join("fuzz.json"), dir.join("fuzz.xml"));
    let output = streamspec(&[
        "fuzz",
        "--differential",
        "--seed",
        "3",
        "--operations",
        "20",
        "--first-run",
        "1",
        "--runs",
        "2",
        "--jobs",
        "2",
        "--json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut campaign = report["campaign"].clone();
    // Times vary from run to run; the console shows them rounded.
    let elapsed = campaign["elapsed_seconds"].take().as_f64().unwrap();
    let cpu = campaign["cpu_seconds"].take().as_f64().unwrap();
    let per_cpu_second = campaign["operations_per_cpu_second"]
        .take()
        .as_u64()
        .unwrap();
    assert_eq!(
        campaign,
        serde_json::json!({
            "seed": 3,
            "first_run": 1,
            "runs": 2,
            "operations": 33,
            "heartbeats": 21,
            "elapsed_seconds": null,
            "cpu_seconds": null,
            "operations_per_cpu_second": null,
            "jobs": 2,
            "groups": null,
            "outcome_digest": "0xf799bd4abb6b4e0a",
            "compared": {
                "heartbeats": 21,
                "describes": 26,
                "timing_sensitive": 4,
                "runs_meeting_recorded_divergences": 0,
                "recorded_divergences_met": 0,
                "heartbeats_not_compared": 0
            }
        })
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[lines.len() - 3..],
        [
            format!(
                "2 runs, 33 operations ({:.0}/s), 21 heartbeats ({:.0}/s) in {elapsed:.1} s with the oracle on",
                33.0 / elapsed,
                21.0 / elapsed
            ),
            format!("{per_cpu_second} operations per CPU second ({cpu:.2} CPU s over 2 jobs); outcome digest 0xf799bd4abb6b4e0a"),
            "compared with the reference: 21 heartbeats and 26 describes (4 timing-sensitive)".to_owned(),
        ]
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suite = document
        .descendants()
        .find(|node| node.has_tag_name("testsuite"))
        .unwrap();
    let properties: Vec<(&str, &str)> = suite
        .children()
        .find(|node| node.has_tag_name("properties"))
        .unwrap()
        .children()
        .filter(|node| node.has_tag_name("property"))
        .map(|node| {
            (
                node.attribute("name").unwrap(),
                node.attribute("value").unwrap(),
            )
        })
        .collect();
    let (elapsed, cpu, per_cpu_second) = (
        elapsed.to_string(),
        cpu.to_string(),
        per_cpu_second.to_string(),
    );
    assert_eq!(
        properties,
        [
            ("verdict", "passed"),
            ("strict", "false"),
            ("seed", "3"),
            ("first-run", "1"),
            ("runs", "2"),
            ("operations", "33"),
            ("heartbeats", "21"),
            ("elapsed-seconds", elapsed.as_str()),
            ("cpu-seconds", cpu.as_str()),
            ("operations-per-cpu-second", per_cpu_second.as_str()),
            ("jobs", "2"),
            ("outcome-digest", "0xf799bd4abb6b4e0a"),
            ("compared-heartbeats", "21"),
            ("compared-describes", "26"),
            ("compared-timing-sensitive", "4"),
            ("compared-runs-meeting-recorded-divergences", "0"),
            ("compared-recorded-divergences-met", "0"),
            ("compared-heartbeats-not-compared", "0"),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn differential_runs_refuse_the_kip_draft_dialect_in_one_line() {
    let output = streamspec(&["fuzz", "--differential", "--dialect", "kip-draft"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: --differential compares answers in Kafka's dialect; under --dialect kip-draft the translation itself makes them differ (member ids, endpoint epochs), so the two cannot be combined"]
    );
}

#[test]
fn a_divergence_whose_rules_are_not_its_scenarios_is_refused_with_both() {
    let file = scratch_file(
        "rules",
        "ours.json",
        r#"[{"scenario": "R46-endpoint-member-while-source-topics-missing", "rules": ["R45", "R46"],
            "reason": "r", "evidence": "e"}]"#,
    );
    let output = streamspec(&["check", "--divergences", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: {}: the divergence of scenario R46-endpoint-member-while-source-topics-missing names rules [R45, R46], but the scenario checks [R46]; give it the scenario's rules", file.display())]
    );
    // Named twice for one target, one entry would stand in for the other, and a stale one would
    // no longer fail the run.
    std::fs::write(
        &file,
        r#"[{"scenario": "R25-join-first-assignment", "rules": ["R25"], "reason": "x", "evidence": "e"},
            {"scenario": "R25-join-first-assignment", "rules": ["R25"], "reason": "y", "evidence": "e"}]"#,
    )
    .unwrap();
    let output = streamspec(&["check", "--divergences", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: {0}: scenario R25-join-first-assignment has two divergences for the same target (the other in {0}); keep one", file.display())]
    );
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn fuzz_against_nothing_is_one_line_and_exit_2() {
    let output = streamspec(&["fuzz", "--target", "127.0.0.1:1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: cannot connect to 127.0.0.1:1: nothing listens there (connection refused)"]
    );
}

#[test]
fn replay_runs_a_saved_trace_through_the_oracle() {
    let dir = std::env::temp_dir().join(format!("streamspec-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("trace.json");
    let members = r#"{"process": 0, "static_member": false, "endpoint": true, "rack": null}"#;
    let text = format!(
        r#"{{"seed": 1, "run": 2, "target": "embedded", "violation": "none",
            "input": {{"setup": {{"topics": [2], "subtopologies": [{{"sources": [0],
            "reads_repartition": false, "changelog": false, "copartitioned": false}}],
            "standby_replicas": 0, "members": [{members}, {members}, {members}, {members}]}},
            "operations": [{{"Join": {{"member": 0}}}}, {{"Join": {{"member": 1}}}},
            {{"Leave": {{"member": 0}}}}]}}}}"#
    );
    std::fs::write(&trace, text).unwrap();
    let output = streamspec(&["replay", trace.to_str().unwrap(), "--history"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "replaying run 2 of seed 1 (found on embedded): none"
    );
    assert!(
        lines[1].starts_with("  [op 1 at 0 ms] m0-0 -> {"),
        "{stdout}"
    );
    let [.., counts, verdict] = lines.as_slice() else {
        panic!("{stdout}")
    };
    assert!(counts.starts_with("3 operations, "), "{stdout}");
    assert!(counts.ends_with(" exchanges, no violation"), "{stdout}");
    // The trace's violation is not found again, and the replay says so.
    assert_eq!(
        *verdict,
        "did not reproduce: the violation the trace recorded (none) was not found again"
    );

    // A trace found without --differential is compared with nothing, so divergences would
    // waive nothing: refused rather than ignored.
    let output = streamspec(&[
        "replay",
        trace.to_str().unwrap(),
        "--divergences",
        "ours.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: --divergences waives differences from the reference, which only a differential replay looks for: {} was not found with --differential; add --differential, or leave --divergences out", trace.display())]
    );

    std::fs::write(&trace, "[{\"Join\":{\"member\":0}}]").unwrap();
    let output = streamspec(&["replay", trace.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let lines = stderr_lines(&output);
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with(&format!(
            "streamspec: {}: not a trace that `streamspec fuzz` wrote: ",
            trace.display()
        )),
        "{lines:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn doctor_on_the_reference_foresees_its_skips() {
    let output = streamspec(&["doctor"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let catalogue = streamspec::scenario::catalogue();
    // As `check` finds it: only the scenarios about releases before 4.4 are skipped.
    let skipped: Vec<&str> = catalogue
        .iter()
        .filter(|scenario| {
            let profiles = &scenario.requires.profiles;
            !profiles.is_empty() && !profiles.contains(&streamspec::scenario::Profile::Kafka44)
        })
        .map(|scenario| scenario.name.as_str())
        .collect();
    assert_eq!(skipped.len(), 2);
    assert!(
        stdout.contains(&format!(
            "\nthe catalogue under --expect kafka-4.4: {} scenarios, {} would run, 2 would be skipped\n",
            catalogue.len(),
            catalogue.len() - 2
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  group.streams.min.session.timeout.ms         1000\n"),
        "{stdout}"
    );
    let under_4_3 = streamspec(&[
        "doctor",
        "--expect",
        "kafka-4.3",
        "--rules",
        "R49-static-membership-refused-before-v1",
    ]);
    assert_eq!(under_4_3.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&under_4_3.stdout)
        .contains(": 1 scenario, 1 would run, 0 would be skipped\n"));
}

#[test]
fn doctor_says_when_nothing_can_run() {
    let output = streamspec(&[
        "doctor",
        "--rules",
        "R49-static-membership-refused-before-v1",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(": 1 scenario, 0 would run, 1 would be skipped\n"),
        "{stdout}"
    );
}

#[test]
fn verbose_check_shows_every_exchange_of_a_passing_scenario() {
    let verbose = streamspec(&["check", "--rules", "R21-unknown-member", "-v"]);
    let stdout = String::from_utf8_lossy(&verbose.stdout);
    assert_eq!(verbose.status.code(), Some(0), "{stdout}");
    // The scenario's five steps: a join, three refused heartbeats and leave, a describe.
    let requests: Vec<&str> = stdout
        .lines()
        .filter(|line| line.trim_start().starts_with("step ") && line.contains("-->"))
        .map(str::trim_start)
        .collect();
    let scenario = streamspec::scenario::catalogue()
        .into_iter()
        .find(|scenario| scenario.name == "R21-unknown-member")
        .unwrap();
    assert_eq!(requests.len(), scenario.steps.len(), "{stdout}");
    assert_eq!(
        requests[0],
        "step 1: --> StreamsGroupHeartbeatRequest v1 (Kafka dialect, api key 88), 126 bytes"
    );
    assert!(
        stdout.contains(
            "\n        <-- StreamsGroupHeartbeatResponse v1 (Kafka dialect, api key 88), "
        ),
        "{stdout}"
    );
    let plain = streamspec(&["check", "--rules", "R21-unknown-member"]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("-->"));
}

#[test]
fn fuzz_in_two_jobs_carries_out_the_same_runs_with_the_same_outcomes() {
    let digest_line = |jobs: &str| {
        let output = streamspec(&[
            "fuzz",
            "--seed",
            "9",
            "--operations",
            "40",
            "--runs",
            "12",
            "--jobs",
            jobs,
            "-q",
        ]);
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        let lines: Vec<&str> = stdout.lines().collect();
        let jobs_flag = if jobs == "1" {
            String::new()
        } else {
            format!(" --jobs {jobs}")
        };
        assert_eq!(
            lines[0],
            format!(
                "streamspec fuzz --target embedded --seed 9 --operations 40 --runs 12{jobs_flag}"
            )
        );
        assert!(
            lines.iter().any(|line| line.starts_with("12 runs, ")),
            "{stdout}"
        );
        let digest = lines
            .iter()
            .find_map(|line| line.split_once("; outcome digest "))
            .map(|(_, digest)| digest.to_owned());
        digest.unwrap_or_else(|| panic!("no outcome digest in {stdout}"))
    };
    assert_eq!(digest_line("2"), digest_line("1"));
}

#[test]
fn quiet_fuzz_prints_no_passing_invariant() {
    let quiet = streamspec(&["fuzz", "--duration", "1s", "--seed", "5", "-q"]);
    let stdout = String::from_utf8_lossy(&quiet.stdout);
    assert_eq!(quiet.status.code(), Some(0), "{stdout}");
    assert!(
        !stdout.lines().any(|line| line.starts_with("always: ")),
        "{stdout}"
    );
    let normal = streamspec(&["fuzz", "--duration", "1s", "--seed", "5"]);
    let stdout = String::from_utf8_lossy(&normal.stdout);
    assert!(
        stdout
            .lines()
            .any(|line| line.starts_with("always: every request is answered")
                && line.contains(" pass ")),
        "{stdout}"
    );
}

#[test]
fn clean_of_the_reference_is_refused_in_one_line() {
    let output = streamspec(&["clean", "--target", "embedded"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: clean removes what runs left on a broker; the reference in process keeps nothing between runs"]
    );
}

#[test]
fn a_report_in_a_missing_folder_is_refused_before_anything_runs() {
    let output = streamspec(&["check", "--html", "no-such-folder/report.html"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: --html no-such-folder/report.html: there is no folder no-such-folder"]
    );
    let output = streamspec(&["fuzz", "--json", "no-such-folder/fuzz.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: --json no-such-folder/fuzz.json: there is no folder no-such-folder"]
    );
    // Two reports in one file, and a report where the next run would read it as a scenario.
    let output = streamspec(&["check", "--json", "r.json", "--html", "r.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: --html r.json: --json writes that file too; give each report a file of its own"]
    );
    let scenarios = format!("{}/scenarios/membership", env!("CARGO_MANIFEST_DIR"));
    let inside = format!("{scenarios}/report.json");
    let output = streamspec(&["check", "--scenarios", &scenarios, "--junit", &inside]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: --junit {inside}: is within the --scenarios folder {scenarios}, whose files are read as scenarios; write the report elsewhere")]
    );
    // A folder where the report's file belongs.
    let folder = std::env::temp_dir();
    let output = streamspec(&["check", "--junit", folder.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr_lines(&output),
        [format!(
            "streamspec: --junit {}: is a folder; name the report's file",
            folder.display()
        )]
    );
}

#[test]
fn bad_proxy_fault_values_are_usage_errors_naming_the_value() {
    let base = [
        "proxy",
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "127.0.0.1:1",
    ];
    for (flag, value, reason) in [
        (
            "--drop",
            "1.5",
            "not a fraction: \"1.5\" (use a number from 0 to 1, e.g. 0.1)",
        ),
        (
            "--delay",
            "0.1:3x",
            "not a duration: \"3x\" (use e.g. 60s, 2m, 500ms)",
        ),
        ("--refuse-api", "999", "unknown api key: 999"),
        ("--cap-version", "999=0", "unknown api key: 999"),
        (
            "--cap-version",
            "88=-1",
            "not a version cap: \"88=-1\" (use API=MAX, e.g. 88=0)",
        ),
        (
            "--stale-epoch",
            "2",
            "not a fraction: \"2\" (use a number from 0 to 1, e.g. 0.1)",
        ),
    ] {
        let output = streamspec(&[&base[..], &[flag, value]].concat());
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(reason), "{stderr}");
    }
}

#[test]
fn a_timeout_kafka_cannot_take_and_a_run_id_kafka_cannot_name_with_are_refused_before_anything_runs(
) {
    for (args, line) in [
        (
            ["check", "--timeout-ms", "0"],
            "error: invalid value '0' for '--timeout-ms <TIMEOUT_MS>': 0 is not in 1..=2147483647",
        ),
        (
            // Kafka's topic timeouts are 32-bit: a larger one wrapped and failed every creation.
            ["fuzz", "--timeout-ms", "2147483648"],
            "error: invalid value '2147483648' for '--timeout-ms <TIMEOUT_MS>': 2147483648 is not in 1..=2147483647",
        ),
        (
            ["check", "--run-id", ""],
            "error: invalid value '' for '--run-id <RUN_ID>': not a run id: \"\" (1 to 64 of ASCII letters, digits, '.', '_' and '-', as Kafka's names take)",
        ),
        (
            ["fuzz", "--run-id", "a b"],
            "error: invalid value 'a b' for '--run-id <RUN_ID>': not a run id: \"a b\" (1 to 64 of ASCII letters, digits, '.', '_' and '-', as Kafka's names take)",
        ),
        (
            // A negative number is a value that is not valid, not an unknown flag.
            ["fuzz", "--seed", "-1"],
            "error: invalid value '-1' for '--seed <SEED>': invalid digit found in string",
        ),
        (
            ["check", "--timeout-ms", "-5"],
            "error: invalid value '-5' for '--timeout-ms <TIMEOUT_MS>': invalid digit found in string",
        ),
    ] {
        let output = streamspec(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr_lines(&output)[0], line, "{args:?}");
    }
    // A range past the last run number ran nothing, silently.
    let output = streamspec(&["fuzz", "--runs", "3", "--first-run", "18446744073709551613"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: --first-run 18446744073709551613 --runs 3: runs are numbered below 18446744073709551615"]
    );
}

/// Seed 3's run 1094 meets Kafka 4.4.0's known issue of a member taking a released instance,
/// which the reference shares: a replay that meets it cannot tell whether the trace's violation
/// is gone, and says so rather than "did not reproduce".
#[test]
fn a_replay_that_meets_a_known_issue_does_not_claim_the_violation_is_gone() {
    let (stdout, lines) = replay_campaign_run(3, 1094, "settles", false);
    assert!(
        lines.iter().any(|line| line.starts_with("known issue kafka-member-takes-a-released-instance (waives \"eventually: the group settles with every task owned once\")")),
        "{stdout}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("not told: the run met the known behaviour above, which waives what it breaks, so this replay cannot say whether the violation the trace recorded (settles) is gone")
    );
}

#[test]
fn the_proxys_trace_folder_is_made_when_missing_even_for_a_report_inside_and_a_file_there_is_refused(
) {
    let dir = std::env::temp_dir().join(format!("streamspec-trace-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Nothing listens on port 1: the proxy starts, passes no traffic and ends NOTHING CHECKED.
    let proxy = |trace_dir: &std::path::Path, json: Option<&std::path::Path>| {
        let mut args = vec![
            "proxy".to_owned(),
            "--listen=127.0.0.1:0".to_owned(),
            "--upstream=127.0.0.1:1".to_owned(),
            "--duration=1s".to_owned(),
            format!("--trace-dir={}", trace_dir.display()),
        ];
        args.extend(json.map(|json| format!("--json={}", json.display())));
        streamspec(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let nested = dir.join("a").join("b");
    let output = proxy(&nested, Some(&nested.join("live.json")));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // A report may be written inside the folder made for the traces.
    assert!(nested.join("live.json").is_file());
    let file = dir.join("file");
    std::fs::write(&file, b"").unwrap();
    let output = proxy(&file, None);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(
        stderr_lines(&output).last().map(String::as_str),
        Some(
            format!(
                "streamspec: --trace-dir {}: a file, not a folder",
                file.display()
            )
            .as_str()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_zero_duration_is_refused() {
    for command in ["fuzz", "proxy"] {
        let output = streamspec(&[command, "--duration", "0s"]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(
                "invalid value '0s' for '--duration <DURATION>': \"0s\" would end the run before anything ran: give a duration above zero, e.g. 60s"
            ),
            "{command}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn a_differential_run_takes_the_answer_divergences_of_a_mixed_file_and_refuses_a_file_without_any()
{
    let ours = concat!(env!("CARGO_MANIFEST_DIR"), "/divergences.json");
    let output = streamspec(&[
        "fuzz",
        "--runs",
        "2",
        "--differential",
        "--divergences",
        ours,
        "-q",
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let dir = std::env::temp_dir().join(format!("streamspec-divergences-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenarios_only = dir.join("scenarios.json");
    std::fs::write(
        &scenarios_only,
        r#"[{"scenario":"R01-blank-member-id","rules":["R1"],"reason":"r","evidence":"e"}]"#,
    )
    .unwrap();
    let output = streamspec(&[
        "fuzz",
        "--runs",
        "1",
        "--differential",
        "--divergences",
        scenarios_only.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: {}: no divergence of answers (an entry with a `field`) to waive in a differential run; its one entry names a scenario, which only check waives", scenarios_only.display())]
    );
}

/// check waives scenarios: a file of field entries alone, which only a differential run waives,
/// is refused as a differential run refuses one of scenarios alone.
#[test]
fn check_refuses_a_divergence_file_of_answer_fields_alone() {
    let file = scratch_file(
        "fields-only",
        "fields.json",
        r#"[{"field":".errorCode","rules":["R46"],"reason":"r","evidence":"e"}]"#,
    );
    let output = streamspec(&["check", "--divergences", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: {}: no divergence of a scenario (an entry with a `scenario`) to waive in check; its one entry names a field of answers, which only a differential run (fuzz --differential) waives", file.display())]
    );
}

/// A differential run warns, as check does, of a divergence file none of whose entries names
/// its target (recorded against the same broker under another address, say).
#[test]
fn a_differential_run_warns_of_a_divergence_file_for_another_target() {
    let file = scratch_file(
        "other-target",
        "other.json",
        r#"[{"field":".errorCode","target":"10.0.0.9:9092","rules":["R46"],"reason":"r","evidence":"e"}]"#,
    );
    let output = streamspec(&[
        "fuzz",
        "--runs=1",
        "--differential",
        "--divergences",
        file.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let warning = format!(
        "the divergence in {} did not apply: it names 10.0.0.9:9092, not embedded",
        file.display()
    );
    assert!(stdout.contains(&warning), "{stdout}");
}

/// A differential replay says what it compared, as the campaign's last line does: seed 7's run 0
/// is the run `fuzz --runs 1 --seed 7 --differential` carries out (79 heartbeats, 92 describes).
#[test]
fn a_differential_replay_says_what_it_compared() {
    let (_, lines) = replay_campaign_run(7, 0, "answers", true);
    assert_eq!(
        lines[lines.len() - 3..],
        [
            "155 operations, 79 exchanges, no violation",
            "compared with the reference: 79 heartbeats and 92 describes (4 timing-sensitive)",
            "did not reproduce: the violation the trace recorded (answers) was not found again"
        ]
    );
}

/// Replays run `run` of the in-process campaign of `seed` from a trace recording `violation`:
/// its output (exit 0 asserted) and the output's lines.
fn replay_campaign_run(
    seed: u64,
    run: u64,
    violation: &str,
    differential: bool,
) -> (String, Vec<String>) {
    let file = campaign_trace(seed, run, violation, differential);
    let output = streamspec(&["replay", file.to_str().unwrap()]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let lines = stdout.lines().map(str::to_owned).collect();
    (stdout, lines)
}

/// A trace file of run `run` of the in-process campaign of `seed`, recording `violation`.
fn campaign_trace(seed: u64, run: u64, violation: &str, differential: bool) -> std::path::PathBuf {
    let config = streamspec::CampaignConfig {
        seed,
        ..streamspec::CampaignConfig::default()
    };
    let trace = streamspec::campaign::Trace {
        seed,
        run,
        target: "embedded".to_owned(),
        violation: violation.to_owned(),
        differential,
        input: config.input(run),
    };
    // A folder of each call's own: tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "streamspec-replay-{seed}-{run}-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("trace.json");
    std::fs::write(&file, serde_json::to_string(&trace).unwrap()).unwrap();
    file
}

/// The draft's dialect cannot be compared with the reference's answers: a differential trace's
/// replay under it names the trace, not a --differential the user did not give.
#[test]
fn a_differential_traces_replay_refuses_the_kip_draft_dialect_naming_the_trace() {
    let file = campaign_trace(7, 0, "answers", true);
    let output = streamspec(&["replay", file.to_str().unwrap(), "--dialect", "kip-draft"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: {} was found by `fuzz --differential`, which compares answers in Kafka's dialect, and its replay compares them again; under --dialect kip-draft the translation itself makes them differ: leave --dialect out", file.display())]
    );
}

/// A trace of two runs that differed is replayed as the campaign judged it, by two runs: the
/// reference's agree, so it is not reproduced (one run could not have told).
#[test]
fn a_replay_of_nondeterminism_runs_the_input_twice() {
    let (_, lines) = replay_campaign_run(
        7,
        0,
        "always: a seed gives one trace (streamspec) violated at operation 0: trace hashes 1 and 2 differ",
        false,
    );
    assert_eq!(
        lines[lines.len() - 3..],
        [
            "ran the input twice, as --check-determinism does: the traces agree",
            "155 operations, 79 exchanges, no violation",
            "did not reproduce: the violation the trace recorded (always: a seed gives one trace (streamspec) violated at operation 0: trace hashes 1 and 2 differ) was not found again"
        ]
    );
}

/// A trace whose operations were cut below its violation's cannot show it again: refused before
/// anything runs, rather than answered as a fixed target is. Seed 7's run 0 has 155 operations,
/// its settling rounds numbered 156, where a violation is still in reach.
#[test]
fn a_trace_cut_below_its_violation_is_refused_but_one_of_the_settling_rounds_is_replayed() {
    let heading = "eventually: the group settles with every task owned once (spec 4.6-7, 4.6-10) violated at operation";
    let file = campaign_trace(7, 0, &format!("{heading} 157: not settled"), false);
    let output = streamspec(&["replay", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(
        stderr_lines(&output),
        [format!("streamspec: {}: 155 operations, but the violation it records is at operation 157, past them and the settling rounds after them (operation 156): no replay can reach it; put back the operations taken out", file.display())]
    );
    assert!(output.stdout.is_empty());

    let (_, lines) = replay_campaign_run(7, 0, &format!("{heading} 156: not settled"), false);
    assert_eq!(
        lines[lines.len() - 1],
        format!("did not reproduce: the violation the trace recorded ({heading} 156: not settled) was not found again")
    );
}

/// A copy of our own divergences passed as the user's repeats what every run knows: taken as
/// said, not refused as two divergences for one scenario.
#[test]
fn a_copy_of_our_divergences_is_taken_as_ours() {
    let ours = concat!(env!("CARGO_MANIFEST_DIR"), "/divergences.json");
    let output = streamspec(&["check", "--rules", "R46*", "--divergences", ours, "-q"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).ends_with(
        "in 7 scenarios: 6 passed, 0 failed, 0 errors, 0 timed out, 0 skipped, 0 preconditions not met, 1 known divergences; PASSED\n"
    ));
}

/// `--groups` is a broker's; in process it did nothing, silently.
#[test]
fn groups_are_refused_in_process() {
    let output = streamspec(&["fuzz", "--groups", "2", "--duration", "1s"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&output),
        ["streamspec: --groups 2: groups run at once against a broker; in process, --jobs N carries the runs out on N threads"]
    );
}
