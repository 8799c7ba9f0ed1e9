//! Checks a heartbeat request needs no group state for, in Kafka 4.4's order: the topology's topic
//! names (R16, R17), the principal's right to describe them (R18), then the unsupported regex
//! (R13), then the structural checks (R1-R10).

use streamspec_protocol::codes::{
    ERROR_STREAMS_INVALID_TOPOLOGY, ERROR_TOPIC_AUTHORIZATION_FAILED,
};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;

use crate::access::{Operation, Permissions};
use crate::errors::ErrorAnswer;
use crate::topology;

/// Kafka's own topics, which a Streams topology may not use (R16).
const INTERNAL_TOPICS: [&str; 3] = [
    "__consumer_offsets",
    "__transaction_state",
    "__share_group_state",
];

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// Kafka's legal topic names: 1 to 249 characters of `[a-zA-Z0-9._-]`, not "." or ".." (R17).
fn is_legal_topic_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 249
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '_' | '-'))
}

pub(crate) fn request(
    request: &StreamsGroupHeartbeatRequest,
    permissions: &Permissions,
) -> Result<(), ErrorAnswer> {
    // The checks look at every mention of a topic; only a refusal lists the names, each once.
    let topics = || request.topology.iter().flat_map(topology::topic_names);
    let mentioned = || request.topology.iter().flat_map(topology::topic_mentions);
    let is_internal = |topic: &str| INTERNAL_TOPICS.contains(&topic);
    if mentioned().any(is_internal) {
        // R16
        let internal: Vec<&str> = topics().filter(|topic| is_internal(topic)).collect();
        return Err(ErrorAnswer::new(
            ERROR_STREAMS_INVALID_TOPOLOGY,
            format!(
                "Use of Kafka internal topics {} in a Kafka Streams topology is prohibited.",
                internal.join(",")
            ),
        ));
    }
    if mentioned().any(|topic| !is_legal_topic_name(topic)) {
        // R17
        let illegal: Vec<&str> = topics()
            .filter(|topic| !is_legal_topic_name(topic))
            .collect();
        return Err(ErrorAnswer::new(
            ERROR_STREAMS_INVALID_TOPOLOGY,
            format!(
                "Topic names {} are not valid topic names.",
                illegal.join(",")
            ),
        ));
    }
    if mentioned().any(|topic| !permissions.allows_topic(Operation::Describe, topic)) {
        // R18: Kafka's request handler, after the topic names, names none of the topics.
        return Err(ErrorAnswer::bare(ERROR_TOPIC_AUTHORIZATION_FAILED));
    }
    if let Some(topology) = &request.topology {
        if topology
            .subtopologies
            .iter()
            .any(|s| !s.source_topic_regex.is_empty())
        {
            // R13
            return Err(ErrorAnswer::invalid_request(
                "Regular expressions for source topics are not supported yet.",
            ));
        }
    }
    if is_blank(&request.member_id) {
        return Err(ErrorAnswer::invalid_request("MemberId can't be empty.")); // R1
    }
    if is_blank(&request.group_id) {
        return Err(ErrorAnswer::invalid_request("GroupId can't be empty.")); // R2
    }
    if request.instance_id.as_deref().is_some_and(is_blank) {
        return Err(ErrorAnswer::invalid_request("InstanceId can't be empty."));
    }
    if request.rack_id.as_deref().is_some_and(is_blank) {
        return Err(ErrorAnswer::invalid_request("RackId can't be empty."));
    }
    if request.member_epoch == 0 {
        if request.rebalance_timeout_ms == -1 {
            return Err(ErrorAnswer::invalid_request(
                "RebalanceTimeoutMs must be provided in first request.", // R3
            ));
        }
        let lists = [
            ("ActiveTasks", &request.active_tasks), // R4
            ("StandbyTasks", &request.standby_tasks),
            ("WarmupTasks", &request.warmup_tasks),
        ];
        for (name, list) in lists {
            if list.as_ref().is_none_or(|list| !list.is_empty()) {
                return Err(ErrorAnswer::invalid_request(format!(
                    "{name} must be empty when (re-)joining."
                )));
            }
        }
        let Some(topology) = &request.topology else {
            return Err(ErrorAnswer::invalid_request(
                "Topology must be non-null when (re-)joining.",
            )); // R5
        };
        for subtopology in &topology.subtopologies {
            if let Some(changelog) = subtopology
                .state_changelog_topics
                .iter()
                .find(|t| t.partitions != 0)
            {
                // R6
                return Err(ErrorAnswer::new(
                    ERROR_STREAMS_INVALID_TOPOLOGY,
                    format!(
                        "Changelog topic {} must have an undefined partition count, but it is set to {}.",
                        changelog.name, changelog.partitions
                    ),
                ));
            }
        }
    } else if request.member_epoch == -2 && request.instance_id.is_none() {
        return Err(ErrorAnswer::invalid_request("InstanceId can't be null.")); // R8
    } else if request.member_epoch < -2 {
        return Err(ErrorAnswer::invalid_request(format!(
            "MemberEpoch is {}, but must be greater than or equal to -2.", // R7
            request.member_epoch
        )));
    }
    let nulls = [
        &request.active_tasks,
        &request.standby_tasks,
        &request.warmup_tasks,
    ]
    .iter()
    .filter(|list| list.is_none())
    .count();
    if nulls != 0 && nulls != 3 {
        return Err(ErrorAnswer::invalid_request(
            "If one task-type is non-null, all must be non-null.", // R9
        ));
    }
    if request.member_epoch != 0 && request.topology.is_some() {
        return Err(ErrorAnswer::invalid_request(
            "Topology can only be provided when (re-)joining.",
        )); // R10
    }
    Ok(())
}
