//! The reference coordinator as a [`Backend`], in process, on a virtual clock: a scenario's
//! sleeps advance the clock and fire the timeouts due, so timeout scenarios finish at once.
//! Requests and answers are bytes, as for any backend, so the exchanges are real; only the
//! describes a campaign's oracle makes for itself are handed over as the coordinator's message
//! ([`Backend::describe_for_oracle`]).

use std::collections::BTreeMap;
use std::time::Duration;

use streamspec_coordinator::kip_draft::KipDraft;
use streamspec_coordinator::{
    ClusterMetadata, Coordinator, CoordinatorConfig, DescribeScope, Effect, RequestContext,
};
use streamspec_protocol::access::{Operation, Resource};
use streamspec_protocol::codes::{ERROR_INVALID_CONFIG, ERROR_SECURITY_DISABLED};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
};
use streamspec_protocol::WireMessage;

use crate::backend::{
    Backend, BackendError, BackendExt, BackendResult, Connect, StreamsApi, TimerStalled,
};

/// The settings of the test broker (`scripts/kafka/start.sh`), so that scenarios hold for both.
pub fn test_config() -> CoordinatorConfig {
    CoordinatorConfig {
        session_timeout_ms: 6_000,
        heartbeat_interval_ms: 500,
        session_timeout_bounds_ms: (1_000, 60_000),
        heartbeat_interval_bounds_ms: (100, 15_000),
        initial_rebalance_delay_ms: 0,
        assignment_interval_ms: 0,
        ..CoordinatorConfig::default()
    }
}

/// The authorizer of a broker that enforces ACLs (`authorizer.class.name`).
pub const STANDARD_AUTHORIZER: &str = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

/// The reference coordinator in process, with the cluster around it (topics, ACLs, a clock).
/// A clone is a fork: a differential run answers a timing-sensitive request on two of them.
#[derive(Debug, Clone)]
pub struct EmbeddedTarget {
    coordinator: Coordinator,
    metadata: ClusterMetadata,
    now_ms: u64,
    /// The scenario's client; its permissions are the ACLs set so far.
    context: RequestContext,
    /// Whether ACLs are enforced, as on a broker started with an authorizer.
    authorizer: bool,
    /// Hands a due timeout to the coordinator: [`fire_due_timeouts`], or in tests a coordinator
    /// that misbehaves.
    fire_timeouts: fn(&mut Coordinator, u64),
    /// Speaking the KIP draft on api key 88 (v0) through the draft adapter over the same core;
    /// `None` for Kafka's dialect. See [`EmbeddedTarget::speaking_kip_draft`].
    draft: Option<KipDraft>,
    /// Internal topics the coordinator asked for and the cluster has not created yet, when
    /// creation is deferred ([`EmbeddedTarget::deferring_internal_topics`]); `None` when the
    /// cluster creates them at once.
    pending_internal_topics: Option<Vec<(String, i32)>>,
}

fn fire_due_timeouts(coordinator: &mut Coordinator, now_ms: u64) {
    // Effects of timeouts (members removed) change nothing outside the coordinator here.
    coordinator.handle_timeout(now_ms);
}

impl Default for EmbeddedTarget {
    fn default() -> Self {
        EmbeddedTarget {
            coordinator: Coordinator::new(test_config()),
            metadata: ClusterMetadata::default(),
            now_ms: 0,
            context: RequestContext::new("streamspec", "/127.0.0.1"),
            authorizer: false,
            fire_timeouts: fire_due_timeouts,
            draft: None,
            pending_internal_topics: None,
        }
    }
}

/// The request `M` in `bytes`; bytes that do not decode are the caller's fault, which a broker
/// would answer with an error.
pub(crate) fn decode_request<M: WireMessage>(bytes: &[u8], version: i16) -> BackendResult<M> {
    M::decode_exact(bytes, version).map_err(|source| BackendError::Malformed {
        what: format!("{} v{version} (the request)", M::NAME),
        source,
    })
}

pub(crate) fn encode_answer<M: WireMessage>(message: &M, version: i16) -> Vec<u8> {
    message
        .encode_to_vec(version)
        .unwrap_or_else(|error| panic!("{} v{version} does not encode: {error}", M::NAME))
}

