//! The oracle: every property a run is held to, in one list ([`PROPERTIES`]), in the style of
//! stateright's properties. Each [`Property`] has an [`Expectation`] (`always` for safety under
//! faults, `eventually` for convergence once faults stop, `sometimes` for states the generator
//! must reach), a name, the spec rules it comes from, and a [`Condition`]: a plain function over
//! what the driver recorded ([`super::history`]). The driver only records and asks; it decides
//! nothing itself.
//!
//! Properties are judged in list order, and the first that fails is the run's violation.

use std::fmt;

use streamspec_protocol::codes::{
    ERROR_FENCED_MEMBER_EPOCH, ERROR_UNKNOWN_MEMBER_ID, ERROR_UNKNOWN_SERVER_ERROR,
    STATUS_INCORRECTLY_PARTITIONED_TOPICS, STATUS_MISSING_INTERNAL_TOPICS,
    STATUS_MISSING_SOURCE_TOPICS,
};

use super::history::{
    last_events_of, previous_holder_join, response_task_refs, Event, ExchangeView, GroupView,
    MemberView,
};
use crate::backend::BackendError;
use conditions::*;

mod conditions;

/// What kind of claim a property makes over a run (stateright's `Expectation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expectation {
    /// Holds at every point of every run, faults included (safety).
    Always,
    /// Holds once faults stop, within a bounded number of heartbeat rounds (liveness).
    Eventually,
    /// Some run of a campaign reaches it: evidence that the generator gets there. Never
    /// reaching one is a warning, not a failure of the target.
    Sometimes,
}

impl Expectation {
    pub fn label(self) -> &'static str {
        match self {
            Expectation::Always => "always",
            Expectation::Eventually => "eventually",
            Expectation::Sometimes => "sometimes",
        }
    }
}

/// What a failed condition shows: a detail, and the exchanges (indexes into the history, oldest
/// first) that show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub detail: String,
    pub events: Vec<usize>,
}

impl Found {
    fn new(detail: String, events: Vec<usize>) -> Found {
        Found { detail, events }
    }
}

/// Two runs of one input, each under its name prefix.
#[derive(Debug, Clone, Copy)]
pub struct TracePair<'a> {
    pub first: &'a [Event],
    pub first_prefix: &'a str,
    pub second: &'a [Event],
    pub second_prefix: &'a str,
}

