//! `streamspec replay LIVE-TRACE --differential`: a captured group's requests answered again by
//! the reference, at their times, with the topics the trace recorded, each answer compared with
//! the broker's. The broker's answers here are the reference's own, so the trace must replay
//! clean; an altered answer, or the topics left out, must not.

use std::path::Path;
use std::process::Command;

use bytes::BytesMut;
use kafka_protocol::messages::{RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Encodable, StrBytes};
use streamspec::backend::StreamsApi;
use streamspec::embedded::EmbeddedTarget;
use streamspec::proxy::observe::{LiveTrace, Passed, TopicSeen, CAPTURED, LIVE_TRACE_KIND};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    Endpoint, Subtopology, TopicInfo, Topology,
};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

const BINARY: &str = env!("CARGO_BIN_EXE_streamspec");

fn request_frame<M: WireMessage>(api_key: i16, correlation_id: i32, message: &M) -> Vec<u8> {
    let mut frame = BytesMut::new();
    RequestHeader::default()
        .with_request_api_key(api_key)
        .with_correlation_id(correlation_id)
        .with_client_id(Some(StrBytes::from_static_str("test")))
        .encode(&mut frame, 2)
        .unwrap();
    frame.extend_from_slice(&message.encode_to_vec(0).unwrap());
    frame.to_vec()
}

fn answer_frame(correlation_id: i32, body: &[u8]) -> Vec<u8> {
    let mut frame = BytesMut::new();
    ResponseHeader::default()
        .with_correlation_id(correlation_id)
        .encode(&mut frame, 1)
        .unwrap();
    frame.extend_from_slice(body);
    frame.to_vec()
}

fn join(member: &str) -> StreamsGroupHeartbeatRequest {
    let topology = Topology::default().with_subtopologies(vec![Subtopology::default()
        .with_subtopology_id("0")
        .with_source_topics(vec!["in".to_owned()])]);
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id(member)
        .with_rebalance_timeout_ms(30_000)
        .with_topology(Some(topology))
        .with_active_tasks(Some(Vec::new()))
        .with_standby_tasks(Some(Vec::new()))
        .with_warmup_tasks(Some(Vec::new()))
        .with_process_id(Some(format!("p-{member}")))
        .with_client_tags(Some(Vec::new()))
}

/// Request header v2 of client id "test": api key, version, correlation id, the id, no tags.
const HEADER: usize = 2 + 2 + 4 + 2 + 4 + 1;

/// `request` answered by `broker` at `at_ms`, as the proxy would record it, sent at the same
/// time.
fn exchange(
    broker: &mut EmbeddedTarget,
    api: StreamsApi,
    at_ms: u64,
    correlation_id: i32,
    request: Vec<u8>,
) -> Passed {
    broker.advance_to(at_ms).unwrap();
    let body = broker.answer(api, 0, &request[HEADER..]).unwrap();
    Passed {
        at_ms,
        sent_ms: Some(at_ms),
        api_key: api.api_key(),
        version: 0,
        request,
        response: answer_frame(correlation_id, &body),
    }
}

fn member_epoch(passed: &Passed) -> i32 {
    StreamsGroupHeartbeatResponse::decode_exact(&passed.response[5..], 0)
        .unwrap()
        .member_epoch
}

fn trace_of(exchanges: Vec<Passed>) -> LiveTrace {
    LiveTrace {
        kind: LIVE_TRACE_KIND.to_owned(),
        upstream: "test".to_owned(),
        group: "g".to_owned(),
        property: CAPTURED.to_owned(),
        violation: "written when the proxy stopped".to_owned(),
        dropped: 0,
        exchanges,
        topics: vec![TopicSeen {
            at_ms: 0,
            topic: "in".to_owned(),
            partitions: Some(2),
        }],
        group_configs: Vec::new(),
        broker_configs: Default::default(),
    }
}

