//! A member of a streams group: what it told the coordinator, its epochs and its tasks.

use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;

use crate::context::RequestContext;
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
    pub(super) user_endpoint: Option<(String, u16)>,
    pub(super) client_tags: Vec<(String, String)>,
}

impl MemberMetadata {
    /// The metadata after `request` from `context` (spec 3.1 step 3): fields the request leaves
    /// out keep their values.
    pub(super) fn updated(
        &self,
        request: &StreamsGroupHeartbeatRequest,
        context: &RequestContext,
    ) -> MemberMetadata {
        let mut updated = self.clone();
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
        updated.client_id = context.client_id.clone();
        updated.client_host = context.client_host.clone();
        updated
    }
}

#[derive(Debug, Clone)]
pub(super) struct Member {
    pub(super) id: String,
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
