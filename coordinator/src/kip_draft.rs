//! The KIP draft dialect as an adapter over the same core: draft requests are translated to Kafka
//! 4.4 requests, the reference coordinator answers, and the answers are translated back. Where
//! the draft's semantics differ (see `protocol/schemas/kip-draft/RESOLUTIONS.md`):
//!
//! - the coordinator generates member ids: a join with an empty MemberId gets one, returned only
//!   on the join;
//! - a topology is identified by its TopologyId: a join whose id differs from the group's is
//!   accepted against the group's topology and told so with status INCONSISTENT_TOPOLOGY (0);
//!   the group's id is returned as GroupTopologyId on joins;
//! - there is no endpoint-information epoch: the adapter remembers, per member, the last one it
//!   answered and the partitions it sent, so PartitionsByUserEndpoint is sent only when it differs
//!   from what the member last got (at first, nothing: an empty map is not sent), as one partition
//!   list per endpoint (active and standby together).

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::codes::{
    DRAFT_STATUS_INCONSISTENT_TOPOLOGY, ERROR_INVALID_REQUEST, ERROR_NONE,
    STATUS_MISSING_SOURCE_TOPICS, STATUS_SHUTDOWN_APPLICATION,
};
use streamspec_protocol::kafka::streams_group_heartbeat_request as kafka_req;
use streamspec_protocol::kafka::streams_group_heartbeat_response as kafka_resp;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use streamspec_protocol::kip_draft::streams_group_heartbeat_request as draft_req;
use streamspec_protocol::kip_draft::streams_group_heartbeat_response as draft_resp;

use crate::context::{Effect, RequestContext};
use crate::Coordinator;

/// The version of Kafka's StreamsGroupHeartbeat a draft request is carried in: v1, whose
/// fields are a superset of the draft's core.
pub const KAFKA_VERSION: i16 = 1;

/// A group as the draft sees it, beyond what the core keeps.
#[derive(Debug, Clone)]
struct DraftGroup {
    topology_id: String,
    /// The group's topology in Kafka's form, sent to the core for every draft join.
    topology: kafka_req::Topology,
}

/// The reference coordinator speaking the KIP draft dialect.
#[derive(Debug)]
pub struct KipDraftCoordinator {
    core: Coordinator,
    draft: KipDraft,
}

/// The endpoint information a member last got: Kafka's epoch of it, and the draft's map.
#[derive(Debug, Clone, Default)]
struct EndpointsSent {
    epoch: i32,
    partitions: Vec<draft_resp::EndpointToPartitions>,
}

/// What the draft dialect keeps beside the core (topology ids, endpoint epochs, generated member
/// ids), for a host that owns the core itself and hands it to every call, as the harness's
/// in-process target does.
#[derive(Debug, Clone, Default)]
pub struct KipDraft {
    groups: BTreeMap<String, DraftGroup>,
    /// What each (group, member) last got of the endpoint information.
    endpoints: BTreeMap<(String, String), EndpointsSent>,
    /// Generated member ids are `<group>-member-<n>`; a counter keeps them deterministic.
    members_created: u64,
}

fn kafka_topic_info(info: &draft_req::TopicInfo) -> kafka_req::TopicInfo {
    kafka_req::TopicInfo::default()
        .with_name(info.name.clone())
        .with_partitions(info.partitions)
        .with_topic_configs(
            info.topic_configs
                .iter()
                .flatten()
                .map(|kv| {
                    kafka_req::KeyValue::default()
                        .with_key(kv.key.clone())
                        .with_value(kv.value.clone())
                })
                .collect(),
        )
}

fn kafka_topology(topology: &draft_req::Topology) -> kafka_req::Topology {
    let subtopologies = topology
        .subtopologies
        .iter()
        .map(|s| {
            kafka_req::Subtopology::default()
                .with_subtopology_id(s.subtopology_id.clone())
                .with_source_topics(s.source_topics.clone())
                .with_source_topic_regex(s.source_topic_regex.clone())
                .with_state_changelog_topics(
                    s.state_changelog_topics
                        .iter()
                        .map(kafka_topic_info)
                        .collect(),
                )
                .with_repartition_sink_topics(s.repartition_sink_topics.clone())
                .with_repartition_source_topics(
                    s.repartition_source_topics
                        .iter()
                        .map(kafka_topic_info)
                        .collect(),
                )
                .with_copartition_groups(
                    s.copartition_groups
                        .iter()
                        .map(|g| {
                            kafka_req::CopartitionGroup::default()
                                .with_source_topics(g.source_topics.clone())
                                .with_source_topic_regex(g.source_topic_regex.clone())
                                .with_repartition_source_topics(g.repartition_source_topics.clone())
                        })
                        .collect(),
                )
        })
        .collect();
    // The draft has no topology epoch; every draft topology is at epoch 0.
    kafka_req::Topology::default().with_subtopologies(subtopologies)
}

