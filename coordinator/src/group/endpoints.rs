//! Endpoint information (R46): which partitions each member with a user endpoint serves, and the
//! epoch that tells a member whether its copy is current.

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::kafka::streams_group_heartbeat_response as response;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::member::Member;
use super::Group;
use crate::metadata::ClusterMetadata;
use crate::tasks::Tasks;

impl Group {
    /// R46: the endpoint epoch moves whenever an endpoint member learns new tasks.
    pub(super) fn tasks_sent_to(&mut self, member_id: &str) {
        if self.members[member_id].metadata.user_endpoint.is_some() {
            self.endpoint_epoch += 1;
        }
    }
}

/// `answer` with the group's endpoint epoch, and the partitions of every endpoint member when the
/// requester's copy is from another epoch.
pub(super) fn with_endpoint_information(
    answer: StreamsGroupHeartbeatResponse,
    group: &Group,
    metadata: &ClusterMetadata,
    request: &StreamsGroupHeartbeatRequest,
) -> StreamsGroupHeartbeatResponse {
    let endpoint_epoch = group.endpoint_epoch.max(0);
    let answer = answer.with_endpoint_information_epoch(endpoint_epoch);
    // Kafka 4.4.0 answers on any epoch mismatch, with an empty list when no member has an
    // endpoint (harness/scenarios/static-and-v1/R46-endpoint-epoch-mismatch-without-endpoints.json).
    if request.endpoint_information_epoch != endpoint_epoch {
        answer.with_partitions_by_user_endpoint(Some(partitions_by_endpoint(
            group,
            metadata,
            &request.member_id,
        )))
    } else {
        answer
    }
}

/// For every member with an endpoint (the requester last), the partitions its tasks read (R46).
fn partitions_by_endpoint(
    group: &Group,
    metadata: &ClusterMetadata,
    requester: &str,
) -> Vec<response::EndpointToPartitions> {
    let topology = group.topology.as_ref();
    let partitions_of = |tasks: &Tasks| -> Vec<response::TopicPartition> {
        let mut by_topic: BTreeMap<String, BTreeSet<i32>> = BTreeMap::new();
        for subtopology in topology.iter().flat_map(|t| &t.subtopologies) {
            let Some(task_partitions) = tasks.get(&subtopology.subtopology_id) else {
                continue;
            };
            let topics = subtopology.source_topics.iter().chain(
                subtopology
                    .repartition_source_topics
                    .iter()
                    .map(|t| &t.name),
            );
            for topic in topics {
                let count = metadata.partitions(topic).unwrap_or(0);
                let entry = by_topic.entry(topic.clone()).or_default();
                entry.extend(task_partitions.iter().copied().filter(|p| *p < count));
            }
        }
        by_topic
            .into_iter()
            .filter(|(_, partitions)| !partitions.is_empty())
            .map(|(topic, partitions)| {
                response::TopicPartition::default()
                    .with_topic(topic)
                    .with_partitions(partitions.into_iter().collect())
            })
            .collect()
    };
    let mut members: Vec<&Member> = group
        .members
        .values()
        .filter(|m| m.metadata.user_endpoint.is_some())
        .collect();
    members.sort_by_key(|m| m.id == requester);
    members
        .into_iter()
        .map(|member| {
            let (host, port) = member.metadata.user_endpoint.clone().unwrap();
            response::EndpointToPartitions::default()
                .with_user_endpoint(
                    response::Endpoint::default()
                        .with_host(host)
                        .with_port(port),
                )
                .with_active_partitions(partitions_of(&member.assigned.active))
                .with_standby_partitions(partitions_of(&member.assigned.standby))
        })
        .collect()
}
