//! The report for people: a line per rule, skip reasons, failures, then a summary.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{not_counted_because, Console, Detail, Report, RuleLine, RuleVerdict, RunVerdict};
use crate::runner::{Outcome, Verdict, NOT_RUN_TARGET_LOST};

impl Report {
    /// The skipped scenarios grouped by reason, as the console shows them.
    pub fn skips(&self, console: Console) -> String {
        let mut out = String::new();
        self.write_grouped(&mut out, console, Verdict::Skip, "skipped");
        out
    }

    fn outcome(&self, scenario: &str) -> Option<&Outcome> {
        self.outcomes
            .iter()
            .find(|outcome| outcome.scenario == scenario)
    }

    /// What the rule line says after its verdict and grade.
    pub(super) fn rule_detail(&self, line: &RuleLine) -> String {
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
    pub(super) fn verdict_text(&self) -> String {
        let not_counted = self
            .outcomes
            .iter()
            .filter(|outcome| is_failure(outcome.verdict) && !self.fails_run(outcome))
            .count();
        match self.verdict() {
            RunVerdict::Passed if not_counted > 0 => format!(
                "PASSED ({} that {} not fail the run: {})",
                plural(not_counted, "failure"),
                if not_counted == 1 { "does" } else { "do" },
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
            RunVerdict::NothingChecked if self.nothing_checked.is_some() => format!(
                "NOTHING CHECKED: {}",
                self.nothing_checked.as_deref().unwrap_or_default()
            ),
            RunVerdict::NothingChecked if self.count(Verdict::PreconditionNotMet) > 0 => {
                "NOTHING CHECKED: every scenario was skipped or stopped at an unmet precondition"
                    .to_owned()
            }
            RunVerdict::NothingChecked => {
                format!("NOTHING CHECKED: every {} was skipped", self.unit().0)
            }
            RunVerdict::Interrupted => "INTERRUPTED: the run did not finish".to_owned(),
            RunVerdict::TargetLost => format!(
                "TARGET LOST: {}",
                self.target_lost.as_deref().unwrap_or_default()
            ),
        }
    }

    /// The report for people: a line per rule, skip reasons, failures, then a summary. Of a run
    /// that lost its target, the lines are of the scenarios that ran before the loss (those
    /// after it ended alike, and the summary counts them).
    pub fn human(&self, console: Console) -> String {
        if self.outcomes.is_empty() {
            return "NOTHING CHECKED: no scenario was selected\n".to_owned();
        }
        let mut out = if self.target_lost.is_some() {
            let ran = Report {
                outcomes: self
                    .outcomes
                    .iter()
                    .filter(|o| o.reason.as_deref() != Some(NOT_RUN_TARGET_LOST))
                    .cloned()
                    .collect(),
                ..self.clone()
            };
            // Their rule lines judge what ran, so a rule reads as the scenarios before the loss
            // left it, not as the whole run does: the heading says so.
            let mut out = format!(
                "{} ran before the target was lost; the lines below judge those alone:\n",
                plural(ran.outcomes.len(), "scenario")
            );
            out.push_str(&ran.body(console));
            out
        } else {
            self.body(console)
        };
        writeln!(out, "\n{}", self.summary_line()).unwrap();
        out
    }

    /// Everything [`Report::human`] shows above the summary.
    fn body(&self, console: Console) -> String {
        let mut out = String::new();
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
            if quiet && !line.verdict.is_failure() {
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
                        "      {:<9} {:<13} {}",
                        outcome.verdict.label(),
                        outcome.grade.to_string(),
                        named_with_title(outcome)
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
                    shown_rules(outcome),
                    outcome.reason.as_deref().unwrap_or_default()
                )
                .unwrap();
            }
        }
        for outcome in self.outcomes.iter().filter(|o| is_failure(o.verdict)) {
            self.write_failure(&mut out, outcome, verbose);
        }
        self.write_campaign(&mut out, console);
        out
    }

