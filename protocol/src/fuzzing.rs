//! Entry points of the fuzz targets, shared with the corpus replay and the property tests so that
//! a fuzz find replays as an ordinary test. Each checks the codec properties and panics on a
//! violation:
//!
//! - bytes that decode re-encode to exactly the same bytes (the decoder accepts only canonical
//!   encodings, so there is no normalisation);
//! - the computed size equals the number of bytes written;
//! - a message fills its frame completely (trailing bytes are refused);
//! - the annotated dump covers every byte;
//! - bytes that do not decode give an error inside the input, never a panic;
//! - the borrowed decoder (`...View::decode`) agrees with the owned one on every input.

use crate::rng::{sub_seed, XorShift64Star};
use crate::{AnyMessage, EncodeErrorKind, MessageKind};

/// The `decode_request` target: byte 0 picks a request kind, byte 1 the version (as a signed
/// byte, so unknown and negative versions are covered), the rest is the message.
pub fn decode_request(data: &[u8]) {
    decode_selected(data, true);
}

/// The `decode_response` target, laid out like [`decode_request`].
pub fn decode_response(data: &[u8]) {
    decode_selected(data, false);
}

/// The kinds a target chooses from, in selector order.
pub fn target_kinds(requests: bool) -> Vec<MessageKind> {
    MessageKind::ALL
        .iter()
        .copied()
        .filter(|kind| kind.is_request() == requests)
        .collect()
}

/// The fuzz input that makes a target decode `body` as `kind` at `version`.
pub fn seed(kind: MessageKind, version: i16, body: &[u8]) -> Vec<u8> {
    let kinds = target_kinds(kind.is_request());
    let selector = kinds
        .iter()
        .position(|candidate| *candidate == kind)
        .unwrap() as u8;
    let mut input = vec![selector, version as i8 as u8];
    input.extend_from_slice(body);
    input
}

fn decode_selected(data: &[u8], requests: bool) {
    let [selector, version, body @ ..] = data else {
        return;
    };
    let kinds = target_kinds(requests);
    let kind = kinds[usize::from(*selector) % kinds.len()];
    check_bytes(kind, body, i16::from(*version as i8));
}

/// Decodes `bytes` and checks the codec properties; returns the message when it decoded.
pub fn check_bytes(kind: MessageKind, bytes: &[u8], version: i16) -> Option<AnyMessage> {
    let decoded = kind.decode(bytes, version);
    // The borrowed decoder refuses exactly what the owned one refuses, with the same error, and
    // otherwise reads the same values (its arrays read again when converted).
    assert_eq!(
        kind.decode_view(bytes, version),
        decoded,
        "{kind:?} v{version}: the borrowed decoder differs from the owned one"
    );
    let message = match decoded {
        Ok(message) => message,
        Err(error) => {
            assert!(
                error.offset <= bytes.len(),
                "error offset past the input: {error}"
            );
            // The plain decoder's fast paths (an empty tagged-field section, integer arrays read
            // from one slice) are untraced only: the traced decoder must refuse alike.
            assert_eq!(
                kind.decode_traced(bytes, version).err().as_ref(),
                Some(&error),
                "{kind:?} v{version}: the traced decoder refuses otherwise"
            );
            return None;
        }
    };
    let encoded = message
        .encode_to_vec(version)
        .unwrap_or_else(|error| panic!("decoded {kind:?} v{version} does not re-encode: {error}"));
    assert_eq!(
        encoded, bytes,
        "{kind:?} v{version} re-encodes to other bytes"
    );
    assert_eq!(
        message.encoded_size(version),
        Ok(bytes.len()),
        "{kind:?} v{version} size"
    );
    let dump = crate::annotate::annotate(kind, bytes, version).expect("annotating decodable bytes");
    assert!(
        !dump.contains("<not decoded>"),
        "dump leaves bytes out:\n{dump}"
    );
    Some(message)
}

/// Encodes a value restricted to `version` and checks that it decodes to the same value, with the
/// computed size equal to the bytes written. Returns false when the value cannot be encoded for a
/// reason the caller made (a string or array over the protocol's limits).
pub fn check_value(mut message: AnyMessage, version: i16) -> bool {
    message.restrict_to_version(version);
    let bytes = match message.encode_to_vec(version) {
        Ok(bytes) => bytes,
        Err(error) => {
            assert!(
                matches!(
                    error.kind,
                    EncodeErrorKind::StringTooLong { .. } | EncodeErrorKind::TooLong { .. }
                ),
                "a value restricted to v{version} failed to encode: {error}"
            );
            return false;
        }
    };
    assert_eq!(message.encoded_size(version), Ok(bytes.len()));
    let decoded = check_bytes(message.kind(), &bytes, version)
        .unwrap_or_else(|| panic!("encoded {:?} v{version} does not decode", message.kind()));
    assert_eq!(decoded, message, "value changed in a round trip");
    true
}

/// The root seed of every property test and seeded run: `STREAMSPEC_SEED`, 0x5eed by default, so
/// that a failure prints the one value that replays it.
pub fn root_seed() -> u64 {
    std::env::var("STREAMSPEC_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(0x5eed)
}

/// How many cases a property test runs: `STREAMSPEC_CASES` for long runs, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("STREAMSPEC_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

/// Input `case` of the seeded byte stream of `seed`: `length` bytes of xorshift64*
/// ([`crate::rng`]), pinned so that a seed and a case number always name the same input.
pub fn seeded_input(seed: u64, case: u64, length: usize) -> Vec<u8> {
    XorShift64Star::new(sub_seed(seed, case)).bytes(length)
}
