//! The reference coordinator's costs on this thread's CPU clock: a steady heartbeat of a dynamic
//! and of a static member in groups of 10 to 10,000 members, and building a group of 100 and
//! 1,000 members from nothing to stable (`common/groups.rs`, as the criterion benchmark builds
//! them).
//!
//! `coordinator_costs ROUNDS ROUND_MS WARMUP_MS` prints per case
//! `case=NAME min_ns=N median_ns=N`: CPU nanoseconds per operation, the minimum and the median
//! over the rounds.

#[path = "common/cpu_rounds.rs"]
mod cpu_rounds;
#[path = "common/groups.rs"]
mod groups;

use std::hint::black_box;
use std::process::ExitCode;

use cpu_rounds::{measure, Rounds};
use groups::{context, stable_group, steady_request, SETTLED_AT_MS};

fn report(name: &str, (min, median): (u128, u128)) {
    println!("case={name} min_ns={min} median_ns={median}");
}

fn run(rounds: &Rounds) {
    let context = context();
    for (kind, is_static) in [
        ("steady_heartbeat", false),
        ("steady_static_heartbeat", true),
    ] {
        for members in [10, 100, 1_000, 10_000] {
            let (mut coordinator, ids) = stable_group(members, is_static);
            let (request, epoch) = steady_request(&ids, is_static);
            let now_ms = SETTLED_AT_MS + 1;
            let (response, _) = coordinator.handle_heartbeat(now_ms, &context, 1, &request);
            assert_eq!((response.error_code, response.member_epoch), (0, epoch));
            assert_eq!(
                response.active_tasks, None,
                "a steady heartbeat sends no tasks"
            );
            let cost = measure(rounds, || {
                black_box(coordinator.handle_heartbeat(now_ms, &context, 1, black_box(&request)));
            });
            report(&format!("{kind}/{members}"), cost);
        }
    }
    for members in [100, 1_000] {
        let cost = measure(rounds, || {
            black_box(stable_group(black_box(members), false));
        });
        report(&format!("build_group/{members}"), cost);
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Result<Vec<u128>, _> = args.iter().map(|arg| arg.parse::<u128>()).collect();
    match numbers.as_deref() {
        Ok([count, round_ms, warmup_ms]) => {
            run(&Rounds {
                count: *count as usize,
                round_ns: round_ms * 1_000_000,
                warmup_ns: warmup_ms * 1_000_000,
            });
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: coordinator_costs ROUNDS ROUND_MS WARMUP_MS");
            ExitCode::FAILURE
        }
    }
}
