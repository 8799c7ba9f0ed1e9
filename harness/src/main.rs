//! `streamspec`: grades a Kafka Streams rebalance protocol coordinator rule by rule.
//!
//! Only argument parsing and printing: what a command does is the library's (`check`, `doctor`,
//! `clean`, `campaign`, `proxy`). Longer than the ~700 lines files here keep to, because it holds
//! the flags of all seven subcommands with their help texts, and each command's console output;
//! split, a flag's definition would sit apart from the one place that reads it.

use std::future::Future as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use streamspec::backend::Connect;
use streamspec::campaign::{self, CampaignConfig, RunRange, Trace};
use streamspec::check::Selection;
use streamspec::check::{default_run_id, CheckOptions};
use streamspec::differential::DifferentialConnector;
use streamspec::draft::Dialect;
use streamspec::embedded::EmbeddedConnector;
use streamspec::interrupt::Interrupt;
use streamspec::kafka::KafkaConnector;
use streamspec::report::{Console, Detail, Report};
use streamspec::runner::load_divergences;
use streamspec::scenario::{Profile, Scenario};
use streamspec::transport::Connection;
use streamspec::{parse_duration, parse_run_duration};

/// Campaigns allocate and free on every exchange; mimalloc's per-thread heaps make the embedded
/// campaign about a quarter faster than glibc's malloc (README, the campaign's speed).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How often a progress line goes to a standard error that is no terminal (a CI log).
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Writes to standard output. A reader may close it early (`streamspec list | head -1`): from
/// then on output is dropped quietly and the command still finishes, with its reports and its
/// exit code.
fn write_stdout(text: std::fmt::Arguments) {
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        CLOSED.store(true, Ordering::Relaxed);
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("streamspec: cannot write to standard output: {error}");
        }
    }
}

macro_rules! out {
    ($($arg:tt)*) => { write_stdout(format_args!($($arg)*)) };
}

macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => { out!("{}\n", format_args!($($arg)*)) };
}

/// The console's width: `COLUMNS` when set, else the terminal's, else 80 (output to a file or
/// a pipe).
fn console_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|columns| columns.trim().parse().ok())
        .filter(|columns| *columns > 0)
        .or_else(|| {
            std::io::stdout()
                .is_terminal()
                .then(|| console::Term::stdout().size_checked())
                .flatten()
                .map(|(_, columns)| usize::from(columns))
        })
        .unwrap_or(80)
}

const EXAMPLES: &str = "Examples:
  streamspec check
  streamspec check --target 127.0.0.1:9092
  streamspec check --target 127.0.0.1:9092 --rules R1 --rules 'R2*' --junit report.xml
  streamspec check --target broker:9092 --scenarios my-scenarios/ --only-scenarios --json out.json
  streamspec fuzz --duration 60s --seed 7
  streamspec clean --target 127.0.0.1:9092 --dry-run
  streamspec list";

const FUZZ_EXAMPLES: &str = "Examples:
  streamspec fuzz --duration 60s --seed 7
  streamspec fuzz --target 127.0.0.1:9092 --duration 60s --groups 4 --junit fuzz.xml
  streamspec fuzz --check-determinism --duration 10s
  streamspec fuzz --target 127.0.0.1:9092 --differential --duration 60s
  streamspec replay streamspec-trace-7-12.json --target 127.0.0.1:9092 --differential";

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

