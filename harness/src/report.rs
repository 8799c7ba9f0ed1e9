//! Reports of a run: a line per rule for people, JUnit XML for CI systems, JSON for tools. Every
//! one of them, and the exit code, takes the run's standing from [`Report::verdict`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::runner::{Outcome, Verdict};
use crate::scenario::Grade;

/// The result of a whole run of `check` or `fuzz`.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The subcommand that ran: `check` or `fuzz`.
    pub command: String,
    pub target: String,
    pub run_id: String,
    pub strict: bool,
    pub outcomes: Vec<Outcome>,
    /// A campaign's `sometimes` properties and how often its runs reached each.
    pub sometimes: Vec<SometimesCount>,
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
/// run where that behaviour is wrong.
pub fn counts_against_run(outcome: &Outcome, strict: bool) -> bool {
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

fn is_failure(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Fail | Verdict::Error | Verdict::Timeout)
}

fn rule_number(rule: &str) -> u32 {
    rule.trim_start_matches('R').parse().unwrap_or(u32::MAX)
}

/// `text` cut to `width` characters, the cut marked with `...`.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let kept: String = text.chars().take(width.saturating_sub(3)).collect();
    format!("{}...", kept.trim_end())
}

/// Words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

fn first_line(text: Option<&str>) -> &str {
    text.and_then(|text| text.lines().next())
        .unwrap_or_default()
}

