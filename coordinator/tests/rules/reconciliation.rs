//! Join, assignment and reconciliation, session and rebalance deadlines, leaving (R25-R31, R48).

use super::*;
use streamspec_protocol::codes::STATUS_ASSIGNMENT_DELAYED;

#[test]
fn r25_first_member_gets_epoch_2_and_every_task() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

/// Kafka 4.4.0 hands its assignor the members in the order of a HashMap filled from the group's
/// member map, a `TimelineHashMap`: "m1-1" and "m2-0" share a HashMap bucket, and the member map
/// iterates m2-0 first, so m2-0 is the first to get a task.
#[test]
fn r25_members_of_one_process_are_assigned_in_kafkas_member_map_order() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    let missing = [(1, "Source topics in are missing.")];
    for (member, epoch) in [("m1-1", 2), ("m2-0", 3)] {
        assert_eq!(
            broker.send(&join(member).with_process_id(Some("p".to_owned()))),
            answer(member, epoch).tasks(NONE).statuses(&missing)
        );
    }
    broker.coordinator.handle_metadata(topics(&[("in", 2)]));
    assert_eq!(
        broker.send(&heartbeat("m1-1", 2)),
        answer("m1-1", 4).tasks(SECOND)
    );
    assert_eq!(
        broker.send(&heartbeat("m2-0", 3)),
        answer("m2-0", 4).tasks(FIRST)
    );
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            4,
            4,
            vec![
                member("m1-1", 4, SECOND, SECOND),
                member("m2-0", 4, FIRST, FIRST)
            ]
        )
    );
}

#[test]
fn r26_unchanged_assignment_is_answered_with_null_task_lists() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
}

#[test]
fn r27_revocation_before_assignment() {
    let mut broker = Broker::new();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));

    // b's target task 1 is withheld while a holds it.
    assert_eq!(broker.send(&join("b")), answer("b", 3).tasks(NONE));
    assert_eq!(
        broker.view().members,
        [member("a", 2, BOTH, FIRST), member("b", 3, NONE, SECOND)]
    );

    // a learns its reduced assignment and keeps its epoch until it confirms.
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2).tasks(FIRST));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
    // R28: task 1, pending revocation on a, is in nobody's assignment.
    assert_eq!(
        broker.view().members,
        [member("a", 2, FIRST, FIRST), member("b", 3, NONE, SECOND)]
    );

    // a confirms: epoch 3, its assigned tasks did not change in this heartbeat.
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    assert_eq!(
        broker.view().members,
        [member("a", 3, FIRST, FIRST), member("b", 3, NONE, SECOND)]
    );

    // Only now does b receive the released task.
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND)
    );
    assert_eq!(broker.view(), settled_pair());
}

#[test]
fn r48_group_states_through_a_two_member_rebalance() {
    let mut broker = Broker::new();
    let steps = [
        (join("a"), "Stable", 2, 2),
        (join("b"), "Reconciling", 3, 3),
        (heartbeat("a", 2), "Reconciling", 3, 3),
        (owning(heartbeat("a", 2), FIRST), "Reconciling", 3, 3),
        (heartbeat("b", 3), "Stable", 3, 3),
        (leave("b"), "Assigning", 4, 3),
        (heartbeat("a", 3), "Stable", 4, 4),
        (leave("a"), "Empty", 5, 5),
    ];
    for (request, state, epoch, assignment_epoch) in steps {
        assert_eq!(broker.send(&request).error_code, 0);
        assert_eq!(
            broker.state(),
            (state.to_owned(), epoch, assignment_epoch),
            "after {} at epoch {}",
            request.member_id,
            request.member_epoch
        );
    }
}

#[test]
fn r29_unconfirmed_revocation_is_removed_at_the_rebalance_deadline() {
    let mut broker = Broker::new();
    broker.send(&join("a").with_rebalance_timeout_ms(1_000));
    broker.send(&join("b"));
    broker.now_ms = 500;
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2).tasks(FIRST));
    // The rebalance timer (500 + 1000) is due before either session timer (45000).
    assert_eq!(broker.coordinator.next_deadline(), Some(1_500));
    assert_eq!(broker.coordinator.handle_timeout(1_499), []);
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 2), ("b".to_owned(), 3)]
    );

    assert_eq!(
        broker.coordinator.handle_timeout(1_500),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "a".to_owned(),
            reason: RemovalReason::RebalanceTimeout,
        }]
    );
    assert_eq!(
        broker.view(),
        group("Assigning", 4, 3, vec![member("b", 3, NONE, SECOND)])
    );
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));

    broker.now_ms = 2_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 4).tasks(BOTH));
}

