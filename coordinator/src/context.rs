//! What a request brings besides its body, and what an answer asks of the caller besides itself.

use crate::access::Permissions;
use crate::topology::TopicToCreate;

/// Who sent a request: the client id and host Kafka takes from the connection, and what the
/// broker's authorizer lets its principal do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestContext {
    pub client_id: String,
    pub client_host: String,
    pub permissions: Permissions,
}

impl RequestContext {
    /// A client whose principal may do everything.
    pub fn new(client_id: &str, client_host: &str) -> Self {
        RequestContext {
            client_id: client_id.to_owned(),
            client_host: client_host.to_owned(),
            permissions: Permissions::default(),
        }
    }
}

/// Work for the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Internal topics the cluster should create (the broker does so in Kafka).
    CreateTopics(Vec<TopicToCreate>),
    /// A member was removed by a timeout.
    MemberRemoved {
        group_id: String,
        member_id: String,
        reason: RemovalReason,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemovalReason {
    SessionTimeout,
    RebalanceTimeout,
}
