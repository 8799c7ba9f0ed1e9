//! A streams group: members, epochs, topology, target assignment and reconciliation.

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::kafka::streams_group_describe_response as describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request::Topology;
use streamspec_protocol::kafka::streams_group_heartbeat_response as response;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};

use crate::assignor::{AssignmentInput, MemberSpec, StickyAssignor, TaskAssignor};
use crate::java_order::{hash_map_order, Insertion};
use crate::tasks::{self, TaskSets, Tasks};
use crate::topology::{self, ConfiguredTopology};
use crate::*;
use streamspec_protocol::codes::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MemberState {
    Stable,
    UnrevokedTasks,
    UnreleasedTasks,
}

/// What a member told the coordinator about itself; a change bumps the group epoch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct MemberMetadata {
    instance_id: Option<String>,
    rack_id: Option<String>,
    client_id: String,
    client_host: String,
    rebalance_timeout_ms: i32,
    topology_epoch: i32,
    process_id: String,
    user_endpoint: Option<(String, u16)>,
    client_tags: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
struct Member {
    id: String,
    metadata: MemberMetadata,
    epoch: i32,
    previous_epoch: i32,
    state: MemberState,
    assigned: TaskSets,
    pending_revocation: TaskSets,
    task_offsets: Vec<(String, i32, i64)>,
    task_end_offsets: Vec<(String, i32, i64)>,
    session_deadline_ms: u64,
    rebalance_deadline_ms: Option<u64>,
}

impl Member {
    fn new(id: &str) -> Self {
        Member {
            id: id.to_owned(),
            metadata: MemberMetadata {
                rebalance_timeout_ms: -1,
                topology_epoch: -1,
                ..MemberMetadata::default()
            },
            epoch: 0,
            previous_epoch: -1,
            state: MemberState::Stable,
            assigned: TaskSets::default(),
            pending_revocation: TaskSets::default(),
            task_offsets: Vec::new(),
            task_end_offsets: Vec::new(),
            session_deadline_ms: 0,
            rebalance_deadline_ms: None,
        }
    }
}

/// One streams group.
#[derive(Debug, Clone)]
pub struct Group {
    id: String,
    epoch: i32,
    assignment_epoch: i32,
    topology: Option<Topology>,
    configured: Option<ConfiguredTopology>,
    /// Partition counts of the topology's topics when last configured.
    metadata_fingerprint: Vec<(String, Option<i32>)>,
    validated_topology_epoch: i32,
    members: BTreeMap<String, Member>,
    /// Member id by static instance id, so that a static member's request does not scan the
    /// group.
    static_members: BTreeMap<String, String>,
    targets: BTreeMap<String, TaskSets>,
    shutdown_requested_by: Option<String>,
    endpoint_epoch: i32,
    /// While set, the first assignment after the group was empty waits (spec 4.5).
    delay_deadline_ms: Option<u64>,
    /// The standby count the current target was computed with; a change bumps the epoch.
    num_standby_replicas: Option<i32>,
    /// When the last real target assignment was computed, for the assignment interval.
    last_target_ms: Option<u64>,
    /// Whether the assignment interval is holding back a new target.
    interval_throttled: bool,
}

impl Group {
    fn new(id: &str) -> Self {
        Group {
            id: id.to_owned(),
            epoch: 0,
            // A new group starts with an empty target assignment at epoch 1 (Kafka 4.3+).
            assignment_epoch: 1,
            topology: None,
            configured: None,
            metadata_fingerprint: Vec::new(),
            validated_topology_epoch: -1,
            members: BTreeMap::new(),
            static_members: BTreeMap::new(),
            targets: BTreeMap::new(),
            shutdown_requested_by: None,
            endpoint_epoch: -1,
            delay_deadline_ms: None,
            num_standby_replicas: None,
            last_target_ms: None,
            interval_throttled: false,
        }
    }

    /// The topology the group's members joined with, as they sent it.
    pub fn topology(&self) -> Option<&Topology> {
        self.topology.as_ref()
    }

    pub fn epoch(&self) -> i32 {
        self.epoch
    }

    pub fn assignment_epoch(&self) -> i32 {
        self.assignment_epoch
    }

