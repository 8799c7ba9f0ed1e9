//! Canonical messages of every kind, dialect and version: the golden snapshots, the byte-identity
//! check against Kafka's own classes, the fuzz seeds and the benchmarks all start from these.

use crate::codes::{ERROR_GROUP_ID_NOT_FOUND, ERROR_STREAMS_INVALID_TOPOLOGY};
use crate::kafka::streams_group_describe_request::StreamsGroupDescribeRequest;
use crate::kafka::streams_group_describe_response as describe;
use crate::kafka::streams_group_heartbeat_request as hb_req;
use crate::kafka::streams_group_heartbeat_response as hb_resp;
use crate::kip_draft::streams_group_heartbeat_request as draft_req;
use crate::kip_draft::streams_group_heartbeat_response as draft_resp;
use crate::AnyMessage;

pub mod large;

/// One named message at one version.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Unique, and usable as a file name.
    pub name: &'static str,
    pub version: i16,
    pub message: AnyMessage,
}

fn sample(name: &'static str, version: i16, message: AnyMessage) -> Sample {
    Sample {
        name,
        version,
        message,
    }
}

/// Every sample, in a fixed order.
pub fn all() -> Vec<Sample> {
    use AnyMessage as M;
    vec![
        sample("hb_request_v0_join_rich_topology", 0, M::StreamsGroupHeartbeatRequest(join_rich_topology())),
        sample("hb_request_v1_join_rich_topology", 1, M::StreamsGroupHeartbeatRequest(join_rich_topology())),
        sample("hb_request_v0_join_minimal", 0, M::StreamsGroupHeartbeatRequest(join_minimal())),
        sample("hb_request_v1_join_static_member", 1, M::StreamsGroupHeartbeatRequest(join_static_member())),
        sample("hb_request_v0_steady_all_nulls", 0, M::StreamsGroupHeartbeatRequest(steady_all_nulls())),
        sample("hb_request_v1_steady_all_nulls", 1, M::StreamsGroupHeartbeatRequest(steady_all_nulls())),
        sample("hb_request_v0_owned_tasks", 0, M::StreamsGroupHeartbeatRequest(owned_tasks())),
        sample("hb_request_v1_task_offsets", 1, M::StreamsGroupHeartbeatRequest(task_offsets())),
        sample("hb_request_v0_leave", 0, M::StreamsGroupHeartbeatRequest(leave(-1, None))),
        sample("hb_request_v1_static_leave", 1, M::StreamsGroupHeartbeatRequest(leave(-2, Some("instance-1")))),
        sample("hb_request_v0_shutdown_application", 0, M::StreamsGroupHeartbeatRequest(shutdown_application())),
        sample("hb_response_v0_full_assignment", 0, M::StreamsGroupHeartbeatResponse(full_assignment(0))),
        sample("hb_response_v1_full_assignment", 1, M::StreamsGroupHeartbeatResponse(full_assignment(1))),
        sample("hb_response_v0_steady_all_nulls", 0, M::StreamsGroupHeartbeatResponse(steady_response(0))),
        sample("hb_response_v1_steady_all_nulls", 1, M::StreamsGroupHeartbeatResponse(steady_response(1))),
        sample("hb_response_v1_empty_assignment", 1, M::StreamsGroupHeartbeatResponse(empty_assignment())),
        sample("hb_response_v0_every_status", 0, M::StreamsGroupHeartbeatResponse(every_status(0))),
        sample("hb_response_v1_every_status", 1, M::StreamsGroupHeartbeatResponse(every_status(1))),
        sample("hb_response_v1_topology_description_required", 1, M::StreamsGroupHeartbeatResponse(topology_description_required())),
        sample("hb_response_v0_error_fenced_member_epoch", 0, M::StreamsGroupHeartbeatResponse(error_response(110, "The streams group member has a smaller member epoch (4) than the one known by the group coordinator (5). The member must abandon all its partitions and rejoin."))),
        sample("hb_response_v1_error_invalid_request", 1, M::StreamsGroupHeartbeatResponse(error_response(42, "MemberId can't be empty."))),
        sample("hb_response_v0_error_unknown_member", 0, M::StreamsGroupHeartbeatResponse(error_response(25, "Member member-1 is not a member of group app-1."))),
        sample("hb_response_v1_error_invalid_topology", 1, M::StreamsGroupHeartbeatResponse(error_response(130, "Subtopology 0 has a copartition group with an invalid source topic index 7."))),
        sample("describe_request_v0_one_group", 0, M::StreamsGroupDescribeRequest(describe_request(&["app-1"], false, false))),
        sample("describe_request_v0_groups_with_operations", 0, M::StreamsGroupDescribeRequest(describe_request(&["app-1", "app-2", "app-3"], true, false))),
        sample("describe_request_v1_topology_description", 1, M::StreamsGroupDescribeRequest(describe_request(&["app-1"], false, true))),
        sample("describe_response_v0_stable_group", 0, M::StreamsGroupDescribeResponse(stable_group(0))),
        sample("describe_response_v1_stable_group", 1, M::StreamsGroupDescribeResponse(stable_group(1))),
        sample("describe_response_v0_group_not_found", 0, M::StreamsGroupDescribeResponse(group_not_found())),
        sample("describe_response_v0_empty_group", 0, M::StreamsGroupDescribeResponse(empty_group())),
        sample("describe_response_v1_topology_description", 1, M::StreamsGroupDescribeResponse(with_topology_description())),
        sample("draft_hb_request_v0_join", 0, M::KipDraftStreamsGroupHeartbeatRequest(draft_join())),
        sample("draft_hb_request_v0_steady_all_nulls", 0, M::KipDraftStreamsGroupHeartbeatRequest(draft_steady())),
        sample("draft_hb_request_v0_leave", 0, M::KipDraftStreamsGroupHeartbeatRequest(draft_leave())),
        sample("draft_hb_response_v0_join_assigned", 0, M::KipDraftStreamsGroupHeartbeatResponse(draft_join_assigned())),
        sample("draft_hb_response_v0_every_status", 0, M::KipDraftStreamsGroupHeartbeatResponse(draft_every_status())),
        sample("draft_hb_response_v0_error_invalid_topology", 0, M::KipDraftStreamsGroupHeartbeatResponse(draft_error())),
    ]
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

fn key_value(key: &str, value: &str) -> hb_req::KeyValue {
    hb_req::KeyValue::default().with_key(key).with_value(value)
}

fn topic_info(
    name: &str,
    partitions: i32,
    replication_factor: i16,
    configs: &[(&str, &str)],
) -> hb_req::TopicInfo {
    hb_req::TopicInfo::default()
        .with_name(name)
        .with_partitions(partitions)
        .with_replication_factor(replication_factor)
        .with_topic_configs(
            configs
                .iter()
                .map(|(key, value)| key_value(key, value))
                .collect(),
        )
}

fn task_ids(subtopology_id: &str, partitions: &[i32]) -> hb_req::TaskIds {
    hb_req::TaskIds::default()
        .with_subtopology_id(subtopology_id)
        .with_partitions(partitions.to_vec())
}

/// Three subtopologies: a regex source with a changelog, a join of two copartitioned topics that
/// writes to a repartition topic, and a subtopology reading that repartition topic.
fn rich_topology() -> hb_req::Topology {
    let ingest = hb_req::Subtopology::default()
        .with_subtopology_id("0")
        .with_source_topics(strings(&["orders", "payments"]))
        .with_source_topic_regex(strings(&["audit-.*"]))
        .with_state_changelog_topics(vec![topic_info(
            "app-1-orders-store-changelog",
            0,
            3,
            &[("cleanup.policy", "compact"), ("min.insync.replicas", "2")],
        )])
        .with_repartition_sink_topics(strings(&["app-1-by-customer-repartition"]))
        .with_copartition_groups(vec![hb_req::CopartitionGroup::default()
            .with_source_topics(vec![0, 1])
            .with_source_topic_regex(vec![0])]);
    let aggregate = hb_req::Subtopology::default()
        .with_subtopology_id("1")
        .with_repartition_source_topics(vec![
            topic_info(
                "app-1-by-customer-repartition",
                0,
                0,
                &[("cleanup.policy", "delete")],
            ),
            topic_info("app-1-by-region-repartition", 8, -1, &[]),
        ])
        .with_state_changelog_topics(vec![topic_info("app-1-totals-changelog", 0, 0, &[])])
        .with_copartition_groups(vec![
            hb_req::CopartitionGroup::default().with_repartition_source_topics(vec![0, 1])
        ]);
    let global = hb_req::Subtopology::default()
        .with_subtopology_id("2")
        .with_source_topics(strings(&["customers"]));
    hb_req::Topology::default()
        .with_epoch(1)
        .with_subtopologies(vec![ingest, aggregate, global])
}

fn join_rich_topology() -> hb_req::StreamsGroupHeartbeatRequest {
    hb_req::StreamsGroupHeartbeatRequest::default()
        .with_group_id("app-1")
        .with_member_id("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b")
        .with_member_epoch(0)
        .with_endpoint_information_epoch(0)
        .with_rack_id(Some("rack-a".into()))
        .with_rebalance_timeout_ms(300_000)
        .with_topology(Some(rich_topology()))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("9d1c2b3a-0000-4000-8000-00000000beef".into()))
        .with_user_endpoint(Some(
            hb_req::Endpoint::default()
                .with_host("streams-1.internal")
                .with_port(8080),
        ))
        .with_client_tags(Some(vec![
            key_value("zone", "eu-west-1a"),
            key_value("cluster", "blue"),
        ]))
}

