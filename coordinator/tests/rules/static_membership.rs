//! Static membership and group size (R22, R25 client tags, R49-R51).

use super::*;

/// Static member a (instance i1, process p-a) created the group at epoch 2 with both tasks and
/// left with -2.
fn released_i1() -> Broker {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    broker
}

#[test]
fn r49_static_leave_keeps_the_member_at_minus_2_without_an_epoch_bump() {
    let mut broker = released_i1();
    // Repeating the -2 leave gives the same answer.
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    assert_eq!(
        broker.view(),
        group("Reconciling", 2, 2, vec![member("a", -2, BOTH, BOTH)])
    );
}

#[test]
fn r49_replacement_with_the_same_metadata_inherits_epoch_and_tasks() {
    let mut broker = released_i1();
    let replacement = static_join("a2", "i1").with_process_id(Some("p-a".to_owned()));
    assert_eq!(broker.send(&replacement), answer("a2", 2).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a2", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a2", 2)), answer("a2", 2));
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
}

#[test]
fn r49_same_member_id_rejoins_its_instance() {
    let mut broker = released_i1();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

#[test]
fn r49_a_known_member_taking_a_released_instance_replaces_it() {
    // As Kafka 4.4.0 answers (scenario R49-known-member-takes-a-released-instance-id): the copy
    // of a under d's id takes d's place too, and the new process p-d bumps the epoch.
    let mut broker = released_i1();
    assert_eq!(broker.send(&join("d")), answer("d", 3).tasks(NONE));
    assert_eq!(
        broker.send(&static_join("d", "i1")),
        answer("d", 4).tasks(BOTH)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 4, 4, vec![member("d", 4, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
}

#[test]
fn r49_a_static_member_taking_a_released_instance_keeps_its_own_tasks_held_while_answered() {
    // As Kafka 4.4.0 answers (scenario R49-static-member-takes-a-released-instance-id): a (i1)
    // takes released b's i2; the copy of b under a's id has none of a's tasks, and those stay
    // held by the a of before the request until it is answered, so none is granted at once.
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(
        broker.send(&static_join("b", "i2")),
        answer("b", 3).tasks(NONE)
    );
    assert_eq!(broker.send(&static_leave("b", "i2")), left("b", -2));
    assert_eq!(
        broker.send(&static_join("a", "i2")),
        answer("a", 4).tasks(NONE)
    );
    assert_eq!(
        broker.view(),
        group("Reconciling", 4, 4, vec![member("a", 4, NONE, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 4)), answer("a", 4).tasks(BOTH));
    // i1 is free: c takes it as a new member.
    assert_eq!(
        broker.send(&static_join("c", "i1")),
        answer("c", 5).tasks(NONE)
    );
}

#[test]
fn r49_replacement_with_a_new_process_id_bumps_the_group_epoch() {
    let mut broker = released_i1();
    assert_eq!(
        broker.send(&static_join("a2", "i1")),
        answer("a2", 3).tasks(BOTH)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 3, 3, vec![member("a2", 3, BOTH, BOTH)])
    );
}

#[test]
fn r49_replacement_reconciles_to_a_target_that_moved_on() {
    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    assert_eq!(broker.send(&join("d")), answer("d", 3).tasks(NONE));
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    assert_eq!(
        broker.view(),
        group(
            "Reconciling",
            3,
            3,
            vec![member("a", -2, BOTH, FIRST), member("d", 3, NONE, SECOND)]
        )
    );
    let replacement = static_join("a2", "i1").with_process_id(Some("p-a".to_owned()));
    assert_eq!(broker.send(&replacement), answer("a2", 3).tasks(FIRST));
    assert_eq!(
        broker.send(&heartbeat("d", 3)),
        answer("d", 3).tasks(SECOND)
    );
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![
                member("a2", 3, FIRST, FIRST),
                member("d", 3, SECOND, SECOND)
            ]
        )
    );
}

/// R24 after R49: Kafka 4.4.0 replaces a released static member by a copy at epoch 0 and
/// previous epoch 0 (`getOrMaybeCreateStaticStreamsGroupMember`), then reconciles it to the
/// target's epoch, so a request at its epoch from before the release is no lost answer's: it is
/// fenced. Found by a differential campaign against Kafka 4.4.0 (seed 20261207, run 455), where
/// the reference had given the member its old epoch back and took such a request.
#[test]
fn r24_after_a_static_rejoin_the_epoch_before_the_release_is_fenced() {
    let mut broker = released_i1();
    // A new process id bumps the group epoch: the rejoined member reconciles to 3.
    let rejoin = static_join("a", "i1").with_process_id(Some("p-a2".to_owned()));
    assert_eq!(broker.send(&rejoin), answer("a", 3).tasks(BOTH));
    let at_epoch_before_release = owning(
        heartbeat("a", 2).with_instance_id(Some("i1".to_owned())),
        BOTH,
    );
    assert_eq!(
        broker.send(&at_epoch_before_release),
        fenced("smaller", 2, 3)
    );
}

#[test]
fn r49_static_member_leaving_with_minus_1_is_removed() {
    let mut broker = released_i1();
    assert_eq!(
        broker.send(&leave("a").with_instance_id(Some("i1".to_owned()))),
        left("a", -1)
    );
    assert_eq!(broker.view(), group("Empty", 3, 3, Vec::new()));
    // Instance i1 is free again: an ordinary join.
    assert_eq!(
        broker.send(&static_join("b", "i1")),
        answer("b", 4).tasks(BOTH)
    );
}

#[test]
fn r50_join_with_an_instance_held_by_an_active_member_is_unreleased_even_at_max_size() {
    let config = CoordinatorConfig {
        max_size: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&static_join("a", "i1"));
    for member_id in ["b", "a"] {
        assert_eq!(
            broker.send(&static_join(member_id, "i1")),
            refused(
                ERROR_UNRELEASED_INSTANCE_ID,
                &format!(
                    "Static member {member_id} with instance id i1 cannot join the group because the instance id is owned by a member."
                )
            )
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r50_instance_held_by_another_member_is_fenced_before_member_lookup() {
    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    broker.send(&static_join("b", "i2"));
    broker.send(&join("d"));
    let fenced_instance = |member: &str, instance: &str, holder: &str| {
        refused(
            ERROR_FENCED_INSTANCE_ID,
            &format!(
                "Static member {member} with instance id {instance} was fenced by member {holder}."
            ),
        )
    };
    let with_i1 = |request: Request| request.with_instance_id(Some("i1".to_owned()));
    let cases = [
        (
            heartbeat("a", 2).with_instance_id(Some("i2".to_owned())),
            fenced_instance("a", "i2", "b"),
        ),
        (with_i1(heartbeat("d", 4)), fenced_instance("d", "i1", "a")),
        (with_i1(heartbeat("x", 4)), fenced_instance("x", "i1", "a")),
        (with_i1(leave("x")), fenced_instance("x", "i1", "a")),
        (static_leave("x", "i1"), fenced_instance("x", "i1", "a")),
        (static_leave("d", "i1"), fenced_instance("d", "i1", "a")),
    ];
    for (request, expected) in cases {
        assert_eq!(broker.send(&request), expected);
    }
    assert_eq!(broker.state().1, 4);
    assert_eq!(
        broker.member_epochs(),
        [
            ("a".to_owned(), 2),
            ("b".to_owned(), 3),
            ("d".to_owned(), 4)
        ]
    );
}

#[test]
fn r50_unknown_instance_id_is_an_unknown_member() {
    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    let with_i7 = |request: Request| request.with_instance_id(Some("i7".to_owned()));
    for request in [
        with_i7(heartbeat("a", 2)),
        with_i7(leave("a")),
        static_leave("a", "i7"),
        with_i7(heartbeat("x", 2)),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_UNKNOWN_MEMBER_ID, "Instance id i7 is unknown.")
        );
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

#[test]
fn r50_replaced_static_member_is_fenced() {
    let mut broker = released_i1();
    broker.send(&static_join("a2", "i1").with_process_id(Some("p-a".to_owned())));
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_instance_id(Some("i1".to_owned()))),
        refused(
            ERROR_FENCED_INSTANCE_ID,
            "Static member a with instance id i1 was fenced by member a2."
        )
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        refused(
            ERROR_UNRELEASED_INSTANCE_ID,
            "Static member a with instance id i1 cannot join the group because the instance id is owned by a2 member."
        )
    );
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a2", 2, BOTH, BOTH)])
    );
}

/// Kafka 4.4 (scenario R25-missing-client-tags): with rack-aware assignment tags configured, a
/// v1 member lacking a key gets status 6 on every heartbeat and its tasks all the same; v0
/// responses never carry it.
#[test]
fn r25_a_member_lacking_a_rack_aware_tag_key_gets_missing_client_tags_at_v1_only() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2)]));
    broker
        .coordinator
        .set_group_config(GROUP, "streams.rack.aware.assignment.tags", "zone, cluster")
        .unwrap();
    let missing = [(
        6,
        "Missing required client tags for rack-aware standby assignment: [zone]. Configure them via 'client.tag.<tagKey>' in your Streams config.",
    )];
    let tagged = join("a").with_client_tags(Some(vec![
        streamspec_protocol::kafka::streams_group_heartbeat_request::KeyValue::default()
            .with_key("cluster")
            .with_value("c1"),
    ]));
    assert_eq!(
        broker.send(&tagged),
        answer("a", 2).tasks(BOTH).statuses(&missing)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).statuses(&missing)
    );
    let at_v0 = broker.send_version(0, &heartbeat("a", 2));
    assert_eq!((at_v0.error_code, at_v0.status), (0, Some(vec![])));
}

