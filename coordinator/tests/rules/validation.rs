//! Validation of requests (R1-R18), authorization (R18, R34, R47).

use super::*;

#[test]
fn r1_blank_member_id_is_invalid_and_creates_nothing() {
    let mut broker = Broker::new();
    for blank in ["", "  "] {
        assert_eq!(
            broker.send(&join(blank)),
            refused(ERROR_INVALID_REQUEST, "MemberId can't be empty.")
        );
    }
    broker.assert_no_group();
}

#[test]
fn r3_join_without_rebalance_timeout_is_invalid_but_other_negative_values_pass() {
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&join("a").with_rebalance_timeout_ms(-1)),
        refused(
            ERROR_INVALID_REQUEST,
            "RebalanceTimeoutMs must be provided in first request."
        )
    );
    broker.assert_no_group();
    assert_eq!(
        broker.send(&join("a").with_rebalance_timeout_ms(-5)),
        answer("a", 2).tasks(BOTH)
    );
}

#[test]
fn r3_rebalance_timeout_is_checked_before_task_lists_and_topology() {
    let mut broker = Broker::new();
    let request = join("a")
        .with_rebalance_timeout_ms(-1)
        .with_active_tasks(None)
        .with_topology(None);
    assert_eq!(
        broker.send(&request),
        refused(
            ERROR_INVALID_REQUEST,
            "RebalanceTimeoutMs must be provided in first request."
        )
    );
}

#[test]
fn r4_join_task_lists_must_be_empty_and_refused_joins_write_nothing() {
    let mut broker = Broker::new();
    let cases = [
        (
            join("a").with_active_tasks(None),
            "ActiveTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_active_tasks(Some(task_ids(FIRST))),
            "ActiveTasks must be empty when (re-)joining.",
        ),
        (
            join("a")
                .with_active_tasks(None)
                .with_standby_tasks(None)
                .with_topology(None),
            "ActiveTasks must be empty when (re-)joining.",
        ),
        (
            join("b").with_standby_tasks(None),
            "StandbyTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_standby_tasks(Some(task_ids(FIRST))),
            "StandbyTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_warmup_tasks(None).with_topology(None),
            "WarmupTasks must be empty when (re-)joining.",
        ),
        (
            join("a").with_warmup_tasks(Some(task_ids(FIRST))),
            "WarmupTasks must be empty when (re-)joining.",
        ),
    ];
    for (request, message) in cases {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, message)
        );
    }
    broker.assert_no_group();
    assert_eq!(broker.send(&join("a")), answer("a", 2).tasks(BOTH));
}

#[test]
fn r7_member_epoch_below_minus_two_is_invalid_before_any_group_lookup() {
    let mut broker = Broker::new();
    for epoch in [-3, i32::MIN] {
        assert_eq!(
            broker.send(&heartbeat("a", epoch)),
            refused(
                ERROR_INVALID_REQUEST,
                &format!("MemberEpoch is {epoch}, but must be greater than or equal to -2.")
            )
        );
    }
    // Checked before the all-or-none (R9) and topology (R10) checks.
    let request = heartbeat("a", -3)
        .with_active_tasks(Some(Vec::new()))
        .with_topology(Some(topology_s()));
    assert_eq!(
        broker.send(&request),
        refused(
            ERROR_INVALID_REQUEST,
            "MemberEpoch is -3, but must be greater than or equal to -2."
        )
    );
    broker.assert_no_group();
}

#[test]
fn r7_refused_epoch_of_an_existing_member_changes_nothing() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&heartbeat("a", -3)),
        refused(
            ERROR_INVALID_REQUEST,
            "MemberEpoch is -3, but must be greater than or equal to -2."
        )
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

