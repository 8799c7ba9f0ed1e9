//! A scenario's steps: one variant per action, each with the fields that apply to it.
//!
//! In a file a step is an object with one action key (`heartbeat`, `describe`, `group_config`,
//! `consumer_group`, `deny`, `topic`, `tasks`, `sleep_ms`) beside the keys that apply to it (`expect`, `capture`,
//! `until`, `precondition`, `note`; see [`super`]). It is read in two stages: serde reads that
//! object as it stands ([`RawStep`]), then [`Step::try_from`] refuses what no action takes and
//! gives the step its variant (a refusal is placed at the end of the step in the file), so that running it is one `match`. A new action is a variant
//! here, a key of [`RawStep`] and an arm in the runner.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// One step of a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "RawStep")]
pub enum Step {
    /// Sends a StreamsGroupHeartbeat (`"heartbeat"`).
    Heartbeat {
        request: HeartbeatStep,
        answer: Answer,
        note: Option<String>,
    },
    /// Sends a StreamsGroupDescribe (`"describe"`).
    Describe {
        request: DescribeStep,
        answer: Answer,
        note: Option<String>,
    },
    /// Sets group-level configs on the scenario's group, e.g. `streams.num.standby.replicas`
    /// (`"group_config"`). Without `expect` a refusal fails the step; with one, the answer's
    /// `{"errorCode": .., "errorMessage": ..}` is matched against it.
    GroupConfig {
        configs: BTreeMap<String, String>,
        expect: Option<Value>,
        precondition: bool,
        note: Option<String>,
    },
    /// Makes the scenario's group id a consumer group: a consumer joins it (`"consumer_group"`).
    ConsumerGroup {
        consumers: ConsumerGroupStep,
        note: Option<String>,
    },
    /// Denies an operation to every client from here on, as an ACL does on a broker with an
    /// authorizer (`"deny"`).
    Deny {
        deny: DenyStep,
        note: Option<String>,
    },
    /// Creates, grows or deletes one of the scenario's topics, then waits until the coordinator
    /// sees the change (`"topic"`).
    Topic {
        change: TopicChange,
        note: Option<String>,
    },
    /// Judges the tasks several members hold, together (`"tasks"`): sends nothing.
    Tasks {
        check: TasksStep,
        note: Option<String>,
    },
    /// Lets time pass on the target (`"sleep_ms"`), for session and rebalance timeouts.
    Sleep { ms: u64, note: Option<String> },
}

/// What a step that sends a request requires of the answer, and keeps of it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// Matched against the response's JSON (see [`crate::matcher`]).
    pub expect: Option<Value>,
    /// Values of the response by JSON pointer, kept for later `${name}` references.
    pub capture: BTreeMap<String, String>,
    /// Repeats the step until `expect` matches, within the bound.
    pub until: Option<Until>,
    /// Set-up for the rule under test: an unmet `expect` ends the scenario as
    /// `precondition_not_met`, not as a failure of its rules.
    pub precondition: bool,
}

impl Step {
    /// What the answer must be and what is kept of it, for a step that sends a request.
    pub fn answer(&self) -> Option<&Answer> {
        match self {
            Step::Heartbeat { answer, .. } | Step::Describe { answer, .. } => Some(answer),
            _ => None,
        }
    }

    /// The pattern the step's answer must match, if it states one.
    pub fn expect(&self) -> Option<&Value> {
        match self {
            Step::Heartbeat { answer, .. } | Step::Describe { answer, .. } => {
                answer.expect.as_ref()
            }
            Step::GroupConfig { expect, .. } => expect.as_ref(),
            Step::ConsumerGroup { .. }
            | Step::Deny { .. }
            | Step::Topic { .. }
            | Step::Tasks { .. }
            | Step::Sleep { .. } => None,
        }
    }

