//! A streams group: its members, epochs, topology and target assignment. What a request does
//! to it is in the modules below, by what it does: who is in the group ([`membership`]), a
//! member's heartbeat, admitted then applied ([`heartbeat`]), the target assignment and the way
//! towards it ([`assignment`]), endpoint information ([`endpoints`]) and describe ([`describe`]).

mod assignment;
mod describe;
mod endpoints;
mod heartbeat;
mod holders;
mod member;
mod membership;

use std::collections::BTreeMap;

use streamspec_protocol::codes::{
    GROUP_STATE_ASSIGNING, GROUP_STATE_EMPTY, GROUP_STATE_NOT_READY, GROUP_STATE_RECONCILING,
    GROUP_STATE_STABLE,
};
use streamspec_protocol::kafka::streams_group_heartbeat_request::Topology;

use crate::java_order::TimelineOrder;
use crate::metadata::{ClusterMetadata, Fingerprint};
use crate::topology::ConfiguredTopology;
use assignment::TargetAssignment;
pub(crate) use describe::describe_into;
pub use describe::DescribeScope;
pub(crate) use heartbeat::heartbeat;
use holders::TaskHolders;
use member::{Member, MemberState};

/// One streams group.
#[derive(Debug, Clone)]
pub struct Group {
    id: String,
    epoch: i32,
    assignment_epoch: i32,
    topology: Option<Topology>,
    configured: Option<ConfiguredTopology>,
    /// Partition counts of the topology's topics when last configured.
    metadata_fingerprint: Fingerprint,
    /// A ready configuration computed by a heartbeat then refused for its tasks (R40), with the
    /// topics it was computed for: Kafka keeps it in memory without records, so describe shows
    /// it only after the next request that writes records, and the group stays NotReady (its
    /// validated epoch was not written).
    uncommitted_configured: Option<(ConfiguredTopology, Fingerprint)>,
    /// Such a configuration once records committed it, while no heartbeat configured the
    /// topology since: the topics it was computed for, and the group's own configuration it
    /// replaced (computed for `metadata_fingerprint`).
    committed_kept: Option<(Fingerprint, Option<ConfiguredTopology>)>,
    /// Whether the group gave up such a configuration after one of its topics was deleted,
    /// where Kafka 4.4.0 goes on with it and assigns the deleted topic's tasks
    /// (`harness/divergences.json`, condition `kept-configuration-of-deleted-topic`): from
    /// then on its answers are knowingly not Kafka's.
    declined_kept_configuration: bool,
    validated_topology_epoch: i32,
    members: BTreeMap<String, Member>,
    /// The member ids as Kafka's member map iterates them, which orders ids that share a bucket
    /// of the assignor's input; it learns of a join or removal after the request, as Kafka's map
    /// does from the request's records.
    member_order: TimelineOrder,
    /// Member id by static instance id, so that a static member's request does not scan the
    /// group.
    static_members: BTreeMap<String, String>,
    /// Who holds which task, kept up to date with `members` (see [`Group::check_indexes`]).
    holders: TaskHolders,
    /// The target assignment; a member without a place in it has an empty target.
    targets: TargetAssignment,
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
            uncommitted_configured: None,
            committed_kept: None,
            declined_kept_configuration: false,
            validated_topology_epoch: -1,
            members: BTreeMap::new(),
            member_order: TimelineOrder::default(),
            static_members: BTreeMap::new(),
            holders: TaskHolders::default(),
            targets: TargetAssignment::default(),
            shutdown_requested_by: None,
            endpoint_epoch: 0,
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

    /// Whether a refused heartbeat left a configuration no records committed yet (R40).
    pub fn has_uncommitted_configuration(&self) -> bool {
        self.uncommitted_configured.is_some()
    }

