//! The in-process campaign: runs drawn as `streamspec fuzz` draws them, against the reference
//! through the wire codec, with the oracle on. Throughput is in operations, as the campaign
//! prints its rate. Beside it, the `coordinator_ops` fuzz target's body over its corpus, without
//! the fuzzer's instrumentation: a bound on the executions per second cargo-fuzz can reach.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamspec::campaign::CampaignConfig;
use streamspec::simulation::run_in_process;

fn campaign(c: &mut Criterion) {
    let config = CampaignConfig {
        seed: 1,
        operations: 200,
        ..CampaignConfig::default()
    };
    let inputs: Vec<_> = (0..32).map(|run| config.input(run)).collect();
    let operations: usize = inputs.iter().map(|input| input.operations.len()).sum();
    let mut group = c.benchmark_group("campaign");
    group.throughput(Throughput::Elements(operations as u64));
    group.bench_function("32 runs of 200 operations, oracle on", |b| {
        b.iter(|| {
            for input in &inputs {
                let record = run_in_process(input);
                assert!(record.violation.is_none());
            }
        })
    });
    group.finish();
}

fn coordinator_ops_corpus(c: &mut Criterion) {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/coordinator_ops");
    let mut inputs: Vec<Vec<u8>> = std::fs::read_dir(folder)
        .expect("the corpus folder")
        .map(|entry| std::fs::read(entry.expect("a corpus entry").path()).expect("a corpus file"))
        .collect();
    inputs.sort();
    let mut group = c.benchmark_group("coordinator_ops");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("corpus, one execution per input", |b| {
        b.iter(|| {
            for input in &inputs {
                streamspec::fuzzing::coordinator_ops(input);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, campaign, coordinator_ops_corpus);
criterion_main!(benches);
