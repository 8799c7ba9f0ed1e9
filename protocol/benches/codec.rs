//! Encode and decode speed of a small steady heartbeat and of a large join (100 subtopologies),
//! in bytes/s; messages/s is the inverse of the time per iteration.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    KeyValue, Subtopology, TopicInfo, Topology,
};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;
use streamspec_protocol::WireMessage;

fn steady_heartbeat() -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("app-1")
        .with_member_id("3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b")
        .with_member_epoch(7)
        .with_endpoint_information_epoch(3)
}

fn large_join(subtopologies: usize) -> StreamsGroupHeartbeatRequest {
    let subtopology = |index: usize| {
        Subtopology::default()
            .with_subtopology_id(index.to_string())
            .with_source_topics(vec![format!("input-{index}-a"), format!("input-{index}-b")])
            .with_state_changelog_topics(vec![TopicInfo::default()
                .with_name(format!("app-1-store-{index}-changelog"))
                .with_topic_configs(vec![KeyValue::default()
                    .with_key("cleanup.policy")
                    .with_value("compact")])])
            .with_repartition_sink_topics(vec![format!("app-1-repartition-{}", index + 1)])
            .with_repartition_source_topics(vec![TopicInfo::default()
                .with_name(format!("app-1-repartition-{index}"))
                .with_partitions(8)])
    };
    steady_heartbeat()
        .with_member_epoch(0)
        .with_rebalance_timeout_ms(300_000)
        .with_topology(Some(
            Topology::default().with_subtopologies((0..subtopologies).map(subtopology).collect()),
        ))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("9d1c2b3a-0000-4000-8000-00000000beef".into()))
}

fn codec(criterion: &mut Criterion) {
    for (name, message) in [
        ("steady_heartbeat", steady_heartbeat()),
        ("join_100_subtopologies", large_join(100)),
    ] {
        let bytes = message.encode_to_vec(0).unwrap();
        let mut group = criterion.benchmark_group(name);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("encode", |bench| {
            bench.iter(|| black_box(&message).encode_to_vec(0).unwrap())
        });
        group.bench_function("decode", |bench| {
            bench.iter(|| StreamsGroupHeartbeatRequest::decode_exact(black_box(&bytes), 0).unwrap())
        });
        group.finish();
        println!("{name}: {} bytes", bytes.len());
    }
}

criterion_group!(benches, codec);
criterion_main!(benches);
