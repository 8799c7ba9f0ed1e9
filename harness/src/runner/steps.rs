//! Running one step of a scenario: its request from the templates and `${...}` references, its
//! answer matched and captured, and the state carried to the next step.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Value};
use streamspec_protocol::access::{Operation, Resource};
use streamspec_protocol::codes::ERROR_TOPIC_DELETION_DISABLED;
use streamspec_protocol::kafka::{StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest};

use super::tasks::{self, Holding};
use super::{Mismatch, Verdict};
use crate::backend::{self, Backend, BackendError, BackendExt};
use crate::matcher;
use crate::scenario::variables::{references, Reference};
use crate::scenario::{
    AclOperation, AclResource, Answer, DescribeStep, HeartbeatStep, Step, TaskUnion, TasksSource,
    TasksStep, Template, TopicChange,
};
use crate::transport::{Exchange, Loss};

/// Per-member state carried between steps.
#[derive(Debug, Default, Clone)]
pub(super) struct MemberState {
    epoch: i32,
    endpoint_information_epoch: i32,
    /// The process and tasks its answers gave it, for `tasks` steps.
    holding: Holding,
}

pub(super) struct Context {
    pub(super) variables: BTreeMap<String, Value>,
    pub(super) members: BTreeMap<String, MemberState>,
    pub(super) topology: Value,
    /// Resources the scenario set ACLs on, to clear when it ends.
    pub(super) denied: Vec<Resource>,
    /// Group configs the scenario set, to take back when it ends.
    pub(super) configured: Vec<String>,
    /// The step running, and every exchange so far when the run records them.
    pub(super) step: usize,
    pub(super) exchanges: Option<Vec<String>>,
    /// The partitions of the scenario's topics that exist now, by their names on the target.
    pub(super) partitions: BTreeMap<String, i32>,
    /// The latest describe step's answer, for `tasks` steps that read it.
    pub(super) last_describe: Option<Value>,
    /// Bound on waiting for the coordinator to see a `topic` step's change.
    pub(super) io_timeout: Duration,
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
pub(super) struct StepFailure {
    pub(super) verdict: Verdict,
    pub(super) reason: String,
    pub(super) exchange: Option<Exchange>,
    /// The pattern the answer was matched against, beside the answer.
    pub(super) mismatch: Option<Box<Mismatch>>,
    /// Whether the target gave no answer the harness can use (see [`BackendError::loss`]),
    /// for the [`super::Breaker`].
    pub(super) loss: Option<Loss>,
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
            mismatch: None,
            loss: error.loss(),
        }
    }
}

fn template_error(reason: String) -> StepFailure {
    StepFailure {
        verdict: Verdict::Error,
        reason,
        exchange: None,
        mismatch: None,
        loss: None,
    }
}

/// An operand a reference made unusable fails whatever the target answers: the scenario's
/// error, not the target's failure.
fn check_operands(pattern: &Value) -> Result<(), StepFailure> {
    matcher::check_operands(pattern).map_err(|reason| template_error(format!("expect: {reason}")))
}

