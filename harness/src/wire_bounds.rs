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
    DeleteTopicsResponse, DescribeAclsResponse, DescribeConfigsResponse, FindCoordinatorResponse,
    IncrementalAlterConfigsResponse, ListConfigResourcesResponse, ListGroupsResponse,
    MetadataResponse, ProduceRequest,
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

// The layouts, in the order of each message's fields. A field of a nested struct is marked with
// the versions of its own, where they are narrower than those of the struct.

const API_VERSIONS_RESPONSE: Layout = Layout {
    name: "ApiVersionsResponse",
    versions: span(0, 4),
    flexible: from(3),
    fields: &[
        field("error_code", ALL, INT16),
        field("api_keys", ALL, Kind::Array(&Kind::Struct(API_VERSION))),
        field("throttle_time_ms", from(1), INT32),
        tagged(
            0,
            "supported_features",
            from(3),
            Kind::Array(&Kind::Struct(SUPPORTED_FEATURE)),
        ),
        tagged(1, "finalized_features_epoch", from(3), INT64),
        tagged(
            2,
            "finalized_features",
            from(3),
            Kind::Array(&Kind::Struct(FINALIZED_FEATURE)),
        ),
        tagged(3, "zk_migration_ready", from(3), BOOL),
    ],
};

const API_VERSION: &[Field] = &[
    field("api_key", ALL, INT16),
    field("min_version", ALL, INT16),
    field("max_version", ALL, INT16),
];

const SUPPORTED_FEATURE: &[Field] = &[
    field("name", ALL, STRING),
    field("min_version", ALL, INT16),
    field("max_version", ALL, INT16),
];

const FINALIZED_FEATURE: &[Field] = &[
    field("name", ALL, STRING),
    field("max_version_level", ALL, INT16),
    field("min_version_level", ALL, INT16),
];

const METADATA_RESPONSE: Layout = Layout {
    name: "MetadataResponse",
    versions: span(0, 13),
    flexible: from(9),
    fields: &[
        field("throttle_time_ms", from(3), INT32),
        field("brokers", ALL, Kind::Array(&Kind::Struct(METADATA_BROKER))),
        field("cluster_id", from(2), STRING),
        field("controller_id", from(1), INT32),
        field("topics", ALL, Kind::Array(&Kind::Struct(METADATA_TOPIC))),
        field("cluster_authorized_operations", span(8, 10), INT32),
        field("error_code", from(13), INT16),
    ],
};

const METADATA_BROKER: &[Field] = &[
    field("node_id", ALL, INT32),
    field("host", ALL, STRING),
    field("port", ALL, INT32),
    field("rack", from(1), STRING),
];

const METADATA_TOPIC: &[Field] = &[
    field("error_code", ALL, INT16),
    field("name", ALL, STRING),
    field("topic_id", from(10), UUID),
    field("is_internal", from(1), BOOL),
    field(
        "partitions",
        ALL,
        Kind::Array(&Kind::Struct(METADATA_PARTITION)),
    ),
    field("topic_authorized_operations", from(8), INT32),
];

const METADATA_PARTITION: &[Field] = &[
    field("error_code", ALL, INT16),
    field("partition_index", ALL, INT32),
    field("leader_id", ALL, INT32),
    field("leader_epoch", from(7), INT32),
    field("replica_nodes", ALL, INT32S),
    field("isr_nodes", ALL, INT32S),
    field("offline_replicas", from(5), INT32S),
];

const FIND_COORDINATOR_RESPONSE: Layout = Layout {
    name: "FindCoordinatorResponse",
    versions: span(0, 6),
    flexible: from(3),
    fields: &[
        field("throttle_time_ms", from(1), INT32),
        field("error_code", span(0, 3), INT16),
        field("error_message", span(1, 3), STRING),
        field("node_id", span(0, 3), INT32),
        field("host", span(0, 3), STRING),
        field("port", span(0, 3), INT32),
        field(
            "coordinators",
            from(4),
            Kind::Array(&Kind::Struct(COORDINATOR)),
        ),
    ],
};

const COORDINATOR: &[Field] = &[
    field("key", ALL, STRING),
    field("node_id", ALL, INT32),
    field("host", ALL, STRING),
    field("port", ALL, INT32),
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
];

const CREATE_TOPICS_REQUEST: Layout = Layout {
    name: "CreateTopicsRequest",
    versions: span(2, 7),
    flexible: from(5),
    fields: &[
        field("topics", ALL, Kind::Array(&Kind::Struct(CREATABLE_TOPIC))),
        field("timeout_ms", ALL, INT32),
        field("validate_only", ALL, BOOL),
    ],
};

