//! `streamspec proxy` judging the tasks a broker assigns against the partition counts its
//! Metadata answers show, and, with `--settled-at-exit`, whether each group has settled when it
//! stops: a fake broker behind it answers what each test needs.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use kafka_protocol::messages::metadata_response::{
    MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::messages::{MetadataRequest, MetadataResponse, TopicName};
use kafka_protocol::protocol::{Encodable, StrBytes};
use streamspec_protocol::kafka::streams_group_describe_response::{
    Assignment, DescribedGroup, Member,
};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};
use streamspec_protocol::kafka::streams_group_heartbeat_response::TaskIds;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

mod live;
use live::{
    fresh_folder, read_frame, request, start_proxy, verdict_of, wrong_broker, BINARY, CLIENT_ID,
    VERSION,
};

/// Metadata's version in these tests: flexible, so its answer header is v1 as [`live::answer`]
/// writes it.
const METADATA_VERSION: i16 = 12;
const SETTLES: &str = "eventually: the group settles with every task owned once";
const TASKS_EXIST: &str = "always: assigned tasks exist in the topology";

/// A Metadata request frame for topic `in`.
fn metadata_request(correlation_id: i32) -> Vec<u8> {
    let mut body = bytes::BytesMut::new();
    kafka_protocol::messages::RequestHeader::default()
        .with_request_api_key(3)
        .with_request_api_version(METADATA_VERSION)
        .with_correlation_id(correlation_id)
        .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)))
        .encode(&mut body, 2)
        .unwrap();
    MetadataRequest::default()
        .encode(&mut body, METADATA_VERSION)
        .unwrap();
    live::with_size(body)
}

/// A Metadata answer showing topic `in` with `partitions` partitions.
fn metadata_answer(partitions: usize) -> Vec<u8> {
    let topic = MetadataResponseTopic::default()
        .with_name(Some(TopicName(StrBytes::from_static_str("in"))))
        .with_partitions(vec![MetadataResponsePartition::default(); partitions]);
    let mut body = bytes::BytesMut::new();
    MetadataResponse::default()
        .with_topics(vec![topic])
        .encode(&mut body, METADATA_VERSION)
        .unwrap();
    body.to_vec()
}

/// A heartbeat of `member` in `group` at `epoch`; a join (epoch 0) carries the topology of one
/// subtopology `0` reading topic `in`.
fn heartbeat(group: &str, member: &str, epoch: i32) -> StreamsGroupHeartbeatRequest {
    let request = StreamsGroupHeartbeatRequest::default()
        .with_group_id(group)
        .with_member_id(member)
        .with_member_epoch(epoch);
    if epoch != 0 {
        return request;
    }
    request.with_topology(Some(Topology::default().with_subtopologies(
        vec![Subtopology::default()
            .with_subtopology_id("0")
            .with_source_topics(vec!["in".to_owned()])],
    )))
}

/// An answer to `member` at `epoch` with active tasks `0_p` for each of `active`; `None`: the
/// task lists are unchanged (null).
fn told(member: &str, epoch: i32, active: Option<&[i32]>) -> Vec<u8> {
    let mut response = StreamsGroupHeartbeatResponse::default()
        .with_member_id(member)
        .with_member_epoch(epoch)
        .with_heartbeat_interval_ms(5000);
    if let Some(active) = active {
        let tasks = vec![TaskIds::default()
            .with_subtopology_id("0")
            .with_partitions(active.to_vec())];
        response = response
            .with_active_tasks(Some(tasks))
            .with_standby_tasks(Some(Vec::new()))
            .with_warmup_tasks(Some(Vec::new()));
    }
    response.encode_to_vec(VERSION).unwrap()
}

/// The answer to a member's leave.
fn left(member: &str) -> Vec<u8> {
    StreamsGroupHeartbeatResponse::default()
        .with_member_id(member)
        .with_member_epoch(-1)
        .encode_to_vec(VERSION)
        .unwrap()
}

/// Sends each request in turn through the proxy at `listen`, reading each answer; then lets
/// the proxy run out its 3 s and returns its exit code, stderr and JSON report.
fn run(
    listen: &str,
    requests: &[Vec<u8>],
    mut proxy: std::process::Child,
    mut stderr: impl Read,
    folder: &std::path::Path,
) -> (Option<i32>, String, serde_json::Value) {
    let mut client = TcpStream::connect(listen).unwrap();
    client
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    for sent in requests {
        client.write_all(sent).unwrap();
        read_frame(&mut client).expect("an answer");
    }
    drop(client);
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = proxy.wait().unwrap();
    let report = std::fs::read_to_string(folder.join("report.json")).unwrap();
    (status.code(), rest, serde_json::from_str(&report).unwrap())
}

/// The reason the JSON report gives the property labelled `label`.
fn reason_of(json: &serde_json::Value, label: &str) -> String {
    json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|outcome| outcome["scenario"] == label)
        .and_then(|outcome| outcome["reason"].as_str())
        .unwrap_or_default()
        .to_owned()
}

