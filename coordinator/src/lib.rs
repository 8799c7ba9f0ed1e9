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
pub mod assignor_cases;
mod config;
mod context;
mod errors;
pub mod fuzzing;
mod group;
pub mod java_order;
pub mod kip_draft;
mod metadata;
pub mod tasks;
pub mod topology;
mod validate;

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::codes::STATUS_MISSING_INTERNAL_TOPICS;
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::streams_group_heartbeat_response::Status;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};

use access::{Operation, Permissions};

pub use config::{CoordinatorConfig, GROUP_CONFIG_NAMES};
pub use context::{Effect, RemovalReason, RequestContext};
pub use errors::ErrorAnswer;
pub use group::{DescribeScope, Group};
pub use metadata::ClusterMetadata;
pub use topology::TopicToCreate;

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
        let current = self.group_configs.get(group_id).unwrap_or(&self.config);
        let config = config::with_group_configs(current, &self.config, configs)?;
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

    /// Whether a group holds a configuration a refused heartbeat computed and no records
    /// committed yet (R40).
    pub fn has_uncommitted_configurations(&self) -> bool {
        self.groups
            .values()
            .any(Group::has_uncommitted_configuration)
    }

    /// Commits those configurations, as a broker does with the next records written to the
    /// groups' partition: another group's records too, so when is a matter of timing.
    pub fn commit_uncommitted_configurations(&mut self) {
        for group in self.groups.values_mut() {
            group.commit_configuration();
        }
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
                ErrorAnswer::group_authorization_failed().response(),
                Vec::new(),
            );
        }
        if let Err(error) = validate::request(request, permissions) {
            return (error.response(), Vec::new());
        }
        if self.consumer_groups.contains(&request.group_id) {
            // R19
            return (
                ErrorAnswer::not_a_streams_group(&request.group_id).response(),
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
        // A heartbeat changes its own group only.
        self.debug_check_indexes(Some(&request.group_id));
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
        self.handle_describe_scoped(context, request, DescribeScope::Full)
    }

    /// [`Coordinator::handle_describe`] filling in only what `scope` names; errors and
    /// authorization are those of the full describe.
    pub fn handle_describe_scoped(
        &self,
        context: &RequestContext,
        request: &StreamsGroupDescribeRequest,
        scope: DescribeScope,
    ) -> StreamsGroupDescribeResponse {
        let mut response = StreamsGroupDescribeResponse::default();
        self.handle_describe_into(context, request, scope, &mut response);
        response
    }

    /// [`Coordinator::handle_describe_scoped`] written over `into`, whose strings and lists are
    /// used again: a caller that describes after every request (a campaign's oracle) then
    /// allocates only where the group grew. `into` ends up equal to the returned answer.
    pub fn handle_describe_into(
        &self,
        context: &RequestContext,
        request: &StreamsGroupDescribeRequest,
        scope: DescribeScope,
        into: &mut StreamsGroupDescribeResponse,
    ) {
        let permissions = &context.permissions;
        let (allowed, denied): (Vec<&String>, Vec<&String>) = request
            .group_ids
            .iter()
            .partition(|group_id| permissions.allows_group(Operation::Describe, group_id));
        let mut described = std::mem::take(&mut into.groups);
        *into = StreamsGroupDescribeResponse::default();
        described.truncate(request.group_ids.len());
        let entries = (denied.into_iter().map(|id| (id, false)))
            .chain(allowed.into_iter().map(|id| (id, true)));
        for (index, (group_id, allowed)) in entries.enumerate() {
            if index == described.len() {
                described.push(DescribedGroup::default());
            }
            let entry = &mut described[index];
            let group = self.groups.get(group_id);
            let hidden_topic = || {
                permissions.denies_on_topics()
                    && group.and_then(Group::topology).is_some_and(|topology| {
                        topology::topic_names(topology)
                            .any(|topic| !permissions.allows_topic(Operation::Describe, topic))
                    })
            };
            if !allowed {
                *entry = ErrorAnswer::group_authorization_failed().described(group_id);
            } else if self.consumer_groups.contains(group_id) {
                *entry = ErrorAnswer::not_a_streams_group(group_id).described(group_id);
            } else if hidden_topic() {
                *entry = ErrorAnswer::described_topics_unauthorized().described(group_id);
            } else {
                group::describe_into(group, group_id, request, scope, entry);
            }
        }
        into.groups = described;
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
        self.debug_check_indexes(None);
        effects
    }

    /// In debug builds (every test, and fuzzing with debug assertions), that the indexes of the
    /// group `changed` (of every group for `None`) equal indexes built from scratch after every
    /// change. The others did not change since their last check, so checking them again would
    /// cost in proportion to the groups a run made (a campaign's probe groups) and find nothing.
    fn debug_check_indexes(&self, changed: Option<&str>) {
        if cfg!(debug_assertions) {
            let groups: Box<dyn Iterator<Item = &Group>> = match changed {
                Some(group_id) => Box::new(self.groups.get(group_id).into_iter()),
                None => Box::new(self.groups.values()),
            };
            for group in groups {
                if let Err(broken) = group.check_indexes() {
                    panic!("{broken}");
                }
            }
        }
    }
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