/// A trace of group `g` as a proxy in front of the reference would capture it: topic `in` with
/// two partitions, `a` joining at 0 ms, heartbeating at its epoch at 1000 ms, a describe at
/// 1500 ms.
fn captured() -> LiveTrace {
    captured_by(EmbeddedTarget::default())
}

/// [`captured`] in front of `broker`.
fn captured_by(mut broker: EmbeddedTarget) -> LiveTrace {
    broker.set_topic("in", Some(2));
    let joined = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        0,
        1,
        request_frame(88, 1, &join("a")),
    );
    let heartbeat = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("a")
        .with_member_epoch(member_epoch(&joined));
    let heartbeat = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        1000,
        2,
        request_frame(88, 2, &heartbeat),
    );
    let describe = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".to_owned()]);
    let described = exchange(
        &mut broker,
        StreamsApi::Describe,
        1500,
        3,
        request_frame(89, 3, &describe),
    );
    trace_of(vec![joined, heartbeat, described])
}

/// `streamspec replay` of `trace` with `args`: exit code, stdout, stderr.
fn replay(name: &str, trace: &LiveTrace, args: &[&str]) -> (Option<i32>, String, String) {
    let file = std::env::temp_dir().join(format!(
        "streamspec-live-differential-{name}-{}.json",
        std::process::id()
    ));
    std::fs::write(&file, serde_json::to_string(trace).unwrap()).unwrap();
    let output = Command::new(BINARY)
        .arg("replay")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    std::fs::remove_file(&file).ok();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

const OPENING: &str = "answering again with the reference the 3 exchanges of group g seen in front of test (1 topic and 0 group config changes recorded)\n";

#[test]
fn a_captured_trace_of_answers_the_reference_gives_replays_clean() {
    let (code, out, err) = replay("clean", &captured(), &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        format!("{OPENING}3 exchanges, every answer equal to the reference's\n")
    );
}

#[test]
fn an_answer_the_reference_would_not_give_is_shown_side_by_side() {
    let mut trace = captured();
    // The heartbeat's answer tells a later epoch than the reference's.
    let answer = &mut trace.exchanges[1].response;
    let mut body = StreamsGroupHeartbeatResponse::decode_exact(&answer[5..], 0).unwrap();
    body.member_epoch += 1;
    *answer = answer_frame(2, &body.encode_to_vec(0).unwrap());
    let (code, out, err) = replay("altered", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.starts_with(OPENING), "{out}");
    assert!(
        out.contains("exchange 2 (api 88 at 1000 ms): the broker's answer (target) differs from the reference's:\n"),
        "{out}"
    );
    assert!(out.contains("  * .memberEpoch "), "{out}");
    assert!(
        out.ends_with("1 of 3 exchanges answered otherwise than the reference (the first 1 shown); differing fields: .memberEpoch 1\n"),
        "{out}"
    );
}

/// A broker whose heartbeat interval is not the test broker's: the reference takes it from the
/// answers, and where answers differ it names the settings it assumed.
#[test]
fn the_heartbeat_interval_is_the_one_the_broker_answered() {
    let broker =
        || EmbeddedTarget::with_broker_configs([("group.streams.heartbeat.interval.ms", "5000")]);
    let (code, out, err) = replay("interval", &captured_by(broker()), &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        format!("{OPENING}3 exchanges, every answer equal to the reference's\n")
    );
    let mut trace = captured_by(broker());
    let answer = &mut trace.exchanges[1].response;
    let mut body = StreamsGroupHeartbeatResponse::decode_exact(&answer[5..], 0).unwrap();
    body.member_epoch += 1;
    *answer = answer_frame(2, &body.encode_to_vec(0).unwrap());
    let (code, out, err) = replay("interval-altered", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.starts_with(&format!("{OPENING}the reference answered as a broker with heartbeat interval 5000 ms (the broker's, from its answers), session timeout 6000 ms, initial rebalance delay 0 ms and assignment interval 0 ms (the test broker's, scripts/kafka/start.sh), and the group configs the trace recorded: a broker started otherwise answers otherwise where those matter (Kafka's defaults are 45000 ms sessions and a 3000 ms initial rebalance delay)\nexchange 2 ")),
        "{out}"
    );
}

/// `a` alone in group `g`, then `b`'s join and `a`'s heartbeat in flight together: the broker
/// handles the join first (a new target, `a` told to give a task up) but `a`'s answer comes
/// back first. `b`'s request went on at `b_sent_ms`.
fn answers_out_of_order(b_sent_ms: u64) -> LiveTrace {
    let mut broker = EmbeddedTarget::default();
    broker.set_topic("in", Some(2));
    let joined = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        0,
        1,
        request_frame(88, 1, &join("a")),
    );
    let mut b_joined = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        1000,
        1,
        request_frame(88, 1, &join("b")),
    );
    let heartbeat = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("a")
        .with_member_epoch(member_epoch(&joined));
    let mut heartbeat = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        1000,
        2,
        request_frame(88, 2, &heartbeat),
    );
    heartbeat.sent_ms = Some(999);
    b_joined.at_ms = 1001;
    b_joined.sent_ms = Some(b_sent_ms);
    trace_of(vec![joined, heartbeat, b_joined])
}

