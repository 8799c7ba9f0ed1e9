//! Task sets: active, standby and warm-up tasks by subtopology and partition.

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::kafka::streams_group_heartbeat_request as request;
use streamspec_protocol::kafka::streams_group_heartbeat_response as response;

/// Tasks of one type: subtopology id to partitions.
pub type Tasks = BTreeMap<String, BTreeSet<i32>>;

/// The tasks a member holds or is to hold, by type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskSets {
    pub active: Tasks,
    pub standby: Tasks,
    pub warmup: Tasks,
}

impl TaskSets {
    pub fn is_empty(&self) -> bool {
        count(&self.active) + count(&self.standby) + count(&self.warmup) == 0
    }

    /// Tasks of `self` that are not in `other`, per type.
    pub fn minus(&self, other: &TaskSets) -> TaskSets {
        TaskSets {
            active: difference(&self.active, &other.active),
            standby: difference(&self.standby, &other.standby),
            warmup: difference(&self.warmup, &other.warmup),
        }
    }

    /// Tasks in both, per type.
    pub fn intersect(&self, other: &TaskSets) -> TaskSets {
        TaskSets {
            active: intersection(&self.active, &other.active),
            standby: intersection(&self.standby, &other.standby),
            warmup: intersection(&self.warmup, &other.warmup),
        }
    }

    pub fn union(&self, other: &TaskSets) -> TaskSets {
        TaskSets {
            active: merged(&self.active, &other.active),
            standby: merged(&self.standby, &other.standby),
            warmup: merged(&self.warmup, &other.warmup),
        }
    }

    /// True when `self` and `other` share a task of the same type: a task reported as a standby
    /// does not hold back the revocation of the same task as an active (Kafka 4.4.0's
    /// `TasksTuple.containsAny`, spec 4.3).
    pub fn overlaps(&self, other: &TaskSets) -> bool {
        shares_a_task(&self.active, &other.active)
            || shares_a_task(&self.standby, &other.standby)
            || shares_a_task(&self.warmup, &other.warmup)
    }

    /// The owned tasks a request reports; `None` when its task lists are null.
    pub fn from_request(
        active: Option<&[request::TaskIds]>,
        standby: Option<&[request::TaskIds]>,
        warmup: Option<&[request::TaskIds]>,
    ) -> Option<TaskSets> {
        let read = |lists: &[request::TaskIds]| -> Tasks {
            let mut tasks = Tasks::new();
            for list in lists {
                tasks
                    .entry(list.subtopology_id.clone())
                    .or_default()
                    .extend(list.partitions.iter().copied());
            }
            tasks.retain(|_, partitions| !partitions.is_empty());
            tasks
        };
        Some(TaskSets {
            active: read(active?),
            standby: read(standby?),
            warmup: read(warmup?),
        })
    }
}

pub fn count(tasks: &Tasks) -> usize {
    tasks.values().map(BTreeSet::len).sum()
}

pub fn contains(tasks: &Tasks, subtopology: &str, partition: i32) -> bool {
    tasks
        .get(subtopology)
        .is_some_and(|partitions| partitions.contains(&partition))
}

/// Whether `a` and `b` share a task, found without building their intersection.
fn shares_a_task(a: &Tasks, b: &Tasks) -> bool {
    a.iter().any(|(subtopology, partitions)| {
        b.get(subtopology)
            .is_some_and(|other| !partitions.is_disjoint(other))
    })
}

/// Tasks of `a` that are not in `b`.
pub fn difference(a: &Tasks, b: &Tasks) -> Tasks {
    let mut out = Tasks::new();
    for (subtopology, partitions) in a {
        let left: BTreeSet<i32> = match b.get(subtopology) {
            Some(other) => partitions.difference(other).copied().collect(),
            None => partitions.clone(),
        };
        if !left.is_empty() {
            out.insert(subtopology.clone(), left);
        }
    }
    out
}

/// Tasks in both.
pub fn intersection(a: &Tasks, b: &Tasks) -> Tasks {
    let mut out = Tasks::new();
    for (subtopology, partitions) in a {
        if let Some(other) = b.get(subtopology) {
            let both: BTreeSet<i32> = partitions.intersection(other).copied().collect();
            if !both.is_empty() {
                out.insert(subtopology.clone(), both);
            }
        }
    }
    out
}

/// Tasks in either.
pub fn merged(a: &Tasks, b: &Tasks) -> Tasks {
    let mut out = a.clone();
    for (subtopology, partitions) in b {
        out.entry(subtopology.clone())
            .or_default()
            .extend(partitions.iter().copied());
    }
    out
}

/// Task lists of a heartbeat response: one entry per subtopology, partitions ascending.
pub fn to_response(tasks: &Tasks) -> Vec<response::TaskIds> {
    tasks
        .iter()
        .map(|(subtopology, partitions)| {
            response::TaskIds::default()
                .with_subtopology_id(subtopology.clone())
                .with_partitions(partitions.iter().copied().collect())
        })
        .collect()
}
