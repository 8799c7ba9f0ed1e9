//! Reports of a run: a line per rule for people, JUnit XML for CI systems, JSON for tools.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::runner::{Outcome, Verdict};
use crate::scenario::Grade;

/// The result of a whole run.
#[derive(Debug, Serialize)]
pub struct Report {
    pub target: String,
    pub run_id: String,
    pub strict: bool,
    pub outcomes: Vec<Outcome>,
}

/// One rule's standing: the worst verdict among its scenarios, and the strongest grade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleLine {
    pub rule: String,
    pub verdict: Verdict,
    pub grade: Grade,
    pub scenarios: usize,
}

fn severity(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Skip => 0,
        Verdict::Pass => 1,
        Verdict::Divergent => 2,
        Verdict::Timeout => 3,
        Verdict::Fail => 4,
        Verdict::Error => 5,
    }
}

fn rule_number(rule: &str) -> u32 {
    rule.trim_start_matches('R').parse().unwrap_or(u32::MAX)
}

impl Report {
    /// A line per rule, in rule order.
    pub fn rules(&self) -> Vec<RuleLine> {
        let mut lines: BTreeMap<(u32, String), RuleLine> = BTreeMap::new();
        for outcome in &self.outcomes {
            for rule in &outcome.rules {
                let line = lines
                    .entry((rule_number(rule), rule.clone()))
                    .or_insert_with(|| RuleLine {
                        rule: rule.clone(),
                        verdict: Verdict::Skip,
                        grade: Grade::Informational,
                        scenarios: 0,
                    });
                line.scenarios += 1;
                line.grade = line.grade.min(outcome.grade);
                // A skip never hides a pass, a pass never hides a failure.
                if severity(outcome.verdict) > severity(line.verdict) {
                    line.verdict = outcome.verdict;
                }
            }
        }
        lines.into_values().collect()
    }

    /// True when the outcome counts against the run: a failing MUST scenario, or a failing SHOULD
    /// one under `--strict`.
    pub fn is_failing(&self, outcome: &Outcome) -> bool {
        let failed = matches!(
            outcome.verdict,
            Verdict::Fail | Verdict::Error | Verdict::Timeout
        );
        failed && (outcome.grade == Grade::Must || (self.strict && outcome.grade == Grade::Should))
    }

    pub fn passed(&self) -> bool {
        !self.outcomes.iter().any(|outcome| self.is_failing(outcome))
    }

