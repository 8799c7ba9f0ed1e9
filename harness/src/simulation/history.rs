//! What a run records, and the views of it the oracle judges: every exchange with its time
//! ([`Event`]), what the simulated members believe they hold ([`Holdings`]), and, after each
//! exchange, the exchange itself ([`ExchangeView`]) and the group as the coordinator describes it
//! beside the members' beliefs ([`GroupView`]). The driver writes these; the oracle only reads
//! them.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use serde::Serialize;
use streamspec_protocol::codes::{ERROR_FENCED_MEMBER_EPOCH, ERROR_UNKNOWN_MEMBER_ID};
use streamspec_protocol::kafka::streams_group_describe_response::{self, DescribedGroup};
use streamspec_protocol::kafka::streams_group_heartbeat_request::Topology;
use streamspec_protocol::kafka::streams_group_heartbeat_response;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::setup::Setup;

/// A task: subtopology id and partition.
pub type Task = (String, i32);

/// A task whose subtopology id is borrowed from the lists naming it; it orders as [`Task`].
pub type TaskRef<'a> = (&'a str, i32);

/// The distinct tasks of task lists (each a subtopology id and its partitions), in order. They
/// borrow the lists' ids: the oracle reads the tasks of every answer and describe, and copying
/// each id into a set of its own was a large share of a campaign's allocations.
fn task_refs<'a>(lists: impl Iterator<Item = (&'a String, &'a Vec<i32>)>) -> Vec<TaskRef<'a>> {
    let mut tasks: Vec<TaskRef<'a>> = lists
        .flat_map(|(subtopology, partitions)| {
            partitions.iter().map(move |p| (subtopology.as_str(), *p))
        })
        .collect();
    tasks.sort_unstable();
    tasks.dedup();
    tasks
}

/// The distinct tasks of a heartbeat answer's task lists, in order, borrowed.
pub fn response_task_refs(lists: &[streams_group_heartbeat_response::TaskIds]) -> Vec<TaskRef<'_>> {
    task_refs(
        lists
            .iter()
            .map(|list| (&list.subtopology_id, &list.partitions)),
    )
}

/// The tasks of a heartbeat answer's task lists, owned: what a member keeps.
pub fn response_tasks(lists: &[streams_group_heartbeat_response::TaskIds]) -> BTreeSet<Task> {
    response_task_refs(lists)
        .into_iter()
        .map(|(subtopology, partition)| (subtopology.to_owned(), partition))
        .collect()
}

/// The distinct tasks of a describe's task lists, in order, borrowed.
pub fn described_tasks(lists: &[streams_group_describe_response::TaskIds]) -> Vec<TaskRef<'_>> {
    task_refs(
        lists
            .iter()
            .map(|list| (&list.subtopology_id, &list.partitions)),
    )
}

/// One request and its answer, as the harness saw them.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    /// 1-based index of the operation that sent it; the settling rounds after the operations are
    /// all numbered one past the last.
    pub operation: usize,
    pub now_ms: u64,
    pub member: String,
    pub request: StreamsGroupHeartbeatRequest,
    pub response: StreamsGroupHeartbeatResponse,
    /// False when the member never saw the answer.
    pub delivered: bool,
}

impl Event {
    /// Two lines: the request and the answer, as JSON.
    pub fn render(&self) -> String {
        let json = |value: serde_json::Result<String>| value.unwrap_or_default();
        format!(
            "  [op {} at {} ms] {} -> {}\n  {}<- {}\n",
            self.operation,
            self.now_ms,
            self.member,
            json(serde_json::to_string(&self.request)),
            if self.delivered { "" } else { "(lost) " },
            json(serde_json::to_string(&self.response)),
        )
    }
}

/// For the join at `at` naming a static instance id: the latest accepted join (epoch 0) before
/// it of another member naming that instance, which held it before (spec 3.6: a join naming a
/// released member's instance takes its place).
pub fn previous_holder_join(history: &[Event], at: usize) -> Option<&Event> {
    let take = &history[at];
    let instance = take.request.instance_id.as_deref()?;
    history[..at].iter().rev().find(|event| {
        event.request.member_epoch == 0
            && event.response.error_code == 0
            && event.member != take.member
            && event.request.instance_id.as_deref() == Some(instance)
    })
}

/// An exchange as text without its time, and with the run's name prefix taken out, so that runs
/// of one input under other names compare equal.
fn exchange_text(event: &Event, prefix: &str) -> String {
    let text = format!(
        "{} {} {}",
        event.member,
        serde_json::to_string(&event.request).unwrap_or_default(),
        serde_json::to_string(&event.response).unwrap_or_default()
    );
    if prefix.is_empty() {
        text
    } else {
        text.replace(prefix, "")
    }
}

/// A hash of the exchanges of a history run under the name prefix `prefix`: two runs of one input
/// against a deterministic coordinator have the same one.
pub fn trace_hash(history: &[Event], prefix: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    for event in history {
        exchange_text(event, prefix).hash(&mut hasher);
    }
    hasher.finish()
}

/// The index of the first exchange in which two histories differ, if one does before the
/// shorter one ends.
pub fn first_difference(
    history: &[Event],
    prefix: &str,
    other: &[Event],
    other_prefix: &str,
) -> Option<usize> {
    history
        .iter()
        .zip(other)
        .position(|(a, b)| exchange_text(a, prefix) != exchange_text(b, other_prefix))
}

/// The last exchange of each of `members` in `history`, oldest first.
pub fn last_events_of(history: &[Event], members: &[&str]) -> Vec<usize> {
    let events: BTreeSet<usize> = members
        .iter()
        .filter_map(|member| history.iter().rposition(|event| event.member == *member))
        .collect();
    events.into_iter().collect()
}

