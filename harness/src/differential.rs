//! Differential runs (`--differential`): every request of a run goes to the target and to the
//! reference coordinator in process, at the same time, and the two answers must be equal under
//! the equivalence of [`compare`]. [`DifferentialConnector`] wraps any connector; its
//! [`DifferentialBackend`] forwards each call to the target, then has the reference answer the
//! same bytes with its virtual clock moved to the target's time, and keeps the first difference
//! for the oracle ([`Backend::take_divergence`]), which reports it as "answers equal the
//! reference's" with both answers side by side.
//!
//! - **Set-up is mirrored**: topics created, grown and deleted, group configs, consumer groups
//!   and ACLs go to both; the reference starts with the broker configs the target reports.
//! - **Only the run's group is compared**: the groups the harness probes to wait for the
//!   coordinator's view of topics depend on how fast metadata reaches the target's coordinator,
//!   which the reference does not model; they go to the target alone.
//! - **Timing-sensitive exchanges**: on real time the target handles a request somewhere between
//!   sending and answer, and its timers fire a little late. When a deadline of the reference (a
//!   session or rebalance timeout, an assignment delay) falls within `margin` of that window, the
//!   reference answers twice, on two forks: with the deadline not yet fired, and fired. The
//!   target's answer must equal one of them, and the reference goes on from each that did (up
//!   to [`MAX_CANDIDATES`] states, since forks that agree now may part later).
//! - **After the first difference nothing more is compared**: the two coordinators' states have
//!   parted. A difference recorded in a divergence file (by field and rule) counts as known.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

use crate::backend::{
    Backend, BackendError, BackendResult, Connect, Operation, Resource, StreamsApi,
};
use crate::embedded::EmbeddedTarget;
use crate::runner::{Condition, Divergence as Recorded};
use crate::scenario::Scenario;

pub mod compare;

use compare::{Comparable, FieldDifference};

/// The broker configs the reference is started with, as the target reports them (a live trace
/// records them too). (The recovery lag and the task offset interval are in every answer to a
/// join.)
pub const MIRRORED_BROKER_CONFIGS: [&str; 9] = [
    "authorizer.class.name",
    "group.streams.max.size",
    "group.streams.session.timeout.ms",
    "group.streams.heartbeat.interval.ms",
    "group.streams.initial.rebalance.delay.ms",
    "group.streams.assignment.interval.ms",
    "group.streams.num.standby.replicas",
    "group.streams.acceptable.recovery.lag",
    "group.streams.task.offset.interval.ms",
];

/// How far from a deadline, on real time, an exchange counts as timing-sensitive.
pub const REAL_TIME_MARGIN: Duration = Duration::from_millis(25);

/// How many states of the reference that answered as the target did are kept: forks that agree
/// now may part later (a deadline fired or not, internal topics created or not), and each
/// timing-sensitive exchange can multiply them.
pub const MAX_CANDIDATES: usize = 8;

/// The first answer of a run that differs from the reference's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// `StreamsGroupHeartbeat v1`.
    pub exchange: String,
    /// The request, as JSON.
    pub request: String,
    /// The target's time when it was sent, ms since the run's start.
    pub at_ms: u64,
    pub differences: Vec<FieldDifference>,
    /// The rule ids of the differing fields.
    pub rules: Vec<String>,
    /// Both answers side by side, the differing fields marked.
    pub table: String,
    /// Whether a deadline was near, so that answers of the reference with it fired and not
    /// were allowed (the table shows the nearest).
    pub timing_sensitive: bool,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 4;
        let mut fields: Vec<String> = self
            .differences
            .iter()
            .take(SHOWN)
            .map(|difference| difference.path.clone())
            .collect();
        if self.differences.len() > SHOWN {
            fields.push(format!("{} more", self.differences.len() - SHOWN));
        }
        write!(
            f,
            "{} at {} ms{} differs from the reference's in {} (rules {})\n  request {}\n{}",
            self.exchange,
            self.at_ms,
            if self.timing_sensitive {
                " (near a deadline: none of the reference's answers)"
            } else {
                ""
            },
            fields.join(", "),
            self.rules.join(", "),
            self.request,
            self.table
        )
    }
}

