//! A group as StreamsGroupDescribe reports it (spec 10, R47, R48).

use streamspec_protocol::kafka::streams_group_describe_response as describe;
use streamspec_protocol::kafka::streams_group_heartbeat_request::TopicInfo;
use streamspec_protocol::kafka::StreamsGroupDescribeRequest;

use super::assignment::TargetAssignment;
use super::Group;
use crate::assignor::{StickyAssignor, TaskAssignor, TaskRun};
use crate::errors::ErrorAnswer;
use crate::tasks::{TaskSets, Tasks};

/// Task lists, one per subtopology, as describe lists them, written over `into`: its entries and
/// their buffers are used again, so that describing a group again into the same message
/// allocates only where the group grew (a campaign's oracle describes after every exchange).
fn fill_lists<'a, P: Iterator<Item = i32>>(
    into: &mut Vec<describe::TaskIds>,
    lists: impl Iterator<Item = (&'a str, P)>,
) {
    let mut count = 0;
    for (subtopology, partitions) in lists {
        if count == into.len() {
            into.push(describe::TaskIds::default());
        }
        let entry = &mut into[count];
        entry.subtopology_id.clear();
        entry.subtopology_id.push_str(subtopology);
        entry.partitions.clear();
        entry.partitions.extend(partitions);
        entry.unknown_tagged_fields.clear();
        count += 1;
    }
    into.truncate(count);
}

fn fill_tasks(into: &mut Vec<describe::TaskIds>, tasks: &Tasks) {
    fill_lists(
        into,
        tasks
            .iter()
            .map(|(subtopology, partitions)| (subtopology.as_str(), partitions.iter().copied())),
    );
}

/// A member's target, read from the assignor's answer without building its task sets.
fn fill_target(into: &mut describe::Assignment, targets: &TargetAssignment, member_id: &str) {
    fn lists(run: TaskRun<'_>) -> (&str, impl Iterator<Item = i32> + '_) {
        (run.subtopology, run.partitions())
    }
    let (active, standby) = targets.runs_of(member_id);
    fill_lists(&mut into.active_tasks, active.map(lists));
    fill_lists(&mut into.standby_tasks, standby.map(lists));
    into.warmup_tasks.clear();
    into.unknown_tagged_fields.clear();
}

fn fill_assignment(into: &mut describe::Assignment, sets: &TaskSets) {
    fill_tasks(&mut into.active_tasks, &sets.active);
    fill_tasks(&mut into.standby_tasks, &sets.standby);
    fill_tasks(&mut into.warmup_tasks, &sets.warmup);
    into.unknown_tagged_fields.clear();
}

/// `text` written over `into`, its buffer used again.
fn fill_text(into: &mut String, text: &str) {
    into.clear();
    into.push_str(text);
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

/// One entry of a StreamsGroupDescribe response (spec 10, R47, R48), written over `into`: every
/// field is the describe's, and the strings and lists already there are used again, so that a
/// caller describing after every request (a campaign's oracle) allocates only where the group grew.
pub(crate) fn describe_into(
    group: Option<&Group>,
    group_id: &str,
    request: &StreamsGroupDescribeRequest,
    scope: DescribeScope,
    into: &mut describe::DescribedGroup,
) {
    if group_id.is_empty() {
        *into = ErrorAnswer::invalid_group_id().described(group_id);
        return;
    }
    let Some(group) = group else {
        *into = ErrorAnswer::group_not_found(group_id).described(group_id);
        return;
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
    // Every field back to its default but the buffers used again below.
    let reused = std::mem::take(into);
    into.group_id = reused.group_id;
    into.group_state = reused.group_state;
    into.members = reused.members;
    fill_text(&mut into.group_id, group_id);
    fill_text(&mut into.group_state, group.state());
    into.group_epoch = group.epoch;
    into.assignment_epoch = group.assignment_epoch;
    into.topology = topology;
    into.members.truncate(group.members.len());
    for (index, member) in group.members.values().enumerate() {
        if index == into.members.len() {
            into.members.push(describe::Member::default());
        }
        fill_member(&mut into.members[index], group, member, scope);
    }
    into.topology_description_status = i8::from(request.include_topology_description);
    let mut assignor_name = reused.assignor_name.unwrap_or_default();
    fill_text(&mut assignor_name, StickyAssignor.name());
    into.assignor_name = Some(assignor_name);
}

/// A member as describe shows it, written over `into` as [`describe_into`] writes a group.
fn fill_member(
    into: &mut describe::Member,
    group: &Group,
    member: &super::Member,
    scope: DescribeScope,
) {
    let reused = std::mem::take(into);
    into.member_id = reused.member_id;
    into.process_id = reused.process_id;
    into.assignment = reused.assignment;
    into.target_assignment = reused.target_assignment;
    fill_text(&mut into.member_id, &member.id);
    into.member_epoch = member.epoch;
    fill_text(&mut into.process_id, &member.metadata.process_id);
    fill_assignment(&mut into.assignment, &member.assigned);
    fill_target(&mut into.target_assignment, &group.targets, &member.id);
    if scope != DescribeScope::Full {
        return;
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
    into.instance_id.clone_from(&member.metadata.instance_id);
    into.rack_id.clone_from(&member.metadata.rack_id);
    into.client_id.clone_from(&member.metadata.client_id);
    into.client_host.clone_from(&member.metadata.client_host);
    into.topology_epoch = member.metadata.topology_epoch;
    into.user_endpoint = member.metadata.user_endpoint.as_ref().map(|(host, port)| {
        describe::Endpoint::default()
            .with_host(host.clone())
            .with_port(*port)
    });
    into.client_tags = member
        .metadata
        .client_tags
        .iter()
        .map(|(k, v)| {
            describe::KeyValue::default()
                .with_key(k.clone())
                .with_value(v.clone())
        })
        .collect();
    into.task_offsets = offsets(&member.task_offsets);
    into.task_end_offsets = offsets(&member.task_end_offsets);
}
