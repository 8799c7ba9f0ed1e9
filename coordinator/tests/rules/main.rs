//! Conformance tests of the reference coordinator, one or more per rule of section 12 of
//! `shared/spec/streams-rebalance-protocol.md` (`r25_...` tests rule R25), a module per group of
//! rules.
//!
//! Expected values are Apache Kafka 4.4.0's. Where the spec and the broker differ, the scenarios in
//! `harness/scenarios/**` (verified against a real 4.4.0 broker) decide: error responses carry
//! Status [] rather than null, a new group's first epoch is 2, v0 responses carry
//! AcceptableRecoveryLagLegacy 0, a leave from a missing group says "Group g not found.".
//!
//! Unless a test says otherwise: group "g", topic `in` with 2 partitions, the topology
//! S = {"0": ["in"]} at epoch 0, Kafka's default group configs with the initial rebalance delay
//! off, and heartbeats at version 1.

mod describe_groups;
mod reconciliation;
mod resolution;
mod shutdown_endpoints;
mod standbys;
mod static_membership;
mod topics;
mod validation;
mod versions;

use streamspec_coordinator::access::{Operation, Resource};
use streamspec_coordinator::{
    ClusterMetadata, Coordinator, CoordinatorConfig, Effect, RemovalReason, RequestContext,
    TopicToCreate,
};
use streamspec_protocol::codes::{
    ERROR_FENCED_INSTANCE_ID, ERROR_FENCED_MEMBER_EPOCH, ERROR_GROUP_AUTHORIZATION_FAILED,
    ERROR_GROUP_ID_NOT_FOUND, ERROR_GROUP_MAX_SIZE_REACHED, ERROR_INVALID_REQUEST,
    ERROR_STREAMS_INVALID_TOPOLOGY, ERROR_TOPIC_AUTHORIZATION_FAILED, ERROR_UNKNOWN_MEMBER_ID,
    ERROR_UNKNOWN_SERVER_ERROR, ERROR_UNRELEASED_INSTANCE_ID,
};
use streamspec_protocol::kafka::streams_group_describe_response as describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    CopartitionGroup, Endpoint, Subtopology, TaskIds, TopicInfo, Topology,
};
use streamspec_protocol::kafka::streams_group_heartbeat_response as response;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};

type Request = StreamsGroupHeartbeatRequest;
type Response = StreamsGroupHeartbeatResponse;

const GROUP: &str = "g";

/// Tasks as (subtopology, partitions), e.g. `&[("0", &[0, 1])]`.
type Tasks<'a> = &'a [(&'a str, &'a [i32])];

const NONE: Tasks<'static> = &[];
const BOTH: Tasks<'static> = &[("0", &[0, 1])];
const FIRST: Tasks<'static> = &[("0", &[0])];
const SECOND: Tasks<'static> = &[("0", &[1])];

const SHUTDOWN_BY_A: &str =
    "Streams group member a encountered a fatal error and requested a shutdown for the entire application.";

// ---------------------------------------------------------------------------------------------
// Requests

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|name| (*name).to_owned()).collect()
}

fn subtopology(id: &str, sources: &[&str]) -> Subtopology {
    Subtopology::default()
        .with_subtopology_id(id)
        .with_source_topics(names(sources))
}

/// A topic whose partition count the coordinator derives (Partitions 0).
fn internal_topic(name: &str) -> TopicInfo {
    TopicInfo::default().with_name(name)
}

fn topology(epoch: i32, subtopologies: Vec<Subtopology>) -> Topology {
    Topology::default()
        .with_epoch(epoch)
        .with_subtopologies(subtopologies)
}

/// S: one subtopology "0" reading `in`.
fn topology_s() -> Topology {
    topology(0, vec![subtopology("0", &["in"])])
}

fn task_ids(tasks: Tasks) -> Vec<TaskIds> {
    tasks
        .iter()
        .map(|(subtopology, partitions)| {
            TaskIds::default()
                .with_subtopology_id(*subtopology)
                .with_partitions(partitions.to_vec())
        })
        .collect()
}

/// Join(m): epoch 0, RebalanceTimeoutMs 30000, empty task lists, topology S, ProcessId "p-m".
fn join(member: &str) -> Request {
    Request::default()
        .with_group_id(GROUP)
        .with_member_id(member)
        .with_member_epoch(0)
        .with_rebalance_timeout_ms(30_000)
        .with_topology(Some(topology_s()))
        .with_active_tasks(Some(Vec::new()))
        .with_standby_tasks(Some(Vec::new()))
        .with_warmup_tasks(Some(Vec::new()))
        .with_process_id(Some(format!("p-{member}")))
}

