//! What a randomized run sets up before its operations: source topics, a topology over them
//! (subtopologies chained by repartition topics, changelogs, copartition groups), the group's
//! standby count and each member's settings (shared processes, static instance ids, endpoints,
//! racks). The oracle derives from it, independently of any coordinator, how many tasks each
//! subtopology has and whether the topology can be ready.

use std::collections::{BTreeMap, BTreeSet};

use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    CopartitionGroup, KeyValue, Subtopology, TopicInfo, Topology,
};

/// Members are drawn from a small pool so that operations meet the same members often.
pub const MEMBERS: usize = 4;
const MAX_TOPICS: usize = 3;
const MAX_PARTITIONS: i32 = 8;
const MAX_SUBTOPOLOGIES: usize = 3;
/// Within Kafka's default `group.streams.max.standby.replicas` (2).
const MAX_STANDBY_REPLICAS: u8 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Partition counts of the source topics `t0`, `t1`, ...
    pub topics: Vec<i32>,
    pub subtopologies: Vec<SubtopologySetup>,
    /// The group config `streams.num.standby.replicas`.
    pub standby_replicas: u8,
    /// One entry per member of the pool.
    pub members: Vec<MemberSetup>,
    /// A source topic that does not exist when the run starts (an operation creates it).
    #[serde(default)]
    pub late_topic: Option<usize>,
    /// The group config `streams.rack.aware.assignment.tags` is `zone`: members without a zone
    /// tag are told MISSING_CLIENT_TAGS.
    #[serde(default)]
    pub rack_aware_tags: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtopologySetup {
    /// Indexes into [`Setup::topics`].
    pub sources: Vec<usize>,
    /// Also reads the repartition topic the previous subtopology writes.
    pub reads_repartition: bool,
    /// Keeps a state store with a changelog topic, which makes it stateful (standbys).
    pub changelog: bool,
    /// Its source topics must have one partition count.
    pub copartitioned: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberSetup {
    /// Members with the same number share a process.
    pub process: u8,
    /// A static member keeps its instance id across restarts.
    pub static_member: bool,
    /// Advertises an endpoint for interactive queries.
    pub endpoint: bool,
    pub rack: Option<u8>,
    /// The value of the member's client tag `zone`, if it reports one.
    #[serde(default)]
    pub zone: Option<u8>,
    /// Sends null task lists on a heartbeat when what it owns is what the coordinator last took
    /// from it, as the Java client does (null means unchanged, R26); otherwise it reports its
    /// tasks on every heartbeat.
    #[serde(default)]
    pub omits_unchanged_tasks: bool,
}

impl Default for Setup {
    /// One topic of four partitions, one stateless subtopology, a process per member.
    fn default() -> Self {
        Setup {
            topics: vec![4],
            subtopologies: vec![SubtopologySetup {
                sources: vec![0],
                reads_repartition: false,
                changelog: false,
                copartitioned: false,
            }],
            standby_replicas: 0,
            members: (0..MEMBERS)
                .map(|index| MemberSetup {
                    process: index as u8,
                    static_member: false,
                    endpoint: false,
                    rack: None,
                    zone: None,
                    omits_unchanged_tasks: false,
                })
                .collect(),
            late_topic: None,
            rack_aware_tags: false,
        }
    }
}

impl<'a> Arbitrary<'a> for Setup {
    fn arbitrary(input: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let topic_count = input.int_in_range(1..=MAX_TOPICS)?;
        let topics = (0..topic_count)
            .map(|_| input.int_in_range(1..=MAX_PARTITIONS))
            .collect::<arbitrary::Result<Vec<i32>>>()?;
        let mut subtopologies = Vec::new();
        for index in 0..input.int_in_range(1..=MAX_SUBTOPOLOGIES)? {
            let reads_repartition = index > 0 && input.arbitrary()?;
            let mut sources = BTreeSet::new();
            for _ in 0..input.int_in_range(0..=2)? {
                sources.insert(input.choose_index(topic_count)?);
            }
            if sources.is_empty() && !reads_repartition {
                sources.insert(input.choose_index(topic_count)?);
            }
            let copartitioned = sources.len() > 1 && input.ratio(1, 3)?;
            subtopologies.push(SubtopologySetup {
                sources: sources.into_iter().collect(),
                reads_repartition,
                changelog: input.arbitrary()?,
                copartitioned,
            });
        }
        let standby_replicas = input.int_in_range(0..=MAX_STANDBY_REPLICAS)?;
        let members = (0..MEMBERS)
            .map(|_| {
                Ok(MemberSetup {
                    process: input.int_in_range(0..=MEMBERS as u8 - 1)?,
                    static_member: input.ratio(1, 2)?,
                    endpoint: input.arbitrary()?,
                    rack: if input.arbitrary()? {
                        Some(input.int_in_range(0..=1)?)
                    } else {
                        None
                    },
                    zone: if input.arbitrary()? {
                        Some(input.int_in_range(0..=1)?)
                    } else {
                        None
                    },
                    omits_unchanged_tasks: input.arbitrary()?,
                })
            })
            .collect::<arbitrary::Result<Vec<MemberSetup>>>()?;
        let late_topic = if input.ratio(1, 4)? {
            Some(input.choose_index(topic_count)?)
        } else {
            None
        };
        let rack_aware_tags = input.ratio(1, 4)?;
        Ok(Setup {
            topics,
            subtopologies,
            standby_replicas,
            members,
            late_topic,
            rack_aware_tags,
        })
    }
}

/// The names of one run's group and topics: a prefix keeps runs on one broker apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    pub group: String,
    prefix: String,
}

