//! The rule catalogue against a target, as a library call: every scenario on a fresh backend of
//! its own, several at once, graded, divergences applied, one [`Report`].

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::backend::{self, Connect};
use crate::interrupt::Interrupt;
use crate::report::Report;
use crate::runner::{
    apply_divergences, load_divergences, run_scenario, Divergence, RunSettings, Verdict,
};
use crate::scenario::{self, Profile, Scenario};

/// How `check` runs; [`Default`] is `streamspec check`'s: the whole catalogue and our recorded
/// divergences, under Kafka 4.4's behaviour.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub scenarios: Vec<Scenario>,
    /// Known, accepted differences: their scenarios are reported as divergent, not failed.
    pub divergences: Vec<Divergence>,
    /// SHOULD failures fail the run too.
    pub strict: bool,
    /// Whose behaviour to expect where Kafka releases differ.
    pub profile: Profile,
    /// Scenarios run at once (each has its own group and topics).
    pub jobs: u16,
    /// Bound on waiting for the coordinator to see topics, and on an interrupted scenario's
    /// clean-up.
    pub io_timeout: Duration,
    /// Makes group and topic names unique; `None` for [`default_run_id`].
    pub run_id: Option<String>,
    /// Keeps every exchange of every scenario on its outcome.
    pub record_exchanges: bool,
    /// Raised (Ctrl-C), no further scenario starts and those running stop and clean up.
    pub interrupt: Interrupt,
    /// Counters a progress display reads while the run goes on.
    pub progress: Arc<CheckProgress>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            scenarios: scenario::catalogue(),
            divergences: crate::runner::divergences(),
            strict: false,
            profile: Profile::Kafka44,
            jobs: 8,
            io_timeout: Duration::from_secs(15),
            run_id: None,
            record_exchanges: false,
            interrupt: Interrupt::default(),
            progress: Arc::default(),
        }
    }
}

/// How far a `check` has got.
#[derive(Debug, Default)]
pub struct CheckProgress {
    pub done: AtomicUsize,
    /// Scenarios that failed, timed out or ended in an error so far.
    pub failed: AtomicUsize,
}

/// Where backends are fresh coordinators of their own, names need no uniqueness and a run stays
/// reproducible; on a shared broker they must not meet earlier runs' names.
pub fn default_run_id<C: Connect>(connector: &C) -> String {
    if !connector.shares_state() {
        return "embedded".to_owned();
    }
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis())
        .unwrap_or_default();
    format!("{millis:x}")
}

/// Where a run's scenarios come from: the built-in catalogue and the user's files, narrowed by
/// rule (`check`, `doctor` and `list` take the same flags for it).
#[derive(Debug, Clone, Default)]
pub struct ScenarioSource {
    /// Scenario files, or folders of them.
    pub paths: Vec<PathBuf>,
    /// Only the scenarios of `paths`, not the built-in catalogue.
    pub only_paths: bool,
    /// Rule ids (R25) or patterns (R2*), or scenario name patterns; empty for all.
    pub rules: Vec<String>,
}

/// The scenarios of a run, and those `rules` leaves out (which the user's divergences may name).
#[derive(Debug)]
pub struct Selection {
    pub scenarios: Vec<Scenario>,
    pub left_out: Vec<Scenario>,
}

/// Loads and selects the scenarios of `source`. A file of the user's named like a built-in
/// scenario replaces it, in its place, and `note` is told so.
pub fn select(source: &ScenarioSource, mut note: impl FnMut(&str)) -> Result<Selection, String> {
    let mut scenarios = if source.only_paths {
        Vec::new()
    } else {
        scenario::catalogue()
    };
    let mut own = Vec::new();
    for path in &source.paths {
        if !path.exists() {
            return Err(format!("{}: no such file or folder", path.display()));
        }
        own.extend(scenario::load_path(path).map_err(|error| error.to_string())?);
    }
    scenario::check_unique_names(&own).map_err(|error| error.to_string())?;
    for scenario in own {
        match scenarios
            .iter_mut()
            .find(|built_in| built_in.name == scenario.name)
        {
            Some(built_in) => {
                note(&format!(
                    "note: {} replaces the built-in scenario {} ({})",
                    scenario.source, built_in.name, built_in.source
                ));
                *built_in = scenario;
            }
            None => scenarios.push(scenario),
        }
    }
    let mut left_out = Vec::new();
    if !source.rules.is_empty() {
        let selected = |scenario: &Scenario| {
            source.rules.iter().any(|pattern| {
                glob_matches(pattern, &scenario.name)
                    || scenario
                        .rules
                        .iter()
                        .any(|rule| glob_matches(pattern, rule))
            })
        };
        (scenarios, left_out) = scenarios.into_iter().partition(selected);
        if scenarios.is_empty() {
            return Err(format!(
                "no scenario matches --rules {}",
                source.rules.join(" ")
            ));
        }
    }
    Ok(Selection {
        scenarios,
        left_out,
    })
}

