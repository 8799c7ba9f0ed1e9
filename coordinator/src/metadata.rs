//! The cluster's topics as the coordinator sees them.

use std::collections::BTreeMap;

/// The partition counts of some topics (`None` for a missing topic) and how many times each was
/// deleted, in the topics' order.
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

    fn deletions(&self, topic: &str) -> u32 {
        self.deletions.get(topic).copied().unwrap_or(0)
    }

    /// A fingerprint of `topics` (partition counts and incarnations); a change bumps the group
    /// epoch.
    pub(crate) fn hash_of<'a>(&self, topics: impl Iterator<Item = &'a String>) -> Fingerprint {
        topics
            .map(|topic| (topic.clone(), self.partitions(topic), self.deletions(topic)))
            .collect()
    }

    /// Whether the topics of `fingerprint` are still the topics it saw, with its partition
    /// counts.
    pub(crate) fn matches(&self, fingerprint: &Fingerprint) -> bool {
        fingerprint.iter().all(|(topic, partitions, deletions)| {
            self.partitions(topic) == *partitions && self.deletions(topic) == *deletions
        })
    }
}
