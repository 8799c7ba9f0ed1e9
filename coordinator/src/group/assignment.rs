//! A group's target assignment (spec 4.4) and each member's way towards its target
//! (CurrentAssignmentBuilder, spec 4.3).

use std::collections::{BTreeMap, BTreeSet};

use super::member::MemberState;
use super::Group;
use crate::assignor::{AssignmentInput, MemberSpec, StickyAssignor, TaskAssignor};
use crate::config::CoordinatorConfig;
use crate::java_order::{hash_map_order, Insertion};
use crate::tasks::TaskSets;

impl Group {
    /// A new target assignment at the group epoch: empty unless the topology is ready (spec 4.4).
    pub(super) fn compute_targets(&mut self, config: &CoordinatorConfig) {
        if self.delay_deadline_ms.is_some() {
            // Delayed: everyone's target is empty, at the epoch of the initial empty assignment.
            self.targets.clear();
            self.assignment_epoch = self.assignment_epoch.max(1);
            return;
        }
        self.targets = match self.configured.as_ref().filter(|c| c.is_ready()) {
            Some(configured) => {
                let stateful: BTreeSet<String> = self
                    .topology
                    .iter()
                    .flat_map(|topology| &topology.subtopologies)
                    .filter(|s| !s.state_changelog_topics.is_empty())
                    .map(|s| s.subtopology_id.clone())
                    .collect();
                // Kafka hands its assignor the members in the order of a default HashMap of their
                // ids (its target-assignment builder fills one); ties in a bucket keep id order
                // here.
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
            }
            // Not ready: every target is empty.
            None => BTreeMap::new(),
        };
        self.assignment_epoch = self.epoch;
    }

    /// Moves a member towards its target (CurrentAssignmentBuilder, spec 4.3); `owned` is what the
    /// request reports (`None` when its task lists are null). Whether the member's assigned tasks
    /// changed. The work follows the member's own tasks (the task indexes answer for the others).
    pub(super) fn reconcile(
        &mut self,
        member_id: &str,
        owned: Option<&TaskSets>,
        now_ms: u64,
    ) -> bool {
        let target_epoch = self.assignment_epoch;
        let member = &self.members[member_id];
        let base_epoch = match member.state {
            MemberState::Stable if member.epoch == target_epoch => return false,
            MemberState::UnrevokedTasks => {
                let confirmed =
                    owned.is_some_and(|owned| !owned.overlaps_any_type(&member.pending_revocation));
                if !confirmed {
                    return false;
                }
                member.epoch + 1
            }
            _ => member.epoch,
        };
        let no_target = TaskSets::default();
        let target = self.targets.get(member_id).unwrap_or(&no_target);
        let keep = member.assigned.intersect(target);
        let revoke = member.assigned.minus(target);
        let wanted = target.minus(&member.assigned);
        let withheld = self.holders.unreleased(member, &wanted);
        let add = wanted.minus(&withheld);
        let revocation_pending =
            !revoke.is_empty() && owned.is_none_or(|owned| owned.overlaps_any_type(&revoke));
        let rebalance_timeout = u64::try_from(member.metadata.rebalance_timeout_ms).unwrap_or(0);
        self.change_tasks(member_id, |member| {
            if revocation_pending {
                member.state = MemberState::UnrevokedTasks;
                member.epoch = base_epoch;
                member.assigned = keep;
                member.pending_revocation = revoke;
                member.rebalance_deadline_ms = Some(now_ms + rebalance_timeout); // R29
                return true;
            }
            let assigned = keep.union(&add);
            let changed = assigned != member.assigned;
            member.previous_epoch = member.epoch;
            member.epoch = target_epoch;
            member.assigned = assigned;
            member.pending_revocation = TaskSets::default();
            member.rebalance_deadline_ms = None;
            member.state = if withheld.is_empty() {
                MemberState::Stable
            } else {
                MemberState::UnreleasedTasks
            };
            changed
        })
    }
}
