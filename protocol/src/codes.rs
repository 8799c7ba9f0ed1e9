//! The protocol's numeric codes and group states, with their names: the one table the
//! coordinator, the harness and the reports use, so that reports say `38 INVALID_REPLICATION_FACTOR`
//! instead of a bare number and no code is written out as a number anywhere else.
//!
//! - Error codes: a constant for each code the project sends, expects or names
//!   ([`ERROR_CODES`]). Any other code still gets Kafka's name from [`ErrorCode`], which reads
//!   Kafka's whole table (every RPC the harness speaks shares it) from `kafka-protocol`'s
//!   `ResponseError`, spelled as Kafka's `Errors` enum spells them; a test holds the two to agree.
//! - Status codes of `StreamsGroupHeartbeatResponse.Status` (spec 5.7, [`STATUS_CODES`]) and of
//!   the KIP draft's (`protocol/schemas/kip-draft/`, [`DRAFT_STATUS_CODES`]).
//! - Group states, as StreamsGroupDescribe reports them (spec 4.2, [`GROUP_STATES`]).

use std::fmt;

use kafka_protocol::error::ResponseError;

/// An error code with its name, for messages: `38 INVALID_REPLICATION_FACTOR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCode(pub i16);

impl ErrorCode {
    /// Kafka's name of the code (`NONE` for 0), or `None` for a code Kafka does not define.
    pub fn name(self) -> Option<String> {
        if let Some(name) = name_in(ERROR_CODES, self.0) {
            return Some(name.to_owned());
        }
        kafka_name(self.0)
    }
}

/// Kafka's name of `code`, from `kafka-protocol`.
fn kafka_name(code: i16) -> Option<String> {
    match ResponseError::try_from_code(code) {
        None => Some("NONE".to_owned()),
        Some(ResponseError::Unknown(_)) => None,
        Some(known) => Some(screaming_snake(&known.to_string())),
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{} {name}", self.0),
            None => write!(f, "{} (an error code Kafka does not define)", self.0),
        }
    }
}

/// `InvalidReplicationFactor` -> `INVALID_REPLICATION_FACTOR`.
fn screaming_snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 8);
    for (index, ch) in camel.char_indices() {
        if ch.is_ascii_uppercase() && index > 0 {
            out.push('_');
        }
        out.push(ch.to_ascii_uppercase());
    }
    out
}

