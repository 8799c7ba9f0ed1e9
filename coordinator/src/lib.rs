//! Sans-IO reference coordinator for the Kafka Streams rebalance protocol, with Apache Kafka
//! 4.4's semantics. Time arrives as an argument (`now_ms`); nothing here reads a clock, does I/O or
//! draws random numbers. Rule ids (`R25`) refer to section 12 of the spec.
//!
//! - [`Coordinator::handle_heartbeat`] and [`Coordinator::handle_describe`] answer requests;
//! - [`Coordinator::next_deadline`] and [`Coordinator::handle_timeout`] drive session and
//!   rebalance timeouts;
//! - [`Coordinator::handle_metadata`] feeds the cluster's topics in; [`Effect`]s come out (internal
//!   topics to create, members removed).

pub mod access;
pub mod assignor;
pub mod fuzzing;
mod group;
mod java_order;
pub mod kip_draft;
pub mod tasks;
pub mod topology;
mod validate;

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};

use access::{Operation, Permissions};
pub use group::Group;
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::streams_group_heartbeat_response::Status;
pub use topology::TopicToCreate;

use streamspec_protocol::codes::{
    ERROR_GROUP_AUTHORIZATION_FAILED, ERROR_GROUP_ID_NOT_FOUND, ERROR_INVALID_REQUEST,
    ERROR_TOPIC_AUTHORIZATION_FAILED, ERROR_UNKNOWN_SERVER_ERROR, STATUS_MISSING_INTERNAL_TOPICS,
};

/// Group settings, with Apache Kafka's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordinatorConfig {
    pub session_timeout_ms: u64,
    /// How long a group that was empty waits before its first assignment (Kafka 4.2+).
    pub initial_rebalance_delay_ms: u64,
    /// The least time between two target assignments of a group (Kafka 4.3+).
    pub assignment_interval_ms: u64,
    pub heartbeat_interval_ms: i32,
    pub max_size: usize,
    pub num_standby_replicas: i32,
    pub acceptable_recovery_lag: i64,
    pub task_offset_interval_ms: i32,
    /// Client tag keys every member should report, for rack-aware standby placement (4.4).
    pub rack_aware_assignment_tags: Vec<String>,
    /// The broker's bounds on the group configs (min, max), and the most standby replicas.
    pub session_timeout_bounds_ms: (u64, u64),
    pub heartbeat_interval_bounds_ms: (u64, u64),
    pub assignment_interval_bounds_ms: (u64, u64),
    pub max_standby_replicas: i32,
    pub max_warmup_replicas: i32,
    pub min_task_offset_interval_ms: i32,
}

impl Default for CoordinatorConfig {
    fn default() -> Self {
        CoordinatorConfig {
            session_timeout_ms: 45_000,
            initial_rebalance_delay_ms: 3_000,
            assignment_interval_ms: 1_000,
            heartbeat_interval_ms: 5_000,
            max_size: i32::MAX as usize,
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            task_offset_interval_ms: 60_000,
            rack_aware_assignment_tags: Vec::new(),
            session_timeout_bounds_ms: (45_000, 60_000),
            heartbeat_interval_bounds_ms: (5_000, 15_000),
            assignment_interval_bounds_ms: (0, 15_000),
            max_standby_replicas: 2,
            max_warmup_replicas: 20,
            min_task_offset_interval_ms: 15_000,
        }
    }
}

/// The cluster's topics and their partition counts, as the coordinator sees them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterMetadata {
    topics: BTreeMap<String, i32>,
}

impl ClusterMetadata {
    pub fn partitions(&self, topic: &str) -> Option<i32> {
        self.topics.get(topic).copied()
    }

    pub fn with_topic(mut self, name: impl Into<String>, partitions: i32) -> Self {
        self.topics.insert(name.into(), partitions);
        self
    }

    pub fn set_topic(&mut self, name: impl Into<String>, partitions: i32) {
        self.topics.insert(name.into(), partitions);
    }

    pub fn remove_topic(&mut self, name: &str) {
        self.topics.remove(name);
    }

    /// A fingerprint of the partition counts of `topics`; a change bumps the group epoch.
    fn hash_of<'a>(&self, topics: impl Iterator<Item = &'a String>) -> Vec<(String, Option<i32>)> {
        topics
            .map(|topic| (topic.clone(), self.partitions(topic)))
            .collect()
    }
}

