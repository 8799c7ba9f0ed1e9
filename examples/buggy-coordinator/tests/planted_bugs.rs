//! The catalogue and a seeded campaign, run in process against a coordinator with one planted
//! bug each: every bug is caught, by name.

use std::collections::BTreeMap;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestError, TestRunner};
use streamspec::campaign;
use streamspec::differential::DifferentialConnector;
use streamspec::fuzzing::{arb_run_input, check_run, RunFailure};
use streamspec::report::RunVerdict;
use streamspec::runner::Verdict;
use streamspec::simulation::oracle;
use streamspec::simulation::setup::Names;
use streamspec::{CampaignConfig, CheckOptions};
use streamspec_example_buggy_coordinator::{Bug, WithBug};

/// The scenarios that did not pass or skip, each with its verdict, and the run's verdict.
fn check(bug: Bug) -> (RunVerdict, BTreeMap<String, Verdict>) {
    let report = streamspec::check(WithBug(bug), CheckOptions::default());
    let not_passing = report
        .outcomes
        .iter()
        .filter(|outcome| !matches!(outcome.verdict, Verdict::Pass | Verdict::Skip))
        .map(|outcome| (outcome.scenario.clone(), outcome.verdict))
        .collect();
    (report.verdict(), not_passing)
}

/// `names` failed, and the scenarios of the reference's differences from Kafka 4.4.0.
fn failed(names: &[&str]) -> BTreeMap<String, Verdict> {
    names
        .iter()
        .chain(&REFERENCE_DIVERGENCES)
        .map(|name| ((*name).to_owned(), Verdict::Fail))
        .collect()
}

/// The reference's differences from Kafka 4.4.0, INFORMATIONAL scenarios recorded as known
/// divergences of the target named `embedded` only: a buggy coordinator built on the reference
/// fails them.
const REFERENCE_DIVERGENCES: [&str; 2] = [
    "R46-endpoint-member-while-source-topics-missing",
    "R40-kept-configuration-of-deleted-topic",
];

/// The first run's violation of a three-second campaign with seed 1, if any.
fn campaign(bug: Bug) -> Option<(u64, &'static str)> {
    campaign_in_jobs(bug, 1)
}

/// [`campaign`] with `jobs` threads carrying out the runs.
fn campaign_in_jobs(bug: Bug, jobs: u16) -> Option<(u64, &'static str)> {
    let config = CampaignConfig {
        seed: 1,
        duration: Duration::from_secs(3),
        jobs,
        ..CampaignConfig::default()
    };
    let result = streamspec::fuzz(WithBug(bug), &config);
    assert!(result.runs > 0, "{result:?}");
    assert!(result.setup_errors.is_empty(), "{:?}", result.setup_errors);
    result
        .finding
        .map(|finding| (finding.run, finding.violation.property.name))
}

/// The first finding's run and property of a differential campaign with seed 1 against `bug`,
/// its runs carried out by `jobs` threads.
fn differential_first_run(bug: Bug, jobs: u16) -> Option<(u64, &'static str)> {
    let config = CampaignConfig {
        seed: 1,
        duration: Duration::from_secs(60),
        jobs,
        shrink_budget: Duration::ZERO,
        ..CampaignConfig::default()
    };
    let result = streamspec::fuzz(DifferentialConnector::new(WithBug(bug)), &config);
    assert!(result.setup_errors.is_empty(), "{:?}", result.setup_errors);
    result
        .finding
        .map(|finding| (finding.run, finding.violation.property.name))
}

#[test]
fn two_jobs_report_the_violation_one_job_reports() {
    // Each job stops at a violation, but runs before it still finish: the first run in run
    // order that fails is reported, however the jobs' runs interleave.
    for (bug, first) in [(Bug::AcceptsStaleEpochs, 0), (Bug::SharesTaskZero, 0)] {
        let one = campaign_in_jobs(bug, 1);
        assert_eq!(one.map(|(run, _)| run), Some(first), "{bug:?}");
        assert_eq!(campaign_in_jobs(bug, 2), one, "{bug:?}");
    }
    // A later first finding, in a run the second job carries out.
    let one = differential_first_run(Bug::ShutdownOnlyToRequester, 1);
    assert_eq!(one, Some((1, oracle::ANSWERS_EQUAL.name)));
    assert_eq!(differential_first_run(Bug::ShutdownOnlyToRequester, 2), one);
}

