//! The configured topology: a group's topology resolved against the cluster's topics (spec 5.4).

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::codes::{
    STATUS_INCORRECTLY_PARTITIONED_TOPICS, STATUS_MISSING_INTERNAL_TOPICS,
    STATUS_MISSING_SOURCE_TOPICS,
};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};

use crate::metadata::ClusterMetadata;

/// A topic the coordinator asks the cluster to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicToCreate {
    pub name: String,
    pub partitions: i32,
    /// -1 for the broker default.
    pub replication_factor: i16,
    pub configs: Vec<(String, String)>,
}

/// The outcome of resolving a topology against the cluster's topics.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConfiguredTopology {
    /// Tasks per subtopology; empty unless ready.
    pub task_counts: BTreeMap<String, i32>,
    /// The configuration status (code, detail), if not ready.
    pub status: Option<(i8, String)>,
    pub topics_to_create: Vec<TopicToCreate>,
    /// Partition counts of the internal topics, for describe.
    pub internal_partitions: BTreeMap<String, i32>,
    /// A structural fault that refuses the request with STREAMS_INVALID_TOPOLOGY.
    pub invalid: Option<String>,
}

impl ConfiguredTopology {
    pub fn is_ready(&self) -> bool {
        self.status.is_none() && self.invalid.is_none()
    }
}

/// The topics whose partition counts the configured topology depends on.
pub fn topics_of(topology: &Topology) -> BTreeSet<String> {
    topic_names(topology).map(str::to_owned).collect()
}

/// At most three names, then a count of the rest, as Kafka 4.4 words its status details.
fn name_list(names: &[String]) -> String {
    const SHOWN: usize = 3;
    if names.len() <= SHOWN {
        names.join(", ")
    } else {
        format!(
            "{} and {} additional topics",
            names[..SHOWN].join(", "),
            names.len() - SHOWN
        )
    }
}

/// The most partitions among the topics `subtopology` reads: its source topics' counts from
/// `metadata`, its repartition source topics' from `repartition`; `None` while none is known.
fn input_partitions(
    subtopology: &Subtopology,
    metadata: &ClusterMetadata,
    repartition: &BTreeMap<String, i32>,
) -> Option<i32> {
    let sources = subtopology
        .source_topics
        .iter()
        .filter_map(|topic| metadata.partitions(topic));
    let repartitions = subtopology
        .repartition_source_topics
        .iter()
        .filter_map(|topic| repartition.get(&topic.name).copied());
    sources.chain(repartitions).max()
}

/// The partition count of each repartition topic: explicit where the reader gives one (non-zero);
/// otherwise decided by the first subtopology, in topology order, that writes it and whose inputs
/// have counts: the largest among them. Passes repeat while they make progress. A topology whose
/// counts cannot all be decided (a loop, or a repartition source topic nobody writes) is invalid
/// (spec 5.4 step 2, R34; Kafka 4.4 answers STREAMS_INVALID_TOPOLOGY).
fn repartition_counts(
    topology: &Topology,
    metadata: &ClusterMetadata,
) -> Result<BTreeMap<String, i32>, String> {
    let mut counts: BTreeMap<String, i32> = BTreeMap::new();
    for subtopology in &topology.subtopologies {
        for topic in &subtopology.repartition_source_topics {
            if topic.partitions != 0 {
                counts.insert(topic.name.clone(), topic.partitions);
            }
        }
    }
    loop {
        let (mut needed, mut progressed) = (false, false);
        for writer in &topology.subtopologies {
            for sink in &writer.repartition_sink_topics {
                if counts.contains_key(sink) {
                    continue;
                }
                match input_partitions(writer, metadata, &counts) {
                    Some(count) => {
                        counts.insert(sink.clone(), count);
                        progressed = true;
                    }
                    None => needed = true,
                }
            }
        }
        if needed && !progressed {
            return Err("Failed to compute number of partitions for all repartition topics. There may be loops in the topology that cannot be resolved.".to_owned());
        }
        if !needed {
            break;
        }
    }
    let unwritten = topology
        .subtopologies
        .iter()
        .flat_map(|subtopology| &subtopology.repartition_source_topics)
        .any(|topic| !counts.contains_key(&topic.name));
    if unwritten {
        return Err("Failed to compute number of partitions for all repartition topics, because a repartition source topic is never used as a sink topic.".to_owned());
    }
    Ok(counts)
}

