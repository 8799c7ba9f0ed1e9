//! Differential runs against targets that equal the reference: the reference itself in process,
//! and the reference behind a delay that moves its clock while it answers, so that exchanges
//! near deadlines are timing-sensitive. Neither may diverge. (The planted bugs a differential
//! campaign catches are in `examples/buggy-coordinator`.)

use std::collections::BTreeMap;
use std::time::Duration;

use streamspec::backend::{BackendResult, Connect};
use streamspec::campaign::{self, CampaignConfig};
use streamspec::differential::DifferentialConnector;
use streamspec::embedded::{EmbeddedConnector, EmbeddedTarget};
use streamspec::simulation::run_in_process;
use streamspec::simulation::setup::Names;
use streamspec::{Backend, StreamsApi};

const RUNS: u64 = 24;

fn config() -> CampaignConfig {
    CampaignConfig {
        seed: 1,
        ..CampaignConfig::default()
    }
}

/// Each run equals the plain run of its input exchange for exchange, and compares every
/// heartbeat; on the virtual clock no deadline is ever near, only internal topics are.
#[test]
fn the_reference_against_itself_is_clean_and_compares_every_exchange() {
    let config = config();
    let connector = DifferentialConnector::new(EmbeddedConnector);
    let mut deferred = 0;
    for run in 0..RUNS {
        let input = config.input(run);
        let record = campaign::run_once(&config, &connector, Names::new(""), &input).unwrap();
        assert_eq!(record.violation, None, "run {run}");
        let plain = run_in_process(&input);
        let text = |events: &[streamspec::simulation::history::Event]| {
            serde_json::to_string(events).unwrap()
        };
        assert_eq!(text(&record.history), text(&plain.history), "run {run}");
        let comparison = record.comparison.expect("a differential run compares");
        assert_eq!(
            comparison.heartbeats,
            record.history.len() as u64,
            "run {run}"
        );
        assert!(
            comparison.describes >= comparison.heartbeats,
            "a describe follows every heartbeat: run {run}: {comparison:?}"
        );
        // Internal topics the coordinator asks for are created at once in process; the
        // reference, which defers them as a broker would, answers the describe after the asking
        // heartbeat alike with and without them, and the next heartbeat sees them: two exchanges
        // compared against both, per request.
        assert_eq!(comparison.timing_sensitive % 2, 0, "run {run}");
        deferred += comparison.timing_sensitive;
        assert_eq!(comparison.known, None, "run {run}");
    }
    assert_eq!(deferred, 94, "what seed 1 gives");
}

/// How long the slow target's clock moves while it answers, in all.
const LATENCY_MS: u64 = 200;

/// The reference, answering as a broker on real time would: its clock moves while it answers,
/// and it handles a request at a varying point of that time (0, 100 or 200 ms after sending, in
/// turn), so its deadlines drift against the reference's.
#[derive(Debug)]
struct Slow {
    reference: EmbeddedTarget,
    calls: u64,
}

impl Backend for Slow {
    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        self.calls += 1;
        let handled_after = (self.calls % 3) * LATENCY_MS / 2;
        self.reference.advance_ms(handled_after)?;
        let answer = self.reference.answer(api, version, request)?;
        self.reference.advance_ms(LATENCY_MS - handled_after)?;
        Ok(answer)
    }

    streamspec::delegate_backend_setup!(reference);
}

#[derive(Debug, Clone, Copy)]
struct SlowConnector;

impl Connect for SlowConnector {
    type Backend = Slow;

    async fn open(&self, group: &str, configs: &BTreeMap<String, String>) -> BackendResult<Slow> {
        Ok(Slow {
            reference: EmbeddedConnector.open(group, configs).await?,
            calls: 0,
        })
    }

    fn name(&self) -> String {
        "slow".to_owned()
    }
}

/// Exchanges within the margin of a deadline are answered by two forks of the reference; the
/// slow target's answers, handled up to 200 ms after sending, equal one of them every time.
#[test]
fn exchanges_near_a_deadline_match_one_of_two_answers() {
    let config = config();
    let connector = DifferentialConnector {
        margin: Duration::from_millis(250),
        ..DifferentialConnector::new(SlowConnector)
    };
    let mut sensitive = 0;
    for run in 0..RUNS {
        let input = config.input(run);
        let record = campaign::run_once(&config, &connector, Names::new(""), &input).unwrap();
        assert_eq!(
            record.violation.as_ref().map(ToString::to_string),
            None,
            "run {run}"
        );
        let comparison = record.comparison.expect("a differential run compares");
        assert_eq!(comparison.heartbeats, record.history.len() as u64);
        sensitive += comparison.timing_sensitive;
    }
    assert!(sensitive > 0, "no exchange came near a deadline");
    // Without the margin the same runs diverge.
    let strict = DifferentialConnector {
        margin: Duration::ZERO,
        ..DifferentialConnector::new(SlowConnector)
    };
    let diverged = (0..RUNS)
        .filter(|run| {
            campaign::run_once(&config, &strict, Names::new(""), &config.input(*run))
                .unwrap()
                .violation
                .is_some()
        })
        .count();
    assert!(diverged > 0, "the margin was never needed");
}