fn kafka_tasks(tasks: &Option<Vec<draft_req::TaskIds>>) -> Option<Vec<kafka_req::TaskIds>> {
    tasks.as_ref().map(|lists| {
        lists
            .iter()
            .map(|t| {
                kafka_req::TaskIds::default()
                    .with_subtopology_id(t.subtopology_id.clone())
                    .with_partitions(t.partitions.clone())
            })
            .collect()
    })
}

fn draft_tasks(tasks: Option<Vec<kafka_resp::TaskIds>>) -> Option<Vec<draft_resp::TaskIds>> {
    tasks.map(|lists| {
        lists
            .into_iter()
            .map(|t| {
                draft_resp::TaskIds::default()
                    .with_subtopology_id(t.subtopology_id)
                    .with_partitions(t.partitions)
            })
            .collect()
    })
}

fn kafka_offsets(
    offsets: &Option<Vec<draft_req::TaskOffset>>,
) -> Option<Vec<kafka_req::TaskOffset>> {
    offsets.as_ref().map(|list| {
        list.iter()
            .map(|o| {
                kafka_req::TaskOffset::default()
                    .with_subtopology_id(o.subtopology_id.clone())
                    .with_partition(o.partition)
                    .with_offset(o.offset)
            })
            .collect()
    })
}

/// One partition list per endpoint: the draft does not tell active from standby.
fn draft_endpoints(
    entries: Vec<kafka_resp::EndpointToPartitions>,
) -> Vec<draft_resp::EndpointToPartitions> {
    entries
        .into_iter()
        .map(|entry| {
            let mut by_topic: BTreeMap<String, BTreeSet<i32>> = BTreeMap::new();
            for list in entry
                .active_partitions
                .into_iter()
                .chain(entry.standby_partitions)
            {
                by_topic
                    .entry(list.topic)
                    .or_default()
                    .extend(list.partitions);
            }
            draft_resp::EndpointToPartitions::default()
                .with_user_endpoint(
                    draft_resp::Endpoint::default()
                        .with_host(entry.user_endpoint.host)
                        .with_port(i32::from(entry.user_endpoint.port)),
                )
                .with_partitions(
                    by_topic
                        .into_iter()
                        .map(|(topic, partitions)| {
                            draft_resp::TopicPartition::default()
                                .with_topic(topic)
                                .with_partitions(partitions.into_iter().collect())
                        })
                        .collect(),
                )
        })
        .collect()
}

fn draft_error(code: i16, message: Option<String>) -> draft_resp::StreamsGroupHeartbeatResponse {
    draft_resp::StreamsGroupHeartbeatResponse::default()
        .with_error_code(code)
        .with_error_message(message)
        .with_status(None)
}

impl KipDraftCoordinator {
    pub fn new(core: Coordinator) -> Self {
        KipDraftCoordinator {
            core,
            draft: KipDraft::default(),
        }
    }

    /// The core, e.g. to feed it metadata or drive its timeouts.
    pub fn core_mut(&mut self) -> &mut Coordinator {
        &mut self.core
    }

    /// Answers a draft StreamsGroupHeartbeat (version 0, the draft's only one).
    pub fn handle_heartbeat(
        &mut self,
        now_ms: u64,
        context: &RequestContext,
        request: &draft_req::StreamsGroupHeartbeatRequest,
    ) -> (draft_resp::StreamsGroupHeartbeatResponse, Vec<Effect>) {
        self.draft
            .handle_heartbeat(&mut self.core, now_ms, context, request)
    }
}

/// A draft heartbeat on its way through Kafka's dialect: what [`KipDraft::answer`] needs to turn
/// the Kafka answer into the draft's.
#[derive(Debug, Clone)]
pub struct InFlight {
    group_id: String,
    member_id: String,
    joining: bool,
    leaving: bool,
    /// The member's TopologyId and the group's, when they differ.
    inconsistent: Option<(String, String)>,
    /// The topology sent, in Kafka's form, with the draft's id for it.
    topology: Option<(kafka_req::Topology, String)>,
}

