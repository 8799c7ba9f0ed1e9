//! Conformance tests of the reference coordinator, one or more per rule of section 12 of
//! `shared/spec/streams-rebalance-protocol.md` (`r25_...` tests rule R25).
//!
//! Expected values are Apache Kafka 4.4.0's. Where the spec and the broker differ, the scenarios in
//! `harness/scenarios/**` (verified against a real 4.4.0 broker) decide: error responses carry
//! Status [] rather than null, a new group's first epoch is 2, v0 responses carry
//! AcceptableRecoveryLagLegacy 0, a leave from a missing group says "Group g not found.".
//!
//! Unless a test says otherwise: group "g", topic `in` with 2 partitions, the topology
//! S = {"0": ["in"]} at epoch 0, Kafka's default group configs with the initial rebalance delay
//! off, and heartbeats at version 1.

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
    for request in [
        join("a"),
        join("b"),
        heartbeat("a", 2),
        owning(heartbeat("a", 2), FIRST),
        heartbeat("b", 3),
    ] {
        assert_eq!(broker.send(&request).error_code, 0);
    }
    assert_eq!(broker.view(), settled_pair());
    broker
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
// Validation (R1-R16)

#[test]
fn r1_blank_member_id_is_invalid_and_creates_nothing() {
    let mut broker = Broker::new();
    for blank in ["", "  "] {
        assert_eq!(
            broker.send(&join(blank)),
            refused(ERROR_INVALID_REQUEST, "MemberId can't be empty.")
        );
    }
    broker.assert_no_group();
}

#[test]
fn r3_join_without_rebalance_timeout_is_invalid_but_other_negative_values_pass() {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&join("a").with_rebalance_timeout_ms(-1)),
        refused(
            ERROR_INVALID_REQUEST,
            "RebalanceTimeoutMs must be provided in first request."
        )
    );
    broker.assert_no_group();
    assert_eq!(
        broker.send(&join("a").with_rebalance_timeout_ms(-5)),
        answer("a", 2).tasks(BOTH)
    );
}

#[test]
fn r3_rebalance_timeout_is_checked_before_task_lists_and_topology() {
    let mut broker = Broker::new();
    let request = join("a")
        .with_rebalance_timeout_ms(-1)
        .with_active_tasks(None)
        .with_topology(None);
    assert_eq!(
        broker.send(&request),
        refused(
            ERROR_INVALID_REQUEST,
            "RebalanceTimeoutMs must be provided in first request."
        )
    );
}

#[test]
fn r4_join_task_lists_must_be_empty_and_refused_joins_write_nothing() {
    let mut broker = Broker::new();
    let cases = [
        (
            join("a").with_active_tasks(None),
            "ActiveTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_active_tasks(Some(task_ids(FIRST))),
            "ActiveTasks must be empty when (re-)joining.",
        ),
        (
            join("a")
                .with_active_tasks(None)
                .with_standby_tasks(None)
                .with_topology(None),
            "ActiveTasks must be empty when (re-)joining.",
        ),
        (
            join("b").with_standby_tasks(None),
            "StandbyTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_standby_tasks(Some(task_ids(FIRST))),
            "StandbyTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_warmup_tasks(None).with_topology(None),
            "WarmupTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_warmup_tasks(Some(task_ids(FIRST))),
            "WarmupTasks must be empty when (re-)joining.",
        ),
    ];
    for (request, message) in cases {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, message)
        );
    }
    broker.assert_no_group();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
}

#[test]
fn r7_member_epoch_below_minus_two_is_invalid_before_any_group_lookup() {
    let mut broker = Broker::new();
    for epoch in [-3, i32::MIN] {
        assert_eq!(
            broker.send(&heartbeat("a", epoch)),
            refused(
                ERROR_INVALID_REQUEST,
                &format!("MemberEpoch is {epoch}, but must be greater than or equal to -2.")
            )
        );
    }
    // Checked before the all-or-none (R9) and topology (R10) checks.
    let request = heartbeat("a", -3)
        .with_active_tasks(Some(Vec::new()))
        .with_topology(Some(topology_s()));
    assert_eq!(
        broker.send(&request),
        refused(
            ERROR_INVALID_REQUEST,
            "MemberEpoch is -3, but must be greater than or equal to -2."
        )
    );
    broker.assert_no_group();
}

#[test]
fn r7_refused_epoch_of_an_existing_member_changes_nothing() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&heartbeat("a", -3)),
        refused(
            ERROR_INVALID_REQUEST,
            "MemberEpoch is -3, but must be greater than or equal to -2."
        )
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r9_task_lists_are_all_null_or_all_non_null() {
    const MESSAGE: &str = "If one task-type is non-null, all must be non-null.";
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&heartbeat("a", 5).with_active_tasks(Some(Vec::new()))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    // Before the topology check (R10).
    let with_topology = heartbeat("a", 5)
        .with_active_tasks(Some(Vec::new()))
        .with_topology(Some(topology_s()));
    assert_eq!(
        broker.send(&with_topology),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    assert_eq!(
        broker.send(&leave("a").with_standby_tasks(Some(Vec::new()))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_warmup_tasks(Some(Vec::new()))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    let warmup_null = heartbeat("a", 2)
        .with_active_tasks(Some(task_ids(BOTH)))
        .with_standby_tasks(Some(Vec::new()));
    assert_eq!(
        broker.send(&warmup_null),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
}

#[test]
fn r10_topology_only_on_join() {
    const MESSAGE: &str = "Topology can only be provided when (re-)joining.";
    let mut broker = Broker::new();
    let with_topology = |request: Request| request.with_topology(Some(topology_s()));
    for request in [
        with_topology(heartbeat("a", 5)),
        with_topology(leave("a")),
        with_topology(static_leave("a", "i1")),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, MESSAGE)
        );
    }
    // The changelog check (R6) is a join check: an epoch-5 changelog count gets 42, not 130.
    let changelog = topology(
        0,
        vec![subtopology("0", &["in"])
            .with_state_changelog_topics(vec![internal_topic("chg").with_partitions(3)])],
    );
    assert_eq!(
        broker.send(&heartbeat("a", 5).with_topology(Some(changelog))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&with_topology(heartbeat("a", 2))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

fn with_regex(regex: &[&str]) -> Topology {
    topology(
        0,
        vec![subtopology("0", &["in"]).with_source_topic_regex(names(regex))],
    )
}

#[test]
fn r13_source_topic_regex_is_unsupported_before_the_structural_checks() {
    const MESSAGE: &str = "Regular expressions for source topics are not supported yet.";
    let mut broker = Broker::new();
    let changelog_3 = topology(
        0,
        vec![subtopology("0", &["in"])
            .with_source_topic_regex(names(&["a.*"]))
            .with_state_changelog_topics(vec![internal_topic("chg").with_partitions(3)])],
    );
    let regex_in_second = topology(
        0,
        vec![
            subtopology("0", &["in"]),
            subtopology("1", &[]).with_source_topic_regex(names(&["x.*"])),
        ],
    );
    for request in [
        join("a").with_topology(Some(with_regex(&["a.*"]))),
        join("a").with_topology(Some(regex_in_second)),
        join("").with_topology(Some(with_regex(&["a.*"]))),
        join("a")
            .with_group_id("")
            .with_topology(Some(with_regex(&["a.*"]))),
        heartbeat("a", 5).with_topology(Some(with_regex(&["a.*"]))),
        join("a").with_topology(Some(changelog_3)),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, MESSAGE)
        );
    }
    broker.assert_no_group();
    assert_eq!(
        broker.send(&join("a").with_topology(Some(with_regex(&[])))),
        answer("a", 2).tasks(BOTH)
    );
}

fn reading(sources: &[&str]) -> Topology {
    topology(0, vec![subtopology("0", sources)])
}

#[test]
fn r16_kafka_internal_topics_are_prohibited_before_every_other_check() {
    let offsets = "Use of Kafka internal topics __consumer_offsets in a Kafka Streams topology is prohibited.";
    let mut broker = Broker::new();
    let internal = || Some(reading(&["__consumer_offsets"]));
    for request in [
        join("a").with_topology(internal()),
        heartbeat("a", 5).with_topology(internal()),
        leave("a").with_topology(internal()),
        join("").with_topology(internal()),
        join("a").with_group_id("").with_topology(internal()),
        heartbeat("a", -3).with_topology(internal()),
        // Before the topic-name check (R17).
        join("a").with_topology(Some(reading(&["bad topic", "__consumer_offsets"]))),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_STREAMS_INVALID_TOPOLOGY, offsets)
        );
    }
    broker.assert_no_group();
}

#[test]
fn r16_every_internal_topic_is_named_once_in_topology_order() {
    let both = "Use of Kafka internal topics __transaction_state,__consumer_offsets in a Kafka Streams topology is prohibited.";
    let mut broker = Broker::new();
    let sources = reading(&[
        "__transaction_state",
        "__consumer_offsets",
        "__consumer_offsets",
    ]);
    let sink_and_changelog = topology(
        0,
        vec![subtopology("0", &["in"])
            .with_repartition_sink_topics(names(&["__transaction_state"]))
            .with_state_changelog_topics(vec![internal_topic("__consumer_offsets")])],
    );
    for topology in [sources, sink_and_changelog] {
        assert_eq!(
            broker.send(&join("a").with_topology(Some(topology))),
            refused(ERROR_STREAMS_INVALID_TOPOLOGY, both)
        );
    }
    assert_eq!(
        broker.send(&join("a").with_topology(Some(reading(&["__share_group_state"])))),
        refused(
            ERROR_STREAMS_INVALID_TOPOLOGY,
            "Use of Kafka internal topics __share_group_state in a Kafka Streams topology is prohibited."
        )
    );
}

#[test]
fn r18_without_read_on_the_group_every_heartbeat_is_refused_bare() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.deny(Operation::Read, Resource::Group(GROUP.to_owned()));
    let refused_bare = left("", 0).with_error_code(ERROR_GROUP_AUTHORIZATION_FAILED);
    for request in [
        heartbeat("a", 2),
        join("b"),
        leave("a"),
        // Before every validation check (R1, R16).
        join(""),
        join("c").with_topology(Some(reading(&["__consumer_offsets"]))),
    ] {
        assert_eq!(broker.send(&request), refused_bare);
    }
    assert_eq!(broker.member_epochs(), [("a".to_owned(), 2)]);
    // Another group is not affected.
    let other_group = broker.send(&join("a").with_group_id("h"));
    assert_eq!(
        (other_group.error_code, other_group.member_epoch),
        (0, 2),
        "group h"
    );
}

