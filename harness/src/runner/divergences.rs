//! Known divergences: the scenarios a target is known to fail, with the reason and the evidence,
//! and how they turn those failures into `divergent`.

use serde::Serialize;

use super::{Outcome, Verdict};

/// A known, explained difference between a target and Kafka: the scenario is expected to fail
/// there. Ours are kept in `harness/divergences.json`; a vendor keeps theirs in a file of the same
/// form (`check --divergences FILE`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Divergence {
    /// The scenario that fails; empty for a divergence of answers (`field`).
    #[serde(default)]
    pub scenario: String,
    /// For a differential run (`--differential`): the answer field where the target differs
    /// from the reference (`.errorCode`, `.activeTasks[].partitions`), matched with `rules`
    /// against the first differing field and the rules it is cited by; the scenario is then
    /// left empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// With `field`: the target's and the reference's values there as JSON (`-1`), where the
    /// divergence is only one pair of values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_value: Option<String>,
    /// With `field`: the state of the reference's group the divergence needs, where the field
    /// and rule alone would also match differences that are not this divergence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    pub rules: Vec<String>,
    /// `embedded`, or a HOST:PORT; absent for whatever target the run checks.
    #[serde(default)]
    pub target: Option<String>,
    pub reason: String,
    pub evidence: String,
    /// The file it came from.
    #[serde(skip)]
    pub source: String,
}

impl Divergence {
    /// Whether it holds for `target`: it names no target, or names this one, however its host is
    /// written (host names without case; `localhost`, `127.x.x.x` and `[::1]` as one loopback).
    pub fn applies_to(&self, target: &str) -> bool {
        self.target
            .as_deref()
            .is_none_or(|named| target_key(named) == target_key(target))
    }

    /// Whether it names the same target as `other` (or neither names one), as
    /// [`Divergence::applies_to`] compares them.
    pub fn names_the_target_of(&self, other: &Divergence) -> bool {
        match (&self.target, &other.target) {
            (None, None) => true,
            (Some(mine), Some(theirs)) => target_key(mine) == target_key(theirs),
            _ => false,
        }
    }
}

/// A target as compared: `embedded` as it is, HOST:PORT with its host in one spelling.
fn target_key(target: &str) -> (String, &str) {
    let Some((host, port)) = target.rsplit_once(':') else {
        return (target.to_ascii_lowercase(), "");
    };
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback());
    (
        if loopback {
            "loopback".to_owned()
        } else {
            host
        },
        port,
    )
}

/// For each file of `divergences` whose entries all name targets other than `target`, a warning
/// that none of them applied: a file recorded against the same broker under another address
/// would otherwise waive nothing without a word.
pub fn divergences_for_other_targets(divergences: &[Divergence], target: &str) -> Vec<String> {
    let mut sources: Vec<&str> = divergences.iter().map(|d| d.source.as_str()).collect();
    sources.dedup();
    sources
        .into_iter()
        .filter(|source| *source != BUILT_IN_DIVERGENCES)
        .filter_map(|source| {
            let of_file: Vec<&Divergence> =
                divergences.iter().filter(|d| d.source == source).collect();
            if of_file.iter().any(|d| d.applies_to(target)) {
                return None;
            }
            let mut named: Vec<&str> = of_file.iter().filter_map(|d| d.target.as_deref()).collect();
            named.sort_unstable();
            named.dedup();
            let (entries, they) = match of_file.len() {
                1 => ("the divergence".to_owned(), "it names"),
                count => (format!("the {count} divergences"), "they name"),
            };
            Some(format!(
                "{entries} in {source} did not apply: {they} {}, not {target}",
                named.join(", ")
            ))
        })
        .collect()
}

/// A state of the reference's group a divergence of answers is matched in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    /// The group holds or gave up a configuration a refused heartbeat kept (R40), one of whose
    /// topics was deleted since, where Kafka goes on with it (R33).
    KeptConfigurationOfDeletedTopic,
}

const BUILT_IN_DIVERGENCES: &str = "harness/divergences.json";

/// The divergences recorded for the reference coordinator and other targets.
pub fn divergences() -> Vec<Divergence> {
    parse_divergences(BUILT_IN_DIVERGENCES, include_str!("../../divergences.json"))
        .expect("harness/divergences.json is valid")
}