impl Names {
    pub fn new(prefix: &str) -> Names {
        Names {
            group: format!("{prefix}sim"),
            prefix: prefix.to_owned(),
        }
    }

    /// What every name of the run starts with.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    pub fn topic(&self, index: usize) -> String {
        format!("{}t{index}", self.prefix)
    }

    fn repartition(&self, subtopology: usize) -> String {
        format!("{}sim-repartition-{subtopology}", self.prefix)
    }

    fn changelog(&self, subtopology: usize) -> String {
        format!("{}sim-store-{subtopology}-changelog", self.prefix)
    }
}

impl Setup {
    /// Checks what [`Arbitrary`] guarantees, for setups read from trace files.
    pub fn validate(&self) -> Result<(), String> {
        let topics = self.topics.len();
        if topics == 0
            || self
                .topics
                .iter()
                .any(|p| !(1..=MAX_PARTITIONS).contains(p))
        {
            return Err(format!(
                "topics: 1 to {MAX_TOPICS} counts of 1 to {MAX_PARTITIONS} partitions"
            ));
        }
        if self.subtopologies.is_empty()
            || self.subtopologies.iter().enumerate().any(|(index, s)| {
                s.sources.iter().any(|t| *t >= topics)
                    || (s.sources.is_empty() && !s.reads_repartition)
                    || (index == 0 && s.reads_repartition)
            })
        {
            return Err("subtopologies: each reads a known topic or the previous repartition topic, the first reads no repartition topic".to_owned());
        }
        if self.standby_replicas > MAX_STANDBY_REPLICAS {
            return Err(format!("standby_replicas: at most {MAX_STANDBY_REPLICAS}"));
        }
        if self.late_topic.is_some_and(|topic| topic >= topics) {
            return Err("late_topic: the index of a topic".to_owned());
        }
        if self.members.len() != MEMBERS {
            return Err(format!("members: exactly {MEMBERS}"));
        }
        Ok(())
    }

    /// The topology every member sends when it joins.
    pub fn topology(&self, names: &Names) -> Topology {
        let subtopologies = self
            .subtopologies
            .iter()
            .enumerate()
            .map(|(index, setup)| {
                let writes_repartition = self
                    .subtopologies
                    .get(index + 1)
                    .is_some_and(|next| next.reads_repartition);
                let mut subtopology = Subtopology::default()
                    .with_subtopology_id(index.to_string())
                    .with_source_topics(setup.sources.iter().map(|t| names.topic(*t)).collect());
                if setup.reads_repartition {
                    subtopology = subtopology.with_repartition_source_topics(vec![
                        TopicInfo::default().with_name(names.repartition(index - 1)),
                    ]);
                }
                if writes_repartition {
                    subtopology =
                        subtopology.with_repartition_sink_topics(vec![names.repartition(index)]);
                }
                if setup.changelog {
                    subtopology =
                        subtopology.with_state_changelog_topics(vec![TopicInfo::default()
                            .with_name(names.changelog(index))
                            .with_topic_configs(vec![KeyValue::default()
                                .with_key("cleanup.policy")
                                .with_value("compact")])]);
                }
                if setup.copartitioned {
                    subtopology = subtopology
                        .with_copartition_groups(vec![CopartitionGroup::default()
                            .with_source_topics((0..setup.sources.len() as i16).collect())]);
                }
                subtopology
            })
            .collect();
        Topology::default().with_subtopologies(subtopologies)
    }

    /// The group configs the run sets before it starts.
    pub fn group_configs(&self) -> Vec<(String, String)> {
        let mut configs = vec![(
            "streams.num.standby.replicas".to_owned(),
            self.standby_replicas.to_string(),
        )];
        if self.rack_aware_tags {
            configs.push((
                "streams.rack.aware.assignment.tags".to_owned(),
                "zone".to_owned(),
            ));
        }
        configs
    }

    /// The source topics and their partition counts, to create before the run (the late topic
    /// comes later).
    pub fn source_topics(&self, names: &Names) -> Vec<(String, i32)> {
        self.topics
            .iter()
            .enumerate()
            .filter(|(index, _)| self.late_topic != Some(*index))
            .map(|(index, partitions)| (names.topic(index), *partitions))
            .collect()
    }

    /// Every topic the run may create, internal ones included, to delete after it.
    pub fn all_topics(&self, names: &Names) -> Vec<String> {
        let mut all: Vec<String> = (0..self.topics.len()).map(|t| names.topic(t)).collect();
        for (index, subtopology) in self.subtopologies.iter().enumerate() {
            if subtopology.reads_repartition {
                all.push(names.repartition(index - 1));
            }
            if subtopology.changelog {
                all.push(names.changelog(index));
            }
        }
        all
    }

