//! The reference coordinator's speed: a steady heartbeat of a dynamic and of a static member in
//! groups of 10 to 10,000 members (its cost should follow the member's own assignment, not the
//! group's size); building a group of 100 and 1,000 members from nothing to stable (joins, the
//! initial delay, one target assignment, every member reconciled); and a full target assignment
//! for 10 to 1,000 members over 100 to 10,000 tasks, with 0 and 1 standby replicas.

use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use streamspec_coordinator::assignor::{AssignmentInput, MemberSpec, StickyAssignor, TaskAssignor};
use streamspec_coordinator::tasks::TaskSets;
use streamspec_coordinator::{ClusterMetadata, Coordinator, CoordinatorConfig, RequestContext};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, TaskIds, Topology};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

const TASKS_PER_MEMBER: usize = 2;

fn context() -> RequestContext {
    RequestContext::new("bench", "/127.0.0.1")
}

/// When the group settles: Kafka's default initial rebalance delay (3 s) has passed.
const SETTLED_AT_MS: u64 = 3_000;

/// The instance id of a static member, none for a dynamic one.
fn instance(member: &str, is_static: bool) -> Option<String> {
    is_static.then(|| format!("i-{member}"))
}

fn join(member: &str, is_static: bool) -> StreamsGroupHeartbeatRequest {
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

fn task_list(partitions: &[i32]) -> Option<Vec<TaskIds>> {
    Some(vec![TaskIds::default()
        .with_subtopology_id("0")
        .with_partitions(partitions.to_vec())])
}

/// A group of `members` members (static ones with `is_static`), each holding its share of the
/// tasks, all reconciled; returns the coordinator and every member's id and epoch. Kafka's default
/// configs: all join within the initial rebalance delay, so one target assignment serves them all.
fn stable_group(members: usize, is_static: bool) -> (Coordinator, Vec<(String, i32)>) {
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

fn steady_heartbeat(criterion: &mut Criterion) {
    for (name, is_static) in [
        ("steady_heartbeat", false),
        ("steady_static_heartbeat", true),
    ] {
        let mut group = criterion.benchmark_group(name);
        for members in [10, 100, 1_000, 10_000] {
            let (mut coordinator, ids) = stable_group(members, is_static);
            assert_eq!(
                coordinator.group("g").map(|group| group.state()),
                Some("Stable")
            );
            let (member, epoch) = ids[members / 2].clone();
            let request = StreamsGroupHeartbeatRequest::default()
                .with_group_id("g")
                .with_instance_id(instance(&member, is_static))
                .with_member_id(member)
                .with_member_epoch(epoch);
            let context = context();
            let now_ms = SETTLED_AT_MS + 1;
            let (response, _) = coordinator.handle_heartbeat(now_ms, &context, 1, &request);
            assert_eq!((response.error_code, response.member_epoch), (0, epoch));
            assert_eq!(
                response.active_tasks, None,
                "a steady heartbeat sends no tasks"
            );
            group.bench_with_input(
                BenchmarkId::from_parameter(members),
                &request,
                |bench, request| {
                    bench.iter(|| {
                        coordinator.handle_heartbeat(now_ms, &context, 1, black_box(request))
                    })
                },
            );
        }
        group.finish();
    }
}

fn build_group(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("build_group");
    group.sample_size(10);
    for members in [100, 1_000] {
        group.bench_with_input(
            BenchmarkId::from_parameter(members),
            &members,
            |bench, members| bench.iter(|| stable_group(*members, false)),
        );
    }
    group.finish();
}

fn assignment(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("target_assignment");
    group.sample_size(10);
    for members in [10, 100, 1_000] {
        for tasks in [100i32, 1_000, 10_000] {
            for standbys in [0, 1] {
                let input = AssignmentInput {
                    members: (0..members)
                        .map(|index| MemberSpec {
                            member_id: format!("m{index:04}"),
                            process_id: format!("p{}", index / 2),
                            current: TaskSets::default(),
                            task_offsets: Vec::new(),
                        })
                        .collect(),
                    task_counts: (0..10).map(|s| (s.to_string(), tasks / 10)).collect(),
                    stateful: (0..10).map(|s| s.to_string()).collect::<BTreeSet<_>>(),
                    num_standby_replicas: standbys,
                };
                let id = format!("{members}m_{tasks}t_{standbys}s");
                group.bench_with_input(BenchmarkId::from_parameter(id), &input, |bench, input| {
                    bench.iter(|| StickyAssignor.assign(black_box(input)))
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, steady_heartbeat, build_group, assignment);
criterion_main!(benches);
