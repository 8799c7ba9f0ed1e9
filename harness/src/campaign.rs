//! Seeded campaigns: runs drawn from one root seed, against the reference in process or against a
//! broker with several groups at once, the oracle checked on every run. A violation is shrunk by
//! running smaller inputs again (each against a fresh group), saved as a trace, and reported in
//! the formats of `check`.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::backend::Connect;
use crate::differential::Comparison;
use crate::interrupt::Interrupt;
use crate::report::{Report, SometimesCount};
use crate::runner::Divergence;
use crate::runner::{Outcome, Verdict};
use crate::scenario::Grade;
use crate::simulation::history::{timeline, TimelineEntry};
use crate::simulation::oracle::{self, Coverage, KnownIssue, TracePair, Violation};
use crate::simulation::setup::Names;
use crate::simulation::{self, run_bytes, RunBounds, RunInput, RunRecord};
use crate::NAME_PREFIX;
use streamspec_protocol::rng::sub_seed;

/// Bytes a run's setup draws from before its operations.
const SETUP_BYTES: usize = 48;
/// Bytes per operation, about.
const BYTES_PER_OPERATION: usize = 4;

/// How a campaign runs; the target is the [`Connect`] it is given.
#[derive(Debug, Clone)]
pub struct CampaignConfig {
    pub seed: u64,
    pub duration: Duration,
    /// Operations per run, about.
    pub operations: u32,
    /// Runs at once against a target whose backends share state (a broker), each with its own
    /// group and topics.
    pub groups: u16,
    /// Threads running in-process runs at once (a target whose every run has a coordinator of its
    /// own). Each takes its own fixed share of the runs, so which run gets which input, and so
    /// its outcome, does not depend on how many there are.
    pub jobs: u16,
    /// Which runs to carry out; a bounded range ends the campaign before its duration when done.
    pub runs: RunRange,
    /// Runs every input twice and compares the traces.
    pub check_determinism: bool,
    /// Bound on every wait for the coordinator to see a change of topics.
    pub io_timeout: Duration,
    /// Makes group and topic names on a broker unique.
    pub run_id: String,
    /// Time allowed for shrinking a violation.
    pub shrink_budget: Duration,
    /// Raised on Ctrl-C: no run starts any more, and a run in progress stops and cleans up.
    pub interrupt: Interrupt,
    /// Counters a progress display reads while the campaign runs.
    pub progress: Arc<Progress>,
}

impl Default for CampaignConfig {
    /// `streamspec fuzz`'s defaults: 10 s of runs of about 200 operations.
    fn default() -> Self {
        CampaignConfig {
            seed: 0x5eed,
            duration: Duration::from_secs(10),
            operations: 200,
            groups: 4,
            jobs: 1,
            runs: RunRange::default(),
            check_determinism: false,
            io_timeout: Duration::from_secs(15),
            run_id: "embedded".to_owned(),
            shrink_budget: Duration::from_secs(60),
            interrupt: Interrupt::default(),
            progress: Arc::default(),
        }
    }
}

impl CampaignConfig {
    /// The input of run `run`.
    pub fn input(&self, run: u64) -> RunInput {
        let length = SETUP_BYTES + self.operations as usize * BYTES_PER_OPERATION;
        RunInput::from_bytes(&run_bytes(self.seed, run, length))
    }

    /// The command that runs this campaign against `connector`'s target again.
    pub fn command<C: Connect>(&self, connector: &C) -> String {
        let first = match self.runs.first {
            0 => String::new(),
            first => format!(" --first-run {first}"),
        };
        let limit = match self.runs.count {
            Some(count) => format!(" --runs {count}"),
            None => format!(" --duration {}s", self.duration.as_secs()),
        };
        let concurrency = if connector.shares_state() {
            format!(" --groups {}", self.groups)
        } else if self.jobs > 1 {
            format!(" --jobs {}", self.jobs)
        } else {
            String::new()
        };
        format!(
            "{}{first}{limit}{concurrency}{}",
            self.command_start(&connector.name()),
            connector.flags()
        ) + self.determinism_flag()
    }

    /// The command that carries out run `run` of this campaign alone against `target` (which
    /// needs `flags` besides `--target`): the same root seed and operations, so the same input.
    pub fn run_command(&self, target: &str, flags: &str, run: u64) -> String {
        format!(
            "{} --first-run {run} --runs 1{flags}",
            self.command_start(target)
        ) + self.determinism_flag()
    }

