//! What a scenario needs of a target before its first step: the requirements it states, and the
//! group configs it sets.

use streamspec_protocol::codes::ErrorCode;

use crate::backend::{Backend, BackendError, BackendResult};
use crate::scenario::{listed_baseline_group_configs, Profile, Scenario, Step};

/// Why `scenario` cannot run on `target` under `profile`, found without changing anything on the
/// target: a behaviour profile it does not state, API versions, group size, broker configs.
pub async fn unmet_requirement<B: Backend>(
    scenario: &Scenario,
    target: &mut B,
    profile: Profile,
) -> BackendResult<Option<String>> {
    let profiles = &scenario.requires.profiles;
    if !profiles.is_empty() && !profiles.contains(&profile) {
        let named: Vec<String> = profiles.iter().map(Profile::to_string).collect();
        return Ok(Some(format!(
            "states the behaviour of {}; this run expects {} (--expect)",
            named.join(" and "),
            profile
        )));
    }
    if let Some(needed) = scenario.requires.heartbeat_version {
        if target.heartbeat_version() < needed {
            return Ok(Some(format!(
                "needs StreamsGroupHeartbeat v{needed}; the target speaks v{}",
                target.heartbeat_version()
            )));
        }
    }
    for (index, step) in scenario.steps.iter().enumerate() {
        let pinned = match step {
            Step::Heartbeat { request, .. } => request
                .version
                .map(|v| (v, "StreamsGroupHeartbeat", target.heartbeat_version())),
            Step::Describe { request, .. } => request
                .version
                .map(|v| (v, "StreamsGroupDescribe", target.describe_version())),
            _ => None,
        };
        if let Some((version, api, offered)) = pinned.filter(|(v, _, offered)| v > offered) {
            return Ok(Some(format!(
                "step {} sends {api} v{version}; the target speaks v{offered}",
                index + 1
            )));
        }
    }
    if let Some(most) = scenario.requires.max_heartbeat_version {
        if target.heartbeat_version() > most {
            return Ok(Some(format!(
                "describes brokers that speak StreamsGroupHeartbeat v{most} at most; the target speaks v{}",
                target.heartbeat_version()
            )));
        }
    }
    // A broker that caps group size cannot hold a scenario's members; a scenario about that
    // cap names the config among its requirements instead.
    const MAX_SIZE: &str = "group.streams.max.size";
    let members = scenario.joining_members();
    if members > 1 && !scenario.requires.broker_configs.contains_key(MAX_SIZE) {
        let found = target.broker_configs(&[MAX_SIZE.to_owned()]).await?;
        if let Some(max) = found[0].as_deref().and_then(|v| v.parse::<usize>().ok()) {
            if max < members {
                return Ok(Some(format!(
                    "joins {members} members; the target's {MAX_SIZE} is {max}"
                )));
            }
        }
    }
    if !scenario.requires.broker_configs.is_empty() {
        let (names, wanted): (Vec<String>, Vec<String>) =
            scenario.requires.broker_configs.clone().into_iter().unzip();
        let found = target.broker_configs(&names).await?;
        // Every unmet one, so that fixing the first does not only reveal the next.
        let unmet: Vec<(&String, &String, &str)> = names
            .iter()
            .zip(&wanted)
            .zip(&found)
            .filter(|((_, wanted), found)| found.as_deref() != Some(wanted.as_str()))
            .map(|((name, wanted), found)| {
                let has = found.as_deref().filter(|value| !value.is_empty());
                (name, wanted, has.unwrap_or("none"))
            })
            .collect();
        match unmet.as_slice() {
            [] => {}
            [(name, wanted, has)] => {
                return Ok(Some(format!(
                    "needs broker config {name}={wanted}; the target has {has}"
                )))
            }
            several => {
                let listed: Vec<String> = several
                    .iter()
                    .map(|(name, wanted, has)| format!("{name}={wanted} (it has {has})"))
                    .collect();
                return Ok(Some(format!("needs broker configs {}", listed.join(", "))));
            }
        }
    }
    Ok(None)
}

/// What became of a scenario's group configs before its first step.
#[derive(Debug)]
pub enum InitialGroupConfigs {
    /// They were set (none where the target knows none of the baseline).
    Set,
    /// The scenario cannot run, for this reason.
    Unmet(String),
}