    /// Whether the topology can be configured: every copartition group agrees on its count
    /// (spec 5.4 step 3). The oracle's own reading, not the coordinator's.
    pub fn is_ready(&self) -> bool {
        // The oracle asks after every exchange: the counts are compared without a set of them.
        self.subtopologies.iter().all(|subtopology| {
            let mut counts = subtopology.sources.iter().map(|t| self.topics[*t]);
            !subtopology.copartitioned
                || counts
                    .next()
                    .is_some_and(|first| counts.all(|count| count == first))
        })
    }

    /// Tasks per subtopology id: the most partitions among its sources, a repartition topic
    /// having as many as the subtopology that writes it has tasks (spec 5.4 steps 2 and 4).
    pub fn task_counts(&self) -> BTreeMap<String, i32> {
        let mut counts = BTreeMap::new();
        let mut previous = 0;
        for (index, subtopology) in self.subtopologies.iter().enumerate() {
            let external = subtopology.sources.iter().map(|t| self.topics[*t]).max();
            let repartition = subtopology.reads_repartition.then_some(previous);
            let tasks = external.into_iter().chain(repartition).max().unwrap_or(0);
            counts.insert(index.to_string(), tasks);
            previous = tasks;
        }
        counts
    }

    /// Whether a subtopology reads source topic `topic`.
    pub fn reads(&self, topic: usize) -> bool {
        self.subtopologies
            .iter()
            .any(|subtopology| subtopology.sources.contains(&topic))
    }

    /// Whether subtopology `id` keeps state, and so may have standbys.
    pub fn is_stateful(&self, id: &str) -> bool {
        id.parse::<usize>()
            .ok()
            .and_then(|index| self.subtopologies.get(index))
            .is_some_and(|subtopology| subtopology.changelog)
    }

    /// The topic a resize may grow: one whose partition count nothing else depends on (no
    /// changelog, repartition topic or copartition group derives from it), so the topology stays
    /// configurable, and that exists from the start. Kafka never resizes internal topics, which
    /// would otherwise stop matching.
    pub fn resizable_topic(&self, choice: u8) -> Option<usize> {
        let resizable: Vec<usize> = (0..self.topics.len())
            .filter(|topic| self.late_topic != Some(*topic))
            .filter(|topic| {
                self.subtopologies.iter().enumerate().all(|(index, s)| {
                    let writes_repartition = self
                        .subtopologies
                        .get(index + 1)
                        .is_some_and(|next| next.reads_repartition);
                    !s.sources.contains(topic)
                        || !(s.changelog || s.copartitioned || writes_repartition)
                })
            })
            .collect();
        (!resizable.is_empty()).then(|| resizable[usize::from(choice) % resizable.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chained() -> Setup {
        Setup {
            topics: vec![3, 5, 2],
            subtopologies: vec![
                SubtopologySetup {
                    sources: vec![0, 1],
                    reads_repartition: false,
                    changelog: true,
                    copartitioned: false,
                },
                SubtopologySetup {
                    sources: vec![2],
                    reads_repartition: true,
                    changelog: false,
                    copartitioned: false,
                },
            ],
            ..Setup::default()
        }
    }

    #[test]
    fn tasks_follow_the_widest_source_and_the_repartition_chain() {
        let counts = chained().task_counts();
        assert_eq!(counts["0"], 5);
        assert_eq!(counts["1"], 5);
        assert!(chained().is_ready());
    }

    #[test]
    fn a_copartition_group_of_unequal_topics_is_not_ready() {
        let mut setup = chained();
        setup.subtopologies[0].copartitioned = true;
        assert!(!setup.is_ready());
        setup.topics[0] = 5;
        assert!(setup.is_ready());
    }

    #[test]
    fn only_topics_nothing_derives_from_are_resizable() {
        let setup = chained();
        // t0 and t1 feed a changelog and a repartition topic; t2 feeds nothing derived.
        assert_eq!(setup.resizable_topic(0), Some(2));
        assert_eq!(setup.resizable_topic(7), Some(2));
    }

    #[test]
    fn the_topology_names_its_internal_topics() {
        let names = Names::new("x-");
        let topology = chained().topology(&names);
        let first = &topology.subtopologies[0];
        assert_eq!(first.source_topics, ["x-t0", "x-t1"]);
        assert_eq!(first.repartition_sink_topics, ["x-sim-repartition-0"]);
        assert_eq!(
            first.state_changelog_topics[0].name,
            "x-sim-store-0-changelog"
        );
        let second = &topology.subtopologies[1];
        assert_eq!(
            second.repartition_source_topics[0].name,
            "x-sim-repartition-0"
        );
        assert_eq!(
            chained().all_topics(&names),
            [
                "x-t0",
                "x-t1",
                "x-t2",
                "x-sim-store-0-changelog",
                "x-sim-repartition-0"
            ]
        );
    }
}