    fn command_start(&self, target: &str) -> String {
        format!(
            "streamspec fuzz --target {target} --seed {} --operations {}",
            self.seed, self.operations
        )
    }

    fn determinism_flag(&self) -> &'static str {
        if self.check_determinism {
            " --check-determinism"
        } else {
            ""
        }
    }

    /// The seed run `run`'s input is drawn from, derived from the root seed.
    pub fn run_seed(&self, run: u64) -> u64 {
        sub_seed(self.seed, run)
    }

    /// A run's names: unique where backends share state, none needed where each run has a
    /// coordinator of its own (which keeps in-process runs deterministic).
    fn names<C: Connect>(&self, connector: &C, run: u64, attempt: &str) -> Names {
        if connector.shares_state() {
            Names::new(&format!("{}{run}{attempt}-", self.names_prefix()))
        } else {
            Names::new("")
        }
    }

    /// What the names of every run of the campaign start with, where backends share state.
    fn names_prefix(&self) -> String {
        format!("{NAME_PREFIX}fuzz-{}-", self.run_id)
    }

    fn bounds(&self) -> RunBounds {
        RunBounds {
            interrupt: self.interrupt.clone(),
            io_timeout: self.io_timeout,
        }
    }
}

/// Which runs a campaign carries out: `first` and those after it, `count` of them when bounded,
/// else until the campaign's duration is up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunRange {
    pub first: u64,
    pub count: Option<u64>,
}

impl RunRange {
    /// Whether `run` is past the range.
    fn is_past(&self, run: u64) -> bool {
        self.count
            .is_some_and(|count| run >= self.first.saturating_add(count))
    }
}

/// A violation found in a run, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    pub run: u64,
    /// The operations of the run as drawn, before shrinking.
    pub drawn_operations: usize,
    pub input: RunInput,
    pub violation: Violation,
    /// The exchanges that show it.
    pub slice: String,
    /// Every exchange of the shrunk run, for a timeline per member.
    pub timeline: Vec<TimelineEntry>,
}

/// Counters a progress display reads while the campaign runs.
#[derive(Debug, Default)]
pub struct Progress {
    pub runs: AtomicU64,
    /// Runs that met a known defect of the target.
    pub known_issues: AtomicU64,
    pub operations: AtomicU64,
    pub heartbeats: AtomicU64,
    pub violations: AtomicU64,
}

/// How a campaign ended.
#[derive(Debug)]
pub struct CampaignResult {
    pub runs: u64,
    pub operations: u64,
    pub heartbeats: u64,
    pub elapsed: Duration,
    /// CPU time the campaign's threads spent on runs (shrinking aside): operations per CPU
    /// second are operations per second per core, whatever else the machine runs.
    pub cpu: Duration,
    /// A digest of every finished run's outcome (its answers, violation and known issue, by run),
    /// independent of the order the runs finished in: the same runs give the same digest
    /// whatever `--jobs`.
    pub outcome_digest: u64,
    pub finding: Option<Finding>,
    /// How many runs met a known defect of the target, and the first of them.
    pub known_issues: u64,
    pub first_known_issue: Option<(u64, &'static KnownIssue)>,
    /// Runs that could not be carried out (set-up or a change of topics failed), which end the
    /// campaign; errors of the run, not protocol findings.
    pub setup_errors: Vec<String>,
    /// Why the campaign ended before its duration was up, when it did.
    pub stopped_early: Option<String>,
    /// Runs whose topics or group configs could not be removed afterwards.
    pub cleanup_errors: Vec<String>,
    /// Runs cut short by an interrupt (Ctrl-C); they count as neither finished nor found.
    pub interrupted_runs: u64,
    /// How often the finished runs reached each `sometimes` property.
    pub coverage: Coverage,
    /// In a differential campaign, what its finished runs compared with the reference.
    pub comparison: Option<ComparisonTotals>,
    /// The runs' backends shared state (a broker): groups ran at once, not jobs.
    pub shares_state: bool,
}

/// A campaign's seed and totals: what the console's closing lines, the JSON report's `campaign`
/// and the JUnit report's properties all state, taken from here alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CampaignSummary {
    /// The root seed every run derives from.
    pub seed: u64,
    pub first_run: u64,
    /// Runs finished.
    pub runs: u64,
    pub operations: u64,
    pub heartbeats: u64,
    pub elapsed_seconds: f64,
    /// CPU time of the threads carrying the runs out (shrinking aside).
    pub cpu_seconds: f64,
    pub operations_per_cpu_second: u64,
    /// In-process runs at once (`--jobs`).
    pub jobs: u16,
    /// Groups at once against a broker (`--groups`); `None` in process.
    pub groups: Option<u16>,
    /// As the console prints it: `0x` and 16 hex digits.
    pub outcome_digest: String,
    /// In a differential campaign, what was compared with the reference.
    pub compared: Option<Compared>,
}

