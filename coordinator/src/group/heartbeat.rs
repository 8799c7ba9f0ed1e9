//! A member's heartbeat (spec 3) in two steps: admission runs every check that can refuse the
//! request and changes nothing, so a refused request writes nothing; application then changes the
//! group and answers. The work is proportional to the member's own state, not the group's.

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::codes::{
    ERROR_STREAMS_INVALID_TOPOLOGY, STATUS_ASSIGNMENT_DELAYED, STATUS_MISSING_CLIENT_TAGS,
    STATUS_SHUTDOWN_APPLICATION, STATUS_STALE_TOPOLOGY,
};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};
use streamspec_protocol::kafka::streams_group_heartbeat_response as response;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::endpoints::with_endpoint_information;
use super::member::Member;
use super::membership::{check_epoch, check_instance, leave};
use super::Group;
use crate::config::CoordinatorConfig;
use crate::context::{Effect, RequestContext};
use crate::errors::ErrorAnswer;
use crate::metadata::{ClusterMetadata, Fingerprint};
use crate::tasks::{self, TaskSets};
use crate::topology::{self, ConfiguredTopology};

/// Handles a heartbeat that passed validation.
pub(crate) fn heartbeat(
    groups: &mut BTreeMap<String, Group>,
    config: &CoordinatorConfig,
    metadata: &ClusterMetadata,
    now_ms: u64,
    context: &RequestContext,
    version: i16,
    request: &StreamsGroupHeartbeatRequest,
) -> Result<(StreamsGroupHeartbeatResponse, Vec<Effect>), ErrorAnswer> {
    let epoch = request.member_epoch;
    if epoch < 0 {
        return leave(groups, request);
    }
    let heartbeat = Heartbeat {
        config,
        metadata,
        now_ms,
        context,
        version,
        request,
    };
    match groups.get_mut(&request.group_id) {
        Some(group) => heartbeat.run(group),
        None if epoch == 0 => {
            // The group comes into being only if the join succeeds.
            let mut group = Group::new(&request.group_id);
            let (mut answer, effects) = heartbeat.run(&mut group)?;
            // Kafka answers the join that creates a group from a group object that its records
            // then replace: the endpoint epoch raised for the answer is not kept, and the
            // answer says 0 (spec 7.6, R46).
            answer.endpoint_information_epoch = 0;
            group.endpoint_epoch = 0;
            groups.insert(group.id.clone(), group);
            Ok((answer, effects))
        }
        None => Err(ErrorAnswer::streams_group_not_found(&request.group_id)), // R20
    }
}

/// What a topology in a join does to the group's (spec 5.2).
enum TopologyChange {
    None,
    Set(Topology),
}

/// Who the member is before this request.
enum Arrival {
    /// A member of the group.
    Known,
    /// A new member.
    New,
    /// A new member in the place of this released static member, inheriting its state (spec
    /// 3.6).
    Replacing(String),
}

/// What admission found: all that application needs, computed without changing the group.
struct Admission {
    arrival: Arrival,
    /// The tasks the request reports (`None` when its task lists are null).
    owned: Option<TaskSets>,
    topology: TopologyChange,
    /// The configured topology and the partition counts it was computed for, when the topics it
    /// depends on changed.
    reconfigured: Option<(ConfiguredTopology, Fingerprint)>,
}

struct Heartbeat<'a> {
    config: &'a CoordinatorConfig,
    metadata: &'a ClusterMetadata,
    now_ms: u64,
    context: &'a RequestContext,
    version: i16,
    request: &'a StreamsGroupHeartbeatRequest,
}