/// `streamspec replay` of `trace`: exit code and stdout.
fn replay(trace: &std::path::Path) -> (Option<i32>, String) {
    let replayed = Command::new(BINARY)
        .arg("replay")
        .arg(trace)
        .output()
        .unwrap();
    (
        replayed.status.code(),
        String::from_utf8(replayed.stdout).unwrap(),
    )
}

#[test]
fn a_task_beyond_the_partition_count_breaks_assigned_tasks_exist() {
    let folder = fresh_folder("live-tasks-exist");
    // Topic `in` has 2 partitions, yet `a` is given task 0_2.
    let upstream = wrong_broker(vec![
        metadata_answer(2),
        told("a", 1, Some(&[0, 1, 2])),
        told("a", 1, None),
    ]);
    let (proxy, stderr, listen) = start_proxy(&upstream, &folder, &[]);
    let requests = [
        metadata_request(1),
        request(88, 2, &heartbeat("g", "a", 0)),
        request(88, 3, &heartbeat("g", "a", 1)),
    ];
    let (code, rest, json) = run(&listen, &requests, proxy, stderr, &folder);
    assert_eq!(code, Some(1), "{rest}");
    let violation = "always: assigned tasks exist in the topology (spec 4.6-8) in group g, member a: task 0_2; the subtopology has 2 tasks\n";
    assert!(
        rest.contains(&format!("streamspec proxy: VIOLATION {violation}")),
        "{rest}"
    );
    assert_eq!(rest.matches("VIOLATION").count(), 1, "{rest}");
    assert_eq!(verdict_of(&json, TASKS_EXIST).as_deref(), Some("fail"));
    assert_eq!(
        reason_of(&json, TASKS_EXIST),
        format!(
            "group g: task 0_2; the subtopology has 2 tasks (1 times); replay: streamspec replay {}",
            folder.join("streamspec-live-1-g.json").display()
        )
    );
    // Without the flag the group's settling is not judged, and the reason says how it would be.
    assert_eq!(verdict_of(&json, SETTLES).as_deref(), Some("skip"));
    assert_eq!(
        reason_of(&json, SETTLES),
        "not judged live: needs to know when faults stop: declare the groups settled when the proxy stops with --settled-at-exit"
    );

    // The trace holds the topic's count, so that replay judges the tasks as the proxy did.
    let trace = folder.join("streamspec-live-1-g.json");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert_eq!(recorded["topics"][0]["topic"], "in");
    assert_eq!(recorded["topics"][0]["partitions"], 2);
    let (code, out) = replay(&trace);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains(&format!("VIOLATION: {violation}")), "{out}");
    assert!(
        out.contains("always: assigned tasks exist in the topology: judged on 1 of 1 heartbeats (those of a group whose topology's tasks were known)\n"),
        "{out}"
    );
    assert_eq!(out.matches("VIOLATION: ").count(), 1, "{out}");
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn groups_left_with_a_task_owned_twice_or_by_no_one_have_not_settled() {
    let folder = fresh_folder("live-unsettled");
    let upstream = wrong_broker(vec![
        metadata_answer(2),
        // Group g: a keeps 0_0 and 0_1 while b is given 0_1 too.
        told("a", 1, Some(&[0, 1])),
        told("b", 2, Some(&[1])),
        told("a", 2, None),
        // Group u: c alone owns 0_0; nobody owns 0_1.
        told("c", 1, Some(&[0])),
    ]);
    let (proxy, stderr, listen) = start_proxy(&upstream, &folder, &["--settled-at-exit"]);
    let requests = [
        metadata_request(1),
        request(88, 2, &heartbeat("g", "a", 0)),
        request(88, 3, &heartbeat("g", "b", 0)),
        request(88, 4, &heartbeat("g", "a", 1)),
        request(88, 5, &heartbeat("u", "c", 0)),
    ];
    let (code, rest, json) = run(&listen, &requests, proxy, stderr, &folder);
    assert_eq!(code, Some(1), "{rest}");
    let twice = "eventually: the group settles with every task owned once (spec 4.6-7, 4.6-10) in group g, members a, b: members still in the group a, b: task 0_1 owned by a and b\n";
    let unowned = "eventually: the group settles with every task owned once (spec 4.6-7, 4.6-10) in group u, member c: members still in the group c: no member owns 0_1\n";
    assert!(
        rest.contains(&format!("streamspec proxy: VIOLATION {twice}")),
        "{rest}"
    );
    assert!(
        rest.contains(&format!("streamspec proxy: VIOLATION {unowned}")),
        "{rest}"
    );
    assert_eq!(rest.matches("VIOLATION").count(), 2, "{rest}");
    assert_eq!(verdict_of(&json, SETTLES).as_deref(), Some("fail"));
    assert_eq!(verdict_of(&json, TASKS_EXIST).as_deref(), Some("pass"));
    assert_eq!(reason_of(&json, TASKS_EXIST), "4 exchanges judged");

    // Each group's trace, written at the end, shows it unsettled again when replayed.
    for (number, group, violation) in [(1, "g", twice), (2, "u", unowned)] {
        let trace = folder.join(format!("streamspec-live-{number}-{group}.json"));
        let recorded: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
        assert_eq!(recorded["property"], SETTLES);
        let (code, out) = replay(&trace);
        assert_eq!(code, Some(1), "{out}");
        assert!(
            out.contains(&format!(
                "at the trace's end, where the proxy stopped: VIOLATION: {violation}"
            )),
            "{out}"
        );
        assert_eq!(out.matches("VIOLATION: ").count(), 1, "{out}");
    }
    std::fs::remove_dir_all(&folder).ok();
}

