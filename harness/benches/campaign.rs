//! The in-process campaign: runs drawn as `streamspec fuzz` draws them, against the reference
//! through the wire codec, with the oracle on. Throughput is in operations, as the campaign
//! prints its rate.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamspec::campaign::CampaignConfig;
use streamspec::simulation::run_in_process;
use streamspec::target::TargetSpec;

fn campaign(c: &mut Criterion) {
    let config = CampaignConfig {
        target: TargetSpec::Embedded,
        seed: 1,
        duration: std::time::Duration::ZERO,
        operations: 200,
        groups: 1,
        check_determinism: false,
        io_timeout: std::time::Duration::ZERO,
        replication_factor: 1,
        run_id: "bench".to_owned(),
        shrink_budget: std::time::Duration::ZERO,
        interrupt: Default::default(),
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
