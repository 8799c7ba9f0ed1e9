//! Spec 4.5 (rule R42): the first assignment of a group that was empty waits for the initial
//! rebalance delay; until then members get empty tasks and ASSIGNMENT_DELAYED.

use streamspec_coordinator::{ClusterMetadata, Coordinator, CoordinatorConfig, RequestContext};
use streamspec_protocol::codes::STATUS_ASSIGNMENT_DELAYED;
use streamspec_protocol::kafka::streams_group_describe_request::StreamsGroupDescribeRequest;
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};
use streamspec_protocol::kafka::streams_group_heartbeat_response as response;
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;

fn context() -> RequestContext {
    RequestContext::new("c", "/127.0.0.1")
}

fn join() -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("a")
        .with_rebalance_timeout_ms(30_000)
        .with_topology(Some(Topology::default().with_subtopologies(
            vec![Subtopology::default()
            .with_subtopology_id("0")
            .with_source_topics(vec!["in".to_owned()])],
        )))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("p".to_owned()))
}

fn epochs(coordinator: &Coordinator) -> (String, i32, i32) {
    let described = coordinator.handle_describe(
        &context(),
        &StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".to_owned()]),
    );
    let group = &described.groups[0];
    (
        group.group_state.clone(),
        group.group_epoch,
        group.assignment_epoch,
    )
}

#[test]
fn r42_first_assignment_waits_for_the_initial_rebalance_delay() {
    let config = CoordinatorConfig {
        initial_rebalance_delay_ms: 3_000,
        ..CoordinatorConfig::default()
    };
    assert_eq!(
        CoordinatorConfig::default().initial_rebalance_delay_ms,
        3_000,
        "Kafka's default"
    );
    let mut coordinator = Coordinator::new(config);
    coordinator.handle_metadata(ClusterMetadata::default().with_topic("in", 2));

    let (joined, _) = coordinator.handle_heartbeat(0, &context(), 1, &join());
    assert_eq!((joined.error_code, joined.member_epoch), (0, 1));
    assert_eq!(
        joined.status,
        Some(vec![response::Status::default()
            .with_status_code(STATUS_ASSIGNMENT_DELAYED)
            .with_status_detail(
                "Assignment delayed due to the configured initial rebalance delay."
            )])
    );
    assert_eq!(joined.active_tasks, Some(vec![]));
    assert_eq!(epochs(&coordinator), ("Assigning".to_owned(), 2, 1));

    // The delay is a deadline like the session timeout; nothing changes one millisecond before.
    assert_eq!(coordinator.next_deadline(), Some(3_000));
    assert!(coordinator.handle_timeout(2_999).is_empty());
    assert_eq!(coordinator.next_deadline(), Some(3_000));
    assert!(coordinator.handle_timeout(3_000).is_empty());

    let heartbeat = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("a")
        .with_member_epoch(1)
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]));
    let (assigned, _) = coordinator.handle_heartbeat(3_000, &context(), 1, &heartbeat);
    assert_eq!((assigned.error_code, assigned.member_epoch), (0, 2));
    assert_eq!(assigned.status, Some(vec![]));
    assert_eq!(
        assigned.active_tasks,
        Some(vec![response::TaskIds::default()
            .with_subtopology_id("0")
            .with_partitions(vec![0, 1])])
    );
    assert_eq!(epochs(&coordinator), ("Stable".to_owned(), 2, 2));
}
