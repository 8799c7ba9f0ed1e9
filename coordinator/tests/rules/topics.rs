//! Topics and topologies: missing and internal topics, topology updates and epochs, owned tasks,
//! group configs (R33-R41, R52).

use super::*;

#[test]
fn r33_missing_source_topic_is_a_status_with_empty_tasks() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&join("a")),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).statuses(&missing)
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );

    // Once the topic exists, the next heartbeat bumps the epoch and assigns the tasks.
    broker.coordinator.handle_metadata(topics(&[("in", 2)]));
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 3).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 3, 3, vec![member("a", 3, BOTH, BOTH)])
    );
}

/// Spec 5.5, as Kafka 4.4.0 showed it to a broker campaign that deleted a source topic: the
/// member is told to give its tasks up at once, then moves to the new epoch with none, and the
/// group is NotReady (the reference had called it Stable).
#[test]
fn r33_a_deleted_source_topic_takes_the_tasks_back_and_the_group_is_not_ready() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2)]));
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    broker.coordinator.handle_metadata(topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 3).statuses(&missing)
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 3, 3, vec![member("a", 3, NONE, NONE)])
    );
}

/// R33: a source topic deleted and created again between two heartbeats, with the same
/// partition count, is another topic (Kafka's metadata hash covers the topic id): the next
/// heartbeat bumps the group epoch, and the member moves to it keeping its tasks.
#[test]
fn r33_a_topic_deleted_and_created_again_bumps_the_group_epoch() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    let mut metadata = topics(&[("in", 2)]);
    metadata.remove_topic("in");
    metadata.set_topic("in", 2);
    broker.coordinator.handle_metadata(metadata.clone());
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 3)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 3, 3, vec![member("a", 3, BOTH, BOTH)])
    );
    // Seen once, the same topic changes nothing.
    broker.coordinator.handle_metadata(metadata);
    assert_eq!(broker.coordinator.metadata().partitions("in"), Some(2));
    assert_eq!(broker.coordinator.metadata().partitions("gone"), None);
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), BOTH)),
        answer("a", 3)
    );
}

/// R33, as Kafka 4.4.0 answered a differential campaign: its metadata hash covers only the
/// topics that exist, so a missing source topic created and deleted again between two
/// heartbeats changes nothing: the group keeps its epoch (the reference had bumped it).
#[test]
fn r33_a_missing_topic_created_and_deleted_between_heartbeats_keeps_the_group_epoch() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&join("a")),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    let mut metadata = topics(&[("in", 2)]);
    broker.coordinator.handle_metadata(metadata.clone());
    metadata.remove_topic("in");
    broker.coordinator.handle_metadata(metadata.clone());
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 2).statuses(&missing)
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );
    // Created again, it is there: the epoch moves on and the tasks are assigned.
    metadata.set_topic("in", 2);
    broker.coordinator.handle_metadata(metadata);
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 3).tasks(BOTH)
    );
}

/// R33 and R40, where the reference does not copy Kafka 4.4.0 (`harness/divergences.json`,
/// condition `kept-configuration-of-deleted-topic`): a heartbeat that finds the missing source
/// topic created configures the topology, then is refused for a task that does not exist, and
/// the topic is deleted before the next heartbeat. The deletion brings Kafka's metadata hash
/// back to the group's, so Kafka goes on with the kept configuration: epoch 3, the deleted
/// topic's tasks assigned, the group Stable. The reference drops that configuration: the group
/// keeps epoch 2, NotReady, with nothing assigned.
#[test]
fn r40_a_kept_configuration_of_a_topic_deleted_since_is_dropped() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&join("a")),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    let mut metadata = topics(&[("in", 2)]);
    broker.coordinator.handle_metadata(metadata.clone());
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), &[("9", &[0])])),
        refused(
            ERROR_INVALID_REQUEST,
            "Subtopology 9 does not exist in the topology."
        )
    );
    assert!(broker.coordinator.has_uncommitted_configurations());
    let declined = |broker: &Broker| {
        let metadata = broker.coordinator.metadata();
        broker
            .coordinator
            .group(GROUP)
            .is_some_and(|group| group.kept_configuration_of_deleted_topic(metadata))
    };
    assert!(!declined(&broker), "the topic is there");
    metadata.remove_topic("in");
    broker.coordinator.handle_metadata(metadata);
    assert!(declined(&broker), "held");
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 2).statuses(&missing)
    );
    assert!(declined(&broker), "dropped");
    assert!(!broker.coordinator.has_uncommitted_configurations());
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );
}