/// The report files a run writes besides its console report, all of one decision.
#[derive(clap::Args, Debug, Clone, Default)]
struct ReportFiles {
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write a JSON report.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write an HTML report: one self-contained page to open in a browser.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

impl ReportFiles {
    /// Each report's flag and file.
    fn by_flag(&self) -> [(&'static str, &Option<PathBuf>); 3] {
        [
            ("--junit", &self.junit),
            ("--json", &self.json),
            ("--html", &self.html),
        ]
    }

    /// Refuses a report that would overwrite a scenario file, or land in a scenario folder as a
    /// `.json` file, which the next run would read as a scenario.
    fn check_apart_from(&self, scenarios: &[PathBuf]) -> Result<(), String> {
        let files = self.by_flag();
        for (flag, path) in files {
            let Some(path) = path else { continue };
            let report = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            for source in scenarios {
                let source_path = std::path::absolute(source).unwrap_or_else(|_| source.clone());
                let source = source.display();
                let clash = if report == source_path {
                    format!("is the --scenarios file {source}")
                } else if source_path.is_dir()
                    && report.starts_with(&source_path)
                    && report
                        .extension()
                        .is_some_and(|extension| extension == "json")
                {
                    format!("is within the --scenarios folder {source}, whose files are read as scenarios")
                } else {
                    continue;
                };
                return Err(format!(
                    "{flag} {}: {clash}; write the report elsewhere",
                    path.display()
                ));
            }
        }
        Ok(())
    }

    /// Refuses, before anything runs, a report whose folder does not exist or that cannot be
    /// written: a long run should not end without the report it was asked for.
    fn check_folders(&self) -> Result<(), String> {
        let files = self.by_flag();
        for (index, (flag, path)) in files.iter().enumerate() {
            let Some(path) = path else { continue };
            if let Some((other, _)) = files[..index]
                .iter()
                .find(|(_, earlier)| earlier.as_ref() == Some(path))
            {
                return Err(format!(
                    "{flag} {}: {other} writes that file too; give each report a file of its own",
                    path.display()
                ));
            }
            let folder = path
                .parent()
                .filter(|folder| !folder.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            if !folder.is_dir() {
                return Err(format!(
                    "{flag} {}: there is no folder {}",
                    path.display(),
                    folder.display()
                ));
            }
            if path.is_dir() {
                return Err(format!(
                    "{flag} {}: is a folder; name the report's file",
                    path.display()
                ));
            }
            // Opened for appending, so an existing report is left as it is until the run ends;
            // one made here only to find out is taken away again.
            let existed = path.exists();
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .map_err(|error| {
                    format!("{flag} {}: cannot be written: {error}", path.display())
                })?;
            if !existed {
                std::fs::remove_file(path).ok();
            }
        }
        Ok(())
    }
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
        /// Known, accepted differences of the target, in the form of harness/divergences.json
        /// (`target` may be left out); repeatable.
        #[arg(long = "divergences", value_name = "FILE")]
        divergences: Vec<PathBuf>,
        /// Whose behaviour to expect where Kafka releases differ.
        #[arg(long = "expect", value_enum, default_value_t = Profile::Kafka44)]
        profile: Profile,
        /// Also print a line per scenario with its title, and each failure's wire exchange.
        #[arg(short, long, conflicts_with = "quiet")]
        verbose: bool,
        /// Print only failures and the summary.
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        reports: ReportFiles,
        /// Scenarios run at once (each has its own group and topics).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: u16,
        /// Bound on every single wait for the target, in milliseconds.
        #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
        timeout_ms: u64,
        /// Replicas of the topics created on a broker (-1: the broker's default).
        #[arg(long, default_value_t = 1, value_parser = parse_replication_factor)]
        replication_factor: i16,
        /// Makes group and topic names unique; defaults to the current time.
        #[arg(long, value_parser = parse_run_id)]
        run_id: Option<String>,
        /// The dialect of StreamsGroupHeartbeat the target speaks: `kip-draft` grades the early
        /// KIP draft through a translation, skipping the scenarios it cannot express.
        #[arg(long, value_enum, default_value_t = Dialect::Kafka)]
        dialect: Dialect,
    },
    /// Randomized runs: simulated members, faults and the invariant oracle, against the
    /// reference in process or a broker; a violation is shrunk and saved as a trace that `replay`
    /// runs again.
    #[command(after_help = FUZZ_EXAMPLES)]
    Fuzz {
        /// The coordinator: HOST:PORT of a broker, or `embedded` for the reference in process.
        #[arg(long, default_value = "embedded", value_name = "HOST:PORT|embedded")]
        target: String,
        /// How long to run, e.g. 60s or 2m; a run in progress finishes [default: 10s, no limit
        /// with --runs].
        #[arg(long, value_parser = parse_run_duration)]
        duration: Option<Duration>,
        /// Carry out this many runs and stop (also stops at --duration when given).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        runs: Option<u64>,
        /// The first run to carry out: with --runs 1, a single run of the campaign again.
        #[arg(long, default_value_t = 0)]
        first_run: u64,
        /// In-process runs at once, each job a thread with a fixed share of the runs: which input
        /// a run gets, and so what it finds, does not depend on it. Against a broker: --groups.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: u16,
        /// Also print a line per invariant with its name, and a violation's whole history slice.
        #[arg(short, long, conflicts_with = "quiet")]
        verbose: bool,
        /// Print only violations, errors and the summary.
        #[arg(short, long)]
        quiet: bool,
        /// The root seed every run derives from (also STREAMSPEC_SEED).
        #[arg(long, env = "STREAMSPEC_SEED", default_value_t = 0x5eed)]
        seed: u64,
        /// Operations per run, about [default: 200 in process, 40 against a broker, where time is real].
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        operations: Option<u32>,
        /// Groups run at once against a broker [default: 4]; in process, --jobs.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
        groups: Option<u16>,
        /// Runs every input twice and compares the traces.
        #[arg(long)]
        check_determinism: bool,
        /// Time allowed for shrinking a violation, e.g. 60s.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        shrink: Duration,
        #[command(flatten)]
        reports: ReportFiles,
        /// Bound on every single wait for a broker, in milliseconds.
        #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
        timeout_ms: u64,
        /// Replicas of the topics created on a broker (-1: the broker's default).
        #[arg(long, default_value_t = 1, value_parser = parse_replication_factor)]
        replication_factor: i16,
        /// Makes group and topic names on a broker unique; defaults to the current time.
        #[arg(long, value_parser = parse_run_id)]
        run_id: Option<String>,
        /// The dialect of StreamsGroupHeartbeat the target speaks: `kip-draft` grades the early
        /// KIP draft through a translation, skipping the scenarios it cannot express.
        #[arg(long, value_enum, default_value_t = Dialect::Kafka)]
        dialect: Dialect,
        /// Compares every answer with the reference coordinator's, in process, at the same
        /// time (property "answers equal the reference's"; the README's "Differential runs").
        #[arg(long)]
        differential: bool,
        /// With --differential: known differences of the target's answers, by field and rule,
        /// in the form of harness/divergences.json (repeatable).
        #[arg(long = "divergences", value_name = "FILE", requires = "differential")]
        divergences: Vec<PathBuf>,
    },
    /// Runs a saved trace again through the oracle.
    Replay {
        /// The trace file `fuzz` wrote, or a live trace `proxy` wrote (judged again from its
        /// recorded exchanges, without a target).
        file: PathBuf,
        /// The coordinator to run it against.
        #[arg(long, default_value = "embedded", value_name = "HOST:PORT|embedded")]
        target: String,
        /// Bound on every single wait for a broker, in milliseconds.
        #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
        timeout_ms: u64,
        /// Replicas of the topics created on a broker (-1: the broker's default).
        #[arg(long, default_value_t = 1, value_parser = parse_replication_factor)]
        replication_factor: i16,
        /// Print every exchange, not only those that show a violation.
        #[arg(long)]
        history: bool,
        /// The dialect of StreamsGroupHeartbeat the target speaks: `kip-draft` grades the early
        /// KIP draft through a translation, skipping the scenarios it cannot express.
        #[arg(long, value_enum, default_value_t = Dialect::Kafka)]
        dialect: Dialect,
        /// Compares every answer with the reference coordinator's, as `fuzz --differential`
        /// does; on without it for a trace found so. For a live trace: its requests answered
        /// again by the reference, compared with the broker's answers.
        #[arg(long)]
        differential: bool,
        /// In a differential replay: known differences of the target's answers, by field and
        /// rule, in the form of harness/divergences.json (repeatable).
        #[arg(long = "divergences", value_name = "FILE")]
        divergences: Vec<PathBuf>,
    },
    /// What a target offers (APIs, features, configs), and which scenarios a `check` would skip
    /// there and why; changes nothing that outlasts it.
    Doctor {
        /// The coordinator: HOST:PORT of a broker, or `embedded`.
        #[arg(long, default_value = "embedded", value_name = "HOST:PORT|embedded")]
        target: String,
        #[command(flatten)]
        source: ScenarioSource,
        /// Whose behaviour to expect where Kafka releases differ.
        #[arg(long = "expect", value_enum, default_value_t = Profile::Kafka44)]
        profile: Profile,
        /// Also list every skipped scenario by name.
        #[arg(short, long)]
        verbose: bool,
        /// Bound on every single wait for the target, in milliseconds.
        #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
        timeout_ms: u64,
        /// The dialect of StreamsGroupHeartbeat the target speaks: with `kip-draft`, the
        /// scenarios the draft cannot express are among the forecast skips.
        #[arg(long, value_enum, default_value_t = Dialect::Kafka)]
        dialect: Dialect,
    },
    /// A Kafka-protocol proxy in front of one broker: keeps clients on itself, and can lower
    /// advertised versions, refuse the default replication factor or an api, and drop, duplicate
    /// or delay heartbeat exchanges, or tell members stale epochs; judges the Streams group
    /// traffic it passes with the oracle (exit 1 on a violation).
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
        #[arg(long, value_parser = parse_run_duration)]
        duration: Option<Duration>,
        /// The dialect of StreamsGroupHeartbeat clients speak: with `kip-draft`, each draft
        /// heartbeat is carried to the broker in Kafka's dialect and its answer brought back in
        /// the draft's, so that the broker is a draft target over TCP.
        #[arg(long, value_enum, default_value_t = Dialect::Kafka)]
        dialect: Dialect,
        #[command(flatten)]
        faults: streamspec::proxy::faults::FaultConfig,
        /// Where a trace of a group is written when its traffic violates a property (the
        /// README's "Live checking"); `streamspec replay` judges it again.
        #[arg(long, value_name = "DIR", default_value = ".")]
        trace_dir: PathBuf,
        /// On exit, also writes every group's exchanges, and the topics seen, as
        /// streamspec-capture-GROUP.json in the trace folder, for `replay --differential`.
        #[arg(long)]
        capture: bool,
        /// Declares that every group is settled when the proxy stops (no faults, no member
        /// coming or going for a while before): "eventually: the group settles with every task
        /// owned once" is then judged on each group from its members' last answers, else it is
        /// skipped. A group all of whose members left is not judged.
        #[arg(long)]
        settled_at_exit: bool,
        /// Reports of what was judged, written on exit.
        #[command(flatten)]
        reports: ReportFiles,
    },
    /// Removes what runs left on a broker: every topic, group config and ACL resource whose
    /// name starts with streamspec- (exit 0 when all is gone, 1 when something could not be
    /// removed).
    Clean {
        /// The broker.
        #[arg(long, value_name = "HOST:PORT")]
        target: String,
        /// Only list what would be removed.
        #[arg(long)]
        dry_run: bool,
        /// Only what starts with this, e.g. streamspec-fuzz-19a2b3c4d5e- for one campaign; it
        /// must start with streamspec-.
        #[arg(long, default_value = streamspec::NAME_PREFIX)]
        prefix: String,
        /// Bound on every single wait for the broker, in milliseconds.
        #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
        timeout_ms: u64,
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

/// Where to run, as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum TargetSpec {
    /// The reference coordinator, in process, on a virtual clock.
    Embedded,
    /// A broker at HOST:PORT.
    Kafka(String),
}

impl TargetSpec {
    /// `embedded`, or HOST:PORT.
    fn parse(text: &str) -> TargetSpec {
        if text == "embedded" {
            TargetSpec::Embedded
        } else {
            TargetSpec::Kafka(text.to_owned())
        }
    }

