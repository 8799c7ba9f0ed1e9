//! A group as StreamsGroupDescribe reports it (spec 10, R47, R48).

use streamspec_protocol::kafka::streams_group_describe_response as describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo;
use streamspec_protocol::kafka::StreamsGroupDescribeRequest;

use super::assignment::TargetAssignment;
use super::member::Member;
use super::Group;
use crate::assignor::{StickyAssignor, TaskAssignor, TaskRun};
use crate::errors::ErrorAnswer;
use crate::tasks::{TaskSets, Tasks};

/// `value` in the allocation of `buffer`.
fn recycled_str(buffer: String, value: &str) -> String {
    let mut out = buffer;
    out.clear();
    out.push_str(value);
    out
}

/// Task lists, one per subtopology, as describe lists them, in the allocations of `recycled`.
/// Each list starts from its default and takes over only the old list's buffers, so nothing of
/// an earlier describe is left in it.
fn task_lists<'a, P: Iterator<Item = i32>>(
    recycled: Vec<describe::TaskIds>,
    runs: impl Iterator<Item = (&'a str, P)>,
) -> Vec<describe::TaskIds> {
    let mut lists = recycled;
    let mut filled = 0;
    for (subtopology, partitions) in runs {
        if filled == lists.len() {
            lists.push(describe::TaskIds::default());
        }
        let old = std::mem::take(&mut lists[filled]);
        let list = &mut lists[filled];
        list.subtopology_id = recycled_str(old.subtopology_id, subtopology);
        list.partitions = old.partitions;
        list.partitions.clear();
        list.partitions.extend(partitions);
        filled += 1;
    }
    lists.truncate(filled);
    lists
}

fn described_tasks(recycled: Vec<describe::TaskIds>, tasks: &Tasks) -> Vec<describe::TaskIds> {
    task_lists(
        recycled,
        tasks
            .iter()
            .map(|(subtopology, partitions)| (subtopology.as_str(), partitions.iter().copied())),
    )
}

/// A member's target, read from the assignor's answer without building its task sets: the
/// oracle of a campaign describes the group after every exchange.
fn described_target(
    recycled: describe::Assignment,
    targets: &TargetAssignment,
    member_id: &str,
) -> describe::Assignment {
    fn lists(run: TaskRun<'_>) -> (&str, impl Iterator<Item = i32> + '_) {
        (run.subtopology, run.partitions())
    }
    let (active, standby) = targets.runs_of(member_id);
    let mut described = describe::Assignment::default();
    described.active_tasks = task_lists(recycled.active_tasks, active.map(lists));
    described.standby_tasks = task_lists(recycled.standby_tasks, standby.map(lists));
    described
}

fn described_assignment(recycled: describe::Assignment, sets: &TaskSets) -> describe::Assignment {
    let mut described = describe::Assignment::default();
    described.active_tasks = described_tasks(recycled.active_tasks, &sets.active);
    described.standby_tasks = described_tasks(recycled.standby_tasks, &sets.standby);
    described.warmup_tasks = described_tasks(recycled.warmup_tasks, &sets.warmup);
    described
}

/// `member` as describe lists it, in the allocations of `recycled`. From the default field by
/// field rather than by the builder: a chain of `with_` moves the whole message at every step,
/// and the oracle describes after every exchange.
fn described_member(
    recycled: describe::Member,
    member: &Member,
    targets: &TargetAssignment,
    scope: DescribeScope,
) -> describe::Member {
    let mut described = describe::Member::default();
    described.member_id = recycled_str(recycled.member_id, &member.id);
    described.member_epoch = member.epoch;
    described.process_id = recycled_str(recycled.process_id, &member.metadata.process_id);
    described.assignment = described_assignment(recycled.assignment, &member.assigned);
    described.target_assignment = described_target(recycled.target_assignment, targets, &member.id);
    if scope != DescribeScope::Full {
        return described;
    }
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

/// One entry of a StreamsGroupDescribe response (spec 10, R47, R48); `recycled`, an entry the
/// caller is done with, lends it its allocations.
pub(crate) fn describe(
    group: Option<&Group>,
    group_id: &str,
    request: &StreamsGroupDescribeRequest,
    scope: DescribeScope,
    recycled: Option<describe::DescribedGroup>,
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
    let recycled = recycled.unwrap_or_default();
    let mut members = recycled.members;
    members.truncate(group.members.len());
    for (index, member) in group.members.values().enumerate() {
        if index == members.len() {
            members.push(describe::Member::default());
        }
        let old = std::mem::take(&mut members[index]);
        members[index] = described_member(old, member, &group.targets, scope);
    }
    let assignor_name = recycled.assignor_name.unwrap_or_default();
    let mut described = describe::DescribedGroup::default();
    described.group_id = recycled_str(recycled.group_id, group_id);
    described.group_state = recycled_str(recycled.group_state, group.state());
    described.group_epoch = group.epoch;
    described.assignment_epoch = group.assignment_epoch;
    described.topology = topology;
    described.members = members;
    described.topology_description_status = i8::from(request.include_topology_description);
    described.assignor_name = Some(recycled_str(assignor_name, StickyAssignor.name()));
    described
}