/// The same configuration, committed by another request's records (a leave) after the topic
/// was deleted: describe reads it, as Kafka's does, and the group's next heartbeat gives it up
/// where Kafka would assign the deleted topic's tasks at epoch 5.
#[test]
fn r40_a_committed_kept_configuration_of_a_deleted_topic_is_given_up_at_the_next_heartbeat() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    assert_eq!(broker.send(&join("a")).member_epoch, 2);
    assert_eq!(broker.send(&join("b")).member_epoch, 3);
    let mut metadata = topics(&[("in", 2)]);
    broker.coordinator.handle_metadata(metadata.clone());
    assert_eq!(
        broker
            .send(&owning(heartbeat("a", 2), &[("9", &[0])]))
            .error_code,
        ERROR_INVALID_REQUEST
    );
    metadata.remove_topic("in");
    broker.coordinator.handle_metadata(metadata);
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    assert!(!broker.coordinator.has_uncommitted_configurations());
    let metadata = broker.coordinator.metadata();
    assert!(broker
        .coordinator
        .group(GROUP)
        .is_some_and(|group| group.kept_configuration_of_deleted_topic(metadata)));
    assert_eq!(broker.state(), ("NotReady".to_owned(), 4, 3));
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 4).statuses(&missing)
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 4, 4, vec![member("a", 4, NONE, NONE)])
    );
}

#[test]
fn r33_missing_source_topics_are_listed_sorted() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let two = topology(
        0,
        vec![subtopology("0", &["in2"]), subtopology("1", &["in"])],
    );
    assert_eq!(
        broker.send(&join("a").with_topology(Some(two))),
        answer("a", 2)
            .tasks(NONE)
            .statuses(&[(1, "Source topics in, in2 are missing.")])
    );
}

#[test]
fn r34_missing_internal_topic_is_created_then_assigned() {
    let mut broker = Broker::new();
    join_through_missing_repartition_topic(&mut broker);
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );

    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("r", 2)]));
    let both_subtopologies: Tasks = &[("0", &[0, 1]), ("1", &[0, 1])];
    let mut assigned = broker.send(&heartbeat("a", 2));
    // Kafka does not define the order of subtopologies in a task list.
    if let Some(active) = assigned.active_tasks.as_mut() {
        active.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
    }
    assert_eq!(assigned, answer("a", 3).tasks(both_subtopologies));
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![member("a", 3, both_subtopologies, both_subtopologies)]
        )
    );
    // The described topology carries the derived partition count of `r`.
    let described = broker.described().topology.expect("a topology");
    let repartition: Vec<(String, String, i32)> = described
        .subtopologies
        .expect("subtopologies")
        .iter()
        .flat_map(|s| {
            s.repartition_source_topics
                .iter()
                .map(|t| (s.subtopology_id.clone(), t.name.clone(), t.partitions))
        })
        .collect();
    assert_eq!(repartition, [("1".to_owned(), "r".to_owned(), 2)]);
}

#[test]
fn r36_changelog_with_wrong_partition_count_is_incorrectly_partitioned() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("c", 5)]));
    let stateful = topology(
        0,
        vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
    );
    assert_eq!(
        broker.send(&join("a").with_topology(Some(stateful))),
        answer("a", 2).tasks(NONE).statuses(&[(
            2,
            "Existing topic c has different number of partitions: expected 2, found 5"
        )])
    );
    assert_eq!(
        broker.view(),
        group("NotReady", 2, 2, vec![member("a", 2, NONE, NONE)])
    );
}

#[test]
fn r37_topology_updates_are_refused() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("in2", 2)]));
    broker.send(&join("a"));
    let other_content = reading(&["in2"]);
    let later_epoch = topology_s().with_epoch(1);
    for topology in [other_content, later_epoch] {
        assert_eq!(
            broker.send(&join("b").with_topology(Some(topology))),
            refused(
                ERROR_INVALID_REQUEST,
                "Topology updates are not supported yet."
            )
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    let kept = broker.described().topology.expect("a topology");
    assert_eq!(kept.epoch, 0);
    let sources: Vec<Vec<String>> = kept
        .subtopologies
        .expect("subtopologies")
        .iter()
        .map(|s| s.source_topics.clone())
        .collect();
    assert_eq!(sources, [names(&["in"])]);
}

#[test]
fn r39_source_topic_order_matters_and_the_identical_topology_is_accepted() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("in2", 2)]));
    broker.send(&join("a").with_topology(Some(reading(&["in", "in2"]))));
    // The same topics in another order are another topology.
    assert_eq!(
        broker.send(&join("b").with_topology(Some(reading(&["in2", "in"])))),
        refused(
            ERROR_INVALID_REQUEST,
            "Topology updates are not supported yet."
        )
    );
    assert_eq!(
        broker.send(&join("b").with_topology(Some(reading(&["in", "in2"])))),
        answer("b", 3).tasks(NONE)
    );
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 2), ("b".to_owned(), 3)]
    );
}