impl Selection {
    /// Our recorded divergences and those of `files`. A file's divergence must name a scenario,
    /// selected or not, so that one file serves runs of a few rules too.
    pub fn divergences(&self, files: &[PathBuf]) -> Result<Vec<Divergence>, String> {
        let ours = crate::runner::divergences();
        let mut divergences = ours.clone();
        let find = |name: &str| {
            self.scenarios
                .iter()
                .chain(&self.left_out)
                .find(|s| s.name == name)
        };
        for file in files {
            let mut theirs = load_divergences(file)?;
            // As a differential run refuses a file with nothing it waives.
            if !theirs.is_empty() && theirs.iter().all(|d| d.field.is_some()) {
                return Err(format!(
                    "{}: no divergence of a scenario (an entry with a `scenario`) to waive in check; its {}, which only a differential run (fuzz --differential) waives",
                    file.display(),
                    match theirs.len() {
                        1 => "one entry names a field of answers".to_owned(),
                        count => format!("{count} entries name fields of answers"),
                    }
                ));
            }
            // An entry of ours copied into the file (a copy of harness/divergences.json among
            // them) says nothing new.
            theirs.retain(|theirs| {
                !ours.iter().any(|ours| {
                    Divergence {
                        source: ours.source.clone(),
                        ..theirs.clone()
                    } == *ours
                })
            });
            for divergence in theirs.iter().filter(|d| d.field.is_none()) {
                let Some(scenario) = find(&divergence.scenario) else {
                    return Err(format!(
                        "{}: a divergence names {:?}, which is no scenario",
                        file.display(),
                        divergence.scenario
                    ));
                };
                // The rules say what the failure breaks in the reports: they must be the
                // scenario's, or the file misreads what it waives.
                let sorted = |rules: &[String]| {
                    let mut rules = rules.to_vec();
                    rules.sort();
                    rules.dedup();
                    rules
                };
                if sorted(&divergence.rules) != sorted(&scenario.rules) {
                    return Err(format!(
                        "{}: the divergence of scenario {} names rules [{}], but the scenario checks [{}]; give it the scenario's rules",
                        file.display(),
                        scenario.name,
                        divergence.rules.join(", "),
                        scenario.rules.join(", ")
                    ));
                }
            }
            // Two entries for one scenario and target would let one stand in for the other,
            // so a stale entry would no longer fail the run.
            for divergence in theirs.iter().filter(|d| d.field.is_none()) {
                if let Some(twin) = divergences.iter().chain(&theirs).find(|other| {
                    other.field.is_none()
                        && !std::ptr::eq(*other, divergence)
                        && other.scenario == divergence.scenario
                        && other.names_the_target_of(divergence)
                        && other.condition == divergence.condition
                }) {
                    return Err(format!(
                        "{}: scenario {} has two divergences for the same target (the other in {}); keep one",
                        file.display(),
                        divergence.scenario,
                        twin.source
                    ));
                }
            }
            divergences.extend(theirs);
        }
        Ok(divergences)
    }
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

/// Runs `options.scenarios` against fresh backends of `connector`; see [`crate::check()`].
pub fn run<C: Connect + 'static>(connector: C, options: CheckOptions) -> Report {
    backend::block_on_local(run_local(connector, options))
}

async fn run_local<C: Connect + 'static>(connector: C, options: CheckOptions) -> Report {
    let started = std::time::Instant::now();
    let target = connector.name();
    let run_id = options
        .run_id
        .clone()
        .unwrap_or_else(|| default_run_id(&connector));
    let settings = Rc::new(RunSettings {
        target: target.clone(),
        run_id: run_id.clone(),
        io_timeout: options.io_timeout,
        profile: options.profile,
        breaker: Default::default(),
        record_exchanges: options.record_exchanges,
    });
    let connector = Rc::new(connector);
    let semaphore = Rc::new(tokio::sync::Semaphore::new(usize::from(
        options.jobs.max(1),
    )));
    // A scenario that changes the whole cluster (an ACL on it) runs while no other does.
    let cluster = Rc::new(tokio::sync::RwLock::new(()));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, scenario) in options.scenarios.into_iter().enumerate() {
        let settings = Rc::clone(&settings);
        let connector = Rc::clone(&connector);
        let semaphore = Rc::clone(&semaphore);
        let cluster = Rc::clone(&cluster);
        let interrupt = options.interrupt.clone();
        tasks.spawn_local(async move {
            let _permit = semaphore.acquire().await.expect("the semaphore stays open");
            // Interrupted scenarios give their turn back within the I/O timeout, so these waits
            // end; a scenario whose turn comes after Ctrl-C does not start.
            let outcome = if scenario.changes_the_cluster() {
                let _alone = cluster.write().await;
                run_scenario(&scenario, &settings, &*connector, &interrupt).await
            } else {
                let _shared = cluster.read().await;
                run_scenario(&scenario, &settings, &*connector, &interrupt).await
            };
            (index, outcome)
        });
    }
    let mut outcomes = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        let (index, outcome) = joined.unwrap_or_else(|error| {
            std::panic::resume_unwind(error.try_into_panic().expect("no task is cancelled"))
        });
        if matches!(
            outcome.verdict,
            Verdict::Fail | Verdict::Error | Verdict::Timeout
        ) {
            options.progress.failed.fetch_add(1, Ordering::Relaxed);
        }
        options.progress.done.fetch_add(1, Ordering::Relaxed);
        outcomes.push((index, outcome));
    }
    outcomes.sort_by_key(|(index, _)| *index);
    let mut outcomes: Vec<_> = outcomes.into_iter().map(|(_, outcome)| outcome).collect();
    apply_divergences(&mut outcomes, &target, &options.divergences);
    let mut report = Report::new("check", target.clone(), run_id, options.strict, outcomes);
    report.warnings = crate::runner::divergences_for_other_targets(&options.divergences, &target);
    report.interrupted = options.interrupt.is_raised();
    report.target_lost = settings.breaker.tripped(&target, options.io_timeout);
    report.elapsed_ms = Some(started.elapsed().as_millis() as u64);
    report
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
