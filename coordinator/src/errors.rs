//! Error answers: a code and a message, every other field at its default (spec 2.2), worded as
//! Kafka 4.4.0 words them. The checks that refuse a request live with the state they read; what
//! the refusal says lives here.

use streamspec_protocol::codes::{
    ERROR_FENCED_INSTANCE_ID, ERROR_FENCED_MEMBER_EPOCH, ERROR_GROUP_AUTHORIZATION_FAILED,
    ERROR_GROUP_ID_NOT_FOUND, ERROR_GROUP_MAX_SIZE_REACHED, ERROR_INVALID_GROUP_ID,
    ERROR_INVALID_REQUEST, ERROR_TOPIC_AUTHORIZATION_FAILED, ERROR_UNKNOWN_MEMBER_ID,
    ERROR_UNKNOWN_SERVER_ERROR, ERROR_UNRELEASED_INSTANCE_ID,
};
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

/// An error answer: code and message, every other field at its default (spec 2.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorAnswer {
    pub code: i16,
    pub message: Option<String>,
}

impl ErrorAnswer {
    pub(crate) fn new(code: i16, message: impl Into<String>) -> Self {
        ErrorAnswer {
            code,
            message: Some(message.into()),
        }
    }

    /// An error without a message.
    pub(crate) fn bare(code: i16) -> Self {
        ErrorAnswer {
            code,
            message: None,
        }
    }

    /// Kafka's answer to a topology it cannot even build: no message.
    pub(crate) fn unknown_server_error() -> Self {
        ErrorAnswer::bare(ERROR_UNKNOWN_SERVER_ERROR)
    }

    pub(crate) fn invalid_request(message: impl Into<String>) -> Self {
        ErrorAnswer::new(ERROR_INVALID_REQUEST, message)
    }

    /// R18: a principal that may not read the group, before any other check, without a message.
    pub(crate) fn group_authorization_failed() -> Self {
        ErrorAnswer::bare(ERROR_GROUP_AUTHORIZATION_FAILED)
    }

    /// R47: describe withholds a group whose topology names a topic the principal may not
    /// describe.
    pub(crate) fn described_topics_unauthorized() -> Self {
        ErrorAnswer::new(
            ERROR_TOPIC_AUTHORIZATION_FAILED,
            "The described group uses topics that the client is not authorized to describe.",
        )
    }

    /// R19: every request naming a group of another type, a join included.
    pub(crate) fn not_a_streams_group(group_id: &str) -> Self {
        ErrorAnswer::new(
            ERROR_GROUP_ID_NOT_FOUND,
            format!("Group {group_id} is not a streams group."),
        )
    }

    /// A leave or a describe naming a group that does not exist.
    pub(crate) fn group_not_found(group_id: &str) -> Self {
        ErrorAnswer::new(
            ERROR_GROUP_ID_NOT_FOUND,
            format!("Group {group_id} not found."),
        )
    }

    /// R20: a heartbeat other than a join naming a group that does not exist.
    pub(crate) fn streams_group_not_found(group_id: &str) -> Self {
        ErrorAnswer::new(
            ERROR_GROUP_ID_NOT_FOUND,
            format!("Streams group {group_id} not found."),
        )
    }

    /// Describe's answer to an empty group id: no message.
    pub(crate) fn invalid_group_id() -> Self {
        ErrorAnswer::bare(ERROR_INVALID_GROUP_ID)
    }

    pub(crate) fn unknown_member(request: &StreamsGroupHeartbeatRequest) -> Self {
        ErrorAnswer::new(
            ERROR_UNKNOWN_MEMBER_ID,
            format!(
                "Member {} is not a member of group {}.",
                request.member_id, request.group_id
            ),
        )
    }

    /// R23, R24: `kind` is "greater" or "smaller".
    pub(crate) fn fenced_member_epoch(kind: &str, request_epoch: i32, member_epoch: i32) -> Self {
        ErrorAnswer::new(
            ERROR_FENCED_MEMBER_EPOCH,
            format!(
                "The streams group member has a {kind} member epoch ({request_epoch}) than the one known by the group coordinator ({member_epoch}). The member must abandon all its partitions and rejoin."
            ),
        )
    }

    /// A join with an instance id that another member holds (spec 3.6).
    pub(crate) fn unreleased_instance_id(member_id: &str, instance: &str, holder: &str) -> Self {
        ErrorAnswer::new(
            ERROR_UNRELEASED_INSTANCE_ID,
            format!(
                "Static member {member_id} with instance id {instance} cannot join the group because the instance id is owned by {holder} member."
            ),
        )
    }

    /// A heartbeat with an instance id no member holds (spec 3.6).
    pub(crate) fn unknown_instance_id(instance: &str) -> Self {
        ErrorAnswer::new(
            ERROR_UNKNOWN_MEMBER_ID,
            format!("Instance id {instance} is unknown."),
        )
    }

    /// A heartbeat with an instance id that another member took over (spec 3.6).
    pub(crate) fn fenced_instance_id(member_id: &str, instance: &str, holder: &str) -> Self {
        ErrorAnswer::new(
            ERROR_FENCED_INSTANCE_ID,
            format!("Static member {member_id} with instance id {instance} was fenced by member {holder}."),
        )
    }

    pub(crate) fn group_max_size_reached(max_size: usize) -> Self {
        ErrorAnswer::new(
            ERROR_GROUP_MAX_SIZE_REACHED,
            format!("The streams group has reached its maximum capacity of {max_size} members."),
        )
    }

    /// The answer to a heartbeat.
    pub(crate) fn response(&self) -> StreamsGroupHeartbeatResponse {
        StreamsGroupHeartbeatResponse::default()
            .with_error_code(self.code)
            .with_error_message(self.message.clone())
    }

    /// The describe entry of `group_id`.
    pub(crate) fn described(&self, group_id: &str) -> DescribedGroup {
        DescribedGroup::default()
            .with_group_id(group_id)
            .with_error_code(self.code)
            .with_error_message(self.message.clone())
    }
}