#[test]
fn r38_older_topology_epoch_joins_as_stale() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("in2", 2)]));
    let stale = [(
        0,
        "The member's topology epoch 0 is behind the group's topology epoch 1.",
    )];
    broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1))));
    assert_eq!(
        broker.send(&join("b").with_topology(Some(reading(&["in2"])))),
        answer("b", 3).tasks(NONE).statuses(&stale)
    );
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).statuses(&stale)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2).tasks(FIRST));
    let described = broker.described();
    assert_eq!(described.group_epoch, 3);
    assert_eq!(described.topology.map(|t| t.epoch), Some(1));
    let mut topology_epochs: Vec<(String, i32)> = described
        .members
        .iter()
        .map(|m| (m.member_id.clone(), m.topology_epoch))
        .collect();
    topology_epochs.sort();
    assert_eq!(topology_epochs, [("a".to_owned(), 1), ("b".to_owned(), 0)]);
}

/// Kafka 4.4.0 never configures a stale member's topology, so a copartition index out of range
/// in it goes unnoticed; the same topology refused a group-creating join (open question 9).
#[test]
fn r38_a_stale_topology_is_not_checked_for_copartition_indexes() {
    let mut broker = Broker::new();
    let out_of_range = |epoch: i32| {
        topology(
            epoch,
            vec![subtopology("0", &["in"]).with_copartition_groups(vec![
                CopartitionGroup::default().with_source_topics(vec![7]),
            ])],
        )
    };
    assert_eq!(
        broker.send(&join("a").with_topology(Some(out_of_range(1)))),
        refused(ERROR_UNKNOWN_SERVER_ERROR, "").with_error_message(None)
    );
    broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1))));
    let stale = [(
        0,
        "The member's topology epoch 0 is behind the group's topology epoch 1.",
    )];
    assert_eq!(
        broker.send(&join("b").with_topology(Some(out_of_range(0)))),
        answer("b", 3).tasks(NONE).statuses(&stale)
    );
}

#[test]
fn r40_owned_tasks_must_exist_in_the_topology() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    let invalid_task = |p: i32| {
        format!("Task {p} for subtopology 0 is invalid. Number of tasks for this subtopology: 2")
    };
    let unknown_standby =
        owning(heartbeat("a", 2), BOTH).with_standby_tasks(Some(task_ids(&[("9", &[0])])));
    let warmup_5 =
        owning(heartbeat("a", 2), BOTH).with_warmup_tasks(Some(task_ids(&[("0", &[5])])));
    let cases = [
        (
            owning(heartbeat("a", 2), &[("9", &[0])]),
            "Subtopology 9 does not exist in the topology.".to_owned(),
        ),
        (owning(heartbeat("a", 2), &[("0", &[7])]), invalid_task(7)),
        (owning(heartbeat("a", 2), &[("0", &[-1])]), invalid_task(-1)),
        (
            unknown_standby,
            "Subtopology 9 does not exist in the topology.".to_owned(),
        ),
        (warmup_5, invalid_task(5)),
    ];
    for (request, message) in cases {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, &message)
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
}

/// The partition count of repartition topic `r` as describe shows it.
fn described_repartition_partitions(broker: &Broker) -> i32 {
    let described = broker.described().topology.expect("a topology");
    described.subtopologies.expect("subtopologies")[1].repartition_source_topics[0].partitions
}