/// The tasks a member believes it holds, in each role.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Holdings {
    pub active: BTreeSet<Task>,
    pub standby: BTreeSet<Task>,
    pub warmup: BTreeSet<Task>,
}

impl Holdings {
    /// What a correct client does with an answer: a member that left, or is fenced or unknown,
    /// forgets everything (returns false: it is no member until it rejoins); new task lists
    /// replace what it owns, as it stops revoked tasks at once; null lists leave them as they
    /// were (spec 7.3).
    pub fn apply(&mut self, response: &StreamsGroupHeartbeatResponse, left: bool) -> bool {
        if left
            || matches!(
                response.error_code,
                ERROR_UNKNOWN_MEMBER_ID | ERROR_FENCED_MEMBER_EPOCH
            )
        {
            *self = Holdings::default();
            return false;
        }
        if response.error_code != 0 {
            return true;
        }
        if let Some(active) = &response.active_tasks {
            self.active = response_tasks(active);
        }
        if let Some(standby) = &response.standby_tasks {
            self.standby = response_tasks(standby);
        }
        if let Some(warmup) = &response.warmup_tasks {
            self.warmup = response_tasks(warmup);
        }
        true
    }
}

/// The latest exchange of a run (the last event of `history`), with what judging it needs.
#[derive(Debug, Clone, Copy)]
pub struct ExchangeView<'a> {
    /// Every exchange so far, the one judged last.
    pub history: &'a [Event],
    pub setup: &'a Setup,
    /// Tasks per subtopology id.
    pub task_counts: &'a BTreeMap<String, i32>,
    /// The topology the run's members join with.
    pub topology: &'a Topology,
    /// A source topic the topology reads does not exist (yet, or any more).
    pub source_topic_missing: bool,
}

impl ExchangeView<'_> {
    /// The index of the exchange judged.
    pub fn at(&self) -> usize {
        self.history.len() - 1
    }

    /// The exchange judged.
    pub fn event(&self) -> &Event {
        &self.history[self.at()]
    }
}

/// A simulated member as the oracle sees it.
#[derive(Debug, Clone)]
pub struct MemberView<'a> {
    pub id: &'a str,
    pub process: u8,
    /// A member that has not crashed (it heartbeats).
    pub live: bool,
    pub holdings: &'a Holdings,
}

/// The group after an exchange: the coordinator's describe of it beside what the members believe.
#[derive(Debug, Clone)]
pub struct GroupView<'a> {
    pub history: &'a [Event],
    pub setup: &'a Setup,
    pub group: &'a DescribedGroup,
    pub members: Vec<MemberView<'a>>,
    /// Whether the topology can be ready now: the setup allows it and every source topic exists.
    pub ready_now: bool,
    /// Whether some member missed an answer: Kafka 4.4 then may never tell a member a task it
    /// gained (scenario R24-lost-response-hides-a-gained-task).
    pub lost_response: bool,
}

/// One exchange of a run as a member's timeline shows it: the epochs either way, and the task
/// lists the member was last sent (an answer with null lists leaves them as they were, spec 7.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimelineEntry {
    /// 1-based operation that sent it; the settling rounds after the operations are all numbered
    /// one past the last.
    pub operation: usize,
    pub at_ms: u64,
    pub member: String,
    pub sent_epoch: i32,
    pub answered_epoch: i32,
    pub error_code: i16,
    /// False when the member never saw the answer.
    pub delivered: bool,
    /// Whether this answer carried task lists.
    pub tasks_sent: bool,
    /// Tasks as `subtopology:partition,partition`, subtopologies apart by spaces.
    pub active: String,
    pub standby: String,
    pub warmup: String,
    /// One of the exchanges that show the violation.
    pub shows_violation: bool,
}

/// The tasks of `tasks` as a timeline shows them: `0:0,1 1:2`.
fn task_text(tasks: &BTreeSet<Task>) -> String {
    let mut by_subtopology: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (subtopology, partition) in tasks {
        by_subtopology
            .entry(subtopology)
            .or_default()
            .push(partition.to_string());
    }
    by_subtopology
        .into_iter()
        .map(|(subtopology, partitions)| format!("{subtopology}:{}", partitions.join(",")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every exchange of `history` as timeline entries, oldest first; `shown` indexes those that show
/// a violation ([`super::oracle::Violation::events`]).
pub fn timeline(history: &[Event], shown: &[usize]) -> Vec<TimelineEntry> {
    let mut last_sent: BTreeMap<&str, [String; 3]> = BTreeMap::new();
    history
        .iter()
        .enumerate()
        .map(|(index, event)| {
            let response = &event.response;
            let lists = [
                &response.active_tasks,
                &response.standby_tasks,
                &response.warmup_tasks,
            ];
            let tasks_sent = event.delivered && lists.iter().any(|list| list.is_some());
            let tasks = last_sent.entry(&event.member).or_default();
            if event.delivered {
                for (text, list) in tasks.iter_mut().zip(lists) {
                    if let Some(list) = list {
                        *text = task_text(&response_tasks(list));
                    }
                }
            }
            let [active, standby, warmup] = tasks.clone();
            TimelineEntry {
                operation: event.operation,
                at_ms: event.now_ms,
                member: event.member.clone(),
                sent_epoch: event.request.member_epoch,
                answered_epoch: response.member_epoch,
                error_code: response.error_code,
                delivered: event.delivered,
                tasks_sent,
                active,
                standby,
                warmup,
                shows_violation: shown.contains(&index),
            }
        })
        .collect()
}
