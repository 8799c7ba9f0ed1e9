//! Bounds on what decoding a standard Kafka message may allocate. `kafka-protocol` reserves room
//! for every element an array's length prefix announces (`Vec::with_capacity(count)`), and for
//! some bytes fields zeroes a buffer of the announced length, before it reads any of them: a
//! peer that announces 2^31 - 1 topics in a 40-byte frame makes it ask for gigabytes, and the
//! process aborts. Each message the harness and the proxy decode with `kafka-protocol` has its
//! wire layout here, for every version `kafka-protocol` decodes (taken from its generated
//! decoders, which follow Kafka's message JSON schemas), and [`decode`] walks the bytes along
//! that layout, refusing any count or length that the bytes left cannot hold, before decoding.

use std::fmt;

use kafka_protocol::messages::{
    ApiVersionsResponse, ConsumerGroupHeartbeatResponse, CreateAclsResponse,
    CreatePartitionsResponse, CreateTopicsRequest, CreateTopicsResponse, DeleteAclsResponse,
    DeleteTopicsResponse, DescribeAclsResponse, DescribeClusterResponse, DescribeConfigsResponse,
    FindCoordinatorResponse, IncrementalAlterConfigsResponse, ListConfigResourcesResponse,
    ListGroupsResponse, MetadataResponse, ProduceRequest,
};
use kafka_protocol::protocol::{Decodable, Encodable, Message};

/// Decodes `body` as version `version` of `M`, once a walk along `M`'s wire layout has found
/// every array count and string or bytes length within the bytes left. Leaves `body` after the
/// message, as `kafka-protocol` does. The error says where and why the walk stopped, or is the
/// decoder's.
pub fn decode<M: Bounded>(version: i16, body: &mut &[u8]) -> Result<M, String> {
    M::LAYOUT.walk(version, body)?;
    M::decode(body, version).map_err(|error| error.to_string())
}

/// A `kafka-protocol` message with a wire layout, which [`decode`] checks a body against.
pub trait Bounded: Decodable + Encodable + Message {
    const LAYOUT: &'static Layout;
}

/// The wire layout of one message over the versions `kafka-protocol` decodes.
#[derive(Debug)]
pub struct Layout {
    /// The message's name in Kafka's schemas, for reasons.
    name: &'static str,
    versions: Versions,
    /// The versions in which strings, bytes and arrays are compact and structs end with tagged
    /// fields.
    flexible: Versions,
    fields: &'static [Field],
}

/// The versions of a message that carry a field, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Versions {
    min: i16,
    max: i16,
}

impl Versions {
    const fn contain(self, version: i16) -> bool {
        self.min <= version && version <= self.max
    }
}

/// Every version; within a layout, the ones it covers.
const ALL: Versions = Versions {
    min: 0,
    max: i16::MAX,
};

/// Kafka's `N+`.
const fn from(min: i16) -> Versions {
    Versions { min, max: i16::MAX }
}

/// Kafka's `N-M`.
const fn span(min: i16, max: i16) -> Versions {
    Versions { min, max }
}

#[derive(Debug, Clone, Copy)]
struct Field {
    name: &'static str,
    versions: Versions,
    kind: Kind,
    /// The tag of a tagged field: it is written in its struct's tagged-field section, and
    /// `versions` are the versions in which it is tagged.
    tag: Option<u32>,
}

const fn field(name: &'static str, versions: Versions, kind: Kind) -> Field {
    Field {
        name,
        versions,
        kind,
        tag: None,
    }
}

const fn tagged(tag: u32, name: &'static str, versions: Versions, kind: Kind) -> Field {
    Field {
        name,
        versions,
        kind,
        tag: Some(tag),
    }
}