fn plural(count: usize, one: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {one}s")
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
            stopped_early: None,
            warnings: Vec::new(),
            interrupted: false,
            target_lost: None,
        }
    }

    /// The skipped scenarios grouped by reason, as the console shows them.
    pub fn skips(&self, console: Console) -> String {
        let mut out = String::new();
        self.write_grouped(&mut out, console, Verdict::Skip, "skipped");
        out
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
                    .entry((rule_number(rule), rule))
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

    /// How many scenarios ended with each verdict, by the verdict's JSON name.
    fn counts(&self) -> BTreeMap<String, usize> {
        [
            Verdict::Pass,
            Verdict::Fail,
            Verdict::Error,
            Verdict::Timeout,
            Verdict::Skip,
            Verdict::PreconditionNotMet,
            Verdict::Divergent,
        ]
        .into_iter()
        .map(|verdict| {
            let name = serde_json::to_value(verdict).expect("verdicts serialize");
            (
                name.as_str().unwrap_or_default().to_owned(),
                self.count(verdict),
            )
        })
        .collect()
    }

    fn count(&self, verdict: Verdict) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.verdict == verdict)
            .count()
    }

    fn outcome(&self, scenario: &str) -> Option<&Outcome> {
        self.outcomes
            .iter()
            .find(|outcome| outcome.scenario == scenario)
    }

    /// What the rule line says after its verdict and grade.
    fn rule_detail(&self, line: &RuleLine) -> String {
        let deciding = self.outcome(&line.decided_by);
        let reason = first_line(deciding.and_then(|outcome| outcome.reason.as_deref()));
        match line.verdict {
            RuleVerdict::Pass if line.skipped + line.preconditions_not_met > 0 => {
                let mut parts = vec![format!(
                    "{} passed",
                    line.scenarios - line.skipped - line.preconditions_not_met
                )];
                if line.skipped > 0 {
                    parts.push(format!("{} skipped", line.skipped));
                }
                if line.preconditions_not_met > 0 {
                    parts.push(format!(
                        "{} precondition not met",
                        line.preconditions_not_met
                    ));
                }
                parts.join(", ")
            }
            // A campaign's invariant is its own single entry: nothing to add.
            RuleVerdict::Pass if line.decided_by == line.rule => String::new(),
            RuleVerdict::Pass => plural(line.scenarios, "scenario"),
            // The reason starts "precondition not met at step N"; the scenario says where.
            RuleVerdict::NotChecked if line.preconditions_not_met > 0 => {
                format!("{}: {reason}", line.decided_by)
            }
            RuleVerdict::NotChecked => format!("skipped: {reason}"),
            _ => format!("{}: {reason}", line.decided_by),
        }
    }

    /// The summary's last words: the run's verdict, said plainly.
    fn verdict_text(&self) -> String {
        let not_counted = self
            .outcomes
            .iter()
            .filter(|outcome| is_failure(outcome.verdict) && !self.fails_run(outcome))
            .count();
        match self.verdict() {
            RunVerdict::Passed if not_counted > 0 => format!(
                "PASSED ({} that do not fail the run: {})",
                plural(not_counted, "failure"),
                if self.strict {
                    "INFORMATIONAL"
                } else {
                    "SHOULD without --strict, INFORMATIONAL"
                }
            ),
            RunVerdict::Passed => "PASSED".to_owned(),
            RunVerdict::Failed => format!(
                "FAILED ({} fail the run)",
                self.outcomes
                    .iter()
                    .filter(|outcome| self.fails_run(outcome))
                    .count()
            ),
            RunVerdict::NothingChecked if self.count(Verdict::PreconditionNotMet) > 0 => {
                "NOTHING CHECKED: every scenario was skipped or stopped at an unmet precondition"
                    .to_owned()
            }
            RunVerdict::NothingChecked => "NOTHING CHECKED: every scenario was skipped".to_owned(),
            RunVerdict::Interrupted => "INTERRUPTED: the run did not finish".to_owned(),
            RunVerdict::TargetLost => format!(
                "TARGET LOST: {}",
                self.target_lost.as_deref().unwrap_or_default()
            ),
        }
    }

    /// The report for people: a line per rule, skip reasons, failures, then a summary.
    pub fn human(&self, console: Console) -> String {
        let mut out = String::new();
        if self.outcomes.is_empty() {
            out.push_str("NOTHING CHECKED: no scenario was selected\n");
            return out;
        }
        let quiet = console.detail == Detail::Quiet;
        let verbose = console.detail == Detail::Verbose;
        let rules = self.rules();
        // Rule ids are short (R25); a campaign's rules are its invariants' names.
        let rule_width = rules
            .iter()
            .map(|line| line.rule.len())
            .max()
            .unwrap_or(0)
            .max(5);
        for line in &rules {
            let failing = matches!(
                line.verdict,
                RuleVerdict::Fail | RuleVerdict::Error | RuleVerdict::Timeout
            );
            if quiet && !failing {
                continue;
            }
            let text = format!(
                "{:<rule_width$} {:<11} {:<13} {}",
                line.rule,
                line.verdict.label(),
                line.grade.to_string(),
                self.rule_detail(line)
            );
            writeln!(out, "{}", cut(text.trim_end(), console.width)).unwrap();
            if verbose {
                for outcome in self
                    .outcomes
                    .iter()
                    .filter(|o| o.rules.contains(&line.rule))
                {
                    writeln!(
                        out,
                        "      {:<9} {:<13} {} {}",
                        outcome.verdict.label(),
                        outcome.grade.to_string(),
                        outcome.scenario,
                        outcome.title
                    )
                    .unwrap();
                    for exchange in &outcome.exchanges {
                        for text in exchange.lines() {
                            writeln!(out, "{}", format!("        {text}").trim_end()).unwrap();
                        }
                    }
                }
            }
        }
        if !quiet {
            self.write_grouped(&mut out, console, Verdict::Skip, "skipped");
            self.write_grouped(
                &mut out,
                console,
                Verdict::PreconditionNotMet,
                "unmet precondition in",
            );
            for outcome in self
                .outcomes
                .iter()
                .filter(|o| o.verdict == Verdict::Divergent)
            {
                writeln!(
                    out,
                    "\nDIVERGENT {} ({}): {}",
                    outcome.scenario,
                    outcome.rules.join(", "),
                    outcome.reason.as_deref().unwrap_or_default()
                )
                .unwrap();
            }
        }
        for outcome in self.outcomes.iter().filter(|o| is_failure(o.verdict)) {
            self.write_failure(&mut out, outcome, verbose);
        }
        self.write_campaign(&mut out, console);
        let failing_rules = rules.iter().filter(|line| line.fails_run).count();
        let not_checked = rules
            .iter()
            .filter(|line| line.verdict == RuleVerdict::NotChecked)
            .count();
        if self.command == "fuzz" {
            // A campaign's lines are its invariants (and its run set-up), each one outcome.
            writeln!(
                out,
                "\n{} invariants ({failing_rules} failing, {not_checked} not checked): {} passed, {} violated, {} errors, {} known divergences; {}",
                rules.len(),
                self.count(Verdict::Pass),
                self.count(Verdict::Fail),
                self.count(Verdict::Error),
                self.count(Verdict::Divergent),
                self.verdict_text()
            )
            .unwrap();
            return out;
        }
        writeln!(
            out,
            "\n{} rules ({failing_rules} failing, {not_checked} not checked) in {} scenarios: {} passed, {} failed, {} errors, {} timed out, {} skipped, {} preconditions not met, {} known divergences; {}",
            rules.len(),
            self.outcomes.len(),
            self.count(Verdict::Pass),
            self.count(Verdict::Fail),
            self.count(Verdict::Error),
            self.count(Verdict::Timeout),
            self.count(Verdict::Skip),
            self.count(Verdict::PreconditionNotMet),
            self.count(Verdict::Divergent),
            self.verdict_text()
        )
        .unwrap();
        out
    }

    /// Scenarios of `verdict` (skipped, or stopped at a precondition) grouped by reason: a line
    /// `{heading} N scenarios (names):` (cut to the width unless verbose), then the reason whole,
    /// wrapped, since it says what the target lacks or answered instead.
    fn write_grouped(&self, out: &mut String, console: Console, verdict: Verdict, heading: &str) {
        let mut by_reason: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for outcome in self.outcomes.iter().filter(|o| o.verdict == verdict) {
            by_reason
                .entry(outcome.reason.as_deref().unwrap_or("no reason given"))
                .or_default()
                .push(&outcome.scenario);
        }
        for (reason, names) in by_reason {
            let head = format!("\n{heading} {} (", plural(names.len(), "scenario"));
            let full = format!("{head}{}):", names.join(", "));
            if console.detail == Detail::Verbose || full.chars().count() <= console.width + 1 {
                writeln!(out, "{full}").unwrap();
            } else {
                let room = (console.width + 1).saturating_sub(head.len() + ", ...):".len());
                let mut shown: Vec<&str> = Vec::new();
                for name in &names {
                    let length: usize =
                        shown.iter().map(|s| s.len() + 2).sum::<usize>() + name.len();
                    if length > room {
                        break;
                    }
                    shown.push(name);
                }
                shown.push("...");
                writeln!(out, "{head}{}):", shown.join(", ")).unwrap();
            }
            for line in wrap(reason, console.width.saturating_sub(2)) {
                writeln!(out, "  {line}").unwrap();
            }
        }
    }

    fn write_failure(&self, out: &mut String, outcome: &Outcome, verbose: bool) {
        writeln!(
            out,
            "\n{} {} ({}, {}) in {}",
            format!("{:?}", outcome.verdict).to_uppercase(),
            outcome.scenario,
            outcome.rules.join(", "),
            outcome.grade,
            outcome.source
        )
        .unwrap();
        if !self.fails_run(outcome) {
            writeln!(
                out,
                "  does not fail the run: {}",
                not_counted_because(outcome.grade)
            )
            .unwrap();
        }
        if let Some(step) = outcome.step {
            writeln!(out, "  at step {step}").unwrap();
        }
        if let Some(reason) = &outcome.reason {
            writeln!(out, "  {reason}").unwrap();
        }
        match &outcome.wire {
            Some(wire) if verbose => {
                for line in wire.lines() {
                    writeln!(out, "    {line}").unwrap();
                    out.truncate(out.trim_end().len());
                    out.push('\n');
                }
            }
            Some(_) => writeln!(
                out,
                "  (the wire exchange: -v, or the JSON and JUnit reports)"
            )
            .unwrap(),
            None => {}
        }
    }

    /// A campaign's `sometimes` properties (a line each, unless quiet), warnings (failed
    /// clean-ups of scenarios too) and early stop.
    fn write_campaign(&self, out: &mut String, console: Console) {
        if !self.sometimes.is_empty() && console.detail != Detail::Quiet {
            out.push('\n');
            let width = self
                .sometimes
                .iter()
                .map(|sometimes| sometimes.property.len())
                .max()
                .unwrap_or(0);
            for sometimes in &self.sometimes {
                let text = if sometimes.reached {
                    format!(
                        "{:<width$} reached {}",
                        sometimes.property,
                        plural(sometimes.count as usize, "time")
                    )
                } else {
                    format!("{:<width$} never reached", sometimes.property)
                };
                writeln!(out, "{}", cut(&text, console.width)).unwrap();
            }
        }
        for outcome in &self.outcomes {
            if let Some(cleanup) = &outcome.cleanup {
                writeln!(out, "warning: {}: clean-up: {cleanup}", outcome.scenario).unwrap();
            }
        }
        for warning in &self.warnings {
            writeln!(out, "warning: {warning}").unwrap();
        }
        if let Some(reason) = &self.stopped_early {
            writeln!(out, "stopped early: {reason}").unwrap();
        }
    }

    /// JUnit XML: a test case per scenario (its class the rules it checks) and per `sometimes`
    /// property. `failures` and `errors` count exactly what fails the run, so a CI system that
    /// reads them agrees with the exit code.
    pub fn junit(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let failures = self
            .outcomes
            .iter()
            .filter(|o| self.fails_run(o) && o.verdict != Verdict::Error)
            .count();
        let counts = format!(
            "tests=\"{}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\"",
            self.outcomes.len() + self.sometimes.len(),
            self.count(Verdict::Error),
            self.count(Verdict::Skip) + self.count(Verdict::PreconditionNotMet),
            self.outcomes
                .iter()
                .map(|outcome| outcome.duration_ms)
                .sum::<u64>() as f64
                / 1000.0
        );
        writeln!(out, "<testsuites name=\"streamspec\" {counts}>").unwrap();
        writeln!(
            out,
            "  <testsuite name=\"{}\" {counts}>",
            xml_escape(&format!("streamspec {} {}", self.command, self.target))
        )
        .unwrap();
        out.push_str("    <properties>\n");
        let verdict = serde_json::to_value(self.verdict()).expect("verdicts serialize");
        write_property(&mut out, 6, "verdict", verdict.as_str().unwrap_or_default());
        write_property(&mut out, 6, "strict", &self.strict.to_string());
        if let Some(reason) = &self.stopped_early {
            write_property(&mut out, 6, "stopped-early", reason);
        }
        out.push_str("    </properties>\n");
        for outcome in &self.outcomes {
            self.write_testcase(&mut out, outcome);
        }
        for sometimes in &self.sometimes {
            writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"0.000\">",
                xml_escape(&sometimes.property),
                xml_escape(&format!("{} ({})", sometimes.property, sometimes.rules))
            )
            .unwrap();
            out.push_str("      <properties>\n");
            let verdict = if sometimes.reached {
                "reached"
            } else {
                "never_reached"
            };
            write_property(&mut out, 8, "verdict", verdict);
            write_property(&mut out, 8, "count", &sometimes.count.to_string());
            write_property(&mut out, 8, "fails-run", "false");
            out.push_str("      </properties>\n");
            if !sometimes.reached {
                // A coverage gap of the generator, not a defect of the target: a warning.
                out.push_str(
                    "      <system-out>warning: never reached; this does not fail the run</system-out>\n",
                );
            }
            out.push_str("    </testcase>\n");
        }
        if !self.warnings.is_empty() || self.stopped_early.is_some() {
            let mut text: Vec<String> = self
                .warnings
                .iter()
                .map(|w| format!("warning: {w}"))
                .collect();
            text.extend(
                self.stopped_early
                    .iter()
                    .map(|reason| format!("stopped early: {reason}")),
            );
            writeln!(
                out,
                "    <system-out>{}</system-out>",
                xml_escape(&text.join("\n"))
            )
            .unwrap();
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }

    fn write_testcase(&self, out: &mut String, outcome: &Outcome) {
        writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\">",
            xml_escape(&outcome.rules.join(",")),
            xml_escape(&format!(
                "{} [{}] {}",
                outcome.scenario, outcome.grade, outcome.title
            )),
            outcome.duration_ms as f64 / 1000.0
        )
        .unwrap();
        out.push_str("      <properties>\n");
        let verdict = serde_json::to_value(outcome.verdict).expect("verdicts serialize");
        write_property(out, 8, "verdict", verdict.as_str().unwrap_or_default());
        write_property(out, 8, "grade", &outcome.grade.to_string());
        write_property(out, 8, "fails-run", &self.fails_run(outcome).to_string());
        if let Some(cleanup) = &outcome.cleanup {
            write_property(out, 8, "cleanup", cleanup);
        }
        out.push_str("      </properties>\n");
        let reason = xml_escape(outcome.reason.as_deref().unwrap_or(""));
        let body = xml_escape(outcome.wire.as_deref().unwrap_or(""));
        match outcome.verdict {
            Verdict::Pass => {}
            Verdict::Skip => writeln!(out, "      <skipped message=\"{reason}\"/>").unwrap(),
            // Not judged, as a skip is; the exchange shows what the set-up got instead.
            Verdict::PreconditionNotMet => {
                writeln!(out, "      <skipped message=\"{reason}\">{body}</skipped>").unwrap()
            }
            Verdict::Error => writeln!(
                out,
                "      <error message=\"{reason}\" type=\"Error\">{body}</error>"
            )
            .unwrap(),
            _ if self.fails_run(outcome) => writeln!(
                out,
                "      <failure message=\"{reason}\" type=\"{:?}\">{body}</failure>",
                outcome.verdict
            )
            .unwrap(),
            // A failure that does not fail the run (a SHOULD one without --strict, an
            // INFORMATIONAL one, a known divergence). <failure> would turn CI red against the
            // exit code, and <skipped> would claim it never ran; so the test case passes, and
            // its properties and output say that it failed and why that does not count.
            _ => {
                let why = match outcome.verdict {
                    Verdict::Divergent => {
                        "a known divergence, recorded in harness/divergences.json"
                    }
                    _ => not_counted_because(outcome.grade),
                };
                writeln!(
                    out,
                    "      <system-out>{} (does not fail the run: {why}): {reason}{}{body}</system-out>",
                    format!("{:?}", outcome.verdict).to_uppercase(),
                    if body.is_empty() { "" } else { "&#10;" }
                )
                .unwrap()
            }
        }
        out.push_str("    </testcase>\n");
    }

    pub fn json(&self) -> String {
        let verdict = self.verdict();
        let value = serde_json::json!({
            "command": self.command,
            "target": self.target,
            "run_id": self.run_id,
            "strict": self.strict,
            "verdict": verdict,
            "passed": verdict == RunVerdict::Passed,
            "exit_code": verdict.exit_code(),
            "counts": self.counts(),
            "rules": self.rules(),
            "scenarios": self.outcomes,
            "sometimes": self.sometimes,
            "stopped_early": self.stopped_early,
            "target_lost": self.target_lost,
            "warnings": self.warnings,
        });
        serde_json::to_string_pretty(&value).expect("reports serialize")
    }
}

