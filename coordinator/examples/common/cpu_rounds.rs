//! Timing on the measuring thread's CPU clock, in rounds, for the benchmark programs: other
//! processes on a shared machine slow the wall clock, not this one.

use nix::time::{clock_gettime, ClockId};

/// CPU time this thread has used.
pub fn cpu_ns() -> u128 {
    let time = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).expect("a thread CPU clock");
    time.tv_sec() as u128 * 1_000_000_000 + time.tv_nsec() as u128
}

/// How to measure: a warm-up, then `count` rounds of about `round_ns` each.
#[derive(Debug, Clone, Copy)]
pub struct Rounds {
    pub count: usize,
    pub round_ns: u128,
    pub warmup_ns: u128,
}

/// Minimum and median CPU nanoseconds per call of `operation` over the rounds; a round makes as
/// many calls as the warm-up says fill `round_ns`.
pub fn measure(rounds: &Rounds, mut operation: impl FnMut()) -> (u128, u128) {
    let mut warmed = 0;
    let start = cpu_ns();
    let spent = loop {
        operation();
        warmed += 1;
        let spent = cpu_ns() - start;
        if spent >= rounds.warmup_ns {
            break spent;
        }
    };
    let batch = (rounds.round_ns * warmed / spent.max(1)).max(1);
    let count = rounds.count.max(1);
    let mut per_call: Vec<u128> = (0..count)
        .map(|_| {
            let start = cpu_ns();
            for _ in 0..batch {
                operation();
            }
            (cpu_ns() - start) / batch
        })
        .collect();
    per_call.sort_unstable();
    (per_call[0], per_call[count / 2])
}
