//! The reports' tests: one run's verdict as each report states it.

use super::*;

fn outcome(name: &str, rules: &[&str], grade: Grade, verdict: Verdict) -> Outcome {
    Outcome {
        scenario: name.to_owned(),
        title: format!("title of {name}"),
        rules: rules.iter().map(|rule| (*rule).to_owned()).collect(),
        grade,
        source: "x.json".to_owned(),
        verdict,
        reason: (verdict != Verdict::Pass).then(|| "expected 1, found <2> & \"3\"".to_owned()),
        step: None,
        wire: None,
        cleanup: None,
        mismatch: None,
        exchanges: Vec::new(),
        duration_ms: 1500,
        stale_divergence: false,
    }
}

fn report(strict: bool, outcomes: Vec<Outcome>) -> Report {
    Report::new(
        "check",
        "127.0.0.1:9092".to_owned(),
        "r".to_owned(),
        strict,
        outcomes,
    )
}

fn line(
    rule: &str,
    verdict: RuleVerdict,
    grade: Grade,
    fails_run: bool,
    decided_by: &str,
    scenarios: usize,
    skipped: usize,
) -> RuleLine {
    RuleLine {
        rule: rule.into(),
        verdict,
        grade,
        fails_run,
        decided_by: decided_by.into(),
        scenarios,
        skipped,
        preconditions_not_met: 0,
    }
}

#[test]
fn a_rule_shows_the_grade_of_the_scenario_that_failed() {
    let report = report(
        false,
        vec![
            outcome("a", &["R10", "R2"], Grade::Must, Verdict::Pass),
            outcome("b", &["R2"], Grade::Should, Verdict::Fail),
            outcome("c", &["R10"], Grade::Informational, Verdict::Fail),
            outcome("d", &["R3"], Grade::Must, Verdict::Fail),
            outcome("e", &["R3"], Grade::Informational, Verdict::Error),
            outcome("f", &["R4"], Grade::Must, Verdict::Skip),
            outcome("g", &["R4"], Grade::Should, Verdict::Skip),
            outcome("h", &["R5"], Grade::Must, Verdict::Pass),
            outcome("i", &["R5"], Grade::Must, Verdict::Skip),
        ],
    );
    assert_eq!(
        report.rules(),
        vec![
            line("R2", RuleVerdict::Fail, Grade::Should, false, "b", 2, 0),
            line(
                "R3",
                RuleVerdict::Error,
                Grade::Informational,
                true,
                "e",
                2,
                0
            ),
            line("R4", RuleVerdict::NotChecked, Grade::Must, false, "f", 2, 2),
            line("R5", RuleVerdict::Pass, Grade::Must, false, "h", 2, 1),
            line(
                "R10",
                RuleVerdict::Fail,
                Grade::Informational,
                false,
                "c",
                2,
                0
            ),
        ]
    );
    // R2 and R10 read `fail` but do not fail the run: the count says so, beside R3's.
    assert!(report.summary_line().starts_with(
        "5 rules (1 failing the run, 2 failing that does not, 1 not checked) in 9 scenarios:"
    ));
    // Under --strict the SHOULD failure decides R2 and fails the run.
    let strict = Report {
        strict: true,
        ..report
    };
    assert_eq!(
        strict.rules()[0],
        line("R2", RuleVerdict::Fail, Grade::Should, true, "b", 2, 0)
    );
    assert!(strict.summary_line().starts_with(
        "5 rules (2 failing the run, 1 failing that does not, 1 not checked) in 9 scenarios:"
    ));
}