impl Heartbeat<'_> {
    fn run(
        &self,
        group: &mut Group,
    ) -> Result<(StreamsGroupHeartbeatResponse, Vec<Effect>), ErrorAnswer> {
        let admission = self.admit(group)?;
        if admission.reconfigured.is_none() {
            group.give_up_kept_configuration_of_deleted_topic(self.metadata);
        }
        if let Err(refused) = self.check_owned(group, &admission) {
            // Kafka configures the topology before this check and keeps the configured topology
            // in memory when it refuses, without the records of the new metadata or validated
            // epoch: describe shows it once a later request's records are committed.
            if let Some(kept) = admission.reconfigured.filter(|(c, _)| c.is_ready()) {
                group.uncommitted_configured = Some(kept);
            }
            return Err(refused);
        }
        // A heartbeat that gets this far configures the topology again (the refused request
        // kept no metadata fingerprint), unless the topics went back to what the group last
        // configured; then the kept configuration is the group's.
        if admission.reconfigured.is_none() {
            group.commit_configuration();
        }
        group.uncommitted_configured = None;
        Ok(self.apply(group, admission))
    }

    /// R40: tasks the request reports must exist in the topology as configured, when ready.
    fn check_owned(&self, group: &Group, admission: &Admission) -> Result<(), ErrorAnswer> {
        let configured = admission
            .reconfigured
            .as_ref()
            .map(|(configured, _)| configured)
            .or(group.configured.as_ref())
            .filter(|c| c.is_ready());
        match (configured, &admission.owned) {
            (Some(configured), Some(owned)) => validate_owned(owned, configured),
            _ => Ok(()),
        }
    }

    /// Every check that can refuse the request, in Kafka's order, but R40's (`check_owned`);
    /// the group is only read.
    fn admit(&self, group: &Group) -> Result<Admission, ErrorAnswer> {
        let request = self.request;
        check_instance(group, request)?;
        let owned = owned_tasks(request);
        let arrival = self.arrival(group, owned.as_ref())?;
        if request
            .topology
            .as_ref()
            .is_some_and(topology::is_unreadable)
        {
            return Err(ErrorAnswer::unknown_server_error());
        }
        // Topology (spec 5.2): set it, accept a stale member, or refuse a change (R37, R38, R39).
        // Only a topology that becomes the group's has its copartition indexes resolved.
        let change = match (&request.topology, &group.topology) {
            (Some(topology), None) => TopologyChange::Set(topology.clone()),
            (Some(topology), Some(current))
                if current.epoch <= topology.epoch && !same_topology(current, topology) =>
            {
                return Err(ErrorAnswer::invalid_request(
                    "Topology updates are not supported yet.",
                ));
            }
            _ => TopologyChange::None,
        };
        if let TopologyChange::Set(topology) = &change {
            // Configuring the group's new topology resolves its copartition indexes (open
            // question 9); a stale member's topology is never configured (R38).
            if topology::has_copartition_index_out_of_range(topology) {
                return Err(ErrorAnswer::unknown_server_error());
            }
        }
        let topology = match &change {
            TopologyChange::Set(topology) => Some(topology),
            TopologyChange::None => group.topology.as_ref(),
        };
        // The configured topology, recomputed only when the topics it depends on changed. The
        // group's fingerprint names the topics of its topology, which never changes once set, so
        // a steady heartbeat compares counts without listing the topics again.
        let stale = matches!(change, TopologyChange::Set(_))
            || group.configured.is_none()
            || !self.metadata.matches(&group.metadata_fingerprint);
        let reconfigured = topology.filter(|_| stale).and_then(|topology| {
            // Sorted and distinct, borrowed: the fingerprint copies each name once.
            let topics: BTreeSet<&str> = topology::topic_mentions(topology).collect();
            let fingerprint = self.metadata.hash_of(topics.into_iter());
            (group.configured.is_none() || fingerprint != group.metadata_fingerprint)
                .then(|| (topology::configure(topology, self.metadata), fingerprint))
        });
        if let Some(invalid) = reconfigured.as_ref().and_then(|(c, _)| c.invalid.clone()) {
            return Err(ErrorAnswer::new(ERROR_STREAMS_INVALID_TOPOLOGY, invalid));
        }
        // The last check, R40's, is `check_owned`: a refusal there keeps the configuration.
        Ok(Admission {
            arrival,
            owned,
            topology: change,
            reconfigured,
        })
    }

    /// Who the member is before this request, checking its epoch (spec 3.4) or the group's room.
    fn arrival(&self, group: &Group, owned: Option<&TaskSets>) -> Result<Arrival, ErrorAnswer> {
        let request = self.request;
        let epoch = request.member_epoch;
        // Spec 3.6: an epoch-0 join with the instance id of a static member released at -2
        // replaces it. Kafka 4.4.0 replaces it whoever asks: under a new member id, or under the
        // id of another member of the group, whose own state the copy takes the place of (its
        // records are overwritten). Under the released member's own id it is that member (R54).
        let released = request
            .instance_id
            .as_ref()
            .filter(|_| epoch == 0)
            .and_then(|instance| group.static_member(instance))
            .filter(|m| m.epoch == -2);
        if let Some(previous) = released.filter(|m| m.id != request.member_id) {
            return Ok(Arrival::Replacing(previous.id.clone()));
        }
        match group.members.get(&request.member_id) {
            Some(member) => {
                // R54: an epoch-0 rejoin of an existing member is a heartbeat of that member.
                if epoch != 0 {
                    check_epoch(member, epoch, owned)?;
                }
                Ok(Arrival::Known)
            }
            None if epoch != 0 => Err(ErrorAnswer::unknown_member(request)),
            None if group.members.len() >= self.config.max_size => {
                Err(ErrorAnswer::group_max_size_reached(self.config.max_size))
            }
            None => Ok(Arrival::New),
        }
    }

    /// Changes the group as the admitted request says, and answers it.
    fn apply(
        &self,
        group: &mut Group,
        admission: Admission,
    ) -> (StreamsGroupHeartbeatResponse, Vec<Effect>) {
        let request = self.request;
        let Admission {
            arrival,
            owned,
            topology,
            reconfigured,
        } = admission;
        // R46: whether the request changes the member's endpoint: a known member's cannot be
        // cleared (no endpoint in the request keeps it), a new member has none before, and a
        // replacement has the request's alone, compared with the released member's (Kafka 4.4.0:
        // harness/scenarios/static-and-v1/R46-static-replacement-takes-no-endpoint.json).
        let differs = |before: Option<&(String, u16)>| {
            request.user_endpoint.as_ref().is_some_and(|endpoint| {
                before.is_none_or(|(host, port)| *host != endpoint.host || *port != endpoint.port)
            })
        };
        let endpoint_changed = match &arrival {
            Arrival::Known => differs(
                group.members[&request.member_id]
                    .metadata
                    .user_endpoint
                    .as_ref(),
            ),
            Arrival::New => differs(None),
            Arrival::Replacing(previous) => {
                let released = group.members[previous].metadata.user_endpoint.as_ref();
                differs(released) || (released.is_some() && request.user_endpoint.is_none())
            }
        };
        let joins_now = !matches!(arrival, Arrival::Known);
        let replaced = match &arrival {
            Arrival::Replacing(previous_id) => Some(previous_id.clone()),
            _ => None,
        };
        // R44: Kafka 4.4.0 writes the join of a static member released at -2 (under a new member
        // id or its own) as a replacement: the released member's tombstones, then the new
        // member's records. Replaying them empties its member map for a moment when the released
        // member was the only one, which forgets a shutdown request (`maybeUpdateGroupState`
        // clears it whenever it finds no members). The answer, built before the replay, still
        // shows it.
        let rejoins_released = match &arrival {
            Arrival::Replacing(_) => true,
            Arrival::Known => {
                request.member_epoch == 0
                    && request.instance_id.is_some()
                    && group.members[&request.member_id].epoch == -2
            }
            Arrival::New => false,
        };
        let replacement_empties_group = rejoins_released && group.members.len() == 1;
        let (member_changed, overwritten) = self.put_member(group, arrival);
        let inputs_changed = self.update_inputs(group, topology, reconfigured);
        if member_changed || inputs_changed {
            group.bump();
        }
        self.assign_if_due(group);
        let assigned_changed = group.reconcile(&request.member_id, owned.as_ref(), self.now_ms);
        if let Some(overwritten) = &overwritten {
            group.holders.remove_member(overwritten);
        }
        if request.shutdown_application && group.shutdown_requested_by.is_none() {
            group.shutdown_requested_by = Some(request.member_id.clone());
        }
        if joins_now {
            // Kafka's member map learns of the join from its records: the replaced member's
            // removal, then the member record and its assignment record, two puts.
            if let Some(previous_id) = &replaced {
                group.member_order.remove(previous_id);
            }
            group.member_order.put(&request.member_id);
            group.member_order.put(&request.member_id);
        }
        let member = group.members.get_mut(&request.member_id).unwrap();
        member.session_deadline_ms = self.now_ms + self.config.session_timeout_ms;
        let send_tasks = request.member_epoch == 0 || assigned_changed;
        let effects = match &group.configured {
            Some(configured) if !configured.topics_to_create.is_empty() => {
                vec![Effect::CreateTopics(configured.topics_to_create.clone())]
            }
            _ => Vec::new(),
        };
        // R46: Kafka 4.4.0 moves the endpoint epoch when the member's endpoint changes, or its
        // tasks while it has one; a rejoin or a static replacement that keeps both leaves it.
        let has_endpoint = group.members[&request.member_id]
            .metadata
            .user_endpoint
            .is_some();
        let endpoint_news = endpoint_changed || (assigned_changed && has_endpoint);
        let response = self.respond(group, send_tasks, endpoint_news);
        if replacement_empties_group {
            group.shutdown_requested_by = None;
        }
        (response, effects)
    }

    /// Stores the member as the request leaves it; whether that bumps the group epoch (a new
    /// member, or changed member metadata, spec 3.1). A known member is changed in place. Also
    /// the joiner's own former state when a copy of a released member overwrites it: its tasks
    /// stay held until the joiner is reconciled (the caller then lets them go), since Kafka
    /// 4.4.0 reconciles against the group as it was before the request and replays the records
    /// that overwrite the joiner only after answering (R49).
    fn put_member(&self, group: &mut Group, arrival: Arrival) -> (bool, Option<Member>) {
        let request = self.request;
        if group.members.is_empty() && self.config.initial_rebalance_delay_ms > 0 {
            group.delay_deadline_ms = Some(self.now_ms + self.config.initial_rebalance_delay_ms);
        }
        let new = matches!(arrival, Arrival::New);
        let mut overwritten = None;
        match arrival {
            Arrival::Known => {}
            Arrival::New => group.put_member(Member::new(&request.member_id)),
            Arrival::Replacing(previous_id) => {
                // A member of the group taking the released member's place is replaced by the
                // copy (`arrival`): its own state goes, its tasks once it is reconciled.
                overwritten = group.take_member(&request.member_id);
                if let Some(joiner) = &overwritten {
                    group.targets.remove(&request.member_id);
                    group.holders.add_member(joiner);
                }
                let previous = group
                    .take_member(&previous_id)
                    .expect("admission found the member");
                group.targets.rename(&previous_id, &request.member_id);
                let mut copy = previous.renamed(&request.member_id);
                // R46: the copy's endpoint is the request's alone, as Kafka 4.4.0 keeps it.
                copy.metadata.user_endpoint = None;
                group.put_member(copy);
            }
        }
        let change = group.update_metadata(request, self.context);
        // Kafka 4.4.0 bumps the epoch for any change of a dynamic member's metadata, but for a
        // request with an instance id only for the fields that matter to the assignment (spec 3.1
        // step 4, PR #22245).
        let changed = if request.instance_id.is_some() {
            change.epoch_relevant
        } else {
            change.any
        };
        let member = group
            .members
            .get_mut(&request.member_id)
            .expect("stored above");
        if member.epoch == -2 {
            // Kafka 4.4.0 replaces a released static member by a copy of it at epoch 0 and
            // previous epoch 0 (spec 3.6): reconciling below brings it to the target's epoch, and
            // a request at its epoch from before the release is fenced from then on (R24).
            member.epoch = 0;
            member.previous_epoch = 0;
        }
        if let Some(offsets) = &request.task_offsets {
            member.task_offsets = offsets
                .iter()
                .map(|o| (o.subtopology_id.clone(), o.partition, o.offset))
                .collect();
        }
        if let Some(offsets) = &request.task_end_offsets {
            member.task_end_offsets = offsets
                .iter()
                .map(|o| (o.subtopology_id.clone(), o.partition, o.offset))
                .collect();
        }
        (new || changed, overwritten)
    }

    /// Takes the group's other assignment inputs up: topology, configured topology, assignment
    /// configs; whether any changed, which bumps the group epoch.
    fn update_inputs(
        &self,
        group: &mut Group,
        topology: TopologyChange,
        reconfigured: Option<(ConfiguredTopology, Fingerprint)>,
    ) -> bool {
        let mut bump = false;
        if let TopologyChange::Set(topology) = topology {
            group.topology = Some(topology);
            bump = true;
        }
        if let Some((configured, fingerprint)) = reconfigured {
            group.configured = Some(configured);
            group.committed_kept = None;
            group.metadata_fingerprint = fingerprint;
            bump = true;
        }
        // A ready group has a topology: its configuration was computed from it.
        if let Some(topology) = group.topology.as_ref().filter(|_| group.is_ready()) {
            if group.validated_topology_epoch != topology.epoch {
                group.validated_topology_epoch = topology.epoch;
                bump = true;
            }
        }
        // Assignment configs are part of the group's inputs (spec 3.1 step 7).
        if group.num_standby_replicas != Some(self.config.num_standby_replicas) {
            bump |= group.num_standby_replicas.is_some();
            group.num_standby_replicas = Some(self.config.num_standby_replicas);
        }
        bump
    }

    /// A new target assignment when the group epoch is ahead of it and the interval allows.
    fn assign_if_due(&self, group: &mut Group) {
        if group.epoch > group.assignment_epoch {
            // Kafka 4.3+: at most one target assignment per interval; meanwhile members reconcile
            // towards the previous target (open question 6, settled against 4.4.0).
            let interval = self.config.assignment_interval_ms;
            group.interval_throttled = group.delay_deadline_ms.is_none()
                && group
                    .last_target_ms
                    .is_some_and(|last| self.now_ms < last + interval);
            if !group.interval_throttled {
                group.compute_targets(self.config);
                if group.delay_deadline_ms.is_none() {
                    group.last_target_ms = Some(self.now_ms);
                }
            }
        }
    }

    /// The answer to an applied heartbeat; `send_tasks` when the member's tasks are news to it,
    /// `endpoint_news` when they are news to the group's endpoint information.
    fn respond(
        &self,
        group: &mut Group,
        send_tasks: bool,
        endpoint_news: bool,
    ) -> StreamsGroupHeartbeatResponse {
        let config = self.config;
        let member = &group.members[&self.request.member_id];
        let mut out = StreamsGroupHeartbeatResponse::default()
            .with_member_id(member.id.clone())
            .with_member_epoch(member.epoch)
            .with_heartbeat_interval_ms(config.heartbeat_interval_ms)
            .with_task_offset_interval_ms(config.task_offset_interval_ms)
            .with_status(Some(self.statuses(group, member)));
        if self.version >= 1 {
            out = out.with_acceptable_recovery_lag(config.acceptable_recovery_lag);
        }
        if send_tasks {
            out = out
                .with_active_tasks(Some(tasks::to_response(&member.assigned.active)))
                .with_standby_tasks(Some(tasks::to_response(&member.assigned.standby)))
                .with_warmup_tasks(Some(tasks::to_response(&member.assigned.warmup)));
        }
        if endpoint_news {
            group.endpoint_epoch += 1;
        }
        with_endpoint_information(out, group, self.metadata, self.request)
    }

    /// The statuses of the answer to `member`, in Kafka's order (spec 5.7).
    fn statuses(&self, group: &Group, member: &Member) -> Vec<response::Status> {
        let mut status = Vec::new();
        // Every member joined with a topology, so the group has one.
        let group_topology_epoch = group.topology.as_ref().map(|t| t.epoch);
        if let Some(group_topology_epoch) =
            group_topology_epoch.filter(|&epoch| member.metadata.topology_epoch < epoch)
        {
            status.push(
                response::Status::default().with_status_code(STATUS_STALE_TOPOLOGY).with_status_detail(format!(
                    "The member's topology epoch {} is behind the group's topology epoch {group_topology_epoch}.",
                    member.metadata.topology_epoch
                )),
            );
        }
        if group.is_assignment_delayed() {
            status.push(
                response::Status::default()
                    .with_status_code(STATUS_ASSIGNMENT_DELAYED)
                    .with_status_detail(
                        "Assignment delayed due to the configured initial rebalance delay.",
                    ),
            );
        }
        if group.interval_throttled && group.epoch > group.assignment_epoch {
            status.push(
                response::Status::default()
                    .with_status_code(STATUS_ASSIGNMENT_DELAYED)
                    .with_status_detail(
                        "Assignment delayed due to the configured assignment interval.",
                    ),
            );
        }
        if let Some((code, detail)) = group.configured.as_ref().and_then(|c| c.status.clone()) {
            status.push(
                response::Status::default()
                    .with_status_code(code)
                    .with_status_detail(detail),
            );
        }
        if let Some(requester) = &group.shutdown_requested_by {
            status.push(
                response::Status::default().with_status_code(STATUS_SHUTDOWN_APPLICATION).with_status_detail(format!(
                    "Streams group member {requester} encountered a fatal error and requested a shutdown for the entire application."
                )),
            );
        }
        // Status 6 (Kafka 4.4, v1 only, last): the member lacks keys of the rack-aware assignment
        // tags. Only the keys count; the assignment goes on as usual.
        let missing: Vec<&str> = self
            .config
            .rack_aware_assignment_tags
            .iter()
            .filter(|key| !member.metadata.client_tags.iter().any(|(k, _)| k == *key))
            .map(String::as_str)
            .collect();
        if self.version >= 1 && !missing.is_empty() {
            status.push(
                response::Status::default().with_status_code(STATUS_MISSING_CLIENT_TAGS).with_status_detail(format!(
                    "Missing required client tags for rack-aware standby assignment: [{}]. Configure them via 'client.tag.<tagKey>' in your Streams config.",
                    missing.join(", ")
                )),
            );
        }
        status
    }
}

