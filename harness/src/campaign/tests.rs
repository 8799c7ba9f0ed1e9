//! Campaign reports, determinism and shrinking on hand-made results and runs.

use super::*;
use crate::embedded::EmbeddedConnector;
use crate::simulation::Operation;
use streamspec_protocol::rng::SplitMix64;

fn config() -> CampaignConfig {
    CampaignConfig {
        seed: 7,
        duration: Duration::from_secs(1),
        operations: 50,
        groups: 1,
        check_determinism: true,
        io_timeout: Duration::from_secs(1),
        run_id: "t".to_owned(),
        shrink_budget: Duration::from_secs(5),
        ..CampaignConfig::default()
    }
}

/// A campaign of `runs` runs that ended in 20 ms with nothing found, nothing compared and
/// nothing reached.
fn finished(runs: u64, operations: u64, heartbeats: u64) -> CampaignResult {
    CampaignResult {
        runs,
        operations,
        heartbeats,
        elapsed: Duration::from_millis(20),
        cpu: Duration::from_millis(20),
        outcome_digest: 0,
        finding: None,
        known_issues: 0,
        first_known_issue: None,
        setup_errors: Vec::new(),
        stopped_early: None,
        cleanup_errors: Vec::new(),
        interrupted_runs: 0,
        coverage: Coverage::default(),
        comparison: None,
        shares_state: false,
    }
}

/// Workers meet errors in the order their runs finish; the report lists them by run, so two
/// jobs report what one would.
#[test]
fn errors_are_listed_by_run_whatever_order_the_workers_met_them() {
    let met = vec![
        (3, "run 3: clean-up: a".to_owned()),
        (1, "run 1: clean-up: b".to_owned()),
        (3, "run 3: clean-up: c".to_owned()),
        (2, "run 2: clean-up: d".to_owned()),
    ];
    assert_eq!(
        in_run_order(met),
        [
            "run 1: clean-up: b",
            "run 2: clean-up: d",
            "run 3: clean-up: a",
            "run 3: clean-up: c"
        ]
    );
}

#[test]
fn runs_that_could_not_be_set_up_are_an_error_never_a_violation() {
    let result = CampaignResult {
        setup_errors: vec!["run 0: CreateTopics answered POLICY_VIOLATION (44)".to_owned()],
        stopped_early: Some("a run could not be carried out".to_owned()),
        ..finished(0, 0, 0)
    };
    let report = report(&config(), "embedded", &result, None);
    assert_eq!(report.verdict(), crate::report::RunVerdict::Failed);
    let errors: Vec<(&str, Option<&str>)> = report
        .outcomes
        .iter()
        .filter(|outcome| outcome.verdict != Verdict::Skip)
        .map(|outcome| (outcome.scenario.as_str(), outcome.reason.as_deref()))
        .collect();
    assert_eq!(
        errors,
        [(
            "run set-up",
            Some("run 0: CreateTopics answered POLICY_VIOLATION (44)")
        )]
    );
    assert_eq!(report.outcomes[0].verdict, Verdict::Error);
    // Nothing ran, so no `sometimes` property is reported as unreached.
    assert!(report.warnings.is_empty());
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["passed"], false);
    assert_eq!(json["stopped_early"], "a run could not be carried out");
    assert!(report
        .human(crate::report::Console::default())
        .contains("\nstopped early: a run could not be carried out\n"));
}