#[test]
fn the_run_verdict_follows_the_grades() {
    let verdict = |strict: bool, grade: Grade, verdict: Verdict| {
        report(
            strict,
            vec![
                outcome("ok", &["R1"], Grade::Must, Verdict::Pass),
                outcome("x", &["R2"], grade, verdict),
            ],
        )
        .verdict()
    };
    use RunVerdict::*;
    let table = [
        (false, Grade::Must, Verdict::Fail, Failed),
        (false, Grade::Should, Verdict::Fail, Passed),
        (true, Grade::Should, Verdict::Fail, Failed),
        (true, Grade::Informational, Verdict::Fail, Passed),
        (false, Grade::Should, Verdict::Error, Failed),
        (false, Grade::Should, Verdict::Timeout, Failed),
        (false, Grade::Informational, Verdict::Timeout, Failed),
        (false, Grade::Must, Verdict::Divergent, Passed),
        (false, Grade::Must, Verdict::Skip, Passed),
        (true, Grade::Must, Verdict::PreconditionNotMet, Passed),
    ];
    for (strict, grade, outcome, expected) in table {
        assert_eq!(
            verdict(strict, grade, outcome),
            expected,
            "{strict} {grade} {outcome:?}"
        );
    }
    let all_skipped = report(
        false,
        vec![outcome("s", &["R1"], Grade::Must, Verdict::Skip)],
    );
    assert_eq!(all_skipped.verdict(), NothingChecked);
    let nothing_past_set_up = report(
        false,
        vec![
            outcome("s", &["R1"], Grade::Must, Verdict::Skip),
            outcome("p", &["R2"], Grade::Must, Verdict::PreconditionNotMet),
        ],
    );
    assert_eq!(nothing_past_set_up.verdict(), NothingChecked);
    assert_eq!(report(false, Vec::new()).verdict(), NothingChecked);
    assert_eq!(
        [Passed, Failed, NothingChecked].map(RunVerdict::exit_code),
        [0, 1, 2]
    );
}

#[test]
fn console_json_and_junit_state_the_one_verdict() {
    let cases = [
        (
            vec![outcome("a", &["R1"], Grade::Should, Verdict::Fail)],
            "PASSED (1 failure that does not fail the run: SHOULD without --strict, INFORMATIONAL)",
            "passed",
        ),
        (
            vec![outcome("a", &["R1"], Grade::Must, Verdict::Fail)],
            "FAILED (1 fail the run)",
            "failed",
        ),
        (
            vec![outcome("a", &["R1"], Grade::Must, Verdict::Skip)],
            "NOTHING CHECKED: every scenario was skipped",
            "nothing_checked",
        ),
    ];
    for (outcomes, summary, verdict) in cases {
        let report = report(false, outcomes);
        let human = report.human(Console::default());
        assert!(human.trim_end().ends_with(summary), "{human}");
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(json["verdict"], verdict);
        assert_eq!(json["passed"], verdict == "passed");
        assert_eq!(json["exit_code"], report.verdict().exit_code());
        assert!(report
            .junit()
            .contains(&format!("<property name=\"verdict\" value=\"{verdict}\"/>")));
    }
    assert_eq!(
        report(false, Vec::new()).human(Console::default()),
        "NOTHING CHECKED: no scenario was selected\n"
    );
}

#[test]
fn rule_lines_fit_the_width_and_skips_are_grouped() {
    let mut long = outcome("R7-long", &["R7"], Grade::Must, Verdict::Fail);
    long.reason = Some("x".repeat(300));
    long.wire = Some("0000 00 58 | api key".to_owned());
    let mut skipped = outcome("R8-a", &["R8"], Grade::Must, Verdict::Skip);
    skipped.reason = Some("needs StreamsGroupHeartbeat v1; the target speaks v0".to_owned());
    let mut other = skipped.clone();
    other.scenario = "R8-b".to_owned();
    let report = report(false, vec![long, skipped, other]);
    let at_width = |width| {
        report.human(Console {
            detail: Detail::Normal,
            width,
        })
    };
    let human = at_width(60);
    let narrow = at_width(70);
    assert!(
        narrow.contains(
            "\nskipped 2 scenarios (R8-a, R8-b):\n  needs StreamsGroupHeartbeat v1; the target speaks v0\n"
        ),
        "{narrow}"
    );
    let narrowest = at_width(32);
    assert!(
        narrowest.contains(
            "\nskipped 2 scenarios (R8-a, ...):\n  needs StreamsGroupHeartbeat\n  v1; the target speaks v0\n"
        ),
        "{narrowest}"
    );
    // Too narrow for even the first name: it is shown all the same.
    let too_narrow = at_width(20);
    assert!(
        too_narrow.contains("\nskipped 2 scenarios (R8-a, ...):\n"),
        "{too_narrow}"
    );
    let wider = at_width(85);
    assert!(
        wider.contains("\nskipped 2 scenarios (R8-a, R8-b):\n  needs StreamsGroupHeartbeat v1; the target speaks v0\n"),
        "{wider}"
    );
    let lines: Vec<&str> = human.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "R7    fail        MUST          R7-long: {}...",
            "x".repeat(16)
        )
    );
    assert_eq!(lines[0].chars().count(), 60);
    assert_eq!(
        lines[1],
        "R8    not checked MUST          skipped: needs StreamsGro..."
    );
    let wide = at_width(100);
    assert!(wide.contains("\nskipped 2 scenarios (R8-a, R8-b):\n  needs StreamsGroupHeartbeat v1; the target speaks v0\n"), "{wide}");
    assert!(!human.contains("api key"), "{human}");
    let verbose = report.human(Console {
        detail: Detail::Verbose,
        width: 60,
    });
    assert!(verbose.contains("    0000 00 58 | api key\n"), "{verbose}");
    assert!(
        verbose.contains("\n      fail      MUST          R7-long title of R7-long\n"),
        "{verbose}"
    );
    let quiet = report.human(Console {
        detail: Detail::Quiet,
        width: 60,
    });
    assert!(quiet.starts_with("R7 "), "{quiet}");
    assert!(!quiet.contains("R8"), "{quiet}");
}

