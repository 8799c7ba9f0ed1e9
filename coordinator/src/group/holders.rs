//! Who holds which task, kept up to date as members' tasks change: the task-to-owner index (who
//! holds a task as active) and the process-to-task index (what the members of a process hold, by
//! role). With them, holding back a member's unreleased tasks (spec 4.3) looks at the member's own
//! tasks only, never at the rest of the group.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use super::member::Member;
use crate::tasks::{self, TaskSets, Tasks};

/// How many members of a process hold one task, by role.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RoleCounts {
    active: u32,
    standby: u32,
    warmup: u32,
}

/// One role's count of a [`RoleCounts`].
type RoleField = fn(&mut RoleCounts) -> &mut u32;

/// Counts by subtopology and partition; an entry exists only while some count is above zero, so
/// that an index kept up to date equals one built from scratch.
type Counts<C> = BTreeMap<String, BTreeMap<i32, C>>;

/// The tasks members hold: assigned, or pending revocation (not yet given up).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TaskHolders {
    /// Task to the number of members holding it as active.
    active_owners: Counts<u32>,
    /// Process to what its members hold.
    by_process: BTreeMap<String, Counts<RoleCounts>>,
}

/// Changes the counts of `partitions` of `subtopology` by `change`, dropping emptied entries.
/// The subtopology's entry is looked up once for all its partitions.
fn add<C: Default + PartialEq>(
    counts: &mut Counts<C>,
    subtopology: &str,
    partitions: &BTreeSet<i32>,
    change: impl Fn(&mut C),
) {
    if !counts.contains_key(subtopology) {
        counts.insert(subtopology.to_owned(), BTreeMap::new());
    }
    let of_subtopology = counts.get_mut(subtopology).expect("inserted above");
    for &partition in partitions {
        let count = of_subtopology.entry(partition).or_default();
        change(count);
        if *count == C::default() {
            of_subtopology.remove(&partition);
        }
    }
    if of_subtopology.is_empty() {
        counts.remove(subtopology);
    }
}

fn count<C: Copy + Default>(counts: &Counts<C>, subtopology: &str, partition: i32) -> C {
    counts
        .get(subtopology)
        .and_then(|partitions| partitions.get(&partition))
        .copied()
        .unwrap_or_default()
}

fn step(value: &mut u32, delta: i32) {
    *value = value
        .checked_add_signed(delta)
        .expect("a holder is removed only after it was added");
}

impl TaskHolders {
    /// The indexes of `members`, built from scratch.
    pub(super) fn of<'a>(members: impl Iterator<Item = &'a Member>) -> TaskHolders {
        let mut holders = TaskHolders::default();
        for member in members {
            holders.add_member(member);
        }
        holders
    }

    pub(super) fn add_member(&mut self, member: &Member) {
        self.apply(member, 1);
    }

    pub(super) fn remove_member(&mut self, member: &Member) {
        self.apply(member, -1);
    }

    fn apply(&mut self, member: &Member, delta: i32) {
        // Most members have nothing pending revocation: their assigned tasks are what they hold,
        // without a merged copy.
        let held = if member.pending_revocation.is_empty() {
            Cow::Borrowed(&member.assigned)
        } else {
            Cow::Owned(member.assigned.union(&member.pending_revocation))
        };
        if held.is_empty() {
            return;
        }
        for (subtopology, partitions) in &held.active {
            add(&mut self.active_owners, subtopology, partitions, |c| {
                step(c, delta)
            });
        }
        let process = &member.metadata.process_id;
        if !self.by_process.contains_key(process) {
            self.by_process.insert(process.clone(), Counts::new());
        }
        let of_process = self.by_process.get_mut(process).expect("inserted above");
        let roles: [(&Tasks, RoleField); 3] = [
            (&held.active, |c| &mut c.active),
            (&held.standby, |c| &mut c.standby),
            (&held.warmup, |c| &mut c.warmup),
        ];
        for (tasks, role) in roles {
            for (subtopology, partitions) in tasks {
                add(of_process, subtopology, partitions, |c| {
                    step(role(c), delta)
                });
            }
        }
        if of_process.is_empty() {
            self.by_process.remove(process);
        }
    }

    /// Tasks of `wanted` that `member` must wait for (spec 4.3, as Kafka 4.4.0 decides). Its
    /// process's holdings count the member's own tasks too, pending revocation included; only a
    /// task the member has assigned in a role does not block it from taking the task in another
    /// role, which it then changes in place (R27). An active task waits while anyone holds it as
    /// active, or its process holds it as a standby or warm-up the member does not have; a
    /// standby while its process holds it as an active the member does not have, as a standby,
    /// or as a warm-up the member does not have; a warm-up while its process holds it as an
    /// active, as a standby the member does not have, or as a warm-up.
    pub(super) fn unreleased(&self, member: &Member, wanted: &TaskSets) -> TaskSets {
        let own = &member.assigned;
        let empty = Counts::new();
        let of_process = self
            .by_process
            .get(&member.metadata.process_id)
            .unwrap_or(&empty);
        // Whether the process holds the task in a role, and whether the member itself has it so.
        let held = |subtopology: &str, partition: i32| count(of_process, subtopology, partition);
        let mine = |tasks: &Tasks, subtopology: &str, partition: i32| {
            tasks::contains(tasks, subtopology, partition)
        };
        let active_blocked = |subtopology: &str, partition: i32| {
            let roles = held(subtopology, partition);
            count(&self.active_owners, subtopology, partition) > 0
                || (roles.standby > 0 && !mine(&own.standby, subtopology, partition))
                || (roles.warmup > 0 && !mine(&own.warmup, subtopology, partition))
        };
        let standby_blocked = |subtopology: &str, partition: i32| {
            let roles = held(subtopology, partition);
            (roles.active > 0 && !mine(&own.active, subtopology, partition))
                || roles.standby > 0
                || (roles.warmup > 0 && !mine(&own.warmup, subtopology, partition))
        };
        let warmup_blocked = |subtopology: &str, partition: i32| {
            let roles = held(subtopology, partition);
            roles.active > 0
                || (roles.standby > 0 && !mine(&own.standby, subtopology, partition))
                || roles.warmup > 0
        };
        TaskSets {
            active: filtered(&wanted.active, active_blocked),
            standby: filtered(&wanted.standby, standby_blocked),
            warmup: filtered(&wanted.warmup, warmup_blocked),
        }
    }
}

