//! Kafka's dialect to the KIP draft's and back, for one heartbeat at a time. The state that
//! spans heartbeats (member ids the coordinator assigned, endpoint epochs) is [`Translator`]'s;
//! the field-by-field mapping is the table in the [module documentation](super).

use std::collections::BTreeMap;

use streamspec_protocol::codes::{DRAFT_STATUS_INCONSISTENT_TOPOLOGY, STATUS_STALE_TOPOLOGY};
use streamspec_protocol::kafka::streams_group_describe_response as kafka_describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request as kafka_req;
use streamspec_protocol::kafka::streams_group_heartbeat_response as kafka_resp;
use streamspec_protocol::kip_draft::streams_group_heartbeat_request as draft_req;
use streamspec_protocol::kip_draft::streams_group_heartbeat_response as draft_resp;

/// The draft's TopologyId for a Kafka topology: its epoch, in decimal. Kafka's client names a
/// new topology by a higher epoch, the draft's by another id; equal epochs are equal ids.
pub fn topology_id(epoch: i32) -> String {
    epoch.to_string()
}

/// The draft's status code for each of Kafka's, and back: INCONSISTENT_TOPOLOGY (0) is Kafka's
/// STALE_TOPOLOGY (0), "the topology you sent is not the group's"; 1 to 4 mean the same in both.
/// Codes Kafka added later (ASSIGNMENT_DELAYED, MISSING_CLIENT_TAGS) do not exist in the draft;
/// a code the draft does not define is passed on as it is, for the scenario or the oracle to
/// judge.
pub fn kafka_status_code(draft: i8) -> i8 {
    match draft {
        DRAFT_STATUS_INCONSISTENT_TOPOLOGY => STATUS_STALE_TOPOLOGY,
        other => other,
    }
}

/// What a group's translation remembers between heartbeats.
#[derive(Debug, Default, Clone)]
struct GroupIds {
    /// The member id the harness gave (Kafka's dialect: the client's) to the one the draft's
    /// coordinator assigned.
    assigned: BTreeMap<String, String>,
    /// Kafka's endpoint-information epoch, which the draft lacks: raised whenever the draft
    /// answers a PartitionsByUserEndpoint other than the last one.
    endpoint_epoch: i32,
    last_endpoints: Option<Vec<kafka_resp::EndpointToPartitions>>,
}

/// The translation state of one backend (one scenario, one campaign run).
#[derive(Debug, Default, Clone)]
pub struct Translator {
    groups: BTreeMap<String, GroupIds>,
}

fn task_ids(tasks: &Option<Vec<kafka_req::TaskIds>>) -> Option<Vec<draft_req::TaskIds>> {
    tasks.as_ref().map(|lists| {
        lists
            .iter()
            .map(|t| {
                draft_req::TaskIds::default()
                    .with_subtopology_id(t.subtopology_id.clone())
                    .with_partitions(t.partitions.clone())
            })
            .collect()
    })
}

fn key_values(pairs: &[kafka_req::KeyValue]) -> Vec<draft_req::KeyValue> {
    pairs
        .iter()
        .map(|kv| {
            draft_req::KeyValue::default()
                .with_key(kv.key.clone())
                .with_value(kv.value.clone())
        })
        .collect()
}

/// A topic's info; the draft has no replication factor, and no configs is null.
fn topic_info(info: &kafka_req::TopicInfo) -> draft_req::TopicInfo {
    draft_req::TopicInfo::default()
        .with_name(info.name.clone())
        .with_partitions(info.partitions)
        .with_topic_configs(
            (!info.topic_configs.is_empty()).then(|| key_values(&info.topic_configs)),
        )
}