#[test]
fn a_short_timeout_is_hinted_at_once_after_the_runs_set_up_errors() {
    let short = CampaignConfig {
        io_timeout: Duration::from_millis(30),
        run_id: "r1".to_owned(),
        ..config()
    };
    let hint = crate::runner::short_timeout_hint(short.io_timeout).unwrap();
    let errors = [
        format!("run 0: h:1 did not answer CreateTopics within 30 ms; {hint}"),
        "run 1: CreateTopics failed with error 44 POLICY_VIOLATION".to_owned(),
        format!("run 2: h:1 did not answer CreateTopics within 30 ms; clean-up: h:1 did not answer DeleteTopics within 30 ms (what is left starts with streamspec-fuzz-r1-2-); {hint}"),
    ];
    assert_eq!(
        setup_errors_text(&errors, &short, "h:1"),
        format!("run 0: h:1 did not answer CreateTopics within 30 ms; run 1: CreateTopics failed with error 44 POLICY_VIOLATION; run 2: h:1 did not answer CreateTopics within 30 ms; clean-up: h:1 did not answer DeleteTopics within 30 ms (what is left starts with streamspec-fuzz-r1-2-); `streamspec clean --target h:1 --prefix streamspec-fuzz-r1-` removes what the runs left; {hint}")
    );
    // No run timed out and none left anything: neither the hint nor the command.
    assert_eq!(
        setup_errors_text(&errors[1..2], &short, "h:1"),
        "run 1: CreateTopics failed with error 44 POLICY_VIOLATION"
    );
    let long = CampaignConfig {
        io_timeout: Duration::from_secs(15),
        ..short
    };
    assert_eq!(
        setup_errors_text(&errors[1..2], &long, "h:1"),
        "run 1: CreateTopics failed with error 44 POLICY_VIOLATION"
    );
}

#[test]
fn a_sometimes_property_never_reached_warns_in_every_report_without_failing() {
    let mut coverage = Coverage::default();
    let fenced = simulation::Event {
        operation: 1,
        now_ms: 0,
        member: "m0-0".to_owned(),
        request: Default::default(),
        response: streamspec_protocol::kafka::StreamsGroupHeartbeatResponse::default()
            .with_error_code(streamspec_protocol::codes::ERROR_FENCED_MEMBER_EPOCH),
        delivered: true,
    };
    coverage.observe(&[fenced]);
    let result = CampaignResult {
        coverage,
        ..finished(12, 600, 40)
    };
    let report = report(&config(), "embedded", &result, None);
    assert_eq!(report.verdict(), crate::report::RunVerdict::Passed);
    let human = report.human(crate::report::Console::default());
    let lines: Vec<&str> = human
        .lines()
        .filter(|line| line.starts_with("sometimes: "))
        .collect();
    assert_eq!(
        lines,
        [
            "sometimes: a task is revoked         never reached",
            "sometimes: a member is fenced        reached 1 time",
            "sometimes: a member is unknown       never reached",
            "sometimes: a standby is placed       never reached",
            "sometimes: a static member leaves    never reached",
            "sometimes: an instance id is taken   never reached",
            "sometimes: the topology is not ready never reached",
        ]
    );
    assert!(human.contains(
        "\nwarning: \"sometimes: a standby is placed\" was never reached in 12 runs: the generator may be too weak there (this does not fail the run)\n"
    ), "{human}");
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["passed"], true);
    assert_eq!(
        json["sometimes"][3],
        serde_json::json!({
            "property": "sometimes: a standby is placed",
            "rules": "R41",
            "count": 0,
            "reached": false
        })
    );
    assert_eq!(json["warnings"].as_array().unwrap().len(), 6);
    let junit = report.junit();
    assert!(junit.contains(
        "    <testcase classname=\"sometimes: a standby is placed\" name=\"sometimes: a standby is placed (R41)\" time=\"0.000\">\n      <properties>\n        <property name=\"verdict\" value=\"never_reached\"/>\n        <property name=\"count\" value=\"0\"/>\n        <property name=\"fails-run\" value=\"false\"/>\n      </properties>\n      <system-out>warning: never reached; this does not fail the run</system-out>\n    </testcase>\n"
    ), "{junit}");
    assert!(junit.contains(" failures=\"0\" errors=\"0\""), "{junit}");
}

#[test]
fn a_seed_draws_the_same_inputs() {
    let config = config();
    assert_eq!(config.input(3), config.input(3));
    assert_ne!(config.input(3), config.input(4));
    assert_eq!(
        config.command(&EmbeddedConnector),
        "streamspec fuzz --target embedded --seed 7 --operations 50 --duration 1s --check-determinism"
    );
}

