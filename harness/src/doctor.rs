//! `streamspec doctor`: what a target offers, what the catalogue needs of it, and which scenarios
//! a `check` would skip there and why, on one screen, before a run.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::backend::{Backend, BackendError, BackendResult, Connect};
use crate::interrupt::Interrupt;
use crate::report::{Console, Report};
use crate::runner::{
    set_initial_group_configs, unmet_requirement, InitialGroupConfigs, Outcome, Verdict,
};
use crate::scenario::{Profile, Scenario, Step};
use streamspec_protocol::codes::{ErrorCode, ERROR_UNSUPPORTED_VERSION};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
};
use streamspec_protocol::WireMessage;

use crate::transport::Connection;
use kafka_protocol::messages::MetadataRequest;

/// The Kafka APIs the harness calls, and what for.
const APIS: [(i16, &str, &str); 14] = [
    (88, "StreamsGroupHeartbeat", "the protocol under test"),
    (89, "StreamsGroupDescribe", "the protocol under test"),
    (18, "ApiVersions", "versions and finalized features"),
    (10, "FindCoordinator", "each group's coordinator"),
    (3, "Metadata", "waiting until topics exist"),
    (19, "CreateTopics", "each scenario's topics"),
    (20, "DeleteTopics", "clean-up"),
    (32, "DescribeConfigs", "broker and group configs"),
    (
        44,
        "IncrementalAlterConfigs",
        "group configs a scenario sets",
    ),
    (37, "CreatePartitions", "topic growth in campaigns"),
    (68, "ConsumerGroupHeartbeat", "R19: a consumer group's id"),
    (29, "DescribeAcls", "authorization scenarios"),
    (30, "CreateAcls", "authorization scenarios"),
    (31, "DeleteAcls", "authorization scenarios"),
];

/// Broker configs that decide what scenarios can run (spec 9.1).
const BROKER_CONFIGS: [&str; 12] = [
    "group.streams.session.timeout.ms",
    "group.streams.min.session.timeout.ms",
    "group.streams.max.session.timeout.ms",
    "group.streams.heartbeat.interval.ms",
    "group.streams.min.heartbeat.interval.ms",
    "group.streams.max.heartbeat.interval.ms",
    "group.streams.initial.rebalance.delay.ms",
    "group.streams.assignment.interval.ms",
    "group.streams.max.size",
    "group.streams.num.standby.replicas",
    "group.streams.max.standby.replicas",
    "authorizer.class.name",
];

/// Refuses, in one line, a broker target that nothing usable listens at: none at all, or one
/// whose Streams protocol cannot be used (see [`streams_unusable`]). Otherwise the connection it
/// checked, whose ApiVersions answer tells what the broker offers.
pub async fn preflight(address: &str, timeout: std::time::Duration) -> Result<Connection, String> {
    let mut connection = Connection::connect(address, timeout)
        .await
        .map_err(|error| error.to_string())?;
    if let Some(reason) = streams_unusable(&mut connection).await {
        return Err(reason);
    }
    missing_api(&connection).map_or(Ok(connection), Err)
}

/// Refuses a `--replication-factor` above the number of brokers the cluster of `connection`
/// has: every topic a run makes would be refused (INVALID_REPLICATION_FACTOR), which read as an
/// error of every scenario rather than as the flag's mistake.
pub async fn refuse_more_replicas_than_brokers(
    connection: &mut Connection,
    replication_factor: i16,
) -> Result<(), String> {
    if replication_factor <= 1 {
        return Ok(());
    }
    let request = MetadataRequest::default()
        .with_allow_auto_topic_creation(false)
        .with_topics(Some(Vec::new()));
    let brokers = connection
        .call_kafka(12, &request, "Metadata")
        .await
        .map_err(|error| error.to_string())?
        .brokers
        .len();
    if brokers >= usize::from(replication_factor.unsigned_abs()) {
        return Ok(());
    }
    Err(format!(
        "--replication-factor {replication_factor}: the cluster of {} has {}, and a topic cannot have more replicas than there are brokers; give {}-1 for the broker's default",
        connection.address(),
        crate::report::plural(brokers, "broker"),
        match brokers {
            0 => String::new(),
            1 => "--replication-factor 1, or ".to_owned(),
            count => format!("--replication-factor {count} or less, or "),
        }
    ))
}

/// The APIs every run calls, whatever its scenarios (keys of [`APIS`]).
const NEEDED_BY_EVERY_RUN: [i16; 6] = [10, 3, 19, 20, 32, 44];

/// Why no run can be carried out at the broker of `connection`, if it lacks an API every run
/// calls: a request it does not offer would only be seen as the target closing the connection,
/// and read as a target that stopped answering.
fn missing_api(connection: &Connection) -> Option<String> {
    missing_apis(connection).into_iter().next()
}