fn write_property(out: &mut String, indent: usize, name: &str, value: &str) {
    writeln!(
        out,
        "{:indent$}<property name=\"{name}\" value=\"{}\"/>",
        "",
        xml_escape(value)
    )
    .unwrap();
}

/// Escapes text for XML attributes and content, dropping characters XML 1.0 cannot carry.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(ch),
            ch if (ch as u32) < 0x20 => {}
            ch => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(name: &str, rules: &[&str], grade: Grade, verdict: Verdict) -> Outcome {
        Outcome {
            scenario: name.to_owned(),
            title: format!("title of {name}"),
            rules: rules.iter().map(|rule| (*rule).to_owned()).collect(),
            grade,
            source: "x.json".to_owned(),
            verdict,
            reason: (verdict != Verdict::Pass).then(|| "expected 1, found <2> & \"3\"".to_owned()),
            step: None,
            wire: None,
            cleanup: None,
            exchanges: Vec::new(),
            duration_ms: 1500,
        }
    }

    fn report(strict: bool, outcomes: Vec<Outcome>) -> Report {
        Report::new(
            "check",
            "127.0.0.1:9092".to_owned(),
            "r".to_owned(),
            strict,
            outcomes,
        )
    }

    fn line(
        rule: &str,
        verdict: RuleVerdict,
        grade: Grade,
        fails_run: bool,
        decided_by: &str,
        scenarios: usize,
        skipped: usize,
    ) -> RuleLine {
        RuleLine {
            rule: rule.into(),
            verdict,
            grade,
            fails_run,
            decided_by: decided_by.into(),
            scenarios,
            skipped,
            preconditions_not_met: 0,
        }
    }

    #[test]
    fn a_rule_shows_the_grade_of_the_scenario_that_failed() {
        let report = report(
            false,
            vec![
                outcome("a", &["R10", "R2"], Grade::Must, Verdict::Pass),
                outcome("b", &["R2"], Grade::Should, Verdict::Fail),
                outcome("c", &["R10"], Grade::Informational, Verdict::Fail),
                outcome("d", &["R3"], Grade::Must, Verdict::Fail),
                outcome("e", &["R3"], Grade::Informational, Verdict::Error),
                outcome("f", &["R4"], Grade::Must, Verdict::Skip),
                outcome("g", &["R4"], Grade::Should, Verdict::Skip),
                outcome("h", &["R5"], Grade::Must, Verdict::Pass),
                outcome("i", &["R5"], Grade::Must, Verdict::Skip),
            ],
        );
        assert_eq!(
            report.rules(),
            vec![
                line("R2", RuleVerdict::Fail, Grade::Should, false, "b", 2, 0),
                line(
                    "R3",
                    RuleVerdict::Error,
                    Grade::Informational,
                    true,
                    "e",
                    2,
                    0
                ),
                line("R4", RuleVerdict::NotChecked, Grade::Must, false, "f", 2, 2),
                line("R5", RuleVerdict::Pass, Grade::Must, false, "h", 2, 1),
                line(
                    "R10",
                    RuleVerdict::Fail,
                    Grade::Informational,
                    false,
                    "c",
                    2,
                    0
                ),
            ]
        );
        // Under --strict the SHOULD failure decides R2 and fails the run.
        let strict = Report {
            strict: true,
            ..report
        };
        assert_eq!(
            strict.rules()[0],
            line("R2", RuleVerdict::Fail, Grade::Should, true, "b", 2, 0)
        );
    }

    #[test]
    fn the_run_verdict_follows_the_grades() {
        let verdict = |strict: bool, grade: Grade, verdict: Verdict| {
            report(
                strict,
                vec![
                    outcome("ok", &["R1"], Grade::Must, Verdict::Pass),
                    outcome("x", &["R2"], grade, verdict),
                ],
            )
            .verdict()
        };
        use RunVerdict::*;
        let table = [
            (false, Grade::Must, Verdict::Fail, Failed),
            (false, Grade::Should, Verdict::Fail, Passed),
            (true, Grade::Should, Verdict::Fail, Failed),
            (true, Grade::Informational, Verdict::Fail, Passed),
            (false, Grade::Should, Verdict::Error, Failed),
            (false, Grade::Should, Verdict::Timeout, Failed),
            (false, Grade::Informational, Verdict::Timeout, Failed),
            (false, Grade::Must, Verdict::Divergent, Passed),
            (false, Grade::Must, Verdict::Skip, Passed),
            (true, Grade::Must, Verdict::PreconditionNotMet, Passed),
        ];
        for (strict, grade, outcome, expected) in table {
            assert_eq!(
                verdict(strict, grade, outcome),
                expected,
                "{strict} {grade} {outcome:?}"
            );
        }
        let all_skipped = report(
            false,
            vec![outcome("s", &["R1"], Grade::Must, Verdict::Skip)],
        );
        assert_eq!(all_skipped.verdict(), NothingChecked);
        let nothing_past_set_up = report(
            false,
            vec![
                outcome("s", &["R1"], Grade::Must, Verdict::Skip),
                outcome("p", &["R2"], Grade::Must, Verdict::PreconditionNotMet),
            ],
        );
        assert_eq!(nothing_past_set_up.verdict(), NothingChecked);
        assert_eq!(report(false, Vec::new()).verdict(), NothingChecked);
        assert_eq!(
            [Passed, Failed, NothingChecked].map(RunVerdict::exit_code),
            [0, 1, 2]
        );
    }

    #[test]
    fn console_json_and_junit_state_the_one_verdict() {
        let cases = [
            (vec![outcome("a", &["R1"], Grade::Should, Verdict::Fail)], "PASSED (1 failure that do not fail the run: SHOULD without --strict, INFORMATIONAL)", "passed"),
            (vec![outcome("a", &["R1"], Grade::Must, Verdict::Fail)], "FAILED (1 fail the run)", "failed"),
            (vec![outcome("a", &["R1"], Grade::Must, Verdict::Skip)], "NOTHING CHECKED: every scenario was skipped", "nothing_checked"),
        ];
        for (outcomes, summary, verdict) in cases {
            let report = report(false, outcomes);
            let human = report.human(Console::default());
            assert!(human.trim_end().ends_with(summary), "{human}");
            let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
            assert_eq!(json["verdict"], verdict);
            assert_eq!(json["passed"], verdict == "passed");
            assert_eq!(json["exit_code"], report.verdict().exit_code());
            assert!(report
                .junit()
                .contains(&format!("<property name=\"verdict\" value=\"{verdict}\"/>")));
        }
        assert_eq!(
            report(false, Vec::new()).human(Console::default()),
            "NOTHING CHECKED: no scenario was selected\n"
        );
    }

    #[test]
    fn rule_lines_fit_the_width_and_skips_are_grouped() {
        let mut long = outcome("R7-long", &["R7"], Grade::Must, Verdict::Fail);
        long.reason = Some("x".repeat(300));
        long.wire = Some("0000 00 58 | api key".to_owned());
        let mut skipped = outcome("R8-a", &["R8"], Grade::Must, Verdict::Skip);
        skipped.reason = Some("needs StreamsGroupHeartbeat v1; the target speaks v0".to_owned());
        let mut other = skipped.clone();
        other.scenario = "R8-b".to_owned();
        let report = report(false, vec![long, skipped, other]);
        let human = report.human(Console {
            detail: Detail::Normal,
            width: 60,
        });
        let narrow = report.human(Console {
            detail: Detail::Normal,
            width: 70,
        });
        assert!(
            narrow.contains(
                "\nskipped 2 scenarios (R8-a, R8-b):\n  needs StreamsGroupHeartbeat v1; the target speaks v0\n"
            ),
            "{narrow}"
        );
        let narrowest = report.human(Console {
            detail: Detail::Normal,
            width: 32,
        });
        assert!(
            narrowest.contains(
                "\nskipped 2 scenarios (R8-a, ...):\n  needs StreamsGroupHeartbeat\n  v1; the target speaks v0\n"
            ),
            "{narrowest}"
        );
        let wider = report.human(Console {
            detail: Detail::Normal,
            width: 85,
        });
        assert!(
            wider.contains("\nskipped 2 scenarios (R8-a, R8-b):\n  needs StreamsGroupHeartbeat v1; the target speaks v0\n"),
            "{wider}"
        );
        let lines: Vec<&str> = human.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "R7    fail        MUST          R7-long: {}...",
                "x".repeat(16)
            )
        );
        assert_eq!(lines[0].chars().count(), 60);
        assert_eq!(
            lines[1],
            "R8    not checked MUST          skipped: needs StreamsGro..."
        );
        let wide = report.human(Console {
            detail: Detail::Normal,
            width: 100,
        });
        assert!(wide.contains("\nskipped 2 scenarios (R8-a, R8-b):\n  needs StreamsGroupHeartbeat v1; the target speaks v0\n"), "{wide}");
        assert!(!human.contains("api key"), "{human}");
        let verbose = report.human(Console {
            detail: Detail::Verbose,
            width: 60,
        });
        assert!(verbose.contains("    0000 00 58 | api key\n"), "{verbose}");
        assert!(
            verbose.contains("\n      fail      MUST          R7-long title of R7-long\n"),
            "{verbose}"
        );
        let quiet = report.human(Console {
            detail: Detail::Quiet,
            width: 60,
        });
        assert!(quiet.starts_with("R7 "), "{quiet}");
        assert!(!quiet.contains("R8"), "{quiet}");
    }

    /// A scenario that stopped at its set-up: the reason the runner gives it.
    fn unmet(name: &str, rules: &[&str]) -> Outcome {
        let mut unmet = outcome(name, rules, Grade::Must, Verdict::PreconditionNotMet);
        unmet.reason =
            Some("precondition not met at step 1: .memberEpoch: expected 2, found 1".to_owned());
        unmet.step = Some(1);
        unmet.wire = Some("0000 00 58 | api key".to_owned());
        unmet
    }

    #[test]
    fn an_unmet_precondition_leaves_its_rule_not_checked() {
        let report = report(
            true,
            vec![
                unmet("R21-a", &["R21"]),
                unmet("R21-b", &["R21"]),
                outcome("R23-a", &["R23"], Grade::Must, Verdict::Pass),
                unmet("R23-b", &["R23"]),
                outcome("R27-a", &["R27"], Grade::Must, Verdict::Skip),
                unmet("R27-b", &["R27"]),
            ],
        );
        let with_unmet = |line: RuleLine, unmet: usize| RuleLine {
            preconditions_not_met: unmet,
            ..line
        };
        assert_eq!(
            report.rules(),
            vec![
                with_unmet(
                    line(
                        "R21",
                        RuleVerdict::NotChecked,
                        Grade::Must,
                        false,
                        "R21-b",
                        2,
                        0
                    ),
                    2
                ),
                with_unmet(
                    line("R23", RuleVerdict::Pass, Grade::Must, false, "R23-a", 2, 0),
                    1
                ),
                // The unmet precondition names the rule's standing rather than the skip: the
                // scenario ran, and its set-up answered otherwise.
                with_unmet(
                    line(
                        "R27",
                        RuleVerdict::NotChecked,
                        Grade::Must,
                        false,
                        "R27-b",
                        2,
                        1
                    ),
                    1
                ),
            ]
        );
        assert_eq!(report.verdict(), RunVerdict::Passed);
        let human = report.human(Console {
            detail: Detail::Normal,
            width: 110,
        });
        let lines: Vec<&str> = human.lines().collect();
        assert_eq!(
            lines[..3],
            [
                "R21   not checked MUST          R21-b: precondition not met at step 1: .memberEpoch: expected 2, found 1",
                "R23   pass        MUST          1 passed, 1 precondition not met",
                "R27   not checked MUST          R27-b: precondition not met at step 1: .memberEpoch: expected 2, found 1",
            ]
        );
        assert!(
            human.contains(
                "\nunmet precondition in 4 scenarios (R21-a, R21-b, R23-b, R27-b):\n  precondition not met at step 1: .memberEpoch: expected 2, found 1\n"
            ),
            "{human}"
        );
        // Neither a failure nor its wire exchange on the console.
        assert!(!human.contains("\nFAIL"), "{human}");
        assert!(!human.contains("api key"), "{human}");
        assert!(
            human.trim_end().ends_with(
                "3 rules (0 failing, 2 not checked) in 6 scenarios: 1 passed, 0 failed, 0 errors, 0 timed out, 1 skipped, 4 preconditions not met, 0 known divergences; PASSED"
            ),
            "{human}"
        );
        let verbose = report.human(Console {
            detail: Detail::Verbose,
            width: 110,
        });
        assert!(
            verbose.contains("\n      precondition not met MUST          R21-a title of R21-a\n"),
            "{verbose}"
        );

        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(
            json["counts"],
            serde_json::json!({"pass": 1, "fail": 0, "error": 0, "timeout": 0, "skip": 1,
                               "precondition_not_met": 4, "divergent": 0})
        );
        assert_eq!(json["scenarios"][0]["verdict"], "precondition_not_met");
        assert_eq!(json["scenarios"][0]["step"], 1);
        assert_eq!(json["rules"][0]["verdict"], "not_checked");
        assert_eq!(json["rules"][0]["preconditions_not_met"], 2);

        let xml = report.junit();
        assert!(xml.contains("<testsuites name=\"streamspec\" tests=\"6\" failures=\"0\" errors=\"0\" skipped=\"5\" time=\"9.000\">"), "{xml}");
        assert!(
            xml.contains("<property name=\"verdict\" value=\"precondition_not_met\"/>"),
            "{xml}"
        );
        assert!(xml.contains("<skipped message=\"precondition not met at step 1: .memberEpoch: expected 2, found 1\">0000 00 58 | api key</skipped>"), "{xml}");
        roxmltree::Document::parse(&xml).expect("well-formed JUnit XML");
    }

    #[test]
    fn junit_counts_only_what_fails_the_run() {
        let xml = report(
            false,
            vec![
                outcome("a", &["R1"], Grade::Must, Verdict::Pass),
                outcome("b", &["R2"], Grade::Must, Verdict::Fail),
                outcome("c", &["R3"], Grade::Must, Verdict::Skip),
                outcome("d", &["R4"], Grade::Informational, Verdict::Fail),
                outcome("e", &["R5"], Grade::Should, Verdict::Timeout),
            ],
        )
        .junit();
        assert!(xml.contains("<testsuites name=\"streamspec\" tests=\"5\" failures=\"2\" errors=\"0\" skipped=\"1\" time=\"7.500\">"), "{xml}");
        assert!(xml.contains("<failure message=\"expected 1, found &lt;2&gt; &amp; &quot;3&quot;\" type=\"Fail\"></failure>"));
        assert!(xml.contains("<failure message=\"expected 1, found &lt;2&gt; &amp; &quot;3&quot;\" type=\"Timeout\"></failure>"));
        assert!(xml.contains("<system-out>FAIL (does not fail the run: INFORMATIONAL failures never fail the run): expected 1"), "{xml}");
        assert!(xml.contains("<skipped message="));
        assert!(xml.ends_with("</testsuites>\n"));
        roxmltree::Document::parse(&xml).expect("well-formed JUnit XML");
    }

    #[test]
    fn a_failed_clean_up_is_a_warning_and_keeps_the_verdict() {
        let mut kept = outcome("a", &["R1"], Grade::Must, Verdict::Pass);
        kept.cleanup =
            Some("deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)".to_owned());
        let report = report(false, vec![kept]);
        assert_eq!(report.verdict(), RunVerdict::Passed);
        assert!(report.human(Console::default()).contains(
            "\nwarning: a: clean-up: deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)\n"
        ));
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(
            json["scenarios"][0]["cleanup"],
            "deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)"
        );
        assert!(report.junit().contains(
            "<property name=\"cleanup\" value=\"deleting topics failed with error TOPIC_AUTHORIZATION_FAILED (29)\"/>"
        ));
    }

    #[test]
    fn a_run_whose_target_stopped_answering_is_no_verdict_on_it() {
        let mut report = report(
            false,
            vec![
                outcome("a", &["R1"], Grade::Must, Verdict::Pass),
                outcome("b", &["R2"], Grade::Must, Verdict::Error),
            ],
        );
        report.target_lost = Some("h:1 stopped answering".to_owned());
        assert_eq!(report.verdict(), RunVerdict::TargetLost);
        assert_eq!(report.verdict().exit_code(), 2);
        assert!(report
            .human(Console::default())
            .ends_with("; TARGET LOST: h:1 stopped answering\n"));
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(
            (
                &json["verdict"],
                &json["passed"],
                &json["exit_code"],
                &json["target_lost"]
            ),
            (
                &serde_json::json!("target_lost"),
                &serde_json::json!(false),
                &serde_json::json!(2),
                &serde_json::json!("h:1 stopped answering")
            )
        );
    }

    #[test]
    fn an_interrupted_run_is_judged_interrupted_whatever_ran() {
        let mut report = report(
            false,
            vec![
                outcome("a", &["R1"], Grade::Must, Verdict::Pass),
                outcome("b", &["R2"], Grade::Must, Verdict::Fail),
            ],
        );
        report.interrupted = true;
        assert_eq!(report.verdict(), RunVerdict::Interrupted);
        assert_eq!(report.verdict().exit_code(), 130);
        assert!(report
            .human(Console::default())
            .ends_with("; INTERRUPTED: the run did not finish\n"));
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(
            (&json["verdict"], &json["passed"], &json["exit_code"]),
            (
                &serde_json::json!("interrupted"),
                &serde_json::json!(false),
                &serde_json::json!(130)
            )
        );
    }
}