#[test]
fn without_a_bug_everything_passes() {
    assert_eq!(check(Bug::None), (RunVerdict::Passed, failed(&[])));
    assert_eq!(campaign(Bug::None), None);
}

#[test]
fn accepting_stale_epochs_fails_the_fencing_rules() {
    assert_eq!(
        check(Bug::AcceptsStaleEpochs),
        (
            RunVerdict::Failed,
            failed(&[
                "R23-greater-epoch-fenced",
                "R23-greater-epoch-fenced-message",
                "R24-below-previous-epoch-fenced",
                "R24-epoch-before-static-release-fenced",
                "R24-previous-epoch-null-owned-fenced",
                "R24-previous-epoch-tolerated",
                "R24-smaller-epoch-fenced-message",
                "R49-released-member-heartbeat-fenced",
                "R52-acceptable-recovery-lag-v0-legacy",
                "R52-acceptable-recovery-lag-v1",
            ])
        )
    );
    // A member answered at a stale epoch goes back in time.
    assert_eq!(
        campaign(Bug::AcceptsStaleEpochs),
        Some((0, oracle::EPOCH_NEVER_DECREASES.name))
    );
}

#[test]
fn sharing_a_task_fails_the_assignment_rules() {
    let mut expected = failed(&[
        "R12-no-warmup-tasks-assigned",
        "R24-lost-response-hides-a-gained-task",
        "R27-reconciliation-dance",
        "R31-leave-remaining-member-rebalances",
        "R49-static-rejoin-reconciles-to-new-target",
        "R54-epoch0-rejoin-accepted",
        "R41-standby-off-the-active-process",
        "R54-epoch0-rejoin-keeps-the-layout",
    ]);
    // These set up a second member's share of the tasks before what they check: the bug
    // stops them at that precondition.
    for name in [
        "R24-below-previous-epoch-fenced",
        "R24-previous-epoch-null-owned-fenced",
        "R24-previous-epoch-tolerated",
        "R24-smaller-epoch-fenced-message",
        "R27-standby-promoted-in-place",
        "R30-session-timeout-after-refused-rejoin",
    ] {
        expected.insert(name.to_owned(), Verdict::PreconditionNotMet);
    }
    assert_eq!(check(Bug::SharesTaskZero), (RunVerdict::Failed, expected));
    // The relational `tasks` steps name the task held twice and its holders. The bug is in the
    // answers only: R41's describe-based steps (9 and 10) pass, the one on the answers fails.
    let report = streamspec::check(WithBug(Bug::SharesTaskZero), CheckOptions::default());
    let reasons: BTreeMap<&str, (Option<usize>, Option<&str>)> = report
        .outcomes
        .iter()
        .filter(|outcome| {
            outcome.scenario.starts_with("R41-standby-off")
                || outcome.scenario == "R54-epoch0-rejoin-keeps-the-layout"
        })
        .map(|outcome| {
            (
                outcome.scenario.as_str(),
                (outcome.step, outcome.reason.as_deref()),
            )
        })
        .collect();
    let shared = Some("tasks: active task 0_0 is held by both a and b");
    assert_eq!(
        reasons,
        BTreeMap::from([
            ("R41-standby-off-the-active-process", (Some(11), shared)),
            ("R54-epoch0-rejoin-keeps-the-layout", (Some(6), shared)),
        ])
    );
    // Task 0_0 is given to a second member while another still owns it; in the first run the
    // second member's process holds it as a standby too, which the oracle checks first.
    assert_eq!(
        campaign(Bug::SharesTaskZero),
        Some((0, oracle::ROLES_APART.name))
    );
}