impl CampaignSummary {
    pub fn of(config: &CampaignConfig, result: &CampaignResult) -> CampaignSummary {
        CampaignSummary {
            seed: config.seed,
            first_run: config.runs.first,
            runs: result.runs,
            operations: result.operations,
            heartbeats: result.heartbeats,
            elapsed_seconds: result.elapsed.as_secs_f64(),
            cpu_seconds: result.cpu.as_secs_f64(),
            operations_per_cpu_second: (result.operations as f64
                / result.cpu.as_secs_f64().max(1e-9))
            .round() as u64,
            jobs: config.jobs,
            groups: result.shares_state.then_some(config.groups),
            outcome_digest: format!("{:#018x}", result.outcome_digest),
            compared: result
                .comparison
                .as_ref()
                .map(|totals| totals.compared(result.heartbeats)),
        }
    }

    /// The console's closing lines: counts and rates, CPU and digest, and what was compared.
    pub fn lines(&self) -> Vec<String> {
        let seconds = self.elapsed_seconds.max(1e-9);
        let (workers, unit) = match self.groups {
            Some(groups) => (groups, "group"),
            None => (self.jobs, "job"),
        };
        let mut lines = vec![
            format!(
                "{} runs, {} operations ({:.0}/s), {} heartbeats ({:.0}/s) in {:.1} s with the oracle on",
                self.runs,
                self.operations,
                self.operations as f64 / seconds,
                self.heartbeats,
                self.heartbeats as f64 / seconds,
                self.elapsed_seconds
            ),
            format!(
                "{} operations per CPU second ({:.2} CPU s over {workers} {unit}{}); outcome digest {}",
                self.operations_per_cpu_second,
                self.cpu_seconds,
                if workers == 1 { "" } else { "s" },
                self.outcome_digest
            ),
        ];
        lines.extend(self.compared.as_ref().map(Compared::to_string));
        lines
    }
}

/// What a differential campaign or replay compared with the reference, beside the heartbeats
/// its runs sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Compared {
    pub heartbeats: u64,
    pub describes: u64,
    pub timing_sensitive: u64,
    /// Runs that met a recorded divergence: they compared nothing after it.
    pub runs_meeting_recorded_divergences: u64,
    /// The recorded divergences those runs met.
    pub recorded_divergences_met: usize,
    /// The runs' heartbeats left uncompared after such a divergence.
    pub heartbeats_not_compared: u64,
}

impl std::fmt::Display for Compared {
    /// The console's line: a run that met a recorded divergence compares nothing after it (the
    /// two states part there), which a passing verdict must not hide.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "compared with the reference: {} heartbeats and {} describes ({} timing-sensitive)",
            self.heartbeats, self.describes, self.timing_sensitive
        )?;
        let runs = self.runs_meeting_recorded_divergences;
        if runs > 0 {
            write!(
                f,
                "; not compared: {} of the runs' {} heartbeats, those after the recorded divergence{} {runs} run{} met",
                self.heartbeats_not_compared,
                self.heartbeats + self.heartbeats_not_compared,
                if self.recorded_divergences_met == 1 { "" } else { "s" },
                if runs == 1 { "" } else { "s" },
            )?;
        }
        Ok(())
    }
}

/// What a differential campaign compared with the reference, over its finished runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComparisonTotals {
    pub heartbeats: u64,
    pub describes: u64,
    pub timing_sensitive: u64,
    /// Runs that met a recorded divergence.
    pub known: u64,
    /// Each recorded divergence met, by the lowest run that met it: with several jobs runs
    /// finish out of order, and the totals must not depend on it.
    pub known_by_divergence: Vec<KnownDivergence>,
}

/// The runs that met one recorded divergence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownDivergence {
    pub divergence: Divergence,
    pub runs: u64,
    /// The lowest of them: the one a report names to run again.
    pub first_run: u64,
}

impl ComparisonTotals {
    /// The recorded divergence the lowest run met.
    pub fn first_known(&self) -> Option<&KnownDivergence> {
        self.known_by_divergence.first()
    }

