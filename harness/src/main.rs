//! `streamspec`: grades a Kafka Streams rebalance protocol coordinator rule by rule.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use streamspec::report::Report;
use streamspec::runner::{run_scenario, RunSettings, Verdict};
use streamspec::scenario::{self, Scenario};
use streamspec::simulation;
use streamspec::target::TargetSpec;
use streamspec::transport::Connection;

const EXAMPLES: &str = "Examples:
  streamspec check
  streamspec check --target 127.0.0.1:9092
  streamspec check --target 127.0.0.1:9092 --rules R1 --rules 'R2*' --junit report.xml
  streamspec check --target broker:9092 --scenarios my-scenarios/ --only-scenarios --json out.json
  streamspec fuzz --duration 60s --seed 7
  streamspec list";

#[derive(Parser, Debug)]
#[command(name = "streamspec", version, about = "Conformance checker for the Kafka Streams rebalance protocol (KIP-1071)", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Parser, Debug)]
struct ScenarioSource {
    /// A scenario file, or a folder of them; repeatable.
    #[arg(long = "scenarios", value_name = "PATH")]
    scenarios: Vec<PathBuf>,
    /// Run only the scenarios of --scenarios, not the built-in catalogue.
    #[arg(long, requires = "scenarios")]
    only_scenarios: bool,
    /// Select rules by id (R25) or pattern (R2*), or scenarios by name pattern; repeatable.
    #[arg(long = "rules", value_name = "PATTERN")]
    rules: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Runs the rule catalogue against a coordinator and reports a line per rule.
    #[command(after_help = EXAMPLES)]
    Check {
        /// The coordinator: HOST:PORT of a broker, or `embedded` (the default) for the reference
        /// coordinator in process, on a virtual clock.
        #[arg(long, value_name = "HOST:PORT|embedded")]
        target: Option<String>,
        #[command(flatten)]
        source: ScenarioSource,
        /// Fail the run on SHOULD failures too.
        #[arg(long)]
        strict: bool,
        /// Write a JUnit XML report.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Write a JSON report.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Scenarios run at once (each has its own group and topics).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: u16,
        /// Bound on every single wait for the target, in milliseconds.
        #[arg(long, default_value_t = 15_000)]
        timeout_ms: u64,
        /// Makes group and topic names unique; defaults to the current time.
        #[arg(long)]
        run_id: Option<String>,
    },
    /// Randomized runs against the reference coordinator: simulated members, faults, and the
    /// invariant oracle; a violation is saved as a trace that `replay` runs again.
    Fuzz {
        /// Only `embedded` so far: the reference coordinator in process.
        #[arg(long, default_value = "embedded")]
        target: String,
        /// How long to run, e.g. 60s or 2m.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        duration: Duration,
        /// The root seed every run derives from (also STREAMSPEC_SEED).
        #[arg(long, env = "STREAMSPEC_SEED", default_value_t = 0x5eed)]
        seed: u64,
        /// Operations per run.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        operations: u32,
    },
    /// Runs a saved trace (a JSON list of operations) again through the oracle.
    Replay {
        /// The trace file `fuzz` wrote.
        file: PathBuf,
    },
    /// Lists the rules and the scenarios that check them.
    List {
        #[command(flatten)]
        source: ScenarioSource,
        /// Also print each scenario's evidence: what the real broker showed where the spec was unsure or wrong.
        #[arg(long)]
        evidence: bool,
    },
}

/// A pattern with `*` wildcards.
fn glob_matches(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            text.starts_with(head)
                && (0..=text.len() - head.len()).any(|skip| {
                    text.is_char_boundary(head.len() + skip)
                        && glob_matches(tail, &text[head.len() + skip..])
                })
        }
    }
}

fn select(source: &ScenarioSource) -> Result<Vec<Scenario>, String> {
    let mut scenarios = if source.only_scenarios {
        Vec::new()
    } else {
        scenario::catalogue()
    };
    for path in &source.scenarios {
        if !path.exists() {
            return Err(format!("{}: no such file or folder", path.display()));
        }
        scenarios.extend(scenario::load_path(path).map_err(|error| error.to_string())?);
    }
    scenario::check_unique_names(&scenarios).map_err(|error| error.to_string())?;
    if !source.rules.is_empty() {
        scenarios.retain(|scenario| {
            source.rules.iter().any(|pattern| {
                glob_matches(pattern, &scenario.name)
                    || scenario
                        .rules
                        .iter()
                        .any(|rule| glob_matches(pattern, rule))
            })
        });
        if scenarios.is_empty() {
            return Err(format!(
                "no scenario matches --rules {}",
                source.rules.join(" ")
            ));
        }
    }
    Ok(scenarios)
}

