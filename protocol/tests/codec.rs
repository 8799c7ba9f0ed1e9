//! Exact bytes and exact errors of the codec: each error kind with its offset and field path,
//! version rules on encode, unknown tagged fields, frames and kafka-protocol's traits.

use bytes::{Bytes, BytesMut};
use kafka_protocol::protocol::{Decodable, Encodable};
use streamspec_protocol::frame::{self, FrameError};
use streamspec_protocol::kafka::streams_group_describe_request::StreamsGroupDescribeRequest;
use streamspec_protocol::kafka::streams_group_describe_response::{
    DescribedGroup, StreamsGroupDescribeResponse,
};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;
use streamspec_protocol::kafka::StreamsGroupHeartbeatResponse;
use streamspec_protocol::{
    samples, AnyMessage, DecodeError, DecodeErrorKind, EncodeErrorKind, WireMessage,
};

fn describe_error(bytes: &[u8], version: i16) -> DecodeError {
    StreamsGroupDescribeRequest::decode_exact(bytes, version).unwrap_err()
}

fn sample_bytes(name: &str) -> (AnyMessage, i16, Vec<u8>) {
    let sample = samples::all()
        .into_iter()
        .find(|sample| sample.name == name)
        .unwrap();
    let bytes = sample.message.encode_to_vec(sample.version).unwrap();
    (sample.message, sample.version, bytes)
}

#[test]
fn describe_request_v0_encodes_to_kafkas_bytes() {
    let request = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".into()]);
    assert_eq!(
        request.encode_to_vec(0).unwrap(),
        [0x02, 0x02, b'g', 0x00, 0x00]
    );
    assert_eq!(request.encoded_size(0), Ok(5));
}

#[test]
fn invalid_utf8_names_the_offset_and_field_path() {
    let (message, version, mut bytes) = sample_bytes("hb_request_v0_join_rich_topology");
    let (_, trace) = message.kind().decode_traced(&bytes, version).unwrap();
    let customers = trace
        .iter()
        .find(|entry| entry.path() == "topology.subtopologies[2].source_topics[0]")
        .unwrap();
    assert_eq!(customers.value, "\"customers\"");
    // The first byte of the string body, after its one-byte length.
    bytes[customers.start + 1] = 0xff;
    let error = StreamsGroupHeartbeatRequest::decode_exact(&bytes, version).unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::InvalidUtf8);
    assert_eq!(error.offset, customers.start + 1);
    assert_eq!(
        error.path.to_string(),
        "topology.subtopologies[2].source_topics[0]"
    );
    assert_eq!(
        error.to_string(),
        format!(
            "at byte {}, topology.subtopologies[2].source_topics[0]: invalid UTF-8 in string",
            customers.start + 1
        )
    );
}

#[test]
fn truncated_input_is_told_apart() {
    let error = describe_error(&[0x02, 0x02, b'g'], 0);
    assert_eq!(
        error.kind,
        DecodeErrorKind::Truncated {
            needed: 1,
            remaining: 0
        }
    );
    assert_eq!(error.offset, 3);
    assert_eq!(error.path.to_string(), "include_authorized_operations");

    let error = describe_error(&[0x02, 0x05, b'g'], 0);
    assert_eq!(
        error.kind,
        DecodeErrorKind::Truncated {
            needed: 4,
            remaining: 1
        }
    );
    assert_eq!(error.path.to_string(), "group_ids[0]");
}

#[test]
fn huge_array_length_is_refused_before_allocating() {
    // Compact length 0x0fffffff - 1 items, with no bytes behind it.
    let error = describe_error(&[0xff, 0xff, 0xff, 0x7f], 0);
    assert_eq!(
        error.kind,
        DecodeErrorKind::InvalidLength {
            length: 268_435_454,
            remaining: 0
        }
    );
    assert_eq!(
        (error.offset, error.path.to_string()),
        (0, "group_ids".to_owned())
    );
}

#[test]
fn negative_array_length_is_refused() {
    // u32::MAX - 1 does not fit Kafka's int32 length: Java would read -2.
    let error = describe_error(&[0xff, 0xff, 0xff, 0xff, 0x0f], 0);
    assert_eq!(
        error.kind,
        DecodeErrorKind::InvalidLength {
            length: -2,
            remaining: 0
        }
    );
}