fn join_minimal() -> hb_req::StreamsGroupHeartbeatRequest {
    hb_req::StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("m")
        .with_rebalance_timeout_ms(45_000)
        .with_topology(Some(hb_req::Topology::default().with_subtopologies(vec![
            hb_req::Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(strings(&["input"])),
        ])))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("p".into()))
        .with_client_tags(Some(vec![]))
}

fn join_static_member() -> hb_req::StreamsGroupHeartbeatRequest {
    join_minimal()
        .with_group_id("app-static")
        .with_member_id("b6e0f1a2-0c3d-4e5f-8a9b-0c1d2e3f4a5b")
        .with_instance_id(Some("instance-1".into()))
}

fn steady_all_nulls() -> hb_req::StreamsGroupHeartbeatRequest {
    hb_req::StreamsGroupHeartbeatRequest::default()
        .with_group_id("app-1")
        .with_member_id("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b")
        .with_member_epoch(7)
        .with_endpoint_information_epoch(3)
}

fn owned_tasks() -> hb_req::StreamsGroupHeartbeatRequest {
    steady_all_nulls()
        .with_active_tasks(Some(vec![task_ids("0", &[0, 2, 4]), task_ids("1", &[1])]))
        .with_standby_tasks(Some(vec![task_ids("0", &[1, 3])]))
        .with_warmup_tasks(Some(vec![]))
}

