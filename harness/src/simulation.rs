//! Randomized runs against the reference coordinator: simulated Streams members driven by a
//! sequence of [`Operation`]s (drawn by proptest or a fuzzer from the same type), every exchange
//! recorded, and named invariants checked over the history.
//!
//! - `always` (safety, under faults): a member's epoch never decreases while it stays a member
//!   (spec 4.6-5); member epoch <= group epoch (4.6-3); at most one member owns an active task at
//!   any instant, so revocation comes before reassignment (4.6-1, R27/R28); assigned tasks exist in
//!   the topology (4.6-8); error codes come from the RPC's set and error responses are bare
//!   (spec 2.2).
//! - `eventually` (liveness, once faults stop): within a bounded number of heartbeat rounds
//!   every task has exactly one active owner and the group is Stable.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use streamspec_coordinator::{ClusterMetadata, Coordinator, CoordinatorConfig, RequestContext};
use streamspec_protocol::kafka::streams_group_describe_request::StreamsGroupDescribeRequest;
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, TaskIds, Topology};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

const GROUP: &str = "sim";
const TOPIC: &str = "input";
/// Members are drawn from a small pool so that operations meet the same members often.
const MEMBERS: u8 = 4;
/// Heartbeat rounds allowed for the group to settle once faults stop.
pub const SETTLE_ROUNDS: usize = 12;
/// Error codes StreamsGroupHeartbeat may carry (spec 2.4).
const ALLOWED_ERRORS: [i16; 14] = [-1, 14, 15, 16, 25, 29, 30, 35, 42, 69, 81, 82, 110, 111];

/// One step of a run; faults are operations too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary, Serialize, Deserialize)]
pub enum Operation {
    /// The member (re)joins, as a client does after being fenced or after leaving.
    Join { member: u8 },
    /// A regular heartbeat reporting what the member owns.
    Heartbeat { member: u8 },
    /// The member leaves (-1).
    Leave { member: u8 },
    /// The member stops heartbeating (its session will time out).
    Crash { member: u8 },
    /// Time passes.
    Advance { ms: u16 },
    /// The input topic is resized (metadata change).
    Resize { partitions: u8 },
    /// The member asks for an application shutdown.
    Shutdown { member: u8 },
    /// Fault: a heartbeat with an epoch one below the member's.
    StaleEpoch { member: u8 },
    /// Fault: a heartbeat claiming a task the topology lacks.
    BogusTask { member: u8 },
    /// Fault: the member sends a heartbeat but never sees the answer.
    DropResponse { member: u8 },
}

impl Operation {
    /// The operations that `data` encodes, all of its bytes used (fuzzers and proptest share it).
    pub fn sequence(data: &[u8]) -> Vec<Operation> {
        let mut input = arbitrary::Unstructured::new(data);
        let mut operations = Vec::new();
        while !input.is_empty() {
            match input.arbitrary() {
                Ok(operation) => operations.push(operation),
                Err(_) => break,
            }
        }
        operations
    }
}

/// A violated invariant, with the history slice that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub invariant: &'static str,
    /// Rule or spec section ids the invariant comes from.
    pub rules: &'static str,
    pub detail: String,
    /// Index of the operation during which it was seen.
    pub at_operation: usize,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) violated at operation {}: {}",
            self.invariant, self.rules, self.at_operation, self.detail
        )
    }
}

/// One request and its answer, as the harness saw them.
#[derive(Debug, Clone)]
pub struct Event {
    pub operation: usize,
    pub now_ms: u64,
    pub member: String,
    pub request: StreamsGroupHeartbeatRequest,
    pub response: StreamsGroupHeartbeatResponse,
}

/// A correct Streams client, as far as the protocol goes.
#[derive(Debug, Clone, Default)]
struct SimMember {
    id: String,
    /// None while not a member (never joined, left, fenced, or crashed).
    epoch: Option<i32>,
    owned: BTreeSet<(String, i32)>,
    crashed: bool,
}

impl SimMember {
    fn owned_lists(&self) -> Vec<TaskIds> {
        let mut by_subtopology: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
        for (subtopology, partition) in &self.owned {
            by_subtopology
                .entry(subtopology)
                .or_default()
                .push(*partition);
        }
        by_subtopology
            .into_iter()
            .map(|(s, p)| TaskIds::default().with_subtopology_id(s).with_partitions(p))
            .collect()
    }

