use super::*;
use bytes::BytesMut;

/// Something done with each message type that has a layout.
pub(super) trait Visitor {
    fn visit<M: Bounded>(&mut self);
}

/// A tag no layout knows, which the walk and the decoder both skip.
const UNKNOWN_TAG: u32 = 100;

/// Bytes along a layout with every field of the version present: each array of two
/// elements, each string and bytes field of two bytes, each struct there, each fixed-width
/// field 1, each known tagged field and an unknown one.
struct Synthesis {
    out: Vec<u8>,
    version: i16,
    flexible: bool,
}

impl Synthesis {
    fn of(layout: &Layout, version: i16) -> Vec<u8> {
        let mut synthesis = Synthesis {
            out: Vec::new(),
            version,
            flexible: layout.flexible.contain(version),
        };
        synthesis.fields(layout.fields);
        synthesis.out
    }

    fn fields(&mut self, fields: &[Field]) {
        for field in untagged(fields, self.version) {
            self.value(field.kind);
        }
        if !self.flexible {
            return;
        }
        let mut known: Vec<&Field> = fields
            .iter()
            .filter(|field| field.tag.is_some() && field.versions.contain(self.version))
            .collect();
        known.sort_by_key(|field| field.tag);
        self.varint(known.len() as u32 + 1);
        for field in known {
            let mut value = Synthesis {
                out: Vec::new(),
                version: self.version,
                flexible: true,
            };
            value.value(field.kind);
            self.varint(field.tag.expect("a tagged field"));
            self.varint(value.out.len() as u32);
            self.out.extend(value.out);
        }
        self.varint(UNKNOWN_TAG);
        self.varint(2);
        self.out.extend([0xab, 0xcd]);
    }

    fn value(&mut self, kind: Kind) {
        match kind {
            Kind::Fixed(width) => {
                self.out.extend(std::iter::repeat_n(0, width - 1));
                self.out.push(1);
            }
            Kind::String => {
                self.length(2, false);
                self.out.extend(b"ab");
            }
            Kind::Bytes => {
                self.length(2, true);
                self.out.extend([1, 2]);
            }
            Kind::Array(element) => {
                self.length(2, true);
                self.value(*element);
                self.value(*element);
            }
            Kind::Struct(fields) => self.fields(fields),
            Kind::NullableStruct(fields) => {
                self.out.push(1);
                self.fields(fields);
            }
        }
    }

    fn length(&mut self, length: u16, wide: bool) {
        if self.flexible {
            self.varint(u32::from(length) + 1);
        } else if wide {
            self.out.extend(i32::from(length).to_be_bytes());
        } else {
            self.out.extend(length.to_be_bytes());
        }
    }

    fn varint(&mut self, mut value: u32) {
        while value >= 0x80 {
            self.out.push(value as u8 | 0x80);
            value >>= 7;
        }
        self.out.push(value as u8);
    }
}

/// One version of one message with a body `kafka-protocol` wrote, and how many bytes its
/// decoder takes of a body (`None` when it refuses it).
struct Case {
    layout: &'static Layout,
    version: i16,
    body: Vec<u8>,
    decoded: fn(&[u8], i16) -> Option<usize>,
}

impl Case {
    fn walked(&self, body: &[u8]) -> Result<usize, String> {
        self.layout.walk(self.version, body)
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} v{}", self.layout.name, self.version)
    }
}

fn decoded<M: Bounded>(body: &[u8], version: i16) -> Option<usize> {
    let mut rest = body;
    M::decode(&mut rest, version).ok()?;
    Some(body.len() - rest.len())
}

/// Every version of every message with a layout, with a body synthesized along the layout,
/// which `kafka-protocol` must decode whole and encode back byte for byte: so the layout
/// says what its decoder reads.
fn cases() -> Vec<Case> {
    struct Cases(Vec<Case>);
    impl Visitor for Cases {
        fn visit<M: Bounded>(&mut self) {
            let layout = M::LAYOUT;
            for version in layout.versions.min..=layout.versions.max {
                let synthesized = Synthesis::of(layout, version);
                let mut rest = &synthesized[..];
                let message = M::decode(&mut rest, version).unwrap_or_else(|error| {
                    panic!("{} v{version} does not decode: {error}", layout.name)
                });
                assert!(rest.is_empty(), "{} v{version}: bytes left", layout.name);
                let mut body = BytesMut::new();
                message.encode(&mut body, version).unwrap();
                assert_eq!(body, synthesized, "{} v{version}", layout.name);
                self.0.push(Case {
                    layout,
                    version,
                    body: body.to_vec(),
                    decoded: decoded::<M>,
                });
            }
        }
    }
    let mut cases = Cases(Vec::new());
    visit_every_message(&mut cases);
    cases.0
}

