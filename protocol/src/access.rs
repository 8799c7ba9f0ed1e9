//! What an ACL is about: the operations the Streams APIs ask an authorizer about, and the
//! resources they are on. Shared by the reference coordinator (its permissions) and the harness
//! (the ACLs a scenario sets on a target), so that neither depends on the other for them.

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
