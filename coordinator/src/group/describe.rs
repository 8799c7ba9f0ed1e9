//! A group as StreamsGroupDescribe reports it (spec 10, R47, R48).

use streamspec_protocol::kafka::streams_group_describe_response as describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo;
use streamspec_protocol::kafka::StreamsGroupDescribeRequest;

use super::Group;
use crate::assignor::{StickyAssignor, TaskAssignor};
use crate::errors::ErrorAnswer;
use crate::tasks::{TaskSets, Tasks};

fn describe_tasks(tasks: &Tasks) -> Vec<describe::TaskIds> {
    tasks
        .iter()
        .map(|(subtopology, partitions)| {
            describe::TaskIds::default()
                .with_subtopology_id(subtopology.clone())
                .with_partitions(partitions.iter().copied().collect())
        })
        .collect()
}

fn describe_assignment(sets: &TaskSets) -> describe::Assignment {
    describe::Assignment::default()
        .with_active_tasks(describe_tasks(&sets.active))
        .with_standby_tasks(describe_tasks(&sets.standby))
        .with_warmup_tasks(describe_tasks(&sets.warmup))
}

/// One entry of a StreamsGroupDescribe response (spec 10, R47, R48).
pub(crate) fn describe(
    group: Option<&Group>,
    group_id: &str,
    request: &StreamsGroupDescribeRequest,
) -> describe::DescribedGroup {
    if group_id.is_empty() {
        return ErrorAnswer::invalid_group_id().described(group_id);
    }
    let Some(group) = group else {
        return ErrorAnswer::group_not_found(group_id).described(group_id);
    };
    let topology = group.topology.as_ref().map(|topology| {
        // The configured topology when ready, else the topology as members sent it (spec 10).
        let internal = group
            .configured
            .as_ref()
            .filter(|c| c.is_ready())
            .map(|c| c.internal_partitions.clone())
            .unwrap_or_default();
        let topic_info = |info: &TopicInfo| {
            describe::TopicInfo::default()
                .with_name(info.name.clone())
                .with_partitions(internal.get(&info.name).copied().unwrap_or(info.partitions))
                .with_replication_factor(info.replication_factor)
                .with_topic_configs(
                    info.topic_configs
                        .iter()
                        .map(|kv| {
                            describe::KeyValue::default()
                                .with_key(kv.key.clone())
                                .with_value(kv.value.clone())
                        })
                        .collect(),
                )
        };
        let sorted = |names: &[String]| {
            let mut names = names.to_vec();
            names.sort();
            names
        };
        // Describe lists every topic list sorted by name.
        let topic_infos = |infos: &[TopicInfo]| {
            let mut described: Vec<describe::TopicInfo> = infos.iter().map(topic_info).collect();
            described.sort_by(|a, b| a.name.cmp(&b.name));
            described
        };
        let mut subtopologies: Vec<describe::Subtopology> = topology
            .subtopologies
            .iter()
            .map(|s| {
                describe::Subtopology::default()
                    .with_subtopology_id(s.subtopology_id.clone())
                    .with_source_topics(sorted(&s.source_topics))
                    .with_repartition_sink_topics(sorted(&s.repartition_sink_topics))
                    .with_state_changelog_topics(topic_infos(&s.state_changelog_topics))
                    .with_repartition_source_topics(topic_infos(&s.repartition_source_topics))
            })
            .collect();
        subtopologies.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
        describe::Topology::default()
            .with_epoch(topology.epoch)
            .with_subtopologies(Some(subtopologies))
    });
    let members = group
        .members
        .values()
        .map(|member| {
            let offsets = |list: &[(String, i32, i64)]| {
                list.iter()
                    .map(|(s, p, o)| {
                        describe::TaskOffset::default()
                            .with_subtopology_id(s.clone())
                            .with_partition(*p)
                            .with_offset(*o)
                    })
                    .collect()
            };
            describe::Member::default()
                .with_member_id(member.id.clone())
                .with_member_epoch(member.epoch)
                .with_instance_id(member.metadata.instance_id.clone())
                .with_rack_id(member.metadata.rack_id.clone())
                .with_client_id(member.metadata.client_id.clone())
                .with_client_host(member.metadata.client_host.clone())
                .with_topology_epoch(member.metadata.topology_epoch)
                .with_process_id(member.metadata.process_id.clone())
                .with_user_endpoint(member.metadata.user_endpoint.clone().map(|(host, port)| {
                    describe::Endpoint::default()
                        .with_host(host)
                        .with_port(port)
                }))
                .with_client_tags(
                    member
                        .metadata
                        .client_tags
                        .iter()
                        .map(|(k, v)| {
                            describe::KeyValue::default()
                                .with_key(k.clone())
                                .with_value(v.clone())
                        })
                        .collect(),
                )
                .with_task_offsets(offsets(&member.task_offsets))
                .with_task_end_offsets(offsets(&member.task_end_offsets))
                .with_assignment(describe_assignment(&member.assigned))
                .with_target_assignment(describe_assignment(&group.targets.of(&member.id)))
        })
        .collect();
    describe::DescribedGroup::default()
        .with_group_id(group_id)
        .with_group_state(group.state())
        .with_group_epoch(group.epoch)
        .with_assignment_epoch(group.assignment_epoch)
        .with_topology(topology)
        .with_members(members)
        .with_topology_description_status(if request.include_topology_description {
            1
        } else {
            0
        })
        .with_assignor_name(Some(StickyAssignor.name().to_owned()))
}