/// Who sent a request: the client id and host Kafka takes from the connection, and what the
/// broker's authorizer lets its principal do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestContext {
    pub client_id: String,
    pub client_host: String,
    pub permissions: Permissions,
}

impl RequestContext {
    /// A client whose principal may do everything.
    pub fn new(client_id: &str, client_host: &str) -> Self {
        RequestContext {
            client_id: client_id.to_owned(),
            client_host: client_host.to_owned(),
            permissions: Permissions::default(),
        }
    }
}

/// Work for the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Internal topics the cluster should create (the broker does so in Kafka).
    CreateTopics(Vec<TopicToCreate>),
    /// A member was removed by a timeout.
    MemberRemoved {
        group_id: String,
        member_id: String,
        reason: RemovalReason,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemovalReason {
    SessionTimeout,
    RebalanceTimeout,
}

/// The reference coordinator: all groups of one coordinator.
#[derive(Debug, Clone)]
pub struct Coordinator {
    config: CoordinatorConfig,
    metadata: ClusterMetadata,
    groups: BTreeMap<String, Group>,
    /// Group-level configs (Kafka's `IncrementalAlterConfigs` on a GROUP resource).
    group_configs: BTreeMap<String, CoordinatorConfig>,
    /// Consumer groups held beside the streams groups: their ids are taken (R19).
    consumer_groups: BTreeSet<String>,
}

impl Coordinator {
    pub fn new(config: CoordinatorConfig) -> Self {
        Coordinator {
            config,
            metadata: ClusterMetadata::default(),
            groups: BTreeMap::new(),
            group_configs: BTreeMap::new(),
            consumer_groups: BTreeSet::new(),
        }
    }

    /// A consumer group of this coordinator (created by ConsumerGroupHeartbeat in Kafka).
    pub fn add_consumer_group(&mut self, group_id: &str) {
        self.consumer_groups.insert(group_id.to_owned());
    }

    pub fn config(&self) -> &CoordinatorConfig {
        &self.config
    }

    /// Sets group-level configs of `group_id` as Kafka's IncrementalAlterConfigs on a GROUP
    /// resource does: all or nothing, each value within the broker's bounds, and the session
    /// timeout above the heartbeat interval (spec 9.2; messages as Kafka 4.4.0 words them, scenario
    /// R41-group-config-bounds). They apply from the group's next heartbeat; a changed standby
    /// count bumps the group epoch then (spec 3.1).
    pub fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(&str, &str)],
    ) -> Result<(), String> {
        let mut config = self
            .group_configs
            .get(group_id)
            .unwrap_or(&self.config)
            .clone();
        for (name, value) in configs {
            apply_group_config(&mut config, &self.config, name, value)?;
        }
        if config.session_timeout_ms <= config.heartbeat_interval_ms as u64 {
            return Err(
                "streams.session.timeout.ms must be greater than streams.heartbeat.interval.ms"
                    .to_owned(),
            );
        }
        self.group_configs.insert(group_id.to_owned(), config);
        Ok(())
    }

    /// Sets one group-level config; see [`Coordinator::set_group_configs`].
    pub fn set_group_config(
        &mut self,
        group_id: &str,
        name: &str,
        value: &str,
    ) -> Result<(), String> {
        self.set_group_configs(group_id, &[(name, value)])
    }

    /// The cluster's topics changed (created, deleted, resized).
    pub fn handle_metadata(&mut self, metadata: ClusterMetadata) {
        self.metadata = metadata;
    }

    pub fn metadata(&self) -> &ClusterMetadata {
        &self.metadata
    }

    pub fn group(&self, group_id: &str) -> Option<&Group> {
        self.groups.get(group_id)
    }

    /// Answers a StreamsGroupHeartbeat of `version`.
    pub fn handle_heartbeat(
        &mut self,
        now_ms: u64,
        context: &RequestContext,
        version: i16,
        request: &StreamsGroupHeartbeatRequest,
    ) -> (StreamsGroupHeartbeatResponse, Vec<Effect>) {
        let permissions = &context.permissions;
        if !permissions.allows_group(Operation::Read, &request.group_id) {
            // R18: before any other check, and without a message.
            return (
                ErrorAnswer::bare(ERROR_GROUP_AUTHORIZATION_FAILED).response(),
                Vec::new(),
            );
        }
        if let Err(error) = validate::request(request, permissions) {
            return (error.response(), Vec::new());
        }
        if self.consumer_groups.contains(&request.group_id) {
            return (
                not_a_streams_group(&request.group_id).response(),
                Vec::new(),
            );
        }
        let config = self
            .group_configs
            .get(&request.group_id)
            .unwrap_or(&self.config);
        let result = group::heartbeat(
            &mut self.groups,
            config,
            &self.metadata,
            now_ms,
            context,
            version,
            request,
        );
        match result {
            Ok((mut response, mut effects)) => {
                for effect in &mut effects {
                    if let Effect::CreateTopics(topics) = effect {
                        withhold_unauthorized_creations(&mut response, topics, permissions);
                    }
                }
                effects.retain(|effect| !matches!(effect, Effect::CreateTopics(t) if t.is_empty()));
                (response, effects)
            }
            Err(error) => (error.response(), Vec::new()),
        }
    }

    /// Answers a StreamsGroupDescribe. Groups the principal may not describe come first, then the
    /// others in request order; a group whose topology names a topic the principal may not
    /// describe is withheld (R47, spec 10).
    pub fn handle_describe(
        &self,
        context: &RequestContext,
        request: &StreamsGroupDescribeRequest,
    ) -> StreamsGroupDescribeResponse {
        let permissions = &context.permissions;
        let (allowed, denied): (Vec<&String>, Vec<&String>) = request
            .group_ids
            .iter()
            .partition(|group_id| permissions.allows_group(Operation::Describe, group_id));
        let denied = denied.into_iter().map(|group_id| {
            DescribedGroup::default()
                .with_group_id(group_id.clone())
                .with_error_code(ERROR_GROUP_AUTHORIZATION_FAILED)
        });
        let allowed = allowed.into_iter().map(|group_id| {
            let group = self.groups.get(group_id);
            let hidden_topic = || {
                group.and_then(Group::topology).is_some_and(|topology| {
                    topology::topic_names(topology)
                        .any(|topic| !permissions.allows_topic(Operation::Describe, topic))
                })
            };
            if self.consumer_groups.contains(group_id) {
                let refusal = not_a_streams_group(group_id);
                DescribedGroup::default()
                    .with_group_id(group_id.clone())
                    .with_error_code(refusal.code)
                    .with_error_message(refusal.message)
            } else if hidden_topic() {
                DescribedGroup::default()
                    .with_group_id(group_id.clone())
                    .with_error_code(ERROR_TOPIC_AUTHORIZATION_FAILED)
                    .with_error_message(Some(
                        "The described group uses topics that the client is not authorized to describe."
                            .to_owned(),
                    ))
            } else {
                group::describe(group, group_id, request)
            }
        });
        StreamsGroupDescribeResponse::default().with_groups(denied.chain(allowed).collect())
    }

    /// The earliest time at which a timeout is due; after [`Coordinator::handle_timeout`] at
    /// `now_ms`, always later than `now_ms` (a driver's clock relies on it to move on).
    pub fn next_deadline(&self) -> Option<u64> {
        self.groups.values().filter_map(Group::next_deadline).min()
    }

    /// Removes members whose session or rebalance timeout expired at `now_ms`.
    pub fn handle_timeout(&mut self, now_ms: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        for group in self.groups.values_mut() {
            effects.extend(group.expire(now_ms));
            group.end_delay(now_ms);
        }
        effects
    }
}