#[test]
fn string_over_32767_bytes_is_an_invalid_length() {
    // 40,000 + 1 as a varint: c1 b8 02.
    let error = describe_error(&[0x02, 0xc1, 0xb8, 0x02], 0);
    assert_eq!(
        error.kind,
        DecodeErrorKind::InvalidLength {
            length: 40_000,
            remaining: 0
        }
    );
    assert_eq!(
        (error.offset, error.path.to_string()),
        (1, "group_ids[0]".to_owned())
    );
}

#[test]
fn null_in_a_non_nullable_array_is_refused() {
    let error = describe_error(&[0x00, 0x00, 0x00], 0);
    assert_eq!(error.kind, DecodeErrorKind::UnexpectedNull);
    assert_eq!(
        (error.offset, error.path.to_string()),
        (0, "group_ids".to_owned())
    );
}

#[test]
fn trailing_bytes_are_refused() {
    let error = describe_error(&[0x02, 0x02, b'g', 0x00, 0x00, 0xff], 0);
    assert_eq!(error.kind, DecodeErrorKind::TrailingBytes { count: 1 });
    assert_eq!(error.offset, 5);
}

#[test]
fn unknown_versions_are_refused_both_ways() {
    let error = describe_error(&[0x01, 0x00, 0x00, 0x00], 2);
    assert_eq!(
        error.kind,
        DecodeErrorKind::UnsupportedVersion {
            message: "StreamsGroupDescribeRequest",
            version: 2
        }
    );
    let error = StreamsGroupDescribeRequest::default()
        .encode_to_vec(-1)
        .unwrap_err();
    assert_eq!(
        error.kind,
        EncodeErrorKind::UnsupportedVersion {
            message: "StreamsGroupDescribeRequest",
            version: -1
        }
    );
}

#[test]
fn non_canonical_encodings_are_refused() {
    // Overlong varint: zero written in two bytes.
    assert_eq!(
        describe_error(&[0x81, 0x00, 0x00, 0x00], 0).kind,
        DecodeErrorKind::InvalidVarint
    );
    // A sixth varint byte.
    assert_eq!(
        describe_error(&[0x81, 0x80, 0x80, 0x80, 0x80, 0x01], 0).kind,
        DecodeErrorKind::InvalidVarint
    );
    let error = describe_error(&[0x01, 0x02, 0x00], 0);
    assert_eq!(
        (error.kind.clone(), error.offset),
        (DecodeErrorKind::InvalidBoolean(2), 1)
    );

    let (_, _, mut bytes) = sample_bytes("hb_request_v0_join_minimal");
    assert_eq!(bytes[0x12], 0x01, "the topology marker");
    bytes[0x12] = 0x00;
    let error = StreamsGroupHeartbeatRequest::decode_exact(&bytes, 0).unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::InvalidNullMarker(0));
    assert_eq!(
        (error.offset, error.path.to_string()),
        (0x12, "topology".to_owned())
    );
}

#[test]
fn unknown_tagged_fields_survive_a_round_trip_in_ascending_order() {
    let bytes = [0x01, 0x00, 0x02, 0x03, 0x01, 0xaa, 0x05, 0x00];
    let request = StreamsGroupDescribeRequest::decode_exact(&bytes, 0).unwrap();
    let tags: Vec<(u32, Bytes)> = request.unknown_tagged_fields.clone().into_iter().collect();
    assert_eq!(tags, [(3, Bytes::from_static(&[0xaa])), (5, Bytes::new())]);
    assert_eq!(request.encode_to_vec(0).unwrap(), bytes);

    let error = describe_error(&[0x01, 0x00, 0x02, 0x05, 0x00, 0x03, 0x00], 0);
    assert_eq!(
        error.kind,
        DecodeErrorKind::TaggedFieldsOutOfOrder {
            tag: 3,
            previous: 5
        }
    );
    assert_eq!(
        (error.offset, error.path.to_string()),
        (5, "_tagged_fields[1]".to_owned())
    );
}

#[test]
fn encoding_refuses_a_value_the_version_cannot_carry() {
    let error = StreamsGroupHeartbeatResponse::default()
        .with_acceptable_recovery_lag_legacy(5)
        .encode_to_vec(1)
        .unwrap_err();
    assert_eq!(
        error.kind,
        EncodeErrorKind::FieldNotInVersion { version: 1 }
    );
    assert_eq!(error.path.to_string(), "acceptable_recovery_lag_legacy");

    let error = StreamsGroupDescribeRequest::default()
        .with_include_topology_description(true)
        .encode_to_vec(0)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "include_topology_description: set to a non-default value, but version 0 lacks the field"
    );

    let error = StreamsGroupDescribeRequest::default()
        .with_group_ids(vec!["x".repeat(32_768)])
        .encode_to_vec(0)
        .unwrap_err();
    assert_eq!(
        error.kind,
        EncodeErrorKind::StringTooLong { length: 32_768 }
    );
    assert_eq!(error.path.to_string(), "group_ids[0]");
}