    fn count(&self, verdict: Verdict) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.verdict == verdict)
            .count()
    }

    /// The report for people: a line per rule, then every failure with its wire exchange, then a
    /// summary.
    pub fn human(&self) -> String {
        let mut out = String::new();
        for line in self.rules() {
            let titles: Vec<&str> = self
                .outcomes
                .iter()
                .filter(|outcome| outcome.rules.contains(&line.rule))
                .map(|outcome| outcome.title.as_str())
                .collect();
            let verdict = format!("{:?}", line.verdict).to_lowercase();
            writeln!(
                out,
                "{:<5} {:<8} {:<13} {}",
                line.rule,
                verdict,
                line.grade.to_string(),
                titles.join("; ")
            )
            .unwrap();
        }
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
        for outcome in &self.outcomes {
            if !matches!(
                outcome.verdict,
                Verdict::Fail | Verdict::Error | Verdict::Timeout
            ) {
                continue;
            }
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
            if let Some(step) = outcome.step {
                writeln!(out, "  at step {step}").unwrap();
            }
            if let Some(reason) = &outcome.reason {
                writeln!(out, "  {reason}").unwrap();
            }
            if let Some(wire) = &outcome.wire {
                for line in wire.lines() {
                    writeln!(out, "    {line}").unwrap();
                }
            }
        }
        let rules = self.rules();
        let failing_rules = rules
            .iter()
            .filter(|line| {
                matches!(
                    line.verdict,
                    Verdict::Fail | Verdict::Error | Verdict::Timeout
                )
            })
            .count();
        writeln!(
            out,
            "\n{} rules ({} failing) in {} scenarios: {} passed, {} failed, {} errors, {} timed out, {} skipped, {} known divergences; {}",
            rules.len(),
            failing_rules,
            self.outcomes.len(),
            self.count(Verdict::Pass),
            self.count(Verdict::Fail),
            self.count(Verdict::Error),
            self.count(Verdict::Timeout),
            self.count(Verdict::Skip),
            self.count(Verdict::Divergent),
            if self.passed() { "every MUST rule passes" } else { "FAILED" }
        )
        .unwrap();
        out
    }

    /// JUnit XML: one test case a scenario, its class the rules it checks.
    pub fn junit(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let failures = self.count(Verdict::Fail) + self.count(Verdict::Timeout);
        let total_ms: u64 = self
            .outcomes
            .iter()
            .map(|outcome| outcome.duration_ms)
            .sum();
        writeln!(
            out,
            "<testsuites name=\"streamspec\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
            self.outcomes.len(),
            self.count(Verdict::Error),
            self.count(Verdict::Skip) + self.count(Verdict::Divergent),
            total_ms as f64 / 1000.0
        )
        .unwrap();
        writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
            xml_escape(&format!("streamspec check {}", self.target)),
            self.outcomes.len(),
            self.count(Verdict::Error),
            self.count(Verdict::Skip) + self.count(Verdict::Divergent),
            total_ms as f64 / 1000.0
        )
        .unwrap();
        for outcome in &self.outcomes {
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
            let reason = xml_escape(outcome.reason.as_deref().unwrap_or(""));
            let body = xml_escape(outcome.wire.as_deref().unwrap_or(""));
            match outcome.verdict {
                Verdict::Pass => {}
                Verdict::Skip | Verdict::Divergent => {
                    writeln!(out, "      <skipped message=\"{reason}\"/>").unwrap()
                }
                Verdict::Fail | Verdict::Timeout => writeln!(
                    out,
                    "      <failure message=\"{reason}\" type=\"{:?}\">{body}</failure>",
                    outcome.verdict
                )
                .unwrap(),
                Verdict::Error => writeln!(
                    out,
                    "      <error message=\"{reason}\" type=\"Error\">{body}</error>"
                )
                .unwrap(),
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }

    pub fn json(&self) -> String {
        let value = serde_json::json!({
            "target": self.target,
            "run_id": self.run_id,
            "strict": self.strict,
            "passed": self.passed(),
            "rules": self.rules(),
            "scenarios": self.outcomes,
        });
        serde_json::to_string_pretty(&value).expect("reports serialize")
    }
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
            duration_ms: 1500,
        }
    }

    fn report(strict: bool, outcomes: Vec<Outcome>) -> Report {
        Report {
            target: "127.0.0.1:9092".to_owned(),
            run_id: "r".to_owned(),
            strict,
            outcomes,
        }
    }

    #[test]
    fn rules_take_the_worst_verdict_and_strongest_grade() {
        let report = report(
            false,
            vec![
                outcome("a", &["R10", "R2"], Grade::Should, Verdict::Pass),
                outcome("b", &["R2"], Grade::Must, Verdict::Fail),
                outcome("c", &["R10"], Grade::Informational, Verdict::Skip),
            ],
        );
        let rules = report.rules();
        assert_eq!(
            rules,
            vec![
                RuleLine {
                    rule: "R2".into(),
                    verdict: Verdict::Fail,
                    grade: Grade::Must,
                    scenarios: 2
                },
                RuleLine {
                    rule: "R10".into(),
                    verdict: Verdict::Pass,
                    grade: Grade::Should,
                    scenarios: 2
                },
            ]
        );
        assert!(!report.passed());
    }

    #[test]
    fn should_failures_fail_only_when_strict() {
        let outcomes = vec![outcome("a", &["R1"], Grade::Should, Verdict::Fail)];
        assert!(report(false, outcomes.clone()).passed());
        assert!(!report(true, outcomes).passed());
        assert!(report(
            true,
            vec![outcome("i", &["R1"], Grade::Informational, Verdict::Fail)]
        )
        .passed());
    }

    #[test]
    fn junit_escapes_and_counts() {
        let xml = report(
            false,
            vec![
                outcome("a", &["R1"], Grade::Must, Verdict::Pass),
                outcome("b", &["R2"], Grade::Must, Verdict::Fail),
                outcome("c", &["R3"], Grade::Must, Verdict::Skip),
            ],
        )
        .junit();
        assert!(xml.contains("<testsuites name=\"streamspec\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"4.500\">"));
        assert!(xml.contains("<failure message=\"expected 1, found &lt;2&gt; &amp; &quot;3&quot;\" type=\"Fail\"></failure>"));
        assert!(xml.contains("<skipped message="));
        assert!(xml.ends_with("</testsuites>\n"));
    }
}