impl EmbeddedTarget {
    fn apply(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            if let Effect::CreateTopics(topics) = effect {
                if let Some(pending) = &mut self.pending_internal_topics {
                    for topic in topics {
                        if !pending.iter().any(|(name, _)| *name == topic.name) {
                            pending.push((topic.name, topic.partitions));
                        }
                    }
                    continue;
                }
                // As Kafka's broker does, the cluster creates what the coordinator asks for.
                for topic in topics {
                    self.metadata.set_topic(topic.name, topic.partitions);
                }
                self.coordinator.handle_metadata(self.metadata.clone());
            }
        }
    }

    /// The target with a cluster that creates the internal topics the coordinator asks for only
    /// when told to ([`EmbeddedTarget::create_pending_internal_topics`]), as a broker creates
    /// them some time after the heartbeat that asked.
    pub fn deferring_internal_topics(self) -> Self {
        EmbeddedTarget {
            pending_internal_topics: Some(Vec::new()),
            ..self
        }
    }

    /// Whether internal topics were asked for and are not created yet.
    pub fn has_pending_internal_topics(&self) -> bool {
        self.pending_internal_topics
            .as_ref()
            .is_some_and(|pending| !pending.is_empty())
    }

    /// Whether `topic` is an internal topic the coordinator asked for and the cluster has not
    /// created yet.
    pub fn is_pending_internal_topic(&self, topic: &str) -> bool {
        self.pending_internal_topics
            .as_ref()
            .is_some_and(|pending| pending.iter().any(|(name, _)| name == topic))
    }

    /// Creates the internal topics asked for so far.
    pub fn create_pending_internal_topics(&mut self) {
        let Some(pending) = self.pending_internal_topics.as_mut() else {
            return;
        };
        for (name, partitions) in pending.drain(..) {
            self.metadata.set_topic(name, partitions);
        }
        self.coordinator.handle_metadata(self.metadata.clone());
    }

    /// Each of `states`, then each again with the internal topics it asked for created: the
    /// states a broker may be in some time after a heartbeat asked for them, since a cluster
    /// creates them asynchronously.
    pub fn with_internal_topics_created(states: Vec<EmbeddedTarget>) -> Vec<EmbeddedTarget> {
        Self::also_after(
            states,
            Self::has_pending_internal_topics,
            Self::create_pending_internal_topics,
        )
    }

    /// Each of `states`, then a copy with `change` made of each state that `applies` to.
    pub fn also_after(
        mut states: Vec<EmbeddedTarget>,
        applies: fn(&EmbeddedTarget) -> bool,
        change: fn(&mut EmbeddedTarget),
    ) -> Vec<EmbeddedTarget> {
        let changed: Vec<EmbeddedTarget> = states
            .iter()
            .filter(|state| applies(state))
            .map(|state| {
                let mut state = state.clone();
                change(&mut state);
                state
            })
            .collect();
        states.extend(changed);
        states
    }

    /// The cluster with `topic` at `partitions` partitions, or without it for `None`, as a
    /// broker's metadata showed it (a live trace's topic changes).
    pub fn set_topic(&mut self, topic: &str, partitions: Option<i32>) {
        if let Some(pending) = &mut self.pending_internal_topics {
            pending.retain(|(name, _)| name != topic);
        }
        match partitions {
            Some(count) => self.metadata.set_topic(topic, count),
            None => self.metadata.remove_topic(topic),
        }
        self.coordinator.handle_metadata(self.metadata.clone());
    }

    /// Sets group-level configs of `group_id`, as IncrementalAlterConfigs does on a broker.
    pub fn set_group_configs_now(
        &mut self,
        group_id: &str,
        configs: &[(&str, &str)],
    ) -> BackendResult<()> {
        self.coordinator
            .set_group_configs(group_id, configs)
            .map_err(|message| BackendError::Refused {
                what: "setting group configs".to_owned(),
                error_code: ERROR_INVALID_CONFIG,
                message: Some(message),
            })
    }

    /// The conditions of recorded divergences (`harness/divergences.json`) `group` is in.
    pub fn conditions(&self, group: &str) -> Vec<crate::runner::Condition> {
        let metadata = self.coordinator.metadata();
        let group = self.coordinator.group(group);
        let mut conditions = Vec::new();
        if group.is_some_and(|g| g.kept_configuration_of_deleted_topic(metadata)) {
            conditions.push(crate::runner::Condition::KeptConfigurationOfDeletedTopic);
        }
        conditions
    }

    /// Whether a refused heartbeat left a configuration that no records committed yet.
    pub fn has_uncommitted_configurations(&self) -> bool {
        self.coordinator.has_uncommitted_configurations()
    }

    /// Commits those configurations, as any group's next records do on a broker.
    pub fn commit_uncommitted_configurations(&mut self) {
        self.coordinator.commit_uncommitted_configurations();
    }

    /// Answers a request of `api` at `version`, both as bodies of bytes.
    pub fn answer(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        match api {
            StreamsApi::Heartbeat if self.draft.is_some() => {
                use streamspec_protocol::kip_draft::StreamsGroupHeartbeatRequest as DraftRequest;
                let request: DraftRequest = decode_request(request, version)?;
                let draft = self.draft.as_mut().expect("a draft target");
                let (response, effects) = draft.handle_heartbeat(
                    &mut self.coordinator,
                    self.now_ms,
                    &self.context,
                    &request,
                );
                self.apply(effects);
                Ok(encode_answer(&response, version))
            }
            StreamsApi::Heartbeat => {
                let request: StreamsGroupHeartbeatRequest = decode_request(request, version)?;
                let (response, effects) = self.coordinator.handle_heartbeat(
                    self.now_ms,
                    &self.context,
                    version,
                    &request,
                );
                self.apply(effects);
                Ok(encode_answer(&response, version))
            }
            StreamsApi::Describe => {
                let request: StreamsGroupDescribeRequest = decode_request(request, version)?;
                Ok(encode_answer(&self.describe_now(&request), version))
            }
        }
    }

    /// The coordinator's answer to `request`, as [`EmbeddedTarget::answer`] encodes it.
    fn describe_now(&self, request: &StreamsGroupDescribeRequest) -> StreamsGroupDescribeResponse {
        self.coordinator.handle_describe(&self.context, request)
    }

    /// The reference as a broker started with `configs` (Kafka's names) would be; configs it
    /// does not know, or values that do not parse, stay at the test settings, which
    /// [`EmbeddedTarget::broker_config`] then reports.
    pub fn with_broker_configs<'a>(configs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut config = test_config();
        let mut authorizer = false;
        for (name, value) in configs {
            match name {
                "authorizer.class.name" => authorizer = value == STANDARD_AUTHORIZER,
                "group.streams.max.size" => parse_into(&mut config.max_size, value),
                "group.streams.session.timeout.ms" => {
                    parse_into(&mut config.session_timeout_ms, value)
                }
                "group.streams.heartbeat.interval.ms" => {
                    parse_into(&mut config.heartbeat_interval_ms, value)
                }
                "group.streams.initial.rebalance.delay.ms" => {
                    parse_into(&mut config.initial_rebalance_delay_ms, value)
                }
                "group.streams.assignment.interval.ms" => {
                    parse_into(&mut config.assignment_interval_ms, value)
                }
                "group.streams.num.standby.replicas" => {
                    parse_into(&mut config.num_standby_replicas, value)
                }
                "group.streams.max.standby.replicas" => {
                    parse_into(&mut config.max_standby_replicas, value)
                }
                "group.streams.acceptable.recovery.lag" => {
                    parse_into(&mut config.acceptable_recovery_lag, value)
                }
                "group.streams.task.offset.interval.ms" => {
                    parse_into(&mut config.task_offset_interval_ms, value)
                }
                _ => {}
            }
        }
        EmbeddedTarget {
            coordinator: Coordinator::new(config),
            authorizer,
            ..EmbeddedTarget::default()
        }
    }

    /// The target answering StreamsGroupHeartbeat (api key 88) in the KIP draft dialect, v0, by
    /// the draft adapter over the same core; StreamsGroupDescribe, which the draft lacks, stays
    /// Kafka's, answered by the core.
    pub fn speaking_kip_draft(self) -> Self {
        EmbeddedTarget {
            draft: Some(KipDraft::default()),
            ..self
        }
    }

    /// A broker-level setting of the reference, by Kafka's name; none for names it lacks.
    pub fn broker_config(&self, name: &str) -> Option<String> {
        let config = self.coordinator.config();
        match name {
            // Kafka's default is no authorizer: an empty class name.
            "authorizer.class.name" => Some(if self.authorizer {
                STANDARD_AUTHORIZER.to_owned()
            } else {
                String::new()
            }),
            "group.streams.max.size" => Some(config.max_size.to_string()),
            "group.streams.session.timeout.ms" => Some(config.session_timeout_ms.to_string()),
            "group.streams.heartbeat.interval.ms" => Some(config.heartbeat_interval_ms.to_string()),
            "group.streams.num.standby.replicas" => Some(config.num_standby_replicas.to_string()),
            "group.streams.min.session.timeout.ms" => {
                Some(config.session_timeout_bounds_ms.0.to_string())
            }
            "group.streams.max.session.timeout.ms" => {
                Some(config.session_timeout_bounds_ms.1.to_string())
            }
            "group.streams.min.heartbeat.interval.ms" => {
                Some(config.heartbeat_interval_bounds_ms.0.to_string())
            }
            "group.streams.max.heartbeat.interval.ms" => {
                Some(config.heartbeat_interval_bounds_ms.1.to_string())
            }
            "group.streams.max.standby.replicas" => Some(config.max_standby_replicas.to_string()),
            "group.streams.initial.rebalance.delay.ms" => {
                Some(config.initial_rebalance_delay_ms.to_string())
            }
            "group.streams.assignment.interval.ms" => {
                Some(config.assignment_interval_ms.to_string())
            }
            "group.streams.acceptable.recovery.lag" => {
                Some(config.acceptable_recovery_lag.to_string())
            }
            "group.streams.task.offset.interval.ms" => {
                Some(config.task_offset_interval_ms.to_string())
            }
            _ => None,
        }
    }

    /// Advances the virtual clock by `duration_ms`, firing every timeout due on the way. Each
    /// timeout fired must move the coordinator's next deadline past it, so the loop ends.
    pub fn advance_ms(&mut self, duration_ms: u64) -> Result<(), TimerStalled> {
        let until = self.now_ms.saturating_add(duration_ms);
        let mut fired_at = None;
        while let Some(deadline) = self.coordinator.next_deadline().filter(|d| *d <= until) {
            if fired_at.is_some_and(|fired_at| deadline <= fired_at) {
                return Err(TimerStalled {
                    deadline_ms: deadline,
                    now_ms: self.now_ms,
                });
            }
            self.now_ms = self.now_ms.max(deadline);
            (self.fire_timeouts)(&mut self.coordinator, self.now_ms);
            fired_at = Some(self.now_ms);
        }
        self.now_ms = until;
        Ok(())
    }

    /// Advances the virtual clock to `now_ms`, as [`EmbeddedTarget::advance_ms`] does; a time
    /// already passed changes nothing.
    pub fn advance_to(&mut self, now_ms: u64) -> Result<(), TimerStalled> {
        self.advance_ms(now_ms.saturating_sub(self.now_ms))
    }

    /// The coordinator's next session, rebalance or assignment deadline, in ms on this clock.
    pub fn next_deadline(&self) -> Option<u64> {
        self.coordinator.next_deadline()
    }

    /// The target with a coordinator whose timeouts fire through `fire_timeouts`.
    #[cfg(test)]
    pub(crate) fn with_timeouts_fired_by(
        mut self,
        fire_timeouts: fn(&mut Coordinator, u64),
    ) -> Self {
        self.fire_timeouts = fire_timeouts;
        self
    }
}

