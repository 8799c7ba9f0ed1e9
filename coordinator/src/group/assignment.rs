//! A group's target assignment (spec 4.4) and each member's way towards its target
//! (CurrentAssignmentBuilder, spec 4.3).

use std::collections::BTreeSet;

use super::member::MemberState;
use super::Group;
use crate::assignor::{AssignmentInput, MemberSpec, StickyAssignor, TaskAssignor};
use crate::config::CoordinatorConfig;
use crate::java_order::{hash_map_order, Insertion};
use crate::tasks::{self, TaskSets, Tasks};

impl Group {
    /// A new target assignment at the group epoch: empty unless the topology is ready (spec 4.4).
    pub(super) fn compute_targets(&mut self, config: &CoordinatorConfig) {
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
    pub(super) fn reconcile(&mut self, member_id: &str, owned: Option<&TaskSets>, now_ms: u64) {
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
