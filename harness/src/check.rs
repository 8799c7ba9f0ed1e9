//! The rule catalogue against a target, as a library call: every scenario on a fresh backend of
//! its own, several at once, graded, divergences applied, one [`Report`].

use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::backend::{self, Connect};
use crate::interrupt::Interrupt;
use crate::report::Report;
use crate::runner::{apply_divergences, run_scenario, Divergence, RunSettings, Verdict};
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

/// Runs `options.scenarios` against fresh backends of `connector`; see [`crate::check()`].
pub fn run<C: Connect + 'static>(connector: C, options: CheckOptions) -> Report {
    backend::block_on_local(run_local(connector, options))
}

async fn run_local<C: Connect + 'static>(connector: C, options: CheckOptions) -> Report {
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
    report.interrupted = options.interrupt.is_raised();
    report.target_lost = settings.breaker.tripped(&target);
    report
}