#[test]
fn commands_name_the_runs_and_jobs_that_reproduce_them() {
    let config = CampaignConfig {
        jobs: 2,
        runs: RunRange {
            first: 0,
            count: Some(40),
        },
        ..config()
    };
    assert_eq!(
        config.command(&EmbeddedConnector),
        "streamspec fuzz --target embedded --seed 7 --operations 50 --runs 40 --jobs 2 --check-determinism"
    );
    assert_eq!(
        config.run_command("embedded", " --differential", 12),
        "streamspec fuzz --target embedded --seed 7 --operations 50 --first-run 12 --runs 1 --differential --check-determinism"
    );
    // The run's own seed is the one its input is drawn from.
    assert_eq!(
        RunInput::from_bytes(
            &SplitMix64::new(config.run_seed(12)).bytes(SETUP_BYTES + 50 * BYTES_PER_OPERATION)
        ),
        config.input(12)
    );
}

/// A campaign of runs `first..first + count` against the reference with `jobs` threads.
fn campaign_of(first: u64, count: u64, jobs: u16) -> CampaignResult {
    let config = CampaignConfig {
        seed: 11,
        operations: 60,
        jobs,
        runs: RunRange {
            first,
            count: Some(count),
        },
        duration: Duration::MAX,
        ..CampaignConfig::default()
    };
    run(&config, &EmbeddedConnector)
}

#[test]
fn two_jobs_carry_out_the_runs_of_one_with_the_same_outcomes() {
    let one = campaign_of(0, 24, 1);
    let two = campaign_of(0, 24, 2);
    // The digest of the same 24 runs, each carried out alone.
    let config = CampaignConfig {
        seed: 11,
        operations: 60,
        ..CampaignConfig::default()
    };
    let alone = (0..24u64).fold(0u64, |digest, run| {
        let record = run_once(
            &config,
            &EmbeddedConnector,
            Names::new(""),
            &config.input(run),
        )
        .unwrap();
        digest.wrapping_add(outcome_hash(run, &record))
    });
    for result in [&one, &two] {
        assert_eq!(result.runs, 24, "{result:?}");
        assert!(result.finding.is_none(), "{:?}", result.finding);
        assert_eq!(result.outcome_digest, alone);
        assert!(result.cpu > Duration::ZERO);
    }
    assert_eq!(
        (
            two.operations,
            two.heartbeats,
            two.coverage.counts().collect::<Vec<_>>()
        ),
        (
            one.operations,
            one.heartbeats,
            one.coverage.counts().collect::<Vec<_>>()
        )
    );
    // The digest tells other runs apart: one run fewer, or the runs shifted by one.
    assert_ne!(campaign_of(0, 23, 2).outcome_digest, alone);
    assert_ne!(campaign_of(1, 24, 2).outcome_digest, alone);
}

#[test]
fn two_runs_that_exchange_other_bytes_fire_determinism() {
    let config = config();
    let input = config.input(2);
    let first = run_once(&config, &EmbeddedConnector, Names::new(""), &input).unwrap();
    let again = run_once(&config, &EmbeddedConnector, Names::new(""), &input).unwrap();
    assert!(compare_runs(first, "", &again, "").violation.is_none());
    let first = run_once(&config, &EmbeddedConnector, Names::new(""), &input).unwrap();
    let mut changed = run_once(&config, &EmbeddedConnector, Names::new(""), &input).unwrap();
    changed.history[3].response.member_epoch += 1;
    let violation = compare_runs(first, "", &changed, "").violation.unwrap();
    assert_eq!(violation.property, &oracle::DETERMINISTIC);
    assert_eq!(violation.events, [3]);
    assert!(
        violation.detail.ends_with("differ; first at exchange 3"),
        "{}",
        violation.detail
    );
}

#[test]
fn runs_under_other_names_compare_equal() {
    let config = config();
    let input = config.input(5);
    let first = run_once(&config, &EmbeddedConnector, Names::new("x-"), &input).unwrap();
    let again = run_once(&config, &EmbeddedConnector, Names::new("y-"), &input).unwrap();
    assert!(compare_runs(first, "x-", &again, "y-").violation.is_none());
}