/// A precondition step's answer that differed (or never came within its `until`) is no failure
/// of the scenario's rules; an error still is an error, since then the target could not be
/// judged at all.
pub(super) fn precondition_not_met(step: usize, failure: StepFailure) -> StepFailure {
    match failure.verdict {
        Verdict::Fail | Verdict::Timeout => StepFailure {
            verdict: Verdict::PreconditionNotMet,
            reason: format!("precondition not met at step {step}: {}", failure.reason),
            exchange: failure.exchange,
            mismatch: failure.mismatch,
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

/// Runs one step: the one place that says what each action does.
pub(super) async fn run_step<B: Backend>(
    target: &mut B,
    step: &Step,
    context: &mut Context,
) -> Result<(), StepFailure> {
    match step {
        Step::Heartbeat {
            request, answer, ..
        } => ask(target, request, answer, context).await,
        Step::Describe {
            request, answer, ..
        } => ask(target, request, answer, context).await,
        Step::GroupConfig {
            configs, expect, ..
        } => set_group_configs(target, configs, expect.as_ref(), context).await,
        Step::ConsumerGroup { consumers, .. } => {
            let group = context.group_id();
            let topics =
                substitute(&json!(consumers.topics), &context.variables).map_err(template_error)?;
            let topics: Vec<String> = topics
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|topic| topic.as_str().map(str::to_owned))
                .collect();
            Ok(target.create_consumer_group(&group, &topics).await?)
        }
        Step::Deny { deny, .. } => {
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
            Ok(target.deny(operation, &resource).await?)
        }
        Step::Topic { change, .. } => change_topic(target, change, context).await,
        Step::Tasks { check, .. } => judge_tasks(check, context),
        Step::Sleep { ms, .. } => Ok(target.sleep(Duration::from_millis(*ms)).await?),
    }
}

/// Creates, grows or deletes a topic of the scenario and waits until the coordinator sees it,
/// probing with a group of its own (fresh for each step: a group that knew a topic keeps its
/// view of it). A target that cannot grow topics skips the scenario, saying so.
async fn change_topic<B: Backend>(
    target: &mut B,
    change: &TopicChange,
    context: &mut Context,
) -> Result<(), StepFailure> {
    let name = context
        .variables
        .get(change.topic())
        .and_then(Value::as_str)
        .ok_or_else(|| template_error(format!("topic {} is not the scenario's", change.topic())))?
        .to_owned();
    let probe = format!("{}-probe-{}", context.group_id(), context.step);
    let deadline = context.io_timeout;
    match change {
        TopicChange::Create { partitions, .. } => {
            let topics = [(name.clone(), *partitions)];
            backend::create_topics_and_wait(target, &topics, &probe, deadline).await?;
            context.partitions.insert(name, *partitions);
        }
        TopicChange::Grow { partitions, .. } => {
            backend::grow_topic_and_wait(target, &name, *partitions, &probe, deadline).await?;
            context.partitions.insert(name, *partitions);
        }
        TopicChange::Delete { .. } => {
            let names = std::slice::from_ref(&name);
            match backend::delete_topics_and_wait(target, names, &probe, deadline).await {
                // A broker set not to delete topics (Kafka's delete.topic.enable=false) cannot
                // hold the scenario: a skip that says so, not an error of the target.
                Err(refusal @ BackendError::Refused { error_code, .. })
                    if error_code == ERROR_TOPIC_DELETION_DISABLED =>
                {
                    return Err(
                        BackendError::unsupported(format!("delete topics ({refusal})")).into(),
                    );
                }
                result => result?,
            }
            context.partitions.remove(&name);
        }
    }
    Ok(())
}

/// Judges a `tasks` step on the members' latest answers or the latest describe.
fn judge_tasks(check: &TasksStep, context: &Context) -> Result<(), StepFailure> {
    let holdings = match check.from {
        TasksSource::Answers => check
            .members
            .iter()
            .map(|member| {
                let held = context
                    .members
                    .get(member)
                    .map(|state| state.holding.clone());
                (member.clone(), held.unwrap_or_default())
            })
            .collect(),
        TasksSource::Describe => {
            let answer = context
                .last_describe
                .as_ref()
                .ok_or_else(|| template_error("tasks: no describe answer to read".to_owned()))?;
            tasks::holdings_in_describe(answer, &check.members).map_err(template_error)?
        }
    };
    let every = match check.union {
        Some(TaskUnion::All) => {
            let topology =
                substitute(&context.topology, &context.variables).map_err(template_error)?;
            Some(tasks::every_task(&topology, &context.partitions).map_err(template_error)?)
        }
        _ => None,
    };
    tasks::judge(check, &holdings, every.as_ref()).map_err(|reason| StepFailure {
        verdict: Verdict::Fail,
        reason: format!("tasks: {reason}"),
        exchange: None,
        mismatch: Some(Box::new(Mismatch {
            expected: serde_json::to_value(check).expect("steps serialize"),
            found: tasks::holdings_json(&holdings),
        })),
        loss: None,
    })
}

/// Sets group configs on the scenario's group; with `expect`, matches the answer against it
/// instead of failing on a refusal.
async fn set_group_configs<B: Backend>(
    target: &mut B,
    configs: &BTreeMap<String, String>,
    expect: Option<&Value>,
    context: &mut Context,
) -> Result<(), StepFailure> {
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
    let Some(pattern) = expect else {
        return outcome.map_err(StepFailure::from);
    };
    // References are filled in as in a request step's expect.
    let pattern = &substitute(pattern, &context.variables).map_err(template_error)?;
    check_operands(pattern)?;
    let answer = match outcome {
        Ok(()) => json!({"errorCode": 0, "errorMessage": null}),
        Err(BackendError::Refused {
            error_code,
            message,
            ..
        }) => json!({"errorCode": error_code, "errorMessage": message}),
        Err(error) => return Err(error.into()),
    };
    matcher::matches(pattern, &answer).map_err(|reason| StepFailure {
        verdict: Verdict::Fail,
        reason: format!("IncrementalAlterConfigs answered {answer}: {reason}"),
        exchange: None,
        mismatch: Some(Box::new(Mismatch {
            expected: pattern.clone(),
            found: answer.clone(),
        })),
        loss: None,
    })
}

/// A step that sends a request of the streams protocol and judges its answer.
trait Request {
    /// Sends the request; returns the response as JSON and the exchange.
    async fn send<B: Backend>(
        &self,
        target: &mut B,
        context: &mut Context,
    ) -> Result<(Value, Exchange), StepFailure>;
}

/// Sends `request` until its answer matches (once without an `until`), then captures from it.
async fn ask<B: Backend>(
    target: &mut B,
    request: &impl Request,
    answer: &Answer,
    context: &mut Context,
) -> Result<(), StepFailure> {
    let mut waited_ms = 0;
    loop {
        let (response, exchange) = request.send(target, context).await?;
        if let Some(exchanges) = &mut context.exchanges {
            exchanges.push(format!("step {}: {}", context.step, exchange.render()));
        }
        let pattern = match &answer.expect {
            None => None,
            Some(pattern) => Some(substitute(pattern, &context.variables).map_err(template_error)?),
        };
        if let Some(pattern) = &pattern {
            check_operands(pattern)?;
        }
        let expected = pattern
            .as_ref()
            .map_or(Ok(()), |pattern| matcher::matches(pattern, &response));
        match (expected, answer.until) {
            (Ok(()), _) => {
                for (name, pointer) in &answer.capture {
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
                    mismatch: pattern.map(|expected| {
                        Box::new(Mismatch {
                            expected,
                            found: response,
                        })
                    }),
                    loss: None,
                })
            }
        }
    }
}

impl Request for HeartbeatStep {
    async fn send<B: Backend>(
        &self,
        target: &mut B,
        context: &mut Context,
    ) -> Result<(Value, Exchange), StepFailure> {
        let member = substitute(&Value::String(self.member.clone()), &context.variables)
            .map_err(template_error)?;
        let member = member.as_str().unwrap_or_default().to_owned();
        let state = context.members.get(&member).cloned().unwrap_or_default();
        let request = heartbeat_request(self.template, &member, &state, &self.fields, context)
            .map_err(template_error)?;
        let version = self.version.unwrap_or(target.heartbeat_version());
        let (response, exchange) = target.heartbeat(version, &request).await?;
        if response.error_code == 0 {
            let state = context.members.entry(member).or_default();
            state.epoch = response.member_epoch;
            state.endpoint_information_epoch = response.endpoint_information_epoch;
            if let Some(process) = &request.process_id {
                state.holding.process = Some(process.clone());
            }
            if request.member_epoch < 0 {
                // A member that left holds nothing.
                state.holding.tasks.clear();
            } else {
                state.holding.answered(
                    response.active_tasks.as_deref(),
                    response.standby_tasks.as_deref(),
                    response.warmup_tasks.as_deref(),
                );
            }
        }
        let json = serde_json::to_value(&response).expect("responses serialize");
        Ok((json, exchange))
    }
}

impl Request for DescribeStep {
    async fn send<B: Backend>(
        &self,
        target: &mut B,
        context: &mut Context,
    ) -> Result<(Value, Exchange), StepFailure> {
        let groups = self
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
            .with_include_authorized_operations(self.include_authorized_operations)
            .with_include_topology_description(self.include_topology_description);
        let version = self.version.unwrap_or(target.describe_version());
        let (response, exchange) = target.describe(version, &request).await?;
        let json = serde_json::to_value(&response).expect("responses serialize");
        context.last_describe = Some(json.clone());
        Ok((json, exchange))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;

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

    /// The reference, except that a topic made, grown or deleted never reaches its coordinator,
    /// and that it cannot grow topics at all.
    struct Frozen(crate::embedded::EmbeddedTarget);

    impl Backend for Frozen {
        async fn call(
            &mut self,
            api: backend::StreamsApi,
            version: i16,
            request: &[u8],
        ) -> backend::BackendResult<Vec<u8>> {
            self.0.call(api, version, request).await
        }
        async fn create_topics(&mut self, _: &[(String, i32)]) -> backend::BackendResult<()> {
            Ok(())
        }
        async fn delete_topics(&mut self, _: &[String]) -> backend::BackendResult<()> {
            Ok(())
        }
        async fn sleep(&mut self, duration: Duration) -> backend::BackendResult<()> {
            self.0.sleep(duration).await
        }
        fn now_ms(&self) -> u64 {
            self.0.now_ms()
        }
    }

    fn context_with_topics() -> Context {
        Context {
            variables: BTreeMap::from([
                ("group".to_owned(), json!("g")),
                ("in".to_owned(), json!("t-in")),
                ("late".to_owned(), json!("t-late")),
            ]),
            members: BTreeMap::new(),
            topology: json!({"epoch": 0, "subtopologies": []}),
            denied: Vec::new(),
            configured: Vec::new(),
            step: 2,
            exchanges: None,
            partitions: BTreeMap::from([("t-in".to_owned(), 2)]),
            last_describe: None,
            io_timeout: Duration::from_secs(1),
        }
    }

    fn topic_step(json: &str) -> Step {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_target_that_cannot_grow_topics_skips_the_scenario_saying_so() {
        let mut target = Frozen(crate::embedded::EmbeddedTarget::default());
        let mut context = context_with_topics();
        let grow = topic_step(r#"{"topic": {"grow": "in", "partitions": 3}}"#);
        let Err(failure) = backend::block_on(run_step(&mut target, &grow, &mut context)) else {
            panic!("growing should fail");
        };
        assert_eq!(failure.verdict, Verdict::Skip);
        assert_eq!(failure.reason, "the target cannot grow topics");
        assert_eq!(context.partitions["t-in"], 2);
    }

    /// The reference behind a broker set not to delete topics (delete.topic.enable=false).
    struct KeepsTopics(crate::embedded::EmbeddedTarget);

    impl Backend for KeepsTopics {
        async fn call(
            &mut self,
            api: backend::StreamsApi,
            version: i16,
            request: &[u8],
        ) -> backend::BackendResult<Vec<u8>> {
            self.0.call(api, version, request).await
        }
        async fn create_topics(&mut self, topics: &[(String, i32)]) -> backend::BackendResult<()> {
            self.0.create_topics(topics).await
        }
        async fn delete_topics(&mut self, _: &[String]) -> backend::BackendResult<()> {
            Err(BackendError::Refused {
                what: "deleting topics".to_owned(),
                error_code: ERROR_TOPIC_DELETION_DISABLED,
                message: None,
            })
        }
        async fn sleep(&mut self, duration: Duration) -> backend::BackendResult<()> {
            self.0.sleep(duration).await
        }
        fn now_ms(&self) -> u64 {
            self.0.now_ms()
        }
    }

    #[test]
    fn a_target_that_does_not_delete_topics_skips_the_scenario_saying_so() {
        let mut target = KeepsTopics(crate::embedded::EmbeddedTarget::default());
        let mut context = context_with_topics();
        let delete = topic_step(r#"{"topic": {"delete": "in"}}"#);
        let Err(failure) = backend::block_on(run_step(&mut target, &delete, &mut context)) else {
            panic!("deleting should fail");
        };
        assert_eq!(failure.verdict, Verdict::Skip);
        assert_eq!(
            failure.reason,
            "the target cannot delete topics (deleting topics failed with error 73 TOPIC_DELETION_DISABLED)"
        );
        assert_eq!(context.partitions["t-in"], 2);
    }

    #[test]
    fn a_topic_the_coordinator_never_sees_ends_the_wait_at_its_bound() {
        let mut target = Frozen(crate::embedded::EmbeddedTarget::default());
        let mut context = context_with_topics();
        let create = topic_step(r#"{"topic": {"create": "late", "partitions": 2}}"#);
        let Err(failure) = backend::block_on(run_step(&mut target, &create, &mut context)) else {
            panic!("the wait should end");
        };
        assert_eq!(failure.verdict, Verdict::Error);
        assert!(
            failure
                .reason
                .contains("a join reading the topics [\"t-late\"] as one that sees them created")
                && failure.reason.contains("1000 ms"),
            "{}",
            failure.reason
        );
        // The wait ran on the target's clock, just past its bound.
        assert_eq!(target.now_ms(), 1050);
        assert!(!context.partitions.contains_key("t-late"));
    }

    #[test]
    fn topic_steps_change_the_topics_the_coordinator_sees() {
        let mut target = crate::embedded::EmbeddedTarget::default();
        let mut context = context_with_topics();
        backend::block_on(async {
            for (step, partitions) in [
                (r#"{"topic": {"create": "late", "partitions": 2}}"#, Some(2)),
                (r#"{"topic": {"grow": "late", "partitions": 5}}"#, Some(5)),
                (r#"{"topic": {"delete": "late"}}"#, None),
            ] {
                assert!(run_step(&mut target, &topic_step(step), &mut context)
                    .await
                    .is_ok());
                assert_eq!(
                    context.partitions.get("t-late").copied(),
                    partitions,
                    "{step}"
                );
            }
        });
        // The coordinator saw each change at once: no probe had to wait.
        assert_eq!(target.now_ms(), 0);
    }

    #[test]
    fn a_coordinator_whose_timer_does_not_advance_is_a_step_error() {
        let steps = crate::scenario::parse(
            "stalled.json",
            r#"{"name": "stalled", "title": "t", "rules": ["R30"], "grade": "MUST",
                "topics": [{"name": "in"}],
                "steps": [{"heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 0}},
                    {"sleep_ms": 7000}]}"#,
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
            partitions: BTreeMap::new(),
            last_describe: None,
            io_timeout: Duration::from_secs(1),
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

    #[test]
    fn a_group_config_steps_expect_has_its_references_filled_in() {
        let mut target = crate::embedded::EmbeddedTarget::default();
        let mut context = context_with_topics();
        context.variables.insert("refused".to_owned(), json!(40));
        let step = topic_step(
            r#"{"group_config": {"streams.session.timeout.ms": "999"},
                "expect": {"errorCode": "${refused}"}}"#,
        );
        // 40 INVALID_CONFIG, as the reference answers.
        if let Err(failure) = backend::block_on(run_step(&mut target, &step, &mut context)) {
            panic!("{}", failure.reason);
        }
        context.variables.insert("refused".to_owned(), json!(41));
        let Err(failure) = backend::block_on(run_step(&mut target, &step, &mut context)) else {
            panic!("41 is not the answer");
        };
        assert_eq!(failure.verdict, Verdict::Fail);
        assert!(
            failure
                .reason
                .starts_with("IncrementalAlterConfigs answered {\"errorCode\":40,"),
            "{}",
            failure.reason
        );
    }

    #[test]
    fn an_operand_a_reference_makes_unusable_is_the_scenarios_error_not_the_targets() {
        let mut target = crate::embedded::EmbeddedTarget::default();
        let mut context = context_with_topics();
        let step = topic_step(
            r#"{"heartbeat": {"member": "a", "as": "join"},
                "expect": {"memberEpoch": {"$gt": "${group}"}}}"#,
        );
        let Err(failure) = backend::block_on(run_step(&mut target, &step, &mut context)) else {
            panic!("the expect cannot hold");
        };
        assert_eq!(failure.verdict, Verdict::Error);
        assert_eq!(
            failure.reason,
            "expect: $gt needs a number (e.g. {\"$gt\": 0}, or a ${name} that holds one), and \"g\" \
             is a text"
        );
    }
}