/// A scenario that stopped at its set-up: the reason the runner gives it.
fn unmet(name: &str, rules: &[&str]) -> Outcome {
    let mut unmet = outcome(name, rules, Grade::Must, Verdict::PreconditionNotMet);
    unmet.reason =
        Some("precondition not met at step 1: .memberEpoch: expected 2, found 1".to_owned());
    unmet.step = Some(1);
    unmet.wire = Some("0000 00 58 | api key".to_owned());
    unmet
}

#[test]
fn an_unmet_precondition_leaves_its_rule_not_checked() {
    let report = report(
        true,
        vec![
            unmet("R21-a", &["R21"]),
            unmet("R21-b", &["R21"]),
            outcome("R23-a", &["R23"], Grade::Must, Verdict::Pass),
            unmet("R23-b", &["R23"]),
            outcome("R27-a", &["R27"], Grade::Must, Verdict::Skip),
            unmet("R27-b", &["R27"]),
        ],
    );
    let with_unmet = |line: RuleLine, unmet: usize| RuleLine {
        preconditions_not_met: unmet,
        ..line
    };
    assert_eq!(
        report.rules(),
        vec![
            with_unmet(
                line(
                    "R21",
                    RuleVerdict::NotChecked,
                    Grade::Must,
                    false,
                    "R21-b",
                    2,
                    0
                ),
                2
            ),
            with_unmet(
                line("R23", RuleVerdict::Pass, Grade::Must, false, "R23-a", 2, 0),
                1
            ),
            // The unmet precondition names the rule's standing rather than the skip: the
            // scenario ran, and its set-up answered otherwise.
            with_unmet(
                line(
                    "R27",
                    RuleVerdict::NotChecked,
                    Grade::Must,
                    false,
                    "R27-b",
                    2,
                    1
                ),
                1
            ),
        ]
    );
    assert_eq!(report.verdict(), RunVerdict::Passed);
    let human = report.human(Console {
        detail: Detail::Normal,
        width: 110,
    });
    let lines: Vec<&str> = human.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "R21   not checked MUST          R21-b: precondition not met at step 1: .memberEpoch: expected 2, found 1",
            "R23   pass        MUST          1 passed, 1 precondition not met",
            "R27   not checked MUST          R27-b: precondition not met at step 1: .memberEpoch: expected 2, found 1",
        ]
    );
    assert!(
        human.contains(
            "\nunmet precondition in 4 scenarios (R21-a, R21-b, R23-b, R27-b):\n  precondition not met at step 1: .memberEpoch: expected 2, found 1\n"
        ),
        "{human}"
    );
    // Neither a failure nor its wire exchange on the console.
    assert!(!human.contains("\nFAIL"), "{human}");
    assert!(!human.contains("api key"), "{human}");
    assert!(
        human.trim_end().ends_with(
            "3 rules (0 failing, 2 not checked) in 6 scenarios: 1 passed, 0 failed, 0 errors, 0 timed out, 1 skipped, 4 preconditions not met, 0 known divergences; PASSED"
        ),
        "{human}"
    );
    let verbose = report.human(Console {
        detail: Detail::Verbose,
        width: 110,
    });
    assert!(
        verbose.contains("\n      precondition not met MUST          R21-a title of R21-a\n"),
        "{verbose}"
    );

    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(
        json["counts"],
        serde_json::json!({"pass": 1, "fail": 0, "error": 0, "timeout": 0, "skip": 1,
                           "precondition_not_met": 4, "divergent": 0})
    );
    assert_eq!(json["scenarios"][0]["verdict"], "precondition_not_met");
    assert_eq!(json["scenarios"][0]["step"], 1);
    assert_eq!(json["rules"][0]["verdict"], "not_checked");
    assert_eq!(json["rules"][0]["preconditions_not_met"], 2);

    let xml = report.junit();
    assert!(xml.contains("<testsuites name=\"streamspec\" tests=\"6\" failures=\"0\" errors=\"0\" skipped=\"5\" time=\"9.000\">"), "{xml}");
    assert!(
        xml.contains("<property name=\"verdict\" value=\"precondition_not_met\"/>"),
        "{xml}"
    );
    assert!(xml.contains("<skipped message=\"precondition not met at step 1: .memberEpoch: expected 2, found 1\">0000 00 58 | api key</skipped>"), "{xml}");
    roxmltree::Document::parse(&xml).expect("well-formed JUnit XML");
}