#[test]
fn r29_confirmed_revocation_cancels_the_rebalance_timer() {
    let mut broker = Broker::new();
    broker.send(&join("a").with_rebalance_timeout_ms(1_000));
    broker.send(&join("b"));
    broker.send(&heartbeat("a", 2));
    assert_eq!(broker.coordinator.next_deadline(), Some(1_000));
    broker.now_ms = 900;
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    // Only the session timers are left: b's from its join, a's re-armed at 900.
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    assert_eq!(broker.coordinator.handle_timeout(1_000), []);
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 3), ("b".to_owned(), 3)]
    );
}

#[test]
fn r30_silent_member_is_removed_at_the_session_deadline() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.now_ms = 1_000;
    broker.send(&join("b"));
    broker.now_ms = 30_000;
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 3));

    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    assert_eq!(broker.coordinator.handle_timeout(44_999), []);
    assert_eq!(
        broker.member_epochs(),
        [("a".to_owned(), 2), ("b".to_owned(), 3)]
    );

    assert_eq!(
        broker.coordinator.handle_timeout(45_000),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "a".to_owned(),
            reason: RemovalReason::SessionTimeout,
        }]
    );
    assert_eq!(
        broker.view(),
        group("Assigning", 4, 3, vec![member("b", 3, NONE, SECOND)])
    );
    // b's session timer, re-armed by its heartbeat at 30000.
    assert_eq!(broker.coordinator.next_deadline(), Some(75_000));

    broker.now_ms = 46_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 4).tasks(BOTH));
}

#[test]
fn r30_only_successful_heartbeats_rearm_the_session_timer() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    broker.now_ms = 10_000;
    assert_eq!(broker.send(&heartbeat("a", 9)), fenced("greater", 9, 2));
    assert_eq!(broker.coordinator.next_deadline(), Some(45_000));
    broker.now_ms = 20_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(broker.coordinator.next_deadline(), Some(65_000));
    assert_eq!(broker.coordinator.handle_timeout(64_999), []);
    assert_eq!(broker.member_epochs(), [("a".to_owned(), 2)]);
}

#[test]
fn r30_session_timeout_of_the_last_member_empties_the_group() {
    let config = CoordinatorConfig {
        session_timeout_ms: 6_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&join("a"));
    assert_eq!(broker.coordinator.next_deadline(), Some(6_000));
    assert_eq!(
        broker.coordinator.handle_timeout(7_500),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "a".to_owned(),
            reason: RemovalReason::SessionTimeout,
        }]
    );
    assert_eq!(broker.view(), group("Empty", 3, 3, Vec::new()));
    assert_eq!(broker.coordinator.next_deadline(), None);
    assert_eq!(broker.send(&heartbeat("a", 2)), not_a_member("a"));
}

#[test]
fn r31_leave_of_the_last_member_empties_the_group() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.send(&leave("a")), left("a", -1));
    assert_eq!(broker.view(), group("Empty", 3, 3, Vec::new()));
    assert_eq!(broker.coordinator.next_deadline(), None);
}

#[test]
fn r31_leave_bumps_the_epoch_and_the_rest_rebalance_on_their_next_heartbeat() {
    let mut broker = rebalanced_pair();
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    assert_eq!(
        broker.view(),
        group("Assigning", 4, 3, vec![member("a", 3, FIRST, FIRST)])
    );
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 4).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 4, 4, vec![member("a", 4, BOTH, BOTH)])
    );
    // R32: the departed member is unknown, whatever it sends.
    for request in [
        heartbeat("b", 3),
        owning(heartbeat("b", 3), SECOND),
        leave("b"),
    ] {
        assert_eq!(broker.send(&request), not_a_member("b"));
    }
}