/// A line for each API every run calls that the broker of `connection` does not offer.
fn missing_apis(connection: &Connection) -> Vec<String> {
    APIS.iter()
        .filter(|(key, ..)| NEEDED_BY_EVERY_RUN.contains(key))
        .filter(|(key, ..)| connection.versions(*key).is_none())
        .map(|(key, name, what)| {
            format!(
                "{} does not offer {name} (api key {key}), which every run calls ({what})",
                connection.address()
            )
        })
        .collect()
}

/// A hint for a run whose `--expect` does not fit the StreamsGroupHeartbeat versions the broker
/// of `connection` offers (from the preflight): a release of v0 alone (`kafka-4.2`, `kafka-4.3`)
/// expected of a broker that speaks v1, or Kafka 4.4 (the default) of one that speaks v0 alone.
/// Either way the scenarios of the other release's behaviour fail there, as they should, and the
/// flag is the likelier mistake.
pub fn expectation_hint(connection: &Connection, profile: Profile) -> Option<String> {
    let offered = connection.versions(StreamsGroupHeartbeatRequest::API_KEY)?;
    let address = connection.address();
    match (profile, offered.max) {
        (Profile::Kafka44, 0) => Some(format!(
            "hint: {address} speaks StreamsGroupHeartbeat v0 alone, as Kafka 4.2 and 4.3 do, and --expect {profile} (the default) states Kafka 4.4's behaviour: its scenarios of 4.4 behaviour will fail there; give --expect kafka-4.3 or kafka-4.2 to check it as such a release"
        )),
        (Profile::Kafka44, _) | (_, 0) => None,
        _ => Some(format!(
            "hint: --expect {profile} states the behaviour of a broker that speaks StreamsGroupHeartbeat v0 alone, and {address} speaks v{} to v{} (Kafka 4.4 speaks v1): its scenarios that need v0 alone will fail; leave --expect out for Kafka 4.4",
            offered.min,
            offered.max
        )),
    }
}

/// Why the broker of `connection` cannot be checked as a target of the KIP draft's dialect
/// (`--dialect kip-draft`), if it cannot: a draft heartbeat that cannot be valid (no member id,
/// epoch 5, so that no group is made) gets no answer the draft's schema reads. Kafka 4.x reads
/// such a request as malformed and closes the connection, which a run would only see as a target
/// that stopped answering.
pub async fn draft_unspoken(connection: &mut Connection) -> Option<String> {
    use streamspec_protocol::kip_draft;
    let request = kip_draft::StreamsGroupHeartbeatRequest::default()
        .with_group_id("streamspec-preflight")
        .with_member_epoch(5);
    let body = request
        .encode_to_vec(0)
        .expect("the draft's heartbeat encodes at v0");
    let answer = connection
        .call_streams(
            88,
            0,
            &body,
            "StreamsGroupHeartbeat in the KIP draft's dialect",
        )
        .await;
    let unread = match answer {
        Ok(bytes) => kip_draft::StreamsGroupHeartbeatResponse::decode_exact(&bytes, 0)
            .err()
            .map(|error| format!("answered bytes the draft's schema does not read ({error})")),
        Err(error) => Some(error.to_string()),
    };
    unread.map(|why| {
        format!(
            "{} does not speak the KIP draft's dialect of StreamsGroupHeartbeat (--dialect kip-draft): to a draft heartbeat, {why}; leave --dialect out for a broker that speaks Kafka's released schema (as Kafka 4.x does), or put `streamspec proxy --dialect kip-draft` in front of it",
            connection.address()
        )
    })
}

/// Why the Streams protocol cannot be used at all at the broker of `connection`, if it cannot:
/// from its ApiVersions answer, then from a StreamsGroupDescribe of a group nobody uses.
pub async fn streams_unusable(connection: &mut Connection) -> Option<String> {
    if let Some(reason) = streams_unusable_by_versions(connection) {
        return Some(reason);
    }
    // Kafka 4.4.0 with the feature on but `streams` left out of
    // group.coordinator.rebalance.protocols advertises 88 and 89 and answers every request of
    // theirs UNSUPPORTED_VERSION, before looking at the group. An answer that does not come or
    // does not decode is left for the run to judge.
    let version = connection.negotiate::<StreamsGroupDescribeRequest>().ok()?;
    let request = StreamsGroupDescribeRequest::default()
        .with_group_ids(vec!["streamspec-preflight".to_owned()]);
    let body = request.encode_to_vec(version).ok()?;
    let answer = connection
        .call_streams(89, version, &body, "StreamsGroupDescribe")
        .await
        .ok()?;
    let response = StreamsGroupDescribeResponse::decode_exact(&answer, version).ok()?;
    let code = response.groups.first()?.error_code;
    (code == ERROR_UNSUPPORTED_VERSION).then(|| {
        format!(
            "{} has the Streams rebalance protocol off: it answers StreamsGroupDescribe {} (on Kafka, group.coordinator.rebalance.protocols must include streams)",
            connection.address(),
            ErrorCode(code)
        )
    })
}