fn list(source: &ScenarioSource, evidence: bool) -> Result<ExitCode, String> {
    let scenarios = select(source)?;
    let mut by_rule: std::collections::BTreeMap<u32, Vec<&Scenario>> = Default::default();
    for scenario in &scenarios {
        for rule in &scenario.rules {
            by_rule
                .entry(rule.trim_start_matches('R').parse().unwrap_or(u32::MAX))
                .or_default()
                .push(scenario);
        }
    }
    for (rule, scenarios) in &by_rule {
        for scenario in scenarios {
            println!(
                "R{rule:<4} {:<13} {:<40} {}",
                scenario.grade.to_string(),
                scenario.name,
                scenario.title
            );
            if let Some(text) = scenario.evidence.as_ref().filter(|_| evidence) {
                println!("      evidence: {text}");
            }
        }
    }
    let with_evidence = scenarios
        .iter()
        .filter(|scenario| scenario.evidence.is_some())
        .count();
    println!(
        "\n{} rules, {} scenarios ({with_evidence} carry evidence from the real broker: --evidence)",
        by_rule.len(),
        scenarios.len()
    );
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)] // the flags of `check`, passed on as they are
async fn check(
    target: Option<String>,
    source: &ScenarioSource,
    strict: bool,
    junit: Option<PathBuf>,
    json: Option<PathBuf>,
    jobs: u16,
    timeout_ms: u64,
    run_id: Option<String>,
) -> Result<ExitCode, String> {
    let target = TargetSpec::parse(target.as_deref().unwrap_or("embedded"));
    let scenarios = select(source)?;
    let timeout = Duration::from_millis(timeout_ms);
    if let TargetSpec::Kafka(address) = &target {
        // One line, exit 2, when nothing usable listens there.
        let connection = Connection::connect(address, timeout)
            .await
            .map_err(|error| error.to_string())?;
        for key in [88, 89] {
            if connection.versions(key).is_none() {
                return Err(format!(
                    "{address} does not offer api key {key}: is the Streams rebalance protocol enabled?"
                ));
            }
        }
    }

    // Each embedded scenario has a coordinator of its own, so names need no uniqueness and the
    // run stays deterministic; on a shared broker they must not meet earlier runs' names.
    let run_id = run_id.unwrap_or_else(|| {
        if target == TargetSpec::Embedded {
            return "embedded".to_owned();
        }
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.as_millis())
            .unwrap_or_default();
        format!("{millis:x}")
    });
    eprintln!(
        "streamspec check --target {target}: {} scenarios, run id {run_id}",
        scenarios.len()
    );
    let settings = Arc::new(RunSettings {
        target: target.clone(),
        run_id: run_id.clone(),
        io_timeout: timeout,
    });

    let progress = ProgressBar::new(scenarios.len() as u64);
    if std::io::stderr().is_terminal() {
        progress.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} scenarios, {msg}")
                .expect("a valid template"),
        );
    } else {
        progress.set_draw_target(ProgressDrawTarget::hidden());
    }
    let semaphore = Arc::new(tokio::sync::Semaphore::new(usize::from(jobs)));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, scenario) in scenarios.into_iter().enumerate() {
        let settings = Arc::clone(&settings);
        let semaphore = Arc::clone(&semaphore);
        tasks.spawn_local(async move {
            let _permit = semaphore
                .acquire_owned()
                .await
                .expect("the semaphore stays open");
            (index, run_scenario(&scenario, &settings).await)
        });
    }
    let mut outcomes = Vec::new();
    let mut failed = 0;
    while let Some(joined) = tasks.join_next().await {
        let (index, outcome) =
            joined.map_err(|error| format!("a scenario task failed: {error}"))?;
        if matches!(
            outcome.verdict,
            Verdict::Fail | Verdict::Error | Verdict::Timeout
        ) {
            failed += 1;
        }
        progress.set_message(format!("{failed} failed"));
        progress.inc(1);
        outcomes.push((index, outcome));
    }
    progress.finish_and_clear();
    outcomes.sort_by_key(|(index, _)| *index);
    let mut outcomes: Vec<_> = outcomes.into_iter().map(|(_, outcome)| outcome).collect();
    streamspec::runner::apply_divergences(
        &mut outcomes,
        &target,
        &streamspec::runner::divergences(),
    );
    let report = Report {
        target: target.to_string(),
        run_id,
        strict,
        outcomes,
    };
    print!("{}", report.human());
    if let Some(path) = junit {
        std::fs::write(&path, report.junit())
            .map_err(|error| format!("{}: {error}", path.display()))?;
    }
    if let Some(path) = json {
        std::fs::write(&path, report.json())
            .map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `60s`, `2m`, `500ms` or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = text
        .find(|c: char| !c.is_ascii_digit())
        .map_or((text, "s"), |at| text.split_at(at));
    let value: u64 = number
        .parse()
        .map_err(|_| format!("not a duration: {text:?} (use e.g. 60s, 2m, 500ms)"))?;
    match unit {
        "ms" => Ok(Duration::from_millis(value)),
        "s" => Ok(Duration::from_secs(value)),
        "m" => Ok(Duration::from_secs(value * 60)),
        _ => Err(format!(
            "not a duration: {text:?} (use e.g. 60s, 2m, 500ms)"
        )),
    }
}

