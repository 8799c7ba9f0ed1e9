//! Describe (R47, R48, R53).

use super::*;

#[test]
fn r47_describe_of_an_empty_and_an_unknown_group_id() {
    let broker = Broker::new();
    // Error entries carry only id, code and message; every other field at its schema default.
    let entry = |group_id: &str, code: i16, message: Option<&str>| {
        describe::DescribedGroup::default()
            .with_error_code(code)
            .with_error_message(message.map(str::to_owned))
            .with_group_id(group_id)
            .with_group_state("")
            .with_group_epoch(0)
            .with_assignment_epoch(0)
            .with_topology(None)
            .with_members(Vec::new())
            .with_authorized_operations(i32::MIN)
    };
    let mut entries = broker.describe(&["", "nope"]);
    entries.sort_by(|a, b| a.group_id.cmp(&b.group_id));
    assert_eq!(
        entries,
        [
            entry("", 24, None),
            entry(
                "nope",
                ERROR_GROUP_ID_NOT_FOUND,
                Some("Group nope not found.")
            ),
        ]
    );
}

fn described_assignment(active: Tasks) -> describe::Assignment {
    let active = active
        .iter()
        .map(|(subtopology, partitions)| {
            describe::TaskIds::default()
                .with_subtopology_id(*subtopology)
                .with_partitions(partitions.to_vec())
        })
        .collect();
    describe::Assignment::default()
        .with_active_tasks(active)
        .with_standby_tasks(Vec::new())
        .with_warmup_tasks(Vec::new())
}

#[test]
fn r48_describe_of_a_stable_group() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.send(&heartbeat("a", 2));
    let entry = broker.described();
    assert_eq!(
        (
            entry.group_id.as_str(),
            entry.group_state.as_str(),
            entry.group_epoch,
            entry.assignment_epoch,
            entry.authorized_operations,
            entry.topology_description_status,
            entry.assignor_name.as_deref(),
        ),
        (GROUP, "Stable", 2, 2, i32::MIN, 0, Some("sticky"))
    );
    let expected_topology = describe::Topology::default()
        .with_epoch(0)
        .with_subtopologies(Some(vec![describe::Subtopology::default()
            .with_subtopology_id("0")
            .with_source_topics(names(&["in"]))
            .with_repartition_sink_topics(Vec::new())
            .with_state_changelog_topics(Vec::new())
            .with_repartition_source_topics(Vec::new())]));
    assert_eq!(entry.topology, Some(expected_topology));
    let expected_member = describe::Member::default()
        .with_member_id("a")
        .with_member_epoch(2)
        .with_instance_id(None)
        .with_rack_id(None)
        .with_client_id("client")
        .with_client_host("/127.0.0.1")
        .with_topology_epoch(0)
        .with_process_id("p-a")
        .with_user_endpoint(None)
        .with_client_tags(Vec::new())
        .with_task_offsets(Vec::new())
        .with_task_end_offsets(Vec::new())
        .with_assignment(described_assignment(BOTH))
        .with_target_assignment(described_assignment(BOTH))
        .with_is_classic(false);
    assert_eq!(entry.members, [expected_member]);
}

#[test]
fn r53_no_topology_description_is_required_or_stored() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    let request = StreamsGroupDescribeRequest::default()
        .with_group_ids(names(&[GROUP, "nope"]))
        .with_include_topology_description(true);
    let mut statuses: Vec<(String, i16, i8, bool)> = broker
        .coordinator
        .handle_describe(&context(), &request)
        .groups
        .into_iter()
        .map(|e| {
            (
                e.group_id,
                e.error_code,
                e.topology_description_status,
                e.topology_description.is_none(),
            )
        })
        .collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [
            (GROUP.to_owned(), 0, 1, true),
            ("nope".to_owned(), ERROR_GROUP_ID_NOT_FOUND, 0, true)
        ]
    );
}