    /// Whether the step is set-up for the rule under test rather than the rule itself.
    pub fn precondition(&self) -> bool {
        match self {
            Step::Heartbeat { answer, .. } | Step::Describe { answer, .. } => answer.precondition,
            Step::GroupConfig { precondition, .. } => *precondition,
            Step::ConsumerGroup { .. }
            | Step::Deny { .. }
            | Step::Topic { .. }
            | Step::Tasks { .. }
            | Step::Sleep { .. } => false,
        }
    }

    /// The names the step captures for later steps.
    pub fn captured_names(&self) -> impl Iterator<Item = &String> {
        self.answer()
            .into_iter()
            .flat_map(|answer| answer.capture.keys())
    }

    /// What the step is for, in reports.
    pub fn note(&self) -> Option<&str> {
        match self {
            Step::Heartbeat { note, .. }
            | Step::Describe { note, .. }
            | Step::GroupConfig { note, .. }
            | Step::ConsumerGroup { note, .. }
            | Step::Deny { note, .. }
            | Step::Topic { note, .. }
            | Step::Tasks { note, .. }
            | Step::Sleep { note, .. } => note.as_deref(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    Join,
    #[default]
    Heartbeat,
    Leave,
    StaticLeave,
    Raw,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HeartbeatStep {
    pub member: String,
    #[serde(default, rename = "as")]
    pub template: Template,
    #[serde(default)]
    pub fields: serde_json::Map<String, Value>,
    /// Defaults to the negotiated version.
    #[serde(default)]
    pub version: Option<i16>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DescribeStep {
    #[serde(default = "own_group")]
    pub groups: Vec<String>,
    #[serde(default)]
    pub include_authorized_operations: bool,
    #[serde(default)]
    pub include_topology_description: bool,
    #[serde(default)]
    pub version: Option<i16>,
}

fn own_group() -> Vec<String> {
    vec!["${group}".to_owned()]
}

/// A consumer (KIP-848 ConsumerGroupHeartbeat) joining the scenario's group id, subscribed to
/// `topics`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerGroupStep {
    #[serde(default)]
    pub topics: Vec<String>,
}

/// An operation denied on a resource: `{"operation": "READ", "resource": "GROUP", "name":
/// "${group}"}`; the cluster takes no name.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DenyStep {
    pub operation: AclOperation,
    pub resource: AclResource,
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AclOperation {
    Read,
    Describe,
    Create,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AclResource {
    Cluster,
    Group,
    Topic,
}

/// A `topic` step as its file states it: one of `create`, `grow` or `delete` names a topic of
/// the scenario's `topics`; `create` and `grow` take the (new) number of `partitions`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TopicStep {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grow: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitions: Option<i32>,
}

/// What a `topic` step does to a topic, by its name in the scenario's `topics`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopicChange {
    Create { topic: String, partitions: i32 },
    Grow { topic: String, partitions: i32 },
    Delete { topic: String },
}

impl TopicChange {
    /// The scenario's name of the topic changed.
    pub fn topic(&self) -> &str {
        match self {
            TopicChange::Create { topic, .. }
            | TopicChange::Grow { topic, .. }
            | TopicChange::Delete { topic } => topic,
        }
    }
}

impl TryFrom<TopicStep> for TopicChange {
    type Error = String;

    fn try_from(step: TopicStep) -> Result<TopicChange, String> {
        match step {
            TopicStep {
                create: Some(topic),
                grow: None,
                delete: None,
                partitions: Some(partitions),
            } => Ok(TopicChange::Create { topic, partitions }),
            TopicStep {
                create: None,
                grow: Some(topic),
                delete: None,
                partitions: Some(partitions),
            } => Ok(TopicChange::Grow { topic, partitions }),
            TopicStep {
                create: None,
                grow: None,
                delete: Some(topic),
                partitions: None,
            } => Ok(TopicChange::Delete { topic }),
            TopicStep {
                create: None,
                grow: None,
                delete: Some(_),
                partitions: Some(_),
            } => Err("topic: delete takes no partitions".to_owned()),
            TopicStep {
                create,
                grow,
                delete: None,
                partitions: None,
            } if create.is_some() != grow.is_some() => {
                Err("topic: create and grow need partitions".to_owned())
            }
            _ => Err(
                "topic needs exactly one of create, grow, delete (the name of one of the \
                 scenario's topics)"
                    .to_owned(),
            ),
        }
    }
}

impl From<TopicChange> for TopicStep {
    fn from(change: TopicChange) -> TopicStep {
        match change {
            TopicChange::Create { topic, partitions } => TopicStep {
                create: Some(topic),
                partitions: Some(partitions),
                ..TopicStep::default()
            },
            TopicChange::Grow { topic, partitions } => TopicStep {
                grow: Some(topic),
                partitions: Some(partitions),
                ..TopicStep::default()
            },
            TopicChange::Delete { topic } => TopicStep {
                delete: Some(topic),
                ..TopicStep::default()
            },
        }
    }
}

/// A `tasks` step: what the tasks of `members` (the names their heartbeat steps use) must be,
/// together. At least one of `union`, `disjoint`, `disjoint_per_process` and `count`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TasksStep {
    pub members: Vec<String>,
    /// The tasks `union`, `disjoint` and `count` judge.
    #[serde(default)]
    pub kind: TaskKind,
    /// Whose view of the assignment is judged.
    #[serde(default)]
    pub from: TasksSource,
    /// The members' tasks of `kind`, all together, are exactly these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub union: Option<TaskUnion>,
    /// No task of `kind` is held by two of the members.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disjoint: bool,
    /// No task is held in two kinds (active, standby, warm-up) by the members of one process.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disjoint_per_process: bool,
    /// The members hold this many tasks of `kind`, counted once each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    #[default]
    Active,
    Standby,
    Warmup,
}

impl TaskKind {
    pub const ALL: [TaskKind; 3] = [TaskKind::Active, TaskKind::Standby, TaskKind::Warmup];
}

impl fmt::Display for TaskKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TaskKind::Active => "active",
            TaskKind::Standby => "standby",
            TaskKind::Warmup => "warm-up",
        })
    }
}

