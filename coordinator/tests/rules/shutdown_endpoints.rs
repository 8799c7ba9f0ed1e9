//! Shutdown requests (R43-R45), endpoint information (R46), static metadata and the group epoch
//! (R49).

use super::*;

/// A cluster whose topic `in` has one partition: a keeps the task, b stays idle, no revocation.
fn one_task_broker() -> Broker {
    Broker::with(kafka_config(), topics(&[("in", 1)]))
}

#[test]
fn r43_shutdown_request_reaches_every_member_without_epoch_change() {
    let mut broker = one_task_broker();
    let shutdown = [(4, SHUTDOWN_BY_A)];
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(FIRST));
    assert_eq!(broker.send(&join("b")), answer("b", 3).tasks(NONE));
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 3));

    // A refused request does not record the flag.
    assert_eq!(
        broker.send(&heartbeat("b", 7).with_shutdown_application(true)),
        fenced("greater", 7, 3)
    );
    assert_eq!(broker.send(&heartbeat("b", 3)), answer("b", 3));

    assert_eq!(
        broker.send(&heartbeat("a", 3).with_shutdown_application(true)),
        answer("a", 3).statuses(&shutdown)
    );
    let settled = group(
        "Stable",
        3,
        3,
        vec![member("a", 3, FIRST, FIRST), member("b", 3, NONE, NONE)],
    );
    assert_eq!(broker.view(), settled);
    for request in [heartbeat("b", 3), heartbeat("a", 3), heartbeat("b", 3)] {
        let member_id = request.member_id.clone();
        assert_eq!(
            broker.send(&request),
            answer(&member_id, 3).statuses(&shutdown)
        );
    }
    assert_eq!(broker.view(), settled);
}

#[test]
fn r43_shutdown_status_comes_after_stale_and_configuration_statuses() {
    let mut broker = Broker::with(kafka_config(), topics(&[]));
    broker.send(&join("a").with_topology(Some(topology_s().with_epoch(1))));
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_shutdown_application(true)),
        answer("a", 2).statuses(&[(1, "Source topics in are missing."), (4, SHUTDOWN_BY_A)])
    );
    assert_eq!(
        broker.send(&join("b")),
        answer("b", 3).tasks(NONE).statuses(&[
            (
                0,
                "The member's topology epoch 0 is behind the group's topology epoch 1."
            ),
            (1, "Source topics in are missing."),
            (4, SHUTDOWN_BY_A),
        ])
    );
}

#[test]
fn r44_shutdown_request_is_forgotten_once_the_group_is_empty() {
    let mut broker = one_task_broker();
    broker.send(&join("a"));
    broker.send(&join("b"));
    broker.send(&heartbeat("a", 2).with_shutdown_application(true));
    assert_eq!(broker.send(&leave("a")), left("a", -1));
    // The request outlives its requester while the group is not empty.
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 4).tasks(FIRST).statuses(&[(4, SHUTDOWN_BY_A)])
    );
    assert_eq!(broker.send(&leave("b")), left("b", -1));
    assert_eq!(broker.view(), group("Empty", 5, 5, Vec::new()));
    assert_eq!(broker.send(&join("c")), answer("c", 6).tasks(FIRST));
    assert_eq!(broker.send(&heartbeat("c", 6)), answer("c", 6));
}

#[test]
fn r45_shutdown_on_leave_is_seen_by_the_remaining_members() {
    let mut broker = one_task_broker();
    broker.send(&join("a"));
    broker.send(&join("b"));
    assert_eq!(
        broker.send(&leave("b").with_shutdown_application(true)),
        left("b", -1)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2)),
        answer("a", 4).statuses(&[(
            4,
            "Streams group member b encountered a fatal error and requested a shutdown for the entire application."
        )])
    );
}