#[test]
fn requests_in_flight_together_are_answered_in_the_order_the_broker_handled_them() {
    let trace = answers_out_of_order(999);
    // The broker told `a` to give a task up: it had handled `b`'s join first.
    let told =
        StreamsGroupHeartbeatResponse::decode_exact(&trace.exchanges[1].response[5..], 0).unwrap();
    assert_eq!(told.active_tasks.unwrap()[0].partitions.len(), 1);
    let (code, out, err) = replay("in-flight", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "answering again with the reference the 3 exchanges of group g seen in front of test (1 topic and 0 group config changes recorded)\n\
         1 of the requests were in flight together with an earlier answered one and handled before it, as the broker's answers show\n\
         3 exchanges, every answer equal to the reference's\n"
    );
}

#[test]
fn a_request_sent_after_an_answer_came_is_not_taken_as_handled_before_it() {
    // `b`'s join went on after `a`'s answer came back: the broker cannot have handled it first,
    // so `a`'s answer is one the reference would not give.
    let (code, out, err) = replay(
        "sent-after",
        &answers_out_of_order(1000 + 1),
        &["--differential"],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("exchange 2 (api 88 at 1000 ms): the broker's answer (target) differs from the reference's:\n"),
        "{out}"
    );
    assert!(
        out.ends_with("1 of 3 exchanges answered otherwise than the reference (the first 1 shown); differing fields: .activeTasks 1, .standbyTasks 1, .warmupTasks 1\n"),
        "{out}"
    );
}

/// `a` and `b` in group `g`, then `a` silent: its session (6 s, the test profile's) ends at
/// 6000 ms. The broker answers `b`'s heartbeat with `a` still a member (its timer fired late),
/// and the proxy saw the request go on at `sent_ms` and the answer come 2 ms later.
fn answered_before_a_late_timer_fired(sent_ms: u64) -> LiveTrace {
    let mut broker = EmbeddedTarget::default();
    broker.set_topic("in", Some(2));
    let a_joined = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        0,
        1,
        request_frame(88, 1, &join("a")),
    );
    let b_joined = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        100,
        1,
        request_frame(88, 1, &join("b")),
    );
    let heartbeat = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("b")
        .with_member_epoch(member_epoch(&b_joined));
    let mut heartbeat = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        5_990,
        2,
        request_frame(88, 2, &heartbeat),
    );
    heartbeat.sent_ms = Some(sent_ms);
    heartbeat.at_ms = sent_ms + 2;
    trace_of(vec![a_joined, b_joined, heartbeat])
}