/// R19: every request naming a group of another type, a join included.
fn not_a_streams_group(group_id: &str) -> ErrorAnswer {
    ErrorAnswer::new(
        ERROR_GROUP_ID_NOT_FOUND,
        format!("Group {group_id} is not a streams group."),
    )
}

/// Leaves out of `topics` those the principal may not create, and says so in the
/// MISSING_INTERNAL_TOPICS status, as Kafka's request handler does (R34, spec 5.6): CREATE on the
/// cluster allows them all, else CREATE on each topic decides.
fn withhold_unauthorized_creations(
    response: &mut StreamsGroupHeartbeatResponse,
    topics: &mut Vec<TopicToCreate>,
    permissions: &Permissions,
) {
    if permissions.allows_cluster(Operation::Create) {
        return;
    }
    let (allowed, denied): (Vec<TopicToCreate>, Vec<TopicToCreate>) = std::mem::take(topics)
        .into_iter()
        .partition(|topic| permissions.allows_topic(Operation::Create, &topic.name));
    *topics = allowed;
    if denied.is_empty() {
        return;
    }
    let names: Vec<&str> = denied.iter().map(|topic| topic.name.as_str()).collect();
    let unauthorized = format!("Unauthorized to CREATE on topics {}.", names.join(", "));
    let statuses = response.status.get_or_insert_with(Vec::new);
    match statuses
        .iter_mut()
        .find(|status| status.status_code == STATUS_MISSING_INTERNAL_TOPICS)
    {
        Some(status) => status.status_detail = format!("{}; {unauthorized}", status.status_detail),
        None => statuses.push(
            Status::default()
                .with_status_code(STATUS_MISSING_INTERNAL_TOPICS)
                .with_status_detail(unauthorized),
        ),
    }
}