    /// What was compared, beside the `heartbeats` the runs sent.
    pub fn compared(&self, heartbeats: u64) -> Compared {
        Compared {
            heartbeats: self.heartbeats,
            describes: self.describes,
            timing_sensitive: self.timing_sensitive,
            runs_meeting_recorded_divergences: self.known,
            recorded_divergences_met: self.known_by_divergence.len(),
            heartbeats_not_compared: heartbeats.saturating_sub(self.heartbeats),
        }
    }

    /// The console's line of [`ComparisonTotals::compared`].
    pub fn summary(&self, heartbeats: u64) -> String {
        self.compared(heartbeats).to_string()
    }

    /// What run `run` alone compared.
    pub fn of_run(run: u64, comparison: &Comparison) -> ComparisonTotals {
        let mut totals = ComparisonTotals::default();
        totals.add(run, comparison);
        totals
    }

    fn add(&mut self, run: u64, comparison: &Comparison) {
        self.heartbeats += comparison.heartbeats;
        self.describes += comparison.describes;
        self.timing_sensitive += comparison.timing_sensitive;
        let Some(known) = &comparison.known else {
            return;
        };
        self.known += 1;
        match self
            .known_by_divergence
            .iter_mut()
            .find(|met| met.divergence == *known)
        {
            Some(met) => {
                met.runs += 1;
                met.first_run = met.first_run.min(run);
            }
            None => self.known_by_divergence.push(KnownDivergence {
                divergence: known.clone(),
                runs: 1,
                first_run: run,
            }),
        }
        // A run meets one divergence at most, so no two share a first run.
        self.known_by_divergence.sort_by_key(|met| met.first_run);
    }
}

/// A saved violation: what `streamspec replay` runs again.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    pub seed: u64,
    pub run: u64,
    /// Where it was found.
    pub target: String,
    pub violation: String,
    /// Found comparing every answer with the reference's: replayed so (`--differential`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub differential: bool,
    pub input: RunInput,
}

impl Trace {
    /// Refuses a trace whose recorded violation lies past its operations and the settling
    /// rounds after them, which are numbered as one more operation: with operations taken out
    /// of it, no replay can reach the violation, and "did not reproduce" would read as a fix.
    pub fn check_violation_reachable(&self) -> Result<(), String> {
        let operations = self.input.operations.len();
        let settling = operations + 1;
        match Violation::operation_in(&self.violation) {
            Some(at) if at > settling => Err(format!(
                "{operations} operations, but the violation it records is at operation {at}, past them and the settling rounds after them (operation {settling}): no replay can reach it; put back the operations taken out"
            )),
            _ => Ok(()),
        }
    }
}

/// The command that replays the trace `file` against `target`.
pub fn replay_command(file: &str, target: &str, flags: &str) -> String {
    format!("streamspec replay {file} --target {target}{flags}")
}

/// How the violation a replay found stands to the one its trace recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reproduction {
    /// The very violation.
    Same,
    /// The same property violated at the same operation, with another detail: on a broker's
    /// real time, times and what depends on them vary from run to run.
    SameHeading,
    /// Another one.
    Other,
}

/// Whether `found` is the violation `recorded` (a trace's text) says.
pub fn reproduction(found: &Violation, recorded: &str) -> Reproduction {
    if found.to_string() == recorded {
        Reproduction::Same
    } else if recorded.starts_with(&format!("{}: ", found.heading())) {
        Reproduction::SameHeading
    } else {
        Reproduction::Other
    }
}

/// Runs `input` once against a fresh backend of `connector` under `names`, on this thread.
pub fn run_once<C: Connect>(
    config: &CampaignConfig,
    connector: &C,
    names: Names,
    input: &RunInput,
) -> Result<RunRecord, String> {
    simulation::run_on(connector, names, input, &config.bounds())
}

/// Runs `input`, twice when determinism is checked; a differing second trace is a violation.
fn run_checked<C: Connect>(
    config: &CampaignConfig,
    connector: &C,
    run: u64,
    input: &RunInput,
) -> Result<RunRecord, String> {
    let names = config.names(connector, run, "");
    let prefix = names.prefix().to_owned();
    let record = run_once(config, connector, names, input)?;
    if !config.check_determinism || record.violation.is_some() {
        return Ok(record);
    }
    let again_names = config.names(connector, run, "-again");
    let again_prefix = again_names.prefix().to_owned();
    let again = run_once(config, connector, again_names, input)?;
    Ok(compare_runs(record, &prefix, &again, &again_prefix))
}