fn topology(topology: &kafka_req::Topology) -> draft_req::Topology {
    let subtopologies = topology
        .subtopologies
        .iter()
        .map(|s| {
            draft_req::Subtopology::default()
                .with_subtopology_id(s.subtopology_id.clone())
                .with_source_topics(s.source_topics.clone())
                .with_source_topic_regex(s.source_topic_regex.clone())
                .with_state_changelog_topics(
                    s.state_changelog_topics.iter().map(topic_info).collect(),
                )
                .with_repartition_sink_topics(s.repartition_sink_topics.clone())
                .with_repartition_source_topics(
                    s.repartition_source_topics.iter().map(topic_info).collect(),
                )
                .with_copartition_groups(
                    s.copartition_groups
                        .iter()
                        .map(|g| {
                            draft_req::CopartitionGroup::default()
                                .with_source_topics(g.source_topics.clone())
                                .with_source_topic_regex(g.source_topic_regex.clone())
                                .with_repartition_source_topics(g.repartition_source_topics.clone())
                        })
                        .collect(),
                )
        })
        .collect();
    draft_req::Topology::default()
        .with_topology_id(topology_id(topology.epoch))
        .with_subtopologies(subtopologies)
}

fn offsets(offsets: &Option<Vec<kafka_req::TaskOffset>>) -> Option<Vec<draft_req::TaskOffset>> {
    offsets.as_ref().map(|list| {
        list.iter()
            .map(|o| {
                draft_req::TaskOffset::default()
                    .with_subtopology_id(o.subtopology_id.clone())
                    .with_partition(o.partition)
                    .with_offset(o.offset)
            })
            .collect()
    })
}

fn kafka_tasks(tasks: Option<Vec<draft_resp::TaskIds>>) -> Option<Vec<kafka_resp::TaskIds>> {
    tasks.map(|lists| {
        lists
            .into_iter()
            .map(|t| {
                kafka_resp::TaskIds::default()
                    .with_subtopology_id(t.subtopology_id)
                    .with_partitions(t.partitions)
            })
            .collect()
    })
}

/// The draft's one partition list per endpoint is Kafka's active list; the draft does not tell
/// standby partitions apart. A port outside Kafka's `uint16` becomes 0.
fn kafka_endpoints(
    entries: Vec<draft_resp::EndpointToPartitions>,
) -> Vec<kafka_resp::EndpointToPartitions> {
    entries
        .into_iter()
        .map(|entry| {
            kafka_resp::EndpointToPartitions::default()
                .with_user_endpoint(
                    kafka_resp::Endpoint::default()
                        .with_host(entry.user_endpoint.host)
                        .with_port(u16::try_from(entry.user_endpoint.port).unwrap_or(0)),
                )
                .with_active_partitions(
                    entry
                        .partitions
                        .into_iter()
                        .map(|list| {
                            kafka_resp::TopicPartition::default()
                                .with_topic(list.topic)
                                .with_partitions(list.partitions)
                        })
                        .collect(),
                )
        })
        .collect()
}

impl Translator {
    /// The draft request for a Kafka-dialect `request`. A join of a member the draft's
    /// coordinator has not named yet asks for an id (an empty MemberId); every other request
    /// carries the id it was given.
    pub fn request(
        &self,
        request: &kafka_req::StreamsGroupHeartbeatRequest,
    ) -> draft_req::StreamsGroupHeartbeatRequest {
        let assigned = self
            .groups
            .get(&request.group_id)
            .and_then(|group| group.assigned.get(&request.member_id));
        let member_id = match (assigned, request.member_epoch) {
            (Some(id), _) => id.clone(),
            (None, 0) => String::new(),
            (None, _) => request.member_id.clone(),
        };
        draft_req::StreamsGroupHeartbeatRequest::default()
            .with_group_id(request.group_id.clone())
            .with_member_id(member_id)
            .with_member_epoch(request.member_epoch)
            .with_instance_id(request.instance_id.clone())
            .with_rack_id(request.rack_id.clone())
            .with_rebalance_timeout_ms(request.rebalance_timeout_ms)
            .with_topology(request.topology.as_ref().map(topology))
            .with_active_tasks(task_ids(&request.active_tasks))
            .with_standby_tasks(task_ids(&request.standby_tasks))
            .with_warmup_tasks(task_ids(&request.warmup_tasks))
            .with_process_id(request.process_id.clone())
            .with_user_endpoint(request.user_endpoint.as_ref().map(|endpoint| {
                draft_req::Endpoint::default()
                    .with_host(endpoint.host.clone())
                    .with_port(i32::from(endpoint.port))
            }))
            .with_client_tags(request.client_tags.as_deref().map(key_values))
            .with_task_offsets(offsets(&request.task_offsets))
            .with_task_end_offsets(offsets(&request.task_end_offsets))
            .with_shutdown_application(request.shutdown_application)
    }