/// R44 as Kafka 4.4.0 answered a broker campaign (seed 1, run 464): a static member taking the
/// place of the group's only member, released at -2, makes Kafka forget a shutdown request. It
/// writes the replacement as the released member's tombstones, then the new member's records,
/// and replaying the tombstones leaves its member map empty for a moment. The replacement's own
/// answer, built before the replay, still carries the status; the next answers do not. With
/// another member in the group the map never empties, and the request stays.
#[test]
fn r44_a_replacement_of_the_only_member_forgets_the_shutdown_request() {
    let mut broker = Broker::new();
    let shutdown = [(4, SHUTDOWN_BY_A)];
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_shutdown_application(true)),
        answer("a", 2).statuses(&shutdown)
    );
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH).statuses(&shutdown)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
    assert_eq!(broker.send(&join("c")), answer("c", 3).tasks(NONE));
    assert_eq!(broker.state(), ("Reconciling".to_owned(), 3, 3));

    let mut broker = Broker::new();
    broker.send(&static_join("a", "i1"));
    assert_eq!(broker.send(&join("b")), answer("b", 3).tasks(NONE));
    broker.send(&heartbeat("a", 2).with_shutdown_application(true));
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    // a rejoins owning nothing, so it keeps task 0 of the target at epoch 3 and frees task 1.
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 3).tasks(FIRST).statuses(&shutdown)
    );
    assert_eq!(
        broker.send(&heartbeat("b", 3)),
        answer("b", 3).tasks(SECOND).statuses(&shutdown)
    );
}

/// The endpoint map entry of a member at h:8080 holding both tasks of topic `in`.
fn endpoint_h_serving_both_tasks() -> response::EndpointToPartitions {
    response::EndpointToPartitions::default()
        .with_user_endpoint(response::Endpoint::default().with_host("h").with_port(8080))
        .with_active_partitions(vec![response::TopicPartition::default()
            .with_topic("in")
            .with_partitions(vec![0, 1])])
        .with_standby_partitions(Vec::new())
}

#[test]
fn r46_group_creating_join_gets_endpoint_epoch_0_and_the_partitions_by_endpoint() {
    let mut broker = Broker::new();
    let with_endpoint = join("a")
        .with_user_endpoint(Some(Endpoint::default().with_host("h").with_port(8080)))
        .with_endpoint_information_epoch(-1);
    let partitions = endpoint_h_serving_both_tasks();
    assert_eq!(
        broker.send(&with_endpoint),
        answer("a", 2)
            .tasks(BOTH)
            .with_endpoint_information_epoch(0)
            .with_partitions_by_user_endpoint(Some(vec![partitions.clone()]))
    );
    // Echoing the epoch: nothing changed, nothing sent.
    let echo = |epoch: i32| heartbeat("a", 2).with_endpoint_information_epoch(epoch);
    assert_eq!(broker.send(&echo(0)), answer("a", 2));
    // Another epoch gets the map again.
    assert_eq!(
        broker.send(&echo(-1)),
        answer("a", 2).with_partitions_by_user_endpoint(Some(vec![partitions]))
    );
}

/// What Kafka 4.4.0 answered (found by a differential campaign, then asked of the broker step by
/// step): the creating join sends the map whatever epoch the member has; the group's epoch is 0
/// after it, and a rejoin that keeps the member's tasks leaves it there.
#[test]
fn r46_endpoint_epoch_after_the_creating_join_and_a_rejoin() {
    let mut broker = Broker::new();
    let with_endpoint = join("a")
        .with_user_endpoint(Some(Endpoint::default().with_host("h").with_port(8080)))
        .with_endpoint_information_epoch(0);
    let partitions = endpoint_h_serving_both_tasks();
    assert_eq!(
        broker.send(&with_endpoint),
        answer("a", 2)
            .tasks(BOTH)
            .with_partitions_by_user_endpoint(Some(vec![partitions.clone()]))
    );
    assert_eq!(broker.send(&with_endpoint), answer("a", 2).tasks(BOTH));
    let echo = |epoch: i32| heartbeat("a", 2).with_endpoint_information_epoch(epoch);
    assert_eq!(broker.send(&echo(0)), answer("a", 2));
    assert_eq!(
        broker.send(&echo(1)),
        answer("a", 2).with_partitions_by_user_endpoint(Some(vec![partitions]))
    );
}

