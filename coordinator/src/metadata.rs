//! The cluster's topics as the coordinator sees them.

use std::collections::BTreeMap;

/// The partition counts of some topics (`None` for a missing topic), in the topics' order.
pub(crate) type Fingerprint = Vec<(String, Option<i32>)>;

/// The cluster's topics and their partition counts, as the coordinator sees them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterMetadata {
    topics: BTreeMap<String, i32>,
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
        self.topics.remove(name);
    }

    /// A fingerprint of the partition counts of `topics`; a change bumps the group epoch.
    pub(crate) fn hash_of<'a>(&self, topics: impl Iterator<Item = &'a String>) -> Fingerprint {
        topics
            .map(|topic| (topic.clone(), self.partitions(topic)))
            .collect()
    }

    /// Whether the topics of `fingerprint` still have the partition counts it holds.
    pub(crate) fn matches(&self, fingerprint: &Fingerprint) -> bool {
        fingerprint
            .iter()
            .all(|(topic, partitions)| self.partitions(topic) == *partitions)
    }
}