    fn is_ready(&self) -> bool {
        self.configured
            .as_ref()
            .is_some_and(ConfiguredTopology::is_ready)
    }

    fn bump(&mut self) {
        // Epoch 1 belongs to the initial empty target assignment, so the first bump gives 2.
        self.epoch = if self.epoch == 0 { 2 } else { self.epoch + 1 };
    }

    /// Group state, as describe reports it (spec 4.2).
    pub fn state(&self) -> &'static str {
        if self.members.is_empty() {
            GROUP_STATE_EMPTY
        } else if self.topology.as_ref().map(|t| t.epoch) != Some(self.validated_topology_epoch)
            || !self.is_ready()
        {
            // Spec 5.5: also when a topology that was ready stops being so (a source topic
            // deleted).
            GROUP_STATE_NOT_READY
        } else if self.epoch > self.assignment_epoch {
            GROUP_STATE_ASSIGNING
        } else if self
            .members
            .values()
            .any(|m| m.state != MemberState::Stable || m.epoch != self.assignment_epoch)
        {
            GROUP_STATE_RECONCILING
        } else {
            GROUP_STATE_STABLE
        }
    }

    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.members
            .values()
            .flat_map(|member| {
                [
                    Some(member.session_deadline_ms),
                    member.rebalance_deadline_ms,
                ]
            })
            .flatten()
            .chain(self.delay_deadline_ms)
            .min()
    }

    /// Ends the initial rebalance delay once it is due; the next heartbeat assigns (spec 4.5).
    pub(crate) fn end_delay(&mut self, now_ms: u64) {
        if self
            .delay_deadline_ms
            .is_some_and(|deadline| deadline <= now_ms)
        {
            self.delay_deadline_ms = None;
        }
    }

    fn is_assignment_delayed(&self) -> bool {
        self.delay_deadline_ms.is_some() && self.epoch > self.assignment_epoch
    }

    /// The member holding static instance `instance`, if any.
    fn static_member(&self, instance: &str) -> Option<&Member> {
        self.static_members
            .get(instance)
            .and_then(|id| self.members.get(id))
            .filter(|member| member.metadata.instance_id.as_deref() == Some(instance))
    }

    /// Adds or replaces a member, keeping the instance index.
    fn put_member(&mut self, member: Member) {
        if let Some(instance) = &member.metadata.instance_id {
            self.static_members
                .insert(instance.clone(), member.id.clone());
        }
        self.members.insert(member.id.clone(), member);
    }

    /// Takes a member out, keeping the instance index.
    fn take_member(&mut self, member_id: &str) {
        if let Some(instance) = self
            .members
            .remove(member_id)
            .and_then(|member| member.metadata.instance_id)
        {
            if self.static_members.get(&instance).map(String::as_str) == Some(member_id) {
                self.static_members.remove(&instance);
            }
        }
    }

    /// Removes a member and bumps the epoch, as a leave does (spec 3.5).
    fn remove_member(&mut self, member_id: &str) {
        self.take_member(member_id);
        self.targets.remove(member_id);
        self.bump();
        if self.members.is_empty() {
            // An empty group's target is empty at the new epoch (KAFKA-20442), and a shutdown
            // request is forgotten.
            self.assignment_epoch = self.epoch;
            self.shutdown_requested_by = None;
        }
    }

    pub(crate) fn expire(&mut self, now_ms: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        let expired: Vec<(String, RemovalReason)> = self
            .members
            .values()
            .filter_map(|member| {
                if member.session_deadline_ms <= now_ms {
                    Some((member.id.clone(), RemovalReason::SessionTimeout)) // R30
                } else if member
                    .rebalance_deadline_ms
                    .is_some_and(|deadline| deadline <= now_ms)
                {
                    Some((member.id.clone(), RemovalReason::RebalanceTimeout)) // R29
                } else {
                    None
                }
            })
            .collect();
        for (member_id, reason) in expired {
            self.remove_member(&member_id);
            effects.push(Effect::MemberRemoved {
                group_id: self.id.clone(),
                member_id,
                reason,
            });
        }
        effects
    }

    /// A new target assignment at the group epoch: empty unless the topology is ready (spec 4.4).
    fn compute_targets(&mut self, config: &CoordinatorConfig) {
        if self.delay_deadline_ms.is_some() {
            // Delayed: everyone's target is empty, at the epoch of the initial empty assignment.
            self.targets = self
                .members
                .keys()
                .map(|id| (id.clone(), TaskSets::default()))
                .collect();
            self.assignment_epoch = self.assignment_epoch.max(1);
            return;
        }
        let configured = self.configured.clone().unwrap_or_default();
        self.targets = if configured.is_ready() {
            let stateful: BTreeSet<String> = self
                .topology
                .iter()
                .flat_map(|topology| &topology.subtopologies)
                .filter(|s| !s.state_changelog_topics.is_empty())
                .map(|s| s.subtopology_id.clone())
                .collect();
            // Kafka hands its assignor the members in the order of a default HashMap of their
            // ids (its target-assignment builder fills one); ties in a bucket keep id order here.
            let ids: Vec<&str> = self.members.keys().map(String::as_str).collect();
            let input = AssignmentInput {
                members: hash_map_order(&ids, None, Insertion::Put)
                    .into_iter()
                    .map(|index| &self.members[ids[index]])
                    .map(|member| MemberSpec {
                        member_id: member.id.clone(),
                        process_id: member.metadata.process_id.clone(),
                        current: member.assigned.clone(),
                        task_offsets: member.task_offsets.clone(),
                    })
                    .collect(),
                task_counts: configured.task_counts.clone(),
                stateful,
                num_standby_replicas: config.num_standby_replicas,
            };
            StickyAssignor.assign(&input)
        } else {
            self.members
                .keys()
                .map(|id| (id.clone(), TaskSets::default()))
                .collect()
        };
        self.assignment_epoch = self.epoch;
    }

    /// Tasks of `member_id`'s target that must wait (spec 4.3): an active task while any other
    /// member holds it as active, or the member's own process holds it in another role; a standby
    /// or warm-up task while another member of its process holds it in any role.
    fn unreleased(&self, member_id: &str, wanted: &TaskSets) -> TaskSets {
        let process = &self.members[member_id].metadata.process_id;
        let mut active_elsewhere = Tasks::new();
        let mut process_other_roles = Tasks::new();
        let mut process_any_role = Tasks::new();
        for member in self.members.values().filter(|m| m.id != member_id) {
            let holds = member.assigned.union(&member.pending_revocation);
            active_elsewhere = tasks::merged(&active_elsewhere, &holds.active);
            if &member.metadata.process_id == process {
                let other_roles = tasks::merged(&holds.standby, &holds.warmup);
                process_other_roles = tasks::merged(&process_other_roles, &other_roles);
                process_any_role = tasks::merged(
                    &process_any_role,
                    &tasks::merged(&other_roles, &holds.active),
                );
            }
        }
        let blocked = TaskSets {
            active: tasks::merged(&active_elsewhere, &process_other_roles),
            standby: process_any_role.clone(),
            warmup: process_any_role,
        };
        wanted.intersect(&blocked)
    }

    /// Moves a member towards its target (CurrentAssignmentBuilder, spec 4.3); `owned` is what the
    /// request reports (`None` when its task lists are null).
    fn reconcile(&mut self, member_id: &str, owned: Option<&TaskSets>, now_ms: u64) {
        let target = self.targets.get(member_id).cloned().unwrap_or_default();
        let target_epoch = self.assignment_epoch;
        let member = &self.members[member_id];
        let base_epoch = match member.state {
            MemberState::Stable if member.epoch == target_epoch => return,
            MemberState::UnrevokedTasks => {
                let confirmed =
                    owned.is_some_and(|owned| !owned.overlaps_any_type(&member.pending_revocation));
                if !confirmed {
                    return;
                }
                member.epoch + 1
            }
            _ => member.epoch,
        };
        let assigned = member.assigned.clone();
        let keep = assigned.intersect(&target);
        let revoke = assigned.minus(&target);
        let wanted = target.minus(&assigned);
        let withheld = self.unreleased(member_id, &wanted);
        let add = wanted.minus(&withheld);
        let revocation_pending =
            !revoke.is_empty() && owned.is_none_or(|owned| owned.overlaps_any_type(&revoke));
        let rebalance_timeout = u64::try_from(member.metadata.rebalance_timeout_ms).unwrap_or(0);
        let member = self.members.get_mut(member_id).unwrap();
        if revocation_pending {
            member.state = MemberState::UnrevokedTasks;
            member.epoch = base_epoch;
            member.assigned = keep;
            member.pending_revocation = revoke;
            member.rebalance_deadline_ms = Some(now_ms + rebalance_timeout); // R29
            return;
        }
        member.previous_epoch = member.epoch;
        member.epoch = target_epoch;
        member.assigned = keep.union(&add);
        member.pending_revocation = TaskSets::default();
        member.rebalance_deadline_ms = None;
        member.state = if withheld.is_empty() {
            MemberState::Stable
        } else {
            MemberState::UnreleasedTasks
        };
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

/// R23, R24: the request's epoch against the stored one (spec 3.4).
fn check_epoch(
    member: &Member,
    request_epoch: i32,
    owned: Option<&TaskSets>,
) -> Result<(), ErrorAnswer> {
    if request_epoch > member.epoch {
        return Err(ErrorAnswer::fenced_member_epoch(
            "greater",
            request_epoch,
            member.epoch,
        ));
    }
    if request_epoch < member.epoch {
        // A lost response is tolerated: the previous epoch, with owned tasks it was assigned.
        let tolerated = request_epoch == member.previous_epoch
            && owned.is_some_and(|owned| owned.minus(&member.assigned).is_empty());
        if !tolerated {
            return Err(ErrorAnswer::fenced_member_epoch(
                "smaller",
                request_epoch,
                member.epoch,
            ));
        }
    }
    Ok(())
}

/// The static-membership checks of a request carrying an instance id (spec 3.6).
fn check_instance(
    group: &Group,
    request: &StreamsGroupHeartbeatRequest,
) -> Result<(), ErrorAnswer> {
    let Some(instance) = &request.instance_id else {
        return Ok(());
    };
    let holder = group.static_member(instance);
    match (request.member_epoch, holder) {
        (0, Some(holder)) if holder.epoch != -2 => Err(ErrorAnswer::unreleased_instance_id(
            &request.member_id,
            instance,
            &holder.id,
        )),
        (0, _) => Ok(()),
        (_, None) => Err(ErrorAnswer::unknown_instance_id(instance)),
        (_, Some(holder)) if holder.id != request.member_id => Err(
            ErrorAnswer::fenced_instance_id(&request.member_id, instance, &holder.id),
        ),
        _ => Ok(()),
    }
}

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
            let answer = heartbeat.run(&mut group)?;
            groups.insert(group.id.clone(), group);
            Ok(answer)
        }
        None => Err(ErrorAnswer::streams_group_not_found(&request.group_id)), // R20
    }
}