#[test]
fn r9_task_lists_are_all_null_or_all_non_null() {
    const MESSAGE: &str = "If one task-type is non-null, all must be non-null.";
    let mut broker = Broker::new();
    assert_eq!(
        broker.send(&heartbeat("a", 5).with_active_tasks(Some(Vec::new()))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    // Before the topology check (R10).
    let with_topology = heartbeat("a", 5)
        .with_active_tasks(Some(Vec::new()))
        .with_topology(Some(topology_s()));
    assert_eq!(
        broker.send(&with_topology),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    assert_eq!(
        broker.send(&leave("a").with_standby_tasks(Some(Vec::new()))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&heartbeat("a", 2).with_warmup_tasks(Some(Vec::new()))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    let warmup_null = heartbeat("a", 2)
        .with_active_tasks(Some(task_ids(BOTH)))
        .with_standby_tasks(Some(Vec::new()));
    assert_eq!(
        broker.send(&warmup_null),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    assert_eq!(
        broker.send(&owning(heartbeat("a", 2), BOTH)),
        answer("a", 2)
    );
}

#[test]
fn r10_topology_only_on_join() {
    const MESSAGE: &str = "Topology can only be provided when (re-)joining.";
    let mut broker = Broker::new();
    let with_topology = |request: Request| request.with_topology(Some(topology_s()));
    for request in [
        with_topology(heartbeat("a", 5)),
        with_topology(leave("a")),
        with_topology(static_leave("a", "i1")),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, MESSAGE)
        );
    }
    // The changelog check (R6) is a join check: an epoch-5 changelog count gets 42, not 130.
    let changelog = topology(
        0,
        vec![subtopology("0", &["in"])
            .with_state_changelog_topics(vec![internal_topic("chg").with_partitions(3)])],
    );
    assert_eq!(
        broker.send(&heartbeat("a", 5).with_topology(Some(changelog))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    broker.send(&join("a"));
    assert_eq!(
        broker.send(&with_topology(heartbeat("a", 2))),
        refused(ERROR_INVALID_REQUEST, MESSAGE)
    );
    assert_eq!(broker.send(&heartbeat("a", 2)), answer("a", 2));
}

fn with_regex(regex: &[&str]) -> Topology {
    topology(
        0,
        vec![subtopology("0", &["in"]).with_source_topic_regex(names(regex))],
    )
}

#[test]
fn r13_source_topic_regex_is_unsupported_before_the_structural_checks() {
    const MESSAGE: &str = "Regular expressions for source topics are not supported yet.";
    let mut broker = Broker::new();
    let changelog_3 = topology(
        0,
        vec![subtopology("0", &["in"])
            .with_source_topic_regex(names(&["a.*"]))
            .with_state_changelog_topics(vec![internal_topic("chg").with_partitions(3)])],
    );
    let regex_in_second = topology(
        0,
        vec![
            subtopology("0", &["in"]),
            subtopology("1", &[]).with_source_topic_regex(names(&["x.*"])),
        ],
    );
    for request in [
        join("a").with_topology(Some(with_regex(&["a.*"]))),
        join("a").with_topology(Some(regex_in_second)),
        join("").with_topology(Some(with_regex(&["a.*"]))),
        join("a")
            .with_group_id("")
            .with_topology(Some(with_regex(&["a.*"]))),
        heartbeat("a", 5).with_topology(Some(with_regex(&["a.*"]))),
        join("a").with_topology(Some(changelog_3)),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_INVALID_REQUEST, MESSAGE)
        );
    }
    broker.assert_no_group();
    assert_eq!(
        broker.send(&join("a").with_topology(Some(with_regex(&[])))),
        answer("a", 2).tasks(BOTH)
    );
}

#[test]
fn r16_kafka_internal_topics_are_prohibited_before_every_other_check() {
    let offsets = "Use of Kafka internal topics __consumer_offsets in a Kafka Streams topology is prohibited.";
    let mut broker = Broker::new();
    let internal = || Some(reading(&["__consumer_offsets"]));
    for request in [
        join("a").with_topology(internal()),
        heartbeat("a", 5).with_topology(internal()),
        leave("a").with_topology(internal()),
        join("").with_topology(internal()),
        join("a").with_group_id("").with_topology(internal()),
        heartbeat("a", -3).with_topology(internal()),
        // Before the topic-name check (R17).
        join("a").with_topology(Some(reading(&["bad topic", "__consumer_offsets"]))),
    ] {
        assert_eq!(
            broker.send(&request),
            refused(ERROR_STREAMS_INVALID_TOPOLOGY, offsets)
        );
    }
    broker.assert_no_group();
}

#[test]
fn r16_every_internal_topic_is_named_once_in_topology_order() {
    let both = "Use of Kafka internal topics __transaction_state,__consumer_offsets in a Kafka Streams topology is prohibited.";
    let mut broker = Broker::new();
    let sources = reading(&[
        "__transaction_state",
        "__consumer_offsets",
        "__consumer_offsets",
    ]);
    let sink_and_changelog = topology(
        0,
        vec![subtopology("0", &["in"])
            .with_repartition_sink_topics(names(&["__transaction_state"]))
            .with_state_changelog_topics(vec![internal_topic("__consumer_offsets")])],
    );
    for topology in [sources, sink_and_changelog] {
        assert_eq!(
            broker.send(&join("a").with_topology(Some(topology))),
            refused(ERROR_STREAMS_INVALID_TOPOLOGY, both)
        );
    }
    assert_eq!(
        broker.send(&join("a").with_topology(Some(reading(&["__share_group_state"])))),
        refused(
            ERROR_STREAMS_INVALID_TOPOLOGY,
            "Use of Kafka internal topics __share_group_state in a Kafka Streams topology is prohibited."
        )
    );
}

#[test]
fn r18_without_read_on_the_group_every_heartbeat_is_refused_bare() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.deny(Operation::Read, Resource::Group(GROUP.to_owned()));
    let refused_bare = left("", 0).with_error_code(ERROR_GROUP_AUTHORIZATION_FAILED);
    for request in [
        heartbeat("a", 2),
        join("b"),
        leave("a"),
        // Before every validation check (R1, R16).
        join(""),
        join("c").with_topology(Some(reading(&["__consumer_offsets"]))),
    ] {
        assert_eq!(broker.send(&request), refused_bare);
    }
    assert_eq!(broker.member_epochs(), [("a".to_owned(), 2)]);
    // Another group is not affected.
    let other_group = broker.send(&join("a").with_group_id("h"));
    assert_eq!(
        (other_group.error_code, other_group.member_epoch),
        (0, 2),
        "group h"
    );
}

#[test]
fn r18_topics_the_client_may_not_describe_refuse_a_topology_after_the_name_checks() {
    let mut broker = Broker::with(kafka_config(), topics(&[("in", 2), ("out", 2)]));
    broker.deny(Operation::Describe, Resource::Topic("out".to_owned()));
    let writes_out = topology(
        0,
        vec![subtopology("0", &["in"]).with_repartition_sink_topics(names(&["out"]))],
    );
    assert_eq!(
        broker.send(&join("a").with_topology(Some(writes_out))),
        left("", 0).with_error_code(ERROR_TOPIC_AUTHORIZATION_FAILED)
    );
    broker.assert_no_group();
    // The internal-topic check (R16) comes first.
    assert_eq!(
        broker.send(&join("a").with_topology(Some(reading(&["out", "__consumer_offsets"])))),
        refused(
            ERROR_STREAMS_INVALID_TOPOLOGY,
            "Use of Kafka internal topics __consumer_offsets in a Kafka Streams topology is prohibited."
        )
    );
    // Requests without a topology name no topic.
    broker.send(&join("a"));
    broker.deny(Operation::Describe, Resource::Topic("in".to_owned()));
    assert_eq!(broker.send(&heartbeat("a", 2)).error_code, 0);
}

#[test]
fn r34_internal_topics_the_client_may_not_create_are_left_out_and_named() {
    let mut broker = Broker::new();
    broker.deny(Operation::Create, Resource::Topic("r".to_owned()));
    // CREATE on the cluster allows every topic.
    join_through_missing_repartition_topic(&mut broker);

    let mut broker = Broker::new();
    broker.deny(Operation::Create, Resource::Cluster);
    broker.deny(Operation::Create, Resource::Topic("r".to_owned()));
    let (first, effects) = broker.exchange(
        1,
        &join("a").with_topology(Some(through_repartition_topic())),
    );
    assert_eq!(
        first,
        answer("a", 2).tasks(NONE).statuses(&[(
            3,
            "Internal topics are missing: r; Unauthorized to CREATE on topics r."
        )])
    );
    assert_eq!(effects, []);
}

#[test]
fn r47_describe_puts_refused_groups_first_and_withholds_groups_using_hidden_topics() {
    let mut broker = Broker::new();
    broker.send(&join("a"));
    broker.send(&join("a").with_group_id("h"));
    broker.deny(Operation::Describe, Resource::Group("h".to_owned()));
    let entries: Vec<(String, i16)> = broker
        .describe(&["missing", GROUP, "h"])
        .into_iter()
        .map(|entry| (entry.group_id, entry.error_code))
        .collect();
    assert_eq!(
        entries,
        [
            ("h".to_owned(), ERROR_GROUP_AUTHORIZATION_FAILED),
            ("missing".to_owned(), ERROR_GROUP_ID_NOT_FOUND),
            (GROUP.to_owned(), 0)
        ]
    );

    broker.deny(Operation::Describe, Resource::Topic("in".to_owned()));
    let withheld = broker.describe(&[GROUP]).remove(0);
    assert_eq!(
        withheld,
        describe::DescribedGroup::default()
            .with_group_id(GROUP.to_owned())
            .with_error_code(ERROR_TOPIC_AUTHORIZATION_FAILED)
            .with_error_message(Some(
                "The described group uses topics that the client is not authorized to describe."
                    .to_owned()
            ))
    );
    assert_eq!(withheld.authorized_operations, i32::MIN);
}

#[test]
fn r17_topic_names_must_be_legal_kafka_topic_names() {
    let mut broker = Broker::new();
    let longest_legal = "a".repeat(249);
    let too_long = "a".repeat(250);
    for illegal in [
        "bad topic",
        ".",
        "..",
        too_long.as_str(),
        "t\u{f6}pic",
        "a/b",
    ] {
        assert_eq!(
            broker.send(&join("a").with_topology(Some(reading(&[illegal])))),
            refused(
                ERROR_STREAMS_INVALID_TOPOLOGY,
                &format!("Topic names {illegal} are not valid topic names.")
            ),
            "{illegal:?}"
        );
    }
    broker.assert_no_group();
    // Legal, though missing: the join is accepted (each by a group of its own).
    for legal in [longest_legal.as_str(), "a.b_c-D9"] {
        let answer = Broker::new().send(&join("a").with_topology(Some(reading(&[legal]))));
        assert_eq!(
            (answer.error_code, answer.member_epoch),
            (0, 2),
            "{legal:?}"
        );
    }
}