/// Reads a file of divergences; an error names the file, line and column.
pub fn load_divergences(path: &std::path::Path) -> Result<Vec<Divergence>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    parse_divergences(&path.display().to_string(), &text)
}

fn parse_divergences(source: &str, text: &str) -> Result<Vec<Divergence>, String> {
    let mut divergences: Vec<Divergence> = serde_json::from_str(text).map_err(|error| {
        let position = format!(" at line {} column {}", error.line(), error.column());
        let message = error.to_string();
        format!(
            "{source}:{}:{}: not a list of divergences: {}",
            error.line(),
            error.column(),
            message.strip_suffix(&position).unwrap_or(&message)
        )
    })?;
    for divergence in &mut divergences {
        divergence.source = source.to_owned();
        if divergence.scenario.is_empty() == divergence.field.is_none() {
            return Err(format!(
                "{source}: a divergence names either a scenario or a field (of a differential run), not {}",
                if divergence.field.is_none() { "neither" } else { "both" }
            ));
        }
        if let Some(field) = &divergence.field {
            check_divergence_of_answers(source, field, divergence)?;
        }
        if divergence.condition.is_some() && divergence.field.is_none() {
            return Err(format!(
                "{source}: the divergence of scenario {} has a condition, which only a divergence of answers (field) has",
                divergence.scenario
            ));
        }
    }
    Ok(divergences)
}

/// Refuses a divergence of answers (`field`) that could never match what a differential run
/// reports: a field no answer has, a rule nothing cites, rules none of which a difference first
/// at the field is cited under, a value that is not JSON. Each would waive nothing, silently.
fn check_divergence_of_answers(
    source: &str,
    field: &str,
    divergence: &Divergence,
) -> Result<(), String> {
    if !crate::scenario::answer_has_field(field) {
        return Err(format!(
            "{source}: the divergence of answers names the field {field:?}, which no answer has (a path as a differential run reports it, e.g. .errorCode or .activeTasks[].partitions)"
        ));
    }
    if let Some(rule) = divergence.rules.iter().find(|rule| !is_cited_rule(rule)) {
        return Err(format!(
            "{source}: the divergence of answers for {field} names the rule {rule:?}, which neither a scenario of the catalogue nor a differential run cites"
        ));
    }
    let (own, others) = crate::differential::compare::rules_citable_with(field);
    if !divergence
        .rules
        .iter()
        .any(|rule| own.contains(rule.as_str()) || others.contains(rule.as_str()))
    {
        let listed = |rules: &std::collections::BTreeSet<&str>| {
            let mut rules: Vec<&str> = rules.iter().copied().collect();
            rules.sort_by_key(|rule| crate::scenario::rule_order(rule));
            rules.join(", ")
        };
        return Err(format!(
            "{source}: the divergence of answers for {field} names {} {}, under none of which a differential run cites a difference there: it cites {field} under {}, and the fields that may differ after it under {}",
            if divergence.rules.len() == 1 { "the rule" } else { "the rules" },
            divergence.rules.join(", "),
            listed(&own),
            listed(&others)
        ));
    }
    for (name, value) in [
        ("target_value", &divergence.target_value),
        ("reference_value", &divergence.reference_value),
    ] {
        if let Some(value) = value {
            if serde_json::from_str::<serde_json::Value>(value).is_err() {
                return Err(format!(
                    "{source}: the divergence of answers for {field} has {name} {value:?}, which is not a JSON value (write -1, \"text\" or [0,1])"
                ));
            }
        }
    }
    Ok(())
}

/// Whether `rule` is one a differential run can cite: a rule of the catalogue's scenarios, or a
/// section of the spec (`spec 7.6`).
fn is_cited_rule(rule: &str) -> bool {
    static CATALOGUE_RULES: std::sync::OnceLock<std::collections::BTreeSet<String>> =
        std::sync::OnceLock::new();
    let section = rule.strip_prefix("spec ").is_some_and(|number| {
        !number.is_empty()
            && number
                .split('.')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    });
    section
        || CATALOGUE_RULES
            .get_or_init(|| {
                crate::scenario::catalogue()
                    .into_iter()
                    .flat_map(|scenario| scenario.rules)
                    .collect()
            })
            .contains(rule)
}