#[test]
fn r22_a_full_group_refuses_a_new_member_and_changes_nothing() {
    let config = CoordinatorConfig {
        max_size: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&join("b")),
        refused(
            ERROR_GROUP_MAX_SIZE_REACHED,
            "The streams group has reached its maximum capacity of 1 members."
        )
    );
    assert_eq!(broker.member_epochs(), [("a".to_owned(), 2)]);
    assert_eq!(broker.state().1, 2);
}

#[test]
fn r51_at_max_size_only_a_released_instance_can_join() {
    const FULL: &str = "The streams group has reached its maximum capacity of 2 members.";
    // l rejoins with its own member id, or a replacement l2 takes over its instance.
    for rejoining in ["l", "l2"] {
        let config = CoordinatorConfig {
            max_size: 2,
            ..kafka_config()
        };
        let mut broker = Broker::with(config, topics(&[("in", 2)]));
        broker.send(&static_join("l", "il"));
        broker.send(&join("a"));
        assert_eq!(broker.send(&static_leave("l", "il")), left("l", -2));
        for newcomer in [join("n"), static_join("n", "i9")] {
            assert_eq!(
                broker.send(&newcomer),
                refused(ERROR_GROUP_MAX_SIZE_REACHED, FULL)
            );
        }
        let rejoin = static_join(rejoining, "il").with_process_id(Some("p-l".to_owned()));
        assert_eq!(broker.send(&rejoin), answer(rejoining, 3).tasks(FIRST));
        assert_eq!(
            broker.member_epochs(),
            [("a".to_owned(), 3), (rejoining.to_owned(), 3)]
        );
        assert_eq!(broker.state().1, 3);
    }
}
