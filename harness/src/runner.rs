//! Runs scenarios against a [`Backend`] and grades them.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use streamspec_protocol::access::{Operation, Resource};
use streamspec_protocol::codes::ErrorCode;
use streamspec_protocol::kafka::{StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest};

use crate::backend::{self, Backend, BackendError, BackendExt, BackendResult, Connect};
use crate::interrupt::Interrupt;
use crate::matcher;
use crate::scenario::variables::{references, Reference};
use crate::scenario::{
    listed_baseline_group_configs, AclOperation, AclResource, Profile, Scenario, Step, Template,
};
use crate::transport::{Exchange, Loss};
use crate::NAME_PREFIX;

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
    /// Every exchange of the scenario, laid out field by field with the step it belongs to, when
    /// the run records them (`check -v`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exchanges: Vec<String>,
    pub duration_ms: u64,
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
            exchanges: Vec::new(),
            duration_ms: 0,
        }
    }
}

/// A known, explained difference between a target and Kafka: the scenario is expected to fail
/// there. Ours are kept in `harness/divergences.json`; a vendor keeps theirs in a file of the same
/// form (`check --divergences FILE`).
#[derive(Debug, Clone, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Divergence {
    pub scenario: String,
    pub rules: Vec<String>,
    /// `embedded`, or a HOST:PORT; absent for whatever target the run checks.
    #[serde(default)]
    pub target: Option<String>,
    pub reason: String,
    pub evidence: String,
    /// The file it came from.
    #[serde(skip)]
    pub source: String,
}

const BUILT_IN_DIVERGENCES: &str = "harness/divergences.json";

/// The divergences recorded for the reference coordinator and other targets.
pub fn divergences() -> Vec<Divergence> {
    parse_divergences(BUILT_IN_DIVERGENCES, include_str!("../divergences.json"))
        .expect("harness/divergences.json is valid")
}

/// Reads a file of divergences; an error names the file, line and column.
pub fn load_divergences(path: &std::path::Path) -> Result<Vec<Divergence>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    parse_divergences(&path.display().to_string(), &text)
}

fn parse_divergences(source: &str, text: &str) -> Result<Vec<Divergence>, String> {
    let mut divergences: Vec<Divergence> = serde_json::from_str(text).map_err(|error| {
        let position = format!(" at line {} column {}", error.line(), error.column());
        let message = error.to_string();
        format!(
            "{source}:{}:{}: not a list of divergences: {}",
            error.line(),
            error.column(),
            message.strip_suffix(&position).unwrap_or(&message)
        )
    })?;
    for divergence in &mut divergences {
        divergence.source = source.to_owned();
    }
    Ok(divergences)
}

