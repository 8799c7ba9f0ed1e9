//! `streamspec`: grades a Kafka Streams rebalance protocol coordinator rule by rule.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use streamspec::campaign::{self, CampaignConfig, Progress, Trace};
use streamspec::report::Report;
use streamspec::runner::{run_scenario, RunSettings, Verdict};
use streamspec::scenario::{self, Scenario};
use streamspec::target::TargetSpec;
use streamspec::transport::Connection;

const EXAMPLES: &str = "Examples:
  streamspec check
  streamspec check --target 127.0.0.1:9092
  streamspec check --target 127.0.0.1:9092 --rules R1 --rules 'R2*' --junit report.xml
  streamspec check --target broker:9092 --scenarios my-scenarios/ --only-scenarios --json out.json
  streamspec fuzz --duration 60s --seed 7
  streamspec list";

const FUZZ_EXAMPLES: &str = "Examples:
  streamspec fuzz --duration 60s --seed 7
  streamspec fuzz --target 127.0.0.1:9092 --duration 60s --groups 4 --junit fuzz.xml
  streamspec fuzz --check-determinism --duration 10s
  streamspec replay streamspec-trace-7-12.json --target 127.0.0.1:9092";

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
    /// Randomized runs: simulated members, faults and the invariant oracle, against the
    /// reference in process or a broker; a violation is shrunk and saved as a trace that `replay`
    /// runs again.
    #[command(after_help = FUZZ_EXAMPLES)]
    Fuzz {
        /// The coordinator: HOST:PORT of a broker, or `embedded` for the reference in process.
        #[arg(long, default_value = "embedded", value_name = "HOST:PORT|embedded")]
        target: String,
        /// How long to run, e.g. 60s or 2m; a run in progress finishes.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        duration: Duration,
        /// The root seed every run derives from (also STREAMSPEC_SEED).
        #[arg(long, env = "STREAMSPEC_SEED", default_value_t = 0x5eed)]
        seed: u64,
        /// Operations per run, about [default: 200 in process, 40 against a broker, where time is real].
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        operations: Option<u32>,
        /// Groups run at once against a broker.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
        groups: u16,
        /// Runs every input twice and compares the traces.
        #[arg(long)]
        check_determinism: bool,
        /// Time allowed for shrinking a violation, e.g. 60s.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        shrink: Duration,
        /// Write a JUnit XML report (a test case per invariant).
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Write a JSON report.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Bound on every single wait for a broker, in milliseconds.
        #[arg(long, default_value_t = 15_000)]
        timeout_ms: u64,
        /// Makes group and topic names on a broker unique; defaults to the current time.
        #[arg(long)]
        run_id: Option<String>,
    },
    /// Runs a saved trace again through the oracle.
    Replay {
        /// The trace file `fuzz` wrote.
        file: PathBuf,
        /// The coordinator to run it against.
        #[arg(long, default_value = "embedded", value_name = "HOST:PORT|embedded")]
        target: String,
        /// Bound on every single wait for a broker, in milliseconds.
        #[arg(long, default_value_t = 15_000)]
        timeout_ms: u64,
        /// Print every exchange, not only those that show a violation.
        #[arg(long)]
        history: bool,
    },
    /// A Kafka-protocol proxy in front of one broker: keeps clients on itself, and can lower
    /// advertised versions and refuse the default replication factor.
    Proxy {
        /// Where clients connect, HOST:PORT.
        #[arg(long, value_name = "HOST:PORT")]
        listen: String,
        /// The broker behind the proxy, HOST:PORT.
        #[arg(long, value_name = "HOST:PORT")]
        upstream: String,
        /// Lowers the max version ApiVersions advertises for an api key, e.g. 88=0; repeatable.
        #[arg(long = "cap-version", value_name = "API=MAX", value_parser = streamspec::proxy::parse_version_cap)]
        cap_version: Vec<(i16, i16)>,
        /// Answers CreateTopics for topics with replication factor -1 with error 38.
        #[arg(long)]
        refuse_default_replication_factor: bool,
        /// Stops after this long, e.g. 60s; runs until interrupted without it.
        #[arg(long, value_parser = parse_duration)]
        duration: Option<Duration>,
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

/// One line, exit 2, when nothing usable listens at a broker target.
async fn preflight(target: &TargetSpec, timeout: Duration) -> Result<(), String> {
    let TargetSpec::Kafka(address) = target else {
        return Ok(());
    };
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
    // Kafka 4.4.0 advertises 88 and 89 even when the feature is off, and then answers every
    // request UNSUPPORTED_VERSION (open question 3); a broker that reports features tells.
    if connection.feature_level("metadata.version").is_some() {
        let level = connection.feature_level("streams.version").unwrap_or(0);
        if level < 1 {
            return Err(format!(
                "{address} has the Streams rebalance protocol off: its finalized feature streams.version is {level} (needs 1)"
            ));
        }
    }
    Ok(())
}

/// In process every run has a coordinator of its own, so names need no uniqueness and the run
/// stays deterministic; on a shared broker they must not meet earlier runs' names.
fn default_run_id(target: &TargetSpec) -> String {
    if *target == TargetSpec::Embedded {
        return "embedded".to_owned();
    }
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis())
        .unwrap_or_default();
    format!("{millis:x}")
}