#[test]
fn shrinking_keeps_what_the_violation_needs() {
    // The oracle expects one more task than the topic has: any run with a member fails to
    // settle, so shrinking leaves a single join.
    let mut input = config().input(0);
    input.operations = (0..20)
        .map(|i| {
            if i % 3 == 0 {
                Operation::Join { member: 1 }
            } else {
                Operation::Heartbeat { member: 1 }
            }
        })
        .collect();
    let config = config();
    let run_failing = |input: &RunInput| {
        let mut record = run_once(&config, &EmbeddedConnector, Names::new(""), input).unwrap();
        // Stand-in for a real bug: the run fails whenever a member joined.
        if record.history.iter().any(|e| e.request.member_epoch == 0) {
            record.violation = Some(Violation {
                property: &oracle::SETTLES,
                detail: "stand-in".to_owned(),
                at_operation: 1,
                events: vec![0],
            });
        }
        record
    };
    let record = run_failing(&input);
    assert!(record.violation.is_some());
    let (shrunk, _) = shrink_with(config.shrink_budget, input, record, |i| {
        Some(run_failing(i))
    });
    assert_eq!(shrunk.operations, [Operation::Join { member: 1 }]);
}

#[test]
fn the_reference_comparison_is_reported_as_asked_for_and_as_known() {
    let result = |comparison| CampaignResult {
        comparison,
        ..finished(3, 60, 40)
    };
    let verdict_of = |result: &CampaignResult| {
        let report = report(&config(), "embedded", result, None);
        let outcome = report
            .outcomes
            .iter()
            .find(|outcome| outcome.scenario == oracle::ANSWERS_EQUAL.label())
            .cloned()
            .expect("the property is reported");
        (outcome.verdict, outcome.reason)
    };
    assert_eq!(
        verdict_of(&result(None)),
        (
            Verdict::Skip,
            Some("not asked for (--differential)".to_owned())
        )
    );
    let compared = ComparisonTotals {
        heartbeats: 40,
        describes: 44,
        ..ComparisonTotals::default()
    };
    assert_eq!(
        verdict_of(&result(Some(compared.clone()))),
        (Verdict::Pass, None)
    );
    let recorded = crate::runner::divergences()
        .into_iter()
        .find(|divergence| divergence.field.is_some())
        .expect("a recorded divergence of answers");
    let known = ComparisonTotals {
        known: 2,
        known_by_divergence: vec![KnownDivergence {
            divergence: recorded.clone(),
            runs: 2,
            first_run: 1,
        }],
        ..compared.clone()
    };
    let (verdict, reason) = verdict_of(&result(Some(known)));
    assert_eq!(verdict, Verdict::Divergent);
    assert!(
        reason.as_deref().is_some_and(|reason| reason.starts_with(
            "2 runs met the divergence recorded in harness/divergences.json for .errorCode (rules R46; first: run 1): Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR"
        )),
        "{reason:?}"
    );
    // Runs that met different divergences are counted apart, not all told as the first's.
    let kept = crate::runner::divergences()
        .into_iter()
        .find(|divergence| divergence.field.as_deref() == Some(".memberEpoch"))
        .expect("the kept configuration's divergence");
    let two_kinds = ComparisonTotals {
        known: 3,
        known_by_divergence: vec![
            KnownDivergence {
                divergence: recorded,
                runs: 2,
                first_run: 1,
            },
            KnownDivergence {
                divergence: kept,
                runs: 1,
                first_run: 4,
            },
        ],
        ..compared
    };
    // The console says how much went uncompared: nothing after a run's divergence is.
    assert_eq!(
        compared.summary(40),
        "compared with the reference: 40 heartbeats and 44 describes (0 timing-sensitive)"
    );
    assert_eq!(
        two_kinds.summary(361),
        "compared with the reference: 40 heartbeats and 44 describes (0 timing-sensitive); not compared: 321 of the runs' 361 heartbeats, those after the recorded divergences 3 runs met"
    );
    let (verdict, reason) = verdict_of(&result(Some(two_kinds)));
    assert_eq!(verdict, Verdict::Divergent);
    assert!(
        reason.as_deref().is_some_and(|reason| reason.starts_with(
            "3 runs met the divergences recorded in harness/divergences.json for .errorCode (rules R46; first: run 1; by divergence: 2 .errorCode (rules R46; first: run 1), 1 .memberEpoch (rules R33, R40; first: run 4)): Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR"
        )),
        "{reason:?}"
    );
}

