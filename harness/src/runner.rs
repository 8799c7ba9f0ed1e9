//! Runs scenarios against a [`Backend`] and grades them.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use crate::backend::{self, Backend, BackendError, Connect};
use crate::interrupt::Interrupt;
use crate::scenario::{Profile, Scenario};

mod breaker;
mod divergences;
mod names;
mod requirements;
mod steps;
mod tasks;

pub use breaker::{short_timeout_hint, with_short_timeout_hint, Breaker};
pub use divergences::{
    apply_divergences, divergences, divergences_for_other_targets, load_divergences, Condition,
    Divergence,
};
pub use requirements::{set_initial_group_configs, unmet_requirement, InitialGroupConfigs};

use names::kafka_name;
use steps::{precondition_not_met, run_step, Context, StepFailure};

/// How a scenario ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    /// The target lacks something the scenario requires.
    Skip,
    /// An expectation with `until` never matched within its bound.
    Timeout,
    /// Failed as a recorded divergence of this target says it does (see [`Divergence`]).
    Divergent,
    /// The scenario could not be carried out (transport error, bad request template).
    Error,
    /// A step marked `precondition` (set-up for the rule under test) did not get the answer the
    /// scenario builds on, so the rule was never reached: no judgement of it either way.
    #[serde(rename = "precondition_not_met")]
    PreconditionNotMet,
}

impl Verdict {
    /// How reports name the verdict to people.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Skip => "skip",
            Verdict::Timeout => "timeout",
            Verdict::Divergent => "divergent",
            Verdict::Error => "error",
            Verdict::PreconditionNotMet => "precondition not met",
        }
    }
}

/// A scenario's outcome, with what a reader needs to see why.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub scenario: String,
    pub title: String,
    pub rules: Vec<String>,
    pub grade: crate::scenario::Grade,
    pub source: String,
    pub verdict: Verdict,
    /// What went wrong, or why it was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// 1-based step that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The failing exchange, laid out field by field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire: Option<String>,
    /// What could not be taken back from the target afterwards (topics, group configs, ACLs);
    /// the verdict stands, but the target keeps something of the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cleanup: Option<String>,
    /// The failing step's expected answer beside the one found, when an answer did not match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<Mismatch>,
    /// Every exchange of the scenario, laid out field by field with the step it belongs to, when
    /// the run records them (`check -v`, `--html`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exchanges: Vec<String>,
    pub duration_ms: u64,
    /// The scenario passed where a recorded divergence says it fails: the record is wrong, which
    /// fails the run whatever the scenario's grade, so that the file stays true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale_divergence: bool,
}

/// An answer that did not match: the step's pattern (variables filled in) and the answer as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    pub expected: serde_json::Value,
    pub found: serde_json::Value,
}

impl Outcome {
    /// The outcome of `scenario` before anything went wrong: a pass.
    pub fn of(scenario: &Scenario) -> Outcome {
        Outcome {
            scenario: scenario.name.clone(),
            title: scenario.title.clone(),
            rules: scenario.rules.clone(),
            grade: scenario.grade,
            source: scenario.source.clone(),
            verdict: Verdict::Pass,
            reason: None,
            step: None,
            wire: None,
            cleanup: None,
            mismatch: None,
            exchanges: Vec::new(),
            duration_ms: 0,
            stale_divergence: false,
        }
    }
}

/// Settings of one run.
#[derive(Debug, Clone)]
pub struct RunSettings {
    /// The target's name, for what the breaker says.
    pub target: String,
    /// Makes group and topic names unique to this run.
    pub run_id: String,
    /// Bound on waiting for the coordinator to see topics, and on an interrupted scenario's
    /// clean-up.
    pub io_timeout: Duration,
    /// Whose behaviour the scenarios expect where Kafka releases differ.
    pub profile: Profile,
    /// Stops starting scenarios once the target has stopped answering.
    pub breaker: std::sync::Arc<Breaker>,
    /// Keeps every exchange of every scenario on its outcome (`check -v`).
    pub record_exchanges: bool,
}

