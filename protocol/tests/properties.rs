//! Codec properties over generated input, for every message kind and version:
//! - any value (from `arbitrary`, restricted to the version) encodes, decodes to itself, and its
//!   computed size equals the bytes written;
//! - any byte string decodes or fails cleanly, and when it decodes it re-encodes to the same bytes
//!   (`fuzzing::check_bytes`); mutated encodings of the samples reach deep into the decoder.
//!
//! `PROPTEST_CASES` raises the number of cases for long runs; `STREAMSPEC_SEED` picks another
//! root seed.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use streamspec_protocol::fuzzing::root_seed;
use streamspec_protocol::fuzzing::{check_bytes, check_value};
use streamspec_protocol::rng::SplitMix64;
use streamspec_protocol::{samples, AnyMessage, MessageKind};

fn kind_and_version() -> impl Strategy<Value = (MessageKind, i16)> {
    let pairs: Vec<(MessageKind, i16)> = MessageKind::ALL
        .iter()
        .flat_map(|kind| {
            let versions = kind.versions();
            (versions.min..=versions.max).map(move |version| (*kind, version))
        })
        .collect();
    proptest::sample::select(pairs)
}

/// One edit of an encoding: overwrite, insert or delete a byte, or cut the input short.
#[derive(Debug, Clone)]
enum Edit {
    Overwrite(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn apply(edits: &[Edit], bytes: &mut Vec<u8>) {
    for edit in edits {
        let at = |index: usize, len: usize| if len == 0 { 0 } else { index % len };
        match *edit {
            Edit::Overwrite(index, byte) if !bytes.is_empty() => {
                let index = at(index, bytes.len());
                bytes[index] = byte;
            }
            Edit::Insert(index, byte) => {
                let index = at(index, bytes.len() + 1);
                bytes.insert(index, byte);
            }
            Edit::Delete(index) if !bytes.is_empty() => {
                let index = at(index, bytes.len());
                bytes.remove(index);
            }
            Edit::Truncate(length) => bytes.truncate(at(length, bytes.len() + 1)),
            _ => {}
        }
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(index, byte)| Edit::Overwrite(index, byte)),
        (any::<usize>(), any::<u8>()).prop_map(|(index, byte)| Edit::Insert(index, byte)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: RngSeed::Fixed(root_seed()),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_values_round_trip((kind, version) in kind_and_version(), seed in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let mut input = arbitrary::Unstructured::new(&seed);
        if let Ok(message) = AnyMessage::arbitrary_of(kind, &mut input) {
            check_value(message, version);
        }
    }

    #[test]
    fn random_bytes_decode_or_fail_cleanly((kind, version) in kind_and_version(), bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check_bytes(kind, &bytes, version);
    }

    #[test]
    fn mutated_samples_decode_or_fail_cleanly(index in any::<usize>(), edits in proptest::collection::vec(edit(), 1..4)) {
        let all = samples::all();
        let sample = &all[index % all.len()];
        let mut bytes = sample.message.encode_to_vec(sample.version).unwrap();
        apply(&edits, &mut bytes);
        check_bytes(sample.message.kind(), &bytes, sample.version);
    }
}

#[test]
fn every_sample_round_trips_as_a_value() {
    for sample in samples::all() {
        assert!(
            check_value(sample.message, sample.version),
            "{}",
            sample.name
        );
    }
}

/// The value generator reaches nested structures, so the round-trip property covers them.
#[test]
fn arbitrary_values_reach_nested_structures() {
    // A fixed stream, so the witness is deterministic.
    let mut rng = SplitMix64::new(0x5eed);
    let mut reached = false;
    for _ in 0..64 {
        let seed = rng.bytes(4096);
        let mut input = arbitrary::Unstructured::new(&seed);
        let message =
            AnyMessage::arbitrary_of(MessageKind::StreamsGroupHeartbeatRequest, &mut input)
                .unwrap();
        if let AnyMessage::StreamsGroupHeartbeatRequest(request) = message {
            reached |= request.topology.is_some_and(|topology| {
                topology
                    .subtopologies
                    .iter()
                    .any(|s| !s.source_topics.is_empty())
            });
        }
    }
    assert!(
        reached,
        "no generated heartbeat carried a subtopology with source topics"
    );
}