/// What comparing found over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Heartbeats and describes compared.
    pub heartbeats: u64,
    pub describes: u64,
    /// Of those, compared against more than one state of the reference: near a deadline, or
    /// while internal topics it asked for may or may not exist yet.
    pub timing_sensitive: u64,
    /// A recorded divergence the run met, after which nothing more was compared.
    pub known: Option<Recorded>,
}

/// The target and the reference side by side; see the [module documentation](self).
#[derive(Debug)]
pub struct DifferentialBackend<B> {
    target: B,
    /// The states of the reference that answered every exchange so far as the target did, most
    /// likely first; never empty, at most [`MAX_CANDIDATES`].
    candidates: Vec<EmbeddedTarget>,
    /// The run's group, the only one compared.
    group: String,
    margin_ms: u64,
    /// The longest time the target took to answer a compared exchange so far: it arms a timer
    /// when it handles a request, anywhere in that time, where the reference arms it at the
    /// start, so a deadline of the reference may be that much early.
    longest_answer_ms: u64,
    recorded: Arc<Vec<Recorded>>,
    target_name: String,
    comparison: Comparison,
    divergence: Option<Divergence>,
    /// Set at the first difference: nothing is compared after it.
    parted: bool,
}

impl<B> DifferentialBackend<B> {
    pub fn target(&self) -> &B {
        &self.target
    }

    /// The most likely state of the reference.
    pub fn reference(&self) -> &EmbeddedTarget {
        &self.candidates[0]
    }
}

/// Runs a set-up step on every candidate state of the reference; the outcome is the first
/// one's (they share everything a set-up step reads).
macro_rules! on_every_candidate {
    ($backend:ident, |$reference:ident| $call:expr) => {{
        let mut outcome = Ok(());
        for (index, $reference) in $backend.candidates.iter_mut().enumerate() {
            let result = $call.await;
            if index == 0 {
                outcome = result;
            }
        }
        outcome
    }};
}

/// The groups a request names, when it decodes.
fn groups_of(api: StreamsApi, version: i16, request: &[u8]) -> Option<Vec<String>> {
    match api {
        StreamsApi::Heartbeat => StreamsGroupHeartbeatRequest::decode_exact(request, version)
            .ok()
            .map(|request| vec![request.group_id]),
        StreamsApi::Describe => StreamsGroupDescribeRequest::decode_exact(request, version)
            .ok()
            .map(|request| request.group_ids),
    }
}

fn request_json(api: StreamsApi, version: i16, request: &[u8]) -> String {
    let json = match api {
        StreamsApi::Heartbeat => StreamsGroupHeartbeatRequest::decode_exact(request, version)
            .ok()
            .and_then(|request| serde_json::to_string(&request).ok()),
        StreamsApi::Describe => StreamsGroupDescribeRequest::decode_exact(request, version)
            .ok()
            .and_then(|request| serde_json::to_string(&request).ok()),
    };
    json.unwrap_or_default()
}

/// The differences between two answers of `api`, both as bytes; `None` when they are equal or
/// the target's does not decode (the harness reports that itself).
fn differences(
    api: StreamsApi,
    version: i16,
    target: &[u8],
    reference: &[u8],
) -> Option<(Vec<FieldDifference>, Vec<String>, String)> {
    fn of<M: Comparable + WireMessage>(
        version: i16,
        target: &[u8],
        reference: &[u8],
    ) -> Option<(Vec<FieldDifference>, Vec<String>, String)> {
        let target = M::decode_exact(target, version).ok()?;
        let reference =
            M::decode_exact(reference, version).expect("the reference answers what decodes");
        let table = compare::compare(&target, &reference)?;
        let differences = table.differences();
        let rules = compare::rules_of::<M>(&differences);
        Some((differences, rules, table.render()))
    }
    match api {
        StreamsApi::Heartbeat => of::<StreamsGroupHeartbeatResponse>(version, target, reference),
        StreamsApi::Describe => of::<StreamsGroupDescribeResponse>(version, target, reference),
    }
}

