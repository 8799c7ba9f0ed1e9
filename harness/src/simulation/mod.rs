//! Randomized runs: simulated Streams members driven by a sequence of [`Operation`]s (drawn by
//! proptest, a fuzzer or a seeded campaign from the same bytes) against a [`Backend`], every
//! exchange recorded with its time, and the named invariants of [`oracle`] checked over the
//! history as it grows.
//!
//! - `always` (safety, under faults): checked after every exchange, on the response, on a
//!   describe of the group, and on what the members believe they own.
//! - `eventually` (liveness, once faults stop): within a bounded number of heartbeat rounds the
//!   group settles with every task of a ready topology owned once.

pub mod oracle;
mod prepare;
pub mod setup;

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};
use streamspec_protocol::codes::{
    ERROR_FENCED_MEMBER_EPOCH, ERROR_UNKNOWN_MEMBER_ID, ERROR_UNKNOWN_SERVER_ERROR,
    GROUP_STATE_EMPTY, GROUP_STATE_NOT_READY, GROUP_STATE_STABLE,
};
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    CopartitionGroup, Endpoint, KeyValue, Subtopology, TaskIds, TopicInfo, Topology,
};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::rng::{sub_seed, SplitMix64};

use std::time::Duration;

use crate::backend::{self, Backend, BackendError, BackendExt};
use crate::embedded::EmbeddedTarget;
use crate::interrupt::Interrupt;
use oracle::{Breach, Invariant, Task, Violation};
use prepare::Timing;
use setup::{Names, Setup, MEMBERS};

/// Heartbeat rounds allowed for the group to settle once faults stop and sessions of crashed
/// members have expired.
pub const SETTLE_ROUNDS: usize = 12;
/// The rebalance timeout members join with: short, so that clock advances reach it.
const REBALANCE_TIMEOUT_MS: i32 = 5_000;
/// The longest single clock advance, past the test broker's 6 s session timeout.
const MAX_ADVANCE_MS: u16 = 8_192;
/// Partition counts a resize may grow a topic to.
const MAX_RESIZE: u8 = 12;

/// One step of a run; faults are operations too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary, Serialize, Deserialize)]
pub enum Operation {
    /// The member joins: after a restart with a new member id, after being fenced with its old
    /// one, or, while still a member, as a fault.
    Join { member: u8 },
    /// A regular heartbeat reporting what the member owns.
    Heartbeat { member: u8 },
    /// The member leaves (-1), and restarts later with a new member id.
    Leave { member: u8 },
    /// A static member leaves to come back (-2); a dynamic one leaves as with `Leave`.
    StaticLeave { member: u8 },
    /// The process dies: it stops heartbeating and its tasks stop.
    Crash { member: u8 },
    /// Time passes (`ms` modulo 8192).
    Advance { ms: u16 },
    /// A source topic grows (metadata change).
    Resize { topic: u8, partitions: u8 },
    /// The member asks for an application shutdown.
    Shutdown { member: u8 },
    /// Fault: a delayed heartbeat with an epoch one below the member's arrives.
    StaleEpoch { member: u8 },
    /// Fault: a heartbeat claiming, beside what the member owns, a task the topology lacks.
    BogusTask { member: u8 },
    /// Fault: the member sends a heartbeat but never sees the answer.
    DropResponse { member: u8 },
    /// Fault: a heartbeat is sent twice; the member sees the second answer.
    Duplicate { member: u8 },
    /// Fault: a heartbeat carries the topology, which only a join may (R10).
    TopologyOnHeartbeat { member: u8 },
    /// Fault: a member that is not in the group joins with a topology Kafka refuses: duplicate
    /// subtopology ids, a copartition index out of range, a changelog with a partition count, or
    /// an internal topic as source (spec 2.3, open question 9).
    InvalidJoin { member: u8, kind: u8 },
    /// A member that is not in the group joins with the topology at the next epoch, an upgrade
    /// Kafka 4.4 refuses while the group has members (R37).
    UpgradeTopology { member: u8 },
    /// The source topic missing since the start is created.
    CreateLateTopic,
    /// That topic is deleted again: the topology stops being ready (spec 5.5).
    DeleteLateTopic,
}

/// A run's input: what it sets up, then what happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunInput {
    pub setup: Setup,
    pub operations: Vec<Operation>,
}

impl RunInput {
    /// A fuzzer's input: a run written as JSON (seeds made from scenarios), or else bytes as
    /// [`RunInput::from_bytes`] reads them.
    pub fn from_fuzz_input(data: &[u8]) -> RunInput {
        serde_json::from_slice::<RunInput>(data)
            .ok()
            .filter(|input| input.setup.validate().is_ok())
            .unwrap_or_else(|| RunInput::from_bytes(data))
    }

    /// The run that `data` encodes, all of its bytes used: fuzzers, proptest and campaigns share
    /// it. Short inputs fall back to defaults rather than being refused.
    pub fn from_bytes(data: &[u8]) -> RunInput {
        let mut input = Unstructured::new(data);
        let setup = Setup::arbitrary(&mut input).unwrap_or_default();
        let mut operations = Vec::new();
        while !input.is_empty() {
            match input.arbitrary() {
                Ok(operation) => operations.push(operation),
                Err(_) => break,
            }
        }
        RunInput { setup, operations }
    }
}

/// One request and its answer, as the harness saw them.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    /// 1-based index of the operation that sent it; past the operations, the settling rounds.
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

/// A correct Streams client, as far as the protocol goes.
#[derive(Debug, Clone, Default)]
struct SimMember {
    index: usize,
    /// Counts restarts; a restarted process joins with a new member id.
    incarnation: u32,
    /// None while not a member (never joined, left, fenced, or crashed).
    epoch: Option<i32>,
    active: BTreeSet<Task>,
    standby: BTreeSet<Task>,
    warmup: BTreeSet<Task>,
    crashed: bool,
    /// Left or crashed: the next join is a new process instance.
    restart: bool,
}

