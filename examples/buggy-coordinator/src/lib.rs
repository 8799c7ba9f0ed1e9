//! How a Rust coordinator is graded in its own `cargo test`: [`Buggy`] stands for "your
//! coordinator". It is the reference coordinator with one planted bug, chosen by [`Bug`], so its
//! tests can show the catalogue and the campaign catching each bug by name. A real adopter
//! implements [`Backend`] over their own coordinator in the same way: answer api keys 88 and 89
//! as bytes, create and delete topics, let time pass, and (optionally) set configs and ACLs.

use std::collections::BTreeMap;

use streamspec::backend::{BackendResult, Connect};
use streamspec::embedded::{EmbeddedConnector, EmbeddedTarget};
use streamspec::{Backend, StreamsApi};
use streamspec_protocol::codes::{
    ERROR_FENCED_MEMBER_EPOCH, ERROR_NONE, ERROR_UNKNOWN_MEMBER_ID, STATUS_ASSIGNMENT_DELAYED,
    STATUS_MISSING_CLIENT_TAGS, STATUS_SHUTDOWN_APPLICATION, STATUS_STALE_TOPOLOGY,
};
use streamspec_protocol::kafka::streams_group_heartbeat_response::{Status, TaskIds};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use streamspec_protocol::WireMessage;

/// The defect planted in the coordinator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bug {
    /// None: the reference as it is.
    None,
    /// A heartbeat at an epoch the group has moved past is accepted at that epoch instead of
    /// being fenced (R24 asks for FENCED_MEMBER_EPOCH).
    AcceptsStaleEpochs,
    /// Every member given active tasks is also given partition 0 of its first subtopology, so
    /// two members can own one task (the campaign's "at most one member owns an active task").
    SharesTaskZero,
    /// A heartbeat at one epoch above the member's is taken as one at its epoch instead of
    /// being fenced (R23).
    AcceptsEpochAboveMember,
    /// An unknown member is answered FENCED_MEMBER_EPOCH, another code of the RPC's set, where
    /// R21 asks for UNKNOWN_MEMBER_ID.
    UnknownMemberAnsweredFenced,
    /// Every successful heartbeat carries the member's task lists, where unchanged ones are
    /// null (R26).
    TaskListsOnEveryHeartbeat,
    /// The group admits one member more than `group.streams.max.size`, which the coordinator
    /// reports as [`CONFIGURED_MAX_SIZE`] (R22).
    MaxSizeOffByOne,
    /// SHUTDOWN_APPLICATION is shown only to the member that asked for it (R43 asks for every
    /// member).
    ShutdownOnlyToRequester,
    /// A heartbeat at the member's previous epoch is taken as one at its epoch without checking
    /// that the tasks it owns are among those it is assigned (R24 tolerates a lost answer only
    /// then).
    ToleratesLostAnswerUnchecked,
    /// A shutdown request outlives the group: members joining after every member left still see
    /// SHUTDOWN_APPLICATION (R44 forgets the request when the group empties).
    ShutdownOutlivesTheGroup,
    /// The member's topology epoch is compared with the group's by `<=` instead of `<`, so a
    /// member holding the group's own topology is told it is stale (R38).
    StaleAtEqualTopologyEpoch,
}

/// The `group.streams.max.size` a [`Bug::MaxSizeOffByOne`] coordinator reports.
pub const CONFIGURED_MAX_SIZE: usize = 3;

/// The coordinator under test: the reference behind a planted [`Bug`].
#[derive(Debug)]
pub struct Buggy {
    inner: EmbeddedTarget,
    bug: Bug,
    /// What the bugs remember of earlier answers: each member's epoch, the one before it, its
    /// task lists and topology epoch; who asked for a shutdown; each group's shutdown status
    /// and topology epoch.
    epochs: BTreeMap<String, i32>,
    previous_epochs: BTreeMap<String, i32>,
    topology_epochs: BTreeMap<String, i32>,
    group_topology_epochs: BTreeMap<String, i32>,
    shutdown_statuses: BTreeMap<String, Status>,
    task_lists: BTreeMap<String, [Option<Vec<TaskIds>>; 3]>,
    shutdown_requested_by: Option<String>,
}

