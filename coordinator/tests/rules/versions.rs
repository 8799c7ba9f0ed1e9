//! Versions (R52, R54), and topologies the group cannot build (R06, R37, R48).

use super::*;

#[test]
fn r52_acceptable_recovery_lag_is_10000_at_v1_and_legacy_0_at_v0() {
    let mut broker = Broker::new();
    // v0 has no int64 AcceptableRecoveryLag; it carries AcceptableRecoveryLagLegacy 0 instead.
    let at_v0 = |answer: Response| answer.with_acceptable_recovery_lag(-1);
    assert_eq!(
        broker.send_version(0, &join("a")),
        at_v0(answer("a", 2).tasks(BOTH))
    );
    assert_eq!(
        broker.send_version(0, &heartbeat("a", 2)),
        at_v0(answer("a", 2))
    );
    assert_eq!(broker.send_version(1, &heartbeat("a", 2)), answer("a", 2));
    for version in [0, 1] {
        assert_eq!(
            broker.send_version(version, &heartbeat("a", 99)),
            fenced("greater", 99, 2)
        );
    }
    assert_eq!(broker.send_version(0, &leave("a")), left("a", -1));
}

#[test]
fn r54_epoch_0_rejoin_of_an_existing_member_keeps_its_epoch_and_gets_its_tasks() {
    let mut broker = rebalanced_pair();
    assert_eq!(broker.send(&join("a")), answer("a", 3).tasks(FIRST));
    assert_eq!(broker.view(), settled_pair());
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 3));
    assert_eq!(broker.send(&join("a")), answer("a", 3).tasks(FIRST));
    assert_eq!(broker.view(), settled_pair());
}

/// Spec 10: describe shows the configured topology only when it is ready, else the topology as
/// members sent it; every topic list is sorted by name.
#[test]
fn r48_describe_shows_the_sent_topology_until_ready_with_topic_lists_sorted() {
    let mut broker = Broker::new();
    let with_changelogs = topology(
        0,
        vec![
            subtopology("0", &["in"]).with_repartition_sink_topics(names(&["r"])),
            subtopology("1", &[])
                .with_repartition_source_topics(vec![internal_topic("r")])
                .with_state_changelog_topics(vec![internal_topic("c2"), internal_topic("c1")]),
        ],
    );
    broker.exchange(1, &join("a").with_topology(Some(with_changelogs)));
    let internal_topics = |broker: &Broker| -> Vec<(String, i32)> {
        let described = broker.described().topology.expect("a topology");
        described
            .subtopologies
            .expect("subtopologies")
            .iter()
            .flat_map(|s| {
                s.repartition_source_topics
                    .iter()
                    .chain(&s.state_changelog_topics)
            })
            .map(|t| (t.name.clone(), t.partitions))
            .collect()
    };
    let as_sent = [
        ("r".to_owned(), 0),
        ("c1".to_owned(), 0),
        ("c2".to_owned(), 0),
    ];
    assert_eq!(internal_topics(&broker), as_sent);

    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("r", 2), ("c1", 2), ("c2", 2)]));
    broker.send(&heartbeat("a", 2));
    let configured = [
        ("r".to_owned(), 2),
        ("c1".to_owned(), 2),
        ("c2".to_owned(), 2),
    ];
    assert_eq!(internal_topics(&broker), configured);
}

/// Open question 9, as Kafka 4.4.0 answered it: a topology that cannot be built (negative epoch,
/// two subtopologies with one id, a copartition index out of range) gets UNKNOWN_SERVER_ERROR
/// with no message, and no group comes into being.
#[test]
fn r37_unbuildable_topologies_are_refused_without_creating_the_group() {
    let copartitioned = |group: CopartitionGroup| {
        subtopology("0", &["in"])
            .with_repartition_source_topics(vec![internal_topic("r").with_partitions(2)])
            .with_copartition_groups(vec![group])
    };
    let source_index = |index: i16| CopartitionGroup::default().with_source_topics(vec![index]);
    let repartition_index = |index: i16| {
        CopartitionGroup::default()
            .with_source_topics(vec![0])
            .with_repartition_source_topics(vec![index])
    };
    for unbuildable in [
        topology(-1, vec![subtopology("0", &["in"])]),
        topology(
            0,
            vec![subtopology("0", &["in"]), subtopology("0", &["in"])],
        ),
        // Indexes past the end, or negative, of the source or the repartition source topics.
        topology(0, vec![copartitioned(source_index(7))]),
        topology(0, vec![copartitioned(source_index(1))]),
        topology(0, vec![copartitioned(source_index(-1))]),
        topology(0, vec![copartitioned(repartition_index(1))]),
        topology(0, vec![copartitioned(repartition_index(-1))]),
    ] {
        let mut broker = Broker::new();
        let answer = broker.send(&join("a").with_topology(Some(unbuildable)));
        assert_eq!(
            (answer.error_code, answer.error_message),
            (ERROR_UNKNOWN_SERVER_ERROR, None)
        );
        assert_eq!(
            broker.describe(&[GROUP])[0].error_code,
            ERROR_GROUP_ID_NOT_FOUND
        );
    }
}

/// Open question 9, into an existing group, as Kafka 4.4.0 answered differential campaigns: it
/// resolves copartition indexes only for a topology that becomes the group's, so a changed
/// topology is refused as an update (R37) and a stale one is accepted (R38), bad indexes and all.
#[test]
fn r37_a_copartition_index_out_of_range_counts_only_in_a_topology_the_group_takes() {
    let mut broker = Broker::new();
    let bad_indexes = |epoch: i32| {
        topology(
            epoch,
            vec![subtopology("0", &["in"]).with_copartition_groups(vec![
                CopartitionGroup::default().with_source_topics(vec![7]),
            ])],
        )
    };
    assert_eq!(
        broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1)))),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(
        broker.send(&join("b").with_topology(Some(bad_indexes(1)))),
        refused(
            ERROR_INVALID_REQUEST,
            "Topology updates are not supported yet."
        )
    );
    assert_eq!(
        broker.send(&join("b").with_topology(Some(bad_indexes(0)))),
        answer("b", 3).tasks(NONE).statuses(&[(
            0,
            "The member's topology epoch 0 is behind the group's topology epoch 1."
        )])
    );
}

/// Open question 9 (d): a subtopology that reads nothing is an invalid topology, once the
/// source topics exist.
#[test]
fn r06_a_subtopology_without_inputs_is_an_invalid_topology() {
    let reads_nothing = topology(0, vec![subtopology("0", &[])]);
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&join("a").with_topology(Some(reads_nothing))),
        refused(130, "No source topics found for subtopology 0")
    );
    assert_eq!(
        broker.describe(&[GROUP])[0].error_code,
        ERROR_GROUP_ID_NOT_FOUND
    );
}