/// R40, as Kafka 4.4.0 answered a differential campaign: a heartbeat that finds the missing
/// internal topic created configures the topology, then is refused for a task that does not
/// exist. Kafka keeps that configuration in memory without its records: describe shows it only
/// once a later request (here b's leave) writes records, and the group stays NotReady until a
/// heartbeat validates the topology. The reference had shown the derived partition count only
/// after the next accepted heartbeat.
#[test]
fn r40_a_refused_heartbeat_keeps_the_configuration_it_computed_until_records_commit_it() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2)]));
    join_through_missing_repartition_topic(&mut broker);
    let (joined, _) = broker.exchange(
        1,
        &join("b").with_topology(Some(through_repartition_topic())),
    );
    assert_eq!(joined.member_epoch, 3);
    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("r", 2)]));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), &[("9", &[0])])),
        refused(
            ERROR_INVALID_REQUEST,
            "Subtopology 9 does not exist in the topology."
        )
    );
    // Nothing was written: describe shows the topology as the members sent it.
    assert_eq!(described_repartition_partitions(&broker), 0);
    assert_eq!(broker.state(), ("NotReady".to_owned(), 3, 3));
    assert!(broker.coordinator.has_uncommitted_configurations());
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    assert!(!broker.coordinator.has_uncommitted_configurations());
    assert_eq!(described_repartition_partitions(&broker), 2);
    assert_eq!(broker.state(), ("NotReady".to_owned(), 4, 3));
    // a's next heartbeat validates the topology: the epoch moves on and the tasks are assigned.
    let mut assigned = broker.send(&heartbeat("a", 2));
    if let Some(active) = assigned.active_tasks.as_mut() {
        active.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
    }
    let both_subtopologies: Tasks = &[("0", &[0, 1]), ("1", &[0, 1])];
    assert_eq!(assigned, answer("a", 5).tasks(both_subtopologies));
    assert_eq!(broker.state(), ("Stable".to_owned(), 5, 5));
}

/// R40: the kept configuration is also committed by records another group writes to the same
/// partition, which the coordinator is told of from outside (`commit_uncommitted_configurations`,
/// the differential campaign's timing fork): describe shows it from then on.
#[test]
fn r40_records_of_another_group_commit_the_kept_configuration() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2)]));
    join_through_missing_repartition_topic(&mut broker);
    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("r", 2)]));
    assert_eq!(
        broker
            .send(&owning(heartbeat("a", 2), &[("9", &[0])]))
            .error_code,
        ERROR_INVALID_REQUEST
    );
    assert_eq!(described_repartition_partitions(&broker), 0);
    assert!(broker.coordinator.has_uncommitted_configurations());
    broker.coordinator.commit_uncommitted_configurations();
    assert!(!broker.coordinator.has_uncommitted_configurations());
    assert_eq!(described_repartition_partitions(&broker), 2);
    assert_eq!(broker.state(), ("NotReady".to_owned(), 2, 2));
}

#[test]
fn r41_group_configs_are_checked_for_type_lower_bound_then_broker_bound() {
    let mut coordinator = Coordinator::new(kafka_config());
    let refusals = [
        ("streams.num.warmup.replicas", "21", "streams.num.warmup.replicas must be less than or equal to 20"),
        ("streams.num.warmup.replicas", "-1", "Invalid value -1 for configuration streams.num.warmup.replicas: Value must be at least 0"),
        ("streams.num.warmup.replicas", "2147483648", "Invalid value 2147483648 for configuration streams.num.warmup.replicas: Not a number of type INT"),
        ("streams.acceptable.recovery.lag", "x", "Invalid value x for configuration streams.acceptable.recovery.lag: Not a number of type LONG"),
        ("streams.task.offset.interval.ms", "14999", "streams.task.offset.interval.ms must be greater than or equal to 15000"),
        ("streams.session.timeout.ms", "0", "Invalid value 0 for configuration streams.session.timeout.ms: Value must be at least 1"),
        ("streams.session.timeout.ms", "44999", "streams.session.timeout.ms must be in the range 45000 to 60000 inclusive."),
        ("streams.num.standby.replicas", "3", "streams.num.standby.replicas must be less than or equal to 2"),
        ("streams.assignor.offload.enable", "yes", "Invalid value yes for configuration streams.assignor.offload.enable: Expected value to be either true or false"),
        ("streams.assignor.name", "range", "streams.assignor.name 'range' is not a registered task assignor. Registered assignors are: [sticky]."),
        ("streams.rack.aware.assignment.tags", "zone, zone", "streams.rack.aware.assignment.tags must not contain duplicate tag keys."),
        ("streams.bogus", "1", "Unknown group config name: streams.bogus"),
    ];
    for (name, value, message) in refusals {
        assert_eq!(
            coordinator.set_group_config(GROUP, name, value),
            Err(message.to_owned()),
            "{name}={value}"
        );
    }
    let accepted = [
        ("streams.num.warmup.replicas", " 20 "),
        ("streams.acceptable.recovery.lag", "0"),
        ("streams.task.offset.interval.ms", "15000"),
        ("streams.assignor.offload.enable", "TRUE"),
        ("streams.assignor.name", "sticky"),
    ];
    assert_eq!(coordinator.set_group_configs(GROUP, &accepted), Ok(()));
}

