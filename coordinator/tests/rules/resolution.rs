//! Group and member resolution (R19-R24).

use super::*;

#[test]
fn r19_a_consumer_groups_id_is_not_a_streams_group() {
    let mut broker = Broker::new();
    broker.coordinator.add_consumer_group(GROUP);
    let not_streams = refused(ERROR_GROUP_ID_NOT_FOUND, "Group g is not a streams group.");
    for request in [
        join("a"),
        heartbeat("a", 3),
        leave("a"),
        static_leave("a", "i-a"),
    ] {
        assert_eq!(broker.send(&request), not_streams);
    }
    // Validation comes first.
    assert_eq!(
        broker.send(&join("")),
        refused(ERROR_INVALID_REQUEST, "MemberId can't be empty.")
    );
    let described = broker.describe(&[GROUP]).remove(0);
    assert_eq!(
        (described.error_code, described.error_message.as_deref()),
        (
            ERROR_GROUP_ID_NOT_FOUND,
            Some("Group g is not a streams group.")
        )
    );
}

#[test]
fn r20_heartbeat_or_leave_on_a_missing_group_is_group_id_not_found() {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&heartbeat("a", 3)),
        refused(ERROR_GROUP_ID_NOT_FOUND, "Streams group g not found.")
    );
    // 4.4.0 words the leave answers without "Streams".
    for request in [leave("a"), static_leave("a", "i-a")] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_GROUP_ID_NOT_FOUND, "Group g not found.")
        );
    }
    broker.assert_no_group();
}

#[test]
fn r21_unknown_member_is_refused_and_the_group_is_untouched() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    for request in [heartbeat("x", 3), heartbeat("x", 2), leave("x")] {
        assert_eq!(broker.send(&request), not_a_member("x"));
    }
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r23_greater_epoch_is_fenced_and_writes_nothing() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(broker.send(&heartbeat("a", 3)), fenced("greater", 3, 2));
    assert_eq!(broker.send(&heartbeat("a", 100)), fenced("greater", 100, 2));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), BOTH)),
        fenced("greater", 3, 2)
    );
    assert_eq!(
        broker.view(),
        group("Stable", 2, 2, vec![member("a", 2, BOTH, BOTH)])
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r24_previous_epoch_with_owned_subset_is_tolerated() {
    let mut broker = rebalanced_pair();
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), FIRST)),
        answer("a", 3)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), NONE)),
        answer("a", 3)
    );
    assert_eq!(broker.view(), settled_pair());
    assert_eq!(broker.send(&heartbeat("a", 3)), answer("a", 3));
}

#[test]
fn r24_smaller_epoch_otherwise_is_fenced() {
    let mut broker = rebalanced_pair();
    let cases = [
        // previous epoch - 1
        (owning(heartbeat("a", 1), FIRST), 1),
        // task 1 is b's
        (owning(heartbeat("a", 2), SECOND), 2),
        // a superset of a's assignment
        (owning(heartbeat("a", 2), BOTH), 2),
        // 4.4.0: null owned lists do not make a previous-epoch heartbeat acceptable
        (heartbeat("a", 2), 2),
        // each type is held to the assignment: a standby or a warm-up a was not given
        (
            owning(heartbeat("a", 2), FIRST).with_standby_tasks(Some(task_ids(SECOND))),
            2,
        ),
        (
            owning(heartbeat("a", 2), FIRST).with_warmup_tasks(Some(task_ids(SECOND))),
            2,
        ),
        (
            owning(heartbeat("a", 2), FIRST)
                .with_standby_tasks(Some(task_ids(SECOND)))
                .with_warmup_tasks(Some(task_ids(SECOND))),
            2,
        ),
    ];
    for (request, epoch) in cases {
        assert_eq!(broker.send(&request), fenced("smaller", epoch, 3));
    }
    assert_eq!(broker.view(), settled_pair());
}

/// R24, as Kafka 4.4.0 answered a differential campaign: a member asked to revoke a task stays at
/// its epoch and its previous epoch moves up to it (Kafka's `updateMemberEpoch`), so a request
/// at the epoch before is fenced even when it owns a subset of the assignment. The reference
/// had kept the older previous epoch and accepted it.
#[test]
fn r24_a_member_asked_to_revoke_no_longer_tolerates_its_previous_epoch() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 4)]));
    let (first_two, first): (Tasks, Tasks) = (&[("0", &[0, 1])], &[("0", &[0])]);
    broker.send(&join("a"));
    broker.send(&join("b"));
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), &[("0", &[0, 1, 2, 3])])),
        answer("a", 2).tasks(first_two)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), first_two)),
        answer("a", 3)
    );
    broker.send(&join("c"));
    // a moves from 3 to 4 keeping its tasks: 3 is its previous epoch, tolerated.
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), first_two)),
        answer("a", 4)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), first)),
        answer("a", 4)
    );
    broker.send(&join("d"));
    // d's target takes task 1 from a: a stays at 4, asked to revoke it.
    assert_eq!(
        broker.send(&owning(heartbeat("a", 4), first_two)),
        answer("a", 4).tasks(first)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 3), first)),
        fenced("smaller", 3, 4)
    );
    assert_eq!(broker.view().members[0], member("a", 4, first, first));
}
