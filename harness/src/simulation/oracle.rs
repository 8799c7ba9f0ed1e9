//! The named invariants a run is held to, and the checks that need no more than one exchange or
//! one describe of the group.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;
use streamspec_protocol::codes::{
    ERROR_COORDINATOR_LOAD_IN_PROGRESS, ERROR_COORDINATOR_NOT_AVAILABLE, ERROR_FENCED_INSTANCE_ID,
    ERROR_FENCED_MEMBER_EPOCH, ERROR_GROUP_AUTHORIZATION_FAILED, ERROR_GROUP_ID_NOT_FOUND,
    ERROR_GROUP_MAX_SIZE_REACHED, ERROR_INVALID_REQUEST, ERROR_NOT_COORDINATOR,
    ERROR_STREAMS_INVALID_TOPOLOGY, ERROR_TOPIC_AUTHORIZATION_FAILED, ERROR_UNKNOWN_MEMBER_ID,
    ERROR_UNKNOWN_SERVER_ERROR, ERROR_UNRELEASED_INSTANCE_ID, ERROR_UNSUPPORTED_VERSION,
};
use streamspec_protocol::kafka::streams_group_describe_response::{self, DescribedGroup};
use streamspec_protocol::kafka::streams_group_heartbeat_response;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::Event;

/// A property every run must have, and the spec rules it comes from.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Invariant {
    pub name: &'static str,
    pub rules: &'static str,
}

pub const ANSWERED: Invariant = Invariant {
    name: "always: every request is answered",
    rules: "spec 2",
};
pub const WELL_FORMED: Invariant = Invariant {
    name: "always: answers are well-formed",
    rules: "spec 2, Kafka's wire format",
};
pub const ERROR_CODES: Invariant = Invariant {
    name: "always: error codes come from the RPC's set",
    rules: "spec 2.4",
};
pub const BARE_ERRORS: Invariant = Invariant {
    name: "always: error responses are bare",
    rules: "spec 2.2",
};
pub const MEMBER_ID_ECHOED: Invariant = Invariant {
    name: "always: the member id is echoed",
    rules: "spec 7.1",
};
pub const TASK_LISTS_TOGETHER: Invariant = Invariant {
    name: "always: task lists come all three or none, and always on a join",
    rules: "spec 7.1, 7.3",
};
pub const TASKS_EXIST: Invariant = Invariant {
    name: "always: assigned tasks exist in the topology",
    rules: "spec 4.6-8",
};
pub const EPOCH_NEVER_DECREASES: Invariant = Invariant {
    name: "always: a member's epoch never decreases",
    rules: "spec 4.6-5",
};
pub const EPOCH_ORDER: Invariant = Invariant {
    name: "always: member epoch <= assignment epoch <= group epoch",
    rules: "spec 4.6-3",
};
pub const ONE_ACTIVE_OWNER: Invariant = Invariant {
    name: "always: at most one member owns an active task",
    rules: "spec 4.6-1, R27, R28",
};
pub const ROLES_APART: Invariant = Invariant {
    name: "always: no process holds a task in two roles",
    rules: "spec 4.6-2",
};
pub const TARGETS_VALID: Invariant = Invariant {
    name: "always: target assignments keep the assignor's guarantees",
    rules: "spec 5.5, 6",
};
pub const SETTLES: Invariant = Invariant {
    name: "eventually: the group settles with every task owned once",
    rules: "spec 4.6-7, 4.6-10",
};
pub const DETERMINISTIC: Invariant = Invariant {
    name: "determinism: a seed gives one trace",
    rules: "streamspec",
};

/// Every invariant, in report order.
pub const ALL: [&Invariant; 14] = [
    &ANSWERED,
    &WELL_FORMED,
    &ERROR_CODES,
    &BARE_ERRORS,
    &MEMBER_ID_ECHOED,
    &TASK_LISTS_TOGETHER,
    &TASKS_EXIST,
    &EPOCH_NEVER_DECREASES,
    &EPOCH_ORDER,
    &ONE_ACTIVE_OWNER,
    &ROLES_APART,
    &TARGETS_VALID,
    &SETTLES,
    &DETERMINISTIC,
];

