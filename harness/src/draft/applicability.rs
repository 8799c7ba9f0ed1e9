//! Which catalogue scenarios apply to the KIP draft: `harness/dialects/kip-draft.json` names
//! each one that does not, with one of its named reasons; every other scenario applies, through
//! the mapping of [`super`].

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// The draft's column of the catalogue.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Applicability {
    /// What the file is.
    pub about: String,
    /// Why a scenario does not apply, by a short name.
    pub reasons: BTreeMap<String, String>,
    /// Scenarios that do not apply, each with the name of its reason.
    pub not_applicable: BTreeMap<String, String>,
}

impl Applicability {
    /// Why `scenario` does not apply to the draft; `None` when it does (or is not in the
    /// catalogue, e.g. a scenario of the user's).
    pub fn reason(&self, scenario: &str) -> Option<String> {
        let reason = self.not_applicable.get(scenario)?;
        Some(format!(
            "does not apply to the KIP draft: {}",
            self.reasons[reason]
        ))
    }
}

/// `harness/dialects/kip-draft.json`, compiled in and checked: every reason named exists.
pub fn applicability() -> &'static Applicability {
    static TABLE: OnceLock<Applicability> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table: Applicability =
            serde_json::from_str(include_str!("../../dialects/kip-draft.json"))
                .unwrap_or_else(|error| panic!("harness/dialects/kip-draft.json: {error}"));
        for (scenario, reason) in &table.not_applicable {
            assert!(
                table.reasons.contains_key(reason),
                "harness/dialects/kip-draft.json: {scenario} names no reason {reason:?}"
            );
        }
        table
    })
}
