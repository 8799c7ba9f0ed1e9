//! Names of the protocol's numeric codes, so that reports say `38 INVALID_REPLICATION_FACTOR`
//! instead of a bare number.
//!
//! Error codes are Kafka's whole table (every RPC the harness speaks shares it), taken from
//! `kafka-protocol`'s `ResponseError` and spelled as Kafka's `Errors` enum spells them. Status
//! codes are those of `StreamsGroupHeartbeatResponse.Status` (spec 5.7).

use std::fmt;

use kafka_protocol::error::ResponseError;

/// An error code with its name, for messages: `38 INVALID_REPLICATION_FACTOR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCode(pub i16);

impl ErrorCode {
    /// Kafka's name of the code (`NONE` for 0), or `None` for a code Kafka does not define.
    pub fn name(self) -> Option<String> {
        match ResponseError::try_from_code(self.0) {
            None => Some("NONE".to_owned()),
            Some(ResponseError::Unknown(_)) => None,
            Some(known) => Some(screaming_snake(&known.to_string())),
        }
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

/// The status codes of a heartbeat response's `Status` list, with their names (spec 5.7).
pub const STATUS_CODES: [(i8, &str); 7] = [
    (0, "STALE_TOPOLOGY"),
    (1, "MISSING_SOURCE_TOPICS"),
    (2, "INCORRECTLY_PARTITIONED_TOPICS"),
    (3, "MISSING_INTERNAL_TOPICS"),
    (4, "SHUTDOWN_APPLICATION"),
    (5, "ASSIGNMENT_DELAYED"),
    (6, "MISSING_CLIENT_TAGS"),
];

/// The name of a heartbeat status code, or `None` for one Kafka does not define.
pub fn status_name(code: i8) -> Option<&'static str> {
    STATUS_CODES
        .iter()
        .find(|(known, _)| *known == code)
        .map(|(_, name)| *name)
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
        assert_eq!(status_name(7), None);
    }
}