/// Where a `tasks` step reads the members' tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TasksSource {
    /// Each member's latest heartbeat answers (a list left null keeps the one before).
    #[default]
    Answers,
    /// The `assignment` of each member in the latest `describe` step's answer.
    Describe,
}

/// What a `tasks` step's `union` must be: `"all"`, every task of the topology over the topics
/// as the scenario last made them, or a list of `{"subtopologyId", "partitions"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskUnion {
    All,
    Tasks(Vec<TaskList>),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TaskList {
    pub subtopology_id: String,
    pub partitions: Vec<i32>,
}

impl<'de> Deserialize<'de> for TaskUnion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TaskUnion, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(all) if all == "all" => Ok(TaskUnion::All),
            list @ Value::Array(_) => serde_json::from_value(list)
                .map(TaskUnion::Tasks)
                .map_err(|error| D::Error::custom(format!("union: {error}"))),
            other => Err(D::Error::custom(format!(
                "union is \"all\" or a list of {{\"subtopologyId\", \"partitions\"}}, found {other}"
            ))),
        }
    }
}

impl Serialize for TaskUnion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TaskUnion::All => serializer.serialize_str("all"),
            TaskUnion::Tasks(lists) => lists.serialize(serializer),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Until {
    pub within_ms: u64,
    #[serde(default = "poll_interval")]
    pub every_ms: u64,
}

fn poll_interval() -> u64 {
    250
}

/// A step as its file states it: every key optional, nothing yet checked of how they combine.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    #[serde(default)]
    pub heartbeat: Option<HeartbeatStep>,
    #[serde(default)]
    pub describe: Option<DescribeStep>,
    #[serde(default)]
    pub sleep_ms: Option<u64>,
    #[serde(default)]
    pub group_config: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub deny: Option<DenyStep>,
    #[serde(default)]
    pub consumer_group: Option<ConsumerGroupStep>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<TopicStep>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<TasksStep>,
    #[serde(default)]
    pub expect: Option<Value>,
    #[serde(default)]
    pub capture: BTreeMap<String, String>,
    #[serde(default)]
    pub until: Option<Until>,
    #[serde(default)]
    pub precondition: bool,
    #[serde(default)]
    pub note: Option<String>,
}

