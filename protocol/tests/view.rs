//! The borrowed decoder (`...View`): exact values read from samples, and exact errors for bad
//! bytes, each the owned decoder's. `fuzzing::check_bytes` compares the two on every input the
//! property tests and the corpus give it; these pin a few cases by value.

use bytes::Bytes;
use streamspec_protocol::error::PathSegment;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeResponseView, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatRequestView,
};
use streamspec_protocol::samples::{self, large};
use streamspec_protocol::{
    AnyMessage, DecodeError, DecodeErrorKind, MessageKind, MessageView, ValueVisitor, WireMessage,
};

/// Every value a visit hands out, as text.
#[derive(Debug, Default)]
struct Recorder(Vec<String>);

impl ValueVisitor for Recorder {
    fn integer(&mut self, value: i64) {
        self.0.push(value.to_string());
    }
    fn string(&mut self, value: &str) {
        self.0.push(format!("{value:?}"));
    }
    fn null(&mut self) {
        self.0.push("null".into());
    }
    fn array(&mut self, len: usize) {
        self.0.push(format!("[{len}]"));
    }
    fn tagged_field(&mut self, tag: u32, data: &[u8]) {
        self.0.push(format!("tag {tag} {data:?}"));
    }
}

fn sample_bytes(name: &str) -> (Vec<u8>, i16, AnyMessage) {
    let sample = samples::all()
        .into_iter()
        .find(|sample| sample.name == name)
        .unwrap_or_else(|| panic!("no sample {name}"));
    let bytes = sample.message.encode_to_vec(sample.version).unwrap();
    (bytes, sample.version, sample.message)
}

/// Both visits of the view of `bytes`, which must agree, and its owned message.
fn visits<'a, V: MessageView<'a>>(bytes: &'a [u8], version: i16) -> (Vec<String>, V::Owned) {
    let view = V::decode(bytes, version).unwrap();
    let (mut one_pass, mut fields) = (Recorder::default(), Recorder::default());
    view.visit_values(&mut one_pass);
    view.visit_fields(&mut fields);
    assert_eq!(one_pass.0, fields.0, "the two visits differ");
    (one_pass.0, view.to_message())
}