#[test]
fn r18_topics_the_client_may_not_describe_refuse_a_topology_after_the_name_checks() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("out", 2)]));
    broker.deny(Operation::Describe, Resource::Topic("out".to_owned()));
    let writes_out = topology(
        0,
        vec![subtopology("0", &["in"]).with_repartition_sink_topics(names(&["out"]))],
    );
    assert_eq!(
        broker.send(&join("a").with_topology(Some(writes_out))),
        left("", 0).with_error_code(ERROR_TOPIC_AUTHORIZATION_FAILED)
    );
    broker.assert_no_group();
    // The internal-topic check (R16) comes first.
    assert_eq!(
        broker.send(&join("a").with_topology(Some(reading(&["out", "__consumer_offsets"])))),
        refused(
            ERROR_STREAMS_INVALID_TOPOLOGY,
            "Use of Kafka internal topics __consumer_offsets in a Kafka Streams topology is prohibited."
        )
    );
    // Requests without a topology name no topic.
    broker.send(&join("a"));
    broker.deny(Operation::Describe, Resource::Topic("in".to_owned()));
    assert_eq!(broker.send(&heartbeat("a", 2)).error_code, 0);
}

#[test]
fn r34_internal_topics_the_client_may_not_create_are_left_out_and_named() {
    let mut broker = Broker::new();
    broker.deny(Operation::Create, Resource::Topic("r".to_owned()));
    // CREATE on the cluster allows every topic.
    join_through_missing_repartition_topic(&mut broker);

    let mut broker = Broker::new();
    broker.deny(Operation::Create, Resource::Cluster);
    broker.deny(Operation::Create, Resource::Topic("r".to_owned()));
    let (first, effects) = broker.exchange(
        1,
        &join("a").with_topology(Some(through_repartition_topic())),
    );
    assert_eq!(
        first,
        answer("a", 2).tasks(NONE).statuses(&[(
            3,
            "Internal topics are missing: r; Unauthorized to CREATE on topics r."
        )])
    );
    assert_eq!(effects, []);
}

#[test]
fn r47_describe_puts_refused_groups_first_and_withholds_groups_using_hidden_topics() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.send(&join("a").with_group_id("h"));
    broker.deny(Operation::Describe, Resource::Group("h".to_owned()));
    let entries: Vec<(String, i16)> = broker
        .describe(&["missing", GROUP, "h"])
        .into_iter()
        .map(|entry| (entry.group_id, entry.error_code))
        .collect();
    assert_eq!(
        entries,
        [
            ("h".to_owned(), ERROR_GROUP_AUTHORIZATION_FAILED),
            ("missing".to_owned(), ERROR_GROUP_ID_NOT_FOUND),
            (GROUP.to_owned(), 0)
        ]
    );

    broker.deny(Operation::Describe, Resource::Topic("in".to_owned()));
    let withheld = broker.describe(&[GROUP]).remove(0);
    assert_eq!(
        withheld,
        describe::DescribedGroup::default()
            .with_group_id(GROUP.to_owned())
            .with_error_code(ERROR_TOPIC_AUTHORIZATION_FAILED)
            .with_error_message(Some(
                "The described group uses topics that the client is not authorized to describe."
                    .to_owned()
            ))
    );
    assert_eq!(withheld.authorized_operations, i32::MIN);
}

// ---------------------------------------------------------------------------------------------
// Group and member resolution (R20-R24)

#[test]
fn r19_a_consumer_groups_id_is_not_a_streams_group() {
    let mut broker = Broker::new();
    broker.coordinator.add_consumer_group(GROUP);
    let not_streams = refused(ERROR_GROUP_ID_NOT_FOUND, "Group g is not a streams group.");
    for request in [
        join("a"),
        heartbeat("a", 3),
        leave("a"),
        static_leave("a", "i-a"),
    ] {
        assert_eq!(broker.send(&request), not_streams);
    }
    // Validation comes first.
    assert_eq!(
        broker.send(&join("")),
        refused(ERROR_INVALID_REQUEST, "MemberId can't be empty.")
    );
    let described = broker.describe(&[GROUP]).remove(0);
    assert_eq!(
        (described.error_code, described.error_message.as_deref()),
        (
            ERROR_GROUP_ID_NOT_FOUND,
            Some("Group g is not a streams group.")
        )
    );
}

#[test]
fn r20_heartbeat_or_leave_on_a_missing_group_is_group_id_not_found() {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&heartbeat("a", 3)),
        refused(ERROR_GROUP_ID_NOT_FOUND, "Streams group g not found.")
    );
    // 4.4.0 words the leave answers without "Streams".
    for request in [leave("a"), static_leave("a", "i-a")] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_GROUP_ID_NOT_FOUND, "Group g not found.")
        );
    }
    broker.assert_no_group();
}

#[test]
fn r21_unknown_member_is_refused_and_the_group_is_untouched() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    for request in [heartbeat("x", 3), heartbeat("x", 2), leave("x")] {
        assert_eq!(broker.send(&request), not_a_member("x"));
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r23_greater_epoch_is_fenced_and_writes_nothing() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.send(&heartbeat("a", 3)), fenced("greater", 3, 2));
    assert_eq!(broker.send(&heartbeat("a", 100)), fenced("greater", 100, 2));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), BOTH)),
        fenced("greater", 3, 2)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r24_previous_epoch_with_owned_subset_is_tolerated() {
    let mut broker = rebalanced_pair();
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 3)
    );
    assert_eq!(broker.view(), settled_pair());
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 3));
}

#[test]
fn r24_smaller_epoch_otherwise_is_fenced() {
    let mut broker = rebalanced_pair();
    let cases = [
        // previous epoch - 1
        (owning(heartbeat("a", 1), FIRST), 1),
        // task 1 is b's
        (owning(heartbeat("a", 2), SECOND), 2),
        // a superset of a's assignment
        (owning(heartbeat("a", 2), BOTH), 2),
        // 4.4.0: null owned lists do not make a previous-epoch heartbeat acceptable
        (heartbeat("a", 2), 2),
    ];
    for (request, epoch) in cases {
        assert_eq!(broker.send(&request), fenced("smaller", epoch, 3));
    }
    assert_eq!(broker.view(), settled_pair());
}

// ---------------------------------------------------------------------------------------------
// Join, assignment, reconciliation (R25-R40)

#[test]
fn r25_first_member_gets_epoch_2_and_every_task() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

/// Kafka 4.4.0 hands its assignor the members in the order of a HashMap filled from the group's
/// member map, a `TimelineHashMap`: "m1-1" and "m2-0" share a HashMap bucket, and the member map
/// iterates m2-0 first, so m2-0 is the first to get a task.
#[test]
fn r25_members_of_one_process_are_assigned_in_kafkas_member_map_order() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    for (member, epoch) in [("m1-1", 2), ("m2-0", 3)] {
        assert_eq!(
            broker.send(&join(member).with_process_id(Some("p".to_owned()))),
            answer(member, epoch).tasks(NONE).statuses(&missing)
        );
    }
    broker.coordinator.handle_metadata(topics(&[("in", 2)]));
    assert_eq!(
        broker.send(&heartbeat("m1-1", 2)),
        answer("m1-1", 4).tasks(SECOND)
    );
    assert_eq!(
        broker.send(&heartbeat("m2-0", 3)),
        answer("m2-0", 4).tasks(FIRST)
    );
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            4,
            4,
            vec![
                member("m1-1", 4, SECOND, SECOND),
                member("m2-0", 4, FIRST, FIRST)
            ]
        )
    );
}