/// The recorded divergence of `target` that explains `differences`: its field is the first
/// differing one, it shares a rule with them, and its values and condition, where it names them,
/// are theirs and one the reference's group was in (`conditions`).
pub(crate) fn explaining(
    recorded: &[Recorded],
    target: &str,
    differences: &[FieldDifference],
    rules: &[String],
    conditions: &[Condition],
) -> Option<Recorded> {
    let first = differences.first()?;
    recorded
        .iter()
        .filter(|d| d.applies_to(target))
        .find(|d| {
            d.field.as_deref() == Some(first.field().as_str())
                && d.rules.iter().any(|rule| rules.contains(rule))
                && d.target_value.as_ref().is_none_or(|v| *v == first.target)
                && d.reference_value
                    .as_ref()
                    .is_none_or(|v| *v == first.reference)
                && d.condition.is_none_or(|c| conditions.contains(&c))
        })
        .cloned()
}

impl<B: Backend> DifferentialBackend<B> {
    /// The recorded divergence that explains `differences`.
    fn recorded(
        &self,
        differences: &[FieldDifference],
        rules: &[String],
        conditions: &[Condition],
    ) -> Option<Recorded> {
        explaining(
            &self.recorded,
            &self.target_name,
            differences,
            rules,
            conditions,
        )
    }

    /// Has every candidate state of the reference answer `request` as the target did between
    /// `before` and `after` (ms), on its forks ([`states_answering_between`]), and compares the
    /// answers: the forks that answer as the target did are the candidates from then on.
    fn judge(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
        answer: &[u8],
        (before, after): (u64, u64),
    ) -> BackendResult<()> {
        if self.margin_ms > 0 {
            self.longest_answer_ms = self.longest_answer_ms.max(after.saturating_sub(before));
        }
        let margin_ms = self.margin_ms + self.longest_answer_ms;
        let mut matched: Vec<EmbeddedTarget> = Vec::new();
        // The nearest difference, and the conditions of divergences its fork was in.
        let mut nearest: Option<(Vec<FieldDifference>, Vec<String>, String)> = None;
        let mut nearest_conditions: Vec<Condition> = Vec::new();
        let mut any_near_deadline = false;
        let mut timing_sensitive = false;
        let real_time_margin_ms = (self.margin_ms > 0).then_some(margin_ms);
        for candidate in &self.candidates {
            let (forks, near_deadline) =
                states_answering_between(candidate, (before, after), real_time_margin_ms)?;
            any_near_deadline |= near_deadline;
            timing_sensitive |= forks.len() > 1;
            for mut fork in forks {
                let reference = fork.answer(api, version, request)?;
                match differences(api, version, answer, &reference) {
                    None if matched.len() < MAX_CANDIDATES => matched.push(fork),
                    None => {}
                    Some(found) if nearest.as_ref().is_none_or(|n| found.0.len() < n.0.len()) => {
                        nearest = Some(found);
                        nearest_conditions = fork.conditions(&self.group);
                    }
                    Some(_) => {}
                }
            }
        }
        if timing_sensitive {
            self.comparison.timing_sensitive += 1;
        }
        match api {
            StreamsApi::Heartbeat => self.comparison.heartbeats += 1,
            StreamsApi::Describe => self.comparison.describes += 1,
        }
        if !matched.is_empty() {
            self.candidates = matched;
            return Ok(());
        }
        let near_deadline = any_near_deadline;
        let (differences, rules, table) = nearest.expect("at least one fork answered");
        self.parted = true;
        match self.recorded(&differences, &rules, &nearest_conditions) {
            Some(recorded) => self.comparison.known = Some(recorded),
            None => {
                self.divergence = Some(Divergence {
                    exchange: format!(
                        "{} v{version}",
                        match api {
                            StreamsApi::Heartbeat => "StreamsGroupHeartbeat",
                            StreamsApi::Describe => "StreamsGroupDescribe",
                        }
                    ),
                    request: request_json(api, version, request),
                    at_ms: before,
                    differences,
                    rules,
                    table,
                    timing_sensitive: near_deadline,
                })
            }
        }
        Ok(())
    }