#[test]
fn tolerating_a_lost_answer_unchecked_fails_the_previous_epoch_rules() {
    assert_eq!(
        check(Bug::ToleratesLostAnswerUnchecked),
        (
            RunVerdict::Failed,
            failed(&[
                "R24-previous-epoch-null-owned-fenced",
                "R24-previous-epoch-tolerated",
                "R24-smaller-epoch-fenced-message",
                "R49-released-member-heartbeat-fenced",
                "R49-static-rejoin-new-member-id-inherits-epoch",
                "R50-replaced-static-member-fenced",
            ])
        )
    );
    // Every answer is safe: only the differential campaign sees it (below).
    assert_eq!(campaign(Bug::ToleratesLostAnswerUnchecked), None);
}

#[test]
fn a_shutdown_outliving_the_group_fails_r44() {
    assert_eq!(
        check(Bug::ShutdownOutlivesTheGroup),
        (
            RunVerdict::Failed,
            failed(&[
                "R44-shutdown-cleared-when-empty",
                "R44-shutdown-forgotten-when-the-only-member-is-replaced",
            ])
        )
    );
    assert_eq!(campaign(Bug::ShutdownOutlivesTheGroup), None);
}

#[test]
fn a_stale_topology_at_the_groups_own_epoch_fails_every_status_check() {
    let (verdict, not_passing) = check(Bug::StaleAtEqualTopologyEpoch);
    assert_eq!(verdict, RunVerdict::Failed);
    // Every successful answer now carries STALE_TOPOLOGY: most scenarios stop at their first
    // `status` expectation, failed where it is the check and unmet where it is a precondition.
    let count = |wanted: Verdict| {
        not_passing
            .values()
            .filter(|verdict| **verdict == wanted)
            .count()
    };
    assert_eq!(
        (
            count(Verdict::Fail),
            count(Verdict::PreconditionNotMet),
            count(Verdict::Timeout)
        ),
        (34, 47, 7),
        "{not_passing:?}"
    );
    assert_eq!(
        not_passing.get("R38-stale-topology-epoch"),
        Some(&Verdict::PreconditionNotMet)
    );
    assert_eq!(
        not_passing.get("R25-join-first-assignment"),
        Some(&Verdict::Fail)
    );
    assert_eq!(campaign(Bug::StaleAtEqualTopologyEpoch), None);
}

proptest! {
    #![proptest_config(Config {
        cases: 8,
        rng_seed: RngSeed::Fixed(1),
        failure_persistence: None,
        ..Config::default()
    })]

    /// The one-line proptest over runs an adopter writes: without a bug, every run holds.
    #[test]
    fn every_property_holds_over_generated_runs(input in arb_run_input()) {
        check_run(&WithBug(Bug::None), &input).map_err(|failure| TestCaseError::fail(failure.to_string()))?;
    }
}

/// The same proptest finds the stale-epoch bug, names the property it breaks, and shrinks the
/// run to one that still breaks it.
#[test]
fn a_proptest_over_runs_finds_the_stale_epoch_bug() {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        rng_seed: RngSeed::Fixed(1),
        failure_persistence: None,
        max_shrink_iters: 128,
        ..Config::default()
    });
    let buggy = WithBug(Bug::AcceptsStaleEpochs);
    let result = runner.run(&arb_run_input(), |input| {
        check_run(&buggy, &input).map_err(|failure| TestCaseError::fail(failure.to_string()))
    });
    let Err(TestError::Fail(reason, minimal)) = result else {
        panic!("the proptest does not find the bug: {result:?}");
    };
    assert!(
        reason.message().starts_with(
            "always: a member's epoch never decreases (spec 4.6-5) violated at operation "
        ),
        "{reason}"
    );
    let failure = check_run(&buggy, &minimal).expect_err("the shrunk run still fails");
    let RunFailure::Violation { violation, .. } = *failure else {
        panic!("the shrunk run is carried out: {failure}");
    };
    assert_eq!(violation.property, &oracle::EPOCH_NEVER_DECREASES);
}