fn task_offsets() -> hb_req::StreamsGroupHeartbeatRequest {
    let offset = |subtopology: &str, partition: i32, offset: i64| {
        hb_req::TaskOffset::default()
            .with_subtopology_id(subtopology)
            .with_partition(partition)
            .with_offset(offset)
    };
    steady_all_nulls()
        .with_task_offsets(Some(vec![offset("0", 0, 1_024), offset("1", 3, 0)]))
        .with_task_end_offsets(Some(vec![offset("0", 0, 4_096), offset("1", 3, i64::MAX)]))
}

fn leave(epoch: i32, instance_id: Option<&str>) -> hb_req::StreamsGroupHeartbeatRequest {
    steady_all_nulls()
        .with_member_epoch(epoch)
        .with_instance_id(instance_id.map(str::to_owned))
}

fn shutdown_application() -> hb_req::StreamsGroupHeartbeatRequest {
    steady_all_nulls().with_shutdown_application(true)
}

fn response_task_ids(subtopology_id: &str, partitions: &[i32]) -> hb_resp::TaskIds {
    hb_resp::TaskIds::default()
        .with_subtopology_id(subtopology_id)
        .with_partitions(partitions.to_vec())
}

fn topic_partition(topic: &str, partitions: &[i32]) -> hb_resp::TopicPartition {
    hb_resp::TopicPartition::default()
        .with_topic(topic)
        .with_partitions(partitions.to_vec())
}

fn success(version: i16) -> hb_resp::StreamsGroupHeartbeatResponse {
    let response = hb_resp::StreamsGroupHeartbeatResponse::default()
        .with_member_id("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b")
        .with_member_epoch(8)
        .with_heartbeat_interval_ms(5_000)
        .with_task_offset_interval_ms(60_000)
        .with_endpoint_information_epoch(4)
        .with_status(None);
    if version == 0 {
        response.with_acceptable_recovery_lag_legacy(10_000)
    } else {
        response.with_acceptable_recovery_lag(10_000_000_000)
    }
}