    /// The Kafka-dialect answer to `request` (at `version`) for the draft's `answer`, and what
    /// the translation learns from it (the id a join was given).
    pub fn response(
        &mut self,
        request: &kafka_req::StreamsGroupHeartbeatRequest,
        version: i16,
        answer: draft_resp::StreamsGroupHeartbeatResponse,
    ) -> kafka_resp::StreamsGroupHeartbeatResponse {
        let mut response = kafka_resp::StreamsGroupHeartbeatResponse::default()
            .with_throttle_time_ms(answer.throttle_time_ms)
            .with_error_code(answer.error_code)
            .with_error_message(answer.error_message);
        if answer.error_code != 0 {
            // An error answer is bare in both dialects.
            return response;
        }
        let group = self.groups.entry(request.group_id.clone()).or_default();
        let joining = request.member_epoch == 0;
        // Kafka's answer echoes the member's id; the draft names it only on a join, and then
        // it is the one the coordinator assigned. A join answered without an id, or a heartbeat
        // answered with another id, shows as that id (or none), so that the echo check sees it.
        let member_id = match (joining, answer.member_id) {
            (true, Some(assigned)) if !assigned.is_empty() => {
                group
                    .assigned
                    .insert(request.member_id.clone(), assigned.clone());
                request.member_id.clone()
            }
            (true, _) => String::new(),
            (false, None) => request.member_id.clone(),
            (false, Some(named)) => match group.assigned.get(&request.member_id) {
                Some(assigned) if *assigned == named => request.member_id.clone(),
                _ => named,
            },
        };
        let endpoints = answer.partitions_by_user_endpoint.map(kafka_endpoints);
        if endpoints.is_some() && endpoints != group.last_endpoints {
            group.endpoint_epoch += 1;
            group.last_endpoints.clone_from(&endpoints);
        }
        response = response
            .with_member_id(member_id)
            .with_member_epoch(answer.member_epoch)
            .with_heartbeat_interval_ms(answer.heartbeat_interval_ms)
            .with_task_offset_interval_ms(answer.task_offset_interval_ms)
            .with_status(answer.status.map(|list| {
                list.into_iter()
                    .map(|status| {
                        kafka_resp::Status::default()
                            .with_status_code(kafka_status_code(status.status_code))
                            .with_status_detail(status.status_detail)
                    })
                    .collect()
            }))
            .with_active_tasks(kafka_tasks(answer.active_tasks))
            .with_standby_tasks(kafka_tasks(answer.standby_tasks))
            .with_warmup_tasks(kafka_tasks(answer.warmup_tasks))
            .with_endpoint_information_epoch(group.endpoint_epoch)
            .with_partitions_by_user_endpoint(endpoints);
        if version == 0 {
            response.with_acceptable_recovery_lag_legacy(answer.acceptable_recovery_lag)
        } else {
            response.with_acceptable_recovery_lag(i64::from(answer.acceptable_recovery_lag))
        }
    }

    /// A describe answer with the coordinator's member ids put back as the harness knows them.
    pub fn describe_response(
        &self,
        mut response: kafka_describe::StreamsGroupDescribeResponse,
    ) -> kafka_describe::StreamsGroupDescribeResponse {
        for group in &mut response.groups {
            let Some(ids) = self.groups.get(&group.group_id) else {
                continue;
            };
            for member in &mut group.members {
                if let Some((own, _)) = ids
                    .assigned
                    .iter()
                    .find(|(_, assigned)| **assigned == member.member_id)
                {
                    member.member_id.clone_from(own);
                }
            }
        }
        response
    }
}
