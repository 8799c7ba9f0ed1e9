//! Reports of a run: a line per rule for people, JUnit XML for CI systems, JSON for tools. Every
//! one of them, and the exit code, takes the run's standing from [`Report::verdict`].

use std::collections::BTreeMap;

use serde::Serialize;

use crate::runner::{Outcome, Verdict};
use crate::scenario::Grade;
use crate::simulation::history::TimelineEntry;

mod console;
pub(crate) use console::plural;
mod html;
mod json;
mod junit;
#[cfg(test)]
mod tests;

/// The result of a whole run of `check` or `fuzz`.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The subcommand that ran: `check` or `fuzz`.
    pub command: String,
    pub target: String,
    pub run_id: String,
    pub strict: bool,
    pub outcomes: Vec<Outcome>,
    /// A campaign's `sometimes` properties and how often its runs reached each.
    pub sometimes: Vec<SometimesCount>,
    /// Every exchange of a campaign's shrunk failing run, oldest first (empty without one).
    pub timeline: Vec<TimelineEntry>,
    /// Why a campaign ended before its duration was up, when it did.
    pub stopped_early: Option<String>,
    /// What a reader should know that is no verdict: a `sometimes` property never reached, a
    /// failed clean-up.
    pub warnings: Vec<String>,
    /// The run was cut short (Ctrl-C): what did not finish reads as skipped, and the run as
    /// [`RunVerdict::Interrupted`].
    pub interrupted: bool,
    /// The target stopped answering and the run stopped starting scenarios (the circuit
    /// breaker's line): the run reads as [`RunVerdict::TargetLost`].
    pub target_lost: Option<String>,
    /// Why nothing was checked, where the command knows better than "every one was skipped"
    /// (a proxy no traffic passed, a campaign that finished no run).
    #[serde(skip)]
    pub nothing_checked: Option<String>,
    /// How long the whole run took, when it is known: its scenarios run side by side, so their
    /// times add up to more.
    #[serde(skip)]
    pub elapsed_ms: Option<u64>,
    /// A campaign's seed and totals.
    pub campaign: Option<crate::campaign::CampaignSummary>,
}

/// How often a campaign's runs reached one `sometimes` property. One never reached is a warning,
/// never a failure: it shows a gap of the generator (or of what the target can do), not a defect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SometimesCount {
    /// As reports name it: `sometimes: a task is revoked`.
    pub property: String,
    pub rules: String,
    /// Exchanges that witnessed it.
    pub count: u64,
    pub reached: bool,
}

/// What a run as a whole comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunVerdict {
    Passed,
    /// Some outcome counts against the run (see [`counts_against_run`]).
    Failed,
    /// No scenario ran: none was selected, or every one was skipped. Not a pass: nothing was
    /// shown to work.
    NothingChecked,
    /// The run was interrupted before it finished (Ctrl-C): whatever ran, the run as a whole was
    /// not judged.
    Interrupted,
    /// The target stopped answering part way: the run could not be carried out, as when it
    /// cannot be reached at all.
    TargetLost,
}

impl RunVerdict {
    /// The process exit code: 0 passed, 1 failed, 2 nothing checked (as for usage errors), 130
    /// interrupted (as shells report a process ended by SIGINT).
    pub fn exit_code(self) -> u8 {
        match self {
            RunVerdict::Passed => 0,
            RunVerdict::Failed => 1,
            RunVerdict::NothingChecked => 2,
            RunVerdict::Interrupted => 130,
            RunVerdict::TargetLost => 2,
        }
    }
}

/// Whether `outcome` fails the run. A failure counts by its grade (SHOULD only under `strict`);
/// an error or a timeout counts whatever the grade, because then the target could not be judged
/// at all, and a grade says how much a judgement weighs, not whether one may be missing. An unmet
/// precondition does not count: the scenario's rules were never reached, and what the set-up
/// step is about has scenarios of its own (the first join's answer is R25's), which fail the
/// run where that behaviour is wrong. A recorded divergence that no longer fires counts whatever
/// the grade: the record, not the target, is wrong.
pub fn counts_against_run(outcome: &Outcome, strict: bool) -> bool {
    if outcome.stale_divergence {
        return true;
    }
    match outcome.verdict {
        Verdict::Error | Verdict::Timeout => true,
        Verdict::Fail => match outcome.grade {
            Grade::Must => true,
            Grade::Should => strict,
            Grade::Informational => false,
        },
        Verdict::Pass | Verdict::Skip | Verdict::Divergent | Verdict::PreconditionNotMet => false,
    }
}

/// A rule's standing, decided by its scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleVerdict {
    Pass,
    Fail,
    Timeout,
    Error,
    Divergent,
    /// Every scenario of the rule was skipped or stopped at an unmet precondition: the rule was
    /// not checked, which is no pass.
    NotChecked,
}

impl RuleVerdict {
    fn of(verdict: Verdict) -> RuleVerdict {
        match verdict {
            Verdict::Pass => RuleVerdict::Pass,
            Verdict::Fail => RuleVerdict::Fail,
            Verdict::Timeout => RuleVerdict::Timeout,
            Verdict::Error => RuleVerdict::Error,
            Verdict::Divergent => RuleVerdict::Divergent,
            Verdict::Skip | Verdict::PreconditionNotMet => RuleVerdict::NotChecked,
        }
    }

    /// Whether the line reads as a failure (`fail`, `timeout`, `error`), whatever its grade.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            RuleVerdict::Fail | RuleVerdict::Error | RuleVerdict::Timeout
        )
    }

    pub fn label(self) -> &'static str {
        match self {
            RuleVerdict::Pass => "pass",
            RuleVerdict::Fail => "fail",
            RuleVerdict::Timeout => "timeout",
            RuleVerdict::Error => "error",
            RuleVerdict::Divergent => "divergent",
            RuleVerdict::NotChecked => "not checked",
        }
    }
}