fn full_assignment(version: i16) -> hb_resp::StreamsGroupHeartbeatResponse {
    let endpoint =
        |host: &str, port: u16| hb_resp::Endpoint::default().with_host(host).with_port(port);
    success(version)
        .with_status(Some(vec![]))
        .with_active_tasks(Some(vec![
            response_task_ids("0", &[0, 2, 4]),
            response_task_ids("1", &[1]),
        ]))
        .with_standby_tasks(Some(vec![response_task_ids("0", &[1, 3])]))
        .with_warmup_tasks(Some(vec![response_task_ids("1", &[5])]))
        .with_partitions_by_user_endpoint(Some(vec![
            hb_resp::EndpointToPartitions::default()
                .with_user_endpoint(endpoint("streams-1.internal", 8080))
                .with_active_partitions(vec![
                    topic_partition("orders", &[0, 2, 4]),
                    topic_partition("payments", &[0, 2, 4]),
                ])
                .with_standby_partitions(vec![topic_partition("orders", &[1, 3])]),
            hb_resp::EndpointToPartitions::default()
                .with_user_endpoint(endpoint("streams-2.internal", u16::MAX))
                .with_active_partitions(vec![topic_partition("orders", &[1, 3, 5])]),
        ]))
}

fn steady_response(version: i16) -> hb_resp::StreamsGroupHeartbeatResponse {
    success(version)
}

fn empty_assignment() -> hb_resp::StreamsGroupHeartbeatResponse {
    success(1)
        .with_member_epoch(1)
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_partitions_by_user_endpoint(Some(vec![]))
}

fn status(code: i8, detail: &str) -> hb_resp::Status {
    hb_resp::Status::default()
        .with_status_code(code)
        .with_status_detail(detail)
}

/// Every status code the version may carry; code 6 only exists at v1.
fn every_status(version: i16) -> hb_resp::StreamsGroupHeartbeatResponse {
    let mut statuses = vec![
        status(0, "The member's topology epoch 1 is older than the group's topology epoch 2."),
        status(1, "Source topics orders, payments are missing."),
        status(2, "Following topics do not have the same number of partitions: [orders, payments]"),
        status(3, "Internal topics are missing: [app-1-orders-store-changelog]"),
        status(4, "A KafkaStreams instance encountered a fatal error and requested a shutdown for the entire application."),
        status(5, "Assignment delayed due to the configured initial rebalance delay."),
    ];
    if version >= 1 {
        statuses.push(status(
            6,
            "Client tags required for rack-aware standby assignment are missing: [zone]",
        ));
    }
    success(version).with_status(Some(statuses))
}

fn topology_description_required() -> hb_resp::StreamsGroupHeartbeatResponse {
    success(1).with_topology_description_required(true)
}

/// An error response carries the code and message only (rule: error responses are bare).
fn error_response(code: i16, message: &str) -> hb_resp::StreamsGroupHeartbeatResponse {
    hb_resp::StreamsGroupHeartbeatResponse::default()
        .with_error_code(code)
        .with_error_message(Some(message.to_owned()))
        .with_status(None)
}

fn describe_request(
    groups: &[&str],
    operations: bool,
    topology_description: bool,
) -> StreamsGroupDescribeRequest {
    StreamsGroupDescribeRequest::default()
        .with_group_ids(strings(groups))
        .with_include_authorized_operations(operations)
        .with_include_topology_description(topology_description)
}

fn describe_task_ids(subtopology_id: &str, partitions: &[i32]) -> describe::TaskIds {
    describe::TaskIds::default()
        .with_subtopology_id(subtopology_id)
        .with_partitions(partitions.to_vec())
}

fn described_topology() -> describe::Topology {
    let changelog = describe::TopicInfo::default()
        .with_name("app-1-orders-store-changelog")
        .with_partitions(6)
        .with_replication_factor(3)
        .with_topic_configs(vec![describe::KeyValue::default()
            .with_key("cleanup.policy")
            .with_value("compact")]);
    describe::Topology::default()
        .with_epoch(1)
        .with_subtopologies(Some(vec![
            describe::Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(strings(&["orders", "payments"]))
                .with_repartition_sink_topics(strings(&["app-1-by-customer-repartition"]))
                .with_state_changelog_topics(vec![changelog]),
            describe::Subtopology::default()
                .with_subtopology_id("1")
                .with_repartition_source_topics(vec![describe::TopicInfo::default()
                    .with_name("app-1-by-customer-repartition")
                    .with_partitions(6)]),
        ]))
}

