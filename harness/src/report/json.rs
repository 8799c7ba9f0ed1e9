//! The report for tools: JSON.

use std::collections::BTreeMap;

use super::{Report, RunVerdict};
use crate::runner::Verdict;

impl Report {
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

    pub fn json(&self) -> String {
        let verdict = self.verdict();
        let mut value = serde_json::json!({
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
            "timeline": self.timeline,
            "stopped_early": self.stopped_early,
            "target_lost": self.target_lost,
            "warnings": self.warnings,
        });
        if let Some(campaign) = &self.campaign {
            value["campaign"] = serde_json::to_value(campaign).expect("summaries serialize");
        }
        serde_json::to_string_pretty(&value).expect("reports serialize")
    }
}