/// `record`, with a determinism violation when `again` (the same input run under another name
/// prefix) exchanged other bytes.
pub fn compare_runs(
    record: RunRecord,
    prefix: &str,
    again: &RunRecord,
    again_prefix: &str,
) -> RunRecord {
    let pair = TracePair {
        first: &record.history,
        first_prefix: prefix,
        second: &again.history,
        second_prefix: again_prefix,
    };
    match oracle::judge_replay(&pair) {
        Ok(()) => record,
        Err((property, found)) => RunRecord {
            violation: Some(Violation {
                property,
                detail: found.detail,
                at_operation: 0,
                events: found.events,
            }),
            ..record
        },
    }
}

/// Removes operations from `input` while its run, each attempt against a fresh group, still
/// violates the same property, within the campaign's shrink budget.
pub fn shrink<C: Connect>(
    config: &CampaignConfig,
    connector: &C,
    run: u64,
    input: RunInput,
    record: RunRecord,
) -> (RunInput, RunRecord) {
    let mut attempt = 0u32;
    // A candidate that cannot even be set up means the target stopped answering: the others
    // would each wait out the timeout too.
    let mut target_lost = false;
    shrink_with(config.shrink_budget, input, record, |candidate| {
        // After Ctrl-C the violation is reported as it was found.
        if target_lost || config.interrupt.is_raised() {
            return None;
        }
        attempt += 1;
        let result = run_once(
            config,
            connector,
            config.names(connector, run, &format!("-shrink{attempt}")),
            candidate,
        );
        target_lost = result.is_err();
        result.ok()
    })
}

