//! Listing and removing what runs left on a broker (`streamspec clean`).

use kafka_protocol::messages::delete_acls_request::DeleteAclsFilter;
use kafka_protocol::messages::{
    DeleteAclsRequest, DescribeAclsRequest, ListConfigResourcesRequest, ListGroupsRequest,
    MetadataRequest,
};
use kafka_protocol::protocol::StrBytes;
use streamspec_protocol::codes::ERROR_SECURITY_DISABLED;

use crate::transport::{Connection, TransportResult};

use super::{broker_error, first_failure, KafkaTarget};

use super::acls::{
    ACL_OPERATION_ANY, ACL_PERMISSION_ANY, ACL_RESOURCE_CLUSTER, ACL_RESOURCE_GROUP,
    ACL_RESOURCE_TOPIC,
};
use super::configs::RESOURCE_TYPE_GROUP;
/// What DescribeAcls calls any resource type or pattern type, and its pattern type of a name
/// prefix.
const ACL_RESOURCE_ANY: i8 = 1;
const ACL_PATTERN_ANY: i8 = 1;
pub const ACL_PATTERN_PREFIXED: i8 = 4;
/// DescribeConfigs' source of a config set on the group itself.
const CONFIG_SOURCE_GROUP: i8 = 8;
/// The API that lists config resources, groups without members included (KIP-1142, v1).
const LIST_CONFIG_RESOURCES: i16 = 74;

/// The resource of an ACL as DescribeAcls names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AclResourcePattern {
    pub resource_type: i8,
    pub name: String,
    pub pattern_type: i8,
    /// ACLs on it.
    pub acls: usize,
}

impl std::fmt::Display for AclResourcePattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.resource_type {
            ACL_RESOURCE_TOPIC => "topic",
            ACL_RESOURCE_GROUP => "group",
            ACL_RESOURCE_CLUSTER => "cluster",
            _ => "resource",
        };
        let prefixed = if self.pattern_type == ACL_PATTERN_PREFIXED {
            "*"
        } else {
            ""
        };
        write!(f, "{kind} {}{prefixed} ({} ACLs)", self.name, self.acls)
    }
}

/// Listing and removing what runs left on a broker (`streamspec clean`).
impl KafkaTarget {
    /// The names of every topic on the cluster.
    pub async fn topic_names(&mut self) -> TransportResult<Vec<String>> {
        let request = MetadataRequest::default()
            .with_allow_auto_topic_creation(false)
            .with_topics(None);
        let response = self.bootstrap.call_kafka(12, &request, "Metadata").await?;
        Ok(response
            .topics
            .iter()
            .filter_map(|topic| topic.name.as_ref().map(|name| name.0.to_string()))
            .collect())
    }

    /// The ids of every group a broker of the cluster coordinates (ListGroups asks one broker
    /// about its own groups), and of groups with configs but no members where the broker lists
    /// config resources; sorted, each once.
    pub async fn group_ids(&mut self) -> TransportResult<Vec<String>> {
        let metadata = MetadataRequest::default()
            .with_allow_auto_topic_creation(false)
            .with_topics(Some(Vec::new()));
        let brokers = self
            .bootstrap
            .call_kafka(12, &metadata, "Metadata")
            .await?
            .brokers;
        let mut ids = std::collections::BTreeSet::new();
        for broker in brokers {
            let address = format!("{}:{}", broker.host, broker.port);
            let mut connection = Connection::connect(&address, self.timeout).await?;
            let response = connection
                .call_kafka(5, &ListGroupsRequest::default(), "ListGroups")
                .await?;
            if response.error_code != 0 {
                return Err(broker_error(
                    &format!("listing the groups of {address}"),
                    response.error_code,
                    None,
                ));
            }
            ids.extend(
                response
                    .groups
                    .iter()
                    .map(|group| group.group_id.0.to_string()),
            );
        }
        if self
            .bootstrap
            .versions(LIST_CONFIG_RESOURCES)
            .is_some_and(|span| span.max >= 1)
        {
            let request = ListConfigResourcesRequest::default()
                .with_resource_types(vec![RESOURCE_TYPE_GROUP]);
            let response = self
                .bootstrap
                .call_kafka(1, &request, "ListConfigResources")
                .await?;
            if response.error_code != 0 {
                return Err(broker_error(
                    "listing the groups with configs",
                    response.error_code,
                    None,
                ));
            }
            ids.extend(
                response
                    .config_resources
                    .iter()
                    .map(|resource| resource.resource_name.to_string()),
            );
        }
        Ok(ids.into_iter().collect())
    }

    /// The names of the configs set on `group_id` itself (not the broker's defaults).
    pub async fn group_config_overrides(&mut self, group_id: &str) -> TransportResult<Vec<String>> {
        let configs = self.all_group_configs(group_id).await?;
        Ok(configs
            .into_iter()
            .filter(|(_, source)| *source == CONFIG_SOURCE_GROUP)
            .map(|(name, _)| name)
            .collect())
    }

    /// The resources whose names start with `prefix` that carry ACLs; `None` where the broker
    /// has no authorizer, and so no ACLs.
    pub async fn acl_resources_with_prefix(
        &mut self,
        prefix: &str,
    ) -> TransportResult<Option<Vec<AclResourcePattern>>> {
        let request = DescribeAclsRequest::default()
            .with_resource_type_filter(ACL_RESOURCE_ANY)
            .with_resource_name_filter(None)
            .with_pattern_type_filter(ACL_PATTERN_ANY)
            .with_principal_filter(None)
            .with_host_filter(None)
            .with_operation(ACL_OPERATION_ANY)
            .with_permission_type(ACL_PERMISSION_ANY);
        let response = self
            .bootstrap
            .call_kafka(3, &request, "DescribeAcls")
            .await?;
        match response.error_code {
            0 => {}
            ERROR_SECURITY_DISABLED => return Ok(None),
            code => {
                return Err(broker_error(
                    "describing the ACLs",
                    code,
                    response.error_message.as_ref(),
                ))
            }
        }
        Ok(Some(
            response
                .resources
                .iter()
                .filter(|resource| resource.resource_name.starts_with(prefix))
                .map(|resource| AclResourcePattern {
                    resource_type: resource.resource_type,
                    name: resource.resource_name.to_string(),
                    pattern_type: resource.pattern_type,
                    acls: resource.acls.len(),
                })
                .collect(),
        ))
    }

    /// Removes every ACL on `resource`.
    pub async fn remove_acls_on(&mut self, resource: &AclResourcePattern) -> TransportResult<()> {
        let filter = every_acl_on!(
            DeleteAclsFilter::default(),
            resource.resource_type,
            resource.name,
            resource.pattern_type
        );
        let request = DeleteAclsRequest::default().with_filters(vec![filter]);
        let response = self.bootstrap.call_kafka(3, &request, "DeleteAcls").await?;
        first_failure(&response.filter_results, || {
            format!("removing the ACLs on {resource}")
        })
    }
}
