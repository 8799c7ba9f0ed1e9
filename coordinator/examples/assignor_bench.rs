//! The reference's half of the side-by-side assignor benchmark (`scripts/bench/assignor.sh`).
//!
//! `assignor_bench cases` prints the grid (`assignor_cases::bench_grid`) in the input format of
//! the Java program in `coordinator/java/`, whose `AssignorBench` times Kafka's own
//! `StickyTaskAssignor` on it. `assignor_bench compare KAFKA_TIMES KAFKA_ANSWERS ROUNDS ROUND_MS
//! WARMUP_MS` checks that the reference's targets equal Kafka's, times the reference the same way
//! (per case a warm-up, then rounds of as many assignments as fill about ROUND_MS, each timed by
//! this thread's CPU time) and prints per case
//! `case=assign/NAME kafka_ns=N ours_ns=N ratio=R kafka_median_ns=N ours_median_ns=N`: CPU
//! nanoseconds per assignment, the ratio from the minima over the rounds. `assignor_bench ours
//! FILTER ROUNDS ROUND_MS WARMUP_MS` times the reference alone on the cases whose name contains
//! FILTER (`case=assign/NAME ours_ns=N ours_median_ns=N`), for profiling without the JVM.

#[path = "common/cpu_rounds.rs"]
mod cpu_rounds;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::process::ExitCode;

use cpu_rounds::Rounds;
use streamspec_coordinator::assignor::{AssignmentInput, StickyAssignor, TaskAssignor};
use streamspec_coordinator::assignor_cases::{answer, bench_grid, describe};

fn grid() -> Vec<(String, AssignmentInput)> {
    bench_grid(|input| StickyAssignor.assign(input))
}

/// Minimum and median CPU nanoseconds per assignment of `input`.
fn measure(input: &AssignmentInput, rounds: &Rounds) -> (u128, u128) {
    cpu_rounds::measure(rounds, || {
        black_box(StickyAssignor.assign(black_box(input)));
    })
}

fn compare(args: &[String]) -> Result<(), String> {
    let [times, answers, timing @ ..] = args else {
        return Err("compare needs KAFKA_TIMES KAFKA_ANSWERS ROUNDS ROUND_MS WARMUP_MS".into());
    };
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let number = |text: &str| -> Result<u128, String> {
        text.parse().map_err(|_| format!("not a number: {text:?}"))
    };
    let rounds = rounds(timing)?;
    let mut kafka_times = BTreeMap::new();
    for line in read(times)?.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, min, median] = fields[..] else {
            return Err(format!("{times}: unexpected line {line:?}"));
        };
        kafka_times.insert(name.to_owned(), (number(min)?, number(median)?));
    }
    let kafka_answers = read(answers)?;
    let kafka_answers: Vec<&str> = kafka_answers.split_inclusive("end\n").collect();
    let grid = grid();
    if kafka_answers.len() != grid.len() {
        return Err(format!(
            "{} answers from Kafka for {} cases",
            kafka_answers.len(),
            grid.len()
        ));
    }
    for ((name, input), kafka_answer) in grid.iter().zip(kafka_answers) {
        if answer(input, &StickyAssignor.assign(input)) != kafka_answer {
            return Err(format!("case {name}: the targets differ from Kafka's"));
        }
        let (kafka_min, kafka_median) = *kafka_times
            .get(name)
            .ok_or_else(|| format!("case {name}: no time from Kafka"))?;
        let (ours_min, ours_median) = measure(input, &rounds);
        println!(
            "case=assign/{name} kafka_ns={kafka_min} ours_ns={ours_min} ratio={:.2} kafka_median_ns={kafka_median} ours_median_ns={ours_median}",
            kafka_min as f64 / ours_min.max(1) as f64
        );
    }
    Ok(())
}

/// Rounds from the command line's ROUNDS ROUND_MS WARMUP_MS.
fn rounds(args: &[String]) -> Result<Rounds, String> {
    let number = |text: &str| -> Result<u128, String> {
        text.parse().map_err(|_| format!("not a number: {text:?}"))
    };
    let [count, round_ms, warmup_ms] = args else {
        return Err("needs ROUNDS ROUND_MS WARMUP_MS".into());
    };
    Ok(Rounds {
        count: usize::try_from(number(count)?).map_err(|e| e.to_string())?,
        round_ns: number(round_ms)? * 1_000_000,
        warmup_ns: number(warmup_ms)? * 1_000_000,
    })
}

fn ours(args: &[String]) -> Result<(), String> {
    let [filter, rest @ ..] = args else {
        return Err("ours needs FILTER ROUNDS ROUND_MS WARMUP_MS".into());
    };
    let rounds = rounds(rest)?;
    for (name, input) in grid()
        .iter()
        .filter(|(name, _)| name.contains(filter.as_str()))
    {
        let (min, median) = measure(input, &rounds);
        println!("case=assign/{name} ours_ns={min} ours_median_ns={median}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("cases") => {
            let mut out = String::new();
            for (name, input) in grid() {
                describe(&name, &input, &mut out);
            }
            print!("{out}");
            Ok(())
        }
        Some("compare") => compare(&args[1..]),
        Some("ours") => ours(&args[1..]),
        _ => Err("usage: assignor_bench cases | assignor_bench compare KAFKA_TIMES KAFKA_ANSWERS ROUNDS ROUND_MS WARMUP_MS | assignor_bench ours FILTER ROUNDS ROUND_MS WARMUP_MS".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("assignor_bench: {message}");
            ExitCode::FAILURE
        }
    }
}
