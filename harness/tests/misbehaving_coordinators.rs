//! A coordinator in process that never answers, or panics, is a finding about it: `check` grades
//! the scenario that met it and goes on to the others, and `fuzz` reports the run, its seed and
//! the command that runs it again. Neither hangs nor crashes.

use std::collections::BTreeMap;
use std::time::Duration;

use streamspec::backend::{BackendResult, Connect};
use streamspec::embedded::EmbeddedTarget;
use streamspec::report::RunVerdict;
use streamspec::runner::{short_timeout_hint, Verdict};
use streamspec::scenario::{self, Scenario};
use streamspec::simulation::oracle;
use streamspec::{Backend, CampaignConfig, CheckOptions, StreamsApi};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;
use streamspec_protocol::WireMessage;

/// Short, so that a call that never answers ends the scenario soon.
const IO_TIMEOUT: Duration = Duration::from_millis(200);

const LEAVE_PANIC: &str = "leaving is not implemented";

#[derive(Debug, Clone, Copy)]
enum Misbehaviour {
    /// StreamsGroupDescribe never completes.
    HangsOnDescribe,
    /// A heartbeat at member epoch -1 (a leave) panics.
    PanicsOnLeave,
}

/// The reference, but for its misbehaviour.
struct Misbehaving {
    inner: EmbeddedTarget,
    misbehaviour: Misbehaviour,
}

impl Backend for Misbehaving {
    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        match (self.misbehaviour, api) {
            (Misbehaviour::HangsOnDescribe, StreamsApi::Describe) => {
                std::future::pending::<()>().await;
            }
            (Misbehaviour::PanicsOnLeave, StreamsApi::Heartbeat) => {
                let heartbeat = StreamsGroupHeartbeatRequest::decode_exact(request, version)
                    .expect("the harness sends heartbeats that decode");
                if heartbeat.member_epoch == -1 {
                    panic!("{LEAVE_PANIC}");
                }
            }
            _ => {}
        }
        self.inner.call(api, version, request).await
    }

    streamspec::delegate_backend_setup!(inner);
}

struct Connector(Misbehaviour);

impl Connect for Connector {
    type Backend = Misbehaving;

    async fn open(&self, _group: &str, _: &BTreeMap<String, String>) -> BackendResult<Misbehaving> {
        Ok(Misbehaving {
            inner: EmbeddedTarget::default(),
            misbehaviour: self.0,
        })
    }

    fn name(&self) -> String {
        "misbehaving".to_owned()
    }
}

/// Neither a leave nor a describe; a describe at step 2; a leave at step 2 and a describe at
/// step 3.
const SCENARIOS: [&str; 3] = [
    "R23-greater-epoch-fenced-message",
    "R25-join-first-assignment",
    "R31-leave",
];

fn scenarios() -> Vec<Scenario> {
    let catalogue = scenario::catalogue();
    SCENARIOS
        .iter()
        .map(|name| {
            catalogue
                .iter()
                .find(|scenario| scenario.name == *name)
                .unwrap_or_else(|| panic!("{name} is in the catalogue"))
                .clone()
        })
        .collect()
}

/// A scenario's name, verdict, the step it ended at and why.
type Graded = (String, Verdict, Option<usize>, Option<String>);

/// Each scenario as graded, in catalogue order.
fn check(misbehaviour: Misbehaviour) -> (RunVerdict, Vec<Graded>) {
    let options = CheckOptions {
        scenarios: scenarios(),
        divergences: Vec::new(),
        jobs: 1,
        io_timeout: IO_TIMEOUT,
        ..CheckOptions::default()
    };
    let report = streamspec::check(Connector(misbehaviour), options);
    let outcomes = report
        .outcomes
        .iter()
        .map(|outcome| {
            (
                outcome.scenario.clone(),
                outcome.verdict,
                outcome.step,
                outcome.reason.clone(),
            )
        })
        .collect();
    (report.verdict(), outcomes)
}

fn passed(name: &str) -> Graded {
    (name.to_owned(), Verdict::Pass, None, None)
}

fn describe_timed_out() -> String {
    format!(
        "the coordinator did not answer StreamsGroupDescribeRequest v1 within 200 ms; {}",
        short_timeout_hint(IO_TIMEOUT).unwrap()
    )
}

#[test]
fn a_describe_that_never_completes_is_an_error_at_its_step_and_the_other_scenarios_run() {
    let (verdict, outcomes) = check(Misbehaviour::HangsOnDescribe);
    assert_eq!(verdict, RunVerdict::Failed);
    assert_eq!(
        outcomes,
        [
            passed("R23-greater-epoch-fenced-message"),
            (
                "R25-join-first-assignment".to_owned(),
                Verdict::Error,
                Some(2),
                Some(describe_timed_out())
            ),
            (
                "R31-leave".to_owned(),
                Verdict::Error,
                Some(3),
                Some(describe_timed_out())
            ),
        ]
    );
}