/// Resolves `topology` against `metadata` (spec 5.4, steps in its order).
pub fn configure(topology: &Topology, metadata: &ClusterMetadata) -> ConfiguredTopology {
    let mut configured = ConfiguredTopology::default();
    // Step 1: every source topic must exist.
    let mut missing: Vec<String> = topology
        .subtopologies
        .iter()
        .flat_map(|subtopology| subtopology.source_topics.iter())
        .filter(|topic| metadata.partitions(topic).is_none())
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !missing.is_empty() {
        missing.sort();
        configured.status = Some((
            STATUS_MISSING_SOURCE_TOPICS,
            format!("Source topics {} are missing.", missing.join(", ")),
        ));
        return configured;
    }
    // A subtopology must read something (spec 5.4 step 4); found once the source topics exist.
    if let Some(empty) = topology
        .subtopologies
        .iter()
        .find(|s| s.source_topics.is_empty() && s.repartition_source_topics.is_empty())
    {
        configured.invalid = Some(format!(
            "No source topics found for subtopology {}",
            empty.subtopology_id
        ));
        return configured;
    }
    // Step 2: repartition topic partition counts.
    let mut repartition = match repartition_counts(topology, metadata) {
        Ok(counts) => counts,
        Err(invalid) => {
            configured.invalid = Some(invalid);
            return configured;
        }
    };
    // Step 3: copartition groups.
    for subtopology in &topology.subtopologies {
        for group in &subtopology.copartition_groups {
            let mut fixed: BTreeMap<String, i32> = BTreeMap::new();
            let mut derived: Vec<String> = Vec::new();
            for index in &group.source_topics {
                if let Some(topic) = subtopology.source_topics.get(*index as usize) {
                    fixed.insert(topic.clone(), metadata.partitions(topic).unwrap_or(0));
                }
            }
            for index in &group.repartition_source_topics {
                if let Some(topic) = subtopology.repartition_source_topics.get(*index as usize) {
                    if topic.partitions > 0 {
                        fixed.insert(topic.name.clone(), topic.partitions);
                    } else {
                        derived.push(topic.name.clone());
                    }
                }
            }
            let distinct: BTreeSet<i32> = fixed.values().copied().collect();
            if distinct.len() > 1 {
                let listed: Vec<String> = fixed
                    .iter()
                    .map(|(name, count)| format!("{name}={count}"))
                    .collect();
                configured.status = Some((
                    STATUS_INCORRECTLY_PARTITIONED_TOPICS,
                    format!(
                        "Following topics do not have the same number of partitions: [{{{}}}]",
                        listed.join(", ")
                    ),
                ));
                return configured;
            }
            if let Some(common) = distinct.into_iter().next() {
                for topic in derived {
                    repartition.insert(topic, common);
                }
            }
        }
    }
    // Step 4: tasks per subtopology, and the changelog partition counts.
    let mut internal: BTreeMap<
        String,
        (
            i32,
            &streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo,
        ),
    > = BTreeMap::new();
    for subtopology in &topology.subtopologies {
        let tasks = input_partitions(subtopology, metadata, &repartition).unwrap_or(0);
        configured
            .task_counts
            .insert(subtopology.subtopology_id.clone(), tasks);
        for topic in &subtopology.repartition_source_topics {
            internal.insert(
                topic.name.clone(),
                (repartition.get(&topic.name).copied().unwrap_or(0), topic),
            );
        }
        for topic in &subtopology.state_changelog_topics {
            internal.insert(topic.name.clone(), (tasks, topic));
        }
    }
    // Step 5: existing internal topics must have the expected partition count.
    for (name, (expected, _)) in &internal {
        if let Some(found) = metadata.partitions(name) {
            if found != *expected {
                configured.status = Some((
                    STATUS_INCORRECTLY_PARTITIONED_TOPICS,
                    format!(
                        "Existing topic {name} has different number of partitions: expected {expected}, found {found}"
                    ),
                ));
                configured.task_counts.clear();
                return configured;
            }
        }
    }
    configured.internal_partitions = internal
        .iter()
        .map(|(name, (count, _))| (name.clone(), *count))
        .collect();
    // Step 6: missing internal topics are to be created.
    for (name, (partitions, info)) in &internal {
        if metadata.partitions(name).is_none() {
            configured.topics_to_create.push(TopicToCreate {
                name: name.clone(),
                partitions: *partitions,
                replication_factor: if info.replication_factor == 0 {
                    -1
                } else {
                    info.replication_factor
                },
                configs: info
                    .topic_configs
                    .iter()
                    .map(|kv| (kv.key.clone(), kv.value.clone()))
                    .collect(),
            });
        }
    }
    if !configured.topics_to_create.is_empty() {
        let names: Vec<String> = configured
            .topics_to_create
            .iter()
            .map(|topic| topic.name.clone())
            .collect();
        configured.status = Some((
            STATUS_MISSING_INTERNAL_TOPICS,
            format!("Internal topics are missing: {}", name_list(&names)),
        ));
        configured.task_counts.clear();
    }
    configured
}