    /// Runs a set-up step on both; the target's outcome is the step's, and a reference that
    /// refuses what the target did (or the reverse) is an error of the run's set-up.
    fn both<T>(
        what: &str,
        target: BackendResult<T>,
        reference: BackendResult<()>,
    ) -> BackendResult<T> {
        match (target, reference) {
            (Ok(value), Ok(())) => Ok(value),
            (Err(error), Err(_)) => Err(error),
            (Ok(_), Err(error)) => Err(BackendError::Refused {
                what: format!("{what}: the target accepted, the reference refused ({error})"),
                error_code: 0,
                message: None,
            }),
            (Err(error), Ok(())) => Err(BackendError::Refused {
                what: format!("{what}: the reference accepted, the target refused ({error})"),
                error_code: 0,
                message: None,
            }),
        }
    }
}

/// The states of `reference` an answer given between `before` and `after` (ms) may come from,
/// most likely first, and whether a deadline was near. On a virtual clock (`real_time_margin_ms`
/// `None`) the reference at `before`. On real time a target handles a request somewhere between
/// sending and answer, and its timers fire a little late: when a deadline of the reference (a
/// session or rebalance timeout, an assignment delay) falls before `after` plus the margin, the
/// reference at `before` less the margin and after each such deadline in turn. Each of those
/// also with the internal topics asked for created (a cluster creates them a while after the
/// heartbeat that asked) and with a configuration a refused heartbeat kept committed (a broker
/// commits it with the next records of any group on the partition), and any combination.
pub(crate) fn states_answering_between(
    reference: &EmbeddedTarget,
    (before, after): (u64, u64),
    real_time_margin_ms: Option<u64>,
) -> BackendResult<(Vec<EmbeddedTarget>, bool)> {
    let margin_ms = real_time_margin_ms.unwrap_or(0);
    let window_end = after + margin_ms;
    let mut state = reference.clone();
    state.advance_to(before.saturating_sub(margin_ms))?;
    let near_deadline =
        real_time_margin_ms.is_some() && state.next_deadline().is_some_and(|d| d <= window_end);
    if !near_deadline {
        state.advance_to(before)?;
    }
    let mut states = vec![state];
    if near_deadline {
        // The target may have fired some of the deadlines in the window and not yet the rest: a
        // state after each, in order.
        let mut fired = states[0].clone();
        while let Some(deadline) = fired.next_deadline().filter(|d| *d <= window_end) {
            fired.advance_to(deadline)?;
            states.push(fired.clone());
        }
    }
    let states = EmbeddedTarget::also_after(
        EmbeddedTarget::with_internal_topics_created(states),
        EmbeddedTarget::has_uncommitted_configurations,
        EmbeddedTarget::commit_uncommitted_configurations,
    );
    Ok((states, near_deadline))
}

impl<B: Backend> Backend for DifferentialBackend<B> {
    fn heartbeat_version(&self) -> i16 {
        self.target.heartbeat_version()
    }