/// How Kafka reads a group config's value before its own checks.
enum ConfigType {
    /// A 32-bit number of at least the given value.
    Int(i64),
    /// A 64-bit number of at least the given value.
    Long(i64),
    Boolean,
    /// Comma-separated names.
    List,
    Text,
}

/// The group configs Kafka 4.4.0 knows, with their types.
fn config_type(name: &str) -> Option<ConfigType> {
    Some(match name {
        "streams.session.timeout.ms"
        | "streams.heartbeat.interval.ms"
        | "streams.task.offset.interval.ms" => ConfigType::Int(1),
        "streams.num.standby.replicas"
        | "streams.num.warmup.replicas"
        | "streams.initial.rebalance.delay.ms"
        | "streams.assignment.interval.ms" => ConfigType::Int(0),
        "streams.acceptable.recovery.lag" => ConfigType::Long(0),
        "streams.assignor.offload.enable" => ConfigType::Boolean,
        "streams.rack.aware.assignment.tags" => ConfigType::List,
        "streams.assignor.name" => ConfigType::Text,
        _ => return None,
    })
}

/// The group configs Kafka 4.4.0 knows (spec 9.2), each typed by [`config_type`].
pub const GROUP_CONFIG_NAMES: [&str; 11] = [
    "streams.session.timeout.ms",
    "streams.heartbeat.interval.ms",
    "streams.task.offset.interval.ms",
    "streams.num.standby.replicas",
    "streams.num.warmup.replicas",
    "streams.initial.rebalance.delay.ms",
    "streams.assignment.interval.ms",
    "streams.acceptable.recovery.lag",
    "streams.assignor.offload.enable",
    "streams.rack.aware.assignment.tags",
    "streams.assignor.name",
];

/// The assignors a broker registers by default (`group.streams.assignors`).
const REGISTERED_ASSIGNORS: [&str; 1] = ["sticky"];