/// Why the Streams protocol cannot be used at all at a broker whose ApiVersions answer is
/// `connection`'s, if it cannot.
fn streams_unusable_by_versions(connection: &Connection) -> Option<String> {
    let address = connection.address();
    for key in [88, 89] {
        if connection.versions(key).is_none() {
            return Some(format!(
                "{address} does not offer api key {key}: is the Streams rebalance protocol enabled?"
            ));
        }
    }
    // Kafka 4.4.0 advertises 88 and 89 even when the feature is off, and then answers every
    // request UNSUPPORTED_VERSION (open question 3); a broker that reports features tells.
    if connection.feature_level("metadata.version").is_some() {
        let level = connection.feature_level("streams.version").unwrap_or(0);
        if level < 1 {
            return Some(format!(
                "{address} has the Streams rebalance protocol off: its finalized feature streams.version is {level} (needs 1)"
            ));
        }
    }
    None
}

/// What `doctor` found, and whether a `check` can run anything.
#[derive(Debug)]
pub struct Diagnosis {
    pub text: String,
    /// Scenarios a `check` would run.
    pub runnable: usize,
    /// Interrupted (Ctrl-C) before every scenario was looked at; what was tried is taken back.
    pub interrupted: bool,
}

/// Where `doctor` looks: a broker, whose ApiVersions answer it lists first, or a backend in
/// process.
#[derive(Debug)]
pub enum Surroundings<'a> {
    /// With why its Streams protocol cannot be used, if it cannot ([`streams_unusable`]).
    Broker(&'a Connection, Option<String>),
    /// What the backend is, in a line.
    InProcess(&'a str),
}

/// Looks at `connector`'s target and plans `scenarios` on it under `profile`, changing nothing
/// that outlasts the look: group configs tried on a throwaway group are taken back.
pub async fn diagnose<C: Connect>(
    connector: &C,
    surroundings: Surroundings<'_>,
    scenarios: &[Scenario],
    profile: Profile,
    run_id: &str,
    console: Console,
    interrupt: &Interrupt,
) -> BackendResult<Diagnosis> {
    let mut text = format!("streamspec doctor --target {}\n", connector.name());
    let mut no_consumer_groups = None;
    match surroundings {
        Surroundings::Broker(connection, unusable) => {
            describe_apis(&mut text, connection);
            if let Some(hint) = expectation_hint(connection, profile) {
                writeln!(text, "{hint}").unwrap();
            }
            if let Some(reason) = unusable {
                writeln!(text, "\nno scenario can run: {reason}").unwrap();
                return Ok(Diagnosis {
                    text,
                    runnable: 0,
                    interrupted: false,
                });
            }
            // The preflight of check, fuzz and replay refuses such a broker, and what follows
            // would call the missing API itself.
            let missing = missing_apis(connection);
            if !missing.is_empty() {
                writeln!(
                    text,
                    "\nno scenario can run: check, fuzz and replay refuse this broker before anything runs:"
                )
                .unwrap();
                for reason in missing {
                    writeln!(text, "  {reason}").unwrap();
                }
                return Ok(Diagnosis {
                    text,
                    runnable: 0,
                    interrupted: false,
                });
            }
            no_consumer_groups = crate::kafka::consumer_groups_unsupported(connection);
        }
        Surroundings::InProcess(what) => writeln!(text, "\n{what}").unwrap(),
    }
    let group = format!("streamspec-doctor-{run_id}");
    let mut target = connector.open(&group, &BTreeMap::new()).await?;
    let names: Vec<String> = BROKER_CONFIGS
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    let values = target.broker_configs(&names).await?;
    writeln!(text, "\nbroker configs of the group coordinator:").unwrap();
    for (name, value) in names.iter().zip(&values) {
        let value = match value.as_deref() {
            None => "(not reported)",
            Some("") => "(none)",
            Some(value) => value,
        };
        writeln!(text, "  {name:<44} {value}").unwrap();
    }
    let mut known: Vec<String> = target
        .group_config_names(&group)
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|name| name.starts_with("streams."))
        .collect();
    known.sort();
    writeln!(
        text,
        "streams group configs it lists: {}",
        if known.is_empty() {
            "none".to_owned()
        } else {
            known.join(", ")
        }
    )
    .unwrap();

    let outcomes = plan(
        connector,
        scenarios,
        profile,
        &group,
        no_consumer_groups.as_ref(),
        interrupt,
    )
    .await?;
    if outcomes.len() < scenarios.len() {
        writeln!(
            text,
            "\ninterrupted: {} of {} scenarios looked at; the group configs tried on {group} were taken back",
            outcomes.len(),
            scenarios.len()
        )
        .unwrap();
        return Ok(Diagnosis {
            text,
            runnable: 0,
            interrupted: true,
        });
    }
    let runnable = outcomes
        .iter()
        .filter(|o| o.verdict != Verdict::Skip)
        .count();
    writeln!(
        text,
        "\nthe catalogue under --expect {profile}: {} scenario{}, {runnable} would run, {} would be skipped",
        outcomes.len(),
        if outcomes.len() == 1 { "" } else { "s" },
        outcomes.len() - runnable
    )
    .unwrap();
    let report = Report::new(
        "doctor",
        connector.name(),
        run_id.to_owned(),
        false,
        outcomes,
    );
    text.push_str(&report.skips(console));
    Ok(Diagnosis {
        text,
        runnable,
        interrupted: false,
    })
}

