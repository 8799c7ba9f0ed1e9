//! The topics' partition counts as the proxy sees them in answers, recorded as changes in time
//! so that a trace's exchanges can be answered again by the reference, which needs them (the
//! tasks of a topology are its source topics' partitions). Metadata answers give the count of
//! every topic they list (a partition added by CreatePartitions shows there), CreateTopics
//! answers of version 5 on the count of a created topic, DeleteTopics answers a deletion.

use std::collections::BTreeMap;

use kafka_protocol::messages::{
    CreateTopicsRequest, CreateTopicsResponse, DeleteTopicsRequest, DeleteTopicsResponse,
    DescribeConfigsRequest, DescribeConfigsResponse, MetadataRequest, MetadataResponse,
};
use kafka_protocol::protocol::Request;
use serde::{Deserialize, Serialize};
use streamspec_protocol::codes::ERROR_UNKNOWN_TOPIC_OR_PARTITION;
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};

use crate::proxy::decode_response;

/// Changes of topics and group configs recorded at most; later ones are counted, not recorded.
pub const TOPIC_CHANGES_MAX: usize = 100_000;

/// A topic's partition count, as an answer showed it at `at_ms` (ms since the proxy started);
/// `partitions` is `None` once the topic is gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSeen {
    pub at_ms: u64,
    pub topic: String,
    pub partitions: Option<i32>,
}

/// A group-level config's value, as a DescribeConfigs answer showed it at `at_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupConfigSeen {
    pub at_ms: u64,
    pub group: String,
    pub name: String,
    pub value: String,
}

/// Kafka's config resource type of a group.
const RESOURCE_TYPE_GROUP: i8 = 32;
/// Kafka's config source of a config set on a group.
const CONFIG_SOURCE_GROUP: i8 = 8;

/// Whether the proxy reads answers of `api_key` for topics or group configs.
pub fn shows_topics(api_key: i16) -> bool {
    matches!(
        api_key,
        MetadataRequest::KEY
            | CreateTopicsRequest::KEY
            | DeleteTopicsRequest::KEY
            | DescribeConfigsRequest::KEY
    )
}

/// The topics known, and how their counts changed.
#[derive(Debug, Default)]
pub(super) struct Topics {
    known: BTreeMap<String, i32>,
    changes: Vec<TopicSeen>,
    /// By group and name, the value of each config ever seen set on the group.
    group_configs: BTreeMap<(String, String), String>,
    config_changes: Vec<GroupConfigSeen>,
    /// Changes past [`TOPIC_CHANGES_MAX`].
    pub(super) unrecorded: u64,
}

impl Topics {
    /// Each topic's partition count as the latest answer that showed it gave it.
    pub(super) fn known(&self) -> &BTreeMap<String, i32> {
        &self.known
    }

    pub(super) fn changes(&self) -> &[TopicSeen] {
        &self.changes
    }

    /// The config changes of `group`, oldest first.
    pub(super) fn config_changes(&self, group: &str) -> Vec<GroupConfigSeen> {
        self.config_changes
            .iter()
            .filter(|change| change.group == group)
            .cloned()
            .collect()
    }

