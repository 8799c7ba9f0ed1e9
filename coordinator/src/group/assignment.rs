//! A group's target assignment (spec 4.4) and each member's way towards its target
//! (CurrentAssignmentBuilder, spec 4.3).

use std::collections::{BTreeMap, BTreeSet};

use super::member::MemberState;
use super::Group;
use crate::assignor::{
    AssignmentInput, MemberSpec, StickyAssignor, Targets, TaskAssignor, TaskRun,
};
use crate::config::CoordinatorConfig;
use crate::java_order::{sort_in_hash_map_order, Insertion, JavaString};
use crate::tasks::{self, TaskSets, Tasks};

/// A group's target assignment: the assignor's answer and each member's place in it, the ids
/// taken over from the assignor's input.
#[derive(Debug, Clone, Default)]
pub(super) struct TargetAssignment {
    targets: Targets,
    place: BTreeMap<String, u32>,
}

impl TargetAssignment {
    fn new(input: AssignmentInput, targets: Targets) -> Self {
        let place = input
            .members
            .into_iter()
            .zip(0..)
            .map(|(member, place)| (member.member_id.into_string(), place))
            .collect();
        TargetAssignment { targets, place }
    }

    /// The member's target; empty when it has none.
    pub(super) fn of(&self, member_id: &str) -> TaskSets {
        self.place
            .get(member_id)
            .map_or_else(TaskSets::default, |&place| self.targets.of(place as usize))
    }

    /// The member's target as the assignor holds it, actives then standbys; empty when it has
    /// none.
    pub(super) fn runs_of(
        &self,
        member_id: &str,
    ) -> (
        impl Iterator<Item = TaskRun<'_>>,
        impl Iterator<Item = TaskRun<'_>>,
    ) {
        let place = self.place.get(member_id).map(|&place| place as usize);
        let targets = &self.targets;
        (
            place
                .into_iter()
                .flat_map(|place| targets.active_runs(place)),
            place
                .into_iter()
                .flat_map(|place| targets.standby_runs(place)),
        )
    }

    pub(super) fn remove(&mut self, member_id: &str) {
        self.place.remove(member_id);
    }

    /// A replacing static member takes over the target of the member it replaces.
    pub(super) fn rename(&mut self, from: &str, to: &str) {
        if let Some(place) = self.place.remove(from) {
            self.place.insert(to.to_owned(), place);
        }
    }
}