#[test]
fn r52_responses_carry_the_groups_recovery_lag_and_offset_interval() {
    let mut broker = Broker::new();
    broker
        .coordinator
        .set_group_configs(
            GROUP,
            &[
                ("streams.acceptable.recovery.lag", "5"),
                ("streams.task.offset.interval.ms", "30000"),
            ],
        )
        .unwrap();
    let joined = broker.send(&join("a"));
    assert_eq!(
        (
            joined.acceptable_recovery_lag,
            joined.task_offset_interval_ms
        ),
        (5, 30_000)
    );
}

/// The broker-level settings a coordinator was made with are what it reports, whatever its
/// groups set for themselves (spec 9.2: group configs override them per group).
#[test]
fn r52_the_coordinators_own_config_is_the_one_it_was_given() {
    let config = CoordinatorConfig {
        session_timeout_ms: 12_000,
        num_standby_replicas: 2,
        ..kafka_config()
    };
    let mut coordinator = Coordinator::new(config.clone());
    coordinator
        .set_group_config(GROUP, "streams.num.standby.replicas", "1")
        .unwrap();
    assert_eq!(coordinator.config(), &config);
}

/// R35: the topics of a copartition group must agree on their partition count. Source topics
/// count as they are in the cluster, a repartition source topic with a count as declared; one
/// declared without a count (0) takes the group's.
#[test]
fn r35_copartitioned_topics_must_agree_and_a_repartition_topic_without_a_count_takes_theirs() {
    let cluster = topics(&[("in", 2), ("in2", 3), ("in3", 2)]);
    let copartitioned = |sources: &[&str], repartition: Option<TopicInfo>| {
        let mut group = CopartitionGroup::default().with_source_topics(vec![0, 1]);
        let mut subtopology = subtopology("0", sources);
        if let Some(topic) = repartition {
            group = CopartitionGroup::default()
                .with_source_topics(vec![0])
                .with_repartition_source_topics(vec![0]);
            subtopology = subtopology.with_repartition_source_topics(vec![topic]);
        }
        join("a").with_topology(Some(topology(
            0,
            vec![subtopology.with_copartition_groups(vec![group])],
        )))
    };
    let disagreeing = |listed: &str| {
        answer("a", 2).tasks(NONE).statuses(&[(
            2,
            &format!("Following topics do not have the same number of partitions: [{{{listed}}}]"),
        )])
    };
    let mut broker = Broker::with(kafka_config(), cluster.clone());
    assert_eq!(
        broker.send(&copartitioned(&["in", "in2"], None)),
        disagreeing("in=2, in2=3")
    );
    let mut broker = Broker::with(kafka_config(), cluster.clone());
    assert_eq!(
        broker.send(&copartitioned(&["in", "in3"], None)),
        answer("a", 2).tasks(BOTH)
    );
    let mut broker = Broker::with(kafka_config(), cluster.clone());
    let declared = internal_topic("r").with_partitions(4);
    assert_eq!(
        broker.send(&copartitioned(&["in"], Some(declared))),
        disagreeing("in=2, r=4")
    );
    // r is written from in2 (3 partitions) and read beside in (2): the copartition group's 2
    // wins over what the writer's count would give.
    let mut broker = Broker::with(kafka_config(), cluster);
    let writer = subtopology("0", &["in2"]).with_repartition_sink_topics(names(&["r"]));
    let reader = subtopology("1", &["in"])
        .with_repartition_source_topics(vec![internal_topic("r")])
        .with_copartition_groups(vec![CopartitionGroup::default()
            .with_source_topics(vec![0])
            .with_repartition_source_topics(vec![0])]);
    let (answer_to_join, effects) = broker.exchange(
        1,
        &join("a").with_topology(Some(topology(0, vec![writer, reader]))),
    );
    assert_eq!(
        answer_to_join,
        answer("a", 2)
            .tasks(NONE)
            .statuses(&[(3, "Internal topics are missing: r")])
    );
    assert_eq!(effects, creating("r", 2));
}