/// What a topology in a join does to the group's (spec 5.2).
enum TopologyChange {
    None,
    Set(Topology),
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
    /// The member's metadata after this request (spec 3.1 step 3).
    fn updated_metadata(&self, current: &MemberMetadata) -> MemberMetadata {
        let request = self.request;
        let mut updated = current.clone();
        if request.rack_id.is_some() {
            updated.rack_id = request.rack_id.clone();
        }
        if request.instance_id.is_some() {
            updated.instance_id = request.instance_id.clone();
        }
        if request.rebalance_timeout_ms != -1 {
            updated.rebalance_timeout_ms = request.rebalance_timeout_ms;
        }
        if let Some(topology) = &request.topology {
            updated.topology_epoch = topology.epoch;
        }
        if let Some(process_id) = &request.process_id {
            updated.process_id = process_id.clone();
        }
        if let Some(endpoint) = &request.user_endpoint {
            updated.user_endpoint = Some((endpoint.host.clone(), endpoint.port));
        }
        if let Some(tags) = &request.client_tags {
            updated.client_tags = tags
                .iter()
                .map(|kv| (kv.key.clone(), kv.value.clone()))
                .collect();
        }
        updated.client_id = self.context.client_id.clone();
        updated.client_host = self.context.client_host.clone();
        updated
    }

