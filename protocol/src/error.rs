//! Typed codec errors. A decode error is the peer's fault (malformed bytes) and says where; an
//! encode error is the caller's (a value the chosen version cannot carry).

use std::fmt;

/// One step of a field path such as `topology.subtopologies[2].source_topics[0]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathSegment {
    /// A named field (the Rust field name).
    Field(&'static str),
    /// An element of an array.
    Index(usize),
}

/// A field path, stored innermost segment first because it is built while an error unwinds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath(Vec<PathSegment>);

impl FieldPath {
    pub(crate) fn from_innermost_first(segments: Vec<PathSegment>) -> Self {
        FieldPath(segments)
    }

    pub(crate) fn push_outer(&mut self, segment: PathSegment) {
        self.0.push(segment);
    }

    /// The segments from the outermost to the innermost.
    pub fn segments(&self) -> impl Iterator<Item = PathSegment> + '_ {
        self.0.iter().rev().copied()
    }

    /// True for the message itself (no field).
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            return f.write_str("<message>");
        }
        for (position, segment) in self.segments().enumerate() {
            match segment {
                PathSegment::Field(name) if position == 0 => f.write_str(name)?,
                PathSegment::Field(name) => write!(f, ".{name}")?,
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// What is wrong with bytes that failed to decode.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ends inside a value: `needed` bytes were required, `remaining` were left.
    Truncated { needed: usize, remaining: usize },
    /// A length prefix that no valid input can have: negative once decoded, longer than the
    /// protocol allows, or an array count whose smallest encoding exceeds the remaining bytes.
    InvalidLength { length: i64, remaining: usize },
    /// A string whose bytes are not UTF-8.
    InvalidUtf8,
    /// A null where the schema does not allow one.
    UnexpectedNull,
    /// A varint longer than five bytes, with redundant trailing zero groups, or above `u32::MAX`.
    InvalidVarint,
    /// A boolean byte other than 0 or 1 (Kafka's Java reader accepts any non-zero byte as true).
    InvalidBoolean(u8),
    /// A nullable-struct marker other than -1 or 1 (Kafka's Java reader accepts any value >= 0).
    InvalidNullMarker(i8),
    /// Unknown tagged fields not in strictly ascending tag order.
    TaggedFieldsOutOfOrder { tag: u32, previous: u32 },
    /// The message has no such version.
    UnsupportedVersion { message: &'static str, version: i16 },
    /// Bytes left over after a complete message.
    TrailingBytes { count: usize },
}

/// Bytes that do not decode, with the byte offset and field path where decoding stopped: a
/// [`DecodeErrorDetails`] behind one pointer, so that a decode result is no bigger than its value
/// and moves through registers on the decoder's hot path. Its fields read through `Deref`.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<DecodeErrorDetails>);

/// What a [`DecodeError`] says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeErrorDetails {
    /// Offset of the first byte of the value that could not be read.
    pub offset: usize,
    pub path: FieldPath,
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(offset: usize, kind: DecodeErrorKind) -> Self {
        DecodeError(Box::new(DecodeErrorDetails {
            offset,
            path: FieldPath::default(),
            kind,
        }))
    }

    /// Adds `segment` to the path while the error unwinds; out of line, as errors are rare.
    #[cold]
    #[inline(never)]
    pub(crate) fn within(mut self, segment: PathSegment) -> Self {
        self.0.path.push_outer(segment);
        self
    }
}

impl std::ops::Deref for DecodeError {
    type Target = DecodeErrorDetails;

    fn deref(&self) -> &DecodeErrorDetails {
        &self.0
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("offset", &self.offset)
            .field("path", &self.path)
            .field("kind", &self.kind)
            .finish()
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Truncated { needed, remaining } => {
                write!(
                    f,
                    "truncated input: needed {needed} bytes, {remaining} left"
                )
            }
            DecodeErrorKind::InvalidLength { length, remaining } => {
                write!(f, "invalid length {length} with {remaining} bytes left")
            }
            DecodeErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            DecodeErrorKind::UnexpectedNull => f.write_str("null in a non-nullable field"),
            DecodeErrorKind::InvalidVarint => f.write_str("invalid or non-canonical varint"),
            DecodeErrorKind::InvalidBoolean(byte) => write!(f, "invalid boolean byte {byte:#04x}"),
            DecodeErrorKind::InvalidNullMarker(marker) => {
                write!(f, "invalid nullable-struct marker {marker}")
            }
            DecodeErrorKind::TaggedFieldsOutOfOrder { tag, previous } => {
                write!(f, "tagged field {tag} follows tag {previous}")
            }
            DecodeErrorKind::UnsupportedVersion { message, version } => {
                write!(f, "{message} has no version {version}")
            }
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{count} trailing bytes after the message")
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}, {}: {}", self.offset, self.path, self.kind)
    }
}

impl std::error::Error for DecodeError {}

/// Why a value cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The message has no such version.
    UnsupportedVersion { message: &'static str, version: i16 },
    /// A field that the version lacks holds a value other than its default, and the schema does
    /// not mark it ignorable.
    FieldNotInVersion { version: i16 },
    /// A string longer than the protocol's 32,767-byte limit.
    StringTooLong { length: usize },
    /// An array or byte field longer than a compact length can carry.
    TooLong { length: usize },
}

/// A value that cannot be encoded, with the field path of the offending value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    pub path: FieldPath,
    pub kind: EncodeErrorKind,
}

impl EncodeError {
    pub(crate) fn new(kind: EncodeErrorKind) -> Self {
        EncodeError {
            path: FieldPath::default(),
            kind,
        }
    }

    pub(crate) fn within(mut self, segment: PathSegment) -> Self {
        self.path.push_outer(segment);
        self
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            EncodeErrorKind::UnsupportedVersion { message, version } => {
                write!(f, "{message} has no version {version}")
            }
            EncodeErrorKind::FieldNotInVersion { version } => write!(
                f,
                "{}: set to a non-default value, but version {version} lacks the field",
                self.path
            ),
            EncodeErrorKind::StringTooLong { length } => write!(
                f,
                "{}: string of {length} bytes exceeds the 32767-byte limit",
                self.path
            ),
            EncodeErrorKind::TooLong { length } => {
                write!(f, "{}: {length} items exceed a compact length", self.path)
            }
        }
    }
}

impl std::error::Error for EncodeError {}