/// Join(m) of a static member.
fn static_join(member: &str, instance: &str) -> Request {
    join(member).with_instance_id(Some(instance.to_owned()))
}

/// A heartbeat at `epoch` with everything else null (owned task lists too).
fn heartbeat(member: &str, epoch: i32) -> Request {
    Request::default()
        .with_group_id(GROUP)
        .with_member_id(member)
        .with_member_epoch(epoch)
}

/// `request` reporting `active` as owned, with empty standby and warm-up lists.
fn owning(request: Request, active: Tasks) -> Request {
    request
        .with_active_tasks(Some(task_ids(active)))
        .with_standby_tasks(Some(Vec::new()))
        .with_warmup_tasks(Some(Vec::new()))
}

fn leave(member: &str) -> Request {
    heartbeat(member, -1)
}

fn static_leave(member: &str, instance: &str) -> Request {
    heartbeat(member, -2).with_instance_id(Some(instance.to_owned()))
}

// ---------------------------------------------------------------------------------------------
// Expected responses

/// A successful join or heartbeat answer at v1 with Kafka's default group configs; task lists null.
fn answer(member: &str, epoch: i32) -> Response {
    Response::default()
        .with_error_code(0)
        .with_error_message(None)
        .with_member_id(member)
        .with_member_epoch(epoch)
        .with_heartbeat_interval_ms(5_000)
        .with_acceptable_recovery_lag_legacy(0)
        .with_task_offset_interval_ms(60_000)
        .with_acceptable_recovery_lag(10_000)
        .with_status(Some(Vec::new()))
        .with_active_tasks(None)
        .with_standby_tasks(None)
        .with_warmup_tasks(None)
        .with_topology_description_required(false)
        .with_endpoint_information_epoch(0)
        .with_partitions_by_user_endpoint(None)
}

/// The answer to a leave (-1 or -2).
fn left(member: &str, epoch: i32) -> Response {
    answer(member, epoch)
        .with_heartbeat_interval_ms(0)
        .with_task_offset_interval_ms(0)
        .with_acceptable_recovery_lag(-1)
}

/// An error answer: code and message, every other field at its schema default, Status [] (4.4.0).
fn refused(code: i16, message: &str) -> Response {
    left("", 0)
        .with_error_code(code)
        .with_error_message(Some(message.to_owned()))
}

trait Expect {
    /// All three task lists sent: `active`, and empty standby and warm-up lists.
    fn tasks(self, active: Tasks) -> Self;
    fn standbys(self, standby: Tasks) -> Self;
    fn statuses(self, statuses: &[(i8, &str)]) -> Self;
}

fn response_tasks(tasks: Tasks) -> Vec<response::TaskIds> {
    tasks
        .iter()
        .map(|(subtopology, partitions)| {
            response::TaskIds::default()
                .with_subtopology_id(*subtopology)
                .with_partitions(partitions.to_vec())
        })
        .collect()
}

impl Expect for Response {
    fn tasks(self, active: Tasks) -> Self {
        self.with_active_tasks(Some(response_tasks(active)))
            .with_standby_tasks(Some(Vec::new()))
            .with_warmup_tasks(Some(Vec::new()))
    }

    fn standbys(self, standby: Tasks) -> Self {
        self.with_standby_tasks(Some(response_tasks(standby)))
    }

    fn statuses(self, statuses: &[(i8, &str)]) -> Self {
        let statuses = statuses
            .iter()
            .map(|(code, detail)| {
                response::Status::default()
                    .with_status_code(*code)
                    .with_status_detail(*detail)
            })
            .collect();
        self.with_status(Some(statuses))
    }
}

fn fenced(kind: &str, request_epoch: i32, member_epoch: i32) -> Response {
    refused(
        ERROR_FENCED_MEMBER_EPOCH,
        &format!(
            "The streams group member has a {kind} member epoch ({request_epoch}) than the one known by the group coordinator ({member_epoch}). The member must abandon all its partitions and rejoin."
        ),
    )
}

fn not_a_member(member: &str) -> Response {
    refused(
        ERROR_UNKNOWN_MEMBER_ID,
        &format!("Member {member} is not a member of group g."),
    )
}

// ---------------------------------------------------------------------------------------------
// What describe says, in a comparable form

type TaskList = Vec<(String, Vec<i32>)>;

