//! The report for CI systems: JUnit XML.

use std::fmt::Write as _;

use super::{not_counted_because, Report};
use crate::runner::{Outcome, Verdict};

impl Report {
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
            self.elapsed_ms.unwrap_or_else(|| self
                .outcomes
                .iter()
                .map(|outcome| outcome.duration_ms)
                .sum::<u64>()) as f64
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
        if let Some(campaign) = &self.campaign {
            write_campaign_properties(&mut out, campaign);
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
}

/// A campaign's seed and totals, as the JSON report's `campaign` names them (`-` for `_`).
fn write_campaign_properties(out: &mut String, campaign: &crate::campaign::CampaignSummary) {
    let value = serde_json::to_value(campaign).expect("summaries serialize");
    let mut write = |name: &str, value: &serde_json::Value| match value {
        serde_json::Value::Null => {}
        serde_json::Value::String(text) => write_property(out, 6, name, text),
        other => write_property(out, 6, name, &other.to_string()),
    };
    for (name, field) in value.as_object().expect("a summary is an object") {
        match field.as_object() {
            Some(compared) => {
                for (inner, field) in compared {
                    write(&format!("{name}-{inner}").replace('_', "-"), field);
                }
            }
            None => write(&name.replace('_', "-"), field),
        }
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