/// The tasks of `tasks` for which `keep` holds.
fn filtered(tasks: &Tasks, keep: impl Fn(&str, i32) -> bool) -> Tasks {
    let mut out = Tasks::new();
    for (subtopology, partitions) in tasks {
        let kept: BTreeSet<i32> = partitions
            .iter()
            .copied()
            .filter(|partition| keep(subtopology, *partition))
            .collect();
        if !kept.is_empty() {
            out.insert(subtopology.clone(), kept);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks(entries: &[(&str, i32)]) -> Tasks {
        let mut tasks = Tasks::new();
        for (subtopology, partition) in entries {
            tasks
                .entry((*subtopology).to_owned())
                .or_default()
                .insert(*partition);
        }
        tasks
    }

    fn member(id: &str, process: &str, active: &[(&str, i32)], standby: &[(&str, i32)]) -> Member {
        let mut member = Member::new(id);
        member.metadata.process_id = process.to_owned();
        member.assigned.active = tasks(active);
        member.assigned.standby = tasks(standby);
        member
    }

    fn wanting(active: &[(&str, i32)], standby: &[(&str, i32)]) -> TaskSets {
        TaskSets {
            active: tasks(active),
            standby: tasks(standby),
            warmup: Tasks::new(),
        }
    }

    #[test]
    fn tasks_wait_for_other_holders_as_kafka_4_4_0_decides() {
        let a = member("a", "p1", &[("0", 0)], &[("0", 1)]);
        let mut b = member("b", "p1", &[], &[]);
        let c = member("c", "p2", &[], &[("0", 2)]);
        let holders = TaskHolders::of([&a, &b, &c].into_iter());
        // Active 0_0 is a's; 0_1 is a standby on b's own process; 0_2 is a standby elsewhere.
        let wanted = wanting(&[("0", 0), ("0", 1), ("0", 2)], &[("0", 0), ("0", 2)]);
        assert_eq!(
            holders.unreleased(&b, &wanted),
            wanting(&[("0", 0), ("0", 1)], &[("0", 0)])
        );
        // A task c or a has assigned in one role does not block it in another (R27): c's standby
        // 0_2 becomes active, a's active 0_0 a standby, a's standby 0_1 active.
        assert_eq!(
            holders.unreleased(&c, &wanting(&[("0", 1), ("0", 2)], &[("0", 1)])),
            wanting(&[], &[])
        );
        assert_eq!(
            holders.unreleased(&a, &wanting(&[("0", 1)], &[("0", 0)])),
            wanting(&[], &[])
        );
        // A task pending revocation blocks its own member too: Kafka's index knows processes, and
        // only assigned tasks exempt a member.
        b.pending_revocation.active = tasks(&[("0", 3)]);
        let holders = TaskHolders::of([&a, &b, &c].into_iter());
        assert_eq!(
            holders.unreleased(&b, &wanting(&[("0", 3)], &[("0", 3)])),
            wanting(&[("0", 3)], &[("0", 3)])
        );
        assert_eq!(
            holders.unreleased(&a, &wanting(&[("0", 3)], &[("0", 3)])),
            wanting(&[("0", 3)], &[("0", 3)])
        );
        // On another process only the active owner blocks.
        assert_eq!(
            holders.unreleased(&c, &wanting(&[("0", 3)], &[("0", 3)])),
            wanting(&[("0", 3)], &[])
        );
    }

    #[test]
    fn removing_every_member_leaves_an_empty_index() {
        let a = member("a", "p1", &[("0", 0), ("1", 0)], &[("0", 1)]);
        let b = member("b", "p1", &[("0", 1)], &[("0", 0)]);
        let mut holders = TaskHolders::of([&a, &b].into_iter());
        assert_ne!(holders, TaskHolders::default());
        holders.remove_member(&a);
        assert_eq!(holders, TaskHolders::of([&b].into_iter()));
        holders.remove_member(&b);
        assert_eq!(holders, TaskHolders::default());
    }
}