    fn describe_version(&self) -> i16 {
        self.target.describe_version()
    }

    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        let compared = !self.parted
            && groups_of(api, version, request).is_some_and(|groups| {
                !groups.is_empty() && groups.iter().all(|g| *g == self.group)
            });
        let before = self.target.now_ms();
        let answer = self.target.call(api, version, request).await?;
        if compared {
            let after = self.target.now_ms();
            self.judge(api, version, request, &answer, (before, after))?;
        }
        Ok(answer)
    }

    fn take_wire_exchange(&mut self) -> Option<crate::transport::Exchange> {
        self.target.take_wire_exchange()
    }

    fn take_divergence(&mut self) -> Option<Divergence> {
        self.divergence.take()
    }

    fn comparison(&self) -> Option<Comparison> {
        Some(self.comparison.clone())
    }

    async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
        let target = self.target.create_topics(topics).await;
        let reference = on_every_candidate!(self, |reference| reference.create_topics(topics));
        Self::both("creating topics", target, reference)
    }

    async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
        let target = self.target.delete_topics(names).await;
        let reference = on_every_candidate!(self, |reference| reference.delete_topics(names));
        Self::both("deleting topics", target, reference)
    }

    async fn create_partitions(&mut self, topic: &str, partitions: i32) -> BackendResult<()> {
        // A target that cannot grow topics keeps them; so does the reference.
        self.target.create_partitions(topic, partitions).await?;
        let reference = on_every_candidate!(self, |reference| reference
            .create_partitions(topic, partitions));
        Self::both("growing a topic", Ok(()), reference)
    }

    async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
        // The reference catches up before the next exchange it answers.
        self.target.sleep(duration).await
    }

    fn now_ms(&self) -> u64 {
        self.target.now_ms()
    }

    fn sees_metadata_at_once(&self) -> bool {
        self.target.sees_metadata_at_once()
    }

    // The reference beside it answers at once: the target's waits are the call's.
    fn bounds_its_own_waits(&self) -> bool {
        self.target.bounds_its_own_waits()
    }

    async fn probe_group_beside(&mut self, probe_group: &str) -> BackendResult<String> {
        // The target's cluster decides which group shares the run group's coordinator; the
        // reference, one coordinator, answers any.
        self.target.probe_group_beside(probe_group).await
    }

    async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
        self.target.broker_configs(names).await
    }

    async fn group_config_names(&mut self, group_id: &str) -> BackendResult<Vec<String>> {
        self.target.group_config_names(group_id).await
    }

    async fn group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<Vec<Option<String>>> {
        self.target.group_configs(group_id, names).await
    }

    async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> BackendResult<()> {
        let target = self.target.set_group_configs(group_id, configs).await;
        if matches!(target, Err(BackendError::Unsupported { .. })) {
            // The run then goes on with the defaults, on both.
            return target;
        }
        let reference = on_every_candidate!(self, |reference| reference
            .set_group_configs(group_id, configs));
        Self::both("setting group configs", target, reference)
    }

    async fn delete_group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<()> {
        let target = self.target.delete_group_configs(group_id, names).await;
        let reference = on_every_candidate!(self, |reference| reference
            .delete_group_configs(group_id, names));
        Self::both("deleting group configs", target, reference)
    }

    async fn create_consumer_group(
        &mut self,
        group_id: &str,
        topics: &[String],
    ) -> BackendResult<()> {
        let target = self.target.create_consumer_group(group_id, topics).await;
        let reference = on_every_candidate!(self, |reference| reference
            .create_consumer_group(group_id, topics));
        Self::both("making a consumer group", target, reference)
    }

    async fn deny(&mut self, operation: Operation, resource: &Resource) -> BackendResult<()> {
        let target = self.target.deny(operation, resource).await;
        let reference = on_every_candidate!(self, |reference| reference.deny(operation, resource));
        Self::both("denying an operation", target, reference)
    }

    async fn remove_acls(&mut self, resource: &Resource) -> BackendResult<()> {
        let target = self.target.remove_acls(resource).await;
        let reference = on_every_candidate!(self, |reference| reference.remove_acls(resource));
        Self::both("removing ACLs", target, reference)
    }
}