    /// The human report's last line: the counts and the verdict.
    pub fn summary_line(&self) -> String {
        let rules = self.rules();
        // A rule line reads `fail` whether or not its grade fails the run: where some do not,
        // the count says which it counts.
        let failing_the_run = rules.iter().filter(|line| line.fails_run).count();
        let failing = match rules
            .iter()
            .filter(|line| line.verdict.is_failure() && !line.fails_run)
            .count()
        {
            0 => format!("{failing_the_run} failing"),
            not => format!("{failing_the_run} failing the run, {not} failing that does not"),
        };
        let not_checked = rules
            .iter()
            .filter(|line| line.verdict == RuleVerdict::NotChecked)
            .count();
        if self.command == "proxy" {
            // The proxy's lines are the oracle's properties, each judged on the traffic.
            return format!(
                "{} ({failing}, {not_checked} not checked): {} passed, {} violated, {} skipped; {}",
                self.counted(rules.len()),
                self.count(Verdict::Pass),
                self.count(Verdict::Fail),
                self.count(Verdict::Skip),
                self.verdict_text()
            );
        }
        if self.command == "fuzz" {
            // A campaign's lines are its invariants (and its run set-up), each one outcome.
            return format!(
                "{} invariants ({failing}, {not_checked} not checked): {} passed, {} violated, {} errors, {} known divergences; {}",
                rules.len(),
                self.count(Verdict::Pass),
                self.count(Verdict::Fail),
                self.count(Verdict::Error),
                self.count(Verdict::Divergent),
                self.verdict_text()
            );
        }
        let not_run = self
            .outcomes
            .iter()
            .filter(|outcome| outcome.reason.as_deref() == Some(NOT_RUN_TARGET_LOST))
            .count();
        let not_run = match not_run {
            0 => String::new(),
            not_run => format!(" ({not_run} not run)"),
        };
        format!(
            "{} rules ({failing}, {not_checked} not checked) in {} scenarios: {} passed, {} failed, {} errors{not_run}, {} timed out, {} skipped, {} preconditions not met, {} known divergences; {}",
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
    }

    /// What the command's outcomes are, singular and plural: a campaign's are invariants, a
    /// proxy's the properties it judges live, the others' scenarios.
    pub(super) fn unit(&self) -> (&'static str, &'static str) {
        match self.command.as_str() {
            "fuzz" => ("invariant", "invariants"),
            "proxy" => ("property", "properties"),
            _ => ("scenario", "scenarios"),
        }
    }

    /// `count` outcomes of this command, e.g. `1 property`, `15 properties`.
    fn counted(&self, count: usize) -> String {
        let (one, many) = self.unit();
        format!("{count} {}", if count == 1 { one } else { many })
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
            let head = format!("\n{heading} {} (", self.counted(names.len()));
            let full = format!("{head}{}):", names.join(", "));
            if console.detail == Detail::Verbose || full.chars().count() <= console.width + 1 {
                writeln!(out, "{full}").unwrap();
            } else {
                let room = (console.width + 1).saturating_sub(head.len() + ", ...):".len());
                // The first name always, however long: a group that names no scenario leaves
                // the reader nothing to look up.
                let mut shown: Vec<&str> = Vec::new();
                for name in &names {
                    let length: usize =
                        shown.iter().map(|s| s.len() + 2).sum::<usize>() + name.len();
                    if length > room && !shown.is_empty() {
                        break;
                    }
                    shown.push(name);
                }
                if shown.len() < names.len() {
                    shown.push("...");
                }
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
            shown_rules(outcome),
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
        out.push_str(&self.warning_lines());
        if let Some(reason) = &self.stopped_early {
            writeln!(out, "stopped early: {reason}").unwrap();
        }
    }

    /// A line for each failed clean-up (one per reason) and each other warning.
    pub fn warning_lines(&self) -> String {
        let mut out = String::new();
        // One line per reason: a broker that keeps every topic (delete.topic.enable=false)
        // fails the clean-up of every scenario the same way.
        let mut cleanups: Vec<(&str, Vec<&str>)> = Vec::new();
        for outcome in &self.outcomes {
            if let Some(cleanup) = &outcome.cleanup {
                match cleanups.iter_mut().find(|(reason, _)| reason == cleanup) {
                    Some((_, scenarios)) => scenarios.push(&outcome.scenario),
                    None => cleanups.push((cleanup, vec![&outcome.scenario])),
                }
            }
        }
        for (cleanup, scenarios) in cleanups {
            match scenarios.as_slice() {
                [scenario] => writeln!(out, "warning: {scenario}: clean-up: {cleanup}").unwrap(),
                [first, ..] => writeln!(
                    out,
                    "warning: {} scenarios ({first}, ...): clean-up: {cleanup}",
                    scenarios.len()
                )
                .unwrap(),
                [] => {}
            }
        }
        for warning in &self.warnings {
            writeln!(out, "warning: {warning}").unwrap();
        }
        out
    }
}

pub(super) fn is_failure(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Fail | Verdict::Error | Verdict::Timeout)
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

pub(crate) fn plural(count: usize, one: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {one}s")
    }
}

/// The rules shown beside an outcome's name. A property's outcome (a campaign's, the proxy's)
/// is its own rule, named after it; its spec sections are in its title instead.
fn shown_rules(outcome: &Outcome) -> String {
    if !is_property(outcome) {
        return outcome.rules.join(", ");
    }
    let rest = outcome
        .title
        .strip_prefix(&outcome.scenario)
        .unwrap_or_default();
    rest.trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .to_owned()
}

/// Whether `outcome` is a property's, whose one rule is its name.
fn is_property(outcome: &Outcome) -> bool {
    outcome.rules == [outcome.scenario.as_str()]
}

/// An outcome's name and title; a property's title starts with its name, said once.
fn named_with_title(outcome: &Outcome) -> String {
    if is_property(outcome) && outcome.title.starts_with(&outcome.scenario) {
        outcome.title.clone()
    } else {
        format!("{} {}", outcome.scenario, outcome.title)
    }
}