fn write_reports(
    report: &Report,
    junit: Option<PathBuf>,
    json: Option<PathBuf>,
) -> Result<(), String> {
    if let Some(path) = junit {
        std::fs::write(&path, report.junit())
            .map_err(|error| format!("{}: {error}", path.display()))?;
    }
    if let Some(path) = json {
        std::fs::write(&path, report.json())
            .map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(())
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
    preflight(&target, timeout).await?;
    let run_id = run_id.unwrap_or_else(|| default_run_id(&target));
    eprintln!(
        "streamspec check --target {target}: {} scenarios, run id {run_id}",
        scenarios.len()
    );
    let settings = Arc::new(RunSettings {
        target: target.clone(),
        run_id: run_id.clone(),
        io_timeout: timeout,
        breaker: Default::default(),
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
    // A scenario that changes the whole cluster (an ACL on it) runs while no other does.
    let cluster = Arc::new(tokio::sync::RwLock::new(()));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, scenario) in scenarios.into_iter().enumerate() {
        let settings = Arc::clone(&settings);
        let semaphore = Arc::clone(&semaphore);
        let cluster = Arc::clone(&cluster);
        tasks.spawn_local(async move {
            let _permit = semaphore
                .acquire_owned()
                .await
                .expect("the semaphore stays open");
            let outcome = if scenario.changes_the_cluster() {
                let _alone = cluster.write().await;
                run_scenario(&scenario, &settings).await
            } else {
                let _shared = cluster.read().await;
                run_scenario(&scenario, &settings).await
            };
            (index, outcome)
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
    if let Some(line) = settings.breaker.tripped(&target) {
        return Err(line);
    }
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
    write_reports(&report, junit, json)?;
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

/// The flags of `fuzz`.
struct FuzzFlags {
    config: CampaignConfig,
    junit: Option<PathBuf>,
    json: Option<PathBuf>,
}

fn fuzz(flags: FuzzFlags) -> Result<ExitCode, String> {
    let config = &flags.config;
    // The run's seed and configuration first, so that any output can be reproduced.
    println!("{}", config.command());
    println!(
        "run id {}; about {} operations per run, each run a fresh group{}",
        config.run_id,
        config.operations,
        match config.target {
            TargetSpec::Embedded => " on a virtual clock".to_owned(),
            TargetSpec::Kafka(_) => format!(", {} at once, on real time", config.groups),
        }
    );
    let progress = Progress::default();
    let bar = ProgressBar::new_spinner();
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let started = std::time::Instant::now();
    let result = std::thread::scope(|scope| {
        let campaign = scope.spawn(|| campaign::run(config, &progress));
        while !campaign.is_finished() {
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            let heartbeats = progress.heartbeats.load(Ordering::Relaxed);
            bar.set_message(format!(
                "{} runs, {} operations, {:.0} heartbeats/s, {} violations",
                progress.runs.load(Ordering::Relaxed),
                progress.operations.load(Ordering::Relaxed),
                heartbeats as f64 / seconds,
                progress.violations.load(Ordering::Relaxed)
            ));
            bar.tick();
            std::thread::sleep(Duration::from_millis(100));
        }
        campaign.join().expect("the campaign thread ends")
    });
    bar.finish_and_clear();
    let mut trace_file = None;
    if let Some(finding) = &result.finding {
        let file = format!("streamspec-trace-{}-{}.json", config.seed, finding.run);
        let trace = Trace {
            seed: config.seed,
            run: finding.run,
            target: config.target.to_string(),
            violation: finding.violation.to_string(),
            input: finding.input.clone(),
        };
        let text = serde_json::to_string_pretty(&trace).expect("traces serialize");
        std::fs::write(&file, text).map_err(|error| format!("{file}: {error}"))?;
        trace_file = Some(file);
    }
    let report = campaign::report(config, &result, trace_file.as_deref());
    print!("{}", report.human());
    let seconds = result.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{} runs, {} operations ({:.0}/s), {} heartbeats ({:.0}/s) in {:.1} s with the oracle on",
        result.runs,
        result.operations,
        result.operations as f64 / seconds,
        result.heartbeats,
        result.heartbeats as f64 / seconds,
        seconds
    );
    let witnesses: Vec<String> = result
        .witnesses
        .counts()
        .iter()
        .map(|(name, count)| format!("{name} {count}"))
        .collect();
    println!("sometimes: {}", witnesses.join(", "));
    for (name, _) in result.witnesses.counts().iter().filter(|(_, n)| *n == 0) {
        println!("warning: no run reached \"{name}\"; the generator may be too weak there");
    }
    for error in result.setup_errors.iter().chain(&result.cleanup_errors) {
        println!("error: {error}");
    }
    if let Some(file) = &trace_file {
        println!("trace: {file}");
        println!(
            "replay: streamspec replay {file} --target {}",
            config.target
        );
    }
    write_reports(&report, flags.junit, flags.json)?;
    Ok(if !report.passed() {
        ExitCode::from(1)
    } else if !result.setup_errors.is_empty() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn replay(
    file: &std::path::Path,
    target: TargetSpec,
    timeout: Duration,
    history: bool,
) -> Result<ExitCode, String> {
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{}: {error}", file.display()))?;
    let trace: Trace = serde_json::from_str(&text).map_err(|error| {
        format!(
            "{}: not a trace that `streamspec fuzz` wrote: {error}",
            file.display()
        )
    })?;
    trace
        .input
        .setup
        .validate()
        .map_err(|error| format!("{}: setup: {error}", file.display()))?;
    let config = CampaignConfig {
        run_id: default_run_id(&target),
        target,
        seed: trace.seed,
        duration: Duration::ZERO,
        operations: 0,
        groups: 1,
        check_determinism: false,
        io_timeout: timeout,
        shrink_budget: Duration::ZERO,
    };
    println!(
        "replaying run {} of seed {} (found on {}): {}",
        trace.run, trace.seed, trace.target, trace.violation
    );
    let names = streamspec::simulation::setup::Names::new(&match config.target {
        TargetSpec::Embedded => String::new(),
        TargetSpec::Kafka(_) => format!("streamspec-replay-{}-", config.run_id),
    });
    let record = campaign::run_once(&config, names, &trace.input)?;
    if history {
        for event in &record.history {
            print!("{}", event.render());
        }
    }
    match &record.violation {
        None => {
            if let Some(issue) = record.known_issue {
                println!(
                    "known issue {} (waives \"{}\"): {}",
                    issue.id, issue.invariant.name, issue.reason
                );
            }
            println!(
                "{} operations, {} exchanges, no violation",
                trace.input.operations.len(),
                record.history.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(violation) => {
            println!("VIOLATION: {violation}");
            print!("{}", violation.slice(&record.history));
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
        Command::Proxy {
            listen,
            upstream,
            cap_version,
            refuse_default_replication_factor,
            duration,
        } => runtime.block_on(streamspec::proxy::run(
            &listen,
            streamspec::proxy::ProxyConfig {
                upstream,
                version_caps: cap_version.into_iter().collect(),
                refuse_default_replication_factor,
            },
            duration,
        )),
        Command::Fuzz {
            target,
            duration,
            seed,
            operations,
            groups,
            check_determinism,
            shrink,
            junit,
            json,
            timeout_ms,
            run_id,
        } => {
            let target = TargetSpec::parse(&target);
            let timeout = Duration::from_millis(timeout_ms);
            runtime
                .block_on(preflight(&target, timeout))
                .and_then(|()| {
                    let operations = operations.unwrap_or(match target {
                        TargetSpec::Embedded => 200,
                        TargetSpec::Kafka(_) => 40,
                    });
                    fuzz(FuzzFlags {
                        config: CampaignConfig {
                            run_id: run_id.unwrap_or_else(|| default_run_id(&target)),
                            target,
                            seed,
                            duration,
                            operations,
                            groups,
                            check_determinism,
                            io_timeout: timeout,
                            shrink_budget: shrink,
                        },
                        junit,
                        json,
                    })
                })
        }
        Command::Replay {
            file,
            target,
            timeout_ms,
            history,
        } => {
            let target = TargetSpec::parse(&target);
            let timeout = Duration::from_millis(timeout_ms);
            runtime
                .block_on(preflight(&target, timeout))
                .and_then(|()| replay(&file, target, timeout, history))
        }
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