    /// Every check that can refuse the request runs before anything changes, so a refused
    /// request writes nothing; the work is proportional to the member's own state, not the group's.
    fn run(
        &self,
        group: &mut Group,
    ) -> Result<(StreamsGroupHeartbeatResponse, Vec<Effect>), ErrorAnswer> {
        let request = self.request;
        let epoch = request.member_epoch;
        check_instance(group, request)?;
        let owned = owned_tasks(request);
        // The member before this request, and the static member whose place it takes, if any.
        let (member, replaced) = match group.members.get(&request.member_id) {
            Some(member) => {
                // R54: an epoch-0 rejoin of an existing member is a heartbeat of that member.
                if epoch != 0 {
                    check_epoch(member, epoch, owned.as_ref())?;
                }
                (member.clone(), None)
            }
            None if epoch == 0 => {
                let released = request
                    .instance_id
                    .as_ref()
                    .and_then(|instance| group.static_member(instance))
                    .filter(|m| m.epoch == -2);
                match released {
                    // A static member taking over a released instance inherits its place (spec 3.6).
                    Some(previous) => (
                        Member {
                            id: request.member_id.clone(),
                            ..previous.clone()
                        },
                        Some(previous.id.clone()),
                    ),
                    None if group.members.len() >= self.config.max_size => {
                        return Err(ErrorAnswer::group_max_size_reached(self.config.max_size))
                    }
                    None => (Member::new(&request.member_id), None),
                }
            }
            None => return Err(ErrorAnswer::unknown_member(request)),
        };
        if request
            .topology
            .as_ref()
            .is_some_and(topology::is_unbuildable)
        {
            return Err(ErrorAnswer::unknown_server_error());
        }
        // Topology (spec 5.2): set it, accept a stale member, or refuse a change (R37, R38, R39).
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
        let topology = match &change {
            TopologyChange::Set(topology) => Some(topology),
            TopologyChange::None => group.topology.as_ref(),
        };
        // The configured topology, recomputed only when the topics it depends on changed.
        let fingerprint = topology.map(|t| self.metadata.hash_of(topology::topics_of(t).iter()));
        let reconfigured = match (topology, &fingerprint) {
            (Some(topology), Some(fingerprint))
                if group.configured.is_none() || *fingerprint != group.metadata_fingerprint =>
            {
                Some(topology::configure(topology, self.metadata))
            }
            _ => None,
        };
        if let Some(invalid) = reconfigured.as_ref().and_then(|c| c.invalid.clone()) {
            return Err(ErrorAnswer::new(ERROR_STREAMS_INVALID_TOPOLOGY, invalid));
        }
        if let Some(configured) = reconfigured
            .as_ref()
            .or(group.configured.as_ref())
            .filter(|c| c.is_ready())
        {
            if let Some(owned) = &owned {
                validate_owned(owned, configured)?; // R40
            }
        }

        // Accepted: apply it.
        if group.members.is_empty() && self.config.initial_rebalance_delay_ms > 0 {
            group.delay_deadline_ms = Some(self.now_ms + self.config.initial_rebalance_delay_ms);
        }
        let mut bump = replaced.is_none() && !group.members.contains_key(&request.member_id);
        let mut member = member;
        if let Some(previous_id) = replaced {
            group.take_member(&previous_id);
            let target = group.targets.remove(&previous_id).unwrap_or_default();
            group.targets.insert(request.member_id.clone(), target);
        }
        if member.epoch == -2 {
            // A static member rejoining its own released instance takes back its epoch (spec 3.6).
            member.epoch = member.previous_epoch.max(0);
        }
        let updated = self.updated_metadata(&member.metadata);
        if updated != member.metadata {
            bump = true;
            member.metadata = updated;
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
        group.put_member(member);
        if let TopologyChange::Set(topology) = change {
            group.topology = Some(topology);
            bump = true;
        }
        if let Some(configured) = reconfigured {
            group.configured = Some(configured);
            group.metadata_fingerprint = fingerprint.unwrap_or_default();
            bump = true;
        }
        if group.is_ready() {
            let topology_epoch = group.topology.as_ref().map_or(-1, |t| t.epoch);
            if group.validated_topology_epoch != topology_epoch {
                group.validated_topology_epoch = topology_epoch;
                bump = true;
            }
        }
        // Assignment configs are part of the group's inputs (spec 3.1 step 7).
        if group.num_standby_replicas != Some(self.config.num_standby_replicas) {
            bump |= group.num_standby_replicas.is_some();
            group.num_standby_replicas = Some(self.config.num_standby_replicas);
        }
        if bump {
            group.bump();
        }
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
        let before = group.members[&request.member_id].assigned.clone();
        group.reconcile(&request.member_id, owned.as_ref(), self.now_ms);
        if request.shutdown_application && group.shutdown_requested_by.is_none() {
            group.shutdown_requested_by = Some(request.member_id.clone());
        }
        let member = group.members.get_mut(&request.member_id).unwrap();
        member.session_deadline_ms = self.now_ms + self.config.session_timeout_ms;
        let send_tasks = epoch == 0 || member.assigned != before;
        let effects = match &group.configured {
            Some(configured) if !configured.topics_to_create.is_empty() => {
                vec![Effect::CreateTopics(configured.topics_to_create.clone())]
            }
            _ => Vec::new(),
        };
        let response = build_response(
            group,
            self.config,
            self.metadata,
            self.version,
            request,
            send_tasks,
        );
        Ok((response, effects))
    }
}

/// Topologies are equal when their subtopologies are, keyed by id; lists inside a subtopology
/// compare in order (R39).
fn same_topology(a: &Topology, b: &Topology) -> bool {
    let by_id = |topology: &Topology| {
        topology
            .subtopologies
            .iter()
            .map(|s| (s.subtopology_id.clone(), s.clone()))
            .collect::<BTreeMap<_, _>>()
    };
    a.epoch == b.epoch && by_id(a) == by_id(b)
}

fn build_response(
    group: &mut Group,
    config: &CoordinatorConfig,
    metadata: &ClusterMetadata,
    version: i16,
    request: &StreamsGroupHeartbeatRequest,
    send_tasks: bool,
) -> StreamsGroupHeartbeatResponse {
    let member = &group.members[&request.member_id];
    let mut status = Vec::new();
    let group_topology_epoch = group.topology.as_ref().map_or(-1, |t| t.epoch);
    if member.metadata.topology_epoch < group_topology_epoch {
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
    let missing: Vec<&str> = config
        .rack_aware_assignment_tags
        .iter()
        .filter(|key| !member.metadata.client_tags.iter().any(|(k, _)| k == *key))
        .map(String::as_str)
        .collect();
    if version >= 1 && !missing.is_empty() {
        status.push(
            response::Status::default().with_status_code(STATUS_MISSING_CLIENT_TAGS).with_status_detail(format!(
                "Missing required client tags for rack-aware standby assignment: [{}]. Configure them via 'client.tag.<tagKey>' in your Streams config.",
                missing.join(", ")
            )),
        );
    }
    let mut out = StreamsGroupHeartbeatResponse::default()
        .with_member_id(member.id.clone())
        .with_member_epoch(member.epoch)
        .with_heartbeat_interval_ms(config.heartbeat_interval_ms)
        .with_task_offset_interval_ms(config.task_offset_interval_ms)
        .with_status(Some(status));
    if version >= 1 {
        out = out.with_acceptable_recovery_lag(config.acceptable_recovery_lag);
    }
    if send_tasks {
        out = out
            .with_active_tasks(Some(tasks::to_response(&member.assigned.active)))
            .with_standby_tasks(Some(tasks::to_response(&member.assigned.standby)))
            .with_warmup_tasks(Some(tasks::to_response(&member.assigned.warmup)));
        // R46: the endpoint epoch moves whenever an endpoint member learns new tasks.
        if member.metadata.user_endpoint.is_some() {
            group.endpoint_epoch += 1;
        }
    }
    let endpoint_epoch = group.endpoint_epoch.max(0);
    out = out.with_endpoint_information_epoch(endpoint_epoch);
    if request.endpoint_information_epoch != endpoint_epoch
        && group
            .members
            .values()
            .any(|m| m.metadata.user_endpoint.is_some())
    {
        out = out.with_partitions_by_user_endpoint(Some(partitions_by_endpoint(
            group,
            metadata,
            &request.member_id,
        )));
    }
    out
}

/// For every member with an endpoint (the requester last), the partitions its tasks read (R46).
fn partitions_by_endpoint(
    group: &Group,
    metadata: &ClusterMetadata,
    requester: &str,
) -> Vec<response::EndpointToPartitions> {
    let topology = group.topology.as_ref();
    let partitions_of = |tasks: &Tasks| -> Vec<response::TopicPartition> {
        let mut by_topic: BTreeMap<String, BTreeSet<i32>> = BTreeMap::new();
        for subtopology in topology.iter().flat_map(|t| &t.subtopologies) {
            let Some(task_partitions) = tasks.get(&subtopology.subtopology_id) else {
                continue;
            };
            let topics = subtopology.source_topics.iter().chain(
                subtopology
                    .repartition_source_topics
                    .iter()
                    .map(|t| &t.name),
            );
            for topic in topics {
                let count = metadata.partitions(topic).unwrap_or(0);
                let entry = by_topic.entry(topic.clone()).or_default();
                entry.extend(task_partitions.iter().copied().filter(|p| *p < count));
            }
        }
        by_topic
            .into_iter()
            .filter(|(_, partitions)| !partitions.is_empty())
            .map(|(topic, partitions)| {
                response::TopicPartition::default()
                    .with_topic(topic)
                    .with_partitions(partitions.into_iter().collect())
            })
            .collect()
    };
    let mut members: Vec<&Member> = group
        .members
        .values()
        .filter(|m| m.metadata.user_endpoint.is_some())
        .collect();
    members.sort_by_key(|m| m.id == requester);
    members
        .into_iter()
        .map(|member| {
            let (host, port) = member.metadata.user_endpoint.clone().unwrap();
            response::EndpointToPartitions::default()
                .with_user_endpoint(
                    response::Endpoint::default()
                        .with_host(host)
                        .with_port(port),
                )
                .with_active_partitions(partitions_of(&member.assigned.active))
                .with_standby_partitions(partitions_of(&member.assigned.standby))
        })
        .collect()
}

/// A leave: -1 removes the member, -2 (static) keeps it at epoch -2 (spec 3.5, R31, R49).
fn leave(
    groups: &mut BTreeMap<String, Group>,
    request: &StreamsGroupHeartbeatRequest,
) -> Result<(StreamsGroupHeartbeatResponse, Vec<Effect>), ErrorAnswer> {
    let Some(group) = groups.get_mut(&request.group_id) else {
        return Err(ErrorAnswer::group_not_found(&request.group_id));
    };
    check_instance(group, request)?;
    if !group.members.contains_key(&request.member_id) {
        return Err(ErrorAnswer::unknown_member(request));
    }
    if request.shutdown_application && group.shutdown_requested_by.is_none() {
        group.shutdown_requested_by = Some(request.member_id.clone()); // R45
    }
    if request.member_epoch == -1 {
        group.remove_member(&request.member_id);
    } else {
        let member = group.members.get_mut(&request.member_id).unwrap();
        if member.epoch != -2 {
            member.previous_epoch = member.epoch;
        }
        member.epoch = -2;
        member.pending_revocation = TaskSets::default();
        member.rebalance_deadline_ms = None;
        if member.state == MemberState::UnrevokedTasks {
            member.state = MemberState::Stable;
        }
    }
    let response = StreamsGroupHeartbeatResponse::default()
        .with_member_id(request.member_id.clone())
        .with_member_epoch(request.member_epoch)
        .with_status(Some(Vec::new()));
    Ok((response, Vec::new()))
}

fn describe_tasks(tasks: &Tasks) -> Vec<describe::TaskIds> {
    tasks
        .iter()
        .map(|(subtopology, partitions)| {
            describe::TaskIds::default()
                .with_subtopology_id(subtopology.clone())
                .with_partitions(partitions.iter().copied().collect())
        })
        .collect()
}

fn describe_assignment(sets: &TaskSets) -> describe::Assignment {
    describe::Assignment::default()
        .with_active_tasks(describe_tasks(&sets.active))
        .with_standby_tasks(describe_tasks(&sets.standby))
        .with_warmup_tasks(describe_tasks(&sets.warmup))
}

/// One entry of a StreamsGroupDescribe response (spec 10, R47, R48).
pub(crate) fn describe(
    group: Option<&Group>,
    group_id: &str,
    request: &StreamsGroupDescribeRequest,
) -> describe::DescribedGroup {
    if group_id.is_empty() {
        return ErrorAnswer::invalid_group_id().described(group_id);
    }
    let Some(group) = group else {
        return ErrorAnswer::group_not_found(group_id).described(group_id);
    };
    let topology = group.topology.as_ref().map(|topology| {
        // The configured topology when ready, else the topology as members sent it (spec 10).
        let internal = group
            .configured
            .as_ref()
            .filter(|c| c.is_ready())
            .map(|c| c.internal_partitions.clone())
            .unwrap_or_default();
        let topic_info =
            |info: &streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo| {
                describe::TopicInfo::default()
                    .with_name(info.name.clone())
                    .with_partitions(internal.get(&info.name).copied().unwrap_or(info.partitions))
                    .with_replication_factor(info.replication_factor)
                    .with_topic_configs(
                        info.topic_configs
                            .iter()
                            .map(|kv| {
                                describe::KeyValue::default()
                                    .with_key(kv.key.clone())
                                    .with_value(kv.value.clone())
                            })
                            .collect(),
                    )
            };
        let sorted = |names: &[String]| {
            let mut names = names.to_vec();
            names.sort();
            names
        };
        // Describe lists every topic list sorted by name.
        let topic_infos =
            |infos: &[streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo]| {
                let mut described: Vec<describe::TopicInfo> =
                    infos.iter().map(topic_info).collect();
                described.sort_by(|a, b| a.name.cmp(&b.name));
                described
            };
        let mut subtopologies: Vec<describe::Subtopology> = topology
            .subtopologies
            .iter()
            .map(|s| {
                describe::Subtopology::default()
                    .with_subtopology_id(s.subtopology_id.clone())
                    .with_source_topics(sorted(&s.source_topics))
                    .with_repartition_sink_topics(sorted(&s.repartition_sink_topics))
                    .with_state_changelog_topics(topic_infos(&s.state_changelog_topics))
                    .with_repartition_source_topics(topic_infos(&s.repartition_source_topics))
            })
            .collect();
        subtopologies.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
        describe::Topology::default()
            .with_epoch(topology.epoch)
            .with_subtopologies(Some(subtopologies))
    });
    let members = group
        .members
        .values()
        .map(|member| {
            let offsets = |list: &[(String, i32, i64)]| {
                list.iter()
                    .map(|(s, p, o)| {
                        describe::TaskOffset::default()
                            .with_subtopology_id(s.clone())
                            .with_partition(*p)
                            .with_offset(*o)
                    })
                    .collect()
            };
            describe::Member::default()
                .with_member_id(member.id.clone())
                .with_member_epoch(member.epoch)
                .with_instance_id(member.metadata.instance_id.clone())
                .with_rack_id(member.metadata.rack_id.clone())
                .with_client_id(member.metadata.client_id.clone())
                .with_client_host(member.metadata.client_host.clone())
                .with_topology_epoch(member.metadata.topology_epoch)
                .with_process_id(member.metadata.process_id.clone())
                .with_user_endpoint(member.metadata.user_endpoint.clone().map(|(host, port)| {
                    describe::Endpoint::default()
                        .with_host(host)
                        .with_port(port)
                }))
                .with_client_tags(
                    member
                        .metadata
                        .client_tags
                        .iter()
                        .map(|(k, v)| {
                            describe::KeyValue::default()
                                .with_key(k.clone())
                                .with_value(v.clone())
                        })
                        .collect(),
                )
                .with_task_offsets(offsets(&member.task_offsets))
                .with_task_end_offsets(offsets(&member.task_end_offsets))
                .with_assignment(describe_assignment(&member.assigned))
                .with_target_assignment(describe_assignment(
                    &group.targets.get(&member.id).cloned().unwrap_or_default(),
                ))
        })
        .collect();
    describe::DescribedGroup::default()
        .with_group_id(group_id)
        .with_group_state(group.state())
        .with_group_epoch(group.epoch)
        .with_assignment_epoch(group.assignment_epoch)
        .with_topology(topology)
        .with_members(members)
        .with_topology_description_status(if request.include_topology_description {
            1
        } else {
            0
        })
        .with_assignor_name(Some(StickyAssignor.name().to_owned()))
}