fn member(id: &str, epoch: i32, active: &[i32], standby: &[i32]) -> describe::Member {
    let assignment = describe::Assignment::default()
        .with_active_tasks(vec![describe_task_ids("0", active)])
        .with_standby_tasks(vec![describe_task_ids("0", standby)]);
    describe::Member::default()
        .with_member_id(id)
        .with_member_epoch(epoch)
        .with_rack_id(Some("rack-a".into()))
        .with_client_id(format!("app-1-{id}-StreamThread-1"))
        .with_client_host("/127.0.0.1")
        .with_topology_epoch(1)
        .with_process_id(format!("process-{id}"))
        .with_user_endpoint(Some(
            describe::Endpoint::default()
                .with_host("streams-1.internal")
                .with_port(8080),
        ))
        .with_client_tags(vec![describe::KeyValue::default()
            .with_key("zone")
            .with_value("eu-west-1a")])
        .with_task_offsets(vec![describe::TaskOffset::default()
            .with_subtopology_id("0")
            .with_partition(0)
            .with_offset(77)])
        .with_assignment(assignment.clone())
        .with_target_assignment(assignment)
}

fn stable_group(version: i16) -> describe::StreamsGroupDescribeResponse {
    let group = describe::DescribedGroup::default()
        .with_group_id("app-1")
        .with_group_state("Stable")
        .with_group_epoch(8)
        .with_assignment_epoch(8)
        .with_topology(Some(described_topology()))
        .with_members(vec![
            member("member-1", 8, &[0, 2, 4], &[1, 3, 5]),
            member("member-2", 8, &[1, 3, 5], &[0, 2, 4])
                .with_instance_id(Some("instance-2".into())),
        ])
        .with_authorized_operations(0b1_1000_1000);
    let group = if version >= 1 {
        group.with_assignor_name(Some("sticky".into()))
    } else {
        group
    };
    describe::StreamsGroupDescribeResponse::default()
        .with_throttle_time_ms(0)
        .with_groups(vec![group])
}

fn group_not_found() -> describe::StreamsGroupDescribeResponse {
    describe::StreamsGroupDescribeResponse::default().with_groups(vec![
        describe::DescribedGroup::default()
            .with_error_code(ERROR_GROUP_ID_NOT_FOUND)
            .with_error_message(Some("Group app-9 not found.".into()))
            .with_group_id("app-9")
            .with_group_state("Dead")
            .with_group_epoch(-1)
            .with_assignment_epoch(-1),
    ])
}

fn empty_group() -> describe::StreamsGroupDescribeResponse {
    describe::StreamsGroupDescribeResponse::default()
        .with_throttle_time_ms(25)
        .with_groups(vec![describe::DescribedGroup::default()
            .with_group_id("app-2")
            .with_group_state("Empty")
            .with_group_epoch(3)
            .with_assignment_epoch(3)])
}

fn node(
    name: &str,
    node_type: i8,
    sources: &[&str],
    sink: Option<&str>,
    stores: &[&str],
    successors: &[&str],
) -> describe::TopologyDescriptionNode {
    describe::TopologyDescriptionNode::default()
        .with_name(name)
        .with_node_type(node_type)
        .with_source_topics(strings(sources))
        .with_sink_topic(sink.map(str::to_owned))
        .with_stores(strings(stores))
        .with_successors(strings(successors))
}

fn with_topology_description() -> describe::StreamsGroupDescribeResponse {
    let description = describe::TopologyDescription::default()
        .with_subtopologies(vec![describe::TopologyDescriptionSubtopology::default()
            .with_subtopology_id("0")
            .with_nodes(vec![
                node(
                    "KSTREAM-SOURCE-0000000000",
                    0,
                    &["orders"],
                    None,
                    &[],
                    &["KSTREAM-AGGREGATE-0000000001"],
                ),
                node(
                    "KSTREAM-AGGREGATE-0000000001",
                    1,
                    &[],
                    None,
                    &["orders-store"],
                    &["KSTREAM-SINK-0000000002"],
                ),
                node("KSTREAM-SINK-0000000002", 2, &[], Some("totals"), &[], &[]),
            ])])
        .with_global_stores(vec![describe::TopologyDescriptionGlobalStore::default()
            .with_source(node(
                "KSTREAM-SOURCE-0000000003",
                0,
                &["customers"],
                None,
                &[],
                &["KTABLE-SOURCE-0000000004"],
            ))
            .with_processor(node(
                "KTABLE-SOURCE-0000000004",
                1,
                &[],
                None,
                &["customers-store"],
                &[],
            ))]);
    let mut response = stable_group(1);
    response.groups[0].topology_description = Some(description);
    response.groups[0].topology_description_status = 3;
    response
}

