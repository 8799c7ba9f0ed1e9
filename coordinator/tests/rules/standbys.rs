//! Standby tasks: placement, promotion and demotion (R27, R41).

use super::*;

/// Kafka's default configs with one standby replica; topics `in` and `c`, 2 partitions each.
fn with_one_standby() -> Broker {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        ..kafka_config()
    };
    Broker::with(config, topics(&[("in", 2), ("c", 2)]))
}

/// Join(m) with S made stateful: its changelog topic is `c`.
fn join_stateful(member: &str) -> Request {
    let stateful = topology(
        0,
        vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
    );
    join(member).with_topology(Some(stateful))
}

#[test]
fn r41_one_standby_per_stateful_task_on_the_other_process() {
    let mut broker = with_one_standby();
    // One process: no standbys.
    assert_eq!(broker.send(&join_stateful("a")), answer("a", 2).tasks(BOTH));
    // b's active task waits for a; its standby task, which its process does not hold, does not.
    assert_eq!(
        broker.send(&join_stateful("b")),
        answer("b", 3).tasks(NONE).standbys(FIRST)
    );
    // a's active task 1 becomes its standby in the same answer (R27).
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).tasks(FIRST).standbys(SECOND)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND).standbys(FIRST)
    );
    let holding = |id: &str, active: Tasks, standby: Tasks| MemberView {
        id: id.to_owned(),
        epoch: 3,
        assignment: [task_list(active), task_list(standby), Vec::new()],
        target: [task_list(active), task_list(standby), Vec::new()],
    };
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![holding("a", FIRST, SECOND), holding("b", SECOND, FIRST)]
        )
    );
}

/// R27, R30, as Kafka 4.4.0 answered a broker campaign: b goes silent, its rejoin is refused (a
/// topology update), and its session expires 6000 ms after its last successful heartbeat, the
/// refused one not counting. a, holding the standby of b's active task, then moves to the next
/// epoch with both tasks active at once: its standby is promoted in place, not revoked first
/// (the reference had kept a at its epoch, revoking the standby).
#[test]
fn r27_a_standby_is_promoted_in_place_when_the_active_holder_times_out() {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        session_timeout_ms: 6_000,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[]));
    let stateful = |epoch: i32| {
        topology(
            epoch,
            vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
        )
    };
    let join_stateful = |member: &str| join(member).with_topology(Some(stateful(0)));
    // Both join before the source topic exists, so nobody holds a task when the first target
    // is computed and no active task is revoked on the way.
    let missing = [(1, "Source topics in are missing.")];
    assert_eq!(
        broker.send(&join_stateful("a")),
        answer("a", 2).tasks(NONE).statuses(&missing)
    );
    assert_eq!(
        broker.send(&join_stateful("b")),
        answer("b", 3).tasks(NONE).statuses(&missing)
    );
    broker
        .coordinator
        .handle_metadata(topics(&[("in", 2), ("c", 2)]));
    broker.now_ms = 100;
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 4).tasks(SECOND).standbys(FIRST)
    );
    broker.now_ms = 200;
    assert_eq!(
        broker.send(&owning(heartbeat("b", 3), NONE)),
        answer("b", 4).tasks(FIRST).standbys(SECOND)
    );
    let a_owning = |epoch: i32| {
        owning(heartbeat("a", epoch), SECOND).with_standby_tasks(Some(task_ids(FIRST)))
    };
    broker.now_ms = 500;
    assert_eq!(broker.send(&a_owning(4)), answer("a", 4));

    // b's rejoin with a new topology epoch is refused and leaves its session timer at 200 + 6000.
    broker.now_ms = 1_000;
    assert_eq!(
        broker.send(&join("b").with_topology(Some(stateful(1)))),
        refused(
            ERROR_INVALID_REQUEST,
            "Topology updates are not supported yet."
        )
    );
    broker.now_ms = 3_000;
    assert_eq!(broker.send(&a_owning(4)), answer("a", 4));
    assert_eq!(broker.coordinator.next_deadline(), Some(6_200));
    assert_eq!(broker.coordinator.handle_timeout(6_199), []);
    assert_eq!(
        broker.coordinator.handle_timeout(6_200),
        [Effect::MemberRemoved {
            group_id: GROUP.to_owned(),
            member_id: "b".to_owned(),
            reason: RemovalReason::SessionTimeout,
        }]
    );
    let holding = |epoch: i32, active: Tasks, standby: Tasks| MemberView {
        id: "a".to_owned(),
        epoch,
        assignment: [task_list(active), task_list(standby), Vec::new()],
        target: [task_list(active), task_list(standby), Vec::new()],
    };
    assert_eq!(
        broker.view(),
        group("Assigning", 5, 4, vec![holding(4, SECOND, FIRST)])
    );
    assert_eq!(broker.coordinator.next_deadline(), Some(9_000));

    // a still reports its standby of task 0: it gets task 0 as active and the next epoch at once.
    broker.now_ms = 6_300;
    assert_eq!(broker.send(&a_owning(4)), answer("a", 5).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 5, 5, vec![holding(5, BOTH, NONE)])
    );
}