/// Opens [`DifferentialBackend`]s: a backend of `C` beside a fresh reference coordinator.
#[derive(Debug, Clone)]
pub struct DifferentialConnector<C> {
    pub inner: C,
    /// How near a deadline an exchange is timing-sensitive: [`REAL_TIME_MARGIN`] for a target
    /// on real time (one that shares state: a broker), none on a virtual clock.
    pub margin: Duration,
    /// Known divergences, matched by field and rule: `harness/divergences.json` and the user's.
    pub recorded: Arc<Vec<Recorded>>,
}

impl<C: Connect> DifferentialConnector<C> {
    /// `inner`'s target compared with the reference, our recorded divergences known.
    pub fn new(inner: C) -> Self {
        let margin = if inner.shares_state() {
            REAL_TIME_MARGIN
        } else {
            Duration::ZERO
        };
        DifferentialConnector {
            inner,
            margin,
            recorded: Arc::new(crate::runner::divergences()),
        }
    }

    /// With more recorded divergences (a user's file).
    pub fn with_recorded(mut self, more: Vec<Recorded>) -> Self {
        Arc::make_mut(&mut self.recorded).extend(more);
        self
    }
}

impl<C: Connect> Connect for DifferentialConnector<C> {
    type Backend = DifferentialBackend<C::Backend>;

