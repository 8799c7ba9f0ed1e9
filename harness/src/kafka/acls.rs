//! ACLs on Kafka, for the authorization scenarios: CreateAcls, DescribeAcls, DeleteAcls.

use std::time::Instant;

use kafka_protocol::messages::create_acls_request::AclCreation;
use kafka_protocol::messages::delete_acls_request::DeleteAclsFilter;
use kafka_protocol::messages::{CreateAclsRequest, DeleteAclsRequest, DescribeAclsRequest};
use kafka_protocol::protocol::StrBytes;
use streamspec_protocol::access::{Operation, Resource};

use crate::transport::TransportResult;

use super::{broker_error, first_failure, KafkaTarget};

/// Kafka's ACL codes: resource types, the literal pattern, operations and permissions.
pub(super) const ACL_RESOURCE_TOPIC: i8 = 2;
pub(super) const ACL_RESOURCE_GROUP: i8 = 3;
pub(super) const ACL_RESOURCE_CLUSTER: i8 = 4;
pub(super) const ACL_PATTERN_LITERAL: i8 = 3;
pub(super) const ACL_OPERATION_ALL: i8 = 2;
pub(super) const ACL_PERMISSION_DENY: i8 = 2;
pub(super) const ACL_PERMISSION_ALLOW: i8 = 3;
/// Filters matching any operation and any permission.
pub(super) const ACL_OPERATION_ANY: i8 = 1;
pub(super) const ACL_PERMISSION_ANY: i8 = 1;
/// Every principal from every host: scenarios deny an operation to whoever connects.
pub(super) const ACL_EVERY_PRINCIPAL: &str = "User:*";
pub(super) const ACL_EVERY_HOST: &str = "*";

/// Kafka's ACL code of `resource`, with its name (the cluster's is `kafka-cluster`).
pub(super) fn acl_resource(resource: &Resource) -> (i8, &str) {
    match resource {
        Resource::Cluster => (ACL_RESOURCE_CLUSTER, "kafka-cluster"),
        Resource::Group(name) => (ACL_RESOURCE_GROUP, name),
        Resource::Topic(name) => (ACL_RESOURCE_TOPIC, name),
    }
}

/// `filter` (DescribeAcls' or DeleteAcls', which share their fields) set to match every ACL on
/// exactly `resource` (or on the resource of type, name and pattern type `$pattern`).
macro_rules! every_acl_on {
    ($filter:expr, $resource:expr) => {{
        let (resource_type, name) = acl_resource($resource);
        every_acl_on!($filter, resource_type, name, ACL_PATTERN_LITERAL)
    }};
    ($filter:expr, $resource_type:expr, $name:expr, $pattern:expr) => {{
        $filter
            .with_resource_type_filter($resource_type)
            .with_resource_name_filter(Some(StrBytes::from_string($name.to_owned())))
            .with_pattern_type_filter($pattern)
            .with_principal_filter(None)
            .with_host_filter(None)
            .with_operation(ACL_OPERATION_ANY)
            .with_permission_type(ACL_PERMISSION_ANY)
    }};
}

/// Kafka's ACL code of `operation`.
pub(super) fn acl_operation(operation: Operation) -> i8 {
    match operation {
        Operation::Read => 3,
        Operation::Create => 5,
        Operation::Describe => 8,
    }
}

impl KafkaTarget {
    /// Denies `operation` on `resource` to every principal, and allows everything else on it:
    /// an ACL on a resource otherwise takes away every operation an authorizer allows by default.
    /// Waits until the broker's authorizer holds both.
    pub async fn deny(&mut self, operation: Operation, resource: &Resource) -> TransportResult<()> {
        let (resource_type, name) = acl_resource(resource);
        let creation = |operation: i8, permission: i8| {
            AclCreation::default()
                .with_resource_type(resource_type)
                .with_resource_name(StrBytes::from_string(name.to_owned()))
                .with_resource_pattern_type(ACL_PATTERN_LITERAL)
                .with_principal(StrBytes::from_static_str(ACL_EVERY_PRINCIPAL))
                .with_host(StrBytes::from_static_str(ACL_EVERY_HOST))
                .with_operation(operation)
                .with_permission_type(permission)
        };
        let request = CreateAclsRequest::default().with_creations(vec![
            creation(ACL_OPERATION_ALL, ACL_PERMISSION_ALLOW),
            creation(acl_operation(operation), ACL_PERMISSION_DENY),
        ]);
        let response = self.bootstrap.call_kafka(3, &request, "CreateAcls").await?;
        first_failure(&response.results, || {
            format!("denying {operation:?} on {resource:?}")
        })?;
        let started = Instant::now();
        while self.acl_count(resource).await? < 2 {
            self.pause_or_give_up(started, self.timeout, || {
                format!("the ACLs on {resource:?} to apply")
            })
            .await?;
        }
        Ok(())
    }

    /// How many ACLs the broker's authorizer holds on exactly `resource`.
    async fn acl_count(&mut self, resource: &Resource) -> TransportResult<usize> {
        let request = every_acl_on!(DescribeAclsRequest::default(), resource);
        let response = self
            .bootstrap
            .call_kafka(3, &request, "DescribeAcls")
            .await?;
        if response.error_code != 0 {
            return Err(broker_error(
                &format!("describing the ACLs on {resource:?}"),
                response.error_code,
                response.error_message.as_ref(),
            ));
        }
        Ok(response.resources.iter().map(|r| r.acls.len()).sum())
    }

    /// Removes every ACL on exactly `resource`.
    pub async fn remove_acls(&mut self, resource: &Resource) -> TransportResult<()> {
        let request = DeleteAclsRequest::default()
            .with_filters(vec![every_acl_on!(DeleteAclsFilter::default(), resource)]);
        let response = self.bootstrap.call_kafka(3, &request, "DeleteAcls").await?;
        first_failure(&response.filter_results, || {
            format!("removing the ACLs on {resource:?}")
        })
    }
}