/// Marks the failures a recorded divergence explains, and fails a recorded divergence that no
/// longer fires, so that the list stays true.
pub fn apply_divergences(outcomes: &mut [Outcome], target: &str, divergences: &[Divergence]) {
    let applies = |d: &&Divergence| d.applies_to(target);
    let of_scenarios = |d: &&Divergence| d.field.is_none();
    for divergence in divergences.iter().filter(applies).filter(of_scenarios) {
        let Some(outcome) = outcomes
            .iter_mut()
            .find(|o| o.scenario == divergence.scenario)
        else {
            continue;
        };
        match outcome.verdict {
            Verdict::Fail | Verdict::Error | Verdict::Timeout => {
                outcome.verdict = Verdict::Divergent;
                outcome.reason = Some(format!("known divergence: {}", divergence.reason));
                outcome.wire = None;
            }
            Verdict::Pass => {
                outcome.verdict = Verdict::Fail;
                outcome.stale_divergence = true;
                outcome.reason = Some(format!(
                    "a divergence recorded in {} no longer fires: remove it",
                    divergence.source
                ));
            }
            // The divergent behaviour was never reached: whether it still fires is unknown.
            Verdict::Skip | Verdict::Divergent | Verdict::PreconditionNotMet => {}
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(scenario: &str, verdict: Verdict) -> Outcome {
        Outcome {
            scenario: scenario.to_owned(),
            title: String::new(),
            rules: vec!["R46".to_owned()],
            grade: crate::scenario::Grade::Informational,
            source: String::new(),
            verdict,
            reason: None,
            step: Some(1),
            wire: Some("bytes".to_owned()),
            cleanup: None,
            mismatch: None,
            exchanges: Vec::new(),
            duration_ms: 0,
            stale_divergence: false,
        }
    }

    /// A divergence of scenario `s` recorded in mine.json for `target`.
    fn divergence(target: Option<&str>) -> Divergence {
        Divergence {
            scenario: "s".to_owned(),
            field: None,
            target_value: None,
            reference_value: None,
            condition: None,
            rules: vec!["R46".to_owned()],
            target: target.map(str::to_owned),
            reason: "why".to_owned(),
            evidence: "how we know".to_owned(),
            source: "mine.json".to_owned(),
        }
    }

    #[test]
    fn a_divergence_explains_its_failure_and_fails_when_it_no_longer_fires() {
        let divergence = divergence(Some("embedded"));
        let mut outcomes = vec![outcome("s", Verdict::Fail), outcome("t", Verdict::Fail)];
        apply_divergences(&mut outcomes, "embedded", std::slice::from_ref(&divergence));
        assert_eq!(
            (outcomes[0].verdict, outcomes[1].verdict),
            (Verdict::Divergent, Verdict::Fail)
        );
        assert_eq!(outcomes[0].reason.as_deref(), Some("known divergence: why"));

        let mut outcomes = vec![outcome("s", Verdict::Fail)];
        let kafka = "h:1";
        apply_divergences(&mut outcomes, kafka, std::slice::from_ref(&divergence));
        assert_eq!(
            outcomes[0].verdict,
            Verdict::Fail,
            "recorded for another target"
        );

        let mut outcomes = vec![outcome("s", Verdict::Pass)];
        apply_divergences(&mut outcomes, "embedded", std::slice::from_ref(&divergence));
        assert_eq!(outcomes[0].verdict, Verdict::Fail);
        assert_eq!(
            outcomes[0].reason.as_deref(),
            Some("a divergence recorded in mine.json no longer fires: remove it")
        );
        // The record is wrong whatever the scenario weighs: an INFORMATIONAL one fails the run.
        assert!(outcomes[0].stale_divergence);
        assert!(crate::report::counts_against_run(&outcomes[0], false));

        // A divergence that names no target holds for every target.
        let anywhere = Divergence {
            target: None,
            ..divergence
        };
        let mut outcomes = vec![outcome("s", Verdict::Fail)];
        apply_divergences(&mut outcomes, kafka, &[anywhere]);
        assert_eq!(outcomes[0].verdict, Verdict::Divergent);
    }

    #[test]
    fn a_divergence_applies_to_its_target_however_the_host_is_written() {
        let divergence = |target: &str| divergence(Some(target));
        let local = divergence("localhost:9296");
        assert!(local.applies_to("127.0.0.1:9296"));
        assert!(local.applies_to("[::1]:9296"));
        assert!(local.applies_to("LocalHost:9296"));
        assert!(!local.applies_to("127.0.0.1:9092"));
        assert!(!local.applies_to("10.0.0.1:9296"));
        assert!(!local.applies_to("embedded"));
        assert!(divergence("Broker.Example:9092").applies_to("broker.example:9092"));
        assert!(!divergence("broker.example:9092").applies_to("other.example:9092"));
        assert!(divergence("embedded").applies_to("embedded"));
        assert!(local.names_the_target_of(&divergence("127.0.0.1:9296")));
        assert!(!local.names_the_target_of(&divergence("127.0.0.1:9297")));

        let file = [divergence("10.0.0.1:9092"), divergence("10.0.0.2:9092")];
        assert_eq!(
            divergences_for_other_targets(&file, "localhost:9092"),
            ["the 2 divergences in mine.json did not apply: they name 10.0.0.1:9092, 10.0.0.2:9092, not localhost:9092"]
        );
        assert!(divergences_for_other_targets(&file, "10.0.0.2:9092").is_empty());
        // Ours name targets of their own and warn of nothing.
        assert!(divergences_for_other_targets(&divergences(), "10.0.0.1:9092").is_empty());
    }

    #[test]
    fn recorded_divergences_name_catalogue_scenarios_and_their_rules() {
        let catalogue = crate::scenario::catalogue();
        for divergence in divergences().into_iter().filter(|d| d.field.is_none()) {
            let scenario = catalogue
                .iter()
                .find(|s| s.name == divergence.scenario)
                .unwrap_or_else(|| panic!("{} is not in the catalogue", divergence.scenario));
            assert_eq!(scenario.rules, divergence.rules, "{}", divergence.scenario);
            assert!(divergence.target.is_some(), "{}", divergence.scenario);
        }
    }

    #[test]
    fn a_divergence_file_that_does_not_parse_is_named_with_its_position() {
        assert_eq!(
            parse_divergences("mine.json", "[{\"scenario\": 1}]").unwrap_err(),
            "mine.json:1:15: not a list of divergences: invalid type: integer `1`, expected a string"
        );
    }

    #[test]
    fn a_divergence_of_answers_that_could_never_match_is_refused() {
        let entry = |field: &str, rules: &str, value: &str| {
            format!(
                r#"[{{"field": "{field}", "rules": [{rules}], "target_value": {value}, "reason": "r", "evidence": "e"}}]"#
            )
        };
        for (text, error) in [
            (
                entry(".errorCod", r#""R46""#, r#""-1""#),
                r#"mine.json: the divergence of answers names the field ".errorCod", which no answer has (a path as a differential run reports it, e.g. .errorCode or .activeTasks[].partitions)"#,
            ),
            (
                entry(".errorCode", r#""R99""#, r#""-1""#),
                r#"mine.json: the divergence of answers for .errorCode names the rule "R99", which neither a scenario of the catalogue nor a differential run cites"#,
            ),
            (
                entry(".heartbeatIntervalMs", r#""R1""#, r#""1000""#),
                r#"mine.json: the divergence of answers for .heartbeatIntervalMs names the rule R1, under none of which a differential run cites a difference there: it cites .heartbeatIntervalMs under R52, spec 7.4, and the fields that may differ after it under R12, R25, R26, R27, R28, R31, R33, R34, R35, R36, R38, R41, R42, R43, R44, R45, R46, R53, spec 5.7, spec 7.1, spec 7.2, spec 7.3, spec 7.6"#,
            ),
            (
                entry(".errorCode", r#""R46""#, r#""minus one""#),
                r#"mine.json: the divergence of answers for .errorCode has target_value "minus one", which is not a JSON value (write -1, "text" or [0,1])"#,
            ),
        ] {
            assert_eq!(parse_divergences("mine.json", &text).unwrap_err(), error);
        }
        for (field, rules) in [
            (".errorCode", r#""R46", "spec 7.6""#),
            (".activeTasks[].partitions", r#""R27""#),
            (".groups[].members[].memberEpoch", r#""R48""#),
            (".status[]", r#""spec 5.7""#),
            // Cited through the statuses that differ after the epoch, as ours is.
            (".memberEpoch", r#""R33", "R40""#),
            (".groups[].groupState", r#""R48""#),
        ] {
            let text = entry(field, rules, r#""-1""#);
            assert!(parse_divergences("mine.json", &text).is_ok(), "{field}");
        }
    }
}