fn owned_tasks(request: &StreamsGroupHeartbeatRequest) -> Option<TaskSets> {
    TaskSets::from_request(
        request.active_tasks.as_deref(),
        request.standby_tasks.as_deref(),
        request.warmup_tasks.as_deref(),
    )
}

/// R40: owned tasks must exist in a ready topology.
fn validate_owned(owned: &TaskSets, configured: &ConfiguredTopology) -> Result<(), ErrorAnswer> {
    for tasks in [&owned.active, &owned.standby, &owned.warmup] {
        for (subtopology, partitions) in tasks {
            let Some(count) = configured.task_counts.get(subtopology) else {
                return Err(ErrorAnswer::invalid_request(format!(
                    "Subtopology {subtopology} does not exist in the topology."
                )));
            };
            if let Some(partition) = partitions.iter().find(|p| **p < 0 || **p >= *count) {
                return Err(ErrorAnswer::invalid_request(format!(
                    "Task {partition} for subtopology {subtopology} is invalid. Number of tasks for this subtopology: {count}"
                )));
            }
        }
    }
    Ok(())
}

/// Topologies are equal when their subtopologies are, keyed by id; lists inside a subtopology
/// compare in order (R39). Borrowed: every join carries a topology and is compared here.
fn same_topology(a: &Topology, b: &Topology) -> bool {
    fn by_id(topology: &Topology) -> BTreeMap<&str, &Subtopology> {
        topology
            .subtopologies
            .iter()
            .map(|s| (s.subtopology_id.as_str(), s))
            .collect()
    }
    // Listed in the same order (as a client sends its topology again), they are equal as maps.
    a.epoch == b.epoch && (a.subtopologies == b.subtopologies || by_id(a) == by_id(b))
}