/// `value` into `field` when it parses; otherwise the field keeps what it had.
fn parse_into<T: std::str::FromStr>(field: &mut T, value: &str) {
    if let Ok(parsed) = value.parse() {
        *field = parsed;
    }
}

impl Backend for EmbeddedTarget {
    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        self.answer(api, version, request)
    }

    async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
        for (name, partitions) in topics {
            self.metadata.set_topic(name.clone(), *partitions);
        }
        self.coordinator.handle_metadata(self.metadata.clone());
        Ok(())
    }

    async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
        for name in names {
            self.metadata.remove_topic(name);
        }
        self.coordinator.handle_metadata(self.metadata.clone());
        Ok(())
    }

    async fn create_partitions(&mut self, topic: &str, partitions: i32) -> BackendResult<()> {
        self.create_topics(&[(topic.to_owned(), partitions)]).await
    }

    /// The coordinator is handed the new metadata before the call returns.
    fn sees_metadata_at_once(&self) -> bool {
        true
    }

    /// The coordinator's own message at the latest version, which has every field the
    /// coordinator fills: the campaign's oracle describes the group after every exchange, and
    /// the round trip through bytes was about a quarter of a campaign's codec time. It is filled
    /// in only as far as the oracle reads it ([`DescribeScope::Assignments`]): the topology's
    /// and members' strings were copied and dropped for nothing. An older version goes through
    /// the bytes, which leave out what it lacks.
    async fn describe_for_oracle(
        &mut self,
        version: i16,
        request: &StreamsGroupDescribeRequest,
        into: &mut StreamsGroupDescribeResponse,
    ) -> BackendResult<()> {
        if version == StreamsGroupDescribeResponse::VERSIONS.max {
            let scope = DescribeScope::Assignments;
            (self.coordinator).handle_describe_into(&self.context, request, scope, into);
            // Written over the last describe, it must be what a fresh one is.
            debug_assert_eq!(
                *into,
                (self.coordinator).handle_describe_scoped(&self.context, request, scope)
            );
            return Ok(());
        }
        *into = self.describe(version, request).await?.0;
        Ok(())
    }

    async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
        Ok(self.advance_ms(duration.as_millis() as u64)?)
    }

    /// The virtual clock, in milliseconds since the target opened.
    fn now_ms(&self) -> u64 {
        self.now_ms
    }

    async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
        Ok(names.iter().map(|name| self.broker_config(name)).collect())
    }

    async fn group_config_names(&mut self, _: &str) -> BackendResult<Vec<String>> {
        Ok(streamspec_coordinator::GROUP_CONFIG_NAMES
            .iter()
            .map(|name| (*name).to_owned())
            .collect())
    }

    /// As Kafka's IncrementalAlterConfigs on a GROUP resource sets them.
    async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> BackendResult<()> {
        let configs: Vec<(&str, &str)> = configs
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        self.set_group_configs_now(group_id, &configs)
    }

    /// A consumer group that the coordinator holds beside its streams groups.
    async fn create_consumer_group(&mut self, group_id: &str, _: &[String]) -> BackendResult<()> {
        self.coordinator.add_consumer_group(group_id);
        Ok(())
    }

    /// Refused, as Kafka refuses CreateAcls, without an authorizer.
    async fn deny(&mut self, operation: Operation, resource: &Resource) -> BackendResult<()> {
        if !self.authorizer {
            return Err(BackendError::Refused {
                what: format!("denying {operation:?} on {resource:?}"),
                error_code: ERROR_SECURITY_DISABLED,
                message: Some("No Authorizer is configured.".to_owned()),
            });
        }
        self.context.permissions.deny(operation, resource.clone());
        Ok(())
    }

    async fn remove_acls(&mut self, resource: &Resource) -> BackendResult<()> {
        self.context.permissions.allow_all_on(resource);
        Ok(())
    }
}