#[test]
fn r26_unchanged_assignment_is_answered_with_null_task_lists() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

#[test]
fn r27_revocation_before_assignment() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));

    // b's target task 1 is withheld while a holds it.
    assert_eq!(broker.send(&join("b")), answer("b", 3).tasks(NONE));
    assert_eq!(
        broker.view().members,
        [member("a", 2, BOTH, FIRST), member("b", 3, NONE, SECOND)]
    );

    // a learns its reduced assignment and keeps its epoch until it confirms.
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2).tasks(FIRST));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
    // R28: task 1, pending revocation on a, is in nobody's assignment.
    assert_eq!(
        broker.view().members,
        [member("a", 2, FIRST, FIRST), member("b", 3, NONE, SECOND)]
    );

    // a confirms: epoch 3, its assigned tasks did not change in this heartbeat.
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    assert_eq!(
        broker.view().members,
        [member("a", 3, FIRST, FIRST), member("b", 3, NONE, SECOND)]
    );

    // Only now does b receive the released task.
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND)
    );
    assert_eq!(broker.view(), settled_pair());
}

#[test]
fn r48_group_states_through_a_two_member_rebalance() {
    let mut broker = Broker::new();
    let steps = [
        (join("a"), "Stable", 2, 2),
        (join("b"), "Reconciling", 3, 3),
        (heartbeat("a", 2), "Reconciling", 3, 3),
        (owning(heartbeat("a", 2), FIRST), "Reconciling", 3, 3),
        (heartbeat("b", 3), "Stable", 3, 3),
        (leave("b"), "Assigning", 4, 3),
        (heartbeat("a", 3), "Stable", 4, 4),
        (leave("a"), "Empty", 5, 5),
    ];
    for (request, state, epoch, assignment_epoch) in steps {
        assert_eq!(broker.send(&request).error_code, 0);
        assert_eq!(
            broker.state(),
            (state.to_owned(), epoch, assignment_epoch),
            "after {} at epoch {}",
            request.member_id,
            request.member_epoch
        );
    }
}

#[test]
fn r29_unconfirmed_revocation_is_removed_at_the_rebalance_deadline() {
    let mut broker = Broker::new();
    broker.send(&join("a").with_rebalance_timeout_ms(1_000));
    broker.send(&join("b"));
    broker.now_ms = 500;
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2).tasks(FIRST));
    // The rebalance timer (500 + 1000) is due before either session timer (45000).
    assert_eq!(broker.coordinator.next_deadline(), Some(1_500));
    assert_eq!(broker.coordinator.handle_timeout(1_499), []);
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 2), ("b".to_owned(), 3)]
    );

    assert_eq!(
        broker.coordinator.handle_timeout(1_500),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "a".to_owned(),
            reason: RemovalReason::RebalanceTimeout,
        }]
    );
    assert_eq!(
        broker.view(),
        group("Assigning", 4, 3, vec![member("b", 3, NONE, SECOND)])
    );
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));

    broker.now_ms = 2_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 4).tasks(BOTH));
}

#[test]
fn r29_confirmed_revocation_cancels_the_rebalance_timer() {
    let mut broker = Broker::new();
    broker.send(&join("a").with_rebalance_timeout_ms(1_000));
    broker.send(&join("b"));
    broker.send(&heartbeat("a", 2));
    assert_eq!(broker.coordinator.next_deadline(), Some(1_000));
    broker.now_ms = 900;
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    // Only the session timers are left: b's from its join, a's re-armed at 900.
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    assert_eq!(broker.coordinator.handle_timeout(1_000), []);
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 3), ("b".to_owned(), 3)]
    );
}

#[test]
fn r30_silent_member_is_removed_at_the_session_deadline() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.now_ms = 1_000;
    broker.send(&join("b"));
    broker.now_ms = 30_000;
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 3));

    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    assert_eq!(broker.coordinator.handle_timeout(44_999), []);
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 2), ("b".to_owned(), 3)]
    );

    assert_eq!(
        broker.coordinator.handle_timeout(45_000),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "a".to_owned(),
            reason: RemovalReason::SessionTimeout,
        }]
    );
    assert_eq!(
        broker.view(),
        group("Assigning", 4, 3, vec![member("b", 3, NONE, SECOND)])
    );
    // b's session timer, re-armed by its heartbeat at 30000.
    assert_eq!(broker.coordinator.next_deadline(), Some(75_000));

    broker.now_ms = 46_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 4).tasks(BOTH));
}

#[test]
fn r30_only_successful_heartbeats_rearm_the_session_timer() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    broker.now_ms = 10_000;
    assert_eq!(broker.send(&heartbeat("a", 9)), fenced("greater", 9, 2));
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    broker.now_ms = 20_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(broker.coordinator.next_deadline(), Some(65_000));
    assert_eq!(broker.coordinator.handle_timeout(64_999), []);
    assert_eq!(broker.member_epochs(), [("a".to_owned(), 2)]);
}

#[test]
fn r30_session_timeout_of_the_last_member_empties_the_group() {
    let config = CoordinatorConfig {
        session_timeout_ms: 6_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&join("a"));
    assert_eq!(broker.coordinator.next_deadline(), Some(6_000));
    assert_eq!(
        broker.coordinator.handle_timeout(7_500),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "a".to_owned(),
            reason: RemovalReason::SessionTimeout,
        }]
    );
    assert_eq!(broker.view(), group("Empty", 3, 3, Vec::new()));
    assert_eq!(broker.coordinator.next_deadline(), None);
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
}

#[test]
fn r31_leave_of_the_last_member_empties_the_group() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.send(&leave("a")), left("a", -1));
    assert_eq!(broker.view(), group("Empty", 3, 3, Vec::new()));
    assert_eq!(broker.coordinator.next_deadline(), None);
}

#[test]
fn r31_leave_bumps_the_epoch_and_the_rest_rebalance_on_their_next_heartbeat() {
    let mut broker = rebalanced_pair();
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    assert_eq!(
        broker.view(),
        group("Assigning", 4, 3, vec![member("a", 3, FIRST, FIRST)])
    );
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 4).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 4, 4, vec![member("a", 4, BOTH, BOTH)])
    );
    // R32: the departed member is unknown, whatever it sends.
    for request in [
        heartbeat("b", 3),
        owning(heartbeat("b", 3), SECOND),
        leave("b"),
    ] {
        assert_eq!(broker.send(&request), not_a_member("b"));
    }
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

#[test]
fn r33_missing_source_topic_is_a_status_with_empty_tasks() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&join("a")),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).statuses(&missing)
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );

    // Once the topic exists, the next heartbeat bumps the epoch and assigns the tasks.
    broker.coordinator.handle_metadata(topics(&[("in", 2)]));
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 3).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 3, 3, vec![member("a", 3, BOTH, BOTH)])
    );
}

/// Spec 5.5, as Kafka 4.4.0 showed it to a broker campaign that deleted a source topic: the
/// member is told to give its tasks up at once, then moves to the new epoch with none, and the
/// group is NotReady (the reference had called it Stable).
#[test]
fn r33_a_deleted_source_topic_takes_the_tasks_back_and_the_group_is_not_ready() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2)]));
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    broker.coordinator.handle_metadata(topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 3).statuses(&missing)
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 3, 3, vec![member("a", 3, NONE, NONE)])
    );
}

#[test]
fn r33_missing_source_topics_are_listed_sorted() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let two = topology(
        0,
        vec![subtopology("0", &["in2"]), subtopology("1", &["in"])],
    );
    assert_eq!(
        broker.send(&join("a").with_topology(Some(two))),
        answer("a", 2)
            .tasks(NONE)
            .statuses(&[(1, "Source topics in, in2 are missing.")])
    );
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
    assert_eq!(
        effects,
        [Effect::CreateTopics(vec![TopicToCreate {
            name: "r".to_owned(),
            partitions: 2,
            replication_factor: -1,
            configs: Vec::new(),
        }])]
    );
}

#[test]
fn r34_missing_internal_topic_is_created_then_assigned() {
    let mut broker = Broker::new();
    join_through_missing_repartition_topic(&mut broker);
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );

    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("r", 2)]));
    let both_subtopologies: Tasks = &[("0", &[0, 1]), ("1", &[0, 1])];
    let mut assigned = broker.send(&heartbeat("a", 2));
    // Kafka does not define the order of subtopologies in a task list.
    if let Some(active) = assigned.active_tasks.as_mut() {
        active.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
    }
    assert_eq!(assigned, answer("a", 3).tasks(both_subtopologies));
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![member("a", 3, both_subtopologies, both_subtopologies)]
        )
    );
    // The described topology carries the derived partition count of `r`.
    let described = broker.described().topology.expect("a topology");
    let repartition: Vec<(String, String, i32)> = described
        .subtopologies
        .expect("subtopologies")
        .iter()
        .flat_map(|s| {
            s.repartition_source_topics
                .iter()
                .map(|t| (s.subtopology_id.clone(), t.name.clone(), t.partitions))
        })
        .collect();
    assert_eq!(repartition, [("1".to_owned(), "r".to_owned(), 2)]);
}