#[test]
fn a_session_that_ends_while_a_request_is_in_flight_may_end_either_side_of_it() {
    // Within the margin of a real-time broker's timers (25 ms, and the longest answer): the
    // broker handled the request before it removed `a`, which the reference answers too.
    let (code, out, err) = replay(
        "late-timer",
        &answered_before_a_late_timer_fired(6_002),
        &["--differential"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("3 exchanges, every answer equal to the reference's\n"),
        "{out}"
    );
    // Past it, a member whose session ended 40 ms before is no longer one.
    let (code, out, err) = replay(
        "late-timer-past-margin",
        &answered_before_a_late_timer_fired(6_040),
        &["--differential"],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("exchange 3 (api 88 at 6042 ms): the broker's answer (target) differs from the reference's:\n"),
        "{out}"
    );
}

/// `a`'s join at 0 ms on `broker`, its heartbeat at its epoch going on at `sent_ms` and answered
/// `answer_ms` later, `change` made to the broker, and `a`'s next heartbeat 500 ms after that
/// answer.
fn heartbeats_around_a_change(
    broker: &mut EmbeddedTarget,
    joining: &StreamsGroupHeartbeatRequest,
    (sent_ms, answer_ms): (u64, u64),
    change: impl FnOnce(&mut EmbeddedTarget),
) -> Vec<Passed> {
    let joined = exchange(
        broker,
        StreamsApi::Heartbeat,
        0,
        1,
        request_frame(88, 1, joining),
    );
    let heartbeat = |correlation_id: i32, epoch: i32| {
        let request = StreamsGroupHeartbeatRequest::default()
            .with_group_id("g")
            .with_member_id("a")
            .with_member_epoch(epoch);
        request_frame(88, correlation_id, &request)
    };
    let mut before = exchange(
        broker,
        StreamsApi::Heartbeat,
        sent_ms + answer_ms,
        2,
        heartbeat(2, member_epoch(&joined)),
    );
    before.sent_ms = Some(sent_ms);
    change(broker);
    let after = exchange(
        broker,
        StreamsApi::Heartbeat,
        sent_ms + answer_ms + 500,
        3,
        heartbeat(3, member_epoch(&before)),
    );
    vec![joined, before, after]
}

/// `a` joins at 0 ms before its source topic `in` exists, and heartbeats at its epoch with the
/// request going on at `sent_ms` and the answer coming 10 ms later: the broker's coordinator
/// handled it before it had the topic, which the proxy saw, in another client's answer, at
/// `seen_ms`. The coordinator has it 500 ms later, when `a` heartbeats again.
fn topic_seen_before_the_coordinator_had_it(seen_ms: u64, sent_ms: u64) -> LiveTrace {
    let mut broker = EmbeddedTarget::default();
    let exchanges = heartbeats_around_a_change(&mut broker, &join("a"), (sent_ms, 10), |broker| {
        broker.set_topic("in", Some(2))
    });
    let mut trace = trace_of(exchanges);
    trace.topics[0].at_ms = seen_ms;
    trace
}

#[test]
fn a_topic_seen_while_a_request_was_in_flight_may_be_unknown_to_the_broker_handling_it() {
    let trace = topic_seen_before_the_coordinator_had_it(995, 990);
    // The broker's epochs: 2 for the join, 2 again without the topic, 3 once it had it.
    let epochs: Vec<i32> = trace.exchanges.iter().map(member_epoch).collect();
    assert_eq!(epochs, [2, 2, 3]);
    let (code, out, err) = replay("topic-in-flight", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, withheld_once_and_clean(3));
    // Seen 100 ms before the request went on (past the margin of 25 ms and the longest answer,
    // 10 ms), a source topic a client created was the broker's: its answer without it is not
    // the reference's.
    let trace = topic_seen_before_the_coordinator_had_it(890, 990);
    let (code, out, err) = replay("topic-before-request", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("exchange 2 (api 88 at 1000 ms): the broker's answer (target) differs from the reference's:\n"),
        "{out}"
    );
    // The reference, with the topic, bumps and assigns; its member then fences the broker's
    // epoch.
    assert!(
        out.contains("  * .memberEpoch                  2                                                 3\n"),
        "{out}"
    );
    assert!(
        out.ends_with("2 of 3 exchanges answered otherwise than the reference (the first 2 shown); differing fields: .activeTasks 2, .errorCode 1, .heartbeatIntervalMs 1, .memberEpoch 2, .memberId 1, .standbyTasks 2, .status[] 1, .taskOffsetIntervalMs 1, .warmupTasks 2\n"),
        "{out}"
    );
}

/// The replay's output for a clean trace of `exchanges` exchanges of group `g`, one of them
/// answered without a change the proxy had seen.
fn withheld_once_and_clean(exchanges: usize) -> String {
    format!(
        "answering again with the reference the {exchanges} exchanges of group g seen in front of test (1 topic and 0 group config changes recorded)\n\
         1 of the exchanges were handled before the broker's coordinator had a change the proxy saw by their answer (one seen while they were in flight, or an internal topic the broker created, which its Metadata answers show before its coordinator learns of it), as the broker's answers show\n\
         {exchanges} exchanges, every answer equal to the reference's\n"
    )
}

/// Group `g` of two subtopologies through repartition topic `g-rep`, which the broker creates
/// for it after `a`'s join at 0 ms; `a` heartbeats with the request going on at `sent_ms` and
/// the answer coming 5 ms later, and the broker's coordinator does not have the topic yet, which
/// the proxy saw in a Metadata answer at `seen_ms`. The coordinator has it 500 ms later, when `a`
/// heartbeats again.
fn internal_topic_seen_before_the_coordinator_had_it(seen_ms: u64, sent_ms: u64) -> LiveTrace {
    let topology = Topology::default().with_subtopologies(vec![
        Subtopology::default()
            .with_subtopology_id("0")
            .with_source_topics(vec!["in".to_owned()])
            .with_repartition_sink_topics(vec!["g-rep".to_owned()]),
        Subtopology::default()
            .with_subtopology_id("1")
            .with_repartition_source_topics(vec![TopicInfo::default().with_name("g-rep")]),
    ]);
    let mut broker = EmbeddedTarget::default().deferring_internal_topics();
    broker.set_topic("in", Some(2));
    let joining = join("a").with_topology(Some(topology));
    let exchanges = heartbeats_around_a_change(&mut broker, &joining, (sent_ms, 5), |broker| {
        assert!(broker.is_pending_internal_topic("g-rep"));
        broker.create_pending_internal_topics();
    });
    let mut trace = trace_of(exchanges);
    trace.topics.push(TopicSeen {
        at_ms: seen_ms,
        topic: "g-rep".to_owned(),
        partitions: Some(2),
    });
    trace
}

#[test]
fn an_internal_topic_the_broker_created_may_reach_its_coordinator_after_its_metadata_answers() {
    // CI's shape: Kafka's Metadata answers showed the repartition topic it created 200 ms before
    // a heartbeat went on, and its coordinator handled the heartbeat without it.
    let trace = internal_topic_seen_before_the_coordinator_had_it(790, 990);
    let epochs: Vec<i32> = trace.exchanges.iter().map(member_epoch).collect();
    assert_eq!(epochs, [2, 2, 3]);
    let (code, out, err) = replay("internal-topic-late", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        withheld_once_and_clean(3).replace("(1 topic", "(2 topic")
    );
    // At most 5 s (besides the margin of 25 ms and the longest answer, 5 ms): seen 5,030 ms
    // before the request went on, the topic was the coordinator's.
    let mut trace = internal_topic_seen_before_the_coordinator_had_it(950, 5980);
    let epochs: Vec<i32> = trace.exchanges.iter().map(member_epoch).collect();
    assert_eq!(epochs, [2, 2, 3]);
    // Changes of another topic after the last exchange: listed up to 20, no answer changed.
    for at_ms in 7000..7030 {
        trace.topics.push(TopicSeen {
            at_ms,
            topic: "other".to_owned(),
            partitions: Some(1),
        });
    }
    let (code, out, err) = replay("internal-topic-too-late", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("exchange 2 (api 88 at 5985 ms): the broker's answer (target) differs from the reference's:\n"),
        "{out}"
    );
    assert!(
        out.contains("  * .memberEpoch                  2                                                 3\n"),
        "{out}"
    );
    // The times a difference is read against come last.
    let others: String = (7000..7018)
        .map(|at_ms| format!("  {at_ms} ms: topic other with 1 partitions\n"))
        .collect();
    assert!(
        out.ends_with(&format!(
            "the shown exchanges' times:\n  \
             exchange 2: request went on at 5980 ms, answer came at 5985 ms\n  \
             exchange 3: request went on at 6485 ms, answer came at 6485 ms\n\
             the recorded changes, when the proxy saw them (the first 20 of 32):\n  \
             0 ms: topic in with 2 partitions\n  \
             950 ms: topic g-rep with 2 partitions\n\
             {others}\
             2 of 3 exchanges answered otherwise than the reference (the first 2 shown); differing fields: .activeTasks 2, .errorCode 1, .heartbeatIntervalMs 1, .memberEpoch 2, .memberId 1, .standbyTasks 2, .status[] 1, .taskOffsetIntervalMs 1, .warmupTasks 2\n"
        )),
        "{out}"
    );
    // A millisecond later it may still have been on its way.
    let trace = internal_topic_seen_before_the_coordinator_had_it(951, 5980);
    let (code, out, err) = replay("internal-topic-lag-bound", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn without_the_recorded_topics_the_reference_answers_otherwise() {
    let mut trace = captured();
    trace.topics.clear();
    let (code, out, err) = replay("no-topics", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("exchange 1 (api 88 at 0 ms): the broker's answer (target) differs"),
        "{out}"
    );
}

#[test]
fn a_live_trace_is_answered_again_only_by_the_reference_and_only_whole() {
    // Judged again or answered again, a target named would be ignored: it is refused.
    for flags in [
        &["--differential", "--target", "127.0.0.1:9"][..],
        &["--target", "127.0.0.1:9"][..],
    ] {
        let (code, _, err) = replay("broker", &captured(), flags);
        assert_eq!(code, Some(2));
        assert_eq!(
            err,
            "streamspec: a live trace is judged again from its bytes, or answered again by the reference (--differential), and sent to no target: leave --target out\n"
        );
    }
    let mut trace = captured();
    trace.dropped = 1024;
    let (code, _, err) = replay("dropped", &trace, &["--differential"]);
    assert_eq!(code, Some(2));
    assert!(
        err.ends_with(": the trace lacks the 1024 earliest exchanges of group g: the reference cannot be brought to the state they made\n"),
        "{err}"
    );
    let mut trace = captured();
    trace.exchanges[1].sent_ms = Some(trace.exchanges[1].at_ms + 1);
    let (code, _, err) = replay("sent-after-answered", &trace, &["--differential"]);
    assert_eq!(code, Some(2));
    assert!(
        err.ends_with(&format!(
            ": exchange 2: its request went on at {} ms, after its answer came at {} ms: not a trace `streamspec proxy` wrote\n",
            trace.exchanges[1].at_ms + 1,
            trace.exchanges[1].at_ms
        )),
        "{err}"
    );
    // Known divergences waive nothing in a live trace: the flag is refused, not ignored.
    for flags in [
        &["--differential", "--divergences", "ours.json"][..],
        &["--divergences", "ours.json"][..],
    ] {
        let (code, out, err) = replay("divergences", &captured(), flags);
        assert_eq!(code, Some(2), "{out}");
        assert_eq!(
            err,
            "streamspec: --divergences applies to a trace `fuzz --differential` wrote; a live trace is judged, or answered again by the reference, with no waivers: leave --divergences out\n"
        );
    }
    // Without --differential the same trace is judged again by the oracle, as before.
    let (code, out, _) = replay("judged", &captured(), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.ends_with("3 exchanges, no violation in group g\n"),
        "{out}"
    );
}

/// A real Kafka Streams application's traffic in front of Kafka 4.4.0, where the broker still
/// reported its internal topics missing 240 ms after the join that asked for them, and the proxy
/// saw the changelog topic only a second after the broker assigned its tasks.
const INTERNAL_TOPICS_LATE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/live/streams-app-wordcount-internal-topics-late.json"
);

#[test]
fn internal_topics_a_broker_creates_late_are_answered_as_the_broker_did() {
    assert_eq!(
        replayed_clean(INTERNAL_TOPICS_LATE),
        "answering again with the reference the 118 exchanges of group wordcount-1796514671-8019 seen in front of 127.0.0.1:9092 (4 topic and 1 group config changes recorded)\n\
         118 exchanges, every answer equal to the reference's\n"
    );
}

/// Kafka 4.4.0's answers to the scenario R33-missing-topic-created-and-deleted-keeps-epoch,
/// captured by the proxy: the missing source topic created and deleted again between two
/// heartbeats leaves the group epoch as it was, as the reference now answers too (a 30-minute
/// differential campaign found the reference bumping it).
const CREATED_AND_DELETED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/live/missing-topic-created-and-deleted-keeps-epoch.json"
);

/// Kafka 4.4.0's answers to the scenario R40-kept-configuration-of-deleted-topic: it assigns a
/// deleted topic's tasks from a configuration a refused heartbeat kept, which the reference does
/// not copy (the divergence recorded in harness/divergences.json).
const KEPT_CONFIGURATION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/live/kept-configuration-of-deleted-topic.json"
);

