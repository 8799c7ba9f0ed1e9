//! The in-process campaign: runs drawn as `streamspec fuzz` draws them, against the reference
//! through the wire codec, with the oracle on. Throughput is in operations, as the campaign
//! prints its rate.

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

criterion_group!(benches, campaign);
criterion_main!(benches);