const CREATABLE_TOPIC: &[Field] = &[
    field("name", ALL, STRING),
    field("num_partitions", ALL, INT32),
    field("replication_factor", ALL, INT16),
    field(
        "assignments",
        ALL,
        Kind::Array(&Kind::Struct(CREATABLE_REPLICA_ASSIGNMENT)),
    ),
    field(
        "configs",
        ALL,
        Kind::Array(&Kind::Struct(CREATABLE_TOPIC_CONFIG)),
    ),
];

const CREATABLE_REPLICA_ASSIGNMENT: &[Field] = &[
    field("partition_index", ALL, INT32),
    field("broker_ids", ALL, INT32S),
];

const CREATABLE_TOPIC_CONFIG: &[Field] = &[field("name", ALL, STRING), field("value", ALL, STRING)];

const CREATE_TOPICS_RESPONSE: Layout = Layout {
    name: "CreateTopicsResponse",
    versions: span(2, 7),
    flexible: from(5),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "topics",
            ALL,
            Kind::Array(&Kind::Struct(CREATABLE_TOPIC_RESULT)),
        ),
    ],
};

const CREATABLE_TOPIC_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("topic_id", from(7), UUID),
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    tagged(0, "topic_config_error_code", from(5), INT16),
    field("num_partitions", from(5), INT32),
    field("replication_factor", from(5), INT16),
    field(
        "configs",
        from(5),
        Kind::Array(&Kind::Struct(CREATABLE_TOPIC_CONFIGS)),
    ),
];

const CREATABLE_TOPIC_CONFIGS: &[Field] = &[
    field("name", ALL, STRING),
    field("value", ALL, STRING),
    field("read_only", ALL, BOOL),
    field("config_source", ALL, INT8),
    field("is_sensitive", ALL, BOOL),
];

const DELETE_TOPICS_RESPONSE: Layout = Layout {
    name: "DeleteTopicsResponse",
    versions: span(1, 6),
    flexible: from(4),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "responses",
            ALL,
            Kind::Array(&Kind::Struct(DELETABLE_TOPIC_RESULT)),
        ),
    ],
};

const DELETABLE_TOPIC_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("topic_id", from(6), UUID),
    field("error_code", ALL, INT16),
    field("error_message", from(5), STRING),
];

const CREATE_PARTITIONS_RESPONSE: Layout = Layout {
    name: "CreatePartitionsResponse",
    versions: span(0, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "results",
            ALL,
            Kind::Array(&Kind::Struct(CREATE_PARTITIONS_TOPIC_RESULT)),
        ),
    ],
};

const CREATE_PARTITIONS_TOPIC_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
];

const DESCRIBE_CONFIGS_RESPONSE: Layout = Layout {
    name: "DescribeConfigsResponse",
    versions: span(1, 4),
    flexible: from(4),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "results",
            ALL,
            Kind::Array(&Kind::Struct(DESCRIBE_CONFIGS_RESULT)),
        ),
    ],
};

const DESCRIBE_CONFIGS_RESULT: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
    field(
        "configs",
        ALL,
        Kind::Array(&Kind::Struct(DESCRIBE_CONFIGS_RESOURCE_RESULT)),
    ),
];

const DESCRIBE_CONFIGS_RESOURCE_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("value", ALL, STRING),
    field("read_only", ALL, BOOL),
    field("config_source", ALL, INT8),
    field("is_sensitive", ALL, BOOL),
    field(
        "synonyms",
        ALL,
        Kind::Array(&Kind::Struct(DESCRIBE_CONFIGS_SYNONYM)),
    ),
    field("config_type", from(3), INT8),
    field("documentation", from(3), STRING),
];

const DESCRIBE_CONFIGS_SYNONYM: &[Field] = &[
    field("name", ALL, STRING),
    field("value", ALL, STRING),
    field("source", ALL, INT8),
];

const INCREMENTAL_ALTER_CONFIGS_RESPONSE: Layout = Layout {
    name: "IncrementalAlterConfigsResponse",
    versions: span(0, 1),
    flexible: from(1),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "responses",
            ALL,
            Kind::Array(&Kind::Struct(ALTER_CONFIGS_RESOURCE_RESPONSE)),
        ),
    ],
};

const ALTER_CONFIGS_RESOURCE_RESPONSE: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
];

const CONSUMER_GROUP_HEARTBEAT_RESPONSE: Layout = Layout {
    name: "ConsumerGroupHeartbeatResponse",
    versions: span(0, 1),
    flexible: ALL,
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field("error_message", ALL, STRING),
        field("member_id", ALL, STRING),
        field("member_epoch", ALL, INT32),
        field("heartbeat_interval_ms", ALL, INT32),
        field("assignment", ALL, Kind::NullableStruct(ASSIGNMENT)),
    ],
};