    fn request(&self, epoch: i32) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest::default()
            .with_group_id(GROUP)
            .with_member_id(self.id.clone())
            .with_member_epoch(epoch)
            .with_active_tasks(Some(self.owned_lists()))
            .with_standby_tasks(Some(vec![]))
            .with_warmup_tasks(Some(vec![]))
    }

    fn join_request(&self) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest::default()
            .with_group_id(GROUP)
            .with_member_id(self.id.clone())
            .with_rebalance_timeout_ms(30_000)
            .with_topology(Some(Topology::default().with_subtopologies(
                vec![Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(vec![TOPIC.to_owned()])],
            )))
            .with_active_tasks(Some(vec![]))
            .with_standby_tasks(Some(vec![]))
            .with_warmup_tasks(Some(vec![]))
            .with_process_id(Some(format!("p-{}", self.id)))
    }

    /// What a correct client does with an answer: a fenced or unknown member forgets everything
    /// and will rejoin; new task lists replace what it owns (it stops revoked tasks at once).
    fn apply(&mut self, response: &StreamsGroupHeartbeatResponse, leaving: bool) {
        if leaving || matches!(response.error_code, 25 | 110) {
            self.epoch = None;
            self.owned.clear();
            return;
        }
        if response.error_code != 0 {
            return;
        }
        self.epoch = Some(response.member_epoch);
        if let Some(active) = &response.active_tasks {
            self.owned = active
                .iter()
                .flat_map(|list| {
                    list.partitions
                        .iter()
                        .map(move |p| (list.subtopology_id.clone(), *p))
                })
                .collect();
        }
    }
}

/// A run of operations against the reference coordinator, checking invariants as it goes.
#[derive(Debug)]
pub struct Simulation {
    coordinator: Coordinator,
    now_ms: u64,
    partitions: i32,
    members: Vec<SimMember>,
    pub history: Vec<Event>,
    operation: usize,
    /// The epoch each member was last answered while a member.
    last_epoch: BTreeMap<String, i32>,
    /// Whether a response was lost: Kafka 4.4 then may never tell a member a task it gained
    /// (scenario R24-lost-response-hides-a-gained-task), so liveness is judged on the
    /// coordinator's assignment instead of what the members know.
    lost_response: bool,
}

fn context() -> RequestContext {
    RequestContext {
        client_id: "sim".to_owned(),
        client_host: "/127.0.0.1".to_owned(),
    }
}

impl Default for Simulation {
    fn default() -> Self {
        let config = CoordinatorConfig {
            initial_rebalance_delay_ms: 0,
            assignment_interval_ms: 0,
            ..CoordinatorConfig::default()
        };
        let mut coordinator = Coordinator::new(config);
        let partitions = 4;
        coordinator.handle_metadata(ClusterMetadata::default().with_topic(TOPIC, partitions));
        Simulation {
            coordinator,
            now_ms: 0,
            partitions,
            members: (0..MEMBERS)
                .map(|i| SimMember {
                    id: format!("m{i}"),
                    ..SimMember::default()
                })
                .collect(),
            history: Vec::new(),
            operation: 0,
            last_epoch: BTreeMap::new(),
            lost_response: false,
        }
    }
}

impl Simulation {
    fn violation(&self, invariant: &'static str, rules: &'static str, detail: String) -> Violation {
        Violation {
            invariant,
            rules,
            detail,
            at_operation: self.operation,
        }
    }

    /// Sends a request of member `index`, records it, and checks the per-exchange invariants.
    fn exchange(
        &mut self,
        index: usize,
        request: StreamsGroupHeartbeatRequest,
        deliver: bool,
    ) -> Result<(), Violation> {
        // The only topic is the input topic, so there are no internal topics to create.
        let (response, _) = self
            .coordinator
            .handle_heartbeat(self.now_ms, &context(), 1, &request);
        let member = self.members[index].id.clone();
        self.history.push(Event {
            operation: self.operation,
            now_ms: self.now_ms,
            member: member.clone(),
            request: request.clone(),
            response: response.clone(),
        });
        check_response(&request, &response, self.partitions)
            .map_err(|(invariant, rules, detail)| self.violation(invariant, rules, detail))?;
        let leaving = request.member_epoch < 0;
        if response.error_code == 0 && !leaving {
            if let Some(previous) = self.last_epoch.get(&member) {
                if response.member_epoch < *previous {
                    return Err(self.violation(
                        "always: member epoch never decreases",
                        "spec 4.6-5",
                        format!(
                            "{member} went from epoch {previous} to {}",
                            response.member_epoch
                        ),
                    ));
                }
            }
            self.last_epoch
                .insert(member.clone(), response.member_epoch);
        }
        let gone = matches!(response.error_code, 25 | 110) || leaving;
        if gone {
            // No longer a member: its epoch starts over when it rejoins.
            self.last_epoch.remove(&member);
        }
        if deliver {
            self.members[index].apply(&response, leaving && response.error_code == 0);
        }
        self.check_group()
    }

