//! What the broker's authorizer lets a request's principal do, as the coordinator's input: Kafka
//! checks it in the request handler around the coordinator (spec 2.1, 5.6 and 10; rules R18,
//! R34 and R47), so the reference answers as a broker with an authorizer would.

use std::collections::BTreeSet;

/// The operations the Streams APIs ask an authorizer about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    Read,
    Describe,
    Create,
}

/// What an operation is on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resource {
    Cluster,
    Group(String),
    Topic(String),
}

/// Everything is allowed except what was denied, as with Kafka's StandardAuthorizer and
/// `allow.everyone.if.no.acl.found=true` plus a deny rule per denied operation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Permissions {
    denied: BTreeSet<(Operation, Resource)>,
}

impl Permissions {
    pub fn deny(&mut self, operation: Operation, resource: Resource) {
        self.denied.insert((operation, resource));
    }

    /// Takes back every denial on `resource`.
    pub fn allow_all_on(&mut self, resource: &Resource) {
        self.denied.retain(|(_, denied)| denied != resource);
    }

    pub fn allows(&self, operation: Operation, resource: &Resource) -> bool {
        // Cloning only when something is denied keeps the common case free.
        self.denied.is_empty() || !self.denied.contains(&(operation, resource.clone()))
    }

    pub fn allows_topic(&self, operation: Operation, topic: &str) -> bool {
        self.allows(operation, &Resource::Topic(topic.to_owned()))
    }
}