#[test]
fn junit_counts_only_what_fails_the_run() {
    let xml = report(
        false,
        vec![
            outcome("a", &["R1"], Grade::Must, Verdict::Pass),
            outcome("b", &["R2"], Grade::Must, Verdict::Fail),
            outcome("c", &["R3"], Grade::Must, Verdict::Skip),
            outcome("d", &["R4"], Grade::Informational, Verdict::Fail),
            outcome("e", &["R5"], Grade::Should, Verdict::Timeout),
        ],
    )
    .junit();
    assert!(xml.contains("<testsuites name=\"streamspec\" tests=\"5\" failures=\"2\" errors=\"0\" skipped=\"1\" time=\"7.500\">"), "{xml}");
    assert!(xml.contains("<failure message=\"expected 1, found &lt;2&gt; &amp; &quot;3&quot;\" type=\"Fail\"></failure>"));
    assert!(xml.contains("<failure message=\"expected 1, found &lt;2&gt; &amp; &quot;3&quot;\" type=\"Timeout\"></failure>"));
    assert!(xml.contains("<system-out>FAIL (does not fail the run: INFORMATIONAL failures never fail the run): expected 1"), "{xml}");
    assert!(xml.contains("<skipped message="));
    assert!(xml.ends_with("</testsuites>\n"));
    roxmltree::Document::parse(&xml).expect("well-formed JUnit XML");
    // The run's own time, when known, not its scenarios' (which ran side by side) added up.
    let mut timed = report(
        false,
        vec![
            outcome("a", &["R1"], Grade::Must, Verdict::Pass),
            outcome("b", &["R2"], Grade::Must, Verdict::Pass),
        ],
    );
    timed.elapsed_ms = Some(1_250);
    assert!(timed.junit().contains("<testsuites name=\"streamspec\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"1.250\">"), "{}", timed.junit());
}

#[test]
fn a_failed_clean_up_is_a_warning_and_keeps_the_verdict() {
    let mut kept = outcome("a", &["R1"], Grade::Must, Verdict::Pass);
    kept.cleanup =
        Some("deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)".to_owned());
    let report = report(false, vec![kept]);
    assert_eq!(report.verdict(), RunVerdict::Passed);
    assert!(report.human(Console::default()).contains(
        "\nwarning: a: clean-up: deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)\n"
    ));
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(
        json["scenarios"][0]["cleanup"],
        "deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)"
    );
    assert!(report.junit().contains(
        "<property name=\"cleanup\" value=\"deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)\"/>"
    ));
    // The lines a run whose target was lost prints before its summary.
    assert_eq!(
        report.warning_lines(),
        "warning: a: clean-up: deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)\n"
    );
}