/// Why a scenario has no verdict of its own when the run was interrupted.
pub const NOT_RUN: &str = "not run: the run was interrupted (Ctrl-C or SIGTERM)";

/// Why a scenario did not start once the breaker had tripped: an error, since the target's loss
/// is one.
pub const NOT_RUN_TARGET_LOST: &str = "not run: the target stopped answering";

/// The outcome of a scenario the interrupted run never started: skipped, with [`NOT_RUN`].
pub fn not_run(scenario: &Scenario) -> Outcome {
    Outcome {
        verdict: Verdict::Skip,
        reason: Some(NOT_RUN.to_owned()),
        ..Outcome::of(scenario)
    }
}

/// Runs one scenario against a target, on connections of its own, and takes back what it made
/// there: topics, group configs, ACLs. When `interrupt` is raised it stops at once, cleans up
/// within the run's I/O timeout, and reads as [`not_run`] (with how far it got).
pub async fn run_scenario<C: Connect>(
    scenario: &Scenario,
    settings: &RunSettings,
    connector: &C,
    interrupt: &Interrupt,
) -> Outcome {
    if interrupt.is_raised() {
        return not_run(scenario);
    }
    if let Some(reason) = connector.skips(scenario) {
        return Outcome {
            verdict: Verdict::Skip,
            reason: Some(reason),
            ..Outcome::of(scenario)
        };
    }
    let started = Instant::now();
    let mut outcome = Outcome::of(scenario);
    let (group, all_topics) = target_names(&settings.run_id, scenario);
    let mut variables = BTreeMap::from([("group".to_owned(), Value::String(group.clone()))]);
    let mut created = Vec::new();
    for (topic, name) in scenario.topics.iter().zip(&all_topics) {
        variables.insert(topic.name.clone(), Value::String(name.clone()));
        if topic.create {
            created.push((name.clone(), topic.partitions));
        }
    }
    let topology = scenario.topology.clone().unwrap_or_else(|| {
        json!({"epoch": 0, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["${in}"]}]})
    });
    let mut context = Context {
        variables,
        members: BTreeMap::new(),
        topology,
        denied: Vec::new(),
        configured: Vec::new(),
        step: 0,
        exchanges: settings.record_exchanges.then(Vec::new),
        partitions: created.iter().cloned().collect(),
        last_describe: None,
        io_timeout: settings.io_timeout,
    };
    let mut opened = None;
    let mut at_step = None;
    // A scenario skipped before its topics were asked for has none to delete.
    let mut topics_requested = false;

    if !settings.breaker.admit() {
        outcome.verdict = Verdict::Error;
        outcome.reason = Some(NOT_RUN_TARGET_LOST.to_owned());
        return outcome;
    }
    let work = async {
        let target = opened.insert(
            backend::open_guarded(
                connector,
                &group,
                &scenario.requires.broker_configs,
                settings.io_timeout,
            )
            .await?,
        );
        if let Some(reason) = unmet_requirement(scenario, target, settings.profile).await? {
            return Ok(Some(reason));
        }
        match set_initial_group_configs(target, scenario, &group, &mut context.configured).await? {
            InitialGroupConfigs::Set => {}
            InitialGroupConfigs::Unmet(reason) => return Ok(Some(reason)),
        }
        let probe = format!("{group}-probe");
        topics_requested = true;
        backend::create_topics_and_wait(target, &created, &probe, settings.io_timeout).await?;
        for (index, step) in scenario.steps.iter().enumerate() {
            at_step = Some(index + 1);
            context.step = index + 1;
            if let Err(error) = run_step(target, step, &mut context).await {
                return Err(FailureAt {
                    step: Some(index + 1),
                    failure: if step.precondition() {
                        precondition_not_met(index + 1, error)
                    } else {
                        error
                    },
                });
            }
        }
        Ok(None)
    };
    let result = tokio::select! {
        // An interrupt wins over a step that completes at the same moment: it was asked for.
        biased;
        () = interrupt.raised() => None,
        result = work => Some(result),
    };
    // The topics of a scenario that never opened its target were never made.
    if let Some(target) = &mut opened {
        let topics = if topics_requested {
            &all_topics[..]
        } else {
            &[]
        };
        let cleanup = clean_up(target, &context, &group, topics);
        let cleanup = if result.is_none() {
            tokio::time::timeout(settings.io_timeout, cleanup)
                .await
                .unwrap_or_else(|_| {
                    Err(format!(
                        "did not finish within {} ms",
                        settings.io_timeout.as_millis()
                    ))
                })
        } else {
            cleanup.await
        };
        outcome.cleanup = cleanup.err();
    }
    settings.breaker.record(match &result {
        Some(Err(FailureAt { failure, .. })) => {
            failure.loss.map(|loss| (loss, failure.reason.as_str()))
        }
        _ => None,
    });
    match result {
        None => {
            outcome.verdict = Verdict::Skip;
            outcome.reason = Some(match at_step {
                Some(step) => format!("{NOT_RUN} at step {step}"),
                None => format!("{NOT_RUN} while it was being set up"),
            });
        }
        Some(Ok(None)) => {}
        Some(Ok(Some(reason))) => {
            outcome.verdict = Verdict::Skip;
            outcome.reason = Some(reason);
        }
        Some(Err(FailureAt { step, failure })) => {
            outcome.verdict = failure.verdict;
            // A wait shorter than a broker may need reads as a target that does not answer.
            let hint = match failure.loss {
                Some(crate::transport::Loss::Timeout) => short_timeout_hint(settings.io_timeout),
                _ => None,
            };
            outcome.reason = Some(match hint {
                Some(hint) => format!("{}; {hint}", failure.reason),
                None => failure.reason,
            });
            outcome.step = step;
            outcome.wire = failure.exchange.map(|exchange| exchange.render());
            outcome.mismatch = failure.mismatch.map(|mismatch| *mismatch);
        }
    }
    outcome.exchanges = context.exchanges.take().unwrap_or_default();
    outcome.duration_ms = started.elapsed().as_millis() as u64;
    outcome
}