const ASSIGNMENT: &[Field] = &[field(
    "topic_partitions",
    ALL,
    Kind::Array(&Kind::Struct(TOPIC_PARTITIONS)),
)];

const TOPIC_PARTITIONS: &[Field] = &[
    field("topic_id", ALL, UUID),
    field("partitions", ALL, INT32S),
];

const CREATE_ACLS_RESPONSE: Layout = Layout {
    name: "CreateAclsResponse",
    versions: span(1, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "results",
            ALL,
            Kind::Array(&Kind::Struct(ACL_CREATION_RESULT)),
        ),
    ],
};

const ACL_CREATION_RESULT: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
];

const DESCRIBE_ACLS_RESPONSE: Layout = Layout {
    name: "DescribeAclsResponse",
    versions: span(1, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field("error_message", ALL, STRING),
        field(
            "resources",
            ALL,
            Kind::Array(&Kind::Struct(DESCRIBE_ACLS_RESOURCE)),
        ),
    ],
};

const DESCRIBE_ACLS_RESOURCE: &[Field] = &[
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
    field("pattern_type", ALL, INT8),
    field("acls", ALL, Kind::Array(&Kind::Struct(ACL_DESCRIPTION))),
];

const ACL_DESCRIPTION: &[Field] = &[
    field("principal", ALL, STRING),
    field("host", ALL, STRING),
    field("operation", ALL, INT8),
    field("permission_type", ALL, INT8),
];

const DELETE_ACLS_RESPONSE: Layout = Layout {
    name: "DeleteAclsResponse",
    versions: span(1, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "filter_results",
            ALL,
            Kind::Array(&Kind::Struct(DELETE_ACLS_FILTER_RESULT)),
        ),
    ],
};

const DELETE_ACLS_FILTER_RESULT: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field(
        "matching_acls",
        ALL,
        Kind::Array(&Kind::Struct(DELETE_ACLS_MATCHING_ACL)),
    ),
];

const DELETE_ACLS_MATCHING_ACL: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
    field("pattern_type", ALL, INT8),
    field("principal", ALL, STRING),
    field("host", ALL, STRING),
    field("operation", ALL, INT8),
    field("permission_type", ALL, INT8),
];

const LIST_GROUPS_RESPONSE: Layout = Layout {
    name: "ListGroupsResponse",
    versions: span(0, 5),
    flexible: from(3),
    fields: &[
        field("throttle_time_ms", from(1), INT32),
        field("error_code", ALL, INT16),
        field("groups", ALL, Kind::Array(&Kind::Struct(LISTED_GROUP))),
    ],
};

const LISTED_GROUP: &[Field] = &[
    field("group_id", ALL, STRING),
    field("protocol_type", ALL, STRING),
    field("group_state", from(4), STRING),
    field("group_type", from(5), STRING),
];

const LIST_CONFIG_RESOURCES_RESPONSE: Layout = Layout {
    name: "ListConfigResourcesResponse",
    versions: span(0, 1),
    flexible: ALL,
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field(
            "config_resources",
            ALL,
            Kind::Array(&Kind::Struct(CONFIG_RESOURCE)),
        ),
    ],
};

const CONFIG_RESOURCE: &[Field] = &[
    field("resource_name", ALL, STRING),
    field("resource_type", from(1), INT8),
];

const PRODUCE_REQUEST: Layout = Layout {
    name: "ProduceRequest",
    versions: span(3, 13),
    flexible: from(9),
    fields: &[
        field("transactional_id", ALL, STRING),
        field("acks", ALL, INT16),
        field("timeout_ms", ALL, INT32),
        field(
            "topic_data",
            ALL,
            Kind::Array(&Kind::Struct(TOPIC_PRODUCE_DATA)),
        ),
    ],
};

const TOPIC_PRODUCE_DATA: &[Field] = &[
    field("name", span(0, 12), STRING),
    field("topic_id", from(13), UUID),
    field(
        "partition_data",
        ALL,
        Kind::Array(&Kind::Struct(PARTITION_PRODUCE_DATA)),
    ),
];

const PARTITION_PRODUCE_DATA: &[Field] =
    &[field("index", ALL, INT32), field("records", ALL, BYTES)];

/// A compact array, string or bytes prefix announcing 2^31 - 1 elements or bytes.
#[cfg(test)]
pub(crate) const COMPACT_2_POW_31_MINUS_1: [u8; 5] = [0x80, 0x80, 0x80, 0x80, 0x08];

#[cfg(test)]
mod tests {
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
}