const ONE_ACTION: &str = "needs exactly one of heartbeat, describe, sleep_ms, group_config, \
                          deny, consumer_group, topic, tasks";

impl TryFrom<RawStep> for Step {
    type Error = String;

    /// Refuses keys the step's action does not take, and an `expect` with an unknown operator.
    fn try_from(raw: RawStep) -> Result<Step, String> {
        let RawStep {
            heartbeat,
            describe,
            sleep_ms,
            group_config,
            deny,
            consumer_group,
            topic,
            tasks,
            expect,
            capture,
            until,
            precondition,
            note,
        } = raw;
        let actions = [
            heartbeat.is_some(),
            describe.is_some(),
            sleep_ms.is_some(),
            group_config.is_some(),
            deny.is_some(),
            consumer_group.is_some(),
            topic.is_some(),
            tasks.is_some(),
        ];
        if actions.iter().filter(|present| **present).count() > 1 {
            return Err(ONE_ACTION.to_owned());
        }
        let plain = sleep_ms.is_some()
            || deny.is_some()
            || consumer_group.is_some()
            || topic.is_some()
            || tasks.is_some();
        if plain && (expect.is_some() || !capture.is_empty() || until.is_some()) {
            return Err(
                "sleep_ms, deny, consumer_group, topic and tasks take no expect, capture or until"
                    .to_owned(),
            );
        }
        let topic = topic.map(TopicChange::try_from).transpose()?;
        if let Some(tasks) = &tasks {
            tasks.check_shape()?;
        }
        if let Some(deny) = &deny {
            if (deny.resource == AclResource::Cluster) != deny.name.is_none() {
                return Err(
                    "deny needs a name for a GROUP or TOPIC, and none for the CLUSTER".to_owned(),
                );
            }
        }
        if group_config.is_some() && (until.is_some() || !capture.is_empty()) {
            return Err("group_config takes no until or capture".to_owned());
        }
        if until.is_some() && expect.is_none() {
            return Err("until needs an expect".to_owned());
        }
        if let Some(expect) = &expect {
            crate::matcher::check_pattern(expect)
                .map_err(|message| format!("expect: {message}"))?;
        }
        if plain && precondition {
            return Err("a precondition needs an expect: what the set-up must answer".to_owned());
        }
        let answer = Answer {
            expect,
            capture,
            until,
            precondition,
        };
        if let Some(change) = topic {
            return Ok(Step::Topic { change, note });
        }
        if let Some(check) = tasks {
            return Ok(Step::Tasks { check, note });
        }
        Ok(
            match (
                heartbeat,
                describe,
                group_config,
                consumer_group,
                deny,
                sleep_ms,
            ) {
                (Some(request), ..) => Step::Heartbeat {
                    request,
                    answer,
                    note,
                },
                (_, Some(request), ..) => Step::Describe {
                    request,
                    answer,
                    note,
                },
                (_, _, Some(configs), ..) => Step::GroupConfig {
                    configs,
                    expect: answer.expect,
                    precondition: answer.precondition,
                    note,
                },
                (_, _, _, Some(consumers), ..) => Step::ConsumerGroup { consumers, note },
                (_, _, _, _, Some(deny), _) => Step::Deny { deny, note },
                (_, _, _, _, _, Some(ms)) => Step::Sleep { ms, note },
                (None, None, None, None, None, None) => return Err(ONE_ACTION.to_owned()),
            },
        )
    }
}