/// R46, as Kafka 4.4.0 builds the map (found by a differential campaign): a topic lists the
/// member's task numbers it has a partition for, and a topic with none of them is left out.
#[test]
fn r46_the_map_lists_only_partitions_a_topic_has() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("small", 1)]));
    let at = |port: u16| Some(Endpoint::default().with_host("h").with_port(port));
    let reads_both = reading(&["in", "small"]);
    let join_at = |member: &str, port: u16| {
        join(member)
            .with_topology(Some(reads_both.clone()))
            .with_user_endpoint(at(port))
    };
    for request in [
        join_at("a", 8080),
        join_at("b", 8081),
        heartbeat("a", 2),
        owning(heartbeat("a", 2), FIRST),
        heartbeat("b", 3),
    ] {
        assert_eq!(broker.send(&request).error_code, 0);
    }
    let entry = |port: u16, topics: &[(&str, &[i32])]| {
        response::EndpointToPartitions::default()
            .with_user_endpoint(response::Endpoint::default().with_host("h").with_port(port))
            .with_active_partitions(
                topics
                    .iter()
                    .map(|(topic, partitions)| {
                        response::TopicPartition::default()
                            .with_topic(*topic)
                            .with_partitions(partitions.to_vec())
                    })
                    .collect(),
            )
            .with_standby_partitions(Vec::new())
    };
    let map = broker
        .send(&heartbeat("b", 3).with_endpoint_information_epoch(-1))
        .partitions_by_user_endpoint;
    assert_eq!(
        map,
        Some(vec![
            entry(8080, &[("in", &[0]), ("small", &[0])]),
            entry(8081, &[("in", &[1])]),
        ])
    );
}

/// R46, R49, as Kafka 4.4.0 answered a broker campaign: the endpoint epoch moves when the
/// member's endpoint differs from the one it had, or its tasks changed and it has an endpoint. A
/// replacement is compared with the released member, so taking its place with its endpoint and
/// tasks moves nothing (the reference had moved the epoch on every join with an endpoint).
#[test]
fn r46_endpoint_epoch_moves_with_a_new_endpoint_not_with_a_static_replacement() {
    let mut broker = Broker::new();
    let at = |port: u16| Some(Endpoint::default().with_host("h").with_port(port));
    let partitions_at = |port: u16| {
        endpoint_h_serving_both_tasks()
            .with_user_endpoint(response::Endpoint::default().with_host("h").with_port(port))
    };
    assert_eq!(
        broker.send(&static_join("a", "i1").with_user_endpoint(at(8080))),
        answer("a", 2)
            .tasks(BOTH)
            .with_partitions_by_user_endpoint(Some(vec![partitions_at(8080)]))
    );
    assert_eq!(broker.send(&static_leave("a", "i1")), left("a", -2));
    let replacing = static_join("b", "i1")
        .with_process_id(Some("p-a".to_owned()))
        .with_user_endpoint(at(8080));
    assert_eq!(broker.send(&replacing), answer("b", 2).tasks(BOTH));
    // Only the endpoint changes: endpoint epoch 1, and the map, since b's copy is from epoch 0.
    // An endpoint is no field that bumps the group epoch for a static member (spec 3.1 step 4).
    let moved = heartbeat("b", 2)
        .with_instance_id(Some("i1".to_owned()))
        .with_user_endpoint(at(9090));
    assert_eq!(
        broker.send(&moved),
        answer("b", 2)
            .with_endpoint_information_epoch(1)
            .with_partitions_by_user_endpoint(Some(vec![partitions_at(9090)]))
    );
    assert_eq!(
        broker.send(&heartbeat("b", 2).with_endpoint_information_epoch(1)),
        answer("b", 2).with_endpoint_information_epoch(1)
    );
    assert_eq!(broker.state(), ("Stable".to_owned(), 2, 2));
}

/// Spec 3.1 step 4, as Kafka 4.4.0 answers it: a request with an instance id bumps the group
/// epoch only for a new topology epoch, rack, client tags or process; a dynamic member's
/// request for any change of its metadata.
#[test]
fn r49_only_assignment_relevant_metadata_of_a_static_member_bumps_the_group_epoch() {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&static_join("a", "i1")),
        answer("a", 2).tasks(BOTH)
    );
    let static_heartbeat = || heartbeat("a", 2).with_instance_id(Some("i1".to_owned()));
    broker.send(&static_heartbeat().with_rebalance_timeout_ms(1_000));
    broker.client = RequestContext::new("other-client", "/127.0.0.2");
    broker.send(&static_heartbeat());
    assert_eq!(broker.state(), ("Stable".to_owned(), 2, 2));
    assert_eq!(
        broker.send(&static_heartbeat().with_rack_id(Some("r1".to_owned()))),
        answer("a", 3)
    );
    assert_eq!(broker.state(), ("Stable".to_owned(), 3, 3));

    // A dynamic member: a new client id alone bumps it.
    assert_eq!(broker.send(&join("b")), answer("b", 4).tasks(NONE));
    broker.client = context();
    broker.send(&heartbeat("b", 4));
    assert_eq!(broker.state().1, 5);
}