fn live_trace(path: &str) -> LiveTrace {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The output of `replay --differential` of the trace at `path`, which must exit 0.
fn replayed_clean(path: &str) -> String {
    let name = Path::new(path).file_stem().unwrap().to_str().unwrap();
    let (code, out, err) = replay(name, &live_trace(path), &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    out
}

#[test]
fn a_missing_topic_created_and_deleted_again_is_answered_as_kafka_did() {
    assert_eq!(
        replayed_clean(CREATED_AND_DELETED),
        "answering again with the reference the 4 exchanges of group streamspec-1a249630dc4-R33-missing-topic-created-and-deleted-keeps-epoch seen in front of 127.0.0.1:9292 (10 topic and 2 group config changes recorded)\n\
         4 exchanges, every answer equal to the reference's\n"
    );
}

/// The join and the refused heartbeat are Kafka's; from the heartbeat after the deletion on,
/// Kafka goes on with the kept configuration and the reference does not: the divergence recorded
/// for R40, which the replay names and compares no further, as a differential run does.
#[test]
fn the_kept_configuration_of_a_deleted_topic_is_kafkas_recorded_divergence() {
    let trace = live_trace(KEPT_CONFIGURATION);
    let (code, out, err) = replay("kept-configuration", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("\nexchange 3 (api 88 at 4110 ms): the broker's answer differs from the reference's as the divergence recorded in harness/divergences.json for .memberEpoch (rules R33, R40) says: Kafka 4.4.0 assigns a deleted source topic's tasks from a configuration a refused heartbeat kept"),
        "{out}"
    );
    assert!(
        out.ends_with("; the two parted there: 1 exchange after it not compared\n3 of 4 exchanges compared, every answer equal to the reference's but the recorded divergence above\n"),
        "{out}"
    );
}

/// A real Kafka Streams application's traffic in front of Kafka 4.4.0 where two instances' joins
/// were in flight together: the join sent 32 ms later was answered 1 ms earlier, and the broker
/// had handled the other first (its answers show which member joined first).
const JOINS_IN_FLIGHT_TOGETHER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/live/streams-app-wordcount-joins-in-flight-together.json"
);

#[test]
fn joins_in_flight_together_are_answered_in_the_order_kafka_handled_them() {
    assert_eq!(
        replayed_clean(JOINS_IN_FLIGHT_TOGETHER),
        "answering again with the reference the 152 exchanges of group wordcount-1796577989-10860 seen in front of 127.0.0.1:9692 (4 topic and 1 group config changes recorded)\n\
         1 of the requests were in flight together with an earlier answered one and handled before it, as the broker's answers show\n\
         152 exchanges, every answer equal to the reference's\n"
    );
}

#[test]
fn without_the_times_requests_went_on_the_joins_are_answered_in_the_wrong_order() {
    let mut trace = live_trace(JOINS_IN_FLIGHT_TOGETHER);
    for passed in &mut trace.exchanges {
        passed.sent_ms = None;
    }
    let (code, out, err) = replay("joins-without-sent-times", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    // Answered 1 ms apart, the joins are no longer in flight together: from the first on, the
    // reference's group is another than Kafka's.
    assert!(
        out.contains("exchange 2 (api 88 at 9665 ms): the broker's answer (target) differs from the reference's:\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "\n145 of 152 exchanges answered otherwise than the reference (the first 5 shown); "
        ),
        "{out}"
    );
}

/// A broker with Kafka's 3000 ms initial rebalance delay, which no answer carries: the replay
/// answers with the configs the proxy recorded in the trace, and without them names the test
/// broker's it assumed.
#[test]
fn the_broker_configs_the_trace_recorded_are_the_references() {
    let delayed = || {
        EmbeddedTarget::with_broker_configs([("group.streams.initial.rebalance.delay.ms", "3000")])
    };
    let mut trace = captured_by(delayed());
    let (code, out, err) = replay("unrecorded", &trace, &["--differential"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.starts_with(&format!("{OPENING}the reference answered as a broker with heartbeat interval 500 ms (the broker's, from its answers), session timeout 6000 ms, initial rebalance delay 0 ms and assignment interval 0 ms (the test broker's, scripts/kafka/start.sh), and the group configs the trace recorded: ")),
        "{out}"
    );
    trace.broker_configs = [
        ("group.streams.initial.rebalance.delay.ms", "3000"),
        ("group.streams.session.timeout.ms", "6000"),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value.to_owned()))
    .collect();
    let (code, out, err) = replay("recorded", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        format!("{OPENING}3 exchanges, every answer equal to the reference's\n")
    );
}

/// Kafka 4.4.0's recorded divergence R46 (UNKNOWN_SERVER_ERROR to a member with an endpoint while
/// a source topic is missing) in a capture: the replay names it and compares no further, as a
/// differential run does; it failed a stock Kafka's captures.
#[test]
fn a_recorded_divergence_in_a_capture_is_named_and_ends_the_comparison() {
    // Topic `in` is never made.
    let mut broker = EmbeddedTarget::default();
    let joining =
        join("a").with_user_endpoint(Some(Endpoint::default().with_host("h").with_port(9000)));
    let mut joined = exchange(
        &mut broker,
        StreamsApi::Heartbeat,
        0,
        1,
        request_frame(88, 1, &joining),
    );
    let crashed = StreamsGroupHeartbeatResponse::default().with_error_code(-1);
    joined.response = answer_frame(1, &crashed.encode_to_vec(0).unwrap());
    let describe = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".to_owned()]);
    let described = exchange(
        &mut broker,
        StreamsApi::Describe,
        500,
        2,
        request_frame(89, 2, &describe),
    );
    let trace = LiveTrace {
        topics: Vec::new(),
        ..trace_of(vec![joined, described])
    };
    let (code, out, err) = replay("recorded", &trace, &["--differential"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.starts_with("answering again with the reference the 2 exchanges of group g seen in front of test (0 topic and 0 group config changes recorded)\nexchange 1 (api 88 at 0 ms): the broker's answer differs from the reference's as the divergence recorded in harness/divergences.json for .errorCode (rules R46) says: Kafka 4.4.0 answers UNKNOWN_SERVER_ERROR"),
        "{out}"
    );
    assert!(
        out.ends_with("; the two parted there: 1 exchange after it not compared\n1 of 2 exchanges compared, every answer equal to the reference's but the recorded divergence above\n"),
        "{out}"
    );
}
