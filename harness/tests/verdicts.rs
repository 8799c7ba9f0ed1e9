//! The console summary, the JSON, JUnit and HTML reports and the exit code of `streamspec` state one
//! verdict, across verdicts and grades: scenarios written for each case run against the reference
//! coordinator in process.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

/// A folder of scenario files that goes when the test ends.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let path =
            std::env::temp_dir().join(format!("streamspec-verdicts-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        Folder(path)
    }

    fn add(&self, scenario: &Value) -> &Folder {
        let name = scenario["name"].as_str().unwrap();
        std::fs::write(self.0.join(format!("{name}.json")), scenario.to_string()).unwrap();
        self
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// A scenario of rule X900 (an id of no real catalogue: external ids are `[A-Z][A-Z0-9-]*`, and
/// `R<n>` must be a rule of the spec) with one step.
fn scenario(name: &str, grade: &str, step: Value) -> Value {
    serde_json::json!({
        "name": name,
        "title": format!("the {name} case"),
        "rules": ["X900"],
        "grade": grade,
        "topics": [{"name": "in", "partitions": 2}],
        "steps": [step]
    })
}

fn passing(grade: &str) -> Value {
    scenario(
        "passes",
        grade,
        serde_json::json!({"heartbeat": {"member": "", "as": "join"}, "expect": {"errorCode": 42}}),
    )
}

/// A wrong `expect`: the blank member id is refused with 42, not accepted.
fn failing(grade: &str) -> Value {
    scenario(
        "fails",
        grade,
        serde_json::json!({"heartbeat": {"member": "", "as": "join"}, "expect": {"errorCode": 0}}),
    )
}

/// A capture of a value the response lacks: the scenario cannot go on.
fn erring(grade: &str) -> Value {
    scenario(
        "errs",
        grade,
        serde_json::json!({"heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 0},
                           "capture": {"x": "/noSuchField"}}),
    )
}

/// An `until` that never matches.
fn timing_out(grade: &str) -> Value {
    scenario(
        "times-out",
        grade,
        serde_json::json!({"heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 99},
                           "until": {"within_ms": 1000}}),
    )
}

/// Needs a broker without v1; the reference speaks v1.
fn skipped(name: &str) -> Value {
    let mut scenario = passing("MUST");
    scenario["name"] = name.into();
    scenario["rules"] = serde_json::json!(["X901"]);
    scenario["requires"] = serde_json::json!({"max_heartbeat_version": 0});
    scenario
}

/// A scenario of rule X902 whose set-up join expects a first epoch the reference does not give
/// (it gives 2), then a step that would fail if it ran.
fn unmet_precondition(name: &str) -> Value {
    serde_json::json!({
        "name": name,
        "title": format!("the {name} case"),
        "rules": ["X902"],
        "grade": "MUST",
        "topics": [{"name": "in", "partitions": 2}],
        "steps": [
            {"heartbeat": {"member": "a", "as": "join"}, "precondition": true,
             "expect": {"errorCode": 0, "memberEpoch": 99}},
            {"heartbeat": {"member": "a"}, "expect": {"errorCode": 99}}
        ]
    })
}

struct Run {
    exit_code: i32,
    stdout: String,
    json: Value,
    junit: String,
    html: String,
}

fn check(folder: &Folder, flags: &[&str]) -> Run {
    let (json, junit, html) = (
        folder.0.join("report.json.out"),
        folder.0.join("report.xml.out"),
        folder.0.join("report.html.out"),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args([
            "check",
            "--target",
            "embedded",
            "--only-scenarios",
            "--scenarios",
        ])
        .arg(&folder.0)
        .arg("--json")
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .arg("--html")
        .arg(&html)
        .args(flags)
        .env("COLUMNS", "100")
        .output()
        .expect("the streamspec binary runs");
    let run = Run {
        exit_code: output.status.code().expect("an exit code"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        json: serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap(),
        junit: std::fs::read_to_string(&junit).unwrap(),
        html: std::fs::read_to_string(&html).unwrap(),
    };
    std::fs::remove_file(json).unwrap();
    std::fs::remove_file(junit).unwrap();
    std::fs::remove_file(html).unwrap();
    run
}

/// Every channel states the same verdict: `verdict` and `exit_code`.
fn agree(run: &Run, verdict: &str, exit_code: i32) {
    let context = format!("{}\n{}", run.stdout, run.json);
    assert_eq!(run.exit_code, exit_code, "{context}");
    assert_eq!(run.json["verdict"], verdict, "{context}");
    assert_eq!(run.json["exit_code"], exit_code, "{context}");
    assert_eq!(run.json["passed"], exit_code == 0, "{context}");
    let summary = run.stdout.lines().last().unwrap();
    let stated = match verdict {
        "passed" => summary.contains("; PASSED"),
        "failed" => summary.contains("; FAILED ("),
        _ => summary.starts_with("NOTHING CHECKED")
            || summary.ends_with("; NOTHING CHECKED: every scenario was skipped")
            || summary.ends_with(
                "; NOTHING CHECKED: every scenario was skipped or stopped at an unmet precondition",
            ),
    };
    assert!(stated, "{summary}");

    let document = roxmltree::Document::parse(&run.junit).expect("well-formed JUnit XML");
    let suite_verdict = document
        .descendants()
        .find(|node| node.has_tag_name("property") && node.attribute("name") == Some("verdict"))
        .and_then(|node| node.attribute("value"));
    assert_eq!(suite_verdict, Some(verdict));
    // CI goes red on <failure> and <error>: exactly when the run fails.
    let red = document
        .descendants()
        .filter(|node| node.has_tag_name("failure") || node.has_tag_name("error"))
        .count();
    assert_eq!(red > 0, verdict == "failed", "{}", run.junit);
    let root = document.root_element();
    let counted: usize = ["failures", "errors"]
        .iter()
        .map(|name| root.attribute(*name).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counted, red);

    assert!(
        run.html.contains(&format!(
            "data-verdict=\"{verdict}\" data-exit-code=\"{exit_code}\""
        )),
        "{}",
        run.html
    );
}

/// The console line of rule X900.
fn rule_line(run: &Run, rule: &str) -> String {
    run.stdout
        .lines()
        .find(|line| line.starts_with(&format!("{rule} ")))
        .unwrap_or_else(|| panic!("no line for {rule}:\n{}", run.stdout))
        .to_owned()
}

#[test]
fn a_passing_scenario_passes() {
    let folder = Folder::new("pass");
    folder.add(&passing("MUST"));
    let run = check(&folder, &[]);
    agree(&run, "passed", 0);
    assert_eq!(
        rule_line(&run, "X900"),
        "X900  pass        MUST          1 scenario"
    );
}

#[test]
fn a_must_failure_fails_the_run() {
    let folder = Folder::new("must");
    folder.add(&passing("MUST")).add(&failing("MUST"));
    let run = check(&folder, &[]);
    agree(&run, "failed", 1);
    assert_eq!(
        rule_line(&run, "X900"),
        "X900  fail        MUST          fails: .errorCode: expected 0 NONE, found 42 INVALID_REQUEST"
    );
    assert!(
        run.stdout.contains("\nFAIL fails (X900, MUST) in "),
        "{}",
        run.stdout
    );
    // The dump of the exchange only under -v, and in the reports.
    const WIRE_HINT: &str = "  (the wire exchange: -v, or the JSON and JUnit reports)\n";
    assert!(run.stdout.contains(WIRE_HINT), "{}", run.stdout);
    assert!(!run.stdout.contains("offset  bytes"), "{}", run.stdout);
    let scenarios = run.json["scenarios"].as_array().unwrap();
    assert!(scenarios[0]["wire"].as_str().unwrap().contains("errorCode"));
    let verbose = check(&folder, &["-v"]);
    assert!(
        verbose
            .stdout
            .contains("\n      fail      MUST          fails the fails case\n"),
        "{}",
        verbose.stdout
    );
    assert!(
        verbose
            .stdout
            .lines()
            .filter(|line| line.contains("errorCode"))
            .count()
            > 1,
        "{}",
        verbose.stdout
    );
    let quiet = check(&folder, &["-q"]);
    agree(&quiet, "failed", 1);
    assert!(quiet.stdout.starts_with("X900  fail "), "{}", quiet.stdout);
}

#[test]
fn a_should_failure_fails_the_run_only_when_strict() {
    let folder = Folder::new("should");
    folder.add(&passing("MUST")).add(&failing("SHOULD"));
    let run = check(&folder, &[]);
    agree(&run, "passed", 0);
    // The rule reads as the SHOULD scenario that failed, never as a MUST failure.
    assert!(rule_line(&run, "X900").starts_with("X900  fail        SHOULD        fails: "));
    assert!(run
        .stdout
        .contains("does not fail the run: SHOULD failures fail the run only under --strict"));
    let testcase = run
        .junit
        .split("<testcase ")
        .find(|case| case.contains("name=\"fails "))
        .unwrap();
    assert!(
        testcase.contains("<property name=\"verdict\" value=\"fail\"/>"),
        "{testcase}"
    );
    assert!(
        testcase.contains("<property name=\"fails-run\" value=\"false\"/>"),
        "{testcase}"
    );
    assert!(
        testcase.contains("<system-out>FAIL (does not fail the run: "),
        "{testcase}"
    );

    let strict = check(&folder, &["--strict"]);
    agree(&strict, "failed", 1);
}

#[test]
fn an_informational_failure_never_fails_the_run() {
    let folder = Folder::new("informational");
    folder.add(&passing("MUST")).add(&failing("INFORMATIONAL"));
    agree(&check(&folder, &[]), "passed", 0);
    let strict = check(&folder, &["--strict"]);
    agree(&strict, "passed", 0);
    assert!(rule_line(&strict, "X900").starts_with("X900  fail        INFORMATIONAL fails: "));
}

#[test]
fn errors_and_timeouts_fail_the_run_at_any_grade() {
    let folder = Folder::new("error");
    folder.add(&passing("MUST")).add(&erring("SHOULD"));
    let run = check(&folder, &[]);
    agree(&run, "failed", 1);
    assert_eq!(
        rule_line(&run, "X900"),
        "X900  error       SHOULD        errs: capture x: no value at /noSuchField"
    );

    let folder = Folder::new("timeout");
    folder
        .add(&passing("MUST"))
        .add(&timing_out("INFORMATIONAL"));
    let run = check(&folder, &[]);
    agree(&run, "failed", 1);
    assert!(
        rule_line(&run, "X900")
            .starts_with("X900  timeout     INFORMATIONAL times-out: not within 1000 ms: "),
        "{}",
        run.stdout
    );
}

#[test]
fn a_rule_whose_scenarios_were_all_skipped_is_not_checked() {
    let folder = Folder::new("partly-skipped");
    folder
        .add(&passing("MUST"))
        .add(&skipped("skipped-a"))
        .add(&skipped("skipped-b"));
    let run = check(&folder, &[]);
    agree(&run, "passed", 0);
    assert_eq!(
        rule_line(&run, "X901"),
        "X901  not checked MUST          skipped: describes brokers that speak StreamsGroupHeartbeat v0 at..."
    );
    assert!(run.stdout.contains(
        "\nskipped 2 scenarios (skipped-a, skipped-b):\n  describes brokers that speak StreamsGroupHeartbeat v0 at most; the target speaks v1\n"
    ), "{}", run.stdout);
    let rules = run.json["rules"].as_array().unwrap();
    assert_eq!(rules[1]["rule"], "X901");
    assert_eq!(rules[1]["verdict"], "not_checked");
    assert!(run
        .stdout
        .lines()
        .last()
        .unwrap()
        .starts_with("2 rules (0 failing, 1 not checked) in 3 scenarios: 1 passed, "));
}

#[test]
fn an_unmet_precondition_is_no_failure_of_the_rule() {
    let folder = Folder::new("precondition");
    folder
        .add(&passing("MUST"))
        .add(&unmet_precondition("unmet-a"))
        .add(&unmet_precondition("unmet-b"));
    for flags in [&[][..], &["--strict"]] {
        let run = check(&folder, flags);
        agree(&run, "passed", 0);
        assert_eq!(
            rule_line(&run, "X902"),
            "X902  not checked MUST          unmet-b: precondition not met at step 1: .memberEpoch: expected 9..."
        );
        assert!(run.stdout.contains(
            "\nunmet precondition in 2 scenarios (unmet-a, unmet-b):\n  precondition not met at step 1: .memberEpoch: expected 99, found 2\n"
        ), "{}", run.stdout);
        assert!(!run.stdout.contains("\nFAIL"), "{}", run.stdout);
        assert!(run.stdout.lines().last().unwrap().starts_with(
            "2 rules (0 failing, 1 not checked) in 3 scenarios: 1 passed, 0 failed, 0 errors, 0 timed out, 0 skipped, 2 preconditions not met, 0 known divergences; PASSED"
        ), "{}", run.stdout);

        // The step after the precondition never ran: the verdict is the precondition's.
        let scenarios = run.json["scenarios"].as_array().unwrap();
        let unmet = scenarios
            .iter()
            .find(|outcome| outcome["scenario"] == "unmet-a")
            .unwrap();
        assert_eq!(unmet["verdict"], "precondition_not_met");
        assert_eq!(unmet["step"], 1);
        assert_eq!(
            unmet["reason"],
            "precondition not met at step 1: .memberEpoch: expected 99, found 2"
        );
        assert_eq!(run.json["counts"]["precondition_not_met"], 2);
        assert_eq!(run.json["counts"]["pass"], 1);
        assert_eq!(run.json["rules"][1]["verdict"], "not_checked");

        let testcase = run
            .junit
            .split("<testcase ")
            .find(|case| case.contains("name=\"unmet-a "))
            .unwrap();
        assert!(
            testcase.contains("<skipped message=\"precondition not met at step 1: .memberEpoch: expected 99, found 2\">"),
            "{testcase}"
        );
        assert!(
            testcase.contains("<property name=\"verdict\" value=\"precondition_not_met\"/>"),
            "{testcase}"
        );
        assert!(run.junit.contains(" skipped=\"2\" "), "{}", run.junit);
    }

    // With nothing past its preconditions, nothing was shown to work.
    let alone = Folder::new("precondition-alone");
    alone.add(&unmet_precondition("unmet-a"));
    let run = check(&alone, &[]);
    agree(&run, "nothing_checked", 2);
    assert!(run.stdout.lines().last().unwrap().ends_with(
        "; NOTHING CHECKED: every scenario was skipped or stopped at an unmet precondition"
    ));

    // A precondition that cannot be carried out is an error like any other step's.
    let broken = Folder::new("precondition-error");
    let mut scenario = erring("MUST");
    scenario["steps"][0]["precondition"] = true.into();
    scenario["steps"][0]["expect"] = serde_json::json!({"errorCode": 0});
    scenario["steps"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"heartbeat": {"member": "a"}}));
    broken.add(&scenario);
    let run = check(&broken, &[]);
    agree(&run, "failed", 1);
    assert_eq!(
        rule_line(&run, "X900"),
        "X900  error       MUST          errs: capture x: no value at /noSuchField"
    );
}

#[test]
fn nothing_run_is_nothing_checked_and_exit_2() {
    let folder = Folder::new("all-skipped");
    folder.add(&skipped("skipped-a"));
    let run = check(&folder, &[]);
    agree(&run, "nothing_checked", 2);

    let empty = Folder::new("empty");
    let run = check(&empty, &[]);
    agree(&run, "nothing_checked", 2);
    assert_eq!(run.stdout, "NOTHING CHECKED: no scenario was selected\n");
}

/// A campaign that finished no run (one given no time, which the command line refuses, but a
/// library caller can ask for) checked nothing, in every report.
#[test]
fn a_campaign_that_finishes_no_run_checked_nothing() {
    let config = streamspec::CampaignConfig {
        duration: std::time::Duration::ZERO,
        ..streamspec::CampaignConfig::default()
    };
    let result = streamspec::fuzz(streamspec::embedded::EmbeddedConnector, &config);
    assert_eq!(result.runs, 0);
    let report = streamspec::campaign::report(&config, "embedded", &result, None);
    assert_eq!(
        report.verdict(),
        streamspec::report::RunVerdict::NothingChecked
    );
    assert_eq!(report.verdict().exit_code(), 2);
    let json: Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["passed"], false);
    assert_eq!(json["verdict"], "nothing_checked");
    let human = report.human(streamspec::report::Console::default());
    assert!(
        human.contains("; NOTHING CHECKED: no run finished\n"),
        "{human}"
    );
    // No run, so no warning about `sometimes` properties it never reached.
    assert_eq!(json["warnings"], serde_json::json!([]));
}

#[test]
fn a_closed_stdout_ends_every_subcommand_quietly() {
    for args in [
        &["list", "--evidence"][..],
        &["check"],
        &["fuzz", "--duration", "1s"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_streamspec"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the streamspec binary runs");
        // Closes the reading end before the program writes, as `| head -0` would.
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("standard output"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