    /// Reads an answer of `api_key` at `version`; one that does not decode shows nothing.
    pub(super) fn seen(&mut self, at_ms: u64, api_key: i16, version: i16, response: &[u8]) {
        match api_key {
            MetadataRequest::KEY => {
                let Some(answer) = decode_response::<MetadataResponse>(response, version) else {
                    return;
                };
                for topic in answer.topics {
                    let Some(name) = topic.name else { continue };
                    match topic.error_code {
                        0 => self.count(at_ms, &name, Some(topic.partitions.len() as i32)),
                        ERROR_UNKNOWN_TOPIC_OR_PARTITION => self.count(at_ms, &name, None),
                        _ => {}
                    }
                }
            }
            CreateTopicsRequest::KEY => {
                let Some(answer) = decode_response::<CreateTopicsResponse>(response, version)
                else {
                    return;
                };
                for topic in answer.topics {
                    // Before version 5 the answer gives no count: a later Metadata does.
                    if topic.error_code == 0 && topic.num_partitions > 0 {
                        self.count(at_ms, &topic.name, Some(topic.num_partitions));
                    }
                }
            }
            DeleteTopicsRequest::KEY => {
                let Some(answer) = decode_response::<DeleteTopicsResponse>(response, version)
                else {
                    return;
                };
                for topic in answer.responses {
                    if let (0, Some(name)) = (topic.error_code, topic.name) {
                        self.count(at_ms, &name, None);
                    }
                }
            }
            DescribeConfigsRequest::KEY => {
                let Some(answer) = decode_response::<DescribeConfigsResponse>(response, version)
                else {
                    return;
                };
                for result in answer.results {
                    if result.error_code != 0 || result.resource_type != RESOURCE_TYPE_GROUP {
                        continue;
                    }
                    for config in result.configs {
                        let Some(value) = config.value else { continue };
                        let key = (result.resource_name.to_string(), config.name.to_string());
                        let set = config.config_source == CONFIG_SOURCE_GROUP;
                        if set || self.group_configs.contains_key(&key) {
                            self.config(at_ms, key, value.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn config(&mut self, at_ms: u64, key: (String, String), value: String) {
        if self.group_configs.get(&key) == Some(&value) {
            return;
        }
        if self.changes.len() + self.config_changes.len() >= TOPIC_CHANGES_MAX {
            self.unrecorded += 1;
            return;
        }
        self.config_changes.push(GroupConfigSeen {
            at_ms,
            group: key.0.clone(),
            name: key.1.clone(),
            value: value.clone(),
        });
        self.group_configs.insert(key, value);
    }

    fn count(&mut self, at_ms: u64, topic: &str, partitions: Option<i32>) {
        if self.known.get(topic).copied() == partitions {
            return;
        }
        // Judging goes on with every count known, whether or not traces can still record it.
        set_count(&mut self.known, topic, partitions);
        if self.changes.len() + self.config_changes.len() >= TOPIC_CHANGES_MAX {
            self.unrecorded += 1;
            return;
        }
        self.changes.push(TopicSeen {
            at_ms,
            topic: topic.to_owned(),
            partitions,
        });
    }
}

/// Sets `topic`'s count in `known`; `None` forgets a topic that is gone.
pub(super) fn set_count(known: &mut BTreeMap<String, i32>, topic: &str, partitions: Option<i32>) {
    match partitions {
        Some(count) => known.insert(topic.to_owned(), count),
        None => known.remove(topic),
    };
}

/// Tasks per subtopology of `topology` with the topics' counts in `known`: the most partitions
/// among its source and repartition source topics (spec 5.4 steps 2 and 4). A repartition topic
/// not seen yet counts as the topology declares it, else as many as the subtopology writing it
/// has tasks, as the coordinator creates it. `Err` names a topic whose count is unknown: the
/// tasks are then unknown too.
pub(super) fn task_counts(
    topology: &Topology,
    known: &BTreeMap<String, i32>,
) -> Result<BTreeMap<String, i32>, String> {
    let mut repartitions: BTreeMap<&str, i32> = BTreeMap::new();
    for subtopology in &topology.subtopologies {
        for topic in &subtopology.repartition_source_topics {
            let count = known
                .get(&topic.name)
                .copied()
                .or((topic.partitions > 0).then_some(topic.partitions));
            if let Some(count) = count {
                repartitions.insert(&topic.name, count);
            }
        }
    }
    let tasks_of = |subtopology: &Subtopology, repartitions: &BTreeMap<&str, i32>| {
        let sources = subtopology
            .source_topics
            .iter()
            .map(|topic| known.get(topic).copied().ok_or(topic));
        let read = subtopology.repartition_source_topics.iter().map(|topic| {
            repartitions
                .get(topic.name.as_str())
                .copied()
                .ok_or(&topic.name)
        });
        let mut tasks = 0;
        for count in sources.chain(read) {
            tasks = tasks.max(count.map_err(|topic| topic.clone())?);
        }
        Ok::<i32, String>(tasks)
    };
    // Each pass counts the repartition topics whose writers' inputs are counted.
    for _ in 0..topology.subtopologies.len() {
        let mut progressed = false;
        for writer in &topology.subtopologies {
            for sink in &writer.repartition_sink_topics {
                if repartitions.contains_key(sink.as_str()) {
                    continue;
                }
                if let Ok(tasks) = tasks_of(writer, &repartitions) {
                    repartitions.insert(sink, tasks);
                    progressed = true;
                }
            }
        }
        if !progressed {
            break;
        }
    }
    topology
        .subtopologies
        .iter()
        .map(|subtopology| {
            let tasks = tasks_of(subtopology, &repartitions)?;
            Ok((subtopology.subtopology_id.clone(), tasks))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::BytesMut;
    use kafka_protocol::messages::create_topics_response::CreatableTopicResult;
    use kafka_protocol::messages::delete_topics_response::DeletableTopicResult;
    use kafka_protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResult,
    };
    use kafka_protocol::messages::metadata_response::{
        MetadataResponsePartition, MetadataResponseTopic,
    };
    use kafka_protocol::messages::{ResponseHeader, TopicName};
    use kafka_protocol::protocol::{Encodable, HeaderVersion, StrBytes};

    /// An answer frame (header, then body) of `response` at `version`.
    fn frame<R: Encodable + HeaderVersion>(response: &R, version: i16) -> Vec<u8> {
        let mut frame = BytesMut::new();
        ResponseHeader::default()
            .with_correlation_id(1)
            .encode(&mut frame, R::header_version(version))
            .unwrap();
        response.encode(&mut frame, version).unwrap();
        frame.to_vec()
    }

    fn name(text: &str) -> TopicName {
        TopicName(StrBytes::from_string(text.to_owned()))
    }

    fn metadata(topics: &[(&str, i16, usize)]) -> Vec<u8> {
        let topics = topics
            .iter()
            .map(|(topic, error_code, partitions)| {
                MetadataResponseTopic::default()
                    .with_name(Some(name(topic)))
                    .with_error_code(*error_code)
                    .with_partitions(vec![MetadataResponsePartition::default(); *partitions])
            })
            .collect();
        frame(&MetadataResponse::default().with_topics(topics), 12)
    }

    fn group_configs(configs: &[(&str, &str, i8)]) -> Vec<u8> {
        let configs = configs
            .iter()
            .map(|(name, value, source)| {
                DescribeConfigsResourceResult::default()
                    .with_name(StrBytes::from_string((*name).to_owned()))
                    .with_value(Some(StrBytes::from_string((*value).to_owned())))
                    .with_config_source(*source)
            })
            .collect();
        let result = DescribeConfigsResult::default()
            .with_resource_type(RESOURCE_TYPE_GROUP)
            .with_resource_name(StrBytes::from_static_str("g"))
            .with_configs(configs);
        frame(
            &DescribeConfigsResponse::default().with_results(vec![result]),
            4,
        )
    }

    fn seen(at_ms: u64, topic: &str, partitions: Option<i32>) -> TopicSeen {
        TopicSeen {
            at_ms,
            topic: topic.to_owned(),
            partitions,
        }
    }

    #[test]
    fn changes_of_partition_counts_are_recorded_once_each() {
        let mut topics = Topics::default();
        let created = CreatableTopicResult::default()
            .with_name(name("in"))
            .with_num_partitions(2);
        let create = CreateTopicsResponse::default().with_topics(vec![created]);
        topics.seen(1, CreateTopicsRequest::KEY, 7, &frame(&create, 7));
        // The same count again is no change; a partition added and an unknown topic are.
        topics.seen(2, MetadataRequest::KEY, 12, &metadata(&[("in", 0, 2)]));
        topics.seen(
            3,
            MetadataRequest::KEY,
            12,
            &metadata(&[("in", 0, 3), ("x", 3, 0)]),
        );
        let deleted = DeletableTopicResult::default().with_name(Some(name("in")));
        let delete = DeleteTopicsResponse::default().with_responses(vec![deleted]);
        topics.seen(4, DeleteTopicsRequest::KEY, 6, &frame(&delete, 6));
        // Unknown once deleted: no change; an answer cut short shows nothing.
        topics.seen(5, MetadataRequest::KEY, 12, &metadata(&[("in", 3, 0)]));
        topics.seen(6, MetadataRequest::KEY, 12, &metadata(&[("in", 0, 4)])[..9]);
        assert_eq!(
            topics.changes(),
            [
                seen(1, "in", Some(2)),
                seen(3, "in", Some(3)),
                seen(4, "in", None)
            ]
        );
    }

    #[test]
    fn configs_set_on_a_group_are_recorded_until_back_at_their_default() {
        let mut topics = Topics::default();
        let key = DescribeConfigsRequest::KEY;
        let standbys = "streams.num.standby.replicas";
        let session = "streams.session.timeout.ms";
        // Defaults (source 5) are not recorded until the config was set on the group.
        topics.seen(
            1,
            key,
            4,
            &group_configs(&[(standbys, "0", 5), (session, "45000", 5)]),
        );
        topics.seen(
            2,
            key,
            4,
            &group_configs(&[(standbys, "1", CONFIG_SOURCE_GROUP)]),
        );
        topics.seen(
            3,
            key,
            4,
            &group_configs(&[(standbys, "1", CONFIG_SOURCE_GROUP)]),
        );
        topics.seen(4, key, 4, &group_configs(&[(standbys, "0", 5)]));
        let change = |at_ms, value: &str| GroupConfigSeen {
            at_ms,
            group: "g".to_owned(),
            name: standbys.to_owned(),
            value: value.to_owned(),
        };
        assert_eq!(topics.config_changes("g"), [change(2, "1"), change(4, "0")]);
        assert_eq!(topics.config_changes("other"), []);
    }

    #[test]
    fn tasks_are_the_most_partitions_among_counted_source_and_repartition_topics() {
        use streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo;
        let topology = Topology::default().with_subtopologies(vec![
            Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(vec!["in".to_owned(), "side".to_owned()])
                .with_repartition_sink_topics(vec!["r".to_owned()]),
            Subtopology::default()
                .with_subtopology_id("1")
                .with_repartition_source_topics(vec![TopicInfo::default()
                    .with_name("r")
                    .with_partitions(5)]),
        ]);
        let mut known = BTreeMap::from([("in".to_owned(), 2), ("side".to_owned(), 3)]);
        // The repartition topic not seen yet counts as the topology declares it, or as its
        // writer has tasks when it declares none.
        let counts = BTreeMap::from([("0".to_owned(), 3), ("1".to_owned(), 5)]);
        assert_eq!(task_counts(&topology, &known), Ok(counts));
        let mut undeclared = topology.clone();
        undeclared.subtopologies[1].repartition_source_topics[0].partitions = 0;
        let counts = BTreeMap::from([("0".to_owned(), 3), ("1".to_owned(), 3)]);
        assert_eq!(task_counts(&undeclared, &known), Ok(counts));
        set_count(&mut known, "r", Some(4));
        let counts = BTreeMap::from([("0".to_owned(), 3), ("1".to_owned(), 4)]);
        assert_eq!(task_counts(&topology, &known), Ok(counts));
        set_count(&mut known, "side", None);
        assert_eq!(task_counts(&topology, &known), Err("side".to_owned()));
    }
}
