//! What the broker's authorizer lets a request's principal do, as the coordinator's input: Kafka
//! checks it in the request handler around the coordinator (spec 2.1, 5.6 and 10; rules R18,
//! R34 and R47), so the reference answers as a broker with an authorizer would.

use std::collections::{BTreeMap, BTreeSet};

pub use streamspec_protocol::access::{Operation, Resource};

/// Everything is allowed except what was denied, as with Kafka's StandardAuthorizer and
/// `allow.everyone.if.no.acl.found=true` plus a deny rule per denied operation. Looked up by
/// name, so that a check on every heartbeat allocates nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Permissions {
    cluster: BTreeSet<Operation>,
    groups: BTreeMap<String, BTreeSet<Operation>>,
    topics: BTreeMap<String, BTreeSet<Operation>>,
}

impl Permissions {
    pub fn deny(&mut self, operation: Operation, resource: Resource) {
        match resource {
            Resource::Cluster => self.cluster.insert(operation),
            Resource::Group(name) => self.groups.entry(name).or_default().insert(operation),
            Resource::Topic(name) => self.topics.entry(name).or_default().insert(operation),
        };
    }

    /// Takes back every denial on `resource`.
    pub fn allow_all_on(&mut self, resource: &Resource) {
        match resource {
            Resource::Cluster => self.cluster.clear(),
            Resource::Group(name) => {
                self.groups.remove(name);
            }
            Resource::Topic(name) => {
                self.topics.remove(name);
            }
        }
    }

    pub fn allows_cluster(&self, operation: Operation) -> bool {
        !self.cluster.contains(&operation)
    }

    pub fn allows_group(&self, operation: Operation, group: &str) -> bool {
        !self
            .groups
            .get(group)
            .is_some_and(|denied| denied.contains(&operation))
    }

    /// Whether any operation on any topic is denied; if not, no topic check can fail and a
    /// caller need not list topics to check them (a describe lists every topic of the group's
    /// topology).
    pub fn denies_on_topics(&self) -> bool {
        !self.topics.is_empty()
    }

    pub fn allows_topic(&self, operation: Operation, topic: &str) -> bool {
        !self
            .topics
            .get(topic)
            .is_some_and(|denied| denied.contains(&operation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn denying_everything_on(resources: &[Resource]) -> Permissions {
        let mut permissions = Permissions::default();
        for resource in resources {
            for operation in [Operation::Read, Operation::Describe, Operation::Create] {
                permissions.deny(operation, resource.clone());
            }
        }
        permissions
    }

    #[test]
    fn allowing_all_on_a_resource_takes_back_its_denials_and_no_other() {
        let group = Resource::Group("g".to_owned());
        let topic = Resource::Topic("t".to_owned());
        let mut permissions = denying_everything_on(&[
            Resource::Cluster,
            group.clone(),
            Resource::Group("h".to_owned()),
            topic.clone(),
        ]);
        assert!(!permissions.allows_group(Operation::Read, "g"));

        permissions.allow_all_on(&group);
        assert!(permissions.allows_group(Operation::Read, "g"));
        assert!(permissions.allows_group(Operation::Describe, "g"));
        assert!(!permissions.allows_group(Operation::Read, "h"));
        assert!(!permissions.allows_topic(Operation::Create, "t"));
        assert!(permissions.denies_on_topics());
        assert!(!permissions.allows_cluster(Operation::Create));

        permissions.allow_all_on(&topic);
        assert!(permissions.allows_topic(Operation::Create, "t"));
        assert!(!permissions.denies_on_topics());
        assert!(!permissions.allows_cluster(Operation::Create));

        permissions.allow_all_on(&Resource::Cluster);
        assert!(permissions.allows_cluster(Operation::Create));
        assert_eq!(
            permissions,
            denying_everything_on(&[Resource::Group("h".to_owned())])
        );
    }
}