#[test]
fn a_panic_of_the_coordinator_is_an_error_at_its_step_and_the_other_scenarios_run() {
    let (verdict, outcomes) = check(Misbehaviour::PanicsOnLeave);
    assert_eq!(verdict, RunVerdict::Failed);
    assert_eq!(
        outcomes,
        [
            passed("R23-greater-epoch-fenced-message"),
            passed("R25-join-first-assignment"),
            (
                "R31-leave".to_owned(),
                Verdict::Error,
                Some(2),
                Some(format!(
                    "the coordinator panicked on StreamsGroupHeartbeatRequest v1: {LEAVE_PANIC}"
                ))
            ),
        ]
    );
}

fn campaign() -> CampaignConfig {
    CampaignConfig {
        duration: Duration::from_secs(5),
        io_timeout: IO_TIMEOUT,
        shrink_budget: Duration::from_secs(2),
        ..CampaignConfig::default()
    }
}

/// The campaign's finding, and the line its report gives "every request is answered".
fn fuzz(misbehaviour: Misbehaviour) -> (streamspec::campaign::Finding, String) {
    let config = campaign();
    let result = streamspec::fuzz(Connector(misbehaviour), &config);
    assert_eq!(result.setup_errors, Vec::<String>::new());
    let finding = result.finding.clone().expect("a finding");
    let report = streamspec::campaign::report(&config, "misbehaving", &result, None);
    let answered = report
        .outcomes
        .iter()
        .find(|outcome| outcome.scenario == oracle::ANSWERED.label())
        .expect("every request is answered is reported");
    assert_eq!(answered.verdict, Verdict::Fail);
    (finding, answered.reason.clone().unwrap())
}

#[test]
fn a_campaign_against_a_describe_that_never_completes_fails_every_request_is_answered() {
    let (finding, reason) = fuzz(Misbehaviour::HangsOnDescribe);
    assert_eq!(finding.run, 0);
    assert_eq!(finding.violation.property, &oracle::ANSWERED);
    assert_eq!(
        finding.violation.detail,
        format!(
            "StreamsGroupDescribe got no answer: the coordinator did not answer StreamsGroupDescribeRequest v1 within 200 ms; {}",
            short_timeout_hint(IO_TIMEOUT).unwrap()
        )
    );
    let config = campaign();
    assert!(reason.starts_with(&format!(
        "run 0 (its seed {:#x}, from root seed {}; shrunk from ",
        config.run_seed(0),
        config.seed
    )));
    // No command line reaches a connector of one's own: the report says how to run it again.
    assert!(reason.ends_with(
        "; run again in process: streamspec::fuzzing::check_run(&connector, &finding.input) with this CampaignResult's finding (its input shrunk), or this CampaignConfig with runs: RunRange { first: 0, count: Some(1) }"
    ));
}

#[test]
fn a_campaign_against_a_coordinator_that_panics_fails_every_request_is_answered() {
    let (finding, reason) = fuzz(Misbehaviour::PanicsOnLeave);
    assert_eq!(finding.run, 0);
    assert_eq!(finding.violation.property, &oracle::ANSWERED);
    assert_eq!(
        finding.violation.detail,
        format!(
            "m3-0 got no answer: the coordinator panicked on StreamsGroupHeartbeatRequest v1: {LEAVE_PANIC}; request {}",
            r#"{"groupId":"sim","memberId":"m3-0","memberEpoch":-1,"endpointInformationEpoch":0,"instanceId":null,"rackId":null,"rebalanceTimeoutMs":-1,"topology":null,"activeTasks":null,"standbyTasks":null,"warmupTasks":null,"processId":null,"userEndpoint":null,"clientTags":null,"taskOffsets":null,"taskEndOffsets":null,"shutdownApplication":false}"#
        )
    );
    let config = campaign();
    assert!(reason.starts_with(&format!(
        "run 0 (its seed {:#x}, from root seed {}; shrunk from ",
        config.run_seed(0),
        config.seed
    )));
    // No command line reaches a connector of one's own: the report says how to run it again.
    assert!(reason.ends_with(
        "; run again in process: streamspec::fuzzing::check_run(&connector, &finding.input) with this CampaignResult's finding (its input shrunk), or this CampaignConfig with runs: RunRange { first: 0, count: Some(1) }"
    ));
}