impl Buggy {
    /// The request as the bug reads it.
    fn misread(&self, mut request: StreamsGroupHeartbeatRequest) -> StreamsGroupHeartbeatRequest {
        let epoch = self.epochs.get(&request.member_id).copied();
        match (self.bug, epoch) {
            (Bug::AcceptsEpochAboveMember, Some(epoch))
                if epoch > 0 && request.member_epoch == epoch + 1 =>
            {
                request.member_epoch = epoch;
            }
            (Bug::ToleratesLostAnswerUnchecked, Some(epoch))
                if request.member_epoch > 0
                    && self.previous_epochs.get(&request.member_id)
                        == Some(&request.member_epoch) =>
            {
                request.member_epoch = epoch;
            }
            _ => {}
        }
        request
    }

    /// Remembers what a successful answer to `request` tells the bugs.
    fn remember(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
        response: &StreamsGroupHeartbeatResponse,
    ) {
        let member = &request.member_id;
        if let Some(old) = self.epochs.insert(member.clone(), response.member_epoch) {
            if old != response.member_epoch {
                self.previous_epochs.insert(member.clone(), old);
            }
        }
        if let Some(topology) = &request.topology {
            // The group keeps the first topology it is given (spec 5.2), also when it empties.
            self.topology_epochs.insert(member.clone(), topology.epoch);
            self.group_topology_epochs
                .entry(request.group_id.clone())
                .or_insert(topology.epoch);
        }
    }

    /// Rewrites the reference's answer to `request` as the bug would have it.
    fn plant(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
        mut response: StreamsGroupHeartbeatResponse,
    ) -> StreamsGroupHeartbeatResponse {
        match self.bug {
            Bug::None
            | Bug::AcceptsEpochAboveMember
            | Bug::MaxSizeOffByOne
            | Bug::ToleratesLostAnswerUnchecked => {}
            Bug::ShutdownOutlivesTheGroup => {
                let shown = response.status.as_ref().and_then(|statuses| {
                    statuses
                        .iter()
                        .find(|status| status.status_code == STATUS_SHUTDOWN_APPLICATION)
                });
                match shown {
                    Some(status) => {
                        self.shutdown_statuses
                            .insert(request.group_id.clone(), status.clone());
                    }
                    None if request.member_epoch >= 0 => {
                        if let (Some(status), Some(statuses)) = (
                            self.shutdown_statuses.get(&request.group_id),
                            &mut response.status,
                        ) {
                            insert_in_order(statuses, status.clone());
                        }
                    }
                    None => {}
                }
            }
            Bug::StaleAtEqualTopologyEpoch => {
                let member_epoch = self.topology_epochs.get(&request.member_id);
                let group_epoch = self.group_topology_epochs.get(&request.group_id);
                if let (Some(&member), Some(&group), Some(statuses)) =
                    (member_epoch, group_epoch, &mut response.status)
                {
                    let shown = statuses
                        .iter()
                        .any(|status| status.status_code == STATUS_STALE_TOPOLOGY);
                    if member == group && !shown {
                        let detail = format!(
                            "The member's topology epoch {member} is behind the group's topology epoch {group}."
                        );
                        insert_in_order(
                            statuses,
                            Status::default()
                                .with_status_code(STATUS_STALE_TOPOLOGY)
                                .with_status_detail(detail),
                        );
                    }
                }
            }
            Bug::UnknownMemberAnsweredFenced => {
                if response.error_code == ERROR_UNKNOWN_MEMBER_ID {
                    response.error_code = ERROR_FENCED_MEMBER_EPOCH;
                }
            }
            Bug::TaskListsOnEveryHeartbeat => {
                let lists = self
                    .task_lists
                    .entry(request.member_id.clone())
                    .or_default();
                let answered = [
                    &mut response.active_tasks,
                    &mut response.standby_tasks,
                    &mut response.warmup_tasks,
                ];
                for (remembered, answered) in lists.iter_mut().zip(answered) {
                    match answered {
                        Some(_) => *remembered = answered.clone(),
                        None if response.error_code == ERROR_NONE => {
                            answered.clone_from(remembered)
                        }
                        None => {}
                    }
                }
            }
            Bug::ShutdownOnlyToRequester => {
                if request.shutdown_application {
                    self.shutdown_requested_by
                        .get_or_insert_with(|| request.member_id.clone());
                }
                if self.shutdown_requested_by.as_ref() != Some(&request.member_id) {
                    if let Some(statuses) = &mut response.status {
                        statuses.retain(|status| status.status_code != STATUS_SHUTDOWN_APPLICATION);
                    }
                }
            }
            Bug::AcceptsStaleEpochs => {
                if response.error_code == ERROR_FENCED_MEMBER_EPOCH && request.member_epoch > 0 {
                    response = StreamsGroupHeartbeatResponse::default()
                        .with_error_code(ERROR_NONE)
                        .with_member_id(request.member_id.clone())
                        .with_member_epoch(request.member_epoch)
                        .with_heartbeat_interval_ms(5_000);
                }
            }
            Bug::SharesTaskZero => {
                if let Some(first) = response
                    .active_tasks
                    .as_mut()
                    .and_then(|tasks| tasks.first_mut())
                {
                    if !first.partitions.contains(&0) {
                        first.partitions.insert(0, 0);
                    }
                }
            }
        }
        response
    }
}

