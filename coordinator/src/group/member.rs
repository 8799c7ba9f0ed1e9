//! A member of a streams group: what it told the coordinator, its epochs and its tasks.

use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;

use crate::context::RequestContext;
use crate::java_order::string_hash;
use crate::tasks::TaskSets;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MemberState {
    Stable,
    UnrevokedTasks,
    UnreleasedTasks,
}

/// What a member told the coordinator about itself; a change bumps the group epoch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct MemberMetadata {
    pub(super) instance_id: Option<String>,
    pub(super) rack_id: Option<String>,
    pub(super) client_id: String,
    pub(super) client_host: String,
    pub(super) rebalance_timeout_ms: i32,
    pub(super) topology_epoch: i32,
    pub(super) process_id: String,
    /// Java's hash of `process_id`, kept with it: it orders Kafka's map of processes in the
    /// assignor, and is computed when the process id changes, not on each assignment.
    pub(super) process_hash: i32,
    pub(super) user_endpoint: Option<(String, u16)>,
    pub(super) client_tags: Vec<(String, String)>,
}

/// Sets `field` to `value` unless equal (no copy then); whether it changed.
fn set<T: PartialEq + Clone>(field: &mut T, value: &T) -> bool {
    let changed = field != value;
    if changed {
        field.clone_from(value);
    }
    changed
}

/// What taking a request's member metadata up changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct MetadataChange {
    /// Any field.
    pub(super) any: bool,
    /// A field that bumps the group epoch even for a static member: topology epoch, rack, client
    /// tags, process (Kafka 4.4.0).
    pub(super) epoch_relevant: bool,
}

impl MemberMetadata {
    /// Takes `request` from `context` up (spec 3.1 step 3): fields the request leaves out keep
    /// their values. What changed; nothing is copied that did not.
    pub(super) fn update(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
        context: &RequestContext,
    ) -> MetadataChange {
        let mut relevant = false;
        if request.rack_id.is_some() {
            relevant |= set(&mut self.rack_id, &request.rack_id);
        }
        if let Some(topology) = &request.topology {
            relevant |= set(&mut self.topology_epoch, &topology.epoch);
        }
        if let Some(process_id) = &request.process_id {
            relevant |= self.set_process(process_id);
        }
        // An instance id is set only by a request that carries one, whose other metadata counts
        // only where it matters to the assignment (`Heartbeat::apply`): no change to note.
        if request.instance_id.is_some() {
            set(&mut self.instance_id, &request.instance_id);
        }
        let mut changed = false;
        if request.rebalance_timeout_ms != -1 {
            changed |= set(
                &mut self.rebalance_timeout_ms,
                &request.rebalance_timeout_ms,
            );
        }
        if let Some(endpoint) = &request.user_endpoint {
            let same = self
                .user_endpoint
                .as_ref()
                .is_some_and(|(host, port)| *host == endpoint.host && *port == endpoint.port);
            if !same {
                self.user_endpoint = Some((endpoint.host.clone(), endpoint.port));
                changed = true;
            }
        }
        if let Some(tags) = &request.client_tags {
            let same = self.client_tags.len() == tags.len()
                && self
                    .client_tags
                    .iter()
                    .zip(tags)
                    .all(|((key, value), tag)| *key == tag.key && *value == tag.value);
            if !same {
                self.client_tags = tags
                    .iter()
                    .map(|kv| (kv.key.clone(), kv.value.clone()))
                    .collect();
                relevant = true;
            }
        }
        changed |= set(&mut self.client_id, &context.client_id);
        changed |= set(&mut self.client_host, &context.client_host);
        MetadataChange {
            any: changed || relevant,
            epoch_relevant: relevant,
        }
    }

    /// Sets the process id and its hash; whether it changed.
    pub(super) fn set_process(&mut self, process_id: &str) -> bool {
        let changed = self.process_id != process_id;
        if changed {
            process_id.clone_into(&mut self.process_id);
            self.process_hash = string_hash(process_id);
        }
        changed
    }

    /// Whether `request` changes what the group's indexes are keyed on: the process and the
    /// static instance.
    pub(super) fn rekeyed_by(&self, request: &StreamsGroupHeartbeatRequest) -> bool {
        request
            .process_id
            .as_ref()
            .is_some_and(|process| *process != self.process_id)
            || request.instance_id.is_some() && request.instance_id != self.instance_id
    }
}

#[derive(Debug, Clone)]
pub(super) struct Member {
    pub(super) id: String,
    /// Java's hash of `id`, computed once when the id is given: it orders Kafka's maps of
    /// members (the assignor's input, and its map of each process's members).
    pub(super) id_hash: i32,
    pub(super) metadata: MemberMetadata,
    pub(super) epoch: i32,
    pub(super) previous_epoch: i32,
    pub(super) state: MemberState,
    pub(super) assigned: TaskSets,
    pub(super) pending_revocation: TaskSets,
    pub(super) task_offsets: Vec<(String, i32, i64)>,
    pub(super) task_end_offsets: Vec<(String, i32, i64)>,
    pub(super) session_deadline_ms: u64,
    pub(super) rebalance_deadline_ms: Option<u64>,
}

impl Member {
    pub(super) fn new(id: &str) -> Self {
        Member {
            id: id.to_owned(),
            id_hash: string_hash(id),
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

    /// The member under another id (a static member replacing another takes its state over).
    pub(super) fn renamed(self, id: &str) -> Self {
        Member {
            id: id.to_owned(),
            id_hash: string_hash(id),
            ..self
        }
    }
}
