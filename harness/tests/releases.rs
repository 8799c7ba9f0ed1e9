//! The catalogue against older Kafka releases, each held to its own behaviour profile:
//! Kafka 4.2.2 at `STREAMSPEC_KAFKA_4_2=HOST:PORT` under `--expect kafka-4.2`, and 4.3.2 at
//! `STREAMSPEC_KAFKA_4_3` under `--expect kafka-4.3` (both `scripts/kafka/start.sh` with
//! `KAFKA_VERSION`, the test profile's configs).
//!
//! Each run must pass every scenario it runs, with `--strict`; the scenarios it skips, and why,
//! must be exactly those recorded in `harness/tests/releases/kafka-<version>.json`, so that a
//! release's differences stay data and a new one shows. Without the variable each test reports
//! itself as skipped.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

mod common;

/// Scenario name to the reason a release's run skips it.
type Skips = BTreeMap<String, String>;

fn passes_with_recorded_skips(address: &str, profile: &str, recorded: &str) {
    let json_path = std::env::temp_dir().join(format!(
        "streamspec-release-{profile}-{}.json",
        std::process::id()
    ));
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args([
            "check", "--target", address, "--strict", "--expect", profile,
        ])
        .arg("--json")
        .arg(&json_path)
        .output()
        .expect("the streamspec binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let report: Value = std::fs::read_to_string(&json_path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| {
            panic!(
                "no JSON report; stderr: {}\n{stdout}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
    std::fs::remove_file(&json_path).ok();
    let scenarios = report["scenarios"].as_array().expect("scenarios");
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
    let skipped: Skips = scenarios
        .iter()
        .filter(|outcome| outcome["verdict"] == "skip")
        .map(|outcome| {
            (
                outcome["scenario"].as_str().unwrap().to_owned(),
                outcome["reason"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let expected: Skips = serde_json::from_str(recorded).expect("the recorded skips are JSON");
    if skipped != expected {
        // What to record, when a difference is understood and accepted.
        eprintln!("{}", serde_json::to_string_pretty(&skipped).unwrap());
    }
    assert_eq!(skipped, expected, "{stdout}");
    assert_eq!(scenarios.len(), streamspec::scenario::catalogue().len());
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    // The release speaks v0 alone, as the flag says: no hint about it.
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("hint:"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn kafka_4_2_2_passes_what_it_runs(address: &str) {
    passes_with_recorded_skips(
        address,
        "kafka-4.2",
        include_str!("releases/kafka-4.2.2.json"),
    );
}

fn kafka_4_3_2_passes_what_it_runs(address: &str) {
    passes_with_recorded_skips(
        address,
        "kafka-4.3",
        include_str!("releases/kafka-4.3.2.json"),
    );
}

fn an_older_release_expected_of_a_v1_broker_gets_a_hint(address: &str) {
    check_gets_the_hint(
        address,
        &["--expect", "kafka-4.2"],
        &format!("streamspec: hint: --expect kafka-4.2 states the behaviour of a broker that speaks StreamsGroupHeartbeat v0 alone, and {address} speaks v0 to v1 (Kafka 4.4 speaks v1): its scenarios that need v0 alone will fail; leave --expect out for Kafka 4.4"),
    );
}

/// The default `--expect kafka-4.4` of a broker that speaks v0 alone (Kafka 4.3.2): its
/// scenarios of 4.4 behaviour fail there, and the hint names the flag that fits.
fn kafka_4_4_expected_of_a_v0_broker_gets_a_hint(address: &str) {
    check_gets_the_hint(
        address,
        &[],
        &format!("streamspec: hint: {address} speaks StreamsGroupHeartbeat v0 alone, as Kafka 4.2 and 4.3 do, and --expect kafka-4.4 (the default) states Kafka 4.4's behaviour: its scenarios of 4.4 behaviour will fail there; give --expect kafka-4.3 or kafka-4.2 to check it as such a release"),
    );
}

/// `check --rules R31` with `expect` gives `hint` as its first line on stderr, and runs on.
fn check_gets_the_hint(address: &str, expect: &[&str], hint: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["check", "--target", address])
        .args(expect)
        .args(["--rules", "R31", "-q"])
        .output()
        .expect("the streamspec binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().next(), Some(hint), "{stderr}");
    // A hint, not a refusal: the run goes on.
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

fn main() {
    common::run_broker_test_groups(&[
        (
            "STREAMSPEC_KAFKA",
            &[(
                "an_older_release_expected_of_a_v1_broker_gets_a_hint",
                an_older_release_expected_of_a_v1_broker_gets_a_hint,
            )],
        ),
        (
            "STREAMSPEC_KAFKA_4_2",
            &[(
                "kafka_4_2_2_passes_what_it_runs",
                kafka_4_2_2_passes_what_it_runs,
            )],
        ),
        (
            "STREAMSPEC_KAFKA_4_3",
            &[
                (
                    "kafka_4_3_2_passes_what_it_runs",
                    kafka_4_3_2_passes_what_it_runs,
                ),
                (
                    "kafka_4_4_expected_of_a_v0_broker_gets_a_hint",
                    kafka_4_4_expected_of_a_v0_broker_gets_a_hint,
                ),
            ],
        ),
    ]);
}