/// The group a scenario of run `run_id` uses on a target, and its topics' names (in the order of
/// `scenario.topics`).
pub fn target_names(run_id: &str, scenario: &Scenario) -> (String, Vec<String>) {
    let group = kafka_name(&[run_id, &scenario.name]);
    let topics = scenario
        .topics
        .iter()
        .map(|topic| kafka_name(&[run_id, &scenario.name, &topic.name]))
        .collect();
    (group, topics)
}

/// Takes back what a scenario made on `target`: its ACLs first, so that they cannot stand in the
/// way of the rest, then its group configs, then its topics (internal ones the coordinator made
/// included). Tries each and says what failed, in one line.
async fn clean_up<B: Backend>(
    target: &mut B,
    context: &Context,
    group: &str,
    topics: &[String],
) -> Result<(), String> {
    let mut failures = Vec::new();
    for resource in &context.denied {
        if let Err(error) = target.remove_acls(resource).await {
            failures.push(error.to_string());
        }
    }
    if !context.configured.is_empty() {
        if let Err(error) = target
            .delete_group_configs(group, &context.configured)
            .await
        {
            failures.push(error.to_string());
        }
    }
    if !topics.is_empty() {
        if let Err(error) = target.delete_topics(topics).await {
            failures.push(error.to_string());
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// A failure and the step it happened at (none for set-up).
struct FailureAt {
    step: Option<usize>,
    failure: StepFailure,
}

impl From<BackendError> for FailureAt {
    fn from(error: BackendError) -> Self {
        FailureAt {
            step: None,
            failure: error.into(),
        }
    }
}