impl Group {
    /// A new target assignment at the group epoch: empty unless the topology is ready (spec 4.4).
    pub(super) fn compute_targets(&mut self, config: &CoordinatorConfig) {
        if self.delay_deadline_ms.is_some() {
            // Delayed: everyone's target is empty, at the epoch of the initial empty assignment.
            self.targets = TargetAssignment::default();
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
                // ids, which its target-assignment builder fills from the group's member map and
                // then the member joining in this request; ids in one bucket keep that order.
                // The ids' hashes are the ones the member records keep.
                let mut members: Vec<_> = self
                    .member_order
                    .keys()
                    .into_iter()
                    .filter_map(|id| self.members.get(id))
                    .collect();
                members.extend(
                    self.members
                        .values()
                        .filter(|member| !self.member_order.contains(&member.id)),
                );
                sort_in_hash_map_order(&mut members, |member| member.id_hash, None, Insertion::Put);
                let input = AssignmentInput {
                    members: members
                        .into_iter()
                        .map(|member| MemberSpec {
                            member_id: JavaString::with_hash(member.id.clone(), member.id_hash),
                            process_id: JavaString::with_hash(
                                member.metadata.process_id.clone(),
                                member.metadata.process_hash,
                            ),
                            current: member.assigned.clone(),
                            task_offsets: member.task_offsets.clone(),
                        })
                        .collect(),
                    task_counts: configured.task_counts.clone(),
                    stateful,
                    num_standby_replicas: config.num_standby_replicas,
                };
                let targets = StickyAssignor.assign(&input);
                TargetAssignment::new(input, targets)
            }
            // Not ready: every target is empty.
            None => TargetAssignment::default(),
        };
        self.assignment_epoch = self.epoch;
    }

    /// Moves a member towards its target (CurrentAssignmentBuilder, spec 4.3, as Kafka 4.4.0
    /// has it); `owned` is what the request reports (`None` when its task lists are null).
    /// Whether the member's assigned tasks changed. The work follows the member's own tasks (the
    /// task indexes answer for the others).
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
                // Confirmed once the lists are sent without a revoked task of the same type.
                if owned.is_none_or(|owned| owned.overlaps(&member.pending_revocation)) {
                    return false;
                }
                member.epoch + 1
            }
            _ => member.epoch,
        };
        let target = &self.targets.of(member_id);
        let own = &member.assigned;
        let mut keep = own.intersect(target);
        let mut revoke = own.minus(target);
        let wanted = target.minus(own);
        let withheld = self.holders.unreleased(member, &wanted);
        let mut add = wanted.minus(&withheld);
        // R27: a role change of the member's own task that waits for no one is granted in this
        // answer. A demoted active becomes a standby at once while the active is still revoked;
        // a standby turned warm-up, or back, needs no revocation at all.
        grant_in_place(&own.active, &mut add.standby, &mut keep.standby);
        let to_warmup = grant_in_place(&own.standby, &mut add.warmup, &mut keep.warmup);
        revoke.standby = tasks::difference(&revoke.standby, &to_warmup);
        let to_standby = grant_in_place(&own.warmup, &mut add.standby, &mut keep.standby);
        revoke.warmup = tasks::difference(&revoke.warmup, &to_standby);
        // A standby or warm-up whose task the target makes active is never revoked: the member
        // keeps it until the active is granted to it, which replaces it.
        let promoted_standby = tasks::intersection(&own.standby, &target.active);
        let promoted_warmup = tasks::intersection(&own.warmup, &target.active);
        revoke.standby = tasks::difference(&revoke.standby, &promoted_standby);
        revoke.warmup = tasks::difference(&revoke.warmup, &promoted_warmup);
        let revocation_pending =
            !revoke.is_empty() && owned.is_none_or(|owned| owned.overlaps(&revoke));
        let not_yet_promoted = |promoted: &Tasks| {
            if revocation_pending {
                promoted.clone()
            } else {
                tasks::difference(promoted, &add.active)
            }
        };
        keep.standby = tasks::merged(&keep.standby, &not_yet_promoted(&promoted_standby));
        keep.warmup = tasks::merged(&keep.warmup, &not_yet_promoted(&promoted_warmup));
        let rebalance_timeout = u64::try_from(member.metadata.rebalance_timeout_ms).unwrap_or(0);
        let (assigned, pending_revocation) = if revocation_pending {
            (keep, revoke)
        } else {
            (keep.union(&add), TaskSets::default())
        };
        let member = self
            .members
            .get_mut(member_id)
            .expect("a member of the group");
        let changed = assigned != member.assigned;
        // The previous epoch moves up, also for a member asked to revoke (Kafka's
        // `updateMemberEpoch`): a request at the epoch before is fenced from now on (R24).
        member.previous_epoch = member.epoch;
        if revocation_pending {
            member.state = MemberState::UnrevokedTasks;
            member.epoch = base_epoch;
            member.rebalance_deadline_ms = Some(now_ms + rebalance_timeout); // R29
        } else {
            member.epoch = target_epoch;
            member.rebalance_deadline_ms = None;
            member.state = if withheld.is_empty() {
                MemberState::Stable
            } else {
                MemberState::UnreleasedTasks
            };
        }
        self.set_tasks(member_id, assigned, pending_revocation);
        changed
    }
}