#[test]
fn a_join_reads_as_its_values_without_copying() {
    let (bytes, version, message) = sample_bytes("hb_request_v0_join_rich_topology");
    let view = StreamsGroupHeartbeatRequestView::decode(&bytes, version).unwrap();
    assert_eq!(view.group_id, "app-1");
    assert_eq!(view.member_id, "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
    // Borrowed: the string lies inside the input.
    assert!(bytes.as_ptr_range().contains(&view.member_id.as_ptr()));
    assert_eq!(view.member_epoch, 0);
    assert_eq!(view.instance_id, None);
    assert_eq!(view.rack_id, Some("rack-a"));
    assert_eq!(view.rebalance_timeout_ms, 300_000);
    assert_eq!(view.active_tasks.map(|tasks| tasks.len()), Some(0));
    assert_eq!(
        view.process_id,
        Some("9d1c2b3a-0000-4000-8000-00000000beef")
    );
    let endpoint = view.user_endpoint.as_ref().unwrap();
    assert_eq!((endpoint.host, endpoint.port), ("streams-1.internal", 8080));
    let tags: Vec<(&str, &str)> = view
        .client_tags
        .unwrap()
        .iter()
        .map(|tag| (tag.key, tag.value))
        .collect();
    assert_eq!(tags, [("zone", "eu-west-1a"), ("cluster", "blue")]);
    assert_eq!(view.task_offsets.map(|offsets| offsets.len()), None);
    assert!(!view.shutdown_application);
    assert!(view.unknown_tagged_fields.is_empty());

    let topology = view.topology.as_ref().unwrap();
    let AnyMessage::StreamsGroupHeartbeatRequest(owned) = &message else {
        unreachable!()
    };
    let owned_topology = owned.topology.as_ref().unwrap();
    assert_eq!(
        topology.subtopologies.len(),
        owned_topology.subtopologies.len()
    );
    let iterator = topology.subtopologies.iter();
    assert_eq!(iterator.len(), owned_topology.subtopologies.len());
    for (view, owned) in iterator.zip(&owned_topology.subtopologies) {
        assert_eq!(view.subtopology_id, owned.subtopology_id);
        assert_eq!(
            view.source_topics.iter().collect::<Vec<_>>(),
            owned.source_topics
        );
        assert_eq!(view.to_owned(), *owned);
    }
    assert_eq!(
        AnyMessage::StreamsGroupHeartbeatRequest(view.to_owned()),
        message
    );
}

#[test]
fn a_steady_heartbeat_visits_every_value_in_wire_order() {
    let (bytes, version, message) = sample_bytes("hb_request_v0_steady_all_nulls");
    let (values, owned) = visits::<StreamsGroupHeartbeatRequestView>(&bytes, version);
    assert_eq!(AnyMessage::StreamsGroupHeartbeatRequest(owned), message);
    let expected = [
        "\"app-1\"",
        "\"3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b\"",
        "7",
        "3",
        "null",
        "null",
        "-1",
        "null",
        "null",
        "null",
        "null",
        "null",
        "null",
        "null",
        "null",
        "null",
        "0",
    ];
    assert_eq!(values, expected);
}

#[test]
fn a_describe_response_iterates_its_members() {
    let message = large::describe_group(3);
    let bytes = message.encode_to_vec(0).unwrap();
    let view = StreamsGroupDescribeResponseView::decode(&bytes, 0).unwrap();
    assert_eq!(view.groups.len(), 1);
    let group = view.groups.iter().next().unwrap();
    assert_eq!((group.group_id, group.group_state), ("app-1", "Stable"));
    let ids: Vec<&str> = group
        .members
        .iter()
        .map(|member| member.member_id)
        .collect();
    assert_eq!(ids, ["member-0", "member-1", "member-2"]);
    let member = group.members.iter().nth(1).unwrap();
    assert_eq!(member.client_id, "app-1-member-1-StreamThread-1");
    let active = member.assignment.active_tasks.iter().next().unwrap();
    assert_eq!(active.subtopology_id, "0");
    assert_eq!(active.partitions.iter().collect::<Vec<i32>>(), [3, 4, 5]);
    let (_, owned) = visits::<StreamsGroupDescribeResponseView>(&bytes, 0);
    assert_eq!(owned, message);
}

#[test]
fn every_sample_reads_alike_through_both_visits() {
    for sample in samples::all() {
        let bytes = sample.message.encode_to_vec(sample.version).unwrap();
        let kind = sample.message.kind();
        assert_eq!(
            kind.decode_view(&bytes, sample.version).as_ref(),
            Ok(&sample.message),
            "{}",
            sample.name
        );
        if kind == MessageKind::StreamsGroupHeartbeatRequest {
            visits::<StreamsGroupHeartbeatRequestView>(&bytes, sample.version);
        }
        if kind == MessageKind::StreamsGroupDescribeResponse {
            visits::<StreamsGroupDescribeResponseView>(&bytes, sample.version);
        }
    }
}

#[test]
fn unknown_tagged_fields_stay_raw_slices_of_the_input() {
    let mut message = large::steady_heartbeat();
    message
        .unknown_tagged_fields
        .insert(5, Bytes::from_static(b"xy"));
    message.unknown_tagged_fields.insert(9, Bytes::new());
    let bytes = message.encode_to_vec(1).unwrap();
    let view = StreamsGroupHeartbeatRequestView::decode(&bytes, 1).unwrap();
    let fields: Vec<(u32, &[u8])> = view.unknown_tagged_fields.iter().collect();
    assert_eq!(fields, [(5, &b"xy"[..]), (9, &b""[..])]);
    assert_eq!(view.to_owned(), message);
}

/// The view's error for `bytes`, which must be the owned decoder's.
fn refusal(bytes: &[u8], version: i16) -> DecodeError {
    let view = StreamsGroupHeartbeatRequestView::decode(bytes, version).unwrap_err();
    let owned = StreamsGroupHeartbeatRequest::decode_exact(bytes, version).unwrap_err();
    assert_eq!(view, owned);
    view
}

fn steady() -> Vec<u8> {
    large::steady_heartbeat().encode_to_vec(0).unwrap()
}

fn assert_refused(error: &DecodeError, offset: usize, path: &str, kind: DecodeErrorKind) {
    assert_eq!(
        (error.offset, error.path.to_string(), &error.kind),
        (offset, path.to_owned(), &kind)
    );
}

#[test]
fn truncated_input_is_refused_where_it_ends() {
    let bytes = steady();
    assert_eq!(bytes.len(), 68);
    let error = refusal(&bytes[..60], 0);
    assert_refused(
        &error,
        60,
        "warmup_tasks",
        DecodeErrorKind::Truncated {
            needed: 1,
            remaining: 0,
        },
    );
}

#[test]
fn bad_utf8_is_refused_at_the_string() {
    let mut bytes = steady();
    bytes[1] = 0xff; // the first byte of "app-1"
    let error = refusal(&bytes, 0);
    assert_refused(&error, 1, "group_id", DecodeErrorKind::InvalidUtf8);
}

#[test]
fn a_negative_length_is_refused() {
    // The compact length u32::MAX, a length of -2 once read as Java's int.
    let mut bytes = vec![0xff, 0xff, 0xff, 0xff, 0x0f];
    bytes.extend_from_slice(&steady()[6..]);
    let error = refusal(&bytes, 0);
    assert_refused(
        &error,
        0,
        "group_id",
        DecodeErrorKind::InvalidLength {
            length: -2,
            remaining: bytes.len() - 5,
        },
    );
}

#[test]
fn a_huge_array_count_is_refused_before_reading_items() {
    let bytes = steady();
    // active_tasks (null, at 58) becomes an array of a million items.
    let mut huge = bytes[..58].to_vec();
    huge.extend_from_slice(&[0xc1, 0x84, 0x3d]); // 1_000_001, the count plus one
    huge.extend_from_slice(&bytes[59..]);
    let error = refusal(&huge, 0);
    assert_refused(
        &error,
        58,
        "active_tasks",
        DecodeErrorKind::InvalidLength {
            length: 1_000_000,
            remaining: huge.len() - 61,
        },
    );
    assert_eq!(
        error.path.segments().collect::<Vec<_>>(),
        [PathSegment::Field("active_tasks")]
    );
}

#[test]
fn an_unknown_version_is_refused() {
    let error = refusal(&steady(), 7);
    assert_refused(
        &error,
        0,
        "<message>",
        DecodeErrorKind::UnsupportedVersion {
            message: "StreamsGroupHeartbeatRequest",
            version: 7,
        },
    );
}

#[test]
fn a_character_split_between_two_strings_is_refused() {
    // "é" is 0xc3 0xa9: its first byte ends group_id, its second begins member_id, so that the
    // two strings together are UTF-8 and each alone is not.
    let bytes = steady();
    let mut split = vec![0x02, 0xc3, 0x02, 0xa9];
    split.extend_from_slice(&bytes[43..]);
    let error = refusal(&split, 0);
    assert_refused(&error, 1, "group_id", DecodeErrorKind::InvalidUtf8);
}

#[test]
fn text_beyond_ascii_reads_back() {
    let message = large::steady_heartbeat()
        .with_group_id("grüße-✓")
        .with_rack_id(Some("ラック".into()));
    let bytes = message.encode_to_vec(0).unwrap();
    let view = StreamsGroupHeartbeatRequestView::decode(&bytes, 0).unwrap();
    assert_eq!((view.group_id, view.rack_id), ("grüße-✓", Some("ラック")));
    assert_eq!(view.to_owned(), message);
}