impl Backend for Buggy {
    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        if api != StreamsApi::Heartbeat || self.bug == Bug::None {
            return self.inner.call(api, version, request).await;
        }
        // The harness sent the request and the reference answers what the bug makes of it:
        // both decode.
        let request = StreamsGroupHeartbeatRequest::decode_exact(request, version)
            .expect("the harness sends well-formed requests");
        let misread = self.misread(request.clone());
        let answer = self
            .inner
            .call(
                api,
                version,
                &misread.encode_to_vec(version).expect("a request encodes"),
            )
            .await?;
        let response = StreamsGroupHeartbeatResponse::decode_exact(&answer, version)
            .expect("the reference answers well-formed responses");
        if response.error_code == ERROR_NONE {
            self.remember(&request, &response);
        }
        Ok(self
            .plant(&request, response)
            .encode_to_vec(version)
            .expect("a decoded response encodes again"))
    }

    /// As the reference reports them, but for the size a [`Bug::MaxSizeOffByOne`] coordinator
    /// is configured with.
    async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
        let mut values = self.inner.broker_configs(names).await?;
        if self.bug == Bug::MaxSizeOffByOne {
            for (name, value) in names.iter().zip(&mut values) {
                if name == "group.streams.max.size" {
                    *value = Some(CONFIGURED_MAX_SIZE.to_string());
                }
            }
        }
        Ok(values)
    }

    streamspec::delegate_backend_setup!(inner, except broker_configs);
}

/// Makes a fresh [`Buggy`] coordinator with `0`'s bug for every scenario and every run.
#[derive(Debug, Clone, Copy)]
pub struct WithBug(pub Bug);

impl Connect for WithBug {
    type Backend = Buggy;

    async fn open(
        &self,
        group_id: &str,
        broker_configs: &BTreeMap<String, String>,
    ) -> BackendResult<Buggy> {
        let mut configs = broker_configs.clone();
        if self.0 == Bug::MaxSizeOffByOne {
            // One more than it reports (`CONFIGURED_MAX_SIZE`).
            configs.insert(
                "group.streams.max.size".to_owned(),
                (CONFIGURED_MAX_SIZE + 1).to_string(),
            );
        }
        Ok(Buggy {
            inner: EmbeddedConnector.open(group_id, &configs).await?,
            bug: self.0,
            epochs: BTreeMap::new(),
            previous_epochs: BTreeMap::new(),
            topology_epochs: BTreeMap::new(),
            group_topology_epochs: BTreeMap::new(),
            shutdown_statuses: BTreeMap::new(),
            task_lists: BTreeMap::new(),
            shutdown_requested_by: None,
        })
    }

    fn name(&self) -> String {
        format!("buggy-{:?}", self.0)
    }
}

/// Adds `status` to a successful answer's list where Kafka's fixed order puts it (spec 7.2):
/// STALE_TOPOLOGY, ASSIGNMENT_DELAYED, the topology's configuration status,
/// SHUTDOWN_APPLICATION, MISSING_CLIENT_TAGS.
fn insert_in_order(statuses: &mut Vec<Status>, status: Status) {
    let rank = |code: i8| match code {
        STATUS_STALE_TOPOLOGY => 0,
        STATUS_ASSIGNMENT_DELAYED => 1,
        STATUS_SHUTDOWN_APPLICATION => 3,
        STATUS_MISSING_CLIENT_TAGS => 4,
        _ => 2,
    };
    let position = statuses
        .iter()
        .position(|present| rank(present.status_code) > rank(status.status_code))
        .unwrap_or(statuses.len());
    statuses.insert(position, status);
}