/// A known defect of a target that makes an invariant unreachable, recorded with its evidence:
/// runs that meet it are counted as divergent rather than failed.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct KnownIssue {
    pub id: &'static str,
    pub invariant: &'static Invariant,
    pub reason: &'static str,
    pub evidence: &'static str,
}

/// Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR to every heartbeat of a group that has a member with
/// a user endpoint while a source topic is missing, so the group cannot settle until the topic
/// is back (the divergence `R46-endpoint-member-while-source-topics-missing` of
/// `harness/divergences.json`; the reference answers normally).
pub const KAFKA_ENDPOINTS_WITH_MISSING_TOPIC: KnownIssue = KnownIssue {
    id: "kafka-endpoints-with-missing-source-topic",
    invariant: &SETTLES,
    reason: "Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR to every heartbeat of a group with a user endpoint while a source topic is missing",
    evidence: "harness/scenarios/static-and-v1/R46-endpoint-member-while-source-topics-missing.json and the campaign trace harness/findings/kafka-endpoints-with-missing-source-topic.json, both checked against the broker in CI",
};

/// Error codes StreamsGroupHeartbeat may carry (spec 2.4).
const ALLOWED_ERRORS: [i16; 15] = [
    ERROR_UNKNOWN_SERVER_ERROR,
    ERROR_COORDINATOR_LOAD_IN_PROGRESS,
    ERROR_COORDINATOR_NOT_AVAILABLE,
    ERROR_NOT_COORDINATOR,
    ERROR_UNKNOWN_MEMBER_ID,
    ERROR_TOPIC_AUTHORIZATION_FAILED,
    ERROR_GROUP_AUTHORIZATION_FAILED,
    ERROR_UNSUPPORTED_VERSION,
    ERROR_INVALID_REQUEST,
    ERROR_GROUP_ID_NOT_FOUND,
    ERROR_GROUP_MAX_SIZE_REACHED,
    ERROR_FENCED_INSTANCE_ID,
    ERROR_FENCED_MEMBER_EPOCH,
    ERROR_UNRELEASED_INSTANCE_ID,
    ERROR_STREAMS_INVALID_TOPOLOGY,
];

/// A violated invariant, with the smallest history slice that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub invariant: &'static Invariant,
    pub detail: String,
    /// 1-based index of the operation during which it was seen.
    pub at_operation: usize,
    /// Indexes into the history of the exchanges that show it, oldest first.
    pub events: Vec<usize>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) violated at operation {}: {}",
            self.invariant.name, self.invariant.rules, self.at_operation, self.detail
        )
    }
}

impl Violation {
    /// The exchanges that show the violation, one line each way.
    pub fn slice(&self, history: &[Event]) -> String {
        let mut out = String::new();
        for event in self.events.iter().filter_map(|index| history.get(*index)) {
            out.push_str(&event.render());
        }
        out
    }
}

/// A task: subtopology id and partition.
pub type Task = (String, i32);

pub fn response_tasks(lists: &[streams_group_heartbeat_response::TaskIds]) -> BTreeSet<Task> {
    lists
        .iter()
        .flat_map(|list| {
            list.partitions
                .iter()
                .map(move |p| (list.subtopology_id.clone(), *p))
        })
        .collect()
}

fn described_tasks(lists: &[streams_group_describe_response::TaskIds]) -> BTreeSet<Task> {
    lists
        .iter()
        .flat_map(|list| {
            list.partitions
                .iter()
                .map(move |p| (list.subtopology_id.clone(), *p))
        })
        .collect()
}