#[test]
fn clean_ups_failed_alike_are_one_warning() {
    let keeps = "deleting topics failed with error 73 TOPIC_DELETION_DISABLED";
    let mut outcomes = Vec::new();
    for name in ["a", "b", "c"] {
        let mut kept = outcome(name, &["R1"], Grade::Must, Verdict::Pass);
        kept.cleanup = Some(keeps.to_owned());
        outcomes.push(kept);
    }
    let mut other = outcome("d", &["R1"], Grade::Must, Verdict::Pass);
    other.cleanup = Some("deleting topics: timed out".to_owned());
    outcomes.push(other);
    let text = report(false, outcomes).human(Console::default());
    assert!(
        text.contains(&format!(
            "\nwarning: 3 scenarios (a, ...): clean-up: {keeps}\nwarning: d: clean-up: deleting topics: timed out\n"
        )),
        "{text}"
    );
}

#[test]
fn a_run_whose_target_stopped_answering_is_no_verdict_on_it() {
    let mut report = report(
        false,
        vec![
            outcome("a", &["R1"], Grade::Must, Verdict::Pass),
            outcome("b", &["R2"], Grade::Must, Verdict::Error),
        ],
    );
    report.target_lost = Some("h:1 stopped answering".to_owned());
    assert_eq!(report.verdict(), RunVerdict::TargetLost);
    assert_eq!(report.verdict().exit_code(), 2);
    assert!(report
        .human(Console::default())
        .ends_with("; TARGET LOST: h:1 stopped answering\n"));
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(
        (
            &json["verdict"],
            &json["passed"],
            &json["exit_code"],
            &json["target_lost"]
        ),
        (
            &serde_json::json!("target_lost"),
            &serde_json::json!(false),
            &serde_json::json!(2),
            &serde_json::json!("h:1 stopped answering")
        )
    );
}

#[test]
fn an_interrupted_run_is_judged_interrupted_whatever_ran() {
    let mut report = report(
        false,
        vec![
            outcome("a", &["R1"], Grade::Must, Verdict::Pass),
            outcome("b", &["R2"], Grade::Must, Verdict::Fail),
        ],
    );
    report.interrupted = true;
    assert_eq!(report.verdict(), RunVerdict::Interrupted);
    assert_eq!(report.verdict().exit_code(), 130);
    assert!(report
        .human(Console::default())
        .ends_with("; INTERRUPTED: the run did not finish\n"));
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(
        (&json["verdict"], &json["passed"], &json["exit_code"]),
        (
            &serde_json::json!("interrupted"),
            &serde_json::json!(false),
            &serde_json::json!(130)
        )
    );
}

/// A campaign's property is its own rule: its failure and its verbose line name it once, cited
/// by the spec sections of its title, while a scenario keeps its name beside its title.
#[test]
fn a_property_is_named_once_and_cited_by_its_spec_sections() {
    let property = |name: &str, sections: &str, verdict: Verdict| Outcome {
        title: format!("{name} ({sections})"),
        source: "fuzz".to_owned(),
        ..outcome(name, &[name], Grade::Must, verdict)
    };
    let report = Report::new(
        "fuzz",
        "embedded".to_owned(),
        "r".to_owned(),
        false,
        vec![
            property(
                "always: error codes come from the RPC's set",
                "spec 2.4",
                Verdict::Fail,
            ),
            property(
                "always: a member's epoch never decreases",
                "spec 4.6-5",
                Verdict::Pass,
            ),
            outcome("a", &["R1"], Grade::Must, Verdict::Pass),
        ],
    );
    let human = report.human(Console {
        detail: Detail::Verbose,
        width: 200,
    });
    let lines: Vec<&str> = human.lines().collect();
    for line in [
        "      pass      MUST          always: a member's epoch never decreases (spec 4.6-5)",
        "      pass      MUST          a title of a",
        "FAIL always: error codes come from the RPC's set (spec 2.4, MUST) in fuzz",
    ] {
        assert!(lines.contains(&line), "{line:?} in\n{human}");
    }
}