impl KipDraft {
    /// Answers a draft StreamsGroupHeartbeat (version 0, the draft's only one) with `core`,
    /// which must be the same coordinator at every call.
    pub fn handle_heartbeat(
        &mut self,
        core: &mut Coordinator,
        now_ms: u64,
        context: &RequestContext,
        request: &draft_req::StreamsGroupHeartbeatRequest,
    ) -> (draft_resp::StreamsGroupHeartbeatResponse, Vec<Effect>) {
        match self.translate_request(request) {
            Err(refusal) => (*refusal, Vec::new()),
            Ok((kafka_request, in_flight)) => {
                let (answer, effects) =
                    core.handle_heartbeat(now_ms, context, KAFKA_VERSION, &kafka_request);
                (self.answer(in_flight, answer), effects)
            }
        }
    }

    /// The Kafka StreamsGroupHeartbeat (at [`KAFKA_VERSION`]) that carries a draft request to a
    /// coordinator speaking Kafka's dialect (the reference in process, or a broker behind a
    /// proxy), or the draft's refusal when Kafka's dialect cannot express it.
    pub fn translate_request(
        &mut self,
        request: &draft_req::StreamsGroupHeartbeatRequest,
    ) -> Result<
        (StreamsGroupHeartbeatRequest, InFlight),
        Box<draft_resp::StreamsGroupHeartbeatResponse>,
    > {
        let joining = request.member_epoch == 0;
        let member_id = if joining
            && request.member_id.trim().is_empty()
            && !request.group_id.trim().is_empty()
        {
            self.members_created += 1;
            format!("{}-member-{}", request.group_id, self.members_created)
        } else {
            request.member_id.clone()
        };
        let user_endpoint = match &request.user_endpoint {
            None => None,
            Some(endpoint) => match u16::try_from(endpoint.port) {
                Ok(port) => Some(
                    kafka_req::Endpoint::default()
                        .with_host(endpoint.host.clone())
                        .with_port(port),
                ),
                Err(_) => {
                    let message = format!("UserEndpoint port {} is out of range.", endpoint.port);
                    return Err(Box::new(draft_error(ERROR_INVALID_REQUEST, Some(message))));
                }
            },
        };
        // TopologyId: the group keeps the first one; a different one is reported, not refused.
        let mut inconsistent = None;
        let topology =
            request
                .topology
                .as_ref()
                .map(|topology| match self.groups.get(&request.group_id) {
                    Some(group) if group.topology_id != topology.topology_id => {
                        inconsistent =
                            Some((topology.topology_id.clone(), group.topology_id.clone()));
                        group.topology.clone()
                    }
                    _ => kafka_topology(topology),
                });
        let key = (request.group_id.clone(), member_id.clone());
        let kafka_request = StreamsGroupHeartbeatRequest::default()
            .with_group_id(request.group_id.clone())
            .with_member_id(member_id.clone())
            .with_member_epoch(request.member_epoch)
            .with_endpoint_information_epoch(self.endpoints.get(&key).map_or(-1, |sent| sent.epoch))
            .with_instance_id(request.instance_id.clone())
            .with_rack_id(request.rack_id.clone())
            .with_rebalance_timeout_ms(request.rebalance_timeout_ms)
            .with_topology(topology.clone())
            .with_active_tasks(kafka_tasks(&request.active_tasks))
            .with_standby_tasks(kafka_tasks(&request.standby_tasks))
            .with_warmup_tasks(kafka_tasks(&request.warmup_tasks))
            .with_process_id(request.process_id.clone())
            .with_user_endpoint(user_endpoint)
            .with_client_tags(request.client_tags.as_ref().map(|tags| {
                tags.iter()
                    .map(|kv| {
                        kafka_req::KeyValue::default()
                            .with_key(kv.key.clone())
                            .with_value(kv.value.clone())
                    })
                    .collect()
            }))
            .with_task_offsets(kafka_offsets(&request.task_offsets))
            .with_task_end_offsets(kafka_offsets(&request.task_end_offsets))
            .with_shutdown_application(request.shutdown_application);
        let in_flight = InFlight {
            group_id: request.group_id.clone(),
            member_id,
            joining,
            leaving: request.member_epoch < 0,
            inconsistent,
            topology: topology.zip(
                request
                    .topology
                    .as_ref()
                    .map(|draft| draft.topology_id.clone()),
            ),
        };
        Ok((kafka_request, in_flight))
    }