/// A describe of group `g` listing `a` and `b` at epoch 2, each with its task.
fn described_a_and_b() -> Vec<u8> {
    let member = |id: &str, partition: i32| {
        let tasks = vec![
            streamspec_protocol::kafka::streams_group_describe_response::TaskIds::default()
                .with_subtopology_id("0")
                .with_partitions(vec![partition]),
        ];
        Member::default()
            .with_member_id(id)
            .with_member_epoch(2)
            .with_process_id(format!("process-{id}"))
            .with_assignment(Assignment::default().with_active_tasks(tasks.clone()))
            .with_target_assignment(Assignment::default().with_active_tasks(tasks))
    };
    StreamsGroupDescribeResponse::default()
        .with_groups(vec![DescribedGroup::default()
            .with_group_id("g")
            .with_group_state("Stable")
            .with_group_epoch(2)
            .with_assignment_epoch(2)
            .with_members(vec![member("a", 0), member("b", 1)])])
        .encode_to_vec(VERSION)
        .unwrap()
}

#[test]
fn a_settled_group_passes_and_one_whose_members_all_left_is_not_judged() {
    let folder = fresh_folder("live-settled");
    let upstream = wrong_broker(vec![
        metadata_answer(2),
        // d joins with both tasks, then stops heartbeating: its session expires.
        told("d", 1, Some(&[0, 1])),
        told("a", 2, Some(&[0])),
        told("b", 2, Some(&[1])),
        // The describe no longer lists d.
        described_a_and_b(),
        // c joins and leaves; a and b keep their tasks at epoch 2.
        told("c", 2, Some(&[])),
        left("c"),
        told("a", 2, None),
        // Group gone: its only member leaves.
        told("e", 1, Some(&[0, 1])),
        left("e"),
    ]);
    let (proxy, stderr, listen) = start_proxy(&upstream, &folder, &["--settled-at-exit"]);
    let describe = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".to_owned()]);
    let requests = [
        metadata_request(1),
        request(88, 2, &heartbeat("g", "d", 0)),
        request(88, 3, &heartbeat("g", "a", 0)),
        request(88, 4, &heartbeat("g", "b", 0)),
        request(89, 5, &describe),
        request(88, 6, &heartbeat("g", "c", 0)),
        request(88, 7, &heartbeat("g", "c", -1)),
        request(88, 8, &heartbeat("g", "a", 2)),
        request(88, 9, &heartbeat("gone", "e", 0)),
        request(88, 10, &heartbeat("gone", "e", -1)),
    ];
    let (code, rest, json) = run(&listen, &requests, proxy, stderr, &folder);
    assert_eq!(code, Some(0), "{rest}");
    assert_eq!(rest.matches("VIOLATION").count(), 0, "{rest}");
    assert_eq!(verdict_of(&json, SETTLES).as_deref(), Some("pass"));
    assert_eq!(
        reason_of(&json, SETTLES),
        "1 group settled when the proxy stopped; group gone not judged: every member left, or was fenced or removed, before the proxy stopped"
    );
    assert_eq!(verdict_of(&json, TASKS_EXIST).as_deref(), Some("pass"));
    assert_eq!(reason_of(&json, TASKS_EXIST), "8 exchanges judged");
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn a_group_whose_topic_count_is_unknown_is_not_judged_settled() {
    let folder = fresh_folder("live-unknown-count");
    // No Metadata answer shows topic `in`: neither property can be judged.
    let upstream = wrong_broker(vec![told("a", 1, Some(&[0, 1]))]);
    let (proxy, stderr, listen) = start_proxy(&upstream, &folder, &["--settled-at-exit"]);
    let requests = [request(88, 1, &heartbeat("g", "a", 0))];
    let (code, rest, json) = run(&listen, &requests, proxy, stderr, &folder);
    assert_eq!(code, Some(0), "{rest}");
    assert_eq!(verdict_of(&json, SETTLES).as_deref(), Some("skip"));
    assert_eq!(
        reason_of(&json, SETTLES),
        "not judged; group g not judged: the partition count of topic in is unknown (no Metadata or CreateTopics answer showed it)"
    );
    assert_eq!(verdict_of(&json, TASKS_EXIST).as_deref(), Some("skip"));
    std::fs::remove_dir_all(&folder).ok();
}