#[test]
fn every_layout_covers_the_versions_kafka_protocol_decodes() {
    struct Mismatches(Vec<String>);
    impl Visitor for Mismatches {
        fn visit<M: Bounded>(&mut self) {
            let ours = M::LAYOUT.versions;
            let theirs = M::VERSIONS;
            if (ours.min, ours.max) != (theirs.min, theirs.max) {
                self.0.push(format!(
                    "{}: {}-{}, kafka-protocol {}-{}",
                    M::LAYOUT.name,
                    ours.min,
                    ours.max,
                    theirs.min,
                    theirs.max
                ));
            }
        }
    }
    let mut mismatches = Mismatches(Vec::new());
    visit_every_message(&mut mismatches);
    assert_eq!(mismatches.0, Vec::<String>::new());
}

#[test]
fn bodies_kafka_protocol_writes_are_walked_whole() {
    for case in cases() {
        assert_eq!(case.walked(&case.body), Ok(case.body.len()), "{case}");
    }
}

#[test]
fn every_truncated_body_is_refused_by_the_walk_as_by_the_decoder() {
    for case in cases() {
        for end in 0..case.body.len() {
            let body = &case.body[..end];
            assert!(case.walked(body).is_err(), "{case} cut at {end}");
            assert_eq!(
                (case.decoded)(body, case.version),
                None,
                "{case} cut at {end}"
            );
        }
    }
}

/// Where the walk takes a body, the decoder reads it the same way (or refuses what the walk
/// leaves to it, such as a null where none may be): never a count or length the walk did
/// not see.
#[test]
fn the_walk_and_the_decoder_agree_on_bodies_with_one_byte_changed() {
    for case in cases() {
        for at in 0..case.body.len() {
            for byte in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff] {
                let mut body = case.body.clone();
                body[at] = byte;
                if let Ok(walked) = case.walked(&body) {
                    let decoded = (case.decoded)(&body, case.version);
                    assert!(
                        decoded.is_none() || decoded == Some(walked),
                        "{case}, byte {at} set to {byte:#x}: walked {walked}, decoded {decoded:?}"
                    );
                }
            }
        }
    }
}

fn refusal<M: Bounded>(version: i16, body: &[u8]) -> String {
    match decode::<M>(version, &mut &body[..]) {
        Ok(_) => panic!("{} v{version} {body:?} decodes", M::LAYOUT.name),
        Err(reason) => reason,
    }
}

#[test]
fn a_count_beyond_the_bytes_in_a_nested_array_is_refused_with_its_path() {
    let mut body = vec![0, 0, 0, 0]; // throttle_time_ms
    body.push(1); // no brokers
    body.push(0); // cluster_id null
    body.extend([0, 0, 0, 1]); // controller_id
    body.push(2); // one topic:
    body.extend([0, 0]); // error_code
    body.extend([2, b't']); // name
    body.extend([7; 16]); // topic_id
    body.push(0); // is_internal
    body.extend(COMPACT_2_POW_31_MINUS_1); // partitions
    body.extend([0, 0, 0, 0, 0, 0]); // authorized operations, tagged fields of both
    assert_eq!(
        refusal::<MetadataResponse>(12, &body),
        "MetadataResponse v12 .topics[0].partitions: count 2147483647 of at least 18 bytes each exceeds the 6 bytes left"
    );
    // Version 0: int32 counts.
    let mut body = vec![0, 0, 0, 0]; // no brokers
    body.extend([0, 0, 0, 1]); // one topic:
    body.extend([0, 0, 0, 1, b't']); // error_code, name
    body.extend([0x7f, 0xff, 0xff, 0xff]); // partitions
    assert_eq!(
        refusal::<MetadataResponse>(0, &body),
        "MetadataResponse v0 .topics[0].partitions: count 2147483647 of at least 18 bytes each exceeds the 0 bytes left"
    );
}

#[test]
fn a_length_beyond_the_bytes_is_refused_with_its_path() {
    let mut body = vec![0, 0, 0, 0]; // throttle_time_ms
    body.push(2); // one coordinator:
    body.extend(COMPACT_2_POW_31_MINUS_1); // key
    body.extend([0; 20]);
    assert_eq!(
        refusal::<FindCoordinatorResponse>(4, &body),
        "FindCoordinatorResponse v4 .coordinators[0].key: length 2147483647 exceeds the 20 bytes left"
    );
    let body = [0, 0, 0, 0, 0, 1, 0x7f, 0xff, b'h']; // error_code, node_id, host
    assert_eq!(
        refusal::<FindCoordinatorResponse>(0, &body),
        "FindCoordinatorResponse v0 .host: length 32767 exceeds the 1 bytes left"
    );
    let mut body = vec![0xff, 0xff, 0, 1, 0, 0, 0, 0]; // no transactional id, acks, timeout
    body.extend([0, 0, 0, 1, 0, 1, b't']); // one topic, its name
    body.extend([0, 0, 0, 1, 0, 0, 0, 0]); // one partition, its index
    body.extend([0x7f, 0xff, 0xff, 0xff, 0]); // records
    assert_eq!(
        refusal::<ProduceRequest>(3, &body),
        "ProduceRequest v3 .topic_data[0].partition_data[0].records: length 2147483647 exceeds the 1 bytes left"
    );
}