    /// The draft's answer to the request `in_flight` came from, given Kafka's `answer` to its
    /// translation; remembers what the draft keeps beyond Kafka (topology ids, endpoint epochs).
    pub fn answer(
        &mut self,
        in_flight: InFlight,
        mut answer: StreamsGroupHeartbeatResponse,
    ) -> draft_resp::StreamsGroupHeartbeatResponse {
        if answer.error_code != ERROR_NONE {
            return draft_error(answer.error_code, answer.error_message);
        }
        if let Some((topology, topology_id)) = in_flight.topology {
            self.groups
                .entry(in_flight.group_id.clone())
                .or_insert(DraftGroup {
                    topology_id,
                    topology,
                });
        }
        let key = (in_flight.group_id.clone(), in_flight.member_id);
        let partitions = answer
            .partitions_by_user_endpoint
            .take()
            .map(draft_endpoints);
        let partitions = if in_flight.leaving {
            self.endpoints.remove(&key);
            partitions
        } else {
            let sent = self.endpoints.entry(key).or_default();
            sent.epoch = answer.endpoint_information_epoch;
            // Only a change reaches the member; Kafka also answers its map when the member's
            // epoch is merely behind, e.g. an empty one to every new member.
            partitions
                .filter(|partitions| *partitions != sent.partitions)
                .inspect(|partitions| {
                    sent.partitions.clone_from(partitions);
                })
        };
        self.translate(
            &in_flight.group_id,
            answer,
            partitions,
            in_flight.joining,
            in_flight.inconsistent,
        )
    }

    fn translate(
        &self,
        group_id: &str,
        core: StreamsGroupHeartbeatResponse,
        partitions_by_user_endpoint: Option<Vec<draft_resp::EndpointToPartitions>>,
        joining: bool,
        inconsistent: Option<(String, String)>,
    ) -> draft_resp::StreamsGroupHeartbeatResponse {
        let group_topology_id = inconsistent.as_ref().map(|(_, group)| group.clone());
        let mut status: Vec<draft_resp::Status> = inconsistent
            .into_iter()
            .map(|(member, group)| {
                draft_resp::Status::default()
                    .with_status_code(DRAFT_STATUS_INCONSISTENT_TOPOLOGY)
                    .with_status_detail(format!(
                        "Topology id {member} differs from the group's topology id {group}."
                    ))
            })
            .collect();
        // Codes 1 to 4 mean the same in both dialects; the draft has no ASSIGNMENT_DELAYED and no
        // STALE_TOPOLOGY (it has no topology epochs), so those are not passed on.
        status.extend(
            core.status
                .into_iter()
                .flatten()
                .filter(|s| {
                    (STATUS_MISSING_SOURCE_TOPICS..=STATUS_SHUTDOWN_APPLICATION)
                        .contains(&s.status_code)
                })
                .map(|s| {
                    draft_resp::Status::default()
                        .with_status_code(s.status_code)
                        .with_status_detail(s.status_detail)
                }),
        );
        let group_topology_id = match (joining, group_topology_id) {
            (_, Some(id)) => Some(id),
            (true, None) => self.groups.get(group_id).map(|g| g.topology_id.clone()),
            (false, None) => None,
        };
        draft_resp::StreamsGroupHeartbeatResponse::default()
            .with_member_id(joining.then(|| core.member_id.clone()))
            .with_member_epoch(core.member_epoch)
            .with_heartbeat_interval_ms(core.heartbeat_interval_ms)
            .with_acceptable_recovery_lag(
                i32::try_from(core.acceptable_recovery_lag.max(0)).unwrap_or(i32::MAX),
            )
            .with_task_offset_interval_ms(core.task_offset_interval_ms)
            .with_group_topology_id(group_topology_id)
            .with_status(Some(status))
            .with_active_tasks(draft_tasks(core.active_tasks))
            .with_standby_tasks(draft_tasks(core.standby_tasks))
            .with_warmup_tasks(draft_tasks(core.warmup_tasks))
            .with_partitions_by_user_endpoint(partitions_by_user_endpoint)
    }
}