fn task_lists(tasks: &BTreeSet<Task>) -> Vec<TaskIds> {
    let mut by_subtopology: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
    for (subtopology, partition) in tasks {
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

impl SimMember {
    fn id(&self) -> String {
        format!("m{}-{}", self.index, self.incarnation)
    }

    fn forget(&mut self) {
        self.epoch = None;
        self.active.clear();
        self.standby.clear();
        self.warmup.clear();
    }

    fn is_live(&self) -> bool {
        self.epoch.is_some() && !self.crashed
    }

    /// A heartbeat at `epoch` reporting what the member owns.
    fn request(&self, group: &str, setup: &Setup, epoch: i32) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest::default()
            .with_group_id(group)
            .with_member_id(self.id())
            .with_member_epoch(epoch)
            .with_instance_id(self.instance_id(setup))
            .with_active_tasks(Some(task_lists(&self.active)))
            .with_standby_tasks(Some(task_lists(&self.standby)))
            .with_warmup_tasks(Some(task_lists(&self.warmup)))
    }

    fn instance_id(&self, setup: &Setup) -> Option<String> {
        setup.members[self.index]
            .static_member
            .then(|| format!("i{}", self.index))
    }

    fn join_request(
        &self,
        names: &Names,
        setup: &Setup,
        topology: &streamspec_protocol::kafka::streams_group_heartbeat_request::Topology,
    ) -> StreamsGroupHeartbeatRequest {
        let settings = &setup.members[self.index];
        self.request(&names.group, setup, 0)
            .with_rebalance_timeout_ms(REBALANCE_TIMEOUT_MS)
            .with_topology(Some(topology.clone()))
            .with_process_id(Some(format!("p{}", settings.process)))
            .with_rack_id(settings.rack.map(|rack| format!("rack{rack}")))
            .with_client_tags(settings.zone.map(|zone| {
                vec![KeyValue::default()
                    .with_key("zone")
                    .with_value(format!("z{zone}"))]
            }))
            .with_user_endpoint(settings.endpoint.then(|| {
                Endpoint::default()
                    .with_host(format!("h{}", self.index))
                    .with_port(9000 + self.index as u16)
            }))
    }

    /// What a correct client does with an answer: a fenced or unknown member forgets everything
    /// and will rejoin; new task lists replace what it owns (it stops revoked tasks at once).
    fn apply(&mut self, response: &StreamsGroupHeartbeatResponse, left: bool) {
        if left
            || matches!(
                response.error_code,
                ERROR_UNKNOWN_MEMBER_ID | ERROR_FENCED_MEMBER_EPOCH
            )
        {
            self.forget();
            return;
        }
        if response.error_code != 0 {
            return;
        }
        self.epoch = Some(response.member_epoch);
        if let Some(active) = &response.active_tasks {
            self.active = oracle::response_tasks(active);
        }
        if let Some(standby) = &response.standby_tasks {
            self.standby = oracle::response_tasks(standby);
        }
        if let Some(warmup) = &response.warmup_tasks {
            self.warmup = oracle::response_tasks(warmup);
        }
    }
}

/// `topology` made invalid in one of four ways Kafka refuses.
fn invalid_topology(topology: &Topology, kind: u8) -> Topology {
    let mut invalid = topology.clone();
    let first = invalid.subtopologies[0].clone();
    match kind % 4 {
        0 => invalid.subtopologies.push(first),
        1 => {
            invalid.subtopologies[0].copartition_groups =
                vec![CopartitionGroup::default().with_source_topics(vec![7])]
        }
        2 => {
            invalid.subtopologies[0].state_changelog_topics = vec![TopicInfo::default()
                .with_name(format!("{}-invalid-changelog", first.subtopology_id))
                .with_partitions(3)]
        }
        _ => invalid.subtopologies.push(
            Subtopology::default()
                .with_subtopology_id("internal")
                .with_source_topics(vec!["__consumer_offsets".to_owned()]),
        ),
    }
    invalid
}

/// A run of operations against a backend, checking invariants as it goes.
#[derive(Debug)]
pub struct Simulation<B: Backend> {
    backend: B,
    /// Raised on Ctrl-C: the run stops, and waits for time to pass end at once.
    interrupt: Interrupt,
    /// Bound on a wait for the coordinator to see a change of topics.
    io_timeout: Duration,
    /// Waits for the coordinator's view so far, each with a probe group of its own.
    probes: u32,
    timing: Timing,
    setup: Setup,
    names: Names,
    topology: streamspec_protocol::kafka::streams_group_heartbeat_request::Topology,
    members: Vec<SimMember>,
    pub history: Vec<Event>,
    operation: usize,
    /// The epoch each member was last answered while a member, and the exchange that said so.
    last_epoch: BTreeMap<String, (i32, usize)>,
    /// Whether a response was lost: Kafka 4.4 then may never tell a member a task it gained
    /// (scenario R24-lost-response-hides-a-gained-task), so liveness is judged on the
    /// coordinator's assignment instead of what the members know.
    lost_response: bool,
    /// Whether the setup's late topic exists yet.
    late_topic_created: bool,
    /// A known defect of the target the run met, which waives the invariant it makes
    /// unreachable.
    known_issue: Option<&'static oracle::KnownIssue>,
}

/// How a run ended.
#[derive(Debug)]
pub struct RunRecord {
    pub history: Vec<Event>,
    pub violation: Option<Violation>,
    /// A known defect of the target the run met (its invariant was waived).
    pub known_issue: Option<&'static oracle::KnownIssue>,
    /// Removing the run's topics failed (not a finding about the protocol).
    pub cleanup_error: Option<String>,
    /// The campaign was interrupted (Ctrl-C) before the run finished: it proves nothing either
    /// way.
    pub interrupted: bool,
}

/// Why a run stopped before its end.
#[derive(Debug)]
pub enum Halt {
    /// The coordinator broke an invariant.
    Violation(Violation),
    /// Creating, growing or deleting a topic failed. Those are admin requests, not the protocol
    /// under test, so the run could not be carried out and nothing is proven against the target.
    TopicChange(String),
    /// The campaign was interrupted (Ctrl-C).
    Interrupted,
}

/// How a run is carried out, beside its input.
#[derive(Debug, Clone)]
pub struct RunBounds {
    /// Raised on Ctrl-C: the run stops and cleans up.
    pub interrupt: Interrupt,
    /// Bound on a wait for the coordinator to see a change of topics.
    pub io_timeout: Duration,
}

impl Default for RunBounds {
    fn default() -> Self {
        RunBounds {
            interrupt: Interrupt::default(),
            io_timeout: Duration::from_secs(15),
        }
    }
}

/// Runs `input` against `backend` under `names`: set-up, operations, settling, clean-up. An error
/// is a run that could not be carried out: its set-up or a change of its topics failed.
pub async fn execute<B: Backend>(
    backend: B,
    names: Names,
    input: &RunInput,
    bounds: &RunBounds,
) -> Result<RunRecord, String> {
    let mut simulation = Simulation::new(backend, input.setup.clone(), names, bounds).await?;
    let mut halt = None;
    for operation in &input.operations {
        if simulation.interrupt.is_raised() {
            halt = Some(Halt::Interrupted);
            break;
        }
        if let Err(stop) = simulation.step(*operation).await {
            halt = Some(stop);
            break;
        }
    }
    if halt.is_none() {
        halt = simulation.settle().await.err().map(Halt::Violation);
    }
    let interrupted = simulation.interrupt.is_raised();
    let cleanup_error = prepare::finish(&mut simulation.backend, &simulation.names, &input.setup)
        .await
        .err();
    let violation = match halt {
        None | Some(Halt::Interrupted) => None,
        // What an interrupted run saw last may be cut short: no finding.
        Some(Halt::Violation(_)) if interrupted => None,
        Some(Halt::Violation(violation)) => Some(violation),
        Some(Halt::TopicChange(error)) => {
            return Err(format!("operation {}: {error}", simulation.operation))
        }
    };
    Ok(RunRecord {
        history: simulation.history,
        violation,
        known_issue: simulation.known_issue,
        cleanup_error,
        interrupted,
    })
}

/// Runs `input` against the reference coordinator in process.
pub fn run_in_process(input: &RunInput) -> RunRecord {
    backend::block_on(execute(
        EmbeddedTarget::default(),
        Names::new(""),
        input,
        &RunBounds::default(),
    ))
    .expect("the reference coordinator sets up every valid run")
}

impl<B: Backend> Simulation<B> {
    /// Sets the run up on `backend`: topics, group configs.
    pub async fn new(
        mut backend: B,
        mut setup: Setup,
        names: Names,
        bounds: &RunBounds,
    ) -> Result<Self, String> {
        setup.validate()?;
        let probe = format!("{}-probe-0", names.group);
        let timing = prepare::prepare(&mut backend, &names, &mut setup, &probe, bounds.io_timeout)
            .await
            .map_err(|error| error.to_string())?;
        let topology = setup.topology(&names);
        Ok(Simulation {
            backend,
            interrupt: bounds.interrupt.clone(),
            io_timeout: bounds.io_timeout,
            probes: 0,
            timing,
            topology,
            names,
            members: (0..MEMBERS)
                .map(|index| SimMember {
                    index,
                    ..SimMember::default()
                })
                .collect(),
            setup,
            history: Vec::new(),
            operation: 0,
            last_epoch: BTreeMap::new(),
            lost_response: false,
            late_topic_created: false,
            known_issue: None,
        })
    }

    /// A fresh group for one wait for the coordinator's view: a group that knew a topic keeps
    /// its view of it.
    fn next_probe_group(&mut self) -> String {
        self.probes += 1;
        format!("{}-probe-{}", self.names.group, self.probes)
    }

    fn violation(&self, (invariant, detail): Breach, events: Vec<usize>) -> Violation {
        Violation {
            invariant,
            detail,
            at_operation: self.operation,
            events,
        }
    }

    /// The target failed to answer (a transport error): a finding with no exchange to show.
    fn unanswered(&self, detail: String) -> Violation {
        self.violation((&oracle::ANSWERED, detail), Vec::new())
    }

    /// Lets time pass; a coordinator whose clock cannot move on is a finding, not a hang. An
    /// interrupt ends the wait at once: against a broker sessions expire in tens of seconds.
    async fn advance(&mut self, ms: u64) -> Result<(), Violation> {
        let interrupt = self.interrupt.clone();
        let passed = tokio::select! {
            biased;
            () = interrupt.raised() => Ok(()),
            passed = self.backend.sleep(Duration::from_millis(ms)) => passed,
        };
        passed.map_err(|error| self.unanswered(format!("time cannot pass: {error}")))
    }

    /// An answer that did not come, or came as bytes that do not decode: a finding, with no
    /// exchange to show.
    fn failed_answer(&self, error: BackendError, detail: String) -> Violation {
        let invariant = match error {
            BackendError::Malformed { .. } => &oracle::WELL_FORMED,
            _ => &oracle::ANSWERED,
        };
        self.violation((invariant, detail), Vec::new())
    }

    /// The last exchange of `member`, if any.
    fn last_event_of(&self, member: &str) -> Option<usize> {
        self.history
            .iter()
            .rposition(|event| event.member == member)
    }

    /// Sends a request of member `index`, records it, and checks the invariants.
    async fn exchange(
        &mut self,
        index: usize,
        request: StreamsGroupHeartbeatRequest,
        deliver: bool,
    ) -> Result<(), Violation> {
        let version = self.backend.heartbeat_version();
        let (response, _) = match self.backend.heartbeat(version, &request).await {
            Ok(answer) => answer,
            Err(error) => {
                let detail = format!(
                    "{} got {}: {error}; request {}",
                    request.member_id,
                    if matches!(error, BackendError::Malformed { .. }) {
                        "an answer that does not decode"
                    } else {
                        "no answer"
                    },
                    serde_json::to_string(&request).unwrap_or_default()
                );
                return Err(self.failed_answer(error, detail));
            }
        };
        let member = request.member_id.clone();
        self.history.push(Event {
            operation: self.operation,
            now_ms: self.backend.now_ms(),
            member: member.clone(),
            request: request.clone(),
            response: response.clone(),
            delivered: deliver,
        });
        let this = self.history.len() - 1;
        let valid_request = request
            .topology
            .as_ref()
            .is_none_or(|t| *t == self.topology);
        if response.error_code == ERROR_UNKNOWN_SERVER_ERROR
            && valid_request
            && self.is_source_topic_missing()
            && self.has_endpoints()
        {
            self.known_issue = Some(&oracle::KAFKA_ENDPOINTS_WITH_MISSING_TOPIC);
        }
        oracle::check_response(&request, &response, &self.setup.task_counts())
            .map_err(|breach| self.violation(breach, vec![this]))?;
        let leaving = request.member_epoch < 0;
        if response.error_code == 0 && !leaving {
            if let Some((previous, at)) = self.last_epoch.get(&member) {
                if response.member_epoch < *previous {
                    let detail = format!(
                        "{member} went from epoch {previous} to {}",
                        response.member_epoch
                    );
                    return Err(
                        self.violation((&oracle::EPOCH_NEVER_DECREASES, detail), vec![*at, this])
                    );
                }
            }
            self.last_epoch
                .insert(member.clone(), (response.member_epoch, this));
        }
        if matches!(
            response.error_code,
            ERROR_UNKNOWN_MEMBER_ID | ERROR_FENCED_MEMBER_EPOCH
        ) || leaving
        {
            // No longer a member: its epoch starts over when it rejoins.
            self.last_epoch.remove(&member);
        }
        if deliver {
            self.members[index].apply(&response, leaving && response.error_code == 0);
        }
        self.check_group().await
    }

    async fn describe_group(&mut self) -> Result<DescribedGroup, Violation> {
        let version = self.backend.describe_version();
        let request =
            StreamsGroupDescribeRequest::default().with_group_ids(vec![self.names.group.clone()]);
        match self.backend.describe(version, &request).await {
            Ok((response, _)) => response.groups.into_iter().next().ok_or_else(|| {
                self.unanswered("StreamsGroupDescribe answered no group".to_owned())
            }),
            Err(error) => {
                let detail = match error {
                    BackendError::Malformed { .. } => {
                        format!("StreamsGroupDescribe got an answer that does not decode: {error}")
                    }
                    _ => format!("StreamsGroupDescribe got no answer: {error}"),
                };
                Err(self.failed_answer(error, detail))
            }
        }
    }

    /// Group-wide invariants after every exchange: on a describe of the group, and on what the
    /// members of the group believe they hold.
    async fn check_group(&mut self) -> Result<(), Violation> {
        let group = self.describe_group().await?;
        let last = self.history.len().saturating_sub(1);
        let setup = &self.setup;
        // A coordinator sees topics created or deleted only at a later heartbeat, so only the
        // setup's lasting reason for a topology that cannot be ready binds at every instant.
        oracle::check_described(
            &group,
            usize::from(setup.standby_replicas),
            |id| setup.is_stateful(id),
            setup.is_ready(),
        )
        .map_err(|breach| self.violation(breach, vec![last]))?;
        // A member the coordinator removed (its session expired) may still believe it owns tasks
        // until its next heartbeat is refused; such a zombie is fenced, so only members of the
        // group count.
        let in_group: BTreeSet<&str> = if group.error_code == 0 {
            group.members.iter().map(|m| m.member_id.as_str()).collect()
        } else {
            BTreeSet::new()
        };
        let members: Vec<(String, &SimMember)> = self
            .members
            .iter()
            .map(|member| (member.id(), member))
            .filter(|(id, _)| in_group.contains(id.as_str()))
            .collect();
        let mut owners: BTreeMap<&Task, &str> = BTreeMap::new();
        for (id, member) in &members {
            for task in &member.active {
                if let Some(other) = owners.insert(task, id) {
                    let detail = format!("task {}_{} owned by {other} and {id}", task.0, task.1);
                    let events = self.events_of(&[other, id]);
                    return Err(self.violation((&oracle::ONE_ACTIVE_OWNER, detail), events));
                }
            }
        }
        // Spec 4.6-2: no process holds a task as active and as standby or warm-up at once.
        for (id, member) in &members {
            let process = self.setup.members[member.index].process;
            for (other_id, other) in &members {
                if self.setup.members[other.index].process != process {
                    continue;
                }
                if let Some(task) = member
                    .active
                    .iter()
                    .find(|task| other.standby.contains(*task) || other.warmup.contains(*task))
                {
                    let detail = format!(
                        "process p{process}: task {}_{} active at {id} and standby or warm-up at {other_id}",
                        task.0, task.1
                    );
                    let events = self.events_of(&[id, other_id]);
                    return Err(self.violation((&oracle::ROLES_APART, detail), events));
                }
            }
        }
        Ok(())
    }

    /// Whether the topology can be ready now: the oracle's own reading of the setup, and every
    /// source topic it reads created.
    fn is_ready(&self) -> bool {
        self.setup.is_ready() && !self.is_source_topic_missing()
    }

    fn is_source_topic_missing(&self) -> bool {
        self.setup
            .late_topic
            .is_some_and(|topic| self.setup.reads(topic) && !self.late_topic_created)
    }

    /// Whether some member advertises a user endpoint.
    fn has_endpoints(&self) -> bool {
        self.setup.members.iter().any(|member| member.endpoint)
    }

    /// The last exchange of each of `members`, oldest first.
    fn events_of(&self, members: &[&str]) -> Vec<usize> {
        let events: BTreeSet<usize> = members
            .iter()
            .filter_map(|member| self.last_event_of(member))
            .collect();
        events.into_iter().collect()
    }

    /// The epoch of member `index` if it is a member that has not crashed.
    fn live_epoch(&self, index: usize) -> Option<i32> {
        let member = &self.members[index];
        member.epoch.filter(|_| !member.crashed)
    }

    fn heartbeat_of(&self, index: usize, epoch: i32) -> StreamsGroupHeartbeatRequest {
        self.members[index].request(&self.names.group, &self.setup, epoch)
    }

    /// A member that is not in the group joins with `topology` instead of the run's.
    async fn join_with_topology(
        &mut self,
        index: usize,
        topology: Topology,
    ) -> Result<(), Violation> {
        if self.members[index].is_live() {
            return Ok(());
        }
        let request = self.members[index]
            .join_request(&self.names, &self.setup, &self.topology)
            .with_topology(Some(topology));
        self.exchange(index, request, true).await
    }

    /// Applies one operation.
    pub async fn step(&mut self, operation: Operation) -> Result<(), Halt> {
        self.operation += 1;
        match operation {
            Operation::Resize { topic, partitions } => self.resize(topic, partitions).await,
            Operation::CreateLateTopic => self.create_late_topic().await,
            Operation::DeleteLateTopic => self.delete_late_topic().await,
            _ => {
                return self
                    .exchange_operation(operation)
                    .await
                    .map_err(Halt::Violation)
            }
        }
        .map_err(Halt::TopicChange)
    }

    async fn resize(&mut self, topic: u8, partitions: u8) -> Result<(), String> {
        let Some(topic) = self.setup.resizable_topic(topic) else {
            return Ok(());
        };
        // Kafka only grows partition counts.
        let wanted = i32::from(partitions % MAX_RESIZE) + 1;
        if wanted <= self.setup.topics[topic] {
            return Ok(());
        }
        match self
            .backend
            .create_partitions(&self.names.topic(topic), wanted)
            .await
        {
            Ok(()) => self.setup.topics[topic] = wanted,
            // A backend that cannot grow topics keeps them as they are; the run goes on.
            Err(BackendError::Unsupported { .. }) => {}
            Err(error) => return Err(format!("growing topic {topic} to {wanted}: {error}")),
        }
        Ok(())
    }

    async fn create_late_topic(&mut self) -> Result<(), String> {
        let Some(topic) = self.setup.late_topic.filter(|_| !self.late_topic_created) else {
            return Ok(());
        };
        let (name, partitions) = (self.names.topic(topic), self.setup.topics[topic]);
        let probe = self.next_probe_group();
        backend::create_topics_and_wait(
            &mut self.backend,
            &[(name.clone(), partitions)],
            &probe,
            self.io_timeout,
        )
        .await
        .map_err(|error| format!("creating topic {name}: {error}"))?;
        self.late_topic_created = true;
        Ok(())
    }

    async fn delete_late_topic(&mut self) -> Result<(), String> {
        let Some(topic) = self.setup.late_topic.filter(|_| self.late_topic_created) else {
            return Ok(());
        };
        let name = self.names.topic(topic);
        let probe = self.next_probe_group();
        backend::delete_topics_and_wait(
            &mut self.backend,
            std::slice::from_ref(&name),
            &probe,
            self.io_timeout,
        )
        .await
        .map_err(|error| format!("deleting topic {name}: {error}"))?;
        self.late_topic_created = false;
        Ok(())
    }

    /// Applies an operation of the members (all but the changes of topics).
    async fn exchange_operation(&mut self, operation: Operation) -> Result<(), Violation> {
        let member = |m: u8| usize::from(m) % MEMBERS;
        match operation {
            Operation::Join { member: m } => {
                let index = member(m);
                let sim = &mut self.members[index];
                if sim.restart && !sim.is_live() {
                    sim.incarnation += 1;
                    sim.restart = false;
                }
                sim.crashed = false;
                let request = sim.join_request(&self.names, &self.setup, &self.topology);
                self.exchange(index, request, true).await
            }
            Operation::Heartbeat { member: m } | Operation::DropResponse { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self.heartbeat_of(index, epoch);
                let lost = matches!(operation, Operation::DropResponse { .. });
                self.lost_response |= lost;
                self.exchange(index, request, !lost).await
            }
            Operation::Duplicate { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self.heartbeat_of(index, epoch);
                // The first answer is lost to the member: if it gave a task, the second answers
                // the lists as unchanged (R24-lost-response-hides-a-gained-task).
                self.lost_response = true;
                self.exchange(index, request.clone(), false).await?;
                self.exchange(index, request, true).await
            }
            Operation::Leave { member: m } | Operation::StaticLeave { member: m } => {
                let index = member(m);
                if !self.members[index].is_live() {
                    return Ok(());
                }
                let is_static = self.setup.members[index].static_member;
                let epoch = if is_static && matches!(operation, Operation::StaticLeave { .. }) {
                    -2
                } else {
                    -1
                };
                let request = self.heartbeat_of(index, epoch);
                self.members[index].restart = true;
                self.exchange(index, request, true).await
            }
            Operation::Crash { member: m } => {
                // A crashed process stops its tasks too; it restarts with a new member id.
                let sim = &mut self.members[member(m)];
                sim.crashed = true;
                sim.restart = true;
                sim.forget();
                Ok(())
            }
            Operation::Advance { ms } => self.advance(u64::from(ms % MAX_ADVANCE_MS)).await,
            Operation::TopologyOnHeartbeat { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self
                    .heartbeat_of(index, epoch)
                    .with_topology(Some(self.topology.clone()));
                self.exchange(index, request, true).await
            }
            Operation::InvalidJoin { member: m, kind } => {
                let topology = invalid_topology(&self.topology, kind);
                self.join_with_topology(member(m), topology).await
            }
            Operation::UpgradeTopology { member: m } => {
                let mut upgraded = self.topology.clone();
                upgraded.epoch += 1;
                self.join_with_topology(member(m), upgraded).await
            }
            // Applied by `step`.
            Operation::Resize { .. } | Operation::CreateLateTopic | Operation::DeleteLateTopic => {
                Ok(())
            }
            Operation::Shutdown { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                let request = self
                    .heartbeat_of(index, epoch)
                    .with_shutdown_application(true);
                self.exchange(index, request, true).await
            }
            Operation::StaleEpoch { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index).filter(|epoch| *epoch > 0) else {
                    return Ok(());
                };
                let request = self.heartbeat_of(index, epoch - 1);
                // A delayed duplicate of an earlier heartbeat: the client no longer waits for its
                // answer, so if the coordinator accepts it (R24), that answer is lost to it.
                self.lost_response = true;
                self.exchange(index, request, false).await
            }
            Operation::BogusTask { member: m } => {
                let index = member(m);
                let Some(epoch) = self.live_epoch(index) else {
                    return Ok(());
                };
                // Beside what it owns, so that the coordinator's view of its tasks stays true:
                // while the topology is not ready the claim is not checked (spec 5.5).
                let mut owned = task_lists(&self.members[index].active);
                owned.push(
                    TaskIds::default()
                        .with_subtopology_id("9")
                        .with_partitions(vec![0]),
                );
                let request = self
                    .heartbeat_of(index, epoch)
                    .with_active_tasks(Some(owned));
                self.exchange(index, request, false).await
            }
        }
    }

    /// Liveness: once faults stop, heartbeats of the live members settle the group within
    /// [`SETTLE_ROUNDS`] rounds after the sessions of crashed members expired.
    pub async fn settle(&mut self) -> Result<(), Violation> {
        let Timing {
            session_timeout_ms,
            heartbeat_interval_ms,
        } = self.timing;
        let interval_ms = heartbeat_interval_ms.max(1);
        let rounds = (session_timeout_ms / interval_ms) as usize + 1 + SETTLE_ROUNDS;
        self.operation += 1;
        let mut round_events = Vec::new();
        let mut unsettled = String::new();
        for _ in 0..rounds {
            // An interrupted run is not judged (see `execute`); stop waiting for it to settle.
            if self.interrupt.is_raised() {
                return Ok(());
            }
            round_events.clear();
            for index in 0..self.members.len() {
                let Some(epoch) = self.live_epoch(index) else {
                    continue;
                };
                let request = self.heartbeat_of(index, epoch);
                self.exchange(index, request, true).await?;
                round_events.push(self.history.len() - 1);
            }
            match self.unsettled().await? {
                None => return Ok(()),
                Some(missing) => unsettled = missing,
            }
            if self
                .known_issue
                .is_some_and(|issue| issue.invariant == &oracle::SETTLES)
            {
                return Ok(());
            }
            self.advance(interval_ms).await?;
        }
        Err(self.violation(
            (
                &oracle::SETTLES,
                format!("not settled after {rounds} rounds of heartbeats: {unsettled}"),
            ),
            round_events,
        ))
    }

    /// None once the group has settled; otherwise what is still missing.
    async fn unsettled(&mut self) -> Result<Option<String>, Violation> {
        let group = self.describe_group().await?;
        let live: Vec<&SimMember> = self.members.iter().filter(|m| m.is_live()).collect();
        if live.is_empty() {
            let settled = group.error_code != 0 || group.group_state == GROUP_STATE_EMPTY;
            return Ok((!settled)
                .then(|| format!("no live member, yet the group is {}", group.group_state)));
        }
        let assigned: Vec<(String, i32)> = group
            .members
            .iter()
            .flat_map(|m| &m.assignment.active_tasks)
            .flat_map(|t| t.partitions.iter().map(|p| (t.subtopology_id.clone(), *p)))
            .collect();
        if !self.is_ready() {
            let settled = group.group_state == GROUP_STATE_NOT_READY && assigned.is_empty();
            return Ok((!settled).then(|| {
                format!(
                    "the topology cannot be ready, yet the group is {} with {} tasks assigned",
                    group.group_state,
                    assigned.len()
                )
            }));
        }
        let expected: usize = self
            .setup
            .task_counts()
            .values()
            .map(|count| *count as usize)
            .sum();
        let distinct: BTreeSet<&(String, i32)> = assigned.iter().collect();
        let known: usize = live.iter().map(|m| m.active.len()).sum();
        let settled = group.group_state == GROUP_STATE_STABLE
            && assigned.len() == expected
            && distinct.len() == expected
            && (self.lost_response || known == expected);
        Ok((!settled).then(|| {
            format!(
                "the group is {} with {} of {expected} tasks assigned ({} distinct), the members know of {known}",
                group.group_state,
                assigned.len(),
                distinct.len()
            )
        }))
    }
}