/// Sets the scenario's group configs before its first step (spec 9.2), with those its leading
/// `group_config` steps set, so that a target refusing one (a broker capping standbys refuses
/// `streams.num.standby.replicas=1`) skips the scenario, saying why, instead of failing its first
/// step; the scenario cannot run where the target refuses one the scenario asks for. A baseline config the target does not
/// list among its group configs is left alone: the target has no such delay. (Kafka 4.4.0 does
/// not list every config it takes, e.g. `streams.num.warmup.replicas`, so the list only decides
/// about the baseline.) The names of the configs it sets go to `configured` before the request,
/// so that they are taken back even when it is cut short.
pub async fn set_initial_group_configs<B: Backend>(
    target: &mut B,
    scenario: &Scenario,
    group: &str,
    configured: &mut Vec<String>,
) -> BackendResult<InitialGroupConfigs> {
    let known = match target.group_config_names(group).await {
        Ok(names) => names,
        // A target without group configs knows none of them.
        Err(BackendError::Refused { .. } | BackendError::Unsupported { .. }) => Vec::new(),
        Err(error) => return Err(error),
    };
    let needed = scenario.group_configs_before_first_exchange();
    let mut configs = listed_baseline_group_configs(&known);
    configs.retain(|(name, _)| !needed.contains_key(name));
    configs.extend(needed);
    if configs.is_empty() {
        return Ok(InitialGroupConfigs::Set);
    }
    configured.extend(configs.iter().map(|(name, _)| name.clone()));
    match target.set_group_configs(group, &configs).await {
        Ok(()) => Ok(InitialGroupConfigs::Set),
        Err(BackendError::Unsupported { operation }) => {
            configured.clear();
            Ok(InitialGroupConfigs::Unmet(format!(
                "the scenario sets group configs; the target cannot {operation}"
            )))
        }
        Err(BackendError::Refused {
            error_code,
            message,
            ..
        }) => {
            configured.clear();
            let wanted: Vec<String> = configs
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            Ok(InitialGroupConfigs::Unmet(format!(
                "the target refuses the group configs the scenario needs: {}{}; they are {}",
                ErrorCode(error_code),
                message.map(|text| format!(" ({text})")).unwrap_or_default(),
                wanted.join(", "),
            )))
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::backend::block_on;
    use crate::embedded::EmbeddedTarget;

    #[test]
    fn every_unmet_broker_config_is_named() {
        let scenario = crate::scenario::parse(
            "configs.json",
            r#"{"name": "configs", "title": "t", "rules": ["R41"], "grade": "MUST",
                "requires": {"broker_configs": {"group.streams.max.size": "2",
                  "group.streams.max.standby.replicas": "0", "authorizer.class.name": ""}},
                "topics": [{"name": "in", "partitions": 2}],
                "steps": [{"heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 0}}]}"#,
        )
        .unwrap();
        let mut target = EmbeddedTarget::default();
        let reason = block_on(unmet_requirement(&scenario, &mut target, Profile::Kafka44));
        assert_eq!(
            reason.unwrap().as_deref(),
            Some("needs broker configs group.streams.max.size=2 (it has 2147483647), group.streams.max.standby.replicas=0 (it has 2)")
        );
    }

    #[test]
    fn a_refused_group_config_of_a_leading_step_skips_the_scenario_saying_why() {
        let scenario = crate::scenario::parse(
            "standby.json",
            r#"{"name": "standby", "title": "t", "rules": ["R41"], "grade": "MUST",
                "topics": [{"name": "in", "partitions": 2}],
                "steps": [
                  {"group_config": {"streams.num.standby.replicas": "1"}},
                  {"heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 0}}]}"#,
        )
        .unwrap();
        assert_eq!(
            scenario.group_configs_before_first_exchange(),
            BTreeMap::from([("streams.num.standby.replicas".to_owned(), "1".to_owned())])
        );
        // A broker that caps standbys at 0 refuses it before the first step.
        let mut capped =
            EmbeddedTarget::with_broker_configs([("group.streams.max.standby.replicas", "0")]);
        let mut configured = Vec::new();
        let answer = block_on(set_initial_group_configs(
            &mut capped,
            &scenario,
            "g",
            &mut configured,
        ));
        let Ok(InitialGroupConfigs::Unmet(reason)) = answer else {
            panic!("the capped target should refuse: {answer:?}");
        };
        assert_eq!(
            reason,
            "the target refuses the group configs the scenario needs: 40 INVALID_CONFIG \
             (streams.num.standby.replicas must be less than or equal to 0); they are \
             streams.initial.rebalance.delay.ms=0, streams.assignment.interval.ms=0, \
             streams.num.standby.replicas=1"
        );
        assert!(configured.is_empty());
        // Where the cap allows it, the configs are set.
        let mut target = EmbeddedTarget::default();
        let answer = block_on(set_initial_group_configs(
            &mut target,
            &scenario,
            "g",
            &mut configured,
        ));
        assert!(matches!(answer, Ok(InitialGroupConfigs::Set)), "{answer:?}");
        assert_eq!(
            configured,
            [
                "streams.initial.rebalance.delay.ms",
                "streams.assignment.interval.ms",
                "streams.num.standby.replicas"
            ]
        );
    }
}