/// Members a (p-a) and b (p-b) of a stateful topology with one standby replica, settled: a holds
/// active 0 and standby 1, b active 1 and standby 0.
fn settled_standby_pair() -> Broker {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2), ("c", 2)]));
    for member in ["a", "b"] {
        broker.send(&stateful_join(member));
    }
    broker.send(&heartbeat("a", 2));
    broker.send(&owning(heartbeat("a", 2), FIRST).with_standby_tasks(Some(task_ids(SECOND))));
    broker.send(&heartbeat("b", 3));
    broker
}

/// Join(m) with a topology whose subtopology "0" has changelog `c`.
fn stateful_join(member: &str) -> Request {
    join(member).with_topology(Some(topology(
        0,
        vec![subtopology("0", &["in"]).with_state_changelog_topics(vec![internal_topic("c")])],
    )))
}

/// A member's assignment and target, both `active` and `standby`, at `epoch`.
fn holding(id: &str, epoch: i32, active: Tasks, standby: Tasks) -> MemberView {
    MemberView {
        id: id.to_owned(),
        epoch,
        assignment: [task_list(active), task_list(standby), Vec::new()],
        target: [task_list(active), task_list(standby), Vec::new()],
    }
}

#[test]
fn r27_an_active_task_demoted_to_standby_is_granted_while_its_revocation_is_pending() {
    let config = CoordinatorConfig {
        num_standby_replicas: 1,
        ..kafka_config()
    };
    let mut broker = Broker::with(config, topics(&[("in", 2), ("c", 2)]));
    assert_eq!(broker.send(&stateful_join("a")), answer("a", 2).tasks(BOTH));
    assert_eq!(
        broker.send(&stateful_join("b")),
        answer("b", 3).tasks(NONE).standbys(FIRST)
    );
    // Kafka 4.4.0 (CurrentAssignmentBuilder.demoteActiveTasksToStandby): a keeps epoch 2 and
    // revokes active 1, and holds 1 as a standby already.
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 2).tasks(FIRST).standbys(SECOND)
    );
    // Still running 1 as active: no confirmation, whatever its standby list says.
    let reporting = |active: Tasks| {
        owning(heartbeat("a", 2), active).with_standby_tasks(Some(task_ids(SECOND)))
    };
    assert_eq!(broker.send(&reporting(BOTH)), answer("a", 2));
    // R28: b does not get active 1 while a has not confirmed.
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 3));
    // Standby 1 reported beside active 0 confirms the revocation of active 1: revocation is
    // checked per task type.
    assert_eq!(broker.send(&reporting(FIRST)), answer("a", 3));
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND).standbys(FIRST)
    );
    assert_eq!(
        broker.view(),
        group(
            "Stable",
            3,
            3,
            vec![
                holding("a", 3, FIRST, SECOND),
                holding("b", 3, SECOND, FIRST)
            ]
        )
    );
}

#[test]
fn r27_a_standby_promoted_to_active_is_replaced_in_one_answer() {
    let mut broker = settled_standby_pair();
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    // a's standby 1 becomes active 1 at once, with no revocation round (Kafka 4.4.0,
    // CurrentAssignmentBuilder.applyPromotionsToActive).
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 4).tasks(BOTH));
    assert_eq!(
        broker.view(),
        group("Stable", 4, 4, vec![holding("a", 4, BOTH, NONE)])
    );
}

/// R27: a standby the target no longer has is revoked like an active task. The member keeps its
/// epoch while it still reports the standby, and moves on once it has given it up (spec 4.3:
/// the owned lists are compared with the pending revocation type by type).
#[test]
fn r27_a_revoked_standby_holds_the_epoch_until_the_member_gives_it_up() {
    let mut broker = with_one_standby();
    broker.send(&join_stateful("a"));
    broker.send(&join_stateful("b"));
    broker.send(&heartbeat("a", 2));
    broker.send(&owning(heartbeat("a", 2), FIRST));
    broker.send(&heartbeat("b", 3));
    let with_standby =
        |request: Request, standby: Tasks| request.with_standby_tasks(Some(task_ids(standby)));
    // a holds active 0 and the standby of 1; standbys are then turned off.
    broker
        .coordinator
        .set_group_config(GROUP, "streams.num.standby.replicas", "0")
        .unwrap();
    // The next heartbeat bumps the group epoch; a keeps 3, told to drop its standby.
    let still_holding = with_standby(owning(heartbeat("a", 3), FIRST), SECOND);
    assert_eq!(
        broker.send(&still_holding),
        answer("a", 3).tasks(FIRST).standbys(NONE)
    );
    // Still reporting it: the revocation is not confirmed.
    assert_eq!(broker.send(&still_holding), answer("a", 3));
    assert_eq!(broker.view().members[0], member("a", 3, FIRST, FIRST));
    // Given up: a moves to the group's epoch.
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), FIRST)),
        answer("a", 4)
    );
    assert_eq!(broker.state(), ("Reconciling".to_owned(), 4, 4));
}

/// R41 with process ids whose Java hashes are equal ("Aa" and "BB" both hash to 2112): they are
/// still two processes, so each holds the standby of the other's active task.
#[test]
fn r41_processes_whose_ids_share_a_java_hash_are_still_two() {
    let mut broker = with_one_standby();
    let join_on = |member: &str, process: &str| {
        join_stateful(member).with_process_id(Some(process.to_owned()))
    };
    assert_eq!(broker.send(&join_on("a", "Aa")), answer("a", 2).tasks(BOTH));
    assert_eq!(
        broker.send(&join_on("b", "BB")),
        answer("b", 3).tasks(NONE).standbys(FIRST)
    );
}