/// Shrinks as [`shrink`] does, running candidates with `run_candidate`: halves, then quarters,
/// down to single operations, keeping every removal after which the run still fails the same way.
pub fn shrink_with(
    budget: Duration,
    input: RunInput,
    record: RunRecord,
    mut run_candidate: impl FnMut(&RunInput) -> Option<RunRecord>,
) -> (RunInput, RunRecord) {
    let property = record
        .violation
        .as_ref()
        .map(|violation| violation.property)
        .expect("shrinking starts from a violation");
    let started = Instant::now();
    let (mut best, mut best_record) = (input, record);
    let mut chunk = best.operations.len().div_ceil(2);
    while chunk >= 1 && started.elapsed() < budget {
        let mut start = 0;
        while start < best.operations.len() && started.elapsed() < budget {
            let mut candidate = best.clone();
            let end = (start + chunk).min(candidate.operations.len());
            candidate.operations.drain(start..end);
            match run_candidate(&candidate) {
                Some(found) if simulation::is_of(&found.violation, property) => {
                    best = candidate;
                    best_record = found;
                }
                _ => start += chunk,
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    (best, best_record)
}

/// Runs the campaign against fresh backends of `connector`, counting in `config.progress` as
/// it goes. Worker `w` of `n` carries out runs `first + w`, `first + w + n`, ...: each its own
/// fixed stream. After a violation, runs before it still finish and runs after it do not start,
/// so the violation reported is the first in run order, as with a single worker.
pub fn run<C: Connect + Sync>(config: &CampaignConfig, connector: &C) -> CampaignResult {
    let progress = &*config.progress;
    let started = Instant::now();
    // Runs from this one on do not start: a violation or an error was met at it.
    let stop_at = AtomicU64::new(u64::MAX);
    let found: Mutex<Option<(u64, RunInput, RunRecord)>> = Mutex::new(None);
    // Each with its run, listed in run order at the end whatever order the workers met them.
    let setup_errors: Mutex<Vec<(u64, String)>> = Mutex::new(Vec::new());
    let cleanup_errors: Mutex<Vec<(u64, String)>> = Mutex::new(Vec::new());
    let coverage: Mutex<Coverage> = Mutex::new(Coverage::default());
    let known: Mutex<Option<(u64, &'static KnownIssue)>> = Mutex::new(None);
    let comparison: Mutex<Option<ComparisonTotals>> = Mutex::new(None);
    let interrupted_runs = AtomicU64::new(0);
    let cpu_ns = AtomicU64::new(0);
    let outcome_digest = AtomicU64::new(0);
    let workers = u64::from(if connector.shares_state() {
        config.groups.max(1)
    } else {
        config.jobs.max(1)
    });
    let worker = |worker: u64| {
        let cpu_started = thread_cpu_ns();
        let mut seen = Coverage::default();
        let mut run = config.runs.first.saturating_add(worker);
        while !config.runs.is_past(run)
            && run < stop_at.load(Ordering::Relaxed)
            && !config.interrupt.is_raised()
            && started.elapsed() < config.duration
        {
            let input = config.input(run);
            match run_checked(config, connector, run, &input) {
                Ok(record) if record.interrupted => {
                    interrupted_runs.fetch_add(1, Ordering::Relaxed);
                    if let Some(error) = &record.cleanup_error {
                        cleanup_errors
                            .lock()
                            .unwrap()
                            .push((run, format!("run {run}: clean-up: {error}")));
                    }
                }
                Ok(record) => {
                    progress.runs.fetch_add(1, Ordering::Relaxed);
                    progress
                        .operations
                        .fetch_add(input.operations.len() as u64, Ordering::Relaxed);
                    progress
                        .heartbeats
                        .fetch_add(record.history.len() as u64, Ordering::Relaxed);
                    outcome_digest.fetch_add(outcome_hash(run, &record), Ordering::Relaxed);
                    seen.observe(&record.history);
                    if let Some(compared) = &record.comparison {
                        comparison
                            .lock()
                            .unwrap()
                            .get_or_insert_with(ComparisonTotals::default)
                            .add(run, compared);
                    }
                    if let Some(issue) = record.known_issue {
                        progress.known_issues.fetch_add(1, Ordering::Relaxed);
                        let mut known = known.lock().unwrap();
                        if known.is_none_or(|(first, _)| run < first) {
                            *known = Some((run, issue));
                        }
                    }
                    if let Some(error) = &record.cleanup_error {
                        cleanup_errors
                            .lock()
                            .unwrap()
                            .push((run, format!("run {run}: clean-up: {error}")));
                    }
                    if record.violation.is_some() {
                        progress.violations.fetch_add(1, Ordering::Relaxed);
                        stop_at.fetch_min(run, Ordering::Relaxed);
                        let mut found = found.lock().unwrap();
                        if found.as_ref().is_none_or(|(first, _, _)| run < *first) {
                            *found = Some((run, input, record));
                        }
                    }
                }
                Err(error) => {
                    setup_errors
                        .lock()
                        .unwrap()
                        .push((run, format!("run {run}: {error}")));
                    // Against a broker that stopped answering, every other run would wait out
                    // its timeouts too.
                    stop_at.store(0, Ordering::Relaxed);
                }
            }
            run = run.saturating_add(workers);
        }
        coverage.lock().unwrap().add(&seen);
        cpu_ns.fetch_add(thread_cpu_ns() - cpu_started, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        for index in 0..workers {
            scope.spawn(move || worker(index));
        }
    });
    let elapsed = started.elapsed();
    let setup_errors = in_run_order(setup_errors.into_inner().unwrap());
    let found = found.into_inner().unwrap();
    let stopped_early = match (&found, setup_errors.first()) {
        (Some((run, _, record)), _) => Some(format!(
            "run {run} violated \"{}\"; a campaign stops at its first violation",
            record
                .violation
                .as_ref()
                .map_or(String::new(), |v| v.property.label())
        )),
        (None, Some(error)) => Some(format!(
            "a run could not be carried out ({error}); a campaign stops at the first such run"
        )),
        (None, None) => None,
    };
    let finding = found.map(|(run, input, record)| {
        let drawn_operations = input.operations.len();
        let (input, record) = shrink(config, connector, run, input, record);
        let violation = record.violation.expect("a shrunk run still fails");
        let slice = violation.slice(&record.history);
        let timeline = timeline(&record.history, &violation.events);
        Finding {
            run,
            drawn_operations,
            input,
            violation,
            slice,
            timeline,
        }
    });
    CampaignResult {
        runs: progress.runs.load(Ordering::Relaxed),
        operations: progress.operations.load(Ordering::Relaxed),
        heartbeats: progress.heartbeats.load(Ordering::Relaxed),
        elapsed,
        cpu: Duration::from_nanos(cpu_ns.into_inner()),
        outcome_digest: outcome_digest.into_inner(),
        finding,
        known_issues: progress.known_issues.load(Ordering::Relaxed),
        first_known_issue: known.into_inner().unwrap(),
        setup_errors,
        stopped_early,
        cleanup_errors: in_run_order(cleanup_errors.into_inner().unwrap()),
        interrupted_runs: interrupted_runs.into_inner(),
        coverage: coverage.into_inner().unwrap(),
        comparison: comparison.into_inner().unwrap(),
        shares_state: connector.shares_state(),
    }
}

/// The messages of `errors` by run, those of one run in the order they were met.
fn in_run_order(mut errors: Vec<(u64, String)>) -> Vec<String> {
    errors.sort_by_key(|(run, _)| *run);
    errors.into_iter().map(|(_, message)| message).collect()
}

/// The CPU time this thread has used.
fn thread_cpu_ns() -> u64 {
    let time = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64
}

/// What run `run` came to, as a hash: each answer's member, time, error and epoch and whether it
/// arrived, then the violation and the known issue met.
fn outcome_hash(run: u64, record: &RunRecord) -> u64 {
    let mut hasher = DefaultHasher::new();
    run.hash(&mut hasher);
    for event in &record.history {
        event.operation.hash(&mut hasher);
        event.now_ms.hash(&mut hasher);
        event.member.hash(&mut hasher);
        event.response.error_code.hash(&mut hasher);
        event.response.member_epoch.hash(&mut hasher);
        event.delivered.hash(&mut hasher);
    }
    if let Some(violation) = &record.violation {
        violation.property.label().hash(&mut hasher);
        violation.at_operation.hash(&mut hasher);
    }
    record.known_issue.map(|issue| issue.id).hash(&mut hasher);
    hasher.finish()
}

/// The runs' set-up errors, one after another, then the command that removes what a failed
/// clean-up left (the campaign's names share one prefix), and a hint at a short `--timeout-ms`,
/// each given once rather than in each run's error.
fn setup_errors_text(errors: &[String], config: &CampaignConfig, target: &str) -> String {
    let mut text = errors.join("; ");
    if errors.iter().any(|error| error.contains("; clean-up: ")) {
        text.push_str(&format!(
            "; `streamspec clean --target {target} --prefix {}` removes what the runs left",
            config.names_prefix()
        ));
    }
    let Some(hint) = crate::runner::short_timeout_hint(config.io_timeout) else {
        return text;
    };
    let hint = format!("; {hint}");
    if text.contains(&hint) {
        text.replace(&hint, "") + &hint
    } else {
        text
    }
}

/// The campaign as a report of `check`'s kind: an entry per `always` and `eventually` property,
/// one for runs that could not be carried out (an error, never blamed on a property), and the
/// count of each `sometimes` property, with a warning for each that no run reached.
pub fn report(
    config: &CampaignConfig,
    target: &str,
    result: &CampaignResult,
    trace_file: Option<&str>,
) -> Report {
    report_with_flags(config, target, "", result, trace_file)
}

/// Whether `streamspec` on the command line can reach `target`: `embedded`, or a HOST:PORT. Any
/// other name is a library user's own connector, run in process, which no command reaches.
fn reachable_from_the_command_line(target: &str) -> bool {
    target == "embedded" || target.contains(':')
}

/// How run `run`, found against a connector of one's own, is run again: no command line reaches
/// it.
fn in_process_run_again(run: u64) -> String {
    format!(
        "run again in process: streamspec::fuzzing::check_run(&connector, &finding.input) with this CampaignResult's finding (its input shrunk), or this CampaignConfig with runs: RunRange {{ first: {run}, count: Some(1) }}"
    )
}

/// As [`report`], for a target that needs `flags` besides `--target` to be run again
/// ([`Connect::flags`], e.g. ` --differential`): the replay command carries them.
pub fn report_with_flags(
    config: &CampaignConfig,
    target: &str,
    flags: &str,
    result: &CampaignResult,
    trace_file: Option<&str>,
) -> Report {
    let duration_ms = result.elapsed.as_millis() as u64;
    let mut outcomes = Vec::new();
    if !result.setup_errors.is_empty() {
        outcomes.push(Outcome {
            scenario: "run set-up".to_owned(),
            title: "every run can be set up and carried out (topics, group configs)".to_owned(),
            rules: vec!["set-up".to_owned()],
            grade: Grade::Must,
            source: "fuzz".to_owned(),
            verdict: Verdict::Error,
            reason: Some(setup_errors_text(&result.setup_errors, config, target)),
            step: None,
            wire: None,
            cleanup: None,
            mismatch: None,
            exchanges: Vec::new(),
            duration_ms,
            stale_divergence: false,
        });
    }
    outcomes.extend(oracle::invariants().map(|property| {
        let violated = result
            .finding
            .as_ref()
            .filter(|finding| finding.violation.property == property);
        let (verdict, reason) = if let Some(finding) = violated {
            let again = if reachable_from_the_command_line(target) {
                let replay = trace_file.map_or(String::new(), |file| {
                    format!("; replay: {}", replay_command(file, target, flags))
                });
                format!(
                    "run again: {}{replay}",
                    config.run_command(target, flags, finding.run)
                )
            } else {
                in_process_run_again(finding.run)
            };
            (
                Verdict::Fail,
                Some(format!(
                    "run {} (its seed {:#x}, from root seed {}; shrunk from {} to {} operations): {}; {again}",
                    finding.run,
                    config.run_seed(finding.run),
                    config.seed,
                    finding.drawn_operations,
                    finding.input.operations.len(),
                    finding.violation,
                )),
            )
        } else if let Some((run, issue)) = result
            .first_known_issue
            .filter(|(_, issue)| issue.property == property)
        {
            (
                Verdict::Divergent,
                Some(format!(
                    "{} runs met the known issue {} (first: run {run}): {}; evidence: {}",
                    result.known_issues, issue.id, issue.reason, issue.evidence
                )),
            )
        } else if let Some((totals, first)) = result
            .comparison
            .as_ref()
            .and_then(|totals| Some((totals, totals.first_known()?)))
            .filter(|_| property == &oracle::ANSWERS_EQUAL)
        {
            let (run, recorded) = (first.first_run, &first.divergence);
            // Several kinds met: how many runs each and the first of them, so that no run is
            // told as another's.
            let by_divergence = match totals.known_by_divergence.as_slice() {
                [] | [_] => String::new(),
                several => format!(
                    "; by divergence: {}",
                    several
                        .iter()
                        .map(|met| format!(
                            "{} {} (rules {}; first: run {})",
                            met.runs,
                            met.divergence.field.as_deref().unwrap_or_default(),
                            met.divergence.rules.join(", "),
                            met.first_run
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            (
                Verdict::Divergent,
                Some(format!(
                    "{} runs met the divergence{} recorded in {} for {} (rules {}; first: run {run}{by_divergence}): {}; evidence: {}",
                    totals.known,
                    if totals.known_by_divergence.len() > 1 { "s" } else { "" },
                    recorded.source,
                    recorded.field.as_deref().unwrap_or_default(),
                    recorded.rules.join(", "),
                    recorded.reason,
                    recorded.evidence
                )),
            )
        } else if result.runs == 0 {
            (Verdict::Skip, Some("no run finished".to_owned()))
        } else if property == &oracle::ANSWERS_EQUAL && result.comparison.is_none() {
            (
                Verdict::Skip,
                Some("not asked for (--differential)".to_owned()),
            )
        } else if property == &oracle::DETERMINISTIC && !config.check_determinism {
            (
                Verdict::Skip,
                Some("not asked for (--check-determinism)".to_owned()),
            )
        } else {
            (Verdict::Pass, None)
        };
        Outcome {
            scenario: property.label(),
            title: format!("{property} ({})", property.rules),
            rules: vec![property.label()],
            grade: Grade::Must,
            source: "fuzz".to_owned(),
            verdict,
            reason,
            step: None,
            wire: violated.map(|finding| finding.slice.clone()),
            cleanup: None,
            mismatch: None,
            exchanges: Vec::new(),
            duration_ms,
            stale_divergence: false,
        }
    }));
    let mut report = Report::new(
        "fuzz",
        target.to_owned(),
        config.run_id.clone(),
        false,
        outcomes,
    );
    report.elapsed_ms = Some(duration_ms);
    report.campaign = Some(CampaignSummary::of(config, result));
    if result.runs == 0 {
        report.nothing_checked = Some("no run finished".to_owned());
    }
    report.timeline = result
        .finding
        .as_ref()
        .map_or_else(Vec::new, |finding| finding.timeline.clone());
    report.sometimes = result
        .coverage
        .counts()
        .map(|(property, count)| SometimesCount {
            property: property.label(),
            rules: property.rules.to_owned(),
            count,
            reached: count > 0,
        })
        .collect();
    // Unreached properties say something only when runs finished; they point at the generator
    // (or at what the target cannot do), not at a defect, so they warn and do not fail the run.
    if result.runs > 0 {
        report.warnings.extend(
            report
                .sometimes
                .iter()
                .filter(|sometimes| !sometimes.reached)
                .map(|sometimes| {
                    format!(
                        "\"{}\" was never reached in {} runs: the generator may be too weak there (this does not fail the run)",
                        sometimes.property, result.runs
                    )
                }),
        );
    }
    report
        .warnings
        .extend(result.cleanup_errors.iter().cloned());
    report.stopped_early = result.stopped_early.clone();
    report.interrupted = config.interrupt.is_raised();
    report
}

#[cfg(test)]
mod tests;