    /// Whether the group holds or gave up a kept configuration one of whose topics was deleted
    /// in `metadata`, where Kafka 4.4.0 goes on with it (see `declined_kept_configuration`).
    pub fn kept_configuration_of_deleted_topic(&self, metadata: &ClusterMetadata) -> bool {
        let lost = |fingerprint: &Fingerprint| metadata.lost_a_topic_of(fingerprint);
        self.declined_kept_configuration
            || self
                .uncommitted_configured
                .as_ref()
                .is_some_and(|(_, f)| lost(f))
            || self.committed_kept.as_ref().is_some_and(|(f, _)| lost(f))
    }

    /// Makes the configuration a refused heartbeat kept the group's, as the next records Kafka
    /// commits to the group's partition do (R40).
    pub(crate) fn commit_configuration(&mut self) {
        if let Some((kept, fingerprint)) = self.uncommitted_configured.take() {
            let own = self.configured.replace(kept);
            if self.committed_kept.is_none() {
                self.committed_kept = Some((fingerprint, own));
            }
        }
    }

    /// Gives up a configuration a refused heartbeat kept (R40), committed or not, once a topic
    /// it saw was deleted, going back to the group's own. Kafka 4.4.0 goes on with it: its
    /// metadata hash covers only the topics that exist (R33), so the deletion brings the hash
    /// back to the group's and nothing configures the topology again; the group then turns
    /// Stable with the deleted topic's tasks assigned, a state its own design rules out (a
    /// topology with a missing source topic is not ready). Called by a heartbeat that is to
    /// use the group's configuration.
    pub(crate) fn give_up_kept_configuration_of_deleted_topic(
        &mut self,
        metadata: &ClusterMetadata,
    ) {
        if let Some((_, fingerprint)) = &self.uncommitted_configured {
            if metadata.lost_a_topic_of(fingerprint) {
                self.uncommitted_configured = None;
                self.declined_kept_configuration = true;
            }
        }
        if let Some((fingerprint, _)) = &self.committed_kept {
            if metadata.lost_a_topic_of(fingerprint) {
                let (_, own) = self.committed_kept.take().expect("checked above");
                self.configured = own;
                self.declined_kept_configuration = true;
            }
        }
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

    /// Whether the indexes kept up to date as members change equal indexes built from scratch;
    /// the coordinator checks after every request in debug builds, so every test checks it.
    pub fn check_indexes(&self) -> Result<(), String> {
        let rebuilt = TaskHolders::of(self.members.values());
        if self.holders != rebuilt {
            return Err(format!(
                "group {}: task holders {:?}, rebuilt {:?}",
                self.id, self.holders, rebuilt
            ));
        }
        let ordered: Vec<&str> = self.member_order.keys();
        if ordered.len() != self.members.len()
            || ordered.iter().any(|id| !self.members.contains_key(*id))
        {
            return Err(format!(
                "group {}: member order {ordered:?}, members {:?}",
                self.id,
                self.members.keys().collect::<Vec<_>>()
            ));
        }
        for (instance, member_id) in &self.static_members {
            let holder = self.members.get(member_id);
            if holder.and_then(|m| m.metadata.instance_id.as_ref()) != Some(instance) {
                return Err(format!(
                    "group {}: instance {instance} indexed to {member_id}, which is not its holder",
                    self.id
                ));
            }
        }
        Ok(())
    }

    fn is_assignment_delayed(&self) -> bool {
        self.delay_deadline_ms.is_some() && self.epoch > self.assignment_epoch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskSets;

    #[test]
    fn check_indexes_finds_an_index_that_drifted() {
        let mut group = Group::new("g");
        let mut member = Member::new("m");
        member.assigned.active = [("0".to_owned(), [0].into())].into();
        group.put_member(member);
        assert!(group
            .check_indexes()
            .unwrap_err()
            .starts_with("group g: member order [], members [\"m\"]"));
        group.member_order.put("m");
        assert_eq!(group.check_indexes(), Ok(()));
        // A change of tasks behind the indexes' back.
        group.members.get_mut("m").unwrap().assigned = TaskSets::default();
        assert!(group
            .check_indexes()
            .unwrap_err()
            .starts_with("group g: task holders"));
        group.holders = TaskHolders::default();
        assert_eq!(group.check_indexes(), Ok(()));
    }
}