/// What a failed check reports: the invariant and a detail.
pub type Breach = (&'static Invariant, String);

/// Per-response invariants: allowed error codes, bare error responses, the echoed member id, and
/// task ids within `task_counts` (tasks per subtopology id).
pub fn check_response(
    request: &StreamsGroupHeartbeatRequest,
    response: &StreamsGroupHeartbeatResponse,
    task_counts: &BTreeMap<String, i32>,
) -> Result<(), Breach> {
    if response.error_code != 0 {
        if !ALLOWED_ERRORS.contains(&response.error_code) {
            return Err((&ERROR_CODES, format!("error code {}", response.error_code)));
        }
        let bare = response.member_id.is_empty()
            && response.member_epoch == 0
            && response.active_tasks.is_none()
            && response.standby_tasks.is_none()
            && response.warmup_tasks.is_none()
            && response.partitions_by_user_endpoint.is_none();
        if !bare {
            return Err((&BARE_ERRORS, format!("{response:?}")));
        }
        return Ok(());
    }
    if request.member_epoch >= 0 && response.member_id != request.member_id {
        return Err((
            &MEMBER_ID_ECHOED,
            format!("{} for {}", response.member_id, request.member_id),
        ));
    }
    let lists = [
        &response.active_tasks,
        &response.standby_tasks,
        &response.warmup_tasks,
    ];
    // Null means unchanged: the three lists change together, and a join always gets them.
    let present = lists.iter().filter(|list| list.is_some()).count();
    if (present != 0 && present != 3) || (request.member_epoch == 0 && present == 0) {
        return Err((
            &TASK_LISTS_TOGETHER,
            format!(
                "{present} of 3 task lists in the answer to a heartbeat at epoch {}",
                request.member_epoch
            ),
        ));
    }
    for (subtopology, partition) in lists
        .into_iter()
        .flatten()
        .flat_map(|lists| response_tasks(lists))
    {
        let tasks = task_counts.get(&subtopology).copied().unwrap_or(0);
        if partition < 0 || partition >= tasks {
            return Err((
                &TASKS_EXIST,
                format!("task {subtopology}_{partition}; the subtopology has {tasks} tasks"),
            ));
        }
    }
    Ok(())
}

/// Invariants on one describe of the group: epoch order (spec 4.6-3) and the guarantees of the
/// target assignment (spec 5.5, 6): one active owner per task, no task in two roles on one process,
/// at most min(standby replicas, processes - 1) standbys and none for stateless subtopologies,
/// and empty targets while the topology cannot be ready.
pub fn check_described(
    group: &DescribedGroup,
    standby_replicas: usize,
    is_stateful: impl Fn(&str) -> bool,
    ready: bool,
) -> Result<(), Breach> {
    if group.error_code != 0 {
        return Ok(());
    }
    for member in &group.members {
        let in_order = group.assignment_epoch <= group.group_epoch
            && (member.member_epoch < 0 || member.member_epoch <= group.assignment_epoch);
        if !in_order {
            return Err((
                &EPOCH_ORDER,
                format!(
                    "{} at {} with assignment epoch {} and group epoch {}",
                    member.member_id,
                    member.member_epoch,
                    group.assignment_epoch,
                    group.group_epoch
                ),
            ));
        }
    }
    let processes: BTreeSet<&str> = group
        .members
        .iter()
        .map(|m| m.process_id.as_str())
        .collect();
    // The count of processes is that of the target's epoch only while no member came or went
    // since: a leave bumps the group epoch, and the next heartbeat computes a new target.
    let current = group.assignment_epoch == group.group_epoch;
    let mut active_owner: BTreeMap<Task, &str> = BTreeMap::new();
    let mut standbys: BTreeMap<Task, BTreeSet<&str>> = BTreeMap::new();
    for member in &group.members {
        let target = &member.target_assignment;
        let active = described_tasks(&target.active_tasks);
        let others = described_tasks(&target.standby_tasks)
            .union(&described_tasks(&target.warmup_tasks))
            .cloned()
            .collect::<BTreeSet<Task>>();
        if current && !ready && !(active.is_empty() && others.is_empty()) {
            return Err((
                &TARGETS_VALID,
                format!(
                    "{} has a target while the topology cannot be ready",
                    member.member_id
                ),
            ));
        }
        for task in active {
            if let Some(other) = active_owner.insert(task.clone(), &member.member_id) {
                return Err((
                    &TARGETS_VALID,
                    format!(
                        "task {}_{} is the target of {other} and {}",
                        task.0, task.1, member.member_id
                    ),
                ));
            }
        }
        for task in described_tasks(&target.standby_tasks) {
            if !is_stateful(&task.0) {
                return Err((
                    &TARGETS_VALID,
                    format!(
                        "{} has a standby of stateless task {}_{}",
                        member.member_id, task.0, task.1
                    ),
                ));
            }
            standbys.entry(task).or_default().insert(&member.process_id);
        }
    }
    let allowed = standby_replicas.min(processes.len().saturating_sub(1));
    for (task, on) in standbys.iter().filter(|_| current) {
        if on.len() > allowed {
            return Err((
                &TARGETS_VALID,
                format!(
                    "task {}_{} has standbys on {} processes; at most {allowed}",
                    task.0,
                    task.1,
                    on.len()
                ),
            ));
        }
    }
    for member in &group.members {
        for task in described_tasks(&member.target_assignment.active_tasks) {
            if standbys
                .get(&task)
                .is_some_and(|on| on.contains(member.process_id.as_str()))
            {
                return Err((
                    &TARGETS_VALID,
                    format!(
                        "task {}_{} is active and standby on process {}",
                        task.0, task.1, member.process_id
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamspec_protocol::kafka::streams_group_describe_response::{Assignment, Member};

    fn heartbeat(epoch: i32) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest::default()
            .with_group_id("sim")
            .with_member_id("m0-0")
            .with_member_epoch(epoch)
    }

    /// What `response` to a heartbeat at epoch 1 of `m0-0` breaks, with 4 tasks in the topology.
    fn breach(response: StreamsGroupHeartbeatResponse) -> Breach {
        let counts = BTreeMap::from([("0".to_owned(), 4)]);
        check_response(&heartbeat(1), &response, &counts).unwrap_err()
    }

    fn tasks(
        subtopology: &str,
        partitions: &[i32],
    ) -> Vec<streams_group_describe_response::TaskIds> {
        vec![streams_group_describe_response::TaskIds::default()
            .with_subtopology_id(subtopology)
            .with_partitions(partitions.to_vec())]
    }

    fn member(id: &str, process: &str, epoch: i32, target: Assignment) -> Member {
        Member::default()
            .with_member_id(id)
            .with_process_id(process)
            .with_member_epoch(epoch)
            .with_target_assignment(target)
    }

    fn group(members: Vec<Member>) -> DescribedGroup {
        DescribedGroup::default()
            .with_group_id("sim")
            .with_group_epoch(3)
            .with_assignment_epoch(3)
            .with_members(members)
    }

    #[test]
    fn error_codes_outside_the_set_fire() {
        let response = StreamsGroupHeartbeatResponse::default().with_error_code(7);
        let (invariant, detail) = breach(response);
        assert_eq!((invariant, detail.as_str()), (&ERROR_CODES, "error code 7"));
    }

    #[test]
    fn error_responses_that_are_not_bare_fire() {
        let response = StreamsGroupHeartbeatResponse::default()
            .with_error_code(ERROR_FENCED_MEMBER_EPOCH)
            .with_member_epoch(3);
        let (invariant, _) = breach(response);
        assert_eq!(invariant, &BARE_ERRORS);
    }

    #[test]
    fn a_member_id_not_echoed_fires() {
        let response = StreamsGroupHeartbeatResponse::default().with_member_id("other");
        let (invariant, detail) = breach(response);
        assert_eq!(
            (invariant, detail.as_str()),
            (&MEMBER_ID_ECHOED, "other for m0-0")
        );
    }

    #[test]
    fn task_lists_sent_apart_or_missing_on_a_join_fire() {
        let lists = Some(vec![]);
        let one_list = StreamsGroupHeartbeatResponse::default()
            .with_member_id("m0-0")
            .with_active_tasks(lists.clone());
        let (invariant, detail) = breach(one_list);
        assert_eq!(
            (invariant, detail.as_str()),
            (
                &TASK_LISTS_TOGETHER,
                "1 of 3 task lists in the answer to a heartbeat at epoch 1"
            )
        );
        let counts = BTreeMap::from([("0".to_owned(), 4)]);
        let join_without_lists = StreamsGroupHeartbeatResponse::default().with_member_id("m0-0");
        let (invariant, _) =
            check_response(&heartbeat(0), &join_without_lists, &counts).unwrap_err();
        assert_eq!(invariant, &TASK_LISTS_TOGETHER);
        let all = StreamsGroupHeartbeatResponse::default()
            .with_member_id("m0-0")
            .with_active_tasks(lists.clone())
            .with_standby_tasks(lists.clone())
            .with_warmup_tasks(lists);
        assert_eq!(check_response(&heartbeat(0), &all, &counts), Ok(()));
    }

    #[test]
    fn tasks_outside_the_topology_fire() {
        let response = StreamsGroupHeartbeatResponse::default()
            .with_member_id("m0-0")
            .with_active_tasks(Some(vec![]))
            .with_warmup_tasks(Some(vec![]))
            .with_standby_tasks(Some(vec![
                streams_group_heartbeat_response::TaskIds::default()
                    .with_subtopology_id("0")
                    .with_partitions(vec![4]),
            ]));
        let (invariant, detail) = breach(response);
        assert_eq!(
            (invariant, detail.as_str()),
            (&TASKS_EXIST, "task 0_4; the subtopology has 4 tasks")
        );
    }

    #[test]
    fn a_member_ahead_of_the_assignment_epoch_fires() {
        let described = group(vec![member("m0-0", "p0", 4, Assignment::default())]);
        let (invariant, detail) = check_described(&described, 0, |_| true, true).unwrap_err();
        assert_eq!(
            (invariant, detail.as_str()),
            (
                &EPOCH_ORDER,
                "m0-0 at 4 with assignment epoch 3 and group epoch 3"
            )
        );
    }

    #[test]
    fn two_active_targets_of_one_task_fire() {
        let target = Assignment::default().with_active_tasks(tasks("0", &[1]));
        let described = group(vec![
            member("m0-0", "p0", 3, target.clone()),
            member("m1-0", "p1", 3, target),
        ]);
        let (invariant, detail) = check_described(&described, 0, |_| true, true).unwrap_err();
        assert_eq!(
            (invariant, detail.as_str()),
            (&TARGETS_VALID, "task 0_1 is the target of m0-0 and m1-0")
        );
    }

    #[test]
    fn a_standby_beside_its_active_fires() {
        let described = group(vec![
            member(
                "m0-0",
                "p0",
                3,
                Assignment::default().with_active_tasks(tasks("0", &[1])),
            ),
            member(
                "m1-0",
                "p0",
                3,
                Assignment::default().with_standby_tasks(tasks("0", &[1])),
            ),
            member("m2-0", "p1", 3, Assignment::default()),
        ]);
        let (_, detail) = check_described(&described, 1, |_| true, true).unwrap_err();
        assert_eq!(detail, "task 0_1 is active and standby on process p0");
    }

    #[test]
    fn too_many_or_stateless_standbys_fire() {
        let standby = Assignment::default().with_standby_tasks(tasks("0", &[1]));
        let described = group(vec![member("m0-0", "p0", 3, standby.clone())]);
        let (_, detail) = check_described(&described, 1, |_| true, true).unwrap_err();
        assert_eq!(detail, "task 0_1 has standbys on 1 processes; at most 0");
        let (_, detail) = check_described(&described, 1, |_| false, true).unwrap_err();
        assert_eq!(detail, "m0-0 has a standby of stateless task 0_1");
    }

    #[test]
    fn a_target_of_a_topology_that_cannot_be_ready_fires() {
        let target = Assignment::default().with_active_tasks(tasks("0", &[0]));
        let described = group(vec![member("m0-0", "p0", 3, target)]);
        let (_, detail) = check_described(&described, 0, |_| true, false).unwrap_err();
        assert_eq!(
            detail,
            "m0-0 has a target while the topology cannot be ready"
        );
        assert_eq!(check_described(&described, 0, |_| true, true), Ok(()));
    }
}