#[test]
fn r36_changelog_with_wrong_partition_count_is_incorrectly_partitioned() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("c", 5)]));
    let stateful = topology(
        0,
        vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
    );
    assert_eq!(
        broker.send(&join("a").with_topology(Some(stateful))),
        answer("a", 2).tasks(NONE).statuses(&[(
            2,
            "Existing topic c has different number of partitions: expected 2, found 5"
        )])
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );
}

#[test]
fn r37_topology_updates_are_refused() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("in2", 2)]));
    broker.send(&join("a"));
    let other_content = reading(&["in2"]);
    let later_epoch = topology_s().with_epoch(1);
    for topology in [other_content, later_epoch] {
        assert_eq!(
            broker.send(&join("b").with_topology(Some(topology))),
            refused(
                ERROR_INVALID_REQUEST,
                "Topology updates are not supported yet."
            )
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    let kept = broker.described().topology.expect("a topology");
    assert_eq!(kept.epoch, 0);
    let sources: Vec<Vec<String>> = kept
        .subtopologies
        .expect("subtopologies")
        .iter()
        .map(|s| s.source_topics.clone())
        .collect();
    assert_eq!(sources, [names(&["in"])]);
}

#[test]
fn r39_source_topic_order_matters_and_the_identical_topology_is_accepted() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("in2", 2)]));
    broker.send(&join("a").with_topology(Some(reading(&["in", "in2"]))));
    // The same topics in another order are another topology.
    assert_eq!(
        broker.send(&join("b").with_topology(Some(reading(&["in2", "in"])))),
        refused(
            ERROR_INVALID_REQUEST,
            "Topology updates are not supported yet."
        )
    );
    assert_eq!(
        broker.send(&join("b").with_topology(Some(reading(&["in", "in2"])))),
        answer("b", 3).tasks(NONE)
    );
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 2), ("b".to_owned(), 3)]
    );
}

#[test]
fn r38_older_topology_epoch_joins_as_stale() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("in2", 2)]));
    let stale = [(
        0,
        "The member's topology epoch 0 is behind the group's topology epoch 1.",
    )];
    broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1))));
    assert_eq!(
        broker.send(&join("b").with_topology(Some(reading(&["in2"])))),
        answer("b", 3).tasks(NONE).statuses(&stale)
    );
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).statuses(&stale)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2).tasks(FIRST));
    let described = broker.described();
    assert_eq!(described.group_epoch, 3);
    assert_eq!(described.topology.map(|t| t.epoch), Some(1));
    let mut topology_epochs: Vec<(String, i32)> = described
        .members
        .iter()
        .map(|m| (m.member_id.clone(), m.topology_epoch))
        .collect();
    topology_epochs.sort();
    assert_eq!(topology_epochs, [("a".to_owned(), 1), ("b".to_owned(), 0)]);
}

/// Kafka 4.4.0 never configures a stale member's topology, so a copartition index out of range
/// in it goes unnoticed; the same topology refused a group-creating join (open question 9).
#[test]
fn r38_a_stale_topology_is_not_checked_for_copartition_indexes() {
    let mut broker = Broker::new();
    let out_of_range = |epoch: i32| {
        topology(
            epoch,
            vec![subtopology("0", &["in"]).with_copartition_groups(vec![
                CopartitionGroup::default().with_source_topics(vec![7]),
            ])],
        )
    };
    assert_eq!(
        broker.send(&join("a").with_topology(Some(out_of_range(1)))),
        refused(ERROR_UNKNOWN_SERVER_ERROR, "").with_error_message(None)
    );
    broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1))));
    let stale = [(
        0,
        "The member's topology epoch 0 is behind the group's topology epoch 1.",
    )];
    assert_eq!(
        broker.send(&join("b").with_topology(Some(out_of_range(0)))),
        answer("b", 3).tasks(NONE).statuses(&stale)
    );
}

#[test]
fn r40_owned_tasks_must_exist_in_the_topology() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    let invalid_task = |p: i32| {
        format!("Task {p} for subtopology 0 is invalid. Number of tasks for this subtopology: 2")
    };
    let unknown_standby =
        owning(heartbeat("a", 2), BOTH).with_standby_tasks(Some(task_ids(&[("9", &[0])])));
    let warmup_5 =
        owning(heartbeat("a", 2), BOTH).with_warmup_tasks(Some(task_ids(&[("0", &[5])])));
    let cases = [
        (
            owning(heartbeat("a", 2), &[("9", &[0])]),
            "Subtopology 9 does not exist in the topology.".to_owned(),
        ),
        (owning(heartbeat("a", 2), &[("0", &[7])]), invalid_task(7)),
        (owning(heartbeat("a", 2), &[("0", &[-1])]), invalid_task(-1)),
        (
            unknown_standby,
            "Subtopology 9 does not exist in the topology.".to_owned(),
        ),
        (warmup_5, invalid_task(5)),
    ];
    for (request, message) in cases {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, &message)
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
}

#[test]
fn r41_group_configs_are_checked_for_type_lower_bound_then_broker_bound() {
    let mut coordinator = Coordinator::new(kafka_config());
    let refusals = [
        ("streams.num.warmup.replicas", "21", "streams.num.warmup.replicas must be less than or equal to 20"),
        ("streams.num.warmup.replicas", "-1", "Invalid value -1 for configuration streams.num.warmup.replicas: Value must be at least 0"),
        ("streams.num.warmup.replicas", "2147483648", "Invalid value 2147483648 for configuration streams.num.warmup.replicas: Not a number of type INT"),
        ("streams.acceptable.recovery.lag", "x", "Invalid value x for configuration streams.acceptable.recovery.lag: Not a number of type LONG"),
        ("streams.task.offset.interval.ms", "14999", "streams.task.offset.interval.ms must be greater than or equal to 15000"),
        ("streams.session.timeout.ms", "0", "Invalid value 0 for configuration streams.session.timeout.ms: Value must be at least 1"),
        ("streams.session.timeout.ms", "44999", "streams.session.timeout.ms must be in the range 45000 to 60000 inclusive."),
        ("streams.num.standby.replicas", "3", "streams.num.standby.replicas must be less than or equal to 2"),
        ("streams.assignor.offload.enable", "yes", "Invalid value yes for configuration streams.assignor.offload.enable: Expected value to be either true or false"),
        ("streams.assignor.name", "range", "streams.assignor.name 'range' is not a registered task assignor. Registered assignors are: [sticky]."),
        ("streams.rack.aware.assignment.tags", "zone, zone", "streams.rack.aware.assignment.tags must not contain duplicate tag keys."),
        ("streams.bogus", "1", "Unknown group config name: streams.bogus"),
    ];
    for (name, value, message) in refusals {
        assert_eq!(
            coordinator.set_group_config(GROUP, name, value),
            Err(message.to_owned()),
            "{name}={value}"
        );
    }
    let accepted = [
        ("streams.num.warmup.replicas", " 20 "),
        ("streams.acceptable.recovery.lag", "0"),
        ("streams.task.offset.interval.ms", "15000"),
        ("streams.assignor.offload.enable", "TRUE"),
        ("streams.assignor.name", "sticky"),
    ];
    assert_eq!(coordinator.set_group_configs(GROUP, &accepted), Ok(()));
}

#[test]
fn r52_responses_carry_the_groups_recovery_lag_and_offset_interval() {
    let mut broker = Broker::new();
    broker
        .coordinator
        .set_group_configs(
            GROUP,
            &[
                ("streams.acceptable.recovery.lag", "5"),
                ("streams.task.offset.interval.ms", "30000"),
            ],
        )
        .unwrap();
    let joined = broker.send(&join("a"));
    assert_eq!(
        (
            joined.acceptable_recovery_lag,
            joined.task_offset_interval_ms
        ),
        (5, 30_000)
    );
}

#[test]
fn r41_one_standby_per_stateful_task_on_the_other_process() {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2), ("c", 2)]));
    let stateful = topology(
        0,
        vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
    );
    let join_stateful = |member: &str| join(member).with_topology(Some(stateful.clone()));
    // One process: no standbys.
    assert_eq!(broker.send(&join_stateful("a")), answer("a", 2).tasks(BOTH));
    // b's active task waits for a; its standby task, which its process does not hold, does not.
    assert_eq!(
        broker.send(&join_stateful("b")),
        answer("b", 3).tasks(NONE).standbys(FIRST)
    );
    // a's active task 1 becomes its standby in the same answer (R27).
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).tasks(FIRST).standbys(SECOND)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND).standbys(FIRST)
    );
    let holding = |id: &str, active: Tasks, standby: Tasks| MemberView {
        id: id.to_owned(),
        epoch: 3,
        assignment: [task_list(active), task_list(standby), Vec::new()],
        target: [task_list(active), task_list(standby), Vec::new()],
    };
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![holding("a", FIRST, SECOND), holding("b", SECOND, FIRST)]
        )
    );
}

