//! Endpoint information (R46): which partitions each member with a user endpoint serves, and the
//! epoch that tells a member whether its copy is current.

use streamspec_protocol::kafka::streams_group_heartbeat_response as response;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::member::Member;
use super::Group;
use crate::metadata::ClusterMetadata;
use crate::tasks::{self, Tasks};

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
    // As Kafka 4.4.0 builds it: for each subtopology the member has tasks of, an entry per topic
    // it reads (a topic read by two subtopologies appears twice), holding the task numbers the
    // topic has a partition for; standby and warm-up tasks count as standby. The topics of each
    // subtopology are gathered once for all members.
    let subtopologies: Vec<(&String, Vec<&String>)> = group
        .topology
        .iter()
        .flat_map(|t| &t.subtopologies)
        .map(|subtopology| {
            let mut topics: Vec<&String> = subtopology
                .source_topics
                .iter()
                .chain(
                    subtopology
                        .repartition_source_topics
                        .iter()
                        .map(|t| &t.name),
                )
                .collect();
            topics.sort_unstable();
            topics.dedup();
            (&subtopology.subtopology_id, topics)
        })
        .collect();
    let partitions_of = |tasks: &Tasks| -> Vec<response::TopicPartition> {
        let mut entries = Vec::new();
        for (subtopology, topics) in &subtopologies {
            let Some(task_partitions) = tasks.get(*subtopology) else {
                continue;
            };
            for topic in topics {
                let count = metadata.partitions(topic).unwrap_or(0);
                // Ascending, as the set is ordered; a topic none of the tasks reads is left out.
                let partitions: Vec<i32> = task_partitions
                    .iter()
                    .copied()
                    .filter(|p| *p < count)
                    .collect();
                if partitions.is_empty() {
                    continue;
                }
                entries.push(
                    response::TopicPartition::default()
                        .with_topic((*topic).clone())
                        .with_partitions(partitions),
                );
            }
        }
        entries
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
                .with_standby_partitions(if member.assigned.warmup.is_empty() {
                    // No merged copy: the reference assigns no warm-up tasks.
                    partitions_of(&member.assigned.standby)
                } else {
                    partitions_of(&tasks::merged(
                        &member.assigned.standby,
                        &member.assigned.warmup,
                    ))
                })
        })
        .collect()
}