    async fn open(
        &self,
        group_id: &str,
        broker_configs: &BTreeMap<String, String>,
    ) -> BackendResult<Self::Backend> {
        let mut target = self.inner.open(group_id, broker_configs).await?;
        let names: Vec<String> = MIRRORED_BROKER_CONFIGS
            .iter()
            .map(|name| (*name).to_owned())
            .collect();
        let reported = target.broker_configs(&names).await?;
        let mut configs = broker_configs.clone();
        for (name, value) in names.into_iter().zip(reported) {
            if let Some(value) = value {
                configs.insert(name, value);
            }
        }
        let reference = EmbeddedTarget::with_broker_configs(
            configs
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str())),
        )
        .deferring_internal_topics();
        Ok(DifferentialBackend {
            target,
            candidates: vec![reference],
            group: group_id.to_owned(),
            margin_ms: self.margin.as_millis() as u64,
            longest_answer_ms: 0,
            recorded: self.recorded.clone(),
            target_name: self.inner.name(),
            comparison: Comparison::default(),
            divergence: None,
            parted: false,
        })
    }

    fn name(&self) -> String {
        self.inner.name()
    }

    fn shares_state(&self) -> bool {
        self.inner.shares_state()
    }

    /// `--differential`, and the divergence files of the user's it knows.
    fn flags(&self) -> String {
        let builtin = crate::runner::divergences();
        let mut files: Vec<&str> = Vec::new();
        for recorded in self.recorded.iter().filter(|d| !builtin.contains(d)) {
            if !files.contains(&recorded.source.as_str()) {
                files.push(&recorded.source);
            }
        }
        let files: String = files
            .iter()
            .map(|file| format!(" --divergences {file}"))
            .collect();
        format!("{} --differential{files}", self.inner.flags())
    }

    /// A divergence file of the user's none of whose entries names this target, as check warns.
    fn warnings(&self) -> Vec<String> {
        let mut warnings = self.inner.warnings();
        warnings.extend(crate::runner::divergences_for_other_targets(
            &self.recorded,
            &self.inner.name(),
        ));
        warnings
    }

    fn skips(&self, scenario: &Scenario) -> Option<String> {
        self.inner.skips(scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_step_one_side_refused_says_which_side_and_why() {
        let refused = || {
            Err(BackendError::Refused {
                what: "deleting topics".to_owned(),
                error_code: 73,
                message: None,
            })
        };
        let target_refused =
            DifferentialBackend::<EmbeddedTarget>::both("deleting topics", refused(), Ok(()));
        assert_eq!(
            target_refused.unwrap_err().to_string(),
            "deleting topics: the reference accepted, the target refused (deleting topics failed with error 73 TOPIC_DELETION_DISABLED)"
        );
        let reference_refused =
            DifferentialBackend::<EmbeddedTarget>::both("deleting topics", Ok(()), refused());
        assert_eq!(
            reference_refused.unwrap_err().to_string(),
            "deleting topics: the target accepted, the reference refused (deleting topics failed with error 73 TOPIC_DELETION_DISABLED)"
        );
    }

    /// A cluster of one whose coordinator of the run group is that of `<probe>-beside`.
    #[derive(Debug, Default)]
    struct Clustered {
        inner: EmbeddedTarget,
    }

    impl Backend for Clustered {
        async fn call(
            &mut self,
            api: StreamsApi,
            version: i16,
            request: &[u8],
        ) -> BackendResult<Vec<u8>> {
            self.inner.call(api, version, request).await
        }

        async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
            self.inner.create_topics(topics).await
        }

        async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
            self.inner.delete_topics(names).await
        }

        async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
            self.inner.sleep(duration).await
        }

        fn now_ms(&self) -> u64 {
            self.inner.now_ms()
        }

        async fn probe_group_beside(&mut self, probe_group: &str) -> BackendResult<String> {
            Ok(format!("{probe_group}-beside"))
        }
    }

    struct ClusteredConnector;

    impl Connect for ClusteredConnector {
        type Backend = Clustered;

        async fn open(
            &self,
            _group_id: &str,
            _broker_configs: &BTreeMap<String, String>,
        ) -> BackendResult<Clustered> {
            Ok(Clustered::default())
        }

        fn name(&self) -> String {
            "clustered".to_owned()
        }
    }

    /// The waits for topic changes probe through a group the target's cluster chose, also when
    /// its answers are compared with the reference's.
    #[test]
    fn the_probe_group_is_the_targets_choice() {
        let connector = DifferentialConnector::new(ClusteredConnector);
        let probe = crate::backend::block_on(async {
            let mut backend = connector.open("g", &BTreeMap::new()).await.unwrap();
            backend.probe_group_beside("probe").await.unwrap()
        });
        assert_eq!(probe, "probe-beside");
    }

    fn difference(path: &str, target: &str, reference: &str) -> FieldDifference {
        FieldDifference {
            path: path.to_owned(),
            target: target.to_owned(),
            reference: reference.to_owned(),
        }
    }

    /// The recorded divergence of a kept configuration of a deleted topic explains a differing
    /// member epoch only where the reference's group is in that state, and not for another rule.
    #[test]
    fn a_divergence_with_a_condition_explains_only_differences_met_in_it() {
        let recorded = crate::runner::divergences();
        let rules = |ids: &[&str]| ids.iter().map(|id| (*id).to_owned()).collect::<Vec<_>>();
        let epoch = [difference(".memberEpoch", "3", "2")];
        let kept = [Condition::KeptConfigurationOfDeletedTopic];
        let found = explaining(
            &recorded,
            "127.0.0.1:9292",
            &epoch,
            &rules(&["R23", "R33"]),
            &kept,
        )
        .expect("recorded");
        assert_eq!(
            (found.field.as_deref(), found.condition),
            (
                Some(".memberEpoch"),
                Some(Condition::KeptConfigurationOfDeletedTopic)
            )
        );
        let status = [difference(".status[0]", "-", "{}")];
        assert_eq!(
            explaining(
                &recorded,
                "127.0.0.1:9292",
                &status,
                &rules(&["R33"]),
                &kept
            )
            .and_then(|d| d.field),
            Some(".status[]".to_owned())
        );
        // Not in that state, or not sharing a rule: a failure, not a known divergence.
        assert_eq!(
            explaining(
                &recorded,
                "127.0.0.1:9292",
                &epoch,
                &rules(&["R23", "R33"]),
                &[]
            ),
            None
        );
        assert_eq!(
            explaining(&recorded, "127.0.0.1:9292", &epoch, &rules(&["R23"]), &kept),
            None
        );
    }
}
