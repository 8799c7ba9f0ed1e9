//! `streamspec check` and `fuzz` with `--dialect kip-draft`: the reference's KIP draft adapter,
//! graded through the translation from Kafka's dialect.

use std::process::{Command, Output};

fn streamspec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(args)
        .output()
        .expect("the streamspec binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn check_dialect_kip_draft_passes_and_names_every_skip() {
    let output = streamspec(&["check", "--dialect", "kip-draft", "--strict"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("53 rules (0 failing, 6 not checked) in 173 scenarios: 132 passed, 0 failed, 0 errors, 0 timed out, 40 skipped, 0 preconditions not met, 1 known divergences; PASSED")
    );
    // The skips, grouped by reason (wrapped at 80 columns).
    for line in [
        "skipped 6 scenarios (R47-describe-group-denied, ...):",
        "  does not apply to the KIP draft: the rule is about StreamsGroupDescribe, which",
        "skipped 8 scenarios (R37-empty-group-topology-replace-higher-epoch, ...):",
        "skipped 2 scenarios (R25-missing-client-tags-message, R25-missing-client-tags):",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} in {text}");
    }
    assert!(String::from_utf8_lossy(&output.stderr)
        .starts_with("streamspec check --target embedded: 173 scenarios, run id embedded"),);
}

#[test]
fn verbose_check_dialect_kip_draft_shows_the_drafts_bytes() {
    let output = streamspec(&[
        "check",
        "--dialect",
        "kip-draft",
        "-v",
        "--rules",
        "R25-join-first-assignment",
    ]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("on the wire, in the target's dialect:"),
        "{text}"
    );
    assert!(
        text.contains(
            "--> StreamsGroupHeartbeatRequest v0 (KipDraft dialect, api key 88), 133 bytes"
        ),
        "{text}"
    );
    assert!(text.contains("group_topology_id = \"0\""), "{text}");
}

#[test]
fn fuzz_dialect_kip_draft_is_clean() {
    let output = streamspec(&[
        "fuzz",
        "--dialect",
        "kip-draft",
        "--duration",
        "20s",
        "--seed",
        "1",
        "-q",
    ]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "streamspec fuzz --target embedded --seed 1 --operations 200 --duration 20s --dialect kip-draft"
    );
    assert!(
        text.contains("15 invariants (0 failing, 2 not checked): 13 passed, 0 violated, 0 errors, 0 known divergences; PASSED"),
        "{text}"
    );
}

#[test]
fn doctor_dialect_kip_draft_foresees_the_skips_of_check() {
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["doctor", "--dialect", "kip-draft", "--verbose"])
        .env("COLUMNS", "1000")
        .output()
        .expect("the streamspec binary runs");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    // check's 39 skips: the draft's 37 inapplicable scenarios and the 2 of older releases.
    assert!(
        text.contains(
            "\nthe catalogue under --expect kafka-4.4: 173 scenarios, 133 would run, 40 would be skipped\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("does not apply to the KIP draft: the rule is about StreamsGroupDescribe"),
        "{text}"
    );
}