#[test]
fn ignorable_fields_are_dropped_by_versions_that_lack_them() {
    let response = StreamsGroupHeartbeatResponse::default().with_acceptable_recovery_lag(5);
    let decoded =
        StreamsGroupHeartbeatResponse::decode_exact(&response.encode_to_vec(0).unwrap(), 0)
            .unwrap();
    assert_eq!(decoded.acceptable_recovery_lag, -1);

    let response = StreamsGroupDescribeResponse::default().with_groups(vec![
        DescribedGroup::default().with_assignor_name(Some("sticky".into())),
    ]);
    let decoded =
        StreamsGroupDescribeResponse::decode_exact(&response.encode_to_vec(0).unwrap(), 0).unwrap();
    assert_eq!(decoded.groups[0].assignor_name, None);
}

#[test]
fn defaults_follow_the_schemas() {
    let request = StreamsGroupHeartbeatRequest::default();
    assert_eq!(
        (request.rebalance_timeout_ms, request.topology.is_none()),
        (-1, true)
    );
    let response = StreamsGroupHeartbeatResponse::default();
    assert_eq!(response.acceptable_recovery_lag, -1);
    assert_eq!(response.status, Some(vec![]));
    assert_eq!(DescribedGroup::default().authorized_operations, i32::MIN);
}

#[test]
fn request_frame_has_header_v2_and_decodes_back() {
    let request = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".into()]);
    let bytes = frame::encode_request(7, Some("c"), 0, &request).unwrap();
    assert_eq!(
        bytes,
        [
            0x00, 0x00, 0x00, 0x11, // size 17
            0x00, 0x59, 0x00, 0x00, // api key 89, version 0
            0x00, 0x00, 0x00, 0x07, // correlation id
            0x00, 0x01, b'c', // client id: a classic nullable string
            0x00, // header tagged fields
            0x02, 0x02, b'g', 0x00, 0x00, // body
        ]
    );
    let long_client_id = "c".repeat(32_768);
    let error = frame::encode_request(7, Some(&long_client_id), 0, &request).unwrap_err();
    assert_eq!(
        error.to_string(),
        "client_id: string of 32768 bytes exceeds the 32767-byte limit"
    );
    let mut buffer = BytesMut::from(&bytes[..]);
    let frame_bytes = frame::split_frame(&mut buffer, 1 << 20).unwrap().unwrap();
    assert!(buffer.is_empty());
    let (header, body) = frame::decode_request_header(&frame_bytes).unwrap();
    assert_eq!(
        (
            header.request_api_key,
            header.request_api_version,
            header.correlation_id
        ),
        (89, 0, 7)
    );
    assert_eq!(
        StreamsGroupDescribeRequest::decode_exact(body, 0).unwrap(),
        request
    );
}

#[test]
fn response_frame_has_header_v1() {
    let response = StreamsGroupDescribeResponse::default();
    let bytes = frame::encode_response(-3, 0, &response).unwrap();
    assert_eq!(
        &bytes[..9],
        [0x00, 0x00, 0x00, 0x0b, 0xff, 0xff, 0xff, 0xfd, 0x00]
    );
    assert_eq!(&bytes[9..], [0x00, 0x00, 0x00, 0x00, 0x01, 0x00]);
    let (correlation_id, body) = frame::decode_response_header(&bytes[4..]).unwrap();
    assert_eq!(correlation_id, -3);
    assert_eq!(
        StreamsGroupDescribeResponse::decode_exact(body, 0).unwrap(),
        response
    );
}

