//! The cluster's topics as the coordinator sees them.

use std::collections::BTreeMap;

/// The partition counts of some topics (`None` for a missing topic) and which incarnation of each
/// exists, in the topics' order.
pub(crate) type Fingerprint = Vec<(String, Option<i32>, u32)>;

/// The cluster's topics and their partition counts, as the coordinator sees them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterMetadata {
    topics: BTreeMap<String, i32>,
    /// How many times each topic was deleted: a topic created again is another topic, with
    /// another id, which Kafka's metadata hash covers (R33), whatever its partition count.
    deletions: BTreeMap<String, u32>,
}

impl ClusterMetadata {
    pub fn partitions(&self, topic: &str) -> Option<i32> {
        self.topics.get(topic).copied()
    }

    pub fn with_topic(mut self, name: impl Into<String>, partitions: i32) -> Self {
        self.topics.insert(name.into(), partitions);
        self
    }

    pub fn set_topic(&mut self, name: impl Into<String>, partitions: i32) {
        self.topics.insert(name.into(), partitions);
    }

    pub fn remove_topic(&mut self, name: &str) {
        if self.topics.remove(name).is_some() {
            *self.deletions.entry(name.to_owned()).or_default() += 1;
        }
    }

    /// Which incarnation of `topic` exists: how many times it was deleted before, or 0 while it
    /// is missing. Kafka's metadata hash covers only the topics that exist (R33), so a topic
    /// created and deleted again between two heartbeats of a group it is missing from changes
    /// nothing.
    fn incarnation(&self, topic: &str) -> u32 {
        if self.topics.contains_key(topic) {
            self.deletions.get(topic).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// A fingerprint of `topics` (partition counts and incarnations); a change bumps the group
    /// epoch.
    pub(crate) fn hash_of<'a>(&self, topics: impl Iterator<Item = &'a str>) -> Fingerprint {
        topics
            .map(|topic| {
                (
                    topic.to_owned(),
                    self.partitions(topic),
                    self.incarnation(topic),
                )
            })
            .collect()
    }

    /// Whether a topic that existed when `fingerprint` was taken no longer does.
    pub(crate) fn lost_a_topic_of(&self, fingerprint: &Fingerprint) -> bool {
        fingerprint
            .iter()
            .any(|(topic, partitions, _)| partitions.is_some() && self.partitions(topic).is_none())
    }

    /// Whether the topics of `fingerprint` are still the topics it saw, with its partition
    /// counts.
    pub(crate) fn matches(&self, fingerprint: &Fingerprint) -> bool {
        fingerprint.iter().all(|(topic, partitions, incarnation)| {
            self.partitions(topic) == *partitions && self.incarnation(topic) == *incarnation
        })
    }
}