/// R27, R30, as Kafka 4.4.0 answered a broker campaign: b goes silent, its rejoin is refused (a
/// topology update), and its session expires 6000 ms after its last successful heartbeat, the
/// refused one not counting. a, holding the standby of b's active task, then moves to the next
/// epoch with both tasks active at once: its standby is promoted in place, not revoked first
/// (the reference had kept a at its epoch, revoking the standby).
#[test]
fn r27_a_standby_is_promoted_in_place_when_the_active_holder_times_out() {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        session_timeout_ms: 6_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[]));
    let stateful = |epoch: i32| {
        topology(
            epoch,
            vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
        )
    };
    let join_stateful = |member: &str| join(member).with_topology(Some(stateful(0)));
    // Both join before the source topic exists, so nobody holds a task when the first target
    // is computed and no active task is revoked on the way.
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&join_stateful("a")),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    assert_eq!(
        broker.send(&join_stateful("b")),
        answer("b", 3).tasks(NONE).statuses(&missing)
    );
    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("c", 2)]));
    broker.now_ms = 100;
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 4).tasks(SECOND).standbys(FIRST)
    );
    broker.now_ms = 200;
    assert_eq!(
        broker.send(&owning(heartbeat("b", 3), NONE)),
        answer("b", 4).tasks(FIRST).standbys(SECOND)
    );
    let a_owning = |epoch: i32| {
        owning(heartbeat("a", epoch), SECOND).with_standby_tasks(Some(task_ids(FIRST)))
    };
    broker.now_ms = 500;
    assert_eq!(broker.send(&a_owning(4)), answer("a", 4));

    // b's rejoin with a new topology epoch is refused and leaves its session timer at 200 + 6000.
    broker.now_ms = 1_000;
    assert_eq!(
        broker.send(&join("b").with_topology(Some(stateful(1)))),
        refused(
            ERROR_INVALID_REQUEST,
            "Topology updates are not supported yet."
        )
    );
    broker.now_ms = 3_000;
    assert_eq!(broker.send(&a_owning(4)), answer("a", 4));
    assert_eq!(broker.coordinator.next_deadline(), Some(6_200));
    assert_eq!(broker.coordinator.handle_timeout(6_199), []);
    assert_eq!(
        broker.coordinator.handle_timeout(6_200),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "b".to_owned(),
            reason: RemovalReason::SessionTimeout,
        }]
    );
    let holding = |epoch: i32, active: Tasks, standby: Tasks| MemberView {
        id: "a".to_owned(),
        epoch,
        assignment: [task_list(active), task_list(standby), Vec::new()],
        target: [task_list(active), task_list(standby), Vec::new()],
    };
    assert_eq!(
        broker.view(),
        group("Assigning", 5, 4, vec![holding(4, SECOND, FIRST)])
    );
    assert_eq!(broker.coordinator.next_deadline(), Some(9_000));

    // a still reports its standby of task 0: it gets task 0 as active and the next epoch at once.
    broker.now_ms = 6_300;
    assert_eq!(broker.send(&a_owning(4)), answer("a", 5).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 5, 5, vec![holding(5, BOTH, NONE)])
    );
}

/// Members a (p-a) and b (p-b) of a stateful topology with one standby replica, settled: a holds
/// active 0 and standby 1, b active 1 and standby 0.
fn settled_standby_pair() -> Broker {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2), ("c", 2)]));
    for member in ["a", "b"] {
        broker.send(&stateful_join(member));
    }
    broker.send(&heartbeat("a", 2));
    broker.send(&owning(heartbeat("a", 2), FIRST).with_standby_tasks(Some(task_ids(SECOND))));
    broker.send(&heartbeat("b", 3));
    broker
}

/// Join(m) with a topology whose subtopology "0" has changelog `c`.
fn stateful_join(member: &str) -> Request {
    join(member).with_topology(Some(topology(
        0,
        vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
    )))
}

/// A member's assignment and target, both `active` and `standby`, at `epoch`.
fn holding(id: &str, epoch: i32, active: Tasks, standby: Tasks) -> MemberView {
    MemberView {
        id: id.to_owned(),
        epoch,
        assignment: [task_list(active), task_list(standby), Vec::new()],
        target: [task_list(active), task_list(standby), Vec::new()],
    }
}

#[test]
fn r27_an_active_task_demoted_to_standby_is_granted_while_its_revocation_is_pending() {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2), ("c", 2)]));
    assert_eq!(broker.send(&stateful_join("a")), answer("a", 2).tasks(BOTH));
    assert_eq!(
        broker.send(&stateful_join("b")),
        answer("b", 3).tasks(NONE).standbys(FIRST)
    );
    // Kafka 4.4.0 (CurrentAssignmentBuilder.demoteActiveTasksToStandby): a keeps epoch 2 and
    // revokes active 1, and holds 1 as a standby already.
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).tasks(FIRST).standbys(SECOND)
    );
    // Still running 1 as active: no confirmation, whatever its standby list says.
    let reporting = |active: Tasks| {
        owning(heartbeat("a", 2), active).with_standby_tasks(Some(task_ids(SECOND)))
    };
    assert_eq!(broker.send(&reporting(BOTH)), answer("a", 2));
    // R28: b does not get active 1 while a has not confirmed.
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 3));
    // Standby 1 reported beside active 0 confirms the revocation of active 1: revocation is
    // checked per task type.
    assert_eq!(broker.send(&reporting(FIRST)), answer("a", 3));
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND).standbys(FIRST)
    );
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![
                holding("a", 3, FIRST, SECOND),
                holding("b", 3, SECOND, FIRST)
            ]
        )
    );
}

#[test]
fn r27_a_standby_promoted_to_active_is_replaced_in_one_answer() {
    let mut broker = settled_standby_pair();
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    // a's standby 1 becomes active 1 at once, with no revocation round (Kafka 4.4.0,
    // CurrentAssignmentBuilder.applyPromotionsToActive).
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 4).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 4, 4, vec![holding("a", 4, BOTH, NONE)])
    );
}

// ---------------------------------------------------------------------------------------------
// Shutdown (R43-R45)

/// A cluster whose topic `in` has one partition: a keeps the task, b stays idle, no revocation.
fn one_task_broker() -> Broker {
    Broker::with(kafka_config(), topics(&[("in", 1)]))
}

#[test]
fn r43_shutdown_request_reaches_every_member_without_epoch_change() {
    let mut broker = one_task_broker();
    let shutdown = [(4, SHUTDOWN_BY_A)];
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(FIRST));
    assert_eq!(broker.send(&join("b")), answer("b", 3).tasks(NONE));
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 3));

    // A refused request does not record the flag.
    assert_eq!(
        broker.send(&heartbeat("b", 7).with_shutdown_application(true)),
        fenced("greater", 7, 3)
    );
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 3));

    assert_eq!(
        broker.send(&heartbeat("a", 3).with_shutdown_application(true)),
        answer("a", 3).statuses(&shutdown)
    );
    let settled = group(
        "Stable",
        3,
        3,
        vec![member("a", 3, FIRST, FIRST), member("b", 3, NONE, NONE)],
    );
    assert_eq!(broker.view(), settled);
    for request in [heartbeat("b", 3), heartbeat("a", 3), heartbeat("b", 3)] {
        let member_id = request.member_id.clone();
        assert_eq!(
            broker.send(&request),
            answer(&member_id, 3).statuses(&shutdown)
        );
    }
    assert_eq!(broker.view(), settled);
}

#[test]
fn r43_shutdown_status_comes_after_stale_and_configuration_statuses() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1))));
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_shutdown_application(true)),
        answer("a", 2).statuses(&[(1, "Source topics in are missing."), (4, SHUTDOWN_BY_A)])
    );
    assert_eq!(
        broker.send(&join("b")),
        answer("b", 3).tasks(NONE).statuses(&[
            (
                0,
                "The member's topology epoch 0 is behind the group's topology epoch 1."
            ),
            (1, "Source topics in are missing."),
            (4, SHUTDOWN_BY_A),
        ])
    );
}