/// A topology Kafka 4.4 cannot even read from a request, whatever it then does with it: a
/// negative epoch or two subtopologies with one id.
pub fn is_unreadable(topology: &Topology) -> bool {
    let mut ids = BTreeSet::new();
    let duplicate_id = topology
        .subtopologies
        .iter()
        .any(|s| !ids.insert(&s.subtopology_id));
    topology.epoch < 0 || duplicate_id
}

/// A copartition group naming a topic index its subtopology lacks. Kafka 4.4 resolves the
/// indexes only when it stores the topology as the group's, and then answers
/// UNKNOWN_SERVER_ERROR (open question 9, settled against the broker in
/// `harness/scenarios/open-questions/`).
pub fn has_copartition_index_out_of_range(topology: &Topology) -> bool {
    topology.subtopologies.iter().any(|s| {
        s.copartition_groups.iter().any(|group| {
            let out =
                |indexes: &[i16], len: usize| indexes.iter().any(|i| *i < 0 || *i as usize >= len);
            out(&group.source_topics, s.source_topics.len())
                || out(&group.source_topic_regex, s.source_topic_regex.len())
                || out(
                    &group.repartition_source_topics,
                    s.repartition_source_topics.len(),
                )
        })
    })
}

/// Every topic `topology` names, in Kafka's order (per subtopology: sources, repartition sinks,
/// repartition sources, changelogs), each once. Source regexes are not topics.
pub fn topic_names(topology: &Topology) -> impl Iterator<Item = &str> {
    let mut seen = BTreeSet::new();
    topic_mentions(topology).filter(move |name| seen.insert(*name))
}

/// Every mention of a topic in `topology`, in the order of [`topic_names`]: a topic named twice
/// comes twice. Enough for a check that holds for every topic or fails for one, without the set
/// of names seen (every join is checked so).
pub fn topic_mentions(topology: &Topology) -> impl Iterator<Item = &str> {
    topology
        .subtopologies
        .iter()
        .flat_map(|subtopology| {
            subtopology
                .source_topics
                .iter()
                .chain(&subtopology.repartition_sink_topics)
                .chain(
                    subtopology
                        .repartition_source_topics
                        .iter()
                        .map(|topic| &topic.name),
                )
                .chain(
                    subtopology
                        .state_changelog_topics
                        .iter()
                        .map(|topic| &topic.name),
                )
        })
        .map(String::as_str)
}