#[test]
fn frames_with_bad_sizes_or_headers_are_errors() {
    let mut negative = BytesMut::from(&[0xff, 0xff, 0xff, 0xfe][..]);
    assert!(matches!(
        frame::split_frame(&mut negative, 100),
        Err(FrameError::TooLarge { size: -2, max: 100 })
    ));
    let mut oversized = BytesMut::from(&[0x00, 0x00, 0x01, 0x00][..]);
    assert!(matches!(
        frame::split_frame(&mut oversized, 100),
        Err(FrameError::TooLarge {
            size: 256,
            max: 100
        })
    ));
    let mut partial = BytesMut::from(&[0x00, 0x00, 0x00, 0x05, 0x01][..]);
    assert!(frame::split_frame(&mut partial, 100).unwrap().is_none());
    assert_eq!(partial.len(), 5, "an incomplete frame stays buffered");
    for truncated in [
        &[][..],
        &[0x00, 0x58],
        &[0x00, 0x58, 0x00, 0x00, 0x00],
        &[
            0x00, 0x58, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x05, b'a',
        ],
    ] {
        assert!(matches!(
            frame::decode_request_header(truncated),
            Err(FrameError::Header(_))
        ));
    }
    assert!(matches!(
        frame::decode_response_header(&[0x00, 0x00]),
        Err(FrameError::Header(_))
    ));
}

#[test]
fn kafka_protocol_traits_decode_a_prefix_and_leave_the_rest() {
    let request = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".into()]);
    let mut buffer = BytesMut::new();
    request.encode(&mut buffer, 1).unwrap();
    assert_eq!(request.compute_size(1).unwrap(), buffer.len());
    buffer.extend_from_slice(&[0xee, 0xee]);
    let mut bytes = buffer.freeze();
    let decoded = StreamsGroupDescribeRequest::decode(&mut bytes, 1).unwrap();
    assert_eq!(decoded, request);
    assert_eq!(&bytes[..], [0xee, 0xee]);
    let error =
        StreamsGroupDescribeRequest::decode(&mut Bytes::from_static(&[0x02]), 0).unwrap_err();
    assert!(error.downcast_ref::<DecodeError>().is_some());
}

#[test]
fn array_count_check_admits_items_of_the_smallest_size() {
    // Three groups with every field at its smallest: 20 bytes each at v0, 23 at v1.
    for version in [0, 1] {
        let response =
            StreamsGroupDescribeResponse::default().with_groups(vec![DescribedGroup::default(); 3]);
        let bytes = response.encode_to_vec(version).unwrap();
        assert_eq!(bytes.len(), 4 + 1 + 3 * (20 + 3 * version as usize) + 1);
        assert_eq!(
            StreamsGroupDescribeResponse::decode_exact(&bytes, version).unwrap(),
            response
        );
    }
}

#[test]
fn integer_arrays_refuse_bad_counts_like_any_array() {
    use streamspec_protocol::kafka::streams_group_heartbeat_request::TaskIds;
    let request =
        StreamsGroupHeartbeatRequest::default().with_active_tasks(Some(vec![TaskIds::default()
            .with_subtopology_id("s")
            .with_partitions(vec![1, 2])]));
    let bytes = request.encode_to_vec(0).unwrap();
    let (_, trace) = StreamsGroupHeartbeatRequest::decode_traced(&bytes, 0).unwrap();
    let count_at = trace
        .iter()
        .find(|entry| entry.path() == "active_tasks[0].partitions")
        .unwrap()
        .start;
    assert_eq!(bytes[count_at], 3, "two items, compact");
    // Each case: the count byte, then the error of the plain and of the traced decoder alike.
    let cases = [
        (0, DecodeErrorKind::UnexpectedNull),
        (
            100,
            DecodeErrorKind::InvalidLength {
                length: 99,
                remaining: bytes.len() - count_at - 1,
            },
        ),
    ];
    for (count, kind) in cases {
        let mut edited = bytes.clone();
        edited[count_at] = count;
        for error in [
            StreamsGroupHeartbeatRequest::decode_exact(&edited, 0).unwrap_err(),
            StreamsGroupHeartbeatRequest::decode_traced(&edited, 0).unwrap_err(),
        ] {
            assert_eq!(error.kind, kind);
            assert_eq!(
                (error.offset, error.path.to_string()),
                (count_at, "active_tasks[0].partitions".to_owned())
            );
        }
    }
    // Cut inside the second item: the count check refuses it before any item is read.
    let cut = &bytes[..count_at + 1 + 6];
    let error = StreamsGroupHeartbeatRequest::decode_exact(cut, 0).unwrap_err();
    assert_eq!(
        error.kind,
        DecodeErrorKind::InvalidLength {
            length: 2,
            remaining: 6
        }
    );
    assert_eq!(error.offset, count_at);
}