/// Opens a fresh reference coordinator for every scenario and run, started as a broker with the
/// scenario's broker configs would be.
#[derive(Debug, Clone, Copy, Default)]
pub struct EmbeddedConnector;

impl Connect for EmbeddedConnector {
    type Backend = EmbeddedTarget;

    async fn open(
        &self,
        _: &str,
        broker_configs: &BTreeMap<String, String>,
    ) -> BackendResult<EmbeddedTarget> {
        Ok(EmbeddedTarget::with_broker_configs(
            broker_configs
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str())),
        ))
    }

    fn name(&self) -> String {
        "embedded".to_owned()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::backend::block_on;
    use streamspec_coordinator::Group;
    use streamspec_protocol::kafka::streams_group_describe_response as describe;

    /// A coordinator that never expires anything: its session deadlines stay where they were.
    pub(crate) fn forget_timeouts(_: &mut Coordinator, _: u64) {}

    fn join(
        target: &mut EmbeddedTarget,
        member: &str,
    ) -> streamspec_protocol::kafka::StreamsGroupHeartbeatResponse {
        let request = StreamsGroupHeartbeatRequest::default()
            .with_group_id("g")
            .with_member_id(member)
            .with_rebalance_timeout_ms(30_000)
            .with_topology(Some(Default::default()))
            .with_active_tasks(Some(Vec::new()))
            .with_standby_tasks(Some(Vec::new()))
            .with_warmup_tasks(Some(Vec::new()))
            .with_process_id(Some("p".to_owned()))
            .with_client_tags(Some(Vec::new()));
        let (response, _) = block_on(target.heartbeat(1, &request)).unwrap();
        assert_eq!(response.error_code, 0, "{response:?}");
        response
    }

    #[test]
    fn a_brokers_recovery_lag_and_task_offset_interval_are_the_references_answers() {
        // As `--differential` starts it for a broker configured so: a join is answered with both.
        let mut target = EmbeddedTarget::with_broker_configs([
            ("group.streams.acceptable.recovery.lag", "5"),
            ("group.streams.task.offset.interval.ms", "30000"),
        ]);
        assert_eq!(
            target
                .broker_config("group.streams.acceptable.recovery.lag")
                .as_deref(),
            Some("5")
        );
        let response = join(&mut target, "a");
        assert_eq!(
            (
                response.acceptable_recovery_lag,
                response.task_offset_interval_ms
            ),
            (5, 30_000)
        );
    }

    #[test]
    fn sleeping_past_a_session_timeout_expires_the_member() {
        let mut target = EmbeddedTarget::default();
        join(&mut target, "a");
        assert_eq!(target.coordinator.next_deadline(), Some(6_000));
        assert_eq!(target.advance_ms(7_000), Ok(()));
        assert_eq!(target.now_ms(), 7_000);
        assert_eq!(target.coordinator.next_deadline(), None);
        assert_eq!(
            target.coordinator.group("g").map(Group::state),
            Some("Empty")
        );
    }

    #[test]
    fn the_oracles_describe_is_the_message_the_bytes_decode_to() {
        let mut target = EmbeddedTarget::default();
        join(&mut target, "a");
        join(&mut target, "b");
        let request = StreamsGroupDescribeRequest::default()
            .with_group_ids(vec!["g".to_owned(), "missing".to_owned()]);
        for version in
            StreamsGroupDescribeResponse::VERSIONS.min..=StreamsGroupDescribeResponse::VERSIONS.max
        {
            let (mut over_the_wire, _) = block_on(target.describe(version, &request)).unwrap();
            // Written over an answer with more groups and every field filled in, nothing of
            // which may remain.
            let mut handed_over = over_the_wire.clone();
            handed_over.groups.extend(over_the_wire.groups.clone());
            handed_over.groups.swap(0, 1);
            block_on(target.describe_for_oracle(version, &request, &mut handed_over)).unwrap();
            if version == StreamsGroupDescribeResponse::VERSIONS.max {
                // What the oracle reads is kept; the rest is left out.
                let group = &mut over_the_wire.groups[0];
                assert!(group.topology.is_some());
                group.topology = None;
                for member in &mut group.members {
                    let kept = describe::Member::default()
                        .with_member_id(std::mem::take(&mut member.member_id))
                        .with_member_epoch(member.member_epoch)
                        .with_process_id(std::mem::take(&mut member.process_id))
                        .with_assignment(std::mem::take(&mut member.assignment))
                        .with_target_assignment(std::mem::take(&mut member.target_assignment));
                    *member = kept;
                }
            }
            assert_eq!(handed_over, over_the_wire, "v{version}");
            assert_eq!(handed_over.groups[0].members.len(), 2);
        }
    }

    #[test]
    fn a_timer_that_does_not_advance_is_an_error_not_a_hang() {
        let mut target = EmbeddedTarget::default().with_timeouts_fired_by(forget_timeouts);
        assert_eq!(target.advance_ms(100), Ok(()), "nothing due yet");
        join(&mut target, "a");
        let stalled = target.advance_ms(10_000).unwrap_err();
        assert_eq!(
            stalled,
            TimerStalled {
                deadline_ms: 6_100,
                now_ms: 6_100
            }
        );
        assert_eq!(
            stalled.to_string(),
            "the coordinator's timer does not advance: after handle_timeout at 6100 ms its next deadline is still 6100 ms"
        );
    }
}
