//! Groups the coordinator's benchmarks build: members joining with Kafka's default configs until
//! the group is stable, each holding its share of the tasks.

use std::collections::BTreeMap;

use streamspec_coordinator::{ClusterMetadata, Coordinator, CoordinatorConfig, RequestContext};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, TaskIds, Topology};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

const TASKS_PER_MEMBER: usize = 2;

pub fn context() -> RequestContext {
    RequestContext::new("bench", "/127.0.0.1")
}

/// When the group settles: Kafka's default initial rebalance delay (3 s) has passed.
pub const SETTLED_AT_MS: u64 = 3_000;

/// The instance id of a static member, none for a dynamic one.
pub fn instance(member: &str, is_static: bool) -> Option<String> {
    is_static.then(|| format!("i-{member}"))
}

pub fn join(member: &str, is_static: bool) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id(member)
        .with_instance_id(instance(member, is_static))
        .with_rebalance_timeout_ms(30_000)
        .with_topology(Some(Topology::default().with_subtopologies(
            vec![Subtopology::default()
            .with_subtopology_id("0")
            .with_source_topics(vec!["in".to_owned()])],
        )))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some(format!("p-{member}")))
}

pub fn task_list(partitions: &[i32]) -> Option<Vec<TaskIds>> {
    Some(vec![TaskIds::default()
        .with_subtopology_id("0")
        .with_partitions(partitions.to_vec())])
}

/// A group of `members` members (static ones with `is_static`), each holding its share of the
/// tasks, all reconciled; returns the coordinator and every member's id and epoch. Kafka's default
/// configs: all join within the initial rebalance delay, so one target assignment serves them all.
pub fn stable_group(members: usize, is_static: bool) -> (Coordinator, Vec<(String, i32)>) {
    let mut coordinator = Coordinator::new(CoordinatorConfig::default());
    let context = context();
    let partitions = (members * TASKS_PER_MEMBER) as i32;
    coordinator.handle_metadata(ClusterMetadata::default().with_topic("in", partitions));
    let mut owned: BTreeMap<String, (i32, Vec<i32>)> = BTreeMap::new();
    let record = |owned: &mut BTreeMap<String, (i32, Vec<i32>)>,
                  id: &str,
                  response: StreamsGroupHeartbeatResponse| {
        assert_eq!(response.error_code, 0, "{response:?}");
        let previous = owned
            .get(id)
            .map(|(_, tasks)| tasks.clone())
            .unwrap_or_default();
        let tasks = response
            .active_tasks
            .map(|lists| lists.into_iter().flat_map(|list| list.partitions).collect())
            .unwrap_or(previous);
        owned.insert(id.to_owned(), (response.member_epoch, tasks))
    };
    let ids: Vec<String> = (0..members).map(|index| format!("m{index:05}")).collect();
    for id in &ids {
        let (response, _) = coordinator.handle_heartbeat(0, &context, 1, &join(id, is_static));
        record(&mut owned, id, response);
    }
    coordinator.handle_timeout(SETTLED_AT_MS);
    // Heartbeats reporting what each member was given, until nothing changes.
    loop {
        let mut changed = false;
        for id in &ids {
            let (epoch, tasks) = owned[id].clone();
            let request = StreamsGroupHeartbeatRequest::default()
                .with_group_id("g")
                .with_member_id(id.clone())
                .with_instance_id(instance(id, is_static))
                .with_member_epoch(epoch)
                .with_active_tasks(task_list(&tasks))
                .with_standby_tasks(Some(vec![]))
                .with_warmup_tasks(Some(vec![]));
            let (response, _) = coordinator.handle_heartbeat(SETTLED_AT_MS, &context, 1, &request);
            changed |= record(&mut owned, id, response) != owned.get(id).cloned();
        }
        if !changed {
            break;
        }
    }
    let ids = ids
        .into_iter()
        .map(|id| (id.clone(), owned[&id].0))
        .collect();
    (coordinator, ids)
}

/// A steady heartbeat of member `ids[members / 2]` of a stable group: its epoch, nothing else.
pub fn steady_request(
    ids: &[(String, i32)],
    is_static: bool,
) -> (StreamsGroupHeartbeatRequest, i32) {
    let (member, epoch) = ids[ids.len() / 2].clone();
    let request = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_instance_id(instance(&member, is_static))
        .with_member_id(member)
        .with_member_epoch(epoch);
    (request, epoch)
}