#[test]
fn r44_shutdown_request_is_forgotten_once_the_group_is_empty() {
    let mut broker = one_task_broker();
    broker.send(&join("a"));
    broker.send(&join("b"));
    broker.send(&heartbeat("a", 2).with_shutdown_application(true));
    assert_eq!(broker.send(&leave("a")), left("a", -1));
    // The request outlives its requester while the group is not empty.
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 4).tasks(FIRST).statuses(&[(4, SHUTDOWN_BY_A)])
    );
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    assert_eq!(broker.view(), group("Empty", 5, 5, Vec::new()));
    assert_eq!(broker.send(&join("c")), answer("c", 6).tasks(FIRST));
    assert_eq!(broker.send(&heartbeat("c", 6)), answer("c", 6));
}

#[test]
fn r45_shutdown_on_leave_is_seen_by_the_remaining_members() {
    let mut broker = one_task_broker();
    broker.send(&join("a"));
    broker.send(&join("b"));
    assert_eq!(
        broker.send(&leave("b").with_shutdown_application(true)),
        left("b", -1)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 4).statuses(&[(
            4,
            "Streams group member b encountered a fatal error and requested a shutdown for the entire application."
        )])
    );
}

/// The endpoint map entry of a member at h:8080 holding both tasks of topic `in`.
fn endpoint_h_serving_both_tasks() -> response::EndpointToPartitions {
    response::EndpointToPartitions::default()
        .with_user_endpoint(response::Endpoint::default().with_host("h").with_port(8080))
        .with_active_partitions(vec![response::TopicPartition::default()
            .with_topic("in")
            .with_partitions(vec![0, 1])])
        .with_standby_partitions(Vec::new())
}

#[test]
fn r46_group_creating_join_gets_endpoint_epoch_0_and_the_partitions_by_endpoint() {
    let mut broker = Broker::new();
    let with_endpoint = join("a")
        .with_user_endpoint(Some(Endpoint::default().with_host("h").with_port(8080)))
        .with_endpoint_information_epoch(-1);
    let partitions = endpoint_h_serving_both_tasks();
    assert_eq!(
        broker.send(&with_endpoint),
        answer("a", 2)
            .tasks(BOTH)
            .with_endpoint_information_epoch(0)
            .with_partitions_by_user_endpoint(Some(vec![partitions.clone()]))
    );
    // Echoing the epoch: nothing changed, nothing sent.
    let echo = |epoch: i32| heartbeat("a", 2).with_endpoint_information_epoch(epoch);
    assert_eq!(broker.send(&echo(0)), answer("a", 2));
    // Another epoch gets the map again.
    assert_eq!(
        broker.send(&echo(-1)),
        answer("a", 2).with_partitions_by_user_endpoint(Some(vec![partitions]))
    );
}

/// What Kafka 4.4.0 answered (found by a differential campaign, then asked of the broker step by
/// step): the creating join sends the map whatever epoch the member has; the group's epoch is 0
/// after it, and a rejoin that keeps the member's tasks leaves it there.
#[test]
fn r46_endpoint_epoch_after_the_creating_join_and_a_rejoin() {
    let mut broker = Broker::new();
    let with_endpoint = join("a")
        .with_user_endpoint(Some(Endpoint::default().with_host("h").with_port(8080)))
        .with_endpoint_information_epoch(0);
    let partitions = endpoint_h_serving_both_tasks();
    assert_eq!(
        broker.send(&with_endpoint),
        answer("a", 2)
            .tasks(BOTH)
            .with_partitions_by_user_endpoint(Some(vec![partitions.clone()]))
    );
    assert_eq!(broker.send(&with_endpoint), answer("a", 2).tasks(BOTH));
    let echo = |epoch: i32| heartbeat("a", 2).with_endpoint_information_epoch(epoch);
    assert_eq!(broker.send(&echo(0)), answer("a", 2));
    assert_eq!(
        broker.send(&echo(1)),
        answer("a", 2).with_partitions_by_user_endpoint(Some(vec![partitions]))
    );
}

/// R46, as Kafka 4.4.0 builds the map (found by a differential campaign): a topic lists the
/// member's task numbers it has a partition for, and a topic with none of them is left out.
#[test]
fn r46_the_map_lists_only_partitions_a_topic_has() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("small", 1)]));
    let at = |port: u16| Some(Endpoint::default().with_host("h").with_port(port));
    let reads_both = reading(&["in", "small"]);
    let join_at = |member: &str, port: u16| {
        join(member)
            .with_topology(Some(reads_both.clone()))
            .with_user_endpoint(at(port))
    };
    for request in [
        join_at("a", 8080),
        join_at("b", 8081),
        heartbeat("a", 2),
        owning(heartbeat("a", 2), FIRST),
        heartbeat("b", 3),
    ] {
        assert_eq!(broker.send(&request).error_code, 0);
    }
    let entry = |port: u16, topics: &[(&str, &[i32])]| {
        response::EndpointToPartitions::default()
            .with_user_endpoint(response::Endpoint::default().with_host("h").with_port(port))
            .with_active_partitions(
                topics
                    .iter()
                    .map(|(topic, partitions)| {
                        response::TopicPartition::default()
                            .with_topic(*topic)
                            .with_partitions(partitions.to_vec())
                    })
                    .collect(),
            )
            .with_standby_partitions(Vec::new())
    };
    let map = broker
        .send(&heartbeat("b", 3).with_endpoint_information_epoch(-1))
        .partitions_by_user_endpoint;
    assert_eq!(
        map,
        Some(vec![
            entry(8080, &[("in", &[0]), ("small", &[0])]),
            entry(8081, &[("in", &[1])]),
        ])
    );
}

/// R46, R49, as Kafka 4.4.0 answered a broker campaign: the endpoint epoch moves when the
/// member's endpoint differs from the one it had, or its tasks changed and it has an endpoint. A
/// replacement is compared with the released member, so taking its place with its endpoint and
/// tasks moves nothing (the reference had moved the epoch on every join with an endpoint).
#[test]
fn r46_endpoint_epoch_moves_with_a_new_endpoint_not_with_a_static_replacement() {
    let mut broker = Broker::new();
    let at = |port: u16| Some(Endpoint::default().with_host("h").with_port(port));
    let partitions_at = |port: u16| {
        endpoint_h_serving_both_tasks()
            .with_user_endpoint(response::Endpoint::default().with_host("h").with_port(port))
    };
    assert_eq!(
        broker.send(&static_join("a", "i1").with_user_endpoint(at(8080))),
        answer("a", 2)
            .tasks(BOTH)
            .with_partitions_by_user_endpoint(Some(vec![partitions_at(8080)]))
    );
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    let replacing = static_join("b", "i1")
        .with_process_id(Some("p-a".to_owned()))
        .with_user_endpoint(at(8080));
    assert_eq!(broker.send(&replacing), answer("b", 2).tasks(BOTH));
    // Only the endpoint changes: endpoint epoch 1, and the map, since b's copy is from epoch 0.
    // An endpoint is no field that bumps the group epoch for a static member (spec 3.1 step 4).
    let moved = heartbeat("b", 2)
        .with_instance_id(Some("i1".to_owned()))
        .with_user_endpoint(at(9090));
    assert_eq!(
        broker.send(&moved),
        answer("b", 2)
            .with_endpoint_information_epoch(1)
            .with_partitions_by_user_endpoint(Some(vec![partitions_at(9090)]))
    );
    assert_eq!(
        broker.send(&heartbeat("b", 2).with_endpoint_information_epoch(1)),
        answer("b", 2).with_endpoint_information_epoch(1)
    );
    assert_eq!(broker.state(), ("Stable".to_owned(), 2, 2));
}

/// Spec 3.1 step 4, as Kafka 4.4.0 answers it: a request with an instance id bumps the group
/// epoch only for a new topology epoch, rack, client tags or process; a dynamic member's
/// request for any change of its metadata.
#[test]
fn r49_only_assignment_relevant_metadata_of_a_static_member_bumps_the_group_epoch() {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    let static_heartbeat = || heartbeat("a", 2).with_instance_id(Some("i1".to_owned()));
    broker.send(&static_heartbeat().with_rebalance_timeout_ms(1_000));
    broker.client = RequestContext::new("other-client", "/127.0.0.2");
    broker.send(&static_heartbeat());
    assert_eq!(broker.state(), ("Stable".to_owned(), 2, 2));
    assert_eq!(
        broker.send(&static_heartbeat().with_rack_id(Some("r1".to_owned()))),
        answer("a", 3)
    );
    assert_eq!(broker.state(), ("Stable".to_owned(), 3, 3));

    // A dynamic member: a new client id alone bumps it.
    assert_eq!(broker.send(&join("b")), answer("b", 4).tasks(NONE));
    broker.client = context();
    broker.send(&heartbeat("b", 4));
    assert_eq!(broker.state().1, 5);
}

// ---------------------------------------------------------------------------------------------
// Describe (R47, R48, R53)