fn draft_topology() -> draft_req::Topology {
    draft_req::Topology::default()
        .with_topology_id("5f1d3c0a9b")
        .with_subtopologies(vec![
            draft_req::Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(strings(&["orders", "payments"]))
                .with_state_changelog_topics(vec![draft_req::TopicInfo::default()
                    .with_name("app-1-orders-store-changelog")
                    .with_topic_configs(Some(vec![draft_req::KeyValue::default()
                        .with_key("cleanup.policy")
                        .with_value("compact")]))])
                .with_repartition_sink_topics(strings(&["app-1-by-customer-repartition"]))
                .with_copartition_groups(vec![
                    draft_req::CopartitionGroup::default().with_source_topics(vec![0, 1])
                ]),
            draft_req::Subtopology::default()
                .with_subtopology_id("1")
                .with_repartition_source_topics(vec![draft_req::TopicInfo::default()
                    .with_name("app-1-by-customer-repartition")
                    .with_partitions(4)]),
        ])
}

/// In the draft the coordinator assigns member ids, so a joining member sends an empty one.
fn draft_join() -> draft_req::StreamsGroupHeartbeatRequest {
    draft_req::StreamsGroupHeartbeatRequest::default()
        .with_group_id("app-1")
        .with_member_id("")
        .with_member_epoch(0)
        .with_rebalance_timeout_ms(300_000)
        .with_topology(Some(draft_topology()))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("process-1".into()))
        .with_user_endpoint(Some(
            draft_req::Endpoint::default()
                .with_host("streams-1.internal")
                .with_port(8080),
        ))
        .with_client_tags(Some(vec![]))
}

fn draft_steady() -> draft_req::StreamsGroupHeartbeatRequest {
    draft_req::StreamsGroupHeartbeatRequest::default()
        .with_group_id("app-1")
        .with_member_id("coordinator-assigned-1")
        .with_member_epoch(4)
}

fn draft_leave() -> draft_req::StreamsGroupHeartbeatRequest {
    draft_steady().with_member_epoch(-1)
}

fn draft_join_assigned() -> draft_resp::StreamsGroupHeartbeatResponse {
    let task_ids = |subtopology: &str, partitions: &[i32]| {
        draft_resp::TaskIds::default()
            .with_subtopology_id(subtopology)
            .with_partitions(partitions.to_vec())
    };
    draft_resp::StreamsGroupHeartbeatResponse::default()
        .with_member_id(Some("coordinator-assigned-1".into()))
        .with_member_epoch(1)
        .with_heartbeat_interval_ms(5_000)
        .with_acceptable_recovery_lag(10_000)
        .with_task_offset_interval_ms(60_000)
        .with_group_topology_id(Some("5f1d3c0a9b".into()))
        .with_status(Some(vec![]))
        .with_active_tasks(Some(vec![
            task_ids("0", &[0, 1]),
            task_ids("1", &[0, 1, 2, 3]),
        ]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_partitions_by_user_endpoint(Some(vec![draft_resp::EndpointToPartitions::default()
            .with_user_endpoint(
                draft_resp::Endpoint::default()
                    .with_host("streams-1.internal")
                    .with_port(8080),
            )
            .with_partitions(vec![draft_resp::TopicPartition::default()
                .with_topic("orders")
                .with_partitions(vec![0, 1])])]))
}

/// Codes as resolved in `schemas/kip-draft/RESOLUTIONS.md` (the draft listed code 2 twice).
fn draft_every_status() -> draft_resp::StreamsGroupHeartbeatResponse {
    let status = |code: i8, detail: &str| {
        draft_resp::Status::default()
            .with_status_code(code)
            .with_status_detail(detail)
    };
    draft_resp::StreamsGroupHeartbeatResponse::default()
        .with_member_id(None)
        .with_member_epoch(4)
        .with_heartbeat_interval_ms(5_000)
        .with_status(Some(vec![
            status(
                0,
                "Topology id 5f1d3c0a9b differs from the group's topology id 77aa01.",
            ),
            status(1, "Missing source topics: orders"),
            status(2, "Not copartitioned: orders, payments"),
            status(3, "Missing internal topics: app-1-orders-store-changelog"),
            status(4, "Shutdown requested by member coordinator-assigned-2"),
        ]))
}

fn draft_error() -> draft_resp::StreamsGroupHeartbeatResponse {
    draft_resp::StreamsGroupHeartbeatResponse::default()
        .with_error_code(ERROR_STREAMS_INVALID_TOPOLOGY)
        .with_error_message(Some("Source topic regex is not supported.".into()))
        .with_status(None)
}