/// A line per API the harness calls: what the target offers, and what it is for.
fn describe_apis(text: &mut String, connection: &Connection) {
    writeln!(text, "\nAPIs the harness calls (offered versions):").unwrap();
    for (key, name, purpose) in APIS {
        let offered = match connection.versions(key) {
            Some(span) => format!("v{}-{}", span.min, span.max),
            None => "MISSING".to_owned(),
        };
        writeln!(text, "  {name:<24} {key:>3}  {offered:<8} {purpose}").unwrap();
    }
    let features: Vec<String> = ["metadata.version", "streams.version", "group.version"]
        .iter()
        .filter_map(|name| {
            connection
                .feature_level(name)
                .map(|level| format!("{name} {level}"))
        })
        .collect();
    writeln!(
        text,
        "finalized features: {}",
        if features.is_empty() {
            "none reported".to_owned()
        } else {
            features.join(", ")
        }
    )
    .unwrap();
}

/// Each scenario as a `check` would find it before its first step: skipped with the reason, or
/// to run. The target is opened for each as `check` opens it (the reference in process starts
/// with the broker configs a scenario asks for); the group configs a scenario needs are tried
/// on a throwaway group and taken back. A scenario with a `consumer_group` step is skipped
/// with `no_consumer_groups`, as `check` skips it at that step. Stops at `interrupt`, with the
/// outcomes of the scenarios looked at.
async fn plan<C: Connect>(
    connector: &C,
    scenarios: &[Scenario],
    profile: Profile,
    group: &str,
    no_consumer_groups: Option<&BackendError>,
    interrupt: &Interrupt,
) -> BackendResult<Vec<Outcome>> {
    // The baseline is the same for every scenario: the scenario's own configs decide.
    let mut tried: BTreeMap<BTreeMap<String, String>, Option<String>> = BTreeMap::new();
    let mut outcomes = Vec::new();
    for scenario in scenarios {
        // Between scenarios, where no group config is left set.
        if interrupt.is_raised() {
            break;
        }
        // What the connector itself rules out (a dialect's inapplicable scenarios), as check does.
        if let Some(reason) = connector.skips(scenario) {
            outcomes.push(Outcome {
                verdict: Verdict::Skip,
                reason: Some(reason),
                ..Outcome::of(scenario)
            });
            continue;
        }
        let broker_configs = &scenario.requires.broker_configs;
        let target = &mut connector.open(group, broker_configs).await?;
        let mut reason = unmet_requirement(scenario, target, profile).await?;
        if reason.is_none() {
            let configs = scenario.group_configs_before_first_exchange();
            reason = match tried.get(&configs) {
                Some(known) => known.clone(),
                None => {
                    let mut set = Vec::new();
                    let answer = set_initial_group_configs(target, scenario, group, &mut set).await;
                    if !set.is_empty() {
                        target.delete_group_configs(group, &set).await?;
                    }
                    let found = match answer? {
                        InitialGroupConfigs::Set => None,
                        InitialGroupConfigs::Unmet(reason) => Some(reason),
                    };
                    tried.insert(configs, found.clone());
                    found
                }
            };
        }
        if reason.is_none() {
            let makes_a_consumer_group = scenario
                .steps
                .iter()
                .any(|step| matches!(step, Step::ConsumerGroup { .. }));
            reason = no_consumer_groups
                .filter(|_| makes_a_consumer_group)
                .map(ToString::to_string);
        }
        let mut outcome = Outcome::of(scenario);
        if let Some(reason) = reason {
            outcome.verdict = Verdict::Skip;
            outcome.reason = Some(reason);
        }
        outcomes.push(outcome);
    }
    Ok(outcomes)
}
