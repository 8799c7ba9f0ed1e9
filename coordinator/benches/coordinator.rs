//! The reference coordinator's speed: a steady heartbeat of a dynamic and of a static member in
//! groups of 10 to 10,000 members (its cost should follow the member's own assignment, not the
//! group's size); building a group of 100 and 1,000 members from nothing to stable (joins, the
//! initial delay, one target assignment, every member reconciled); and a full target assignment
//! for 10 to 1,000 members over 100 to 10,000 tasks, with 0 and 1 standby replicas.

#[path = "../examples/common/groups.rs"]
mod groups;

use std::collections::BTreeSet;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use groups::{context, stable_group, steady_request, SETTLED_AT_MS};
use streamspec_coordinator::assignor::{AssignmentInput, MemberSpec, StickyAssignor, TaskAssignor};
use streamspec_coordinator::tasks::TaskSets;

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
            let (request, epoch) = steady_request(&ids, is_static);
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
                            member_id: format!("m{index:04}").into(),
                            process_id: format!("p{}", index / 2).into(),
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