impl From<Step> for RawStep {
    fn from(step: Step) -> RawStep {
        match step {
            Step::Heartbeat {
                request,
                answer,
                note,
            } => RawStep {
                heartbeat: Some(request),
                note,
                ..RawStep::with(answer)
            },
            Step::Describe {
                request,
                answer,
                note,
            } => RawStep {
                describe: Some(request),
                note,
                ..RawStep::with(answer)
            },
            Step::GroupConfig {
                configs,
                expect,
                precondition,
                note,
            } => RawStep {
                group_config: Some(configs),
                expect,
                precondition,
                note,
                ..RawStep::default()
            },
            Step::ConsumerGroup { consumers, note } => RawStep {
                consumer_group: Some(consumers),
                note,
                ..RawStep::default()
            },
            Step::Deny { deny, note } => RawStep {
                deny: Some(deny),
                note,
                ..RawStep::default()
            },
            Step::Topic { change, note } => RawStep {
                topic: Some(change.into()),
                note,
                ..RawStep::default()
            },
            Step::Tasks { check, note } => RawStep {
                tasks: Some(check),
                note,
                ..RawStep::default()
            },
            Step::Sleep { ms, note } => RawStep {
                sleep_ms: Some(ms),
                note,
                ..RawStep::default()
            },
        }
    }
}

impl TasksStep {
    /// Refuses a `tasks` step that judges nothing, or names no member or one twice.
    fn check_shape(&self) -> Result<(), String> {
        if self.members.is_empty() {
            return Err("tasks: members names no member".to_owned());
        }
        let mut seen = std::collections::BTreeSet::new();
        if let Some(twice) = self.members.iter().find(|member| !seen.insert(*member)) {
            return Err(format!("tasks: member {twice:?} is named twice"));
        }
        if self.union.is_none()
            && !self.disjoint
            && !self.disjoint_per_process
            && self.count.is_none()
        {
            return Err(
                "tasks needs at least one of union, disjoint, disjoint_per_process, count"
                    .to_owned(),
            );
        }
        Ok(())
    }
}

impl RawStep {
    /// A step with `answer`'s keys and no action yet.
    fn with(answer: Answer) -> RawStep {
        RawStep {
            expect: answer.expect,
            capture: answer.capture,
            until: answer.until,
            precondition: answer.precondition,
            ..RawStep::default()
        }
    }
}

impl<'de> Deserialize<'de> for Step {
    /// Reads the step as its file states it, then refuses it where the keys do not fit together;
    /// serde_json places that refusal where the step ends in the file.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Step, D::Error> {
        struct StepVisitor;

        impl<'de> Visitor<'de> for StepVisitor {
            type Value = Step;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("struct Step")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Step, A::Error> {
                let raw = RawStep::deserialize(MapAccessDeserializer::new(map))?;
                Step::try_from(raw).map_err(A::Error::custom)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Step, A::Error> {
                let raw = RawStep::deserialize(SeqAccessDeserializer::new(seq))?;
                Step::try_from(raw).map_err(A::Error::custom)
            }
        }