#[test]
fn r47_describe_of_an_empty_and_an_unknown_group_id() {
    let broker = Broker::new();
    // Error entries carry only id, code and message; every other field at its schema default.
    let entry = |group_id: &str, code: i16, message: Option<&str>| {
        describe::DescribedGroup::default()
            .with_error_code(code)
            .with_error_message(message.map(str::to_owned))
            .with_group_id(group_id)
            .with_group_state("")
            .with_group_epoch(0)
            .with_assignment_epoch(0)
            .with_topology(None)
            .with_members(Vec::new())
            .with_authorized_operations(i32::MIN)
    };
    let mut entries = broker.describe(&["", "nope"]);
    entries.sort_by(|a, b| a.group_id.cmp(&b.group_id));
    assert_eq!(
        entries,
        [
            entry("", 24, None),
            entry(
                "nope",
                ERROR_GROUP_ID_NOT_FOUND,
                Some("Group nope not found.")
            ),
        ]
    );
}

fn described_assignment(active: Tasks) -> describe::Assignment {
    let active = active
        .iter()
        .map(|(subtopology, partitions)| {
            describe::TaskIds::default()
                .with_subtopology_id(*subtopology)
                .with_partitions(partitions.to_vec())
        })
        .collect();
    describe::Assignment::default()
        .with_active_tasks(active)
        .with_standby_tasks(Vec::new())
        .with_warmup_tasks(Vec::new())
}

#[test]
fn r48_describe_of_a_stable_group() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.send(&heartbeat("a", 2));
    let entry = broker.described();
    assert_eq!(
        (
            entry.group_id.as_str(),
            entry.group_state.as_str(),
            entry.group_epoch,
            entry.assignment_epoch,
            entry.authorized_operations,
            entry.topology_description_status,
        ),
        (GROUP, "Stable", 2, 2, i32::MIN, 0)
    );
    let expected_topology = describe::Topology::default()
        .with_epoch(0)
        .with_subtopologies(Some(vec![describe::Subtopology::default()
            .with_subtopology_id("0")
            .with_source_topics(names(&["in"]))
            .with_repartition_sink_topics(Vec::new())
            .with_state_changelog_topics(Vec::new())
            .with_repartition_source_topics(Vec::new())]));
    assert_eq!(entry.topology, Some(expected_topology));
    let expected_member = describe::Member::default()
        .with_member_id("a")
        .with_member_epoch(2)
        .with_instance_id(None)
        .with_rack_id(None)
        .with_client_id("client")
        .with_client_host("/127.0.0.1")
        .with_topology_epoch(0)
        .with_process_id("p-a")
        .with_user_endpoint(None)
        .with_client_tags(Vec::new())
        .with_task_offsets(Vec::new())
        .with_task_end_offsets(Vec::new())
        .with_assignment(described_assignment(BOTH))
        .with_target_assignment(described_assignment(BOTH))
        .with_is_classic(false);
    assert_eq!(entry.members, [expected_member]);
}

#[test]
fn r53_no_topology_description_is_required_or_stored() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    let request = StreamsGroupDescribeRequest::default()
        .with_group_ids(names(&[GROUP, "nope"]))
        .with_include_topology_description(true);
    let mut statuses: Vec<(String, i16, i8, bool)> = broker
        .coordinator
        .handle_describe(&context(), &request)
        .groups
        .into_iter()
        .map(|e| {
            (
                e.group_id,
                e.error_code,
                e.topology_description_status,
                e.topology_description.is_none(),
            )
        })
        .collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [
            (GROUP.to_owned(), 0, 1, true),
            ("nope".to_owned(), ERROR_GROUP_ID_NOT_FOUND, 0, true)
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Static membership (R49-R51)

/// Static member a (instance i1, process p-a) created the group at epoch 2 with both tasks and
/// left with -2.
fn released_i1() -> Broker {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    broker
}

#[test]
fn r49_static_leave_keeps_the_member_at_minus_2_without_an_epoch_bump() {
    let mut broker = released_i1();
    // Repeating the -2 leave gives the same answer.
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    assert_eq!(
        broker.view(),
        group("Reconciling", 2, 2, vec![member("a", -2, BOTH, BOTH)])
    );
}

#[test]
fn r49_replacement_with_the_same_metadata_inherits_epoch_and_tasks() {
    let mut broker = released_i1();
    let replacement = static_join("a2", "i1").with_process_id(Some("p-a".to_owned()));
    assert_eq!(broker.send(&replacement), answer("a2", 2).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a2", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a2", 2)), answer("a2", 2));
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
}

#[test]
fn r49_same_member_id_rejoins_its_instance() {
    let mut broker = released_i1();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

#[test]
fn r49_replacement_with_a_new_process_id_bumps_the_group_epoch() {
    let mut broker = released_i1();
    assert_eq!(
        broker.send(&static_join("a2", "i1")),
        answer("a2", 3).tasks(BOTH)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 3, 3, vec![member("a2", 3, BOTH, BOTH)])
    );
}

#[test]
fn r49_replacement_reconciles_to_a_target_that_moved_on() {
    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    assert_eq!(broker.send(&join("d")), answer("d", 3).tasks(NONE));
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    assert_eq!(
        broker.view(),
        group(
            "Reconciling",
            3,
            3,
            vec![member("a", -2, BOTH, FIRST), member("d", 3, NONE, SECOND)]
        )
    );
    let replacement = static_join("a2", "i1").with_process_id(Some("p-a".to_owned()));
    assert_eq!(broker.send(&replacement), answer("a2", 3).tasks(FIRST));
    assert_eq!(
        broker.send(&heartbeat("d", 3)),
        answer("d", 3).tasks(SECOND)
    );
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![
                member("a2", 3, FIRST, FIRST),
                member("d", 3, SECOND, SECOND)
            ]
        )
    );
}

#[test]
fn r49_static_member_leaving_with_minus_1_is_removed() {
    let mut broker = released_i1();
    assert_eq!(
        broker.send(&leave("a").with_instance_id(Some("i1".to_owned()))),
        left("a", -1)
    );
    assert_eq!(broker.view(), group("Empty", 3, 3, Vec::new()));
    // Instance i1 is free again: an ordinary join.
    assert_eq!(
        broker.send(&static_join("b", "i1")),
        answer("b", 4).tasks(BOTH)
    );
}

#[test]
fn r50_join_with_an_instance_held_by_an_active_member_is_unreleased_even_at_max_size() {
    let config = CoordinatorConfig {
        max_size: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&static_join("a", "i1"));
    for member_id in ["b", "a"] {
        assert_eq!(
            broker.send(&static_join(member_id, "i1")),
            refused(
                ERROR_UNRELEASED_INSTANCE_ID,
                &format!(
                    "Static member {member_id} with instance id i1 cannot join the group because the instance id is owned by a member."
                )
            )
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r50_instance_held_by_another_member_is_fenced_before_member_lookup() {
    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    broker.send(&static_join("b", "i2"));
    broker.send(&join("d"));
    let fenced_instance = |member: &str, instance: &str, holder: &str| {
        refused(
            ERROR_FENCED_INSTANCE_ID,
            &format!(
                "Static member {member} with instance id {instance} was fenced by member {holder}."
            ),
        )
    };
    let with_i1 = |request: Request| request.with_instance_id(Some("i1".to_owned()));
    let cases = [
        (
            heartbeat("a", 2).with_instance_id(Some("i2".to_owned())),
            fenced_instance("a", "i2", "b"),
        ),
        (with_i1(heartbeat("d", 4)), fenced_instance("d", "i1", "a")),
        (with_i1(heartbeat("x", 4)), fenced_instance("x", "i1", "a")),
        (with_i1(leave("x")), fenced_instance("x", "i1", "a")),
        (static_leave("x", "i1"), fenced_instance("x", "i1", "a")),
        (static_leave("d", "i1"), fenced_instance("d", "i1", "a")),
    ];
    for (request, expected) in cases {
        assert_eq!(broker.send(&request), expected);
    }
    assert_eq!(broker.state().1, 4);
    assert_eq!(
        broker.member_epochs(),
        [
            ("a".to_owned(), 2),
            ("b".to_owned(), 3),
            ("d".to_owned(), 4)
        ]
    );
}

#[test]
fn r50_unknown_instance_id_is_an_unknown_member() {
    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    let with_i7 = |request: Request| request.with_instance_id(Some("i7".to_owned()));
    for request in [
        with_i7(heartbeat("a", 2)),
        with_i7(leave("a")),
        static_leave("a", "i7"),
        with_i7(heartbeat("x", 2)),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_UNKNOWN_MEMBER_ID, "Instance id i7 is unknown.")
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

#[test]
fn r50_replaced_static_member_is_fenced() {
    let mut broker = released_i1();
    broker.send(&static_join("a2", "i1").with_process_id(Some("p-a".to_owned())));
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_instance_id(Some("i1".to_owned()))),
        refused(
            ERROR_FENCED_INSTANCE_ID,
            "Static member a with instance id i1 was fenced by member a2."
        )
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        refused(
            ERROR_UNRELEASED_INSTANCE_ID,
            "Static member a with instance id i1 cannot join the group because the instance id is owned by a2 member."
        )
    );
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a2", 2, BOTH, BOTH)])
    );
}

/// Kafka 4.4 (scenario R25-missing-client-tags): with rack-aware assignment tags configured, a
/// v1 member lacking a key gets status 6 on every heartbeat and its tasks all the same; v0
/// responses never carry it.
#[test]
fn r25_a_member_lacking_a_rack_aware_tag_key_gets_missing_client_tags_at_v1_only() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2)]));
    broker
        .coordinator
        .set_group_config(GROUP, "streams.rack.aware.assignment.tags", "zone, cluster")
        .unwrap();
    let missing = [(
        6,
        "Missing required client tags for rack-aware standby assignment: [zone]. Configure them via 'client.tag.<tagKey>' in your Streams config.",
    )];
    let tagged = join("a").with_client_tags(Some(vec![
        streamspec_protocol::kafka::streams_group_heartbeat_request::KeyValue::default()
            .with_key("cluster")
            .with_value("c1"),
    ]));
    assert_eq!(
        broker.send(&tagged),
        answer("a", 2).tasks(BOTH).statuses(&missing)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).statuses(&missing)
    );
    let at_v0 = broker.send_version(0, &heartbeat("a", 2));
    assert_eq!((at_v0.error_code, at_v0.status), (0, Some(vec![])));
}

