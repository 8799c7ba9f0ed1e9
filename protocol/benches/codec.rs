//! Encode and decode speed of a small steady heartbeat and of a large join (100 subtopologies),
//! in bytes/s; messages/s is the inverse of the time per iteration.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;
use streamspec_protocol::samples::large;
use streamspec_protocol::WireMessage;

fn codec(criterion: &mut Criterion) {
    for (name, message) in [
        ("steady_heartbeat", large::steady_heartbeat()),
        ("join_100_subtopologies", large::join(100)),
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