fn task_list(tasks: Tasks) -> TaskList {
    tasks
        .iter()
        .map(|(subtopology, partitions)| ((*subtopology).to_owned(), partitions.to_vec()))
        .collect()
}

/// Describe's task list, by subtopology id (Kafka does not define that order).
fn described_tasks(tasks: &[describe::TaskIds]) -> TaskList {
    let mut list: TaskList = tasks
        .iter()
        .map(|t| (t.subtopology_id.clone(), t.partitions.clone()))
        .collect();
    list.sort();
    list
}

/// A described member: id, epoch, and its assignment and target as [active, standby, warm-up].
#[derive(Debug, PartialEq)]
struct MemberView {
    id: String,
    epoch: i32,
    assignment: [TaskList; 3],
    target: [TaskList; 3],
}

/// A member with active tasks only.
fn member(id: &str, epoch: i32, assigned: Tasks, target: Tasks) -> MemberView {
    MemberView {
        id: id.to_owned(),
        epoch,
        assignment: [task_list(assigned), Vec::new(), Vec::new()],
        target: [task_list(target), Vec::new(), Vec::new()],
    }
}

fn assignment_view(assignment: &describe::Assignment) -> [TaskList; 3] {
    [
        described_tasks(&assignment.active_tasks),
        described_tasks(&assignment.standby_tasks),
        described_tasks(&assignment.warmup_tasks),
    ]
}

#[derive(Debug, PartialEq)]
struct GroupView {
    state: String,
    epoch: i32,
    assignment_epoch: i32,
    members: Vec<MemberView>,
}

fn group(state: &str, epoch: i32, assignment_epoch: i32, members: Vec<MemberView>) -> GroupView {
    GroupView {
        state: state.to_owned(),
        epoch,
        assignment_epoch,
        members,
    }
}

// ---------------------------------------------------------------------------------------------
// The coordinator under test, with a clock

#[derive(Debug)]
struct Broker {
    coordinator: Coordinator,
    now_ms: u64,
    /// The client every request comes from, with what the authorizer lets it do.
    client: RequestContext,
}

fn topics(list: &[(&str, i32)]) -> ClusterMetadata {
    list.iter().fold(
        ClusterMetadata::default(),
        |metadata, (name, partitions)| metadata.with_topic(*name, *partitions),
    )
}

/// Kafka's default group configs, with the initial rebalance delay off (section 12's setting).
/// Kafka's defaults with no initial delay and no assignment interval, as section 12 of the spec
/// assumes.
fn kafka_config() -> CoordinatorConfig {
    CoordinatorConfig {
        initial_rebalance_delay_ms: 0,
        assignment_interval_ms: 0,
        ..CoordinatorConfig::default()
    }
}

fn context() -> RequestContext {
    RequestContext::new("client", "/127.0.0.1")
}

impl Broker {
    /// Kafka's default configs (no initial delay) and topic `in` with 2 partitions.
    fn new() -> Self {
        Broker::with(kafka_config(), topics(&[("in", 2)]))
    }

    fn with(config: CoordinatorConfig, metadata: ClusterMetadata) -> Self {
        let mut coordinator = Coordinator::new(config);
        coordinator.handle_metadata(metadata);
        Broker {
            coordinator,
            now_ms: 0,
            client: context(),
        }
    }

    /// Takes `operation` on `resource` away from the client, as an ACL would.
    fn deny(&mut self, operation: Operation, resource: Resource) {
        self.client.permissions.deny(operation, resource);
    }

    /// Sends a v1 heartbeat that must cause no effects.
    fn send(&mut self, request: &Request) -> Response {
        self.send_version(1, request)
    }

    fn send_version(&mut self, version: i16, request: &Request) -> Response {
        let (answer, effects) = self.exchange(version, request);
        assert!(effects.is_empty(), "unexpected effects {effects:?}");
        answer
    }

    fn exchange(&mut self, version: i16, request: &Request) -> (Response, Vec<Effect>) {
        self.coordinator
            .handle_heartbeat(self.now_ms, &self.client, version, request)
    }

    fn describe(&self, group_ids: &[&str]) -> Vec<describe::DescribedGroup> {
        let request = StreamsGroupDescribeRequest::default().with_group_ids(names(group_ids));
        self.coordinator
            .handle_describe(&self.client, &request)
            .groups
    }