#[test]
fn tagged_fields_are_bounded_by_their_sizes() {
    // No api keys, throttle_time_ms, then one tagged field: finalized features (tag 2) of
    // 5 bytes announcing 2^28 - 1 of them.
    let head = [0, 0, 1, 0, 0, 0, 0];
    let body = [&head[..], &[1, 2, 5, 0x80, 0x80, 0x80, 0x80, 0x01]].concat();
    assert_eq!(
        refusal::<ApiVersionsResponse>(3, &body),
        "ApiVersionsResponse v3 .finalized_features: count 268435455 of at least 6 bytes each exceeds the 0 bytes left"
    );
    // Tag 9 of 300 bytes in 2.
    let body = [&head[..], &[1, 9, 0xac, 0x02, 0, 0]].concat();
    assert_eq!(
        refusal::<ApiVersionsResponse>(3, &body),
        "ApiVersionsResponse v3 ._tagged_fields: tag 9: size 300 exceeds the 2 bytes left"
    );
    // 2^32 - 1 tagged fields.
    let body = [&head[..], &[0xff, 0xff, 0xff, 0xff, 0x0f]].concat();
    assert_eq!(
        refusal::<ApiVersionsResponse>(3, &body),
        "ApiVersionsResponse v3 ._tagged_fields: count 4294967295 of at least 2 bytes each exceeds the 0 bytes left"
    );
    // The epoch (tag 1) in 9 bytes: the decoder would read the ninth as the next tag.
    let body = [&head[..], &[1, 1, 9, 0, 0, 0, 0, 0, 0, 0, 1, 0]].concat();
    assert_eq!(
        refusal::<ApiVersionsResponse>(3, &body),
        "ApiVersionsResponse v3 .finalized_features_epoch: the value takes 8 of the 9 bytes of tag 1"
    );
}

#[test]
fn a_varint_beyond_32_bits_is_refused() {
    let body = [0, 0, 0xff, 0xff, 0xff, 0xff, 0x1f];
    assert_eq!(
        refusal::<ApiVersionsResponse>(3, &body),
        "ApiVersionsResponse v3 .api_keys: a varint beyond 32 bits"
    );
}

#[test]
fn counts_of_every_array_form_are_refused_beyond_the_bytes() {
    // A compact array of 2^32 - 2 api keys, then a plain one of 2^31 - 1.
    assert_eq!(
        refusal::<ApiVersionsResponse>(3, &[0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]),
        "ApiVersionsResponse v3 .api_keys: count 4294967294 of at least 7 bytes each exceeds the 0 bytes left"
    );
    assert_eq!(
        refusal::<ApiVersionsResponse>(0, &[0, 0, 0x7f, 0xff, 0xff, 0xff]),
        "ApiVersionsResponse v0 .api_keys: count 2147483647 of at least 6 bytes each exceeds the 0 bytes left"
    );
    // Negative, and null where a field may not be: the one refused here, the other by the
    // decoder.
    assert_eq!(
        refusal::<ApiVersionsResponse>(0, &[0, 0, 0xff, 0xff, 0xff, 0xfe]),
        "ApiVersionsResponse v0 .api_keys: length -2 is negative"
    );
    assert_eq!(
        refusal::<ApiVersionsResponse>(0, &[0, 0, 0xff, 0xff, 0xff, 0xff]),
        "Array length is negative (-1)"
    );
}

#[test]
fn a_nullable_struct_marker_is_minus_one_or_one() {
    let mut body = vec![0, 0, 0, 0, 0, 0]; // throttle_time_ms, error_code
    body.extend([0, 1]); // error_message null, member_id empty
    body.extend([0, 0, 0, 1, 0, 0, 0, 1]); // member_epoch, heartbeat_interval_ms
    body.extend([0, 0]); // the assignment's marker, tagged fields
    assert_eq!(
        refusal::<ConsumerGroupHeartbeatResponse>(1, &body),
        "ConsumerGroupHeartbeatResponse v1 .assignment: null marker 0 is neither -1 nor 1"
    );
}
