//! A group as StreamsGroupDescribe reports it (spec 10, R47, R48).

use streamspec_protocol::kafka::streams_group_describe_response as describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo;
use streamspec_protocol::kafka::StreamsGroupDescribeRequest;

use super::assignment::TargetAssignment;
use super::Group;
use crate::assignor::{StickyAssignor, TaskAssignor, TaskRun};
use crate::errors::ErrorAnswer;
use crate::tasks::{TaskSets, Tasks};

/// Task lists, one per subtopology, as describe lists them.
fn describe_lists<'a, P: Iterator<Item = i32>>(
    lists: impl Iterator<Item = (&'a str, P)>,
) -> Vec<describe::TaskIds> {
    lists
        .map(|(subtopology, partitions)| {
            describe::TaskIds::default()
                .with_subtopology_id(subtopology)
                .with_partitions(partitions.collect())
        })
        .collect()
}

fn describe_tasks(tasks: &Tasks) -> Vec<describe::TaskIds> {
    describe_lists(
        tasks
            .iter()
            .map(|(subtopology, partitions)| (subtopology.as_str(), partitions.iter().copied())),
    )
}

/// A member's target, read from the assignor's answer without building its task sets: the
/// oracle of a campaign describes the group after every exchange.
fn describe_target(targets: &TargetAssignment, member_id: &str) -> describe::Assignment {
    fn lists(run: TaskRun<'_>) -> (&str, impl Iterator<Item = i32> + '_) {
        (run.subtopology, run.partitions())
    }
    let (active, standby) = targets.runs_of(member_id);
    describe::Assignment::default()
        .with_active_tasks(describe_lists(active.map(lists)))
        .with_standby_tasks(describe_lists(standby.map(lists)))
}

fn describe_assignment(sets: &TaskSets) -> describe::Assignment {
    describe::Assignment::default()
        .with_active_tasks(describe_tasks(&sets.active))
        .with_standby_tasks(describe_tasks(&sets.standby))
        .with_warmup_tasks(describe_tasks(&sets.warmup))
}

/// How much of a group a describe fills in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescribeScope {
    /// Every field, as StreamsGroupDescribe answers.
    Full,
    /// The group's state and epochs, and per member its id, epoch, process id, assignment and
    /// target; no topology and no other member field. For a caller that checks assignments
    /// after every request (a campaign's oracle): the rest is copied for nothing.
    Assignments,
}

/// One entry of a StreamsGroupDescribe response (spec 10, R47, R48).
pub(crate) fn describe(
    group: Option<&Group>,
    group_id: &str,
    request: &StreamsGroupDescribeRequest,
    scope: DescribeScope,
) -> describe::DescribedGroup {
    if group_id.is_empty() {
        return ErrorAnswer::invalid_group_id().described(group_id);
    }
    let Some(group) = group else {
        return ErrorAnswer::group_not_found(group_id).described(group_id);
    };
    let full = scope == DescribeScope::Full;
    let topology = group.topology.as_ref().filter(|_| full).map(|topology| {
        // The configured topology when ready, else the topology as members sent it (spec 10).
        let internal = group
            .configured
            .as_ref()
            .filter(|c| c.is_ready())
            .map(|c| &c.internal_partitions);
        let topic_info = |info: &TopicInfo| {
            let partitions = internal.and_then(|internal| internal.get(&info.name));
            describe::TopicInfo::default()
                .with_name(info.name.clone())
                .with_partitions(partitions.copied().unwrap_or(info.partitions))
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
                // Field by field, as the members below.
                let mut described = describe::Subtopology::default();
                described.subtopology_id.clone_from(&s.subtopology_id);
                described.source_topics = sorted(&s.source_topics);
                described.repartition_sink_topics = sorted(&s.repartition_sink_topics);
                described.state_changelog_topics = topic_infos(&s.state_changelog_topics);
                described.repartition_source_topics = topic_infos(&s.repartition_source_topics);
                described
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
            // Field by field rather than by the builder: a chain of `with_` moves the whole
            // message at every step, and the oracle describes after every exchange.
            let mut described = describe::Member::default();
            described.member_id.clone_from(&member.id);
            described.member_epoch = member.epoch;
            described.process_id.clone_from(&member.metadata.process_id);
            described.assignment = describe_assignment(&member.assigned);
            described.target_assignment = describe_target(&group.targets, &member.id);
            if !full {
                return described;
            }
            described
                .instance_id
                .clone_from(&member.metadata.instance_id);
            described.rack_id.clone_from(&member.metadata.rack_id);
            described.client_id.clone_from(&member.metadata.client_id);
            described
                .client_host
                .clone_from(&member.metadata.client_host);
            described.topology_epoch = member.metadata.topology_epoch;
            described.user_endpoint = member.metadata.user_endpoint.as_ref().map(|(host, port)| {
                describe::Endpoint::default()
                    .with_host(host.clone())
                    .with_port(*port)
            });
            described.client_tags = member
                .metadata
                .client_tags
                .iter()
                .map(|(k, v)| {
                    describe::KeyValue::default()
                        .with_key(k.clone())
                        .with_value(v.clone())
                })
                .collect();
            described.task_offsets = offsets(&member.task_offsets);
            described.task_end_offsets = offsets(&member.task_end_offsets);
            described
        })
        .collect();
    let mut described = describe::DescribedGroup::default();
    described.group_id = group_id.to_owned();
    described.group_state = group.state().to_owned();
    described.group_epoch = group.epoch;
    described.assignment_epoch = group.assignment_epoch;
    described.topology = topology;
    described.members = members;
    described.topology_description_status = i8::from(request.include_topology_description);
    described.assignor_name = Some(StickyAssignor.name().to_owned());
    described
}