/// One rule's standing: the verdict and grade of the scenario that decides it (the failing one,
/// when one fails), so a rule never reads `fail MUST` because a SHOULD scenario failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleLine {
    pub rule: String,
    pub verdict: RuleVerdict,
    pub grade: Grade,
    /// Whether the rule fails the run.
    pub fails_run: bool,
    /// The scenario that decides the verdict.
    pub decided_by: String,
    pub scenarios: usize,
    pub skipped: usize,
    /// Scenarios that stopped at an unmet precondition, before reaching the rule.
    pub preconditions_not_met: usize,
}

/// How much of a run the console shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Only failures and the summary.
    Quiet,
    /// A line per rule, skip reasons, failures with their reasons, the summary.
    Normal,
    /// Also a line per scenario with its title, and each failure's wire exchange.
    Verbose,
}

/// The console a human report is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Console {
    pub detail: Detail,
    /// Rule and skip lines are cut to this many columns.
    pub width: usize,
}

impl Default for Console {
    fn default() -> Self {
        Console {
            detail: Detail::Normal,
            width: 80,
        }
    }
}

fn severity(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Skip => 0,
        // Above a skip: it ran, and what stopped it says more about the target.
        Verdict::PreconditionNotMet => 1,
        Verdict::Pass => 2,
        Verdict::Divergent => 3,
        Verdict::Fail => 4,
        Verdict::Timeout => 5,
        Verdict::Error => 6,
    }
}

/// Why a failure of `grade` does not fail the run (errors and timeouts always do).
fn not_counted_because(grade: Grade) -> &'static str {
    match grade {
        Grade::Must => "MUST failures always fail the run",
        Grade::Should => "SHOULD failures fail the run only under --strict",
        Grade::Informational => "INFORMATIONAL failures never fail the run",
    }
}

impl Report {
    /// A report of `command` with no campaign parts.
    pub fn new(
        command: &str,
        target: String,
        run_id: String,
        strict: bool,
        outcomes: Vec<Outcome>,
    ) -> Report {
        Report {
            command: command.to_owned(),
            target,
            run_id,
            strict,
            outcomes,
            sometimes: Vec::new(),
            timeline: Vec::new(),
            stopped_early: None,
            warnings: Vec::new(),
            interrupted: false,
            target_lost: None,
            nothing_checked: None,
            elapsed_ms: None,
            campaign: None,
        }
    }

    /// Scenarios an interrupted run did not finish (their reason starts with
    /// [`crate::runner::NOT_RUN`]).
    pub fn not_run(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| {
                outcome
                    .reason
                    .as_deref()
                    .is_some_and(|reason| reason.starts_with(crate::runner::NOT_RUN))
            })
            .count()
    }

    /// Scenarios whose clean-up left something on the target.
    pub fn cleanup_failures(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.cleanup.is_some())
            .count()
    }

    /// Whether `outcome` fails this run (see [`counts_against_run`]).
    pub fn fails_run(&self, outcome: &Outcome) -> bool {
        counts_against_run(outcome, self.strict)
    }

    /// The one decision on the run, which the console summary, the reports and the exit code
    /// all state. A run can pass with some scenarios stopped at unmet preconditions (their
    /// rules read "not checked", as for skips), since the behaviour a precondition assumes is
    /// judged by scenarios of its own; but not when no scenario got past its skips and
    /// preconditions, as then nothing was shown to work.
    pub fn verdict(&self) -> RunVerdict {
        if self.interrupted {
            RunVerdict::Interrupted
        } else if self.target_lost.is_some() {
            RunVerdict::TargetLost
        } else if self.outcomes.iter().any(|outcome| self.fails_run(outcome)) {
            RunVerdict::Failed
        } else if self
            .outcomes
            .iter()
            .all(|outcome| matches!(outcome.verdict, Verdict::Skip | Verdict::PreconditionNotMet))
        {
            RunVerdict::NothingChecked
        } else {
            RunVerdict::Passed
        }
    }

    /// A line per rule, in rule order.
    pub fn rules(&self) -> Vec<RuleLine> {
        let mut by_rule: BTreeMap<(u32, &str), Vec<&Outcome>> = BTreeMap::new();
        for outcome in &self.outcomes {
            for rule in &outcome.rules {
                by_rule
                    .entry(crate::scenario::rule_order(rule))
                    .or_default()
                    .push(outcome);
            }
        }
        by_rule
            .into_iter()
            .map(|((_, rule), outcomes)| {
                // What fails the run first, then the worst verdict, then the strongest grade.
                let deciding = outcomes
                    .iter()
                    .max_by_key(|outcome| {
                        (
                            self.fails_run(outcome),
                            severity(outcome.verdict),
                            std::cmp::Reverse(outcome.grade),
                        )
                    })
                    .expect("a rule has a scenario");
                RuleLine {
                    rule: rule.to_owned(),
                    verdict: RuleVerdict::of(deciding.verdict),
                    grade: deciding.grade,
                    fails_run: self.fails_run(deciding),
                    decided_by: deciding.scenario.clone(),
                    scenarios: outcomes.len(),
                    skipped: outcomes
                        .iter()
                        .filter(|outcome| outcome.verdict == Verdict::Skip)
                        .count(),
                    preconditions_not_met: outcomes
                        .iter()
                        .filter(|outcome| outcome.verdict == Verdict::PreconditionNotMet)
                        .count(),
                }
            })
            .collect()
    }

    fn count(&self, verdict: Verdict) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.verdict == verdict)
            .count()
    }
}