/// Moves the tasks of `pending` (to be granted) that the member holds in another role, `held`,
/// to `granted`; returns them.
fn grant_in_place(held: &Tasks, pending: &mut Tasks, granted: &mut Tasks) -> Tasks {
    let moved = tasks::intersection(held, pending);
    if !moved.is_empty() {
        *pending = tasks::difference(pending, &moved);
        *granted = tasks::merged(granted, &moved);
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::member::Member;
    use crate::java_order::string_hash;

    /// The member record's cached hashes follow its ids: on joining, on a change of process, and
    /// when a replacing static member takes the record over.
    #[test]
    fn member_records_keep_the_java_hashes_of_their_ids() {
        let mut member = Member::new("m0000");
        assert_eq!(member.id_hash, 102_141_421);
        assert_eq!(member.metadata.process_hash, string_hash(""));
        assert!(member.metadata.set_process("process-17"));
        assert_eq!(member.metadata.process_hash, 422_135_364);
        assert!(!member.metadata.set_process("process-17"));
        assert!(member.metadata.set_process("p1"));
        assert_eq!(member.metadata.process_hash, 3521);
        let renamed = member.renamed("a€");
        assert_eq!((renamed.id.as_str(), renamed.id_hash), ("a€", 11_371));
        assert_eq!(renamed.metadata.process_hash, 3521);
    }

    /// Partitions of subtopology "0"; no entry when there are none.
    fn subtopology_0(partitions: &[i32]) -> Tasks {
        let mut tasks = Tasks::new();
        if !partitions.is_empty() {
            tasks.insert("0".to_owned(), partitions.iter().copied().collect());
        }
        tasks
    }

    fn sets(active: &[i32], standby: &[i32]) -> TaskSets {
        TaskSets {
            active: subtopology_0(active),
            standby: subtopology_0(standby),
            warmup: Tasks::new(),
        }
    }

    /// A group at epoch 5 whose target (epoch 5) gives `b` task 0 as active, with members at
    /// epoch 4: `b` on process p2 holding `b_holds`, and `a` on p1 holding `a_holds`.
    fn group(a_holds: TaskSets, b_holds: TaskSets) -> Group {
        let mut group = Group::new("g");
        for (id, process, holds) in [("a", "p1", a_holds), ("b", "p2", b_holds)] {
            let mut member = Member::new(id);
            member.metadata.set_process(process);
            member.epoch = 4;
            member.previous_epoch = 3;
            member.assigned = holds;
            group.put_member(member);
            group.member_order.put(id);
        }
        group.epoch = 5;
        group.assignment_epoch = 5;
        // The assignor gives a lone member the one task.
        let input = AssignmentInput {
            members: vec![MemberSpec {
                member_id: "b".into(),
                process_id: "p2".into(),
                current: TaskSets::default(),
                task_offsets: Vec::new(),
            }],
            task_counts: BTreeMap::from([("0".to_owned(), 1)]),
            stateful: BTreeSet::new(),
            num_standby_replicas: 0,
        };
        let targets = StickyAssignor.assign(&input);
        group.targets = TargetAssignment::new(input, targets);
        assert_eq!(group.targets.of("b"), sets(&[0], &[]));
        group
    }

    /// (epoch, state, assigned, pending revocation) of a member.
    fn state_of(group: &Group, id: &str) -> (i32, MemberState, TaskSets, TaskSets) {
        let member = &group.members[id];
        (
            member.epoch,
            member.state,
            member.assigned.clone(),
            member.pending_revocation.clone(),
        )
    }

    #[test]
    fn r27_a_promoted_standby_stays_until_the_active_is_released() {
        let mut group = group(sets(&[0], &[]), sets(&[], &[0]));
        // a still runs task 0: b moves to the target epoch but keeps its standby, unreleased.
        assert!(!group.reconcile("b", Some(&sets(&[], &[0])), 0));
        assert_eq!(
            state_of(&group, "b"),
            (
                5,
                MemberState::UnreleasedTasks,
                sets(&[], &[0]),
                sets(&[], &[])
            )
        );
        // a gives task 0 up and confirms.
        assert!(group.reconcile("a", Some(&sets(&[0], &[])), 0));
        assert!(!group.reconcile("a", Some(&sets(&[], &[])), 0));
        assert_eq!(
            state_of(&group, "a"),
            (5, MemberState::Stable, sets(&[], &[]), sets(&[], &[]))
        );
        // Now the active is granted and replaces the standby in the same step.
        assert!(group.reconcile("b", Some(&sets(&[], &[0])), 0));
        assert_eq!(
            state_of(&group, "b"),
            (5, MemberState::Stable, sets(&[0], &[]), sets(&[], &[]))
        );
        assert_eq!(group.check_indexes(), Ok(()));
    }

    #[test]
    fn r27_a_promoted_standby_stays_while_the_member_revokes_other_tasks() {
        let mut group = group(sets(&[], &[]), sets(&[1], &[0]));
        // Only active 1 is to be revoked; the standby of task 0 is kept, not revoked.
        assert!(group.reconcile("b", Some(&sets(&[1], &[0])), 0));
        assert_eq!(
            state_of(&group, "b"),
            (
                4,
                MemberState::UnrevokedTasks,
                sets(&[], &[0]),
                sets(&[1], &[])
            )
        );
        // Still owning the standby confirms the revocation; task 0 is then active.
        assert!(group.reconcile("b", Some(&sets(&[], &[0])), 0));
        assert_eq!(
            state_of(&group, "b"),
            (5, MemberState::Stable, sets(&[0], &[]), sets(&[], &[]))
        );
        assert_eq!(group.check_indexes(), Ok(()));
    }
}