/// A differential campaign with seed 1 against `bug`, and its shrunk finding: the property,
/// what the first line of its detail says differs (the fields and their rules), and whether the
/// shrunk run is shorter than the one drawn and, run again, still diverges the same way.
fn differential_campaign(bug: Bug) -> Option<(&'static str, String)> {
    // A campaign ends at its first finding: a bug gets time enough to reach its run (the
    // latest is run 1, but a generator change may move it) on a loaded machine; the reference
    // runs 3 s.
    let seconds = if bug == Bug::None { 3 } else { 60 };
    let config = CampaignConfig {
        seed: 1,
        duration: Duration::from_secs(seconds),
        ..CampaignConfig::default()
    };
    let connector = DifferentialConnector::new(WithBug(bug));
    let result = streamspec::fuzz(connector.clone(), &config);
    assert!(result.runs > 0, "{result:?}");
    assert!(result.setup_errors.is_empty(), "{:?}", result.setup_errors);
    let finding = result.finding?;
    assert!(
        finding.input.operations.len() < finding.drawn_operations,
        "{bug:?}: shrunk from {} to {} operations",
        finding.drawn_operations,
        finding.input.operations.len()
    );
    let again = campaign::run_once(&config, &connector, Names::new(""), &finding.input)
        .expect("the shrunk run is carried out");
    assert_eq!(
        again.violation.as_ref(),
        Some(&finding.violation),
        "{bug:?}"
    );
    let first_line = finding.violation.detail.lines().next().unwrap_or_default();
    let differs = first_line
        .split_once(" differs from the reference's in ")
        .map_or(first_line, |(_, differs)| differs);
    Some((finding.violation.property.name, differs.to_owned()))
}

#[test]
fn the_differential_campaign_catches_every_planted_bug() {
    assert_eq!(differential_campaign(Bug::None), None);
    // Each bug, and the fields and rules of the first difference the campaign meets.
    let expected = [
        (
            Bug::AcceptsStaleEpochs,
            ".errorCode, .memberId, .memberEpoch, .heartbeatIntervalMs (rules R23, R24)",
        ),
        (
            Bug::AcceptsEpochAboveMember,
            ".errorCode, .memberId, .memberEpoch, .heartbeatIntervalMs, 5 more (rules R23, R24)",
        ),
        (
            Bug::UnknownMemberAnsweredFenced,
            ".errorCode (rules R23, R24, R21, R32)",
        ),
        (
            Bug::TaskListsOnEveryHeartbeat,
            ".activeTasks, .standbyTasks, .warmupTasks (rules R26, R27, R28, R31, spec 7.3, R41, R12)",
        ),
        (
            Bug::MaxSizeOffByOne,
            ".errorCode, .memberId, .memberEpoch, .heartbeatIntervalMs, 8 more (rules R22, R51, R38, R46, spec 7.6)",
        ),
        (
            Bug::ShutdownOnlyToRequester,
            ".status[0].statusCode, .status[1] (rules R25, R43, R44, R45)",
        ),
        (
            Bug::ToleratesLostAnswerUnchecked,
            ".errorCode, .memberId, .memberEpoch, .heartbeatIntervalMs, 4 more (rules R23, R24, R46, spec 7.6)",
        ),
        (
            Bug::ShutdownOutlivesTheGroup,
            ".status[0] (rules R43, R44, R45)",
        ),
        (
            Bug::StaleAtEqualTopologyEpoch,
            ".status[0].statusCode, .status[1] (rules R38, R34)",
        ),
        (
            Bug::SharesTaskZero,
            ".activeTasks[0].partitions (rules R26, R27, R28, R31, spec 7.3)",
        ),
    ];
    // All bugs at once, so that a change of the generator shows every difference it makes.
    let found: Vec<_> = expected
        .iter()
        .map(|(bug, _)| (*bug, differential_campaign(*bug)))
        .collect();
    let expected: Vec<_> = expected
        .iter()
        .map(|(bug, fields)| {
            (
                *bug,
                Some((oracle::ANSWERS_EQUAL.name, (*fields).to_owned())),
            )
        })
        .collect();
    assert_eq!(found, expected);
}