/// Marks the failures a recorded divergence explains, and fails a recorded divergence that no
/// longer fires, so that the list stays true.
pub fn apply_divergences(outcomes: &mut [Outcome], target: &str, divergences: &[Divergence]) {
    let applies = |d: &&Divergence| d.target.as_ref().is_none_or(|named| *named == target);
    for divergence in divergences.iter().filter(applies) {
        let Some(outcome) = outcomes
            .iter_mut()
            .find(|o| o.scenario == divergence.scenario)
        else {
            continue;
        };
        match outcome.verdict {
            Verdict::Fail | Verdict::Error | Verdict::Timeout => {
                outcome.verdict = Verdict::Divergent;
                outcome.reason = Some(format!("known divergence: {}", divergence.reason));
                outcome.wire = None;
            }
            Verdict::Pass => {
                outcome.verdict = Verdict::Fail;
                outcome.reason = Some(format!(
                    "a divergence recorded in {} no longer fires: remove it",
                    divergence.source
                ));
            }
            // The divergent behaviour was never reached: whether it still fires is unknown.
            Verdict::Skip | Verdict::Divergent | Verdict::PreconditionNotMet => {}
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

/// Scenarios in a row without an answer the harness can use after which no further one starts.
const LOST_SCENARIOS_LIMIT: usize = 3;

/// A circuit breaker over a run: a target that answered the preflight and then stopped answering
/// (or answers only what cannot be read) would otherwise cost every remaining scenario a full
/// `--timeout-ms`, or fill the report with the same error.
#[derive(Debug, Default)]
pub struct Breaker {
    state: Mutex<BreakerState>,
}

#[derive(Debug, Default)]
struct BreakerState {
    /// Scenarios in a row that ended without a usable answer, and the last such error.
    lost_in_a_row: usize,
    last_loss: String,
    /// Whether one of those got an answer that could not be read.
    unreadable_in_a_row: bool,
    /// Whether it has tripped, and how many scenarios it kept from starting since.
    open: bool,
    not_run: usize,
}

impl Breaker {
    /// Whether a scenario may start; counts the ones that may not.
    fn admit(&self) -> bool {
        let mut state = self
            .state
            .lock()
            .expect("the breaker lock is never poisoned");
        state.not_run += usize::from(state.open);
        !state.open
    }

    /// Feeds the breaker with how a scenario ended: the loss and its error when the target gave
    /// no usable answer, `None` when it answered (rightly or not).
    fn record(&self, loss: Option<(Loss, &str)>) {
        let mut state = self
            .state
            .lock()
            .expect("the breaker lock is never poisoned");
        match loss {
            Some((loss, error)) => {
                if state.lost_in_a_row == 0 {
                    state.unreadable_in_a_row = false;
                }
                state.lost_in_a_row += 1;
                state.last_loss = error.to_owned();
                state.unreadable_in_a_row |= loss == Loss::Unreadable;
                state.open |= state.lost_in_a_row >= LOST_SCENARIOS_LIMIT;
            }
            None if !state.open => state.lost_in_a_row = 0,
            None => {}
        }
    }

    /// Once tripped: one line saying why and how many scenarios did not run.
    pub fn tripped(&self, target: &str) -> Option<String> {
        let state = self
            .state
            .lock()
            .expect("the breaker lock is never poisoned");
        let (what, got) = if state.unreadable_in_a_row {
            (
                "answers what cannot be read",
                "no answer that could be read",
            )
        } else {
            ("stopped answering", "no answer")
        };
        state.open.then(|| {
            format!(
                "{target} {what}: {} scenarios in a row got {got} (last: {}); {} scenarios not run",
                state.lost_in_a_row, state.last_loss, state.not_run
            )
        })
    }
}

/// Per-member state carried between steps.
#[derive(Debug, Default, Clone)]
struct MemberState {
    epoch: i32,
    endpoint_information_epoch: i32,
}

struct Context {
    variables: BTreeMap<String, Value>,
    members: BTreeMap<String, MemberState>,
    topology: Value,
    /// Resources the scenario set ACLs on, to clear when it ends.
    denied: Vec<Resource>,
    /// Group configs the scenario set, to take back when it ends.
    configured: Vec<String>,
    /// The step running, and every exchange so far when the run records them.
    step: usize,
    exchanges: Option<Vec<String>>,
}

impl Context {
    /// The scenario's fresh group id.
    fn group_id(&self) -> String {
        self.variables["group"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

/// A failure inside a scenario.
struct StepFailure {
    verdict: Verdict,
    reason: String,
    exchange: Option<Exchange>,
    /// Whether the target gave no answer the harness can use (see [`BackendError::loss`]),
    /// for the [`Breaker`].
    loss: Option<Loss>,
}

impl From<BackendError> for StepFailure {
    /// An error, but for what the backend cannot do at all: the scenario is then skipped, as
    /// when it lacks a config the scenario requires.
    fn from(error: BackendError) -> Self {
        StepFailure {
            verdict: match error {
                BackendError::Unsupported { .. } => Verdict::Skip,
                _ => Verdict::Error,
            },
            reason: error.to_string(),
            exchange: None,
            loss: error.loss(),
        }
    }
}

fn template_error(reason: String) -> StepFailure {
    StepFailure {
        verdict: Verdict::Error,
        reason,
        exchange: None,
        loss: None,
    }
}

/// A precondition step's answer that differed (or never came within its `until`) is no failure
/// of the scenario's rules; an error still is an error, since then the target could not be
/// judged at all.
fn precondition_not_met(step: usize, failure: StepFailure) -> StepFailure {
    match failure.verdict {
        Verdict::Fail | Verdict::Timeout => StepFailure {
            verdict: Verdict::PreconditionNotMet,
            reason: format!("precondition not met at step {step}: {}", failure.reason),
            exchange: failure.exchange,
            loss: None,
        },
        _ => failure,
    }
}

/// Replaces `${name}` and `${name+N}` / `${name-N}` references: a string that is one whole
/// reference takes the variable's JSON value; references inside longer strings are spliced in.
fn substitute(value: &Value, variables: &BTreeMap<String, Value>) -> Result<Value, String> {
    match value {
        Value::String(text) => {
            let references = references(text)?;
            if let [whole] = references.as_slice() {
                if whole.range == (0..text.len()) {
                    return resolve(whole, variables);
                }
            }
            let mut out = String::new();
            let mut copied = 0;
            for reference in &references {
                out.push_str(&text[copied..reference.range.start]);
                match resolve(reference, variables)? {
                    Value::String(inner) => out.push_str(&inner),
                    other => out.push_str(&other.to_string()),
                }
                copied = reference.range.end;
            }
            out.push_str(&text[copied..]);
            Ok(Value::String(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|item| substitute(item, variables))
            .collect(),
        Value::Object(map) => map
            .iter()
            .map(|(key, item)| Ok((key.clone(), substitute(item, variables)?)))
            .collect::<Result<serde_json::Map<_, _>, String>>()
            .map(Value::Object),
        other => Ok(other.clone()),
    }
}

fn resolve(
    reference: &Reference<'_>,
    variables: &BTreeMap<String, Value>,
) -> Result<Value, String> {
    let name = reference.name;
    let value = variables
        .get(name)
        .ok_or_else(|| format!("unknown variable ${{{name}}}"))?;
    match reference.offset {
        None => Ok(value.clone()),
        Some(offset) => {
            let number = value
                .as_i64()
                .ok_or_else(|| format!("${{{name}}} is not a number: {value}"))?;
            number
                .checked_add(offset)
                .map(Value::from)
                .ok_or_else(|| format!("${{{name}}}{offset:+} is out of range: {number}"))
        }
    }
}

fn heartbeat_request(
    template: Template,
    member: &str,
    member_state: &MemberState,
    fields: &serde_json::Map<String, Value>,
    context: &Context,
) -> Result<StreamsGroupHeartbeatRequest, String> {
    let mut request = json!({ "groupId": "${group}", "memberId": member });
    let base = match template {
        Template::Join => json!({
            "memberEpoch": 0,
            "rebalanceTimeoutMs": 30000,
            "topology": context.topology,
            "activeTasks": [],
            "standbyTasks": [],
            "warmupTasks": [],
            "processId": format!("p-{member}"),
            "clientTags": [],
        }),
        Template::Heartbeat => json!({
            "memberEpoch": member_state.epoch,
            "endpointInformationEpoch": member_state.endpoint_information_epoch,
        }),
        Template::Leave => json!({ "memberEpoch": -1 }),
        Template::StaticLeave => json!({ "memberEpoch": -2 }),
        Template::Raw => json!({}),
    };
    let object = request.as_object_mut().expect("an object");
    object.extend(base.as_object().expect("an object").clone());
    object.extend(fields.clone());
    let request = substitute(&request, &context.variables)?;
    serde_json::from_value(request).map_err(|error| format!("heartbeat request: {error}"))
}

async fn run_step<B: Backend>(
    target: &mut B,
    step: &Step,
    context: &mut Context,
) -> Result<(), StepFailure> {
    if let Some(configs) = &step.group_config {
        let group = context.group_id();
        let configs: Vec<(String, String)> = configs
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        // Recorded before the request, so that one cut short is still taken back at the end;
        // a refusal set nothing.
        let newly: Vec<String> = configs
            .iter()
            .map(|(name, _)| name.clone())
            .filter(|name| !context.configured.contains(name))
            .collect();
        context.configured.extend(newly.iter().cloned());
        let outcome = target.set_group_configs(&group, &configs).await;
        if matches!(outcome, Err(BackendError::Refused { .. })) {
            context.configured.retain(|name| !newly.contains(name));
        }
        let Some(pattern) = &step.expect else {
            return outcome.map_err(StepFailure::from);
        };
        let answer = match outcome {
            Ok(()) => json!({"errorCode": 0, "errorMessage": null}),
            Err(BackendError::Refused {
                error_code,
                message,
                ..
            }) => json!({"errorCode": error_code, "errorMessage": message}),
            Err(error) => return Err(error.into()),
        };
        return matcher::matches(pattern, &answer).map_err(|reason| StepFailure {
            verdict: Verdict::Fail,
            reason: format!("IncrementalAlterConfigs answered {answer}: {reason}"),
            exchange: None,
            loss: None,
        });
    }
    if let Some(consumers) = &step.consumer_group {
        let group = context.group_id();
        let topics =
            substitute(&json!(consumers.topics), &context.variables).map_err(template_error)?;
        let topics: Vec<String> = topics
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|topic| topic.as_str().map(str::to_owned))
            .collect();
        return target
            .create_consumer_group(&group, &topics)
            .await
            .map_err(StepFailure::from);
    }
    if let Some(deny) = &step.deny {
        let name = |name: &Option<String>| {
            let name = substitute(&json!(name), &context.variables).map_err(template_error)?;
            Ok::<_, StepFailure>(name.as_str().unwrap_or_default().to_owned())
        };
        let resource = match deny.resource {
            AclResource::Cluster => Resource::Cluster,
            AclResource::Group => Resource::Group(name(&deny.name)?),
            AclResource::Topic => Resource::Topic(name(&deny.name)?),
        };
        let operation = match deny.operation {
            AclOperation::Read => Operation::Read,
            AclOperation::Describe => Operation::Describe,
            AclOperation::Create => Operation::Create,
        };
        if !context.denied.contains(&resource) {
            context.denied.push(resource.clone());
        }
        return target
            .deny(operation, &resource)
            .await
            .map_err(StepFailure::from);
    }
    if let Some(milliseconds) = step.sleep_ms {
        target.sleep(Duration::from_millis(milliseconds)).await?;
        return Ok(());
    }
    let mut waited_ms = 0;
    loop {
        let (response, exchange) = send(target, step, context).await?;
        if let Some(exchanges) = &mut context.exchanges {
            exchanges.push(format!("step {}: {}", context.step, exchange.render()));
        }
        let expected = match &step.expect {
            None => Ok(()),
            Some(pattern) => {
                let pattern = substitute(pattern, &context.variables).map_err(template_error)?;
                matcher::matches(&pattern, &response)
            }
        };
        match (expected, step.until) {
            (Ok(()), _) => {
                for (name, pointer) in &step.capture {
                    let value = response.pointer(pointer).cloned().ok_or_else(|| {
                        template_error(format!("capture {name}: no value at {pointer}"))
                    })?;
                    context.variables.insert(name.clone(), value);
                }
                return Ok(());
            }
            // The bound counts the target's time (virtual in process), not the wall clock.
            (Err(_), Some(until)) if waited_ms < until.within_ms => {
                target.sleep(Duration::from_millis(until.every_ms)).await?;
                waited_ms += until.every_ms;
            }
            (Err(reason), until) => {
                return Err(StepFailure {
                    verdict: if until.is_some() {
                        Verdict::Timeout
                    } else {
                        Verdict::Fail
                    },
                    reason: match until {
                        Some(until) => format!("not within {} ms: {reason}", until.within_ms),
                        None => reason,
                    },
                    exchange: Some(exchange),
                    loss: None,
                })
            }
        }
    }
}

/// Sends the step's request; returns the response as JSON and the exchange.
async fn send<B: Backend>(
    target: &mut B,
    step: &Step,
    context: &mut Context,
) -> Result<(Value, Exchange), StepFailure> {
    if let Some(heartbeat) = &step.heartbeat {
        let member = substitute(&Value::String(heartbeat.member.clone()), &context.variables)
            .map_err(template_error)?;
        let member = member.as_str().unwrap_or_default().to_owned();
        let state = context.members.get(&member).cloned().unwrap_or_default();
        let request = heartbeat_request(
            heartbeat.template,
            &member,
            &state,
            &heartbeat.fields,
            context,
        )
        .map_err(template_error)?;
        let version = heartbeat.version.unwrap_or(target.heartbeat_version());
        let (response, exchange) = target.heartbeat(version, &request).await?;
        if response.error_code == 0 {
            let state = context.members.entry(member).or_default();
            state.epoch = response.member_epoch;
            state.endpoint_information_epoch = response.endpoint_information_epoch;
        }
        let json = serde_json::to_value(&response).expect("responses serialize");
        return Ok((json, exchange));
    }
    let describe = step
        .describe
        .as_ref()
        .expect("a validated step has an action");
    let groups = describe
        .groups
        .iter()
        .map(|group| {
            substitute(&Value::String(group.clone()), &context.variables)
                .map(|value| value.as_str().unwrap_or_default().to_owned())
        })
        .collect::<Result<Vec<String>, String>>()
        .map_err(template_error)?;
    let request = StreamsGroupDescribeRequest::default()
        .with_group_ids(groups)
        .with_include_authorized_operations(describe.include_authorized_operations)
        .with_include_topology_description(describe.include_topology_description);
    let version = describe.version.unwrap_or(target.describe_version());
    let (response, exchange) = target.describe(version, &request).await?;
    Ok((
        serde_json::to_value(&response).expect("responses serialize"),
        exchange,
    ))
}

/// A name Kafka accepts for a topic or group, [`NAME_PREFIX`] then `parts`: letters, digits,
/// `.`, `_`, `-`.
fn kafka_name(parts: &[&str]) -> String {
    let joined = parts.join("-");
    let legal: String = joined
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ch == '.' || ch == '_' || ch == '-' {
                ch
            } else {
                '_'
            }
        })
        .collect();
    format!("{NAME_PREFIX}{legal}")
}

/// Why a scenario has no verdict of its own when the run was interrupted.
pub const NOT_RUN: &str = "not run: the run was interrupted (Ctrl-C)";

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
    let group = kafka_name(&[&settings.run_id, &scenario.name]);
    let mut variables = BTreeMap::from([("group".to_owned(), Value::String(group.clone()))]);
    let mut created = Vec::new();
    let mut all_topics = Vec::new();
    for topic in &scenario.topics {
        let name = kafka_name(&[&settings.run_id, &scenario.name, &topic.name]);
        variables.insert(topic.name.clone(), Value::String(name.clone()));
        if topic.create {
            created.push((name.clone(), topic.partitions));
        }
        all_topics.push(name);
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
    };
    let mut opened = None;
    let mut at_step = None;

    if !settings.breaker.admit() {
        outcome.verdict = Verdict::Error;
        outcome.reason = Some("not run: the target stopped answering".to_owned());
        return outcome;
    }
    let work = async {
        let target = opened.insert(
            connector
                .open(&group, &scenario.requires.broker_configs)
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
        backend::create_topics_and_wait(target, &created, &probe, settings.io_timeout).await?;
        for (index, step) in scenario.steps.iter().enumerate() {
            at_step = Some(index + 1);
            context.step = index + 1;
            if let Err(error) = run_step(target, step, &mut context).await {
                return Err(FailureAt {
                    step: Some(index + 1),
                    failure: if step.precondition {
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
        let cleanup = clean_up(target, &context, &group, &all_topics);
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
            outcome.reason = Some(failure.reason);
            outcome.step = step;
            outcome.wire = failure.exchange.map(|exchange| exchange.render());
        }
    }
    outcome.exchanges = context.exchanges.take().unwrap_or_default();
    outcome.duration_ms = started.elapsed().as_millis() as u64;
    outcome
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
    if let Err(error) = target.delete_topics(topics).await {
        failures.push(error.to_string());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// Why `scenario` cannot run on `target` under `profile`, found without changing anything on the
/// target: a behaviour profile it does not state, API versions, group size, broker configs.
pub async fn unmet_requirement<B: Backend>(
    scenario: &Scenario,
    target: &mut B,
    profile: Profile,
) -> BackendResult<Option<String>> {
    let profiles = &scenario.requires.profiles;
    if !profiles.is_empty() && !profiles.contains(&profile) {
        let named: Vec<String> = profiles.iter().map(Profile::to_string).collect();
        return Ok(Some(format!(
            "states the behaviour of {}; this run expects {} (--expect)",
            named.join(" and "),
            profile
        )));
    }
    if let Some(needed) = scenario.requires.heartbeat_version {
        if target.heartbeat_version() < needed {
            return Ok(Some(format!(
                "needs StreamsGroupHeartbeat v{needed}; the target speaks v{}",
                target.heartbeat_version()
            )));
        }
    }
    for (index, step) in scenario.steps.iter().enumerate() {
        let pinned = match (&step.heartbeat, &step.describe) {
            (Some(heartbeat), _) => heartbeat
                .version
                .map(|v| (v, "StreamsGroupHeartbeat", target.heartbeat_version())),
            (_, Some(describe)) => describe
                .version
                .map(|v| (v, "StreamsGroupDescribe", target.describe_version())),
            _ => None,
        };
        if let Some((version, api, offered)) = pinned.filter(|(v, _, offered)| v > offered) {
            return Ok(Some(format!(
                "step {} sends {api} v{version}; the target speaks v{offered}",
                index + 1
            )));
        }
    }
    if let Some(most) = scenario.requires.max_heartbeat_version {
        if target.heartbeat_version() > most {
            return Ok(Some(format!(
                "describes brokers that speak StreamsGroupHeartbeat v{most} at most; the target speaks v{}",
                target.heartbeat_version()
            )));
        }
    }
    // A broker that caps group size cannot hold a scenario's members; a scenario about that
    // cap names the config among its requirements instead.
    const MAX_SIZE: &str = "group.streams.max.size";
    let members = scenario.joining_members();
    if members > 1 && !scenario.requires.broker_configs.contains_key(MAX_SIZE) {
        let found = target.broker_configs(&[MAX_SIZE.to_owned()]).await?;
        if let Some(max) = found[0].as_deref().and_then(|v| v.parse::<usize>().ok()) {
            if max < members {
                return Ok(Some(format!(
                    "joins {members} members; the target's {MAX_SIZE} is {max}"
                )));
            }
        }
    }
    if !scenario.requires.broker_configs.is_empty() {
        let (names, wanted): (Vec<String>, Vec<String>) =
            scenario.requires.broker_configs.clone().into_iter().unzip();
        let found = target.broker_configs(&names).await?;
        for ((name, wanted), found) in names.iter().zip(&wanted).zip(&found) {
            if found.as_deref() != Some(wanted.as_str()) {
                return Ok(Some(format!(
                    "needs broker config {name}={wanted}; the target has {}",
                    found
                        .as_deref()
                        .filter(|value| !value.is_empty())
                        .unwrap_or("none")
                )));
            }
        }
    }
    Ok(None)
}

/// What became of a scenario's group configs before its first step.
#[derive(Debug)]
pub enum InitialGroupConfigs {
    /// They were set (none where the target knows none of the baseline).
    Set,
    /// The scenario cannot run, for this reason.
    Unmet(String),
}

/// Sets the scenario's group configs before its first step (spec 9.2); the scenario cannot run
/// where the target refuses one the scenario asks for. A baseline config the target does not
/// list among its group configs is left alone: the target has no such delay. (Kafka 4.4.0 does
/// not list every config it takes, e.g. `streams.num.warmup.replicas`, so the list only decides
/// about the baseline.) The names of the configs it sets go to `configured` before the request,
/// so that they are taken back even when it is cut short.
pub async fn set_initial_group_configs<B: Backend>(
    target: &mut B,
    scenario: &Scenario,
    group: &str,
    configured: &mut Vec<String>,
) -> BackendResult<InitialGroupConfigs> {
    let known = match target.group_config_names(group).await {
        Ok(names) => names,
        // A target without group configs knows none of them.
        Err(BackendError::Refused { .. } | BackendError::Unsupported { .. }) => Vec::new(),
        Err(error) => return Err(error),
    };
    let mut configs = listed_baseline_group_configs(&known);
    configs.retain(|(name, _)| !scenario.group_configs.contains_key(name));
    configs.extend(scenario.group_configs.clone());
    if configs.is_empty() {
        return Ok(InitialGroupConfigs::Set);
    }
    configured.extend(configs.iter().map(|(name, _)| name.clone()));
    match target.set_group_configs(group, &configs).await {
        Ok(()) => Ok(InitialGroupConfigs::Set),
        Err(BackendError::Unsupported { operation }) => {
            configured.clear();
            Ok(InitialGroupConfigs::Unmet(format!(
                "the scenario sets group configs; the target cannot {operation}"
            )))
        }
        Err(BackendError::Refused {
            error_code,
            message,
            ..
        }) => {
            configured.clear();
            let wanted: Vec<String> = configs
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            Ok(InitialGroupConfigs::Unmet(format!(
                "the target refuses the group configs the scenario needs: {}{}; they are {}",
                ErrorCode(error_code),
                message.map(|text| format!(" ({text})")).unwrap_or_default(),
                wanted.join(", "),
            )))
        }
        Err(error) => Err(error),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_whole_and_spliced() {
        let variables = BTreeMap::from([
            ("e".to_owned(), json!(5)),
            ("in".to_owned(), json!("run-in")),
        ]);
        assert_eq!(substitute(&json!("${e}"), &variables), Ok(json!(5)));
        assert_eq!(substitute(&json!("${e+1}"), &variables), Ok(json!(6)));
        assert_eq!(substitute(&json!("${e-2}"), &variables), Ok(json!(3)));
        assert_eq!(
            substitute(
                &json!({"d": "Source topics ${in} are missing."}),
                &variables
            ),
            Ok(json!({"d": "Source topics run-in are missing."}))
        );
        assert_eq!(
            substitute(&json!("${x}"), &variables),
            Err("unknown variable ${x}".to_owned())
        );
        assert_eq!(
            substitute(&json!("${in+1}"), &variables),
            Err("${in} is not a number: \"run-in\"".to_owned())
        );
    }

    #[test]
    fn a_coordinator_whose_timer_does_not_advance_is_a_step_error() {
        let steps = crate::scenario::parse(
            "stalled.json",
            r#"{"name": "stalled", "title": "t", "rules": ["R30"], "grade": "MUST",
                "topics": [{"name": "in"}],
                "steps": [{"heartbeat": {"member": "a", "as": "join"}}, {"sleep_ms": 7000}]}"#,
        )
        .unwrap()
        .steps;
        let mut target = crate::embedded::EmbeddedTarget::default()
            .with_timeouts_fired_by(crate::embedded::tests::forget_timeouts);
        let mut context = Context {
            variables: BTreeMap::from([
                ("group".to_owned(), json!("g")),
                ("in".to_owned(), json!("in")),
            ]),
            members: BTreeMap::new(),
            topology: json!({"epoch": 0, "subtopologies": []}),
            denied: Vec::new(),
            configured: Vec::new(),
            step: 0,
            exchanges: None,
        };
        backend::block_on(async {
            assert!(run_step(&mut target, &steps[0], &mut context).await.is_ok());
            let Err(failure) = run_step(&mut target, &steps[1], &mut context).await else {
                panic!("the sleep should fail");
            };
            assert_eq!(failure.verdict, Verdict::Error);
            assert_eq!(
                failure.reason,
                "the coordinator's timer does not advance: after handle_timeout at 6000 ms its next deadline is still 6000 ms"
            );
        });
    }

    fn outcome(scenario: &str, verdict: Verdict) -> Outcome {
        Outcome {
            scenario: scenario.to_owned(),
            title: String::new(),
            rules: vec!["R46".to_owned()],
            grade: crate::scenario::Grade::Informational,
            source: String::new(),
            verdict,
            reason: None,
            step: Some(1),
            wire: Some("bytes".to_owned()),
            cleanup: None,
            exchanges: Vec::new(),
            duration_ms: 0,
        }
    }

    #[test]
    fn a_divergence_explains_its_failure_and_fails_when_it_no_longer_fires() {
        let divergence = Divergence {
            scenario: "s".to_owned(),
            rules: vec!["R46".to_owned()],
            target: Some("embedded".to_owned()),
            reason: "why".to_owned(),
            evidence: "how we know".to_owned(),
            source: "mine.json".to_owned(),
        };
        let mut outcomes = vec![outcome("s", Verdict::Fail), outcome("t", Verdict::Fail)];
        apply_divergences(&mut outcomes, "embedded", std::slice::from_ref(&divergence));
        assert_eq!(
            (outcomes[0].verdict, outcomes[1].verdict),
            (Verdict::Divergent, Verdict::Fail)
        );
        assert_eq!(outcomes[0].reason.as_deref(), Some("known divergence: why"));

        let mut outcomes = vec![outcome("s", Verdict::Fail)];
        let kafka = "h:1";
        apply_divergences(&mut outcomes, kafka, std::slice::from_ref(&divergence));
        assert_eq!(
            outcomes[0].verdict,
            Verdict::Fail,
            "recorded for another target"
        );

        let mut outcomes = vec![outcome("s", Verdict::Pass)];
        apply_divergences(&mut outcomes, "embedded", std::slice::from_ref(&divergence));
        assert_eq!(outcomes[0].verdict, Verdict::Fail);
        assert_eq!(
            outcomes[0].reason.as_deref(),
            Some("a divergence recorded in mine.json no longer fires: remove it")
        );

        // A divergence that names no target holds for every target.
        let anywhere = Divergence {
            target: None,
            ..divergence
        };
        let mut outcomes = vec![outcome("s", Verdict::Fail)];
        apply_divergences(&mut outcomes, kafka, &[anywhere]);
        assert_eq!(outcomes[0].verdict, Verdict::Divergent);
    }

    #[test]
    fn recorded_divergences_name_catalogue_scenarios_and_their_rules() {
        let catalogue = crate::scenario::catalogue();
        for divergence in divergences() {
            let scenario = catalogue
                .iter()
                .find(|s| s.name == divergence.scenario)
                .unwrap_or_else(|| panic!("{} is not in the catalogue", divergence.scenario));
            assert_eq!(scenario.rules, divergence.rules, "{}", divergence.scenario);
            assert!(divergence.target.is_some(), "{}", divergence.scenario);
        }
    }

    #[test]
    fn a_divergence_file_that_does_not_parse_is_named_with_its_position() {
        assert_eq!(
            parse_divergences("mine.json", "[{\"scenario\": 1}]").unwrap_err(),
            "mine.json:1:15: not a list of divergences: invalid type: integer `1`, expected a string"
        );
    }

    #[test]
    fn the_breaker_trips_after_scenarios_in_a_row_without_an_answer() {
        let silence = Some((
            Loss::Silence,
            "h:1 did not answer FindCoordinator within 500 ms",
        ));
        let target = "h:1";
        let breaker = Breaker::default();
        for _ in 1..LOST_SCENARIOS_LIMIT {
            assert!(breaker.admit());
            breaker.record(silence);
        }
        // An answer, even a failing one, starts the count again.
        breaker.record(None);
        for _ in 1..LOST_SCENARIOS_LIMIT {
            breaker.record(silence);
        }
        assert_eq!(breaker.tripped(target), None);
        assert!(breaker.admit());
        breaker.record(silence);
        assert!(!breaker.admit());
        assert!(!breaker.admit());
        assert_eq!(
            breaker.tripped(target).as_deref(),
            Some("h:1 stopped answering: 3 scenarios in a row got no answer (last: h:1 did not answer FindCoordinator within 500 ms); 2 scenarios not run")
        );
    }

    #[test]
    fn answers_that_cannot_be_read_trip_the_breaker_as_silence_does() {
        let silence = Some((
            Loss::Silence,
            "h:1 did not answer FindCoordinator within 500 ms",
        ));
        let unreadable = Some((
            Loss::Unreadable,
            "h:1: response to Metadata: malformed body",
        ));
        let target = "h:1";
        let breaker = Breaker::default();
        breaker.record(silence);
        breaker.record(silence);
        breaker.record(unreadable);
        assert_eq!(
            breaker.tripped(target).as_deref(),
            Some("h:1 answers what cannot be read: 3 scenarios in a row got no answer that could be read (last: h:1: response to Metadata: malformed body); 0 scenarios not run")
        );
        // An unreadable answer in an earlier row is forgotten with that row.
        let breaker = Breaker::default();
        breaker.record(unreadable);
        breaker.record(None);
        for _ in 0..LOST_SCENARIOS_LIMIT {
            breaker.record(silence);
        }
        assert!(breaker
            .tripped(target)
            .is_some_and(|line| line.starts_with("h:1 stopped answering: ")));
    }

    #[test]
    fn names_are_legal_kafka_names() {
        assert_eq!(
            kafka_name(&["r1", "R25 join/a"]),
            "streamspec-r1-R25_join_a"
        );
    }

    #[test]
    fn catalogue_names_start_with_the_prefix_and_fit_kafka() {
        // A run id as `check` makes it (milliseconds in hex), and room for the suffixes of the
        // internal topics a coordinator derives from the group id.
        const RUN_ID: &str = "19a2b3c4d5e";
        const INTERNAL_SUFFIX_ROOM: usize = 64;
        for scenario in crate::scenario::catalogue() {
            let group = kafka_name(&[RUN_ID, &scenario.name]);
            assert!(group.starts_with(NAME_PREFIX), "{group}");
            assert!(group.len() + INTERNAL_SUFFIX_ROOM <= 249, "{group}");
            for topic in &scenario.topics {
                let name = kafka_name(&[RUN_ID, &scenario.name, &topic.name]);
                assert!(name.starts_with(NAME_PREFIX), "{name}");
                assert!(name.len() <= 249, "{name}");
            }
        }
    }
}