fn fuzz(target: &str, duration: Duration, seed: u64, operations: u32) -> Result<ExitCode, String> {
    if target != "embedded" {
        return Err(format!(
            "fuzz --target {target}: campaigns against a broker are not built yet; use --target embedded"
        ));
    }
    // The run's seed and configuration first, so any output can be reproduced.
    println!(
        "streamspec fuzz --target embedded --seed {seed} --operations {operations} --duration {}s",
        duration.as_secs()
    );
    let progress = ProgressBar::new_spinner();
    if !std::io::stderr().is_terminal() {
        progress.set_draw_target(ProgressDrawTarget::hidden());
    }
    let started = std::time::Instant::now();
    let (mut runs, mut executed) = (0u64, 0u64);
    while started.elapsed() < duration {
        let bytes = simulation::run_bytes(seed, runs, operations as usize * 4);
        let sequence = simulation::Operation::sequence(&bytes);
        executed += sequence.len() as u64;
        if let Err(violation) = simulation::Simulation::run(&sequence) {
            progress.finish_and_clear();
            let file = PathBuf::from(format!("streamspec-trace-{seed}-{runs}.json"));
            let trace = serde_json::to_string_pretty(&sequence).expect("operations serialize");
            std::fs::write(&file, trace).map_err(|error| format!("{}: {error}", file.display()))?;
            println!("VIOLATION in run {runs}: {violation}");
            println!("trace: {}", file.display());
            println!("replay: streamspec replay {}", file.display());
            return Ok(ExitCode::from(1));
        }
        runs += 1;
        let rate = executed as f64 / started.elapsed().as_secs_f64().max(1e-9);
        progress.set_message(format!(
            "{runs} runs, {executed} operations, {rate:.0} operations/s, 0 violations"
        ));
        progress.tick();
    }
    progress.finish_and_clear();
    let rate = executed as f64 / started.elapsed().as_secs_f64().max(1e-9);
    println!("{runs} runs, {executed} operations, {rate:.0} operations/s with the oracle on, 0 violations");
    Ok(ExitCode::SUCCESS)
}

fn replay(file: &std::path::Path) -> Result<ExitCode, String> {
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{}: {error}", file.display()))?;
    let sequence: Vec<simulation::Operation> =
        serde_json::from_str(&text).map_err(|error| format!("{}: {error}", file.display()))?;
    match simulation::Simulation::run(&sequence) {
        Ok(simulation) => {
            println!(
                "{} operations, {} exchanges, no violation",
                sequence.len(),
                simulation.history.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(violation) => {
            println!("VIOLATION: {violation}");
            Ok(ExitCode::from(1))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let result = match cli.command {
        Command::List { source, evidence } => list(&source, evidence),
        Command::Fuzz {
            target,
            duration,
            seed,
            operations,
        } => fuzz(&target, duration, seed, operations),
        Command::Replay { file } => replay(&file),
        Command::Check {
            target,
            source,
            strict,
            junit,
            json,
            jobs,
            timeout_ms,
            run_id,
        } => {
            let local = tokio::task::LocalSet::new();
            local.block_on(
                &runtime,
                check(
                    target, &source, strict, junit, json, jobs, timeout_ms, run_id,
                ),
            )
        }
    };
    result.unwrap_or_else(|message| {
        eprintln!("streamspec: {message}");
        ExitCode::from(2)
    })
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn globs() {
        assert!(glob_matches("R2*", "R25"));
        assert!(glob_matches("R2*", "R2"));
        assert!(!glob_matches("R2*", "R32"));
        assert!(glob_matches("*leave*", "R31-dynamic-leave"));
        assert!(glob_matches("R1", "R1"));
        assert!(!glob_matches("R1", "R10"));
    }
}