/// Spec 4.4 (4.3+): a target assignment at most once per `streams.assignment.interval.ms`. A join
/// within the interval of the last one is answered at the new group epoch's target only once the
/// interval has passed; meanwhile its status names the interval, and only the interval (the
/// initial delay is long over).
#[test]
fn r42_a_join_within_the_assignment_interval_waits_for_it() {
    let config = CoordinatorConfig {
        assignment_interval_ms: 1_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    broker.now_ms = 400;
    let interval = [(
        STATUS_ASSIGNMENT_DELAYED,
        "Assignment delayed due to the configured assignment interval.",
    )];
    assert_eq!(
        broker.send(&join("b")),
        answer("b", 2).tasks(NONE).statuses(&interval)
    );
    assert_eq!(broker.state(), ("Assigning".to_owned(), 3, 2));
    broker.now_ms = 1_000;
    // b's target (task 1) waits for a; its epoch moves on, its (empty) tasks unchanged.
    assert_eq!(broker.send(&heartbeat("b", 2)), answer("b", 3));
    assert_eq!(broker.state(), ("Reconciling".to_owned(), 3, 3));
}

/// R31: a member that left has no target; rejoining under the same id within the assignment
/// interval, it gets nothing until the next target assignment gives it tasks again.
#[test]
fn r31_a_member_rejoining_within_the_interval_has_no_target_until_the_next_assignment() {
    let config = CoordinatorConfig {
        assignment_interval_ms: 1_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    broker.send(&join("a"));
    broker.now_ms = 1_000;
    b_joins_and_they_settle(&mut broker);
    broker.now_ms = 1_100;
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    broker.now_ms = 1_200;
    let interval = [(
        STATUS_ASSIGNMENT_DELAYED,
        "Assignment delayed due to the configured assignment interval.",
    )];
    assert_eq!(
        broker.send(&join("b")),
        answer("b", 3).tasks(NONE).statuses(&interval)
    );
    assert_eq!(
        broker.view(),
        group(
            "Assigning",
            5,
            3,
            vec![member("a", 3, FIRST, FIRST), member("b", 3, NONE, NONE)]
        )
    );
    broker.now_ms = 2_000;
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 5).tasks(SECOND)
    );
}

/// Spec 3.1 step 3, around R26: a heartbeat that changes any of the member's metadata bumps the
/// group epoch of a dynamic member's group; the same values again change nothing.
#[test]
fn r26_changed_member_metadata_bumps_the_group_epoch_and_unchanged_does_not() {
    use streamspec_protocol::kafka::streams_group_heartbeat_request::KeyValue;
    let tags = |value: &str| Some(vec![KeyValue::default().with_key("zone").with_value(value)]);
    let mut broker = Broker::new();
    broker.send(&join("a"));
    let mut epoch = 2;
    let steps = [
        heartbeat("a", 2).with_rebalance_timeout_ms(20_000),
        heartbeat("a", 2).with_rack_id(Some("r1".to_owned())),
        heartbeat("a", 2).with_client_tags(tags("z1")),
        heartbeat("a", 2).with_client_tags(tags("z2")),
        heartbeat("a", 2).with_process_id(Some("p-other".to_owned())),
    ];
    for request in steps {
        let request = request.with_member_epoch(epoch);
        epoch += 1;
        assert_eq!(broker.send(&request).member_epoch, epoch, "{request:?}");
        assert_eq!(broker.state().1, epoch, "{request:?}");
        // The same values again.
        let again = request.clone().with_member_epoch(epoch);
        assert_eq!(broker.send(&again).member_epoch, epoch);
        assert_eq!(broker.state().1, epoch, "again: {request:?}");
    }
    // What the client's connection says is member metadata too.
    for client in [
        RequestContext::new("other-client", "/127.0.0.1"),
        RequestContext::new("other-client", "/10.0.0.9"),
    ] {
        broker.client = client;
        epoch += 1;
        assert_eq!(broker.send(&heartbeat("a", epoch - 1)).member_epoch, epoch);
        assert_eq!(broker.state().1, epoch);
    }
}

/// Spec 4.4: a steady heartbeat, the group epoch at the assignment epoch, computes no target and
/// so does not start the assignment interval again: a join long after the last assignment is
/// assigned at once.
#[test]
fn r42_a_steady_heartbeat_does_not_restart_the_assignment_interval() {
    let config = CoordinatorConfig {
        assignment_interval_ms: 1_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2)]));
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
    broker.now_ms = 5_000;
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    broker.now_ms = 5_500;
    assert_eq!(broker.send(&join("b")), answer("b", 3).tasks(NONE));
    assert_eq!(broker.state(), ("Reconciling".to_owned(), 3, 3));
}