/// The `coordinator_ops` fuzz target: a run decoded from the input, against the reference
/// coordinator, with the oracle.
pub fn fuzz_coordinator_ops(data: &[u8]) {
    let input = RunInput::from_fuzz_input(data);
    let record = run_in_process(&input);
    if let Some(violation) = record.violation {
        panic!(
            "{violation}\n{}run: {}",
            violation.slice(&record.history),
            serde_json::to_string(&input).unwrap_or_default()
        );
    }
}

/// The bytes of run `run` of a campaign seeded with `root_seed`: SplitMix64
/// ([`streamspec_protocol::rng`]), pinned so that a seed means the same runs everywhere.
pub fn run_bytes(root_seed: u64, run: u64, length: usize) -> Vec<u8> {
    SplitMix64::new(sub_seed(root_seed, run)).bytes(length)
}

/// Whether `violation` is of `invariant`.
pub fn is_of(violation: &Option<Violation>, invariant: &Invariant) -> bool {
    violation
        .as_ref()
        .is_some_and(|violation| violation.invariant == invariant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{block_on, BackendResult, StreamsApi};
    use crate::transport::TransportError;

    fn simulation_of<B: Backend>(backend: B, setup: Setup) -> Simulation<B> {
        block_on(Simulation::new(
            backend,
            setup,
            Names::new(""),
            &RunBounds::default(),
        ))
        .unwrap()
    }

    fn simulation() -> Simulation<EmbeddedTarget> {
        simulation_of(EmbeddedTarget::default(), Setup::default())
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
        let mut simulation = simulation();
        for member in 0..MEMBERS as u8 {
            block_on(simulation.step(Operation::Join { member })).unwrap();
        }
        block_on(simulation.settle()).unwrap();
        let owned: Vec<usize> = simulation.members.iter().map(|m| m.active.len()).collect();
        assert_eq!(owned, [1, 1, 1, 1]);
    }

    #[test]
    fn two_owners_of_one_task_fire_with_both_owners_exchanges() {
        let mut simulation = simulation();
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        block_on(simulation.step(Operation::Join { member: 1 })).unwrap();
        simulation.members[0].active.insert(("0".to_owned(), 1));
        simulation.members[1].active.insert(("0".to_owned(), 1));
        let violation = block_on(simulation.check_group()).unwrap_err();
        assert_eq!(violation.invariant, &oracle::ONE_ACTIVE_OWNER);
        assert_eq!(violation.detail, "task 0_1 owned by m0-0 and m1-0");
        assert_eq!(violation.events, [0, 1]);
        let slice = violation.slice(&simulation.history);
        assert_eq!(slice.lines().count(), 4);
        assert!(slice.starts_with("  [op 1 at 0 ms] m0-0 -> {"), "{slice}");
    }

    #[test]
    fn a_task_active_and_standby_on_one_process_fires() {
        let mut setup = Setup::default();
        setup.members[1].process = 0;
        let mut simulation = simulation_of(EmbeddedTarget::default(), setup);
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        block_on(simulation.step(Operation::Join { member: 1 })).unwrap();
        simulation.members[0].active = BTreeSet::from([("0".to_owned(), 2)]);
        simulation.members[1].standby.insert(("0".to_owned(), 2));
        let violation = block_on(simulation.check_group()).unwrap_err();
        assert_eq!(violation.invariant, &oracle::ROLES_APART);
        assert_eq!(
            violation.detail,
            "process p0: task 0_2 active at m0-0 and standby or warm-up at m1-0"
        );
    }

    #[test]
    fn a_decreasing_epoch_fires_with_both_answers() {
        let mut simulation = simulation();
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        // Pretend the member had been answered a higher epoch than the coordinator knows.
        simulation.last_epoch.insert("m0-0".to_owned(), (9, 0));
        let Err(Halt::Violation(violation)) =
            block_on(simulation.step(Operation::Heartbeat { member: 0 }))
        else {
            panic!("the heartbeat breaks an invariant");
        };
        assert_eq!(violation.invariant, &oracle::EPOCH_NEVER_DECREASES);
        assert_eq!(violation.detail, "m0-0 went from epoch 9 to 2");
        assert_eq!(violation.events, [0, 1]);
    }

    #[test]
    fn a_group_that_cannot_settle_fires() {
        let mut simulation = simulation();
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        // The oracle expects a task the coordinator never heard of.
        simulation.setup.topics[0] += 1;
        let violation = block_on(simulation.settle()).unwrap_err();
        assert_eq!(violation.invariant, &oracle::SETTLES);
        assert_eq!(violation.events.len(), 1);
    }

    /// What goes wrong with a heartbeat's answer.
    #[derive(Clone, Copy)]
    enum Fault {
        /// No answer comes.
        Silence,
        /// The answer loses its last byte.
        Truncation,
    }

    /// The reference, except that heartbeats after the first `intact` meet `fault`, and
    /// creating `refused_topic` fails.
    struct Faulty {
        inner: EmbeddedTarget,
        intact: usize,
        fault: Fault,
        refused_topic: Option<&'static str>,
    }

    impl Faulty {
        fn new(intact: usize, fault: Fault) -> Faulty {
            Faulty {
                inner: EmbeddedTarget::default(),
                intact,
                fault,
                refused_topic: None,
            }
        }
    }

    impl Backend for Faulty {
        async fn call(
            &mut self,
            api: StreamsApi,
            version: i16,
            request: &[u8],
        ) -> BackendResult<Vec<u8>> {
            let faulty = api == StreamsApi::Heartbeat && self.intact == 0;
            if api == StreamsApi::Heartbeat {
                self.intact = self.intact.saturating_sub(1);
            }
            match (faulty, self.fault) {
                (true, Fault::Silence) => Err(BackendError::Transport(TransportError::Timeout {
                    address: "h:1".to_owned(),
                    what: "StreamsGroupHeartbeatRequest v1".to_owned(),
                    after: Duration::from_millis(15_000),
                })),
                (true, Fault::Truncation) => {
                    let mut answer = self.inner.call(api, version, request).await?;
                    answer.pop();
                    Ok(answer)
                }
                (false, _) => self.inner.call(api, version, request).await,
            }
        }
        async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
            if topics
                .iter()
                .any(|(name, _)| Some(name.as_str()) == self.refused_topic)
            {
                return Err(BackendError::Refused {
                    what: "CreateTopics".to_owned(),
                    error_code: 44,
                    message: None,
                });
            }
            self.inner.create_topics(topics).await
        }
        async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
            self.inner.delete_topics(names).await
        }
        async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
            self.inner.sleep(duration).await
        }
        fn now_ms(&self) -> u64 {
            self.inner.now_ms()
        }
    }

    #[test]
    fn an_answer_that_does_not_decode_fires_well_formed() {
        // The set-up's probe join and leave take the first two answers.
        let backend = Faulty::new(3, Fault::Truncation);
        let mut simulation = simulation_of(backend, Setup::default());
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        let Err(Halt::Violation(violation)) =
            block_on(simulation.step(Operation::Heartbeat { member: 0 }))
        else {
            panic!("the heartbeat breaks an invariant");
        };
        assert_eq!(violation.invariant, &oracle::WELL_FORMED);
        assert!(
            violation.detail.starts_with(
                "m0-0 got an answer that does not decode: StreamsGroupHeartbeatResponse v1: "
            ),
            "{}",
            violation.detail
        );
    }

    #[test]
    fn an_unanswered_heartbeat_fires() {
        // The set-up's probe join and leave, then the member's join.
        let cluster = Faulty::new(3, Fault::Silence);
        let mut simulation = simulation_of(cluster, Setup::default());
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        let Err(Halt::Violation(violation)) =
            block_on(simulation.step(Operation::Heartbeat { member: 0 }))
        else {
            panic!("the heartbeat breaks an invariant");
        };
        assert_eq!(violation.invariant, &oracle::ANSWERED);
        assert!(
            violation
                .detail
                .starts_with("m0-0 got no answer: h:1 did not answer StreamsGroupHeartbeatRequest v1 within 15000 ms; request {"),
            "{}",
            violation.detail
        );
    }

    #[test]
    fn a_failed_topic_change_is_an_error_of_the_run_not_a_violation() {
        let cluster = Faulty {
            refused_topic: Some("t0"),
            ..Faulty::new(usize::MAX, Fault::Silence)
        };
        let input = RunInput {
            setup: Setup {
                late_topic: Some(0),
                ..Setup::default()
            },
            operations: vec![Operation::Join { member: 0 }, Operation::CreateLateTopic],
        };
        assert_eq!(
            block_on(execute(
                cluster,
                Names::new(""),
                &input,
                &RunBounds::default()
            ))
            .unwrap_err(),
            "operation 2: creating topic t0: CreateTopics failed with error 44 POLICY_VIOLATION"
        );
    }

    #[test]
    fn a_coordinator_whose_timer_does_not_advance_fires_instead_of_hanging() {
        let cluster = EmbeddedTarget::default()
            .with_timeouts_fired_by(crate::embedded::tests::forget_timeouts);
        let mut simulation = simulation_of(cluster, Setup::default());
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        let Err(Halt::Violation(violation)) =
            block_on(simulation.step(Operation::Advance { ms: 8_000 }))
        else {
            panic!("a stalled timer is the coordinator's fault, a violation");
        };
        assert_eq!(violation.invariant, &oracle::ANSWERED);
        assert_eq!(
            violation.detail,
            "time cannot pass: the coordinator's timer does not advance: after handle_timeout at 6000 ms its next deadline is still 6000 ms"
        );
    }

    #[test]
    fn a_restarted_member_joins_with_a_new_id_and_a_fenced_one_with_its_old() {
        let mut simulation = simulation();
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        block_on(simulation.step(Operation::Leave { member: 0 })).unwrap();
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        assert_eq!(simulation.history[2].member, "m0-1");
        simulation.members[0].forget();
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        assert_eq!(simulation.history[3].member, "m0-1");
    }

    #[test]
    fn a_static_member_leaves_with_minus_two() {
        let mut setup = Setup::default();
        setup.members[0].static_member = true;
        let mut simulation = simulation_of(EmbeddedTarget::default(), setup);
        block_on(simulation.step(Operation::Join { member: 0 })).unwrap();
        block_on(simulation.step(Operation::StaticLeave { member: 0 })).unwrap();
        let leave = &simulation.history[1];
        assert_eq!(leave.request.member_epoch, -2);
        assert_eq!(leave.request.instance_id.as_deref(), Some("i0"));
        assert_eq!(leave.response.error_code, 0);
        assert_eq!(leave.response.member_epoch, -2);
    }

    #[test]
    fn a_run_replays_to_the_same_trace() {
        let input = RunInput::from_bytes(&run_bytes(3, 1, 800));
        let first = run_in_process(&input);
        let second = run_in_process(&input);
        assert!(first.history.len() > 20);
        assert_eq!(
            trace_hash(&first.history, ""),
            trace_hash(&second.history, "")
        );
    }
}