    /// Group-wide invariants after every exchange.
    fn check_group(&self) -> Result<(), Violation> {
        let described = self.coordinator.handle_describe(
            &StreamsGroupDescribeRequest::default().with_group_ids(vec![GROUP.to_owned()]),
        );
        let group = &described.groups[0];
        if group.error_code == 0 {
            for member in &group.members {
                if member.member_epoch > group.group_epoch
                    || group.assignment_epoch > group.group_epoch
                {
                    return Err(self.violation(
                        "always: member epoch <= assignment epoch <= group epoch",
                        "spec 4.6-3",
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
        }
        // A member the coordinator removed (its session expired) may still believe it owns tasks
        // until its next heartbeat is refused; such a zombie is fenced, so only members of the
        // group count.
        let in_group: BTreeSet<&str> = group.members.iter().map(|m| m.member_id.as_str()).collect();
        let mut owners: BTreeMap<&(String, i32), &str> = BTreeMap::new();
        for member in self
            .members
            .iter()
            .filter(|m| in_group.contains(m.id.as_str()))
        {
            for task in &member.owned {
                if let Some(other) = owners.insert(task, &member.id) {
                    return Err(self.violation(
                        "always: at most one member owns an active task",
                        "spec 4.6-1, R27, R28",
                        format!("task {task:?} owned by {other} and {}", member.id),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The epoch of member `index` if it is a member that has not crashed.
    fn live_epoch(&self, index: usize) -> Option<i32> {
        let member = &self.members[index];
        member.epoch.filter(|_| !member.crashed)
    }

    /// Applies one operation.
    pub fn step(&mut self, operation: Operation) -> Result<(), Violation> {
        self.operation += 1;
        let member = |m: u8| usize::from(m % MEMBERS);
        match operation {
            Operation::Join { member: m } => {
                let index = member(m);
                self.members[index].crashed = false;
                let request = self.members[index].join_request();
                self.exchange(index, request, true)
            }
            Operation::Heartbeat { member: m } | Operation::DropResponse { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self.members[index].request(epoch);
                let lost = matches!(operation, Operation::DropResponse { .. });
                self.lost_response |= lost;
                self.exchange(index, request, !lost)
            }
            Operation::Leave { member: m } => {
                let index = member(m);
                if self.members[index].epoch.is_none() || self.members[index].crashed {
                    return Ok(());
                }
                let request = StreamsGroupHeartbeatRequest::default()
                    .with_group_id(GROUP)
                    .with_member_id(self.members[index].id.clone())
                    .with_member_epoch(-1);
                self.exchange(index, request, true)
            }
            Operation::Crash { member: m } => {
                // A crashed process stops its tasks too.
                let index = member(m);
                self.members[index].crashed = true;
                self.members[index].owned.clear();
                self.members[index].epoch = None;
                Ok(())
            }
            Operation::Advance { ms } => {
                let until = self.now_ms + u64::from(ms) * 10;
                while let Some(deadline) = self.coordinator.next_deadline().filter(|d| *d <= until)
                {
                    self.now_ms = self.now_ms.max(deadline);
                    self.coordinator.handle_timeout(self.now_ms);
                }
                self.now_ms = until;
                Ok(())
            }
            Operation::Resize { partitions } => {
                // Kafka only grows partition counts.
                self.partitions = self.partitions.max(i32::from(partitions % 16) + 1);
                self.coordinator
                    .handle_metadata(ClusterMetadata::default().with_topic(TOPIC, self.partitions));
                Ok(())
            }
            Operation::Shutdown { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self.members[index]
                    .request(epoch)
                    .with_shutdown_application(true);
                self.exchange(index, request, true)
            }
            Operation::StaleEpoch { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index).filter(|epoch| *epoch > 0) else {
                    return Ok(());
                };
                let request = self.members[index].request(epoch - 1);
                // A delayed duplicate of an earlier heartbeat: the client no longer waits for its
                // answer, so if the coordinator accepts it (R24), that answer is lost to it.
                self.lost_response = true;
                self.exchange(index, request, false)
            }
            Operation::BogusTask { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self.members[index]
                    .request(epoch)
                    .with_active_tasks(Some(vec![TaskIds::default()
                        .with_subtopology_id("9")
                        .with_partitions(vec![0])]));
                self.exchange(index, request, false)
            }
        }
    }

    /// Runs `operations`, then lets the live members heartbeat until the group settles.
    pub fn run(operations: &[Operation]) -> Result<Simulation, Violation> {
        let mut simulation = Simulation::default();
        for operation in operations {
            simulation.step(*operation)?;
        }
        simulation.settle()?;
        Ok(simulation)
    }

    /// Liveness: once faults stop, heartbeats of the live members settle the group within
    /// [`SETTLE_ROUNDS`] rounds, with every task owned by exactly one member.
    pub fn settle(&mut self) -> Result<(), Violation> {
        // Live members heartbeat every round while time passes, so that crashed members' sessions
        // expire; then the group has SETTLE_ROUNDS rounds to settle.
        let round_ms: u16 = 500; // times 10 ms: 5 s, the default heartbeat interval
        let expiry_rounds = (self.coordinator.config().session_timeout_ms / 5_000) as usize + 1;
        for _ in 0..expiry_rounds + SETTLE_ROUNDS {
            for index in 0..self.members.len() {
                let Some(epoch) = self.live_epoch(index) else {
                    continue;
                };
                let request = self.members[index].request(epoch);
                self.exchange(index, request, true)?;
            }
            if self.is_settled() {
                return Ok(());
            }
            self.step(Operation::Advance { ms: round_ms })?;
        }
        Err(self.violation(
            "eventually: the group settles with every task owned once",
            "spec 4.6-7, 4.6-10",
            format!(
                "not settled after {} rounds of heartbeats",
                expiry_rounds + SETTLE_ROUNDS
            ),
        ))
    }

    #[doc(hidden)]
    pub fn describe_for_debug(&self) -> String {
        let described = self.coordinator.handle_describe(
            &StreamsGroupDescribeRequest::default().with_group_ids(vec![GROUP.to_owned()]),
        );
        format!(
            "{:#?} partitions {}",
            serde_json::to_value(&described.groups[0]).unwrap(),
            self.partitions
        )
    }

    fn is_settled(&self) -> bool {
        let live: Vec<&SimMember> = self.members.iter().filter(|m| m.epoch.is_some()).collect();
        let described = self.coordinator.handle_describe(
            &StreamsGroupDescribeRequest::default().with_group_ids(vec![GROUP.to_owned()]),
        );
        let group = &described.groups[0];
        if live.is_empty() {
            return group.error_code != 0 || group.group_state == "Empty";
        }
        let assigned: usize = group
            .members
            .iter()
            .flat_map(|m| &m.assignment.active_tasks)
            .map(|t| t.partitions.len())
            .sum();
        let known: usize = live.iter().map(|m| m.owned.len()).sum();
        let expected = self.partitions as usize;
        group.group_state == "Stable"
            && assigned == expected
            && (self.lost_response || known == expected)
    }
}

/// Per-response invariants: allowed error codes, bare error responses, task ids in range.
fn check_response(
    request: &StreamsGroupHeartbeatRequest,
    response: &StreamsGroupHeartbeatResponse,
    partitions: i32,
) -> Result<(), (&'static str, &'static str, String)> {
    if response.error_code != 0 {
        if !ALLOWED_ERRORS.contains(&response.error_code) {
            return Err((
                "always: error codes come from the RPC's set",
                "spec 2.4",
                format!("error code {}", response.error_code),
            ));
        }
        let bare = response.member_id.is_empty()
            && response.member_epoch == 0
            && response.active_tasks.is_none()
            && response.standby_tasks.is_none()
            && response.warmup_tasks.is_none()
            && response.partitions_by_user_endpoint.is_none();
        if !bare {
            return Err((
                "always: error responses are bare",
                "spec 2.2",
                format!("{response:?}"),
            ));
        }
        return Ok(());
    }
    if request.member_epoch >= 0 && response.member_id != request.member_id {
        return Err((
            "always: the member id is echoed",
            "spec 7.1",
            format!("{} for {}", response.member_id, request.member_id),
        ));
    }
    for list in response.active_tasks.iter().flatten() {
        if list.subtopology_id != "0" || list.partitions.iter().any(|p| *p < 0 || *p >= partitions)
        {
            return Err((
                "always: assigned tasks exist in the topology",
                "spec 4.6-8",
                format!("task {list:?} with {partitions} partitions"),
            ));
        }
    }
    Ok(())
}

/// The `coordinator_ops` fuzz target: operations decoded from the input, run with the oracle.
pub fn fuzz_coordinator_ops(data: &[u8]) {
    let mut input = arbitrary::Unstructured::new(data);
    let Ok(operations) = input.arbitrary::<Vec<Operation>>() else {
        return;
    };
    if let Err(violation) = Simulation::run(&operations) {
        panic!(
            "{violation}\noperations: {}",
            serde_json::to_string(&operations).unwrap_or_default()
        );
    }
}

/// The bytes of run `run` of a campaign seeded with `root_seed`: SplitMix64, pinned so that a
/// seed means the same runs everywhere.
pub fn run_bytes(root_seed: u64, run: u64, length: usize) -> Vec<u8> {
    let mut state = root_seed ^ run.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..length.div_ceil(8))
        .flat_map(|_| next().to_le_bytes())
        .take(length)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heartbeat(epoch: i32) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest::default()
            .with_group_id(GROUP)
            .with_member_id("m0")
            .with_member_epoch(epoch)
    }

    #[test]
    fn run_bytes_are_fixed_by_seed_and_run() {
        assert_eq!(run_bytes(7, 0, 8), run_bytes(7, 0, 8));
        assert_ne!(run_bytes(7, 0, 8), run_bytes(7, 1, 8));
        assert_ne!(run_bytes(7, 0, 8), run_bytes(8, 0, 8));
        assert_eq!(run_bytes(7, 3, 13).len(), 13);
    }

    #[test]
    fn a_quiet_group_settles_with_every_task_owned_once() {
        let operations: Vec<Operation> = (0..MEMBERS)
            .map(|member| Operation::Join { member })
            .collect();
        let simulation = Simulation::run(&operations).unwrap();
        let owned: Vec<usize> = simulation.members.iter().map(|m| m.owned.len()).collect();
        assert_eq!(owned, [1, 1, 1, 1]);
    }

    #[test]
    fn error_codes_outside_the_set_fire() {
        let response = StreamsGroupHeartbeatResponse::default().with_error_code(7);
        let (invariant, _, detail) = check_response(&heartbeat(1), &response, 4).unwrap_err();
        assert_eq!(
            (invariant, detail.as_str()),
            (
                "always: error codes come from the RPC's set",
                "error code 7"
            )
        );
    }

    #[test]
    fn error_responses_that_are_not_bare_fire() {
        let response = StreamsGroupHeartbeatResponse::default()
            .with_error_code(110)
            .with_member_epoch(3);
        let (invariant, rules, _) = check_response(&heartbeat(1), &response, 4).unwrap_err();
        assert_eq!(
            (invariant, rules),
            ("always: error responses are bare", "spec 2.2")
        );
    }

    #[test]
    fn tasks_outside_the_topology_fire() {
        let response = StreamsGroupHeartbeatResponse::default()
            .with_member_id("m0")
            .with_active_tasks(Some(vec![
                streamspec_protocol::kafka::streams_group_heartbeat_response::TaskIds::default()
                    .with_subtopology_id("0")
                    .with_partitions(vec![4]),
            ]));
        let (invariant, _, _) = check_response(&heartbeat(1), &response, 4).unwrap_err();
        assert_eq!(invariant, "always: assigned tasks exist in the topology");
    }

    #[test]
    fn two_owners_of_one_task_fire() {
        let mut simulation = Simulation::default();
        simulation.step(Operation::Join { member: 0 }).unwrap();
        simulation.step(Operation::Join { member: 1 }).unwrap();
        simulation.members[0].owned.insert(("0".to_owned(), 1));
        simulation.members[1].owned.insert(("0".to_owned(), 1));
        let violation = simulation.check_group().unwrap_err();
        assert_eq!(
            violation.invariant,
            "always: at most one member owns an active task"
        );
        assert_eq!(violation.detail, "task (\"0\", 1) owned by m0 and m1");
    }

    #[test]
    fn a_decreasing_epoch_fires() {
        let mut simulation = Simulation::default();
        simulation.step(Operation::Join { member: 0 }).unwrap();
        // Pretend the member had been answered a higher epoch than the coordinator knows.
        simulation.last_epoch.insert("m0".to_owned(), 9);
        let violation = simulation
            .step(Operation::Heartbeat { member: 0 })
            .unwrap_err();
        assert_eq!(violation.invariant, "always: member epoch never decreases");
        assert_eq!(violation.detail, "m0 went from epoch 9 to 2");
    }

    #[test]
    fn a_group_that_cannot_settle_fires() {
        let mut simulation = Simulation::default();
        simulation.step(Operation::Join { member: 0 }).unwrap();
        // A member that believes it owns a task nobody gave it keeps the group from settling.
        simulation.partitions += 1;
        let violation = simulation.settle().unwrap_err();
        assert_eq!(
            violation.invariant,
            "eventually: the group settles with every task owned once"
        );
    }
}