/// When a property is judged, and the function that judges it.
#[derive(Debug, Clone, Copy)]
pub enum Condition {
    /// On what the transport reports when a call fails: no answer within the bound, a clock
    /// that cannot move on, or an answer that does not decode ([`failed_call`]).
    Call(fn(&BackendError) -> bool),
    /// On each exchange as it is recorded.
    Exchange(fn(&ExchangeView<'_>) -> Result<(), Found>),
    /// On the group after each exchange: a describe of it beside what the members believe.
    Group(fn(&GroupView<'_>) -> Result<(), Found>),
    /// After each heartbeat round once faults stop: `Err` says what is still missing, and is a
    /// violation only when the rounds run out.
    Settled(fn(&GroupView<'_>) -> Result<(), String>),
    /// On two runs of one input.
    Replay(fn(&TracePair<'_>) -> Result<(), Found>),
    /// On each exchange: whether it witnesses the property.
    Witness(fn(&Event) -> bool),
    /// On each answer of a differential run: a backend that compares it with the reference's
    /// found them equal ([`crate::differential`]; [`judge_answer`]).
    Compared,
}

/// A named property of runs and the spec rules it comes from.
#[derive(Debug, Clone, Copy)]
pub struct Property {
    pub expectation: Expectation,
    pub name: &'static str,
    pub rules: &'static str,
    pub condition: Condition,
}

impl PartialEq for Property {
    fn eq(&self, other: &Property) -> bool {
        (self.expectation, self.name) == (other.expectation, other.name)
    }
}

impl Eq for Property {}

impl fmt::Display for Property {
    /// `always: every request is answered`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.expectation.label(), self.name)
    }
}

impl Property {
    /// The name with its expectation, as reports show it.
    pub fn label(&self) -> String {
        self.to_string()
    }
}

const fn always(name: &'static str, rules: &'static str, condition: Condition) -> Property {
    Property {
        expectation: Expectation::Always,
        name,
        rules,
        condition,
    }
}

const fn sometimes(
    name: &'static str,
    rules: &'static str,
    witness: fn(&Event) -> bool,
) -> Property {
    Property {
        expectation: Expectation::Sometimes,
        name,
        rules,
        condition: Condition::Witness(witness),
    }
}

pub const ANSWERED: Property = always(
    "every request is answered",
    "spec 2",
    Condition::Call(|error| !matches!(error, BackendError::Malformed { .. })),
);
pub const WELL_FORMED: Property = always(
    "answers are well-formed",
    "spec 2, Kafka's wire format",
    Condition::Call(|error| matches!(error, BackendError::Malformed { .. })),
);
pub const ANSWERS_EQUAL: Property = always(
    "answers equal the reference's",
    "every rule; the report cites the differing fields'",
    Condition::Compared,
);
pub const ERROR_CODES: Property = always(
    "error codes come from the RPC's set",
    "spec 2.4",
    Condition::Exchange(error_codes),
);
pub const BARE_ERRORS: Property = always(
    "error responses are bare",
    "spec 2.2",
    Condition::Exchange(bare_errors),
);
pub const MEMBER_ID_ECHOED: Property = always(
    "the member id is echoed",
    "spec 7.1",
    Condition::Exchange(member_id_echoed),
);
pub const TASK_LISTS_TOGETHER: Property = always(
    "task lists come all three or none, and always on a join",
    "spec 7.1, 7.3",
    Condition::Exchange(task_lists_together),
);
pub const TASKS_EXIST: Property = always(
    "assigned tasks exist in the topology",
    "spec 4.6-8",
    Condition::Exchange(tasks_exist),
);
pub const EPOCH_NEVER_DECREASES: Property = always(
    "a member's epoch never decreases",
    "spec 4.6-5",
    Condition::Exchange(epoch_never_decreases),
);
pub const EPOCH_ORDER: Property = always(
    "member epoch <= assignment epoch <= group epoch",
    "spec 4.6-3",
    Condition::Group(|view| epoch_order(view.group).map_err(|detail| on_last(view, detail))),
);
pub const TARGETS_VALID: Property = always(
    "target assignments keep the assignor's guarantees",
    "spec 5.5, 6",
    Condition::Group(targets_valid_now),
);
pub const ONE_ACTIVE_OWNER: Property = always(
    "at most one member owns an active task",
    "spec 4.6-1, R27, R28",
    Condition::Group(one_active_owner),
);
pub const ROLES_APART: Property = always(
    "no process holds a task in two roles",
    "spec 4.6-2",
    Condition::Group(roles_apart),
);
pub const SETTLES: Property = Property {
    expectation: Expectation::Eventually,
    name: "the group settles with every task owned once",
    rules: "spec 4.6-7, 4.6-10",
    condition: Condition::Settled(settled),
};
pub const DETERMINISTIC: Property = always(
    "a seed gives one trace",
    "streamspec",
    Condition::Replay(same_trace),
);
pub const REVOCATION: Property = sometimes("a task is revoked", "R27, R28", |event| {
    // A reduced active list at an unchanged epoch is a revocation.
    let given = event
        .response
        .active_tasks
        .as_ref()
        .map(|lists| response_task_refs(lists).len());
    let owned: usize = event
        .request
        .active_tasks
        .iter()
        .flatten()
        .map(|t| t.partitions.len())
        .sum();
    event.request.member_epoch == event.response.member_epoch
        && given.is_some_and(|given| given < owned)
});
pub const FENCED: Property = sometimes("a member is fenced", "R23, R24", |event| {
    event.response.error_code == ERROR_FENCED_MEMBER_EPOCH
});
pub const UNKNOWN_MEMBER: Property = sometimes("a member is unknown", "R21, R32", |event| {
    event.response.error_code == ERROR_UNKNOWN_MEMBER_ID
});
pub const STANDBY_PLACED: Property = sometimes("a standby is placed", "R41", |event| {
    event
        .response
        .standby_tasks
        .as_ref()
        .is_some_and(|lists| lists.iter().any(|list| !list.partitions.is_empty()))
});
pub const STATIC_LEAVE: Property = sometimes("a static member leaves", "R49", |event| {
    event.response.error_code == 0 && event.request.member_epoch == -2
});
pub const INSTANCE_TAKEN: Property = sometimes("an instance id is taken", "R49", |event| {
    // A simulated member `m<index>-<incarnation>` joins as `i<index>` unless it took another's.
    let own = event
        .request
        .member_id
        .strip_prefix('m')
        .and_then(|rest| rest.split('-').next());
    let joined_as = event
        .request
        .instance_id
        .as_deref()
        .and_then(|instance| instance.strip_prefix('i'));
    event.response.error_code == 0
        && event.request.member_epoch == 0
        && joined_as.is_some()
        && joined_as != own
});
pub const NOT_READY: Property = sometimes(
    "the topology is not ready",
    "spec 5.5, R33, R34, R35",
    // Missing or incorrectly partitioned topics.
    |event| {
        event.response.status.iter().flatten().any(|status| {
            matches!(
                status.status_code,
                STATUS_MISSING_SOURCE_TOPICS
                    | STATUS_INCORRECTLY_PARTITIONED_TOPICS
                    | STATUS_MISSING_INTERNAL_TOPICS
            )
        })
    },
);

/// Every property, in the order they are judged and reported.
pub const PROPERTIES: [&Property; 22] = [
    &ANSWERED,
    &WELL_FORMED,
    &ANSWERS_EQUAL,
    &ERROR_CODES,
    &BARE_ERRORS,
    &MEMBER_ID_ECHOED,
    &TASK_LISTS_TOGETHER,
    &TASKS_EXIST,
    &EPOCH_NEVER_DECREASES,
    &EPOCH_ORDER,
    &TARGETS_VALID,
    &ONE_ACTIVE_OWNER,
    &ROLES_APART,
    &SETTLES,
    &DETERMINISTIC,
    &REVOCATION,
    &FENCED,
    &UNKNOWN_MEMBER,
    &STANDBY_PLACED,
    &STATIC_LEAVE,
    &INSTANCE_TAKEN,
    &NOT_READY,
];

/// The `always` and `eventually` properties: what a run can violate.
pub fn invariants() -> impl Iterator<Item = &'static Property> {
    PROPERTIES
        .into_iter()
        .filter(|property| property.expectation != Expectation::Sometimes)
}

/// The `sometimes` properties.
pub fn sometimes_properties() -> impl Iterator<Item = &'static Property> {
    PROPERTIES
        .into_iter()
        .filter(|property| property.expectation == Expectation::Sometimes)
}

/// A violated property, with the smallest history slice that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub property: &'static Property,
    pub detail: String,
    /// 1-based index of the operation during which it was seen.
    pub at_operation: usize,
    /// Indexes into the history of the exchanges that show it, oldest first.
    pub events: Vec<usize>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.heading(), self.detail)
    }
}

/// What a violation's heading says before the number of its operation.
const VIOLATED_AT: &str = " violated at operation ";

impl Violation {
    /// What was violated and where, without the detail (which on a broker's real time varies
    /// from run to run, in its times above all).
    pub fn heading(&self) -> String {
        format!(
            "{} ({}){VIOLATED_AT}{}",
            self.property, self.property.rules, self.at_operation
        )
    }

    /// The operation a violation's text (as it displays) names; `None` for a text that is no
    /// violation's, as a trace edited by hand may hold.
    pub fn operation_in(text: &str) -> Option<usize> {
        let (_, after) = text.split_once(VIOLATED_AT)?;
        let digits = after.split(|c: char| !c.is_ascii_digit()).next()?;
        digits.parse().ok()
    }

    /// The exchanges that show the violation, one line each way.
    pub fn slice(&self, history: &[Event]) -> String {
        let mut out = String::new();
        for event in self.events.iter().filter_map(|index| history.get(*index)) {
            out.push_str(&event.render());
        }
        out
    }
}

/// What a failed judgement reports: the property and what shows it.
pub type Breach = (&'static Property, Found);

/// The property a failed call breaks: no answer (or no passing time) is [`ANSWERED`]'s, an
/// answer that does not decode [`WELL_FORMED`]'s.
pub fn failed_call(error: &BackendError) -> &'static Property {
    PROPERTIES
        .into_iter()
        .find(|property| matches!(property.condition, Condition::Call(breaks) if breaks(error)))
        .unwrap_or(&ANSWERED)
}

/// The first property, in list order, whose condition `pick` finds and which fails on `view`.
fn first_failing<V, E>(
    view: &V,
    pick: impl Fn(Condition) -> Option<fn(&V) -> Result<(), E>>,
) -> Result<(), (&'static Property, E)> {
    for property in PROPERTIES {
        if let Some(condition) = pick(property.condition) {
            condition(view).map_err(|found| (property, found))?;
        }
    }
    Ok(())
}

/// Whether the latest answer of a differential run equals the reference's: `divergence` is the
/// difference its backend found, shown with every exchange of `member` (the heartbeat's sender;
/// `None` for a describe) and the last exchange of each other member.
pub fn judge_answer(
    divergence: Option<crate::differential::Divergence>,
    history: &[Event],
    member: Option<&str>,
) -> Result<(), Breach> {
    let Some(divergence) = divergence else {
        return Ok(());
    };
    let members: std::collections::BTreeSet<&str> =
        history.iter().map(|event| event.member.as_str()).collect();
    let members: Vec<&str> = members.into_iter().collect();
    let mut events = last_events_of(history, &members);
    if let Some(member) = member {
        events.extend(
            history
                .iter()
                .enumerate()
                .filter(|(_, event)| event.member == member)
                .map(|(index, _)| index),
        );
    }
    events.sort_unstable();
    events.dedup();
    Err((&ANSWERS_EQUAL, Found::new(divergence.to_string(), events)))
}

/// The `always` properties of one exchange, the latest of `view.history`.
pub fn judge_exchange(view: &ExchangeView<'_>) -> Result<(), Breach> {
    first_failing(view, |condition| match condition {
        Condition::Exchange(condition) => Some(condition),
        _ => None,
    })
}

/// The `always` properties of the group after an exchange.
pub fn judge_group(view: &GroupView<'_>) -> Result<(), Breach> {
    first_failing(view, |condition| match condition {
        Condition::Group(condition) => Some(condition),
        _ => None,
    })
}

/// The `eventually` properties after a settling round: what is still missing, if anything.
pub fn judge_settled(view: &GroupView<'_>) -> Result<(), (&'static Property, String)> {
    first_failing(view, |condition| match condition {
        Condition::Settled(condition) => Some(condition),
        _ => None,
    })
}

/// [`SETTLES`] on a group its user declares settled, seen only through its members' last
/// answers (`streamspec proxy --settled-at-exit`): `members` are those still in the group, and
/// `task_counts` the tasks of its topology per subtopology.
pub fn judge_settled_members(
    history: &[Event],
    members: &[MemberView<'_>],
    task_counts: &std::collections::BTreeMap<String, i32>,
) -> Result<(), Breach> {
    settled_members(history, members, task_counts).map_err(|found| (&SETTLES, found))
}

/// The properties of two runs of one input.
pub fn judge_replay(pair: &TracePair<'_>) -> Result<(), Breach> {
    first_failing(pair, |condition| match condition {
        Condition::Replay(condition) => Some(condition),
        _ => None,
    })
}

/// A known defect of a target that makes a property unreachable, recorded with its evidence:
/// runs that meet it are counted as divergent rather than failed.
#[derive(Debug)]
pub struct KnownIssue {
    pub id: &'static str,
    pub property: &'static Property,
    pub reason: &'static str,
    pub evidence: &'static str,
    /// Whether an exchange shows the defect.
    pub shown_by: fn(&ExchangeView<'_>) -> bool,
}

impl PartialEq for KnownIssue {
    fn eq(&self, other: &KnownIssue) -> bool {
        self.id == other.id
    }
}

impl Eq for KnownIssue {}

/// Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR to every heartbeat of a group that has a member with
/// a user endpoint while a source topic is missing, so the group cannot settle until the topic
/// is back (the divergence `R46-endpoint-member-while-source-topics-missing` of
/// `harness/divergences.json`; the reference answers normally).
pub const KAFKA_ENDPOINTS_WITH_MISSING_TOPIC: KnownIssue = KnownIssue {
    id: "kafka-endpoints-with-missing-source-topic",
    property: &SETTLES,
    reason: "Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR to every heartbeat of a group with a user endpoint while a source topic is missing",
    evidence: "harness/scenarios/static-and-v1/R46-endpoint-member-while-source-topics-missing.json and the campaign trace harness/findings/kafka-endpoints-with-missing-source-topic.json, both checked against the broker in CI",
    shown_by: |view| {
        let event = view.event();
        let valid_request = event
            .request
            .topology
            .as_ref()
            .is_none_or(|topology| topology == view.topology);
        event.response.error_code == ERROR_UNKNOWN_SERVER_ERROR
            && valid_request
            && view.source_topic_missing
            && view.setup.members.iter().any(|member| member.endpoint)
    },
};

/// Kafka 4.4.0 goes on with a configuration a refused heartbeat kept (R40) after the source
/// topic it saw was deleted, and assigns that topic's tasks: the group is Stable, with tasks,
/// while the topic is missing, until the topic is back (the divergence
/// `R40-kept-configuration-of-deleted-topic` of `harness/divergences.json`; the reference
/// gives that configuration up). No coordinator that sees the deletion assigns a task then.
pub const KAFKA_KEPT_CONFIGURATION_OF_DELETED_TOPIC: KnownIssue = KnownIssue {
    id: "kafka-kept-configuration-of-deleted-topic",
    property: &SETTLES,
    reason: "Kafka 4.4.0 assigns the tasks of a deleted source topic from a configuration a refused heartbeat kept, and calls the group Stable",
    evidence: "harness/scenarios/topology/R40-kept-configuration-of-deleted-topic.json, checked against the broker (streamspec check --target 127.0.0.1:9292)",
    shown_by: |view| {
        let response = &view.event().response;
        response.error_code == 0
            && view.source_topic_missing
            && response
                .active_tasks
                .as_ref()
                .is_some_and(|tasks| tasks.iter().any(|t| !t.partitions.is_empty()))
    },
};

/// Kafka 4.4.0 lets a member of the group take the instance id of a released static member with
/// an epoch-0 join: the member becomes a copy of the released one, with its assignment, and when
/// nothing the assignor reads changes (the same process, as members of one process have) the
/// group epoch stays, so no assignment is computed again and the tasks the joiner's own target
/// held are assigned to nobody while the group reads Stable, until something else bumps the
/// group epoch. The reference does the same, being equal to Kafka answer for answer.
pub const KAFKA_MEMBER_TAKES_A_RELEASED_INSTANCE: KnownIssue = KnownIssue {
    id: "kafka-member-takes-a-released-instance",
    property: &SETTLES,
    reason: "Kafka 4.4.0 lets a member of the group take a released static member's instance id without computing the assignment again, and assigns the tasks of the joiner's own target to nobody while the group reads Stable",
    evidence: "harness/scenarios/static-and-v1/R49-member-takes-a-released-instance-of-its-process.json, checked against the broker in CI",
    shown_by: |view| {
        let event = view.event();
        let takes = event.request.member_epoch == 0
            && event.response.error_code == 0
            && event.request.instance_id.is_some();
        // Only then is the history searched (this runs after every exchange): the joiner was in
        // the group under another instance id (or none) until this join, and takes the instance
        // of a member of its own process (from another, the assignor's input changes). A refused
        // request in between (a join naming an instance not yet released, a stale epoch fenced)
        // left it a member; only an unknown member id says it is none.
        let left_as_it_was = |code: i16| code != 0 && code != ERROR_UNKNOWN_MEMBER_ID;
        takes
            && previous_holder_join(view.history, view.at()).is_some_and(|before| {
                before.request.process_id == event.request.process_id
            })
            && view.history[..view.at()]
                .iter()
                .rev()
                .find(|earlier| {
                    earlier.member == event.member && !left_as_it_was(earlier.response.error_code)
                })
                .is_some_and(|earlier| {
                    earlier.response.error_code == 0
                        && earlier.response.member_epoch > 0
                        && earlier.request.instance_id != event.request.instance_id
                })
    },
};

/// Every known issue.
pub const KNOWN_ISSUES: [&KnownIssue; 3] = [
    &KAFKA_ENDPOINTS_WITH_MISSING_TOPIC,
    &KAFKA_KEPT_CONFIGURATION_OF_DELETED_TOPIC,
    &KAFKA_MEMBER_TAKES_A_RELEASED_INSTANCE,
];

/// The known issue the latest exchange shows, if any.
pub fn known_issue(view: &ExchangeView<'_>) -> Option<&'static KnownIssue> {
    KNOWN_ISSUES
        .into_iter()
        .find(|issue| (issue.shown_by)(view))
}

/// How often a campaign's runs reached each `sometimes` property: a count that stays at zero
/// means the generator is too weak to find bugs there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// Exchanges that witnessed each property of [`sometimes_properties`], in its order.
    counts: Vec<u64>,
}

impl Default for Coverage {
    fn default() -> Self {
        Coverage {
            counts: vec![0; sometimes_properties().count()],
        }
    }
}

impl Coverage {
    /// Counts what `history` witnesses.
    pub fn observe(&mut self, history: &[Event]) {
        for (count, property) in self.counts.iter_mut().zip(sometimes_properties()) {
            if let Condition::Witness(witnesses) = property.condition {
                *count += history.iter().filter(|event| witnesses(event)).count() as u64;
            }
        }
    }

    pub fn add(&mut self, other: &Coverage) {
        for (count, more) in self.counts.iter_mut().zip(&other.counts) {
            *count += more;
        }
    }

    /// Each `sometimes` property with its count, in list order.
    pub fn counts(&self) -> impl Iterator<Item = (&'static Property, u64)> + '_ {
        sometimes_properties().zip(self.counts.iter().copied())
    }
}

#[cfg(test)]
mod tests;