/// How a field is written. Strings, bytes and arrays have a varint length prefix (length + 1, 0
/// for null) in flexible versions, else an int16 (strings) or int32 one (-1 for null). Null is
/// accepted wherever a prefix can say it: it allocates nothing, and the decoder refuses it where
/// the field cannot be null.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Fixed width: int8 and bool (1 byte), int16 (2), int32 (4), int64 (8), uuid (16).
    Fixed(usize),
    String,
    /// Bytes and records.
    Bytes,
    Array(&'static Kind),
    /// A struct in place: its fields, then in flexible versions its tagged fields.
    Struct(&'static [Field]),
    /// An int8 marker, 1 for a struct that follows and -1 for null.
    NullableStruct(&'static [Field]),
}

const INT8: Kind = Kind::Fixed(1);
const BOOL: Kind = Kind::Fixed(1);
const INT16: Kind = Kind::Fixed(2);
const INT32: Kind = Kind::Fixed(4);
const INT64: Kind = Kind::Fixed(8);
const UUID: Kind = Kind::Fixed(16);
const STRING: Kind = Kind::String;
const BYTES: Kind = Kind::Bytes;
const INT32S: Kind = Kind::Array(&INT32);

impl Kind {
    /// The fewest bytes a value of this kind takes in `version`, null aside.
    fn size_min(self, version: i16, flexible: bool) -> usize {
        match self {
            Kind::Fixed(width) => width,
            Kind::String if flexible => 1,
            Kind::String => 2,
            Kind::Bytes | Kind::Array(_) if flexible => 1,
            Kind::Bytes | Kind::Array(_) => 4,
            Kind::Struct(fields) => {
                let sizes: usize = untagged(fields, version)
                    .map(|field| field.kind.size_min(version, flexible))
                    .sum();
                // The count of tagged fields.
                sizes + usize::from(flexible)
            }
            Kind::NullableStruct(_) => 1,
        }
    }
}

/// The fields of `fields` written in order in `version`.
fn untagged(fields: &[Field], version: i16) -> impl Iterator<Item = &Field> {
    fields
        .iter()
        .filter(move |field| field.tag.is_none() && field.versions.contain(version))
}

impl Layout {
    /// Walks `body` along this layout at `version`: how many bytes the message takes, or the
    /// message, the version, the field path and the reason at the first count or length beyond
    /// the bytes left, or where the bytes run out. Bytes after the message are the caller's.
    fn walk(&self, version: i16, body: &[u8]) -> Result<usize, String> {
        if !self.versions.contain(version) {
            return Err(format!(
                "{} v{version}: only versions {} to {} are read",
                self.name, self.versions.min, self.versions.max
            ));
        }
        let mut walk = Walk {
            rest: body,
            version,
            flexible: self.flexible.contain(version),
        };
        walk.fields(self.fields, &Path::Root)
            .map_err(|refusal| format!("{} v{version} {refusal}", self.name))?;
        Ok(body.len() - walk.rest.len())
    }
}

/// Where a walk is, as `.topics[0].partitions`; formatted only when a walk stops.
#[derive(Debug, Clone, Copy)]
enum Path<'p> {
    Root,
    Field(&'p Path<'p>, &'static str),
    Index(&'p Path<'p>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Field(parent, name) => write!(f, "{parent}.{name}"),
            Path::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

/// Why a walk stopped: the path, then the reason.
type Refusal = String;

fn refuse(path: &Path, reason: impl fmt::Display) -> Refusal {
    format!("{path}: {reason}")
}

/// A walk over the bytes of one message (or of one tagged field's value).
#[derive(Debug)]
struct Walk<'a> {
    rest: &'a [u8],
    version: i16,
    flexible: bool,
}

impl<'a> Walk<'a> {
    /// A struct's fields, then in flexible versions its tagged fields.
    fn fields(&mut self, fields: &[Field], path: &Path) -> Result<(), Refusal> {
        for field in untagged(fields, self.version) {
            self.value(field.kind, &Path::Field(path, field.name))?;
        }
        if self.flexible {
            self.tagged_fields(fields, path)?;
        }
        Ok(())
    }

    fn value(&mut self, kind: Kind, path: &Path) -> Result<(), Refusal> {
        match kind {
            Kind::Fixed(width) => self.take(width, path).map(drop),
            Kind::String | Kind::Bytes => {
                let wide = matches!(kind, Kind::Bytes);
                if let Some(length) = self.length(wide, path)? {
                    if length > self.rest.len() {
                        return Err(refuse(
                            path,
                            format_args!(
                                "length {length} exceeds the {} bytes left",
                                self.rest.len()
                            ),
                        ));
                    }
                    self.take(length, path)?;
                }
                Ok(())
            }
            Kind::Array(element) => {
                let Some(count) = self.length(true, path)? else {
                    return Ok(());
                };
                // What the decoder reserves up front must fit in what the bytes can hold.
                let each = element.size_min(self.version, self.flexible).max(1);
                if count > self.rest.len() / each {
                    return Err(refuse(
                        path,
                        format_args!(
                            "count {count} of at least {each} bytes each exceeds the {} bytes left",
                            self.rest.len()
                        ),
                    ));
                }
                for index in 0..count {
                    self.value(*element, &Path::Index(path, index))?;
                }
                Ok(())
            }
            Kind::Struct(fields) => self.fields(fields, path),
            Kind::NullableStruct(fields) => match self.take(1, path)?[0] as i8 {
                -1 => Ok(()),
                1 => self.fields(fields, path),
                // Kafka reads any negative marker as null, `kafka-protocol` anything but 1.
                marker => Err(refuse(
                    path,
                    format_args!("null marker {marker} is neither -1 nor 1"),
                )),
            },
        }
    }

    /// Tagged fields: a count, then for each a tag, a size and that many bytes. A known tag's
    /// value is walked within its bytes and must take all of them, since the decoder reads it
    /// from the message's bytes regardless of its size; an unknown one is skipped.
    fn tagged_fields(&mut self, fields: &[Field], path: &Path) -> Result<(), Refusal> {
        let section = Path::Field(path, "_tagged_fields");
        let count = self.varint(&section)? as usize;
        // A tag and a size, a byte each at least.
        if count > self.rest.len() / 2 {
            return Err(refuse(
                &section,
                format_args!(
                    "count {count} of at least 2 bytes each exceeds the {} bytes left",
                    self.rest.len()
                ),
            ));
        }
        for _ in 0..count {
            let tag = self.varint(&section)?;
            let size = self.varint(&section)? as usize;
            if size > self.rest.len() {
                return Err(refuse(
                    &section,
                    format_args!(
                        "tag {tag}: size {size} exceeds the {} bytes left",
                        self.rest.len()
                    ),
                ));
            }
            let value = self.take(size, &section)?;
            let known = fields
                .iter()
                .find(|field| field.tag == Some(tag) && field.versions.contain(self.version));
            if let Some(field) = known {
                let path = Path::Field(path, field.name);
                let mut inner = Walk {
                    rest: value,
                    ..*self
                };
                inner.value(field.kind, &path)?;
                if !inner.rest.is_empty() {
                    return Err(refuse(
                        &path,
                        format_args!(
                            "the value takes {} of the {size} bytes of tag {tag}",
                            size - inner.rest.len()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The length an array, string or bytes prefix announces (`wide`: an int32 prefix in
    /// versions that are not flexible, else an int16); `None` for null.
    fn length(&mut self, wide: bool, path: &Path) -> Result<Option<usize>, Refusal> {
        if self.flexible {
            return Ok(self
                .varint(path)?
                .checked_sub(1)
                .map(|length| length as usize));
        }
        let length = if wide {
            let bytes = self.take(4, path)?;
            i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
        } else {
            let bytes = self.take(2, path)?;
            i32::from(i16::from_be_bytes([bytes[0], bytes[1]]))
        };
        match usize::try_from(length) {
            Ok(length) => Ok(Some(length)),
            Err(_) if length == -1 => Ok(None),
            Err(_) => Err(refuse(path, format_args!("length {length} is negative"))),
        }
    }

    /// An unsigned varint of at most 32 bits. A longer one is refused rather than read the way
    /// `kafka-protocol` does (it drops the excess bits), so that walk and decoder agree.
    fn varint(&mut self, path: &Path) -> Result<u32, Refusal> {
        let mut value = 0u32;
        for shift in [0, 7, 14, 21] {
            let byte = self.take(1, path)?[0];
            value |= u32::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        match self.take(1, path)?[0] {
            last @ 0..=0x0f => Ok(value | u32::from(last) << 28),
            _ => Err(refuse(path, "a varint beyond 32 bits")),
        }
    }

    fn take(&mut self, bytes: usize, path: &Path) -> Result<&'a [u8], Refusal> {
        if bytes > self.rest.len() {
            return Err(refuse(
                path,
                format_args!("needs {bytes} bytes, {} left", self.rest.len()),
            ));
        }
        let (taken, rest) = self.rest.split_at(bytes);
        self.rest = rest;
        Ok(taken)
    }
}

macro_rules! bounded {
    ($($message:ty => $layout:ident,)*) => {
        $(impl Bounded for $message {
            const LAYOUT: &'static Layout = &$layout;
        })*

        /// Calls `visitor` with every message that has a layout.
        #[cfg(test)]
        fn visit_every_message(visitor: &mut impl tests::Visitor) {
            $(visitor.visit::<$message>();)*
        }
    };
}

bounded! {
    ApiVersionsResponse => API_VERSIONS_RESPONSE,
    MetadataResponse => METADATA_RESPONSE,
    FindCoordinatorResponse => FIND_COORDINATOR_RESPONSE,
    DescribeClusterResponse => DESCRIBE_CLUSTER_RESPONSE,
    CreateTopicsRequest => CREATE_TOPICS_REQUEST,
    CreateTopicsResponse => CREATE_TOPICS_RESPONSE,
    DeleteTopicsResponse => DELETE_TOPICS_RESPONSE,
    CreatePartitionsResponse => CREATE_PARTITIONS_RESPONSE,
    DescribeConfigsResponse => DESCRIBE_CONFIGS_RESPONSE,
    IncrementalAlterConfigsResponse => INCREMENTAL_ALTER_CONFIGS_RESPONSE,
    ConsumerGroupHeartbeatResponse => CONSUMER_GROUP_HEARTBEAT_RESPONSE,
    CreateAclsResponse => CREATE_ACLS_RESPONSE,
    DescribeAclsResponse => DESCRIBE_ACLS_RESPONSE,
    DeleteAclsResponse => DELETE_ACLS_RESPONSE,
    ListGroupsResponse => LIST_GROUPS_RESPONSE,
    ListConfigResourcesResponse => LIST_CONFIG_RESOURCES_RESPONSE,
    ProduceRequest => PRODUCE_REQUEST,
}

mod layouts;
use layouts::*;

/// A compact array, string or bytes prefix announcing 2^31 - 1 elements or bytes.
#[cfg(test)]
pub(crate) const COMPACT_2_POW_31_MINUS_1: [u8; 5] = [0x80, 0x80, 0x80, 0x80, 0x08];
#[cfg(test)]
mod tests;