/// Declares code constants named `<PREFIX><NAME>` and a table `$table` of (code, `NAME`).
macro_rules! code_table {
    ($(#[$doc:meta])* $table:ident: $ty:ty, $prefix:literal { $($constant:ident = $code:expr,)* }) => {
        $(pub const $constant: $ty = $code;)*
        $(#[$doc])*
        pub const $table: &[($ty, &str)] = &[
            $(($constant, without_prefix($prefix, stringify!($constant))),)*
        ];
    };
}

/// `name` without `prefix`: `ERROR_NONE` -> `NONE`.
const fn without_prefix(prefix: &str, name: &'static str) -> &'static str {
    let (head, rest) = name.as_bytes().split_at(prefix.len());
    assert!(
        head.len() == prefix.len(),
        "a code's constant lacks its prefix"
    );
    match std::str::from_utf8(rest) {
        Ok(rest) => rest,
        Err(_) => panic!("a code's constant is not ASCII"),
    }
}

code_table! {
    /// The error codes the project uses, with Kafka's names.
    ERROR_CODES: i16, "ERROR_" {
        ERROR_UNKNOWN_SERVER_ERROR = -1,
        ERROR_NONE = 0,
        ERROR_UNKNOWN_TOPIC_OR_PARTITION = 3,
        ERROR_COORDINATOR_LOAD_IN_PROGRESS = 14,
        ERROR_COORDINATOR_NOT_AVAILABLE = 15,
        ERROR_NOT_COORDINATOR = 16,
        ERROR_INVALID_GROUP_ID = 24,
        ERROR_UNKNOWN_MEMBER_ID = 25,
        ERROR_TOPIC_AUTHORIZATION_FAILED = 29,
        ERROR_GROUP_AUTHORIZATION_FAILED = 30,
        ERROR_UNSUPPORTED_VERSION = 35,
        ERROR_TOPIC_ALREADY_EXISTS = 36,
        ERROR_INVALID_REPLICATION_FACTOR = 38,
        ERROR_INVALID_CONFIG = 40,
        ERROR_INVALID_REQUEST = 42,
        ERROR_SECURITY_DISABLED = 54,
        ERROR_GROUP_ID_NOT_FOUND = 69,
        ERROR_TOPIC_DELETION_DISABLED = 73,
        ERROR_GROUP_MAX_SIZE_REACHED = 81,
        ERROR_FENCED_INSTANCE_ID = 82,
        ERROR_FENCED_MEMBER_EPOCH = 110,
        ERROR_UNRELEASED_INSTANCE_ID = 111,
        ERROR_STREAMS_INVALID_TOPOLOGY = 130,
    }
}

code_table! {
    /// The status codes of a heartbeat response's `Status` list, with their names (spec 5.7).
    STATUS_CODES: i8, "STATUS_" {
        STATUS_STALE_TOPOLOGY = 0,
        STATUS_MISSING_SOURCE_TOPICS = 1,
        STATUS_INCORRECTLY_PARTITIONED_TOPICS = 2,
        STATUS_MISSING_INTERNAL_TOPICS = 3,
        STATUS_SHUTDOWN_APPLICATION = 4,
        STATUS_ASSIGNMENT_DELAYED = 5,
        STATUS_MISSING_CLIENT_TAGS = 6,
    }
}

code_table! {
    /// The KIP draft's status codes (resolution 6 of `protocol/schemas/kip-draft/RESOLUTIONS.md`):
    /// 1 to 4 mean what Kafka's do, 0 is the draft's own.
    DRAFT_STATUS_CODES: i8, "DRAFT_STATUS_" {
        DRAFT_STATUS_INCONSISTENT_TOPOLOGY = 0,
        DRAFT_STATUS_MISSING_SOURCE_TOPICS = 1,
        DRAFT_STATUS_INCONSISTENT_SOURCE_TOPICS = 2,
        DRAFT_STATUS_MISSING_INTERNAL_TOPICS = 3,
        DRAFT_STATUS_SHUTDOWN_APPLICATION = 4,
    }
}

pub const GROUP_STATE_EMPTY: &str = "Empty";
pub const GROUP_STATE_NOT_READY: &str = "NotReady";
pub const GROUP_STATE_ASSIGNING: &str = "Assigning";
pub const GROUP_STATE_RECONCILING: &str = "Reconciling";
pub const GROUP_STATE_STABLE: &str = "Stable";
/// A group that no longer exists, as Kafka describes one while it is being deleted.
pub const GROUP_STATE_DEAD: &str = "Dead";

/// The states StreamsGroupDescribe reports (spec 4.2), each its own name.
pub const GROUP_STATES: [&str; 6] = [
    GROUP_STATE_EMPTY,
    GROUP_STATE_NOT_READY,
    GROUP_STATE_ASSIGNING,
    GROUP_STATE_RECONCILING,
    GROUP_STATE_STABLE,
    GROUP_STATE_DEAD,
];

fn name_in<T: PartialEq>(table: &[(T, &'static str)], code: T) -> Option<&'static str> {
    table
        .iter()
        .find(|(known, _)| *known == code)
        .map(|(_, name)| *name)
}

/// The name of a heartbeat status code, or `None` for one Kafka does not define.
pub fn status_name(code: i8) -> Option<&'static str> {
    name_in(STATUS_CODES, code)
}

/// The name of a KIP-draft heartbeat status code, or `None` for one the draft does not define.
pub fn draft_status_name(code: i8) -> Option<&'static str> {
    name_in(DRAFT_STATUS_CODES, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_read_as_kafka_names_them() {
        assert_eq!(ErrorCode(38).to_string(), "38 INVALID_REPLICATION_FACTOR");
        assert_eq!(ErrorCode(0).to_string(), "0 NONE");
        assert_eq!(ErrorCode(-1).to_string(), "-1 UNKNOWN_SERVER_ERROR");
        assert_eq!(ErrorCode(69).to_string(), "69 GROUP_ID_NOT_FOUND");
        assert_eq!(ErrorCode(130).to_string(), "130 STREAMS_INVALID_TOPOLOGY");
        assert_eq!(ErrorCode(25).to_string(), "25 UNKNOWN_MEMBER_ID");
        assert_eq!(
            ErrorCode(9999).to_string(),
            "9999 (an error code Kafka does not define)"
        );
    }

    #[test]
    fn status_codes_have_names() {
        assert_eq!(status_name(5), Some("ASSIGNMENT_DELAYED"));
        assert_eq!(
            status_name(STATUS_MISSING_CLIENT_TAGS),
            Some("MISSING_CLIENT_TAGS")
        );
        assert_eq!(status_name(7), None);
        assert_eq!(draft_status_name(0), Some("INCONSISTENT_TOPOLOGY"));
        assert_eq!(draft_status_name(5), None);
    }

    #[test]
    fn the_error_table_names_codes_as_kafka_does() {
        for (code, name) in ERROR_CODES {
            assert_eq!(kafka_name(*code).as_deref(), Some(*name), "code {code}");
        }
    }

    #[test]
    fn codes_and_names_are_unique() {
        fn unique<T: Ord + Copy>(table: &[(T, &str)]) {
            let codes: std::collections::BTreeSet<T> =
                table.iter().map(|(code, _)| *code).collect();
            let names: std::collections::BTreeSet<&str> =
                table.iter().map(|(_, name)| *name).collect();
            assert_eq!((codes.len(), names.len()), (table.len(), table.len()));
        }
        unique(ERROR_CODES);
        unique(STATUS_CODES);
        unique(DRAFT_STATUS_CODES);
    }
}