        deserializer.deserialize_struct("Step", &[], StepVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(json: &str) -> Result<Step, String> {
        serde_json::from_str::<Step>(json).map_err(|error| error.to_string())
    }

    #[test]
    fn each_action_is_its_variant_with_the_keys_that_apply_to_it() {
        let join = step(
            r#"{"heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 0},
                "capture": {"e": "/memberEpoch"}, "precondition": true, "note": "n"}"#,
        )
        .unwrap();
        let Step::Heartbeat {
            request,
            answer,
            note,
        } = &join
        else {
            panic!("a heartbeat: {join:?}");
        };
        assert_eq!(request.template, Template::Join);
        assert!(answer.precondition && answer.until.is_none());
        assert_eq!(note.as_deref(), Some("n"));
        assert_eq!(join.captured_names().collect::<Vec<_>>(), ["e"]);
        assert_eq!(
            step(r#"{"topic": {"grow": "in", "partitions": 3}}"#).unwrap(),
            Step::Topic {
                change: TopicChange::Grow {
                    topic: "in".to_owned(),
                    partitions: 3
                },
                note: None
            }
        );
        let Step::Tasks { check, .. } =
            step(r#"{"tasks": {"members": ["a"], "union": "all"}}"#).unwrap()
        else {
            panic!("a tasks step");
        };
        assert_eq!(
            (check.kind, check.from, check.union, check.disjoint),
            (
                TaskKind::Active,
                TasksSource::Answers,
                Some(TaskUnion::All),
                false
            )
        );
        assert_eq!(
            step(r#"{"sleep_ms": 5}"#).unwrap(),
            Step::Sleep { ms: 5, note: None }
        );
        assert!(matches!(
            step(r#"{"group_config": {"a": "1"}, "expect": {"errorCode": 40}}"#).unwrap(),
            Step::GroupConfig {
                expect: Some(_),
                precondition: false,
                ..
            }
        ));
    }

    #[test]
    fn a_step_writes_back_as_it_was_read() {
        for text in [
            r#"{"heartbeat": {"member": "a", "as": "leave"}, "until": {"within_ms": 100}, "expect": {}}"#,
            r#"{"describe": {"version": 0}, "capture": {"x": "/groups/0"}}"#,
            r#"{"group_config": {"streams.num.standby.replicas": "1"}, "note": "n"}"#,
            r#"{"consumer_group": {"topics": ["${in}"]}}"#,
            r#"{"deny": {"operation": "READ", "resource": "GROUP", "name": "${group}"}}"#,
            r#"{"sleep_ms": 7000}"#,
            r#"{"topic": {"create": "late", "partitions": 2}}"#,
            r#"{"topic": {"grow": "in", "partitions": 3}, "note": "n"}"#,
            r#"{"topic": {"delete": "in"}}"#,
            r#"{"tasks": {"members": ["a", "b"], "union": "all", "disjoint": true}}"#,
            r#"{"tasks": {"members": ["a"], "kind": "standby", "from": "describe", "count": 0,
                "disjoint_per_process": true,
                "union": [{"subtopologyId": "0", "partitions": [1]}]}}"#,
        ] {
            let read = step(text).unwrap();
            let written = serde_json::to_string(&read).unwrap();
            assert_eq!(step(&written).unwrap(), read, "{text}");
        }
    }

    #[test]
    fn keys_no_action_takes_are_refused() {
        for (text, message) in [
            (r#"{"note": "n"}"#, ONE_ACTION),
            (r#"{"sleep_ms": 1, "describe": {}}"#, ONE_ACTION),
            (
                r#"{"sleep_ms": 1, "expect": {}}"#,
                "sleep_ms, deny, consumer_group, topic and tasks take no expect, capture or until",
            ),
            (
                r#"{"deny": {"operation": "READ", "resource": "CLUSTER", "name": "x"}}"#,
                "deny needs a name for a GROUP or TOPIC, and none for the CLUSTER",
            ),
            (
                r#"{"group_config": {}, "capture": {"x": "/y"}}"#,
                "group_config takes no until or capture",
            ),
            (
                r#"{"describe": {}, "until": {"within_ms": 1}}"#,
                "until needs an expect",
            ),
            (
                r#"{"describe": {}, "expect": {"$nope": 1}}"#,
                "expect: unknown operator $nope",
            ),
            (
                r#"{"topic": {"delete": "in"}, "expect": {}}"#,
                "sleep_ms, deny, consumer_group, topic and tasks take no expect, capture or until",
            ),
            (
                r#"{"topic": {"delete": "in", "partitions": 1}}"#,
                "topic: delete takes no partitions",
            ),
            (
                r#"{"tasks": {"members": [], "count": 1}}"#,
                "tasks: members names no member",
            ),
            (
                r#"{"tasks": {"members": ["a"], "count": 1}, "precondition": true}"#,
                "a precondition needs an expect: what the set-up must answer",
            ),
            (
                r#"{"sleep_ms": 1, "precondition": true}"#,
                "a precondition needs an expect: what the set-up must answer",
            ),
        ] {
            let error = step(text).unwrap_err();
            assert!(error.starts_with(message), "{text}: {error}");
        }
    }
}