    /// Describe of group "g", which must succeed.
    fn described(&self) -> describe::DescribedGroup {
        let mut groups = self.describe(&[GROUP]);
        assert_eq!(groups.len(), 1);
        let entry = groups.remove(0);
        assert_eq!(
            (entry.error_code, entry.error_message.as_deref()),
            (0, None)
        );
        entry
    }

    fn view(&self) -> GroupView {
        let entry = self.described();
        let mut members: Vec<MemberView> = entry
            .members
            .iter()
            .map(|m| MemberView {
                id: m.member_id.clone(),
                epoch: m.member_epoch,
                assignment: assignment_view(&m.assignment),
                target: assignment_view(&m.target_assignment),
            })
            .collect();
        members.sort_by(|a, b| a.id.cmp(&b.id));
        // The group's own epochs, which a library user reads in process, are describe's.
        let group = self
            .coordinator
            .group(GROUP)
            .expect("describe found group g");
        assert_eq!(
            (group.epoch(), group.assignment_epoch()),
            (entry.group_epoch, entry.assignment_epoch)
        );
        GroupView {
            state: entry.group_state,
            epoch: entry.group_epoch,
            assignment_epoch: entry.assignment_epoch,
            members,
        }
    }

    /// (state, group epoch, assignment epoch) of group "g".
    fn state(&self) -> (String, i32, i32) {
        let view = self.view();
        (view.state, view.epoch, view.assignment_epoch)
    }

    /// Member ids and epochs of group "g", by id.
    fn member_epochs(&self) -> Vec<(String, i32)> {
        self.view()
            .members
            .into_iter()
            .map(|m| (m.id, m.epoch))
            .collect()
    }

    /// Describe says group "g" does not exist.
    fn assert_no_group(&self) {
        let entries = self.describe(&[GROUP]);
        let found: Vec<(i16, Option<&str>)> = entries
            .iter()
            .map(|e| (e.error_code, e.error_message.as_deref()))
            .collect();
        assert_eq!(
            found,
            [(ERROR_GROUP_ID_NOT_FOUND, Some("Group g not found."))]
        );
    }
}

/// a and b after the reconciliation dance of R27: both at epoch 3, a owns task 0 (previous epoch
/// 2), b owns task 1.
fn rebalanced_pair() -> Broker {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")).error_code, 0);
    b_joins_and_they_settle(&mut broker);
    broker
}

/// With a alone at epoch 2 owning both tasks: b joins, a gives up task 1, b takes it; the group
/// is then [`settled_pair`].
fn b_joins_and_they_settle(broker: &mut Broker) {
    for request in [
        join("b"),
        heartbeat("a", 2),
        owning(heartbeat("a", 2), FIRST),
        heartbeat("b", 3),
    ] {
        assert_eq!(broker.send(&request).error_code, 0);
    }
    assert_eq!(broker.view(), settled_pair());
}

/// The effect of a heartbeat that has internal topic `name` created with `partitions`.
fn creating(name: &str, partitions: i32) -> Vec<Effect> {
    vec![Effect::CreateTopics(vec![TopicToCreate {
        name: name.to_owned(),
        partitions,
        replication_factor: -1,
        configs: Vec::new(),
    }])]
}

fn settled_pair() -> GroupView {
    group(
        "Stable",
        3,
        3,
        vec![member("a", 3, FIRST, FIRST), member("b", 3, SECOND, SECOND)],
    )
}

// ---------------------------------------------------------------------------------------------
// Topologies several groups of rules use

fn reading(sources: &[&str]) -> Topology {
    topology(0, vec![subtopology("0", sources)])
}

/// Topology of R34: "0" reads `in` and writes repartition topic `r`, which "1" reads.
fn through_repartition_topic() -> Topology {
    topology(
        0,
        vec![
            subtopology("0", &["in"]).with_repartition_sink_topics(names(&["r"])),
            subtopology("1", &[]).with_repartition_source_topics(vec![internal_topic("r")]),
        ],
    )
}

/// a joins with a topology through repartition topic `r`, which is missing: it gets status
/// MISSING_INTERNAL_TOPICS and no tasks, and the cluster is asked to create `r` with 2 partitions.
fn join_through_missing_repartition_topic(broker: &mut Broker) {
    let (first, effects) = broker.exchange(
        1,
        &join("a").with_topology(Some(through_repartition_topic())),
    );
    assert_eq!(
        first,
        answer("a", 2)
            .tasks(NONE)
            .statuses(&[(3, "Internal topics are missing: r")])
    );
    assert_eq!(effects, creating("r", 2));
}