#[test]
fn the_replay_command_carries_the_target_s_flags() {
    assert_eq!(
        replay_command("t.json", "127.0.0.1:9092", " --differential"),
        "streamspec replay t.json --target 127.0.0.1:9092 --differential"
    );
}

#[test]
fn totals_name_each_divergence_by_the_lowest_run_that_met_it_whatever_order_runs_finish_in() {
    let recorded = |field: &str| {
        crate::runner::divergences()
            .into_iter()
            .find(|divergence| divergence.field.as_deref() == Some(field))
            .expect("a recorded divergence of answers")
    };
    let (error_code, member_epoch) = (recorded(".errorCode"), recorded(".memberEpoch"));
    let met = |divergence: &Divergence| Comparison {
        heartbeats: 2,
        describes: 1,
        timing_sensitive: 0,
        known: Some(divergence.clone()),
    };
    let runs = [
        (1, met(&error_code)),
        (2, Comparison::default()),
        (3, met(&member_epoch)),
        (5, met(&error_code)),
    ];
    let totals_of = |order: &[usize]| {
        let mut totals = ComparisonTotals::default();
        for index in order {
            let (run, compared) = &runs[*index];
            totals.add(*run, compared);
        }
        totals
    };
    let expected = ComparisonTotals {
        heartbeats: 6,
        describes: 3,
        timing_sensitive: 0,
        known: 3,
        known_by_divergence: vec![
            KnownDivergence {
                divergence: error_code.clone(),
                runs: 2,
                first_run: 1,
            },
            KnownDivergence {
                divergence: member_epoch,
                runs: 1,
                first_run: 3,
            },
        ],
    };
    assert_eq!(totals_of(&[0, 1, 2, 3]), expected);
    // With several jobs run 5 can finish first, or run 3 before run 1.
    assert_eq!(totals_of(&[3, 2, 1, 0]), expected);
    assert_eq!(totals_of(&[2, 1, 0, 3]), expected);
    assert_eq!(
        expected
            .first_known()
            .map(|met| (met.first_run, &met.divergence)),
        Some((1, &error_code))
    );
}

/// The README's digest check (`streamspec fuzz --target embedded --runs 1000 --seed 7 --jobs 1`)
/// prints the digest the README states; a change to what runs do changes both, a speed-up
/// neither.
#[test]
fn the_readmes_digest_check_prints_the_digest_the_readme_states() {
    let config = CampaignConfig {
        seed: 7,
        runs: RunRange {
            first: 0,
            count: Some(1_000),
        },
        duration: Duration::MAX,
        ..CampaignConfig::default()
    };
    let result = run(&config, &EmbeddedConnector);
    assert_eq!(result.runs, 1_000);
    assert!(result.finding.is_none(), "{:?}", result.finding);
    let digest = format!("{:#018x}", result.outcome_digest);
    assert_eq!(digest, "0xa46136f8a7e2d20a");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("the README is beside the harness");
    assert!(readme.contains(&format!("outcome digest `{digest}`")));
}

#[test]
fn a_replay_reproduces_a_violation_of_the_same_property_at_the_same_operation() {
    let found = Violation {
        property: &oracle::ANSWERS_EQUAL,
        detail: "StreamsGroupHeartbeat v1 at 14903 ms differs from the reference's".to_owned(),
        at_operation: 31,
        events: Vec::new(),
    };
    let heading = found.heading();
    assert_eq!(
        heading,
        "always: answers equal the reference's (every rule; the report cites the differing fields') violated at operation 31"
    );
    assert_eq!(reproduction(&found, &found.to_string()), Reproduction::Same);
    // On a broker's real time the time in the detail moved.
    assert_eq!(
        reproduction(
            &found,
            &format!(
                "{heading}: StreamsGroupHeartbeat v1 at 15192 ms differs from the reference's"
            )
        ),
        Reproduction::SameHeading
    );
    let elsewhere = found.to_string().replace("operation 31", "operation 30");
    assert_eq!(reproduction(&found, &elsewhere), Reproduction::Other);
    assert_eq!(reproduction(&found, "settles"), Reproduction::Other);
}