#[test]
fn r22_a_full_group_refuses_a_new_member_and_changes_nothing() {
    let config = CoordinatorConfig {
        max_size: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&join("b")),
        refused(
            ERROR_GROUP_MAX_SIZE_REACHED,
            "The streams group has reached its maximum capacity of 1 members."
        )
    );
    assert_eq!(broker.member_epochs(), [("a".to_owned(), 2)]);
    assert_eq!(broker.state().1, 2);
}

#[test]
fn r51_at_max_size_only_a_released_instance_can_join() {
    const FULL: &str = "The streams group has reached its maximum capacity of 2 members.";
    // l rejoins with its own member id, or a replacement l2 takes over its instance.
    for rejoining in ["l", "l2"] {
        let config = CoordinatorConfig {
            max_size: 2,
            ..kafka_config()
        };
        let mut broker = Broker::with(config, topics(&[("in", 2)]));
        broker.send(&static_join("l", "il"));
        broker.send(&join("a"));
        assert_eq!(broker.send(&static_leave("l", "il")), left("l", -2));
        for newcomer in [join("n"), static_join("n", "i9")] {
            assert_eq!(
                broker.send(&newcomer),
                refused(ERROR_GROUP_MAX_SIZE_REACHED, FULL)
            );
        }
        let rejoin = static_join(rejoining, "il").with_process_id(Some("p-l".to_owned()));
        assert_eq!(broker.send(&rejoin), answer(rejoining, 3).tasks(FIRST));
        assert_eq!(
            broker.member_epochs(),
            [("a".to_owned(), 3), (rejoining.to_owned(), 3)]
        );
        assert_eq!(broker.state().1, 3);
    }
}

// ---------------------------------------------------------------------------------------------
// Versions (R52, R54)

#[test]
fn r52_acceptable_recovery_lag_is_10000_at_v1_and_legacy_0_at_v0() {
    let mut broker = Broker::new();
    // v0 has no int64 AcceptableRecoveryLag; it carries AcceptableRecoveryLagLegacy 0 instead.
    let at_v0 = |answer: Response| answer.with_acceptable_recovery_lag(-1);
    assert_eq!(
        broker.send_version(0, &join("a")),
        at_v0(answer("a", 2).tasks(BOTH))
    );
    assert_eq!(
        broker.send_version(0, &heartbeat("a", 2)),
        at_v0(answer("a", 2))
    );
    assert_eq!(broker.send_version(1, &heartbeat("a", 2)), answer("a", 2));
    for version in [0, 1] {
        assert_eq!(
            broker.send_version(version, &heartbeat("a", 99)),
            fenced("greater", 99, 2)
        );
    }
    assert_eq!(broker.send_version(0, &leave("a")), left("a", -1));
}

#[test]
fn r54_epoch_0_rejoin_of_an_existing_member_keeps_its_epoch_and_gets_its_tasks() {
    let mut broker = rebalanced_pair();
    assert_eq!(broker.send(&join("a")), answer("a", 3).tasks(FIRST));
    assert_eq!(broker.view(), settled_pair());
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 3));
    assert_eq!(broker.send(&join("a")), answer("a", 3).tasks(FIRST));
    assert_eq!(broker.view(), settled_pair());
}

/// Spec 10: describe shows the configured topology only when it is ready, else the topology as
/// members sent it; every topic list is sorted by name.
#[test]
fn r48_describe_shows_the_sent_topology_until_ready_with_topic_lists_sorted() {
    let mut broker = Broker::new();
    let with_changelogs = topology(
        0,
        vec![
            subtopology("0", &["in"]).with_repartition_sink_topics(names(&["r"])),
            subtopology("1", &[])
                .with_repartition_source_topics(vec![internal_topic("r")])
                .with_state_changelog_topics(vec![internal_topic("c2"), internal_topic("c1")]),
        ],
    );
    broker.exchange(1, &join("a").with_topology(Some(with_changelogs)));
    let internal_topics = |broker: &Broker| -> Vec<(String, i32)> {
        let described = broker.described().topology.expect("a topology");
        described
            .subtopologies
            .expect("subtopologies")
            .iter()
            .flat_map(|s| {
                s.repartition_source_topics
                    .iter()
                    .chain(&s.state_changelog_topics)
            })
            .map(|t| (t.name.clone(), t.partitions))
            .collect()
    };
    let as_sent = [
        ("r".to_owned(), 0),
        ("c1".to_owned(), 0),
        ("c2".to_owned(), 0),
    ];
    assert_eq!(internal_topics(&broker), as_sent);

    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("r", 2), ("c1", 2), ("c2", 2)]));
    broker.send(&heartbeat("a", 2));
    let configured = [
        ("r".to_owned(), 2),
        ("c1".to_owned(), 2),
        ("c2".to_owned(), 2),
    ];
    assert_eq!(internal_topics(&broker), configured);
}

/// Open question 9, as Kafka 4.4.0 answered it: a topology that cannot be built (negative epoch,
/// two subtopologies with one id, a copartition index out of range) gets UNKNOWN_SERVER_ERROR
/// with no message, and no group comes into being.
#[test]
fn r37_unbuildable_topologies_are_refused_without_creating_the_group() {
    let copartition_out_of_range = subtopology("0", &["in"])
        .with_copartition_groups(vec![CopartitionGroup::default().with_source_topics(vec![7])]);
    for unbuildable in [
        topology(-1, vec![subtopology("0", &["in"])]),
        topology(
            0,
            vec![subtopology("0", &["in"]), subtopology("0", &["in"])],
        ),
        topology(0, vec![copartition_out_of_range]),
    ] {
        let mut broker = Broker::new();
        let answer = broker.send(&join("a").with_topology(Some(unbuildable)));
        assert_eq!(
            (answer.error_code, answer.error_message),
            (ERROR_UNKNOWN_SERVER_ERROR, None)
        );
        assert_eq!(
            broker.describe(&[GROUP])[0].error_code,
            ERROR_GROUP_ID_NOT_FOUND
        );
    }
}

/// Open question 9, into an existing group, as Kafka 4.4.0 answered differential campaigns: it
/// resolves copartition indexes only for a topology that becomes the group's, so a changed
/// topology is refused as an update (R37) and a stale one is accepted (R38), bad indexes and all.
#[test]
fn r37_a_copartition_index_out_of_range_counts_only_in_a_topology_the_group_takes() {
    let mut broker = Broker::new();
    let bad_indexes = |epoch: i32| {
        topology(
            epoch,
            vec![subtopology("0", &["in"]).with_copartition_groups(vec![
                CopartitionGroup::default().with_source_topics(vec![7]),
            ])],
        )
    };
    assert_eq!(
        broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1)))),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(
        broker.send(&join("b").with_topology(Some(bad_indexes(1)))),
        refused(
            ERROR_INVALID_REQUEST,
            "Topology updates are not supported yet."
        )
    );
    assert_eq!(
        broker.send(&join("b").with_topology(Some(bad_indexes(0)))),
        answer("b", 3).tasks(NONE).statuses(&[(
            0,
            "The member's topology epoch 0 is behind the group's topology epoch 1."
        )])
    );
}

/// Open question 9 (d): a subtopology that reads nothing is an invalid topology, once the
/// source topics exist.
#[test]
fn r06_a_subtopology_without_inputs_is_an_invalid_topology() {
    let reads_nothing = topology(0, vec![subtopology("0", &[])]);
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&join("a").with_topology(Some(reads_nothing))),
        refused(130, "No source topics found for subtopology 0")
    );
    assert_eq!(
        broker.describe(&[GROUP])[0].error_code,
        ERROR_GROUP_ID_NOT_FOUND
    );
}