/// Sets group config `name` of `config` as Kafka 4.4.0 does: the value's type and lower bound
/// first, then the bounds that `broker` (the broker's own settings) gives, with Kafka's messages
/// (scenarios R41-group-config-bounds and R41-group-config-bounds-message).
fn apply_group_config(
    config: &mut CoordinatorConfig,
    broker: &CoordinatorConfig,
    name: &str,
    value: &str,
) -> Result<(), String> {
    let invalid =
        |reason: String| format!("Invalid value {value} for configuration {name}: {reason}");
    let number = |type_name: &str, at_least: i64, parsed: Option<i64>| {
        let number = parsed.ok_or_else(|| invalid(format!("Not a number of type {type_name}")))?;
        if number < at_least {
            return Err(format!(
                "Invalid value {number} for configuration {name}: Value must be at least {at_least}"
            ));
        }
        Ok(number)
    };
    let trimmed = value.trim();
    let number = match config_type(name) {
        None => return Err(format!("Unknown group config name: {name}")),
        Some(ConfigType::Int(at_least)) => {
            number("INT", at_least, trimmed.parse::<i32>().ok().map(i64::from))?
        }
        Some(ConfigType::Long(at_least)) => number("LONG", at_least, trimmed.parse::<i64>().ok())?,
        Some(ConfigType::Boolean) => {
            if !trimmed.eq_ignore_ascii_case("true") && !trimmed.eq_ignore_ascii_case("false") {
                return Err(invalid(
                    "Expected value to be either true or false".to_owned(),
                ));
            }
            // Offloading only moves the assignment to another thread in Kafka; nothing to do.
            return Ok(());
        }
        Some(ConfigType::List) => {
            let keys: Vec<String> = trimmed
                .split(',')
                .map(str::trim)
                .filter(|key| !key.is_empty())
                .map(str::to_owned)
                .collect();
            let distinct: std::collections::BTreeSet<&String> = keys.iter().collect();
            if distinct.len() != keys.len() {
                return Err(format!("{name} must not contain duplicate tag keys."));
            }
            config.rack_aware_assignment_tags = keys;
            return Ok(());
        }
        Some(ConfigType::Text) => {
            if !REGISTERED_ASSIGNORS.contains(&value) {
                return Err(format!(
                    "{name} '{value}' is not a registered task assignor. Registered assignors are: [{}].",
                    REGISTERED_ASSIGNORS.join(", ")
                ));
            }
            return Ok(());
        }
    };
    let in_range = |(min, max): (u64, u64)| {
        let unsigned = number as u64;
        if (min..=max).contains(&unsigned) {
            Ok(unsigned)
        } else {
            Err(format!(
                "{name} must be in the range {min} to {max} inclusive."
            ))
        }
    };
    let at_most = |max: i32| {
        if number > i64::from(max) {
            Err(format!("{name} must be less than or equal to {max}"))
        } else {
            Ok(number as i32)
        }
    };
    match name {
        "streams.session.timeout.ms" => {
            config.session_timeout_ms = in_range(broker.session_timeout_bounds_ms)?
        }
        "streams.heartbeat.interval.ms" => {
            config.heartbeat_interval_ms = in_range(broker.heartbeat_interval_bounds_ms)? as i32
        }
        "streams.assignment.interval.ms" => {
            config.assignment_interval_ms = in_range(broker.assignment_interval_bounds_ms)?
        }
        "streams.num.standby.replicas" => {
            config.num_standby_replicas = at_most(broker.max_standby_replicas)?
        }
        // Checked, then unused: Kafka 4.4.0 assigns no warm-up tasks (its assignment refiner
        // returns the target it is given; scenario R12-no-warmup-tasks-assigned).
        "streams.num.warmup.replicas" => {
            at_most(broker.max_warmup_replicas)?;
        }
        "streams.task.offset.interval.ms" => {
            if number < i64::from(broker.min_task_offset_interval_ms) {
                return Err(format!(
                    "{name} must be greater than or equal to {}",
                    broker.min_task_offset_interval_ms
                ));
            }
            config.task_offset_interval_ms = number as i32;
        }
        "streams.acceptable.recovery.lag" => config.acceptable_recovery_lag = number,
        "streams.initial.rebalance.delay.ms" => config.initial_rebalance_delay_ms = number as u64,
        _ => unreachable!("config_type knows {name}"),
    }
    Ok(())
}

/// An error answer: code and message, every other field at its default (spec 2.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorAnswer {
    pub code: i16,
    pub message: Option<String>,
}

impl ErrorAnswer {
    pub(crate) fn new(code: i16, message: impl Into<String>) -> Self {
        ErrorAnswer {
            code,
            message: Some(message.into()),
        }
    }

    /// An error without a message.
    pub(crate) fn bare(code: i16) -> Self {
        ErrorAnswer {
            code,
            message: None,
        }
    }

    /// Kafka's answer to a topology it cannot even build: no message.
    pub(crate) fn unknown_server_error() -> Self {
        ErrorAnswer::bare(ERROR_UNKNOWN_SERVER_ERROR)
    }

    pub(crate) fn invalid_request(message: impl Into<String>) -> Self {
        ErrorAnswer::new(ERROR_INVALID_REQUEST, message)
    }

    fn response(&self) -> StreamsGroupHeartbeatResponse {
        StreamsGroupHeartbeatResponse::default()
            .with_error_code(self.code)
            .with_error_message(self.message.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_group_config_has_a_type() {
        for name in GROUP_CONFIG_NAMES {
            assert!(config_type(name).is_some(), "{name}");
        }
        assert!(config_type("streams.bogus.config").is_none());
    }
}