    fn kafka(address: &str, timeout: Duration, replication_factor: i16) -> KafkaConnector {
        KafkaConnector {
            address: address.to_owned(),
            timeout,
            replication_factor,
        }
    }
}

/// Calls `$body` with `$connector` bound to the connector of `$spec`, whichever type it has;
/// with `dialect: ..` first, the target speaks that dialect (`--dialect`).
macro_rules! with_connector {
    (dialect: $dialect:expr, $spec:expr, $timeout:expr, $replication_factor:expr, |$connector:ident| $body:expr) => {
        match ($spec, $dialect) {
            (TargetSpec::Embedded, Dialect::Kafka) => {
                let $connector = EmbeddedConnector;
                $body
            }
            (TargetSpec::Kafka(address), Dialect::Kafka) => {
                let $connector = TargetSpec::kafka(address, $timeout, $replication_factor);
                $body
            }
            (TargetSpec::Embedded, Dialect::KipDraft) => {
                let $connector = streamspec::draft::embedded();
                $body
            }
            (TargetSpec::Kafka(address), Dialect::KipDraft) => {
                let $connector = streamspec::draft::DraftConnector(TargetSpec::kafka(
                    address,
                    $timeout,
                    $replication_factor,
                ));
                $body
            }
        }
    };
    ($spec:expr, $timeout:expr, $replication_factor:expr, |$connector:ident| $body:expr) => {
        with_connector!(dialect: Dialect::Kafka, $spec, $timeout, $replication_factor, |$connector| $body)
    };
}

/// Calls `$body` with `$connector` bound to `$inner`, or, when `$differential`, to `$inner`
/// compared with the reference (`--differential`), knowing the divergences of `$files`.
macro_rules! with_differential {
    ($differential:expr, $files:expr, $dialect:expr, $inner:ident, |$connector:ident| $body:expr) => {
        if $differential {
            differential_connector($inner, $dialect, $files).and_then(|$connector| $body)
        } else {
            let $connector = $inner;
            $body
        }
    };
}

/// `inner` compared with the reference; the recorded divergences of `files` known besides ours.
fn differential_connector<C: Connect>(
    inner: C,
    dialect: Dialect,
    files: &[PathBuf],
) -> Result<DifferentialConnector<C>, String> {
    if dialect != Dialect::Kafka {
        return Err("--differential compares answers in Kafka's dialect; under --dialect kip-draft the translation itself makes them differ (member ids, endpoint epochs), so the two cannot be combined".to_owned());
    }
    let mut recorded = Vec::new();
    for file in files {
        // A file may hold both kinds, as ours does: the scenarios' are check's.
        let (answers, scenarios): (Vec<_>, Vec<_>) = load_divergences(file)?
            .into_iter()
            .partition(|d| d.field.is_some());
        if answers.is_empty() {
            return Err(format!(
                "{}: no divergence of answers (an entry with a `field`) to waive in a differential run; its {}, which only check waives",
                file.display(),
                match scenarios.len() {
                    1 => "one entry names a scenario".to_owned(),
                    count => format!("{count} entries name scenarios"),
                }
            ));
        }
        recorded.extend(answers);
    }
    Ok(DifferentialConnector::new(inner).with_recorded(recorded))
}

impl ScenarioSource {
    /// Loads and selects the scenarios these flags name; notes go to standard error.
    fn select(&self) -> Result<Selection, String> {
        let source = streamspec::check::ScenarioSource {
            paths: self.scenarios.clone(),
            only_paths: self.only_scenarios,
            rules: self.rules.clone(),
        };
        streamspec::check::select(&source, |note| eprintln!("{note}"))
    }
}

fn list(source: &ScenarioSource, evidence: bool) -> Result<ExitCode, String> {
    let scenarios = source.select()?.scenarios;
    let mut by_rule: std::collections::BTreeMap<(u32, &str), Vec<&Scenario>> = Default::default();
    for scenario in &scenarios {
        for rule in &scenario.rules {
            by_rule
                .entry(streamspec::scenario::rule_order(rule))
                .or_default()
                .push(scenario);
        }
    }
    // Columns as wide as their longest entry: external ids (KAFKA-19233) and scenario names
    // outgrow any fixed width.
    let rule_width = by_rule
        .keys()
        .map(|(_, rule)| rule.len())
        .max()
        .unwrap_or(0);
    let name_width = scenarios.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let grade_width = scenarios
        .iter()
        .map(|s| s.grade.to_string().len())
        .max()
        .unwrap_or(0);
    for ((_, rule), scenarios) in &by_rule {
        for scenario in scenarios {
            outln!(
                "{rule:<rule_width$} {:<grade_width$} {:<name_width$} {}",
                scenario.grade.to_string(),
                scenario.name,
                scenario.title
            );
            if let Some(text) = scenario.evidence.as_ref().filter(|_| evidence) {
                outln!("{:rule_width$} evidence: {text}", "");
            }
        }
    }
    let with_evidence = scenarios
        .iter()
        .filter(|scenario| scenario.evidence.is_some())
        .count();
    outln!(
        "\n{} rules, {} ({with_evidence} {} evidence from the real broker: --evidence)",
        by_rule.len(),
        if scenarios.len() == 1 {
            "1 scenario".to_owned()
        } else {
            format!("{} scenarios", scenarios.len())
        },
        if with_evidence == 1 {
            "carries"
        } else {
            "carry"
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// Raises `interrupt` on the first Ctrl-C or SIGTERM (what CI systems and `timeout` send), so
/// that the run stops, cleans up and reports, and ends the process at once (exit 130) on the
/// second. Returns once the handlers are in place.
fn listen_for_ctrl_c(interrupt: Interrupt) -> Result<(), String> {
    let (ready, listening) = std::sync::mpsc::channel();
    let listener = move || {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(error) => {
                ready.send(Err(format!("a tokio runtime: {error}"))).ok();
                return;
            }
        };
        runtime.block_on(async {
            let mut terminated = match Terminated::listen() {
                Ok(terminated) => terminated,
                Err(error) => {
                    ready
                        .send(Err(format!("cannot catch SIGTERM: {error}")))
                        .ok();
                    return;
                }
            };
            let mut first = std::pin::pin!(tokio::signal::ctrl_c());
            // The handler is installed when the future is first polled.
            let polled = std::future::poll_fn(|context| {
                std::task::Poll::Ready(first.as_mut().poll(context))
            })
            .await;
            let caught = match polled {
                std::task::Poll::Ready(caught) => caught.map(|()| "Ctrl-C"),
                std::task::Poll::Pending => {
                    ready.send(Ok(())).ok();
                    tokio::select! {
                        caught = first => caught.map(|()| "Ctrl-C"),
                        () = terminated.next() => Ok("SIGTERM"),
                    }
                }
            };
            let signal = match caught {
                Ok(signal) => signal,
                Err(error) => {
                    ready
                        .send(Err(format!("cannot catch Ctrl-C: {error}")))
                        .ok();
                    return;
                }
            };
            interrupt.raise();
            eprintln!(
                "\nstreamspec: interrupted ({signal}); cleaning up (Ctrl-C again to quit at once)"
            );
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                () = terminated.next() => {}
            }
            eprintln!("streamspec: interrupted again; quitting without clean-up");
            std::process::exit(130);
        });
    };
    std::thread::Builder::new()
        .name("ctrl-c".to_owned())
        .spawn(listener)
        .map_err(|error| format!("a thread for Ctrl-C: {error}"))?;
    listening
        .recv_timeout(Duration::from_secs(5))
        .map_err(|_| "the Ctrl-C handler did not start within 5 s".to_owned())?
}

/// SIGTERM as a stream of signals (on Unix; elsewhere it never comes).
struct Terminated {
    #[cfg(unix)]
    signal: tokio::signal::unix::Signal,
}

impl Terminated {
    fn listen() -> std::io::Result<Terminated> {
        Ok(Terminated {
            #[cfg(unix)]
            signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?,
        })
    }

    async fn next(&mut self) {
        #[cfg(unix)]
        self.signal.recv().await;
        #[cfg(not(unix))]
        std::future::pending::<()>().await;
    }
}

async fn clean(
    address: &str,
    prefix: &str,
    timeout: Duration,
    dry_run: bool,
) -> Result<ExitCode, String> {
    if TargetSpec::parse(address) == TargetSpec::Embedded {
        return Err(
            "clean removes what runs left on a broker; the reference in process keeps nothing between runs"
                .to_owned(),
        );
    }
    // Anything else on the broker is not the tool's to remove.
    if !prefix.starts_with(streamspec::NAME_PREFIX) {
        return Err(format!(
            "--prefix {prefix:?} does not start with {}",
            streamspec::NAME_PREFIX
        ));
    }
    let leftovers = streamspec::clean::clean(address, prefix, timeout, dry_run)
        .await
        .map_err(|error| error.to_string())?;
    for kind in &leftovers {
        for line in kind.lines(dry_run) {
            outln!("{line}");
        }
    }
    let failed = leftovers.iter().any(|kind| !kind.failed.is_empty());
    Ok(ExitCode::from(u8::from(failed)))
}

/// The last line of an interrupted run: how much did not run, and whether everything it made on
/// the target was taken back.
fn interrupted_line(not_finished: String, cleanup_failures: usize) -> String {
    if cleanup_failures == 0 {
        format!("interrupted: {not_finished}; clean-up done")
    } else {
        format!(
            "interrupted: {not_finished}; clean-up failed for {cleanup_failures} (the warnings above say what is left)"
        )
    }
}

/// One line, exit 2, when nothing usable listens at a broker target.
/// The connection checked, for a broker target.
async fn preflight(
    target: &TargetSpec,
    timeout: Duration,
    dialect: Dialect,
    replication_factor: i16,
) -> Result<Option<streamspec::transport::Connection>, String> {
    match target {
        TargetSpec::Embedded => Ok(None),
        TargetSpec::Kafka(address) => {
            let mut connection = streamspec::doctor::preflight(address, timeout).await?;
            streamspec::doctor::refuse_more_replicas_than_brokers(
                &mut connection,
                replication_factor,
            )
            .await?;
            if dialect == Dialect::KipDraft {
                if let Some(reason) = streamspec::doctor::draft_unspoken(&mut connection).await {
                    return Err(reason);
                }
            }
            Ok(Some(connection))
        }
    }
}

/// Refuses a `--run-id` whose topics or groups the broker already has: another run with that id
/// is running (and the two would share groups and topics), or one left them behind; a group a
/// run left keeps its epochs and last assignment, which a scenario expecting a new group does
/// not find (the assignment interval delays its first target, say).
async fn refuse_a_run_id_in_use(
    address: &str,
    run_id: &str,
    scenarios: &[streamspec::scenario::Scenario],
    timeout: Duration,
) -> Result<(), String> {
    let (groups, topics): (std::collections::BTreeSet<_>, Vec<_>) = scenarios
        .iter()
        .map(|scenario| streamspec::runner::target_names(run_id, scenario))
        .unzip();
    let topics = topics.into_iter().flatten().collect();
    let (topics, groups) = streamspec::clean::names_in_use(address, &topics, &groups, timeout)
        .await
        .map_err(|error| error.to_string())?;
    let first_of = |names: &[String], kind: &str, verb: &str| {
        names.first().map(|first| match names.len() {
            1 => format!("a {kind} this run would {verb} ({first})"),
            count => format!("{count} {kind}s this run would {verb} ({first}, ...)"),
        })
    };
    if let Some(topics) = first_of(&topics, "topic", "make") {
        return Err(format!(
            "--run-id {run_id}: {address} already has {topics}: another run with this id is running, or one left them; choose another id, or remove them with `streamspec clean --target {address} --prefix {}{run_id}-`",
            streamspec::NAME_PREFIX
        ));
    }
    if let Some(groups) = first_of(&groups, "group", "use") {
        return Err(format!(
            "--run-id {run_id}: {address} already has {groups}: Kafka keeps a streams group after its members leave, and a scenario joining it would find the last run's epochs and assignment, not a new group; choose another id"
        ));
    }
    Ok(())
}

/// `doctor`: exit 0 when a `check` would run some scenario, 1 when it would run none.
async fn doctor(
    target: TargetSpec,
    source: &ScenarioSource,
    profile: Profile,
    verbose: bool,
    timeout: Duration,
    dialect: Dialect,
) -> Result<ExitCode, String> {
    use streamspec::doctor::{diagnose, Surroundings};
    let scenarios = source.select()?.scenarios;
    let console = Console {
        detail: if verbose {
            Detail::Verbose
        } else {
            Detail::Normal
        },
        width: console_width(),
    };
    let mut connection = match &target {
        TargetSpec::Embedded => None,
        TargetSpec::Kafka(address) => Some(
            Connection::connect(address, timeout)
                .await
                .map_err(|error| error.to_string())?,
        ),
    };
    let unusable = match &mut connection {
        Some(connection) => match streamspec::doctor::streams_unusable(connection).await {
            None if dialect == Dialect::KipDraft => {
                streamspec::doctor::draft_unspoken(connection).await
            }
            unusable => unusable,
        },
        None => None,
    };
    let surroundings = match &connection {
        Some(connection) => Surroundings::Broker(connection, unusable),
        None => Surroundings::InProcess("the reference coordinator in process, on a virtual clock"),
    };
    // Group configs are tried on a throwaway group and taken back: Ctrl-C waits for that.
    let interrupt = Interrupt::default();
    listen_for_ctrl_c(interrupt.clone())?;
    let diagnosis = with_connector!(dialect: dialect, &target, timeout, 1, |connector| {
        let run_id = default_run_id(&connector);
        diagnose(
            &connector,
            surroundings,
            &scenarios,
            profile,
            &run_id,
            console,
            &interrupt,
        )
        .await
    })
    .map_err(|error| streamspec::runner::with_short_timeout_hint(&error, timeout))?;
    out!("{}", diagnosis.text);
    Ok(if diagnosis.interrupted {
        ExitCode::from(130)
    } else if diagnosis.runnable > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn write_reports(report: &Report, files: &ReportFiles) -> Result<(), String> {
    let write = |path: &Option<PathBuf>, render: fn(&Report) -> String| match path {
        Some(path) => std::fs::write(path, render(report))
            .map_err(|error| format!("{}: {error}", path.display())),
        None => Ok(()),
    };
    write(&files.junit, Report::junit)?;
    write(&files.json, Report::json)?;
    write(&files.html, Report::html)
}

/// `streamspec proxy`: serves, then reports what it judged of the traffic; exit 1 when the
/// traffic violated a property.
fn proxy(
    runtime: &tokio::runtime::Runtime,
    listen: &str,
    config: streamspec::proxy::ProxyConfig,
    duration: Option<Duration>,
    reports: &ReportFiles,
) -> Result<ExitCode, String> {
    // Made if missing (before the reports' folders are checked, which may be inside it): the
    // traces are written there as violations are found, one file each.
    let trace_dir = config.trace_dir.display();
    if config.trace_dir.exists() && !config.trace_dir.is_dir() {
        return Err(format!("--trace-dir {trace_dir}: a file, not a folder"));
    }
    std::fs::create_dir_all(&config.trace_dir)
        .map_err(|error| format!("--trace-dir {trace_dir}: {error}"))?;
    reports.check_folders()?;
    let report = runtime.block_on(streamspec::proxy::run(listen, config, duration))?;
    out!(
        "{}",
        report.human(Console {
            detail: Detail::Normal,
            width: console_width(),
        })
    );
    write_reports(&report, reports)?;
    Ok(ExitCode::from(report.verdict().exit_code()))
}

/// The flags of `check`.
struct CheckFlags {
    target: TargetSpec,
    source: ScenarioSource,
    strict: bool,
    divergences: Vec<PathBuf>,
    profile: Profile,
    detail: Detail,
    reports: ReportFiles,
    jobs: u16,
    timeout: Duration,
    replication_factor: i16,
    run_id: Option<String>,
    dialect: Dialect,
}

fn check(flags: CheckFlags, runtime: &tokio::runtime::Runtime) -> Result<ExitCode, String> {
    flags.reports.check_folders()?;
    flags.reports.check_apart_from(&flags.source.scenarios)?;
    let selection = flags.source.select()?;
    let divergences = selection.divergences(&flags.divergences)?;
    let scenarios = selection.scenarios;
    let checked = runtime.block_on(preflight(
        &flags.target,
        flags.timeout,
        flags.dialect,
        flags.replication_factor,
    ))?;
    if let (Some(run_id), TargetSpec::Kafka(address)) = (&flags.run_id, &flags.target) {
        runtime.block_on(refuse_a_run_id_in_use(
            address,
            run_id,
            &scenarios,
            flags.timeout,
        ))?;
    }
    // The preflight's connection, closed once it has told the hint.
    if let Some(hint) = checked
        .and_then(|connection| streamspec::doctor::expectation_hint(&connection, flags.profile))
    {
        eprintln!("streamspec: {hint}");
    }
    let interrupt = Interrupt::default();
    listen_for_ctrl_c(interrupt.clone())?;
    let total = scenarios.len();
    let options = CheckOptions {
        scenarios,
        divergences,
        strict: flags.strict,
        profile: flags.profile,
        jobs: flags.jobs,
        io_timeout: flags.timeout,
        run_id: flags.run_id.clone(),
        // The HTML report shows each failure's steps.
        record_exchanges: flags.detail == Detail::Verbose || flags.reports.html.is_some(),
        interrupt,
        progress: Default::default(),
    };
    let report = with_connector!(
        dialect: flags.dialect,
        &flags.target,
        flags.timeout,
        flags.replication_factor,
        |connector| {
            let run_id = options
                .run_id
                .clone()
                .unwrap_or_else(|| default_run_id(&connector));
            eprintln!(
                "streamspec check --target {}: {total} scenarios, run id {run_id}",
                connector.name()
            );
            let options = CheckOptions {
                run_id: Some(run_id),
                ..options
            };
            let progress = Arc::clone(&options.progress);
            show_check_progress(total, &progress, move || {
                streamspec::check(connector, options)
            })
        }
    );
    out!(
        "{}",
        report.human(Console {
            detail: flags.detail,
            width: console_width(),
        })
    );
    write_reports(&report, &flags.reports)?;
    if report.target_lost.is_some() {
        if flags.dialect == Dialect::KipDraft {
            eprintln!("streamspec: hint: with --dialect kip-draft, a target that speaks Kafka's released schema (as Kafka 4.x does) reads the draft's requests as malformed and closes the connection; leave --dialect out for such a target");
        }
        return Ok(ExitCode::from(report.verdict().exit_code()));
    }
    if report.interrupted {
        outln!(
            "{}",
            interrupted_line(
                format!("{} scenarios not run", report.not_run()),
                report.cleanup_failures()
            )
        );
    }
    Ok(ExitCode::from(report.verdict().exit_code()))
}

/// Runs `check` on a thread of its own while this one shows how far it got: a bar on a
/// terminal, else (a CI log) a line every few seconds.
fn show_check_progress(
    total: usize,
    progress: &streamspec::check::CheckProgress,
    check: impl FnOnce() -> Report + Send,
) -> Report {
    let bar = ProgressBar::new(total as u64);
    let bar_shown = std::io::stderr().is_terminal();
    if bar_shown {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} scenarios, {msg}")
                .expect("a valid template"),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let started = std::time::Instant::now();
    let mut last_line = started;
    let report = std::thread::scope(|scope| {
        let running = scope.spawn(check);
        while !running.is_finished() {
            let done = progress.done.load(Ordering::Relaxed);
            let failed = progress.failed.load(Ordering::Relaxed);
            if !bar_shown && last_line.elapsed() >= PROGRESS_EVERY {
                eprintln!("streamspec: {done}/{total} scenarios done, {failed} failed");
                last_line = std::time::Instant::now();
            }
            bar.set_position(done as u64);
            bar.set_message(format!("{failed} failed"));
            std::thread::sleep(Duration::from_millis(100));
        }
        running
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    bar.finish_and_clear();
    report
}

/// What `-v` and `-q` ask the console for.
fn detail_of(verbose: bool, quiet: bool) -> Detail {
    match (verbose, quiet) {
        (true, _) => Detail::Verbose,
        (_, true) => Detail::Quiet,
        _ => Detail::Normal,
    }
}

/// The longest `--timeout-ms`: it goes to Kafka as the 32-bit timeout of CreateTopics and
/// DeleteTopics, where a larger value wrapped and every topic creation timed out at once.
const MAX_TIMEOUT_MS: u64 = i32::MAX as u64;

/// A replication factor: 1 or more, or -1 for the broker's default.
fn parse_replication_factor(text: &str) -> Result<i16, String> {
    match text.parse::<i16>() {
        Ok(factor) if factor == -1 || factor >= 1 => Ok(factor),
        _ => Err(format!(
            "not a replication factor: {text:?} (1 or more, or -1 for the broker's default)"
        )),
    }
}

/// A run id goes into every group and topic name, where Kafka takes ASCII letters, digits,
/// `.`, `_` and `-`; 1 to 64 of them, so that the names stay well inside its 249.
fn parse_run_id(text: &str) -> Result<String, String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if (1..=streamspec::MAX_RUN_ID_LEN).contains(&text.len()) && text.chars().all(allowed) {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "not a run id: {text:?} (1 to {} of ASCII letters, digits, '.', '_' and '-', as Kafka's names take)",
            streamspec::MAX_RUN_ID_LEN
        ))
    }
}

/// The flags of `fuzz`.
struct FuzzFlags {
    config: CampaignConfig,
    detail: Detail,
    reports: ReportFiles,
}

fn fuzz<C: Connect + Sync + Send>(connector: C, flags: FuzzFlags) -> Result<ExitCode, String> {
    let config = &flags.config;
    let target = connector.name();
    let connector_flags = connector.flags();
    let connector_warnings = connector.warnings();
    let connector_shares_state = connector.shares_state();
    // The run's seed and configuration first, so that any output can be reproduced.
    outln!("{}", config.command(&connector));
    outln!(
        "run id {}; about {} operations per run, each run a fresh group{}",
        config.run_id,
        config.operations,
        if connector.shares_state() {
            format!(", {} at once, on real time", config.groups)
        } else {
            " on a virtual clock".to_owned()
        }
    );
    listen_for_ctrl_c(config.interrupt.clone())?;
    let progress = &config.progress;
    let bar = ProgressBar::new_spinner();
    let bar_shown = std::io::stderr().is_terminal();
    if !bar_shown {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let started = std::time::Instant::now();
    let mut last_line = started;
    let result = std::thread::scope(|scope| {
        let campaign = scope.spawn(|| streamspec::fuzz(connector, config));
        while !campaign.is_finished() {
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            let heartbeats = progress.heartbeats.load(Ordering::Relaxed);
            let message = format!(
                "{} runs, {} operations, {:.0} heartbeats/s, {} violations",
                progress.runs.load(Ordering::Relaxed),
                progress.operations.load(Ordering::Relaxed),
                heartbeats as f64 / seconds,
                progress.violations.load(Ordering::Relaxed)
            );
            // Without a terminal for the bar (a CI log), a line every few seconds.
            if !bar_shown && last_line.elapsed() >= PROGRESS_EVERY {
                eprintln!("streamspec: {message}");
                last_line = std::time::Instant::now();
            }
            bar.set_message(message);
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
            target: target.clone(),
            violation: finding.violation.to_string(),
            differential: result.comparison.is_some(),
            input: finding.input.clone(),
        };
        let text = serde_json::to_string_pretty(&trace).expect("traces serialize");
        std::fs::write(&file, text).map_err(|error| format!("{file}: {error}"))?;
        trace_file = Some(file);
    }
    let mut report = campaign::report_with_flags(
        config,
        &target,
        &connector_flags,
        &result,
        trace_file.as_deref(),
    );
    report.warnings.extend(connector_warnings);
    out!(
        "{}",
        report.human(Console {
            detail: flags.detail,
            width: console_width(),
        })
    );
    for line in report.campaign.iter().flat_map(|campaign| campaign.lines()) {
        outln!("{line}");
    }
    // A budget for CI: say where the time past it went, which no other line shows.
    let over = result.elapsed.saturating_sub(config.duration);
    if config.duration != Duration::MAX && over > Duration::from_secs(1) {
        outln!(
            "{:.1} s past --duration {:.0}s: the runs in progress when it ran out finished{}",
            over.as_secs_f64(),
            config.duration.as_secs_f64(),
            if result.finding.is_some() {
                ", and the violation was shrunk (--shrink bounds that)"
            } else if connector_shares_state {
                " (a run against a broker waits on its real time: --operations makes runs shorter)"
            } else {
                ""
            }
        );
    }
    if let Some(finding) = &result.finding {
        outln!(
            "run {} (its seed {:#x}) again: {}",
            finding.run,
            config.run_seed(finding.run),
            config.run_command(&target, &connector_flags, finding.run)
        );
    }
    if let Some(file) = &trace_file {
        outln!("trace: {file}");
        outln!(
            "replay: {}",
            campaign::replay_command(file, &target, &connector_flags)
        );
    }
    write_reports(&report, &flags.reports)?;
    if report.interrupted {
        outln!(
            "{}",
            interrupted_line(
                format!("{} runs cut short", result.interrupted_runs),
                result.cleanup_errors.len()
            )
        );
    }
    Ok(ExitCode::from(report.verdict().exit_code()))
}

/// The trace in `file`, with a valid setup and a violation its operations can reach.
fn read_trace(file: &std::path::Path) -> Result<Trace, String> {
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
    trace
        .check_violation_reachable()
        .map_err(|error| format!("{}: {error}", file.display()))?;
    Ok(trace)
}

fn replay<C: Connect>(
    trace: &Trace,
    connector: C,
    timeout: Duration,
    history: bool,
) -> Result<ExitCode, String> {
    let config = CampaignConfig {
        run_id: default_run_id(&connector),
        seed: trace.seed,
        duration: Duration::ZERO,
        operations: 0,
        groups: 1,
        io_timeout: timeout,
        shrink_budget: Duration::ZERO,
        ..CampaignConfig::default()
    };
    outln!(
        "replaying run {} of seed {} (found on {}): {}",
        trace.run,
        trace.seed,
        trace.target,
        trace.violation
    );
    let names_of = |attempt: &str| {
        streamspec::simulation::setup::Names::new(&if connector.shares_state() {
            format!(
                "{}replay-{}{attempt}-",
                streamspec::NAME_PREFIX,
                config.run_id
            )
        } else {
            String::new()
        })
    };
    // A trace of nondeterminism is judged as the campaign found it: by a second run.
    let determinism = streamspec::simulation::oracle::DETERMINISTIC;
    let of_determinism = trace.violation.starts_with(&determinism.to_string());
    if of_determinism && connector.shares_state() {
        return Err("the trace records two runs of one input that differed, which only a coordinator on a virtual clock can repeat alike; a broker's real time makes no two runs alike: replay it in process".to_owned());
    }
    let names = names_of("");
    let prefix = names.prefix().to_owned();
    let mut record = campaign::run_once(&config, &connector, names, &trace.input)?;
    if of_determinism && record.violation.is_none() {
        let again_names = names_of("again-");
        let again_prefix = again_names.prefix().to_owned();
        let again = campaign::run_once(&config, &connector, again_names, &trace.input)?;
        record = campaign::compare_runs(record, &prefix, &again, &again_prefix);
        outln!(
            "ran the input twice, as --check-determinism does: the traces {}",
            if record.violation.is_some() {
                "differ"
            } else {
                "agree"
            }
        );
    }
    if history {
        for event in &record.history {
            out!("{}", event.render());
        }
    }
    match &record.violation {
        None => {
            if let Some(issue) = record.known_issue {
                outln!(
                    "known issue {} (waives \"{}\"): {}",
                    issue.id,
                    issue.property,
                    issue.reason
                );
            }
            let divergence = record
                .comparison
                .as_ref()
                .and_then(|comparison| comparison.known.as_ref());
            if let Some(divergence) = divergence {
                outln!(
                    "met the divergence recorded in {} for {} (rules {}), after which nothing was compared: {}",
                    divergence.source,
                    divergence.field.as_deref().unwrap_or_default(),
                    divergence.rules.join(", "),
                    divergence.reason
                );
            }
            outln!(
                "{} operations, {} exchanges, no violation",
                trace.input.operations.len(),
                record.history.len()
            );
            if let Some(comparison) = &record.comparison {
                outln!(
                    "{}",
                    campaign::ComparisonTotals::of_run(trace.run, comparison)
                        .summary(record.history.len() as u64)
                );
            }
            if record.known_issue.is_some() || divergence.is_some() {
                // A waived run still shows the target's known behaviour: not a fix.
                outln!(
                    "not told: the run met the known behaviour above, which waives what it breaks, so this replay cannot say whether the violation the trace recorded ({}) is gone",
                    trace.violation
                );
            } else {
                outln!(
                    "did not reproduce: the violation the trace recorded ({}) was not found again",
                    trace.violation
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(violation) => {
            outln!("VIOLATION: {violation}");
            out!("{}", violation.slice(&record.history));
            match campaign::reproduction(violation, &trace.violation) {
                campaign::Reproduction::Same => {
                    outln!("reproduced: the violation the trace recorded");
                }
                campaign::Reproduction::SameHeading => outln!(
                    "reproduced: the violation the trace recorded, of the same property at the same operation (its detail differs: {})",
                    trace.violation
                ),
                campaign::Reproduction::Other => outln!(
                    "did not reproduce the violation the trace recorded ({}): the one above was found instead",
                    trace.violation
                ),
            }
            Ok(ExitCode::from(1))
        }
    }
}

fn main() -> ExitCode {
    // A negative number is read as a value of every flag (`--replication-factor -1` needs it),
    // so that `--seed -1` is told it is not a valid number rather than that `-1` is an unknown
    // flag.
    let matches = Cli::command()
        .mut_subcommands(|command| command.allow_negative_numbers(true))
        .get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let result = match cli.command {
        Command::List { source, evidence } => list(&source, evidence),
        Command::Doctor {
            target,
            source,
            profile,
            verbose,
            timeout_ms,
            dialect,
        } => runtime.block_on(doctor(
            TargetSpec::parse(&target),
            &source,
            profile,
            verbose,
            Duration::from_millis(timeout_ms),
            dialect,
        )),
        Command::Proxy {
            listen,
            upstream,
            cap_version,
            refuse_default_replication_factor,
            duration,
            dialect,
            faults,
            trace_dir,
            capture,
            settled_at_exit,
            reports,
        } => proxy(
            &runtime,
            &listen,
            streamspec::proxy::ProxyConfig {
                upstream,
                version_caps: cap_version.into_iter().collect(),
                refuse_default_replication_factor,
                dialect,
                faults,
                trace_dir,
                capture,
                settled_at_exit,
            },
            duration,
            &reports,
        ),
        Command::Clean {
            target,
            dry_run,
            prefix,
            timeout_ms,
        } => runtime.block_on(clean(
            &target,
            &prefix,
            Duration::from_millis(timeout_ms),
            dry_run,
        )),
        Command::Fuzz {
            target,
            duration,
            runs,
            first_run,
            jobs,
            verbose,
            quiet,
            seed,
            operations,
            groups,
            check_determinism,
            shrink,
            reports,
            timeout_ms,
            replication_factor,
            run_id,
            dialect,
            differential,
            divergences,
        } => {
            let target = TargetSpec::parse(&target);
            let timeout = Duration::from_millis(timeout_ms);
            // A range whose end passes u64::MAX ran nothing, silently.
            let runs_exist = match runs {
                Some(count) if first_run.checked_add(count).is_none() => Err(format!(
                    "--first-run {first_run} --runs {count}: runs are numbered below {}",
                    u64::MAX
                )),
                _ => Ok(()),
            };
            runs_exist
                .and_then(|()| reports.check_folders())
                .and_then(|()| {
                    runtime.block_on(preflight(&target, timeout, dialect, replication_factor))
                })
                .and_then(|_| {
                    with_connector!(dialect: dialect, &target, timeout, replication_factor, |inner| {
                        with_differential!(differential, &divergences, dialect, inner, |connector| {
                        if jobs > 1 && connector.shares_state() {
                            return Err(format!(
                                "--jobs {jobs}: jobs run in-process runs; against a broker, --groups runs groups at once"
                            ));
                        }
                        if let (Some(groups), false) = (groups, connector.shares_state()) {
                            return Err(format!(
                                "--groups {groups}: groups run at once against a broker; in process, --jobs N carries the runs out on N threads"
                            ));
                        }
                        let groups = groups.unwrap_or(4);
                        if check_determinism && connector.shares_state() {
                            return Err("--check-determinism runs each input twice and compares the traces, which only a coordinator on a virtual clock can repeat; a broker runs on real time, where no two runs are alike: use it with --target embedded or a coordinator of your own in process".to_owned());
                        }
                        let operations =
                            operations.unwrap_or(if connector.shares_state() { 40 } else { 200 });
                        let duration = duration.unwrap_or(if runs.is_some() {
                            Duration::MAX
                        } else {
                            Duration::from_secs(10)
                        });
                        let config = CampaignConfig {
                            run_id: run_id.clone().unwrap_or_else(|| default_run_id(&connector)),
                            seed,
                            duration,
                            operations,
                            groups,
                            jobs,
                            runs: RunRange {
                                first: first_run,
                                count: runs,
                            },
                            check_determinism,
                            io_timeout: timeout,
                            shrink_budget: shrink,
                            interrupt: Interrupt::default(),
                            progress: Default::default(),
                        };
                        let flags = FuzzFlags {
                            config,
                            detail: detail_of(verbose, quiet),
                            reports: reports.clone(),
                        };
                        fuzz(connector, flags)
                        })
                    })
                })
        }
        Command::Replay {
            file,
            target,
            timeout_ms,
            replication_factor,
            history,
            dialect,
            differential,
            divergences,
        } => {
            let target = TargetSpec::parse(&target);
            let timeout = Duration::from_millis(timeout_ms);
            // A live trace is judged again from its bytes: no target is involved.
            let live = streamspec::proxy::observe::read_live_trace(&file);
            if matches!(live, Ok(Some(_))) && !divergences.is_empty() {
                eprintln!(
                    "streamspec: --divergences applies to a trace `fuzz --differential` wrote; a live trace is judged, or answered again by the reference, with no waivers: leave --divergences out"
                );
                return ExitCode::from(2);
            }
            // Real clients cannot be driven again: a target named would be ignored.
            if matches!(live, Ok(Some(_))) && !matches!(target, TargetSpec::Embedded) {
                eprintln!(
                    "streamspec: a live trace is judged again from its bytes, or answered again by the reference (--differential), and sent to no target: leave --target out"
                );
                return ExitCode::from(2);
            }
            match live {
                Ok(Some(trace)) if differential => {
                    return match streamspec::proxy::observe::reference::answer_again(&trace) {
                        Ok(answered) => {
                            out!("{}", answered.text);
                            ExitCode::from(u8::from(answered.differing > 0))
                        }
                        Err(message) => {
                            eprintln!("streamspec: {}: {message}", file.display());
                            ExitCode::from(2)
                        }
                    };
                }
                Ok(Some(trace)) => {
                    let rejudged = streamspec::proxy::observe::rejudge(&trace, history);
                    out!("{}", rejudged.text);
                    return ExitCode::from(u8::from(rejudged.violated));
                }
                Ok(None) => {}
                Err(message) => {
                    eprintln!("streamspec: {message}");
                    return ExitCode::from(2);
                }
            }
            runtime
                .block_on(preflight(&target, timeout, dialect, replication_factor))
                .and_then(|_| read_trace(&file))
                .and_then(|trace| {
                    if trace.differential && !differential && dialect != Dialect::Kafka {
                        return Err(format!(
                            "{} was found by `fuzz --differential`, which compares answers in Kafka's dialect, and its replay compares them again; under --dialect kip-draft the translation itself makes them differ: leave --dialect out",
                            file.display()
                        ));
                    }
                    let differential = differential || trace.differential;
                    if !differential && !divergences.is_empty() {
                        return Err(format!(
                            "--divergences waives differences from the reference, which only a differential replay looks for: {} was not found with --differential; add --differential, or leave --divergences out",
                            file.display()
                        ));
                    }
                    with_connector!(dialect: dialect, &target, timeout, replication_factor, |inner| {
                        with_differential!(differential, &divergences, dialect, inner, |connector| {
                            replay(&trace, connector, timeout, history)
                        })
                    })
                })
        }
        Command::Check {
            target,
            source,
            strict,
            divergences,
            profile,
            verbose,
            quiet,
            reports,
            jobs,
            timeout_ms,
            replication_factor,
            run_id,
            dialect,
        } => check(
            CheckFlags {
                target: TargetSpec::parse(target.as_deref().unwrap_or("embedded")),
                source,
                strict,
                divergences,
                profile,
                detail: detail_of(verbose, quiet),
                reports,
                jobs,
                timeout: Duration::from_millis(timeout_ms),
                replication_factor,
                run_id,
                dialect,
            },
            &runtime,
        ),
    };
    result.unwrap_or_else(|message| {
        eprintln!("streamspec: {message}");
        ExitCode::from(2)
    })
}
