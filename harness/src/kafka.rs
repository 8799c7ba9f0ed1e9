//! A Kafka broker as a target: finds the group coordinator, creates and deletes the topics a
//! scenario needs, and carries heartbeats and describes. What the harness asks of it goes
//! through [`Backend`](crate::backend::Backend) (`kafka/backend.rs`); the rest here is Kafka's
//! admin APIs, also used by `streamspec clean`.

use std::time::{Duration, Instant};

use kafka_protocol::messages::create_acls_request::AclCreation;
use kafka_protocol::messages::create_acls_response::AclCreationResult;
use kafka_protocol::messages::create_partitions_request::CreatePartitionsTopic;
use kafka_protocol::messages::create_partitions_response::CreatePartitionsTopicResult;
use kafka_protocol::messages::create_topics_request::CreatableTopic;
use kafka_protocol::messages::delete_acls_request::DeleteAclsFilter;
use kafka_protocol::messages::delete_acls_response::DeleteAclsFilterResult;
use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::describe_configs_response::DescribeConfigsResult;
use kafka_protocol::messages::incremental_alter_configs_request::{
    AlterConfigsResource, AlterableConfig,
};
use kafka_protocol::messages::incremental_alter_configs_response::AlterConfigsResourceResponse;
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    ConsumerGroupHeartbeatRequest, CreateAclsRequest, CreatePartitionsRequest, CreateTopicsRequest,
    DeleteAclsRequest, DeleteTopicsRequest, DescribeAclsRequest, DescribeConfigsRequest,
    FindCoordinatorRequest, GroupId, IncrementalAlterConfigsRequest, ListConfigResourcesRequest,
    ListGroupsRequest, MetadataRequest, TopicName,
};
use kafka_protocol::protocol::StrBytes;
use streamspec_protocol::access::{Operation, Resource};
use streamspec_protocol::codes::{
    ERROR_COORDINATOR_LOAD_IN_PROGRESS, ERROR_COORDINATOR_NOT_AVAILABLE, ERROR_SECURITY_DISABLED,
    ERROR_TOPIC_ALREADY_EXISTS, ERROR_UNKNOWN_SERVER_ERROR, ERROR_UNKNOWN_TOPIC_OR_PARTITION,
};
use streamspec_protocol::kafka::{StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest};

use crate::transport::{Connection, TransportError, TransportResult};

mod backend;
pub use backend::KafkaConnector;

/// Connections to a broker: the bootstrap one for set-up, and one to the group's coordinator.
#[derive(Debug)]
pub struct KafkaTarget {
    bootstrap: Connection,
    coordinator: Connection,
    /// The node id of the group's coordinator, for its broker configs.
    coordinator_node: i32,
    timeout: Duration,
    /// The replication factor of the topics the harness creates; -1 asks for the broker's default.
    replication_factor: i16,
    heartbeat_version: i16,
    describe_version: i16,
    /// When it connected: the start of [`Backend::now_ms`](crate::backend::Backend::now_ms).
    opened: Instant,
}

fn broker_error(what: &str, error_code: i16, message: Option<&StrBytes>) -> TransportError {
    TransportError::Broker {
        what: what.to_owned(),
        error_code,
        message: message.map(|text| text.to_string()),
    }
}

/// One result of a batch answer: its error code and message.
trait BatchResult {
    fn error(&self) -> (i16, Option<&StrBytes>);
}

macro_rules! batch_results {
    ($($result:ty),*) => {
        $(impl BatchResult for $result {
            fn error(&self) -> (i16, Option<&StrBytes>) {
                (self.error_code, self.error_message.as_ref())
            }
        })*
    };
}

batch_results!(
    AclCreationResult,
    DeleteAclsFilterResult,
    CreatePartitionsTopicResult,
    AlterConfigsResourceResponse,
    DescribeConfigsResult
);

/// The first failed result of a batch answer as an error about `what`.
fn first_failure(
    results: &[impl BatchResult],
    what: impl FnOnce() -> String,
) -> TransportResult<()> {
    match results
        .iter()
        .map(BatchResult::error)
        .find(|(code, _)| *code != 0)
    {
        Some((error_code, message)) => Err(broker_error(&what(), error_code, message)),
        None => Ok(()),
    }
}

impl KafkaTarget {
    /// Connects to `address` and to the coordinator of `group_id`; topics it creates get
    /// `replication_factor` replicas.
    pub async fn connect(
        address: &str,
        group_id: &str,
        timeout: Duration,
        replication_factor: i16,
    ) -> TransportResult<Self> {
        let mut bootstrap = Connection::connect(address, timeout).await?;
        let heartbeat_version = bootstrap.negotiate::<StreamsGroupHeartbeatRequest>()?;
        let describe_version = bootstrap.negotiate::<StreamsGroupDescribeRequest>()?;
        let (coordinator_address, coordinator_node) =
            find_coordinator(&mut bootstrap, group_id, timeout).await?;
        let coordinator = Connection::connect(&coordinator_address, timeout).await?;
        Ok(KafkaTarget {
            bootstrap,
            coordinator,
            coordinator_node,
            timeout,
            replication_factor,
            heartbeat_version,
            describe_version,
            opened: Instant::now(),
        })
    }

    /// Creates topics and waits, within `deadline`, until metadata shows a leader for every
    /// partition.
    pub async fn create_topics(
        &mut self,
        topics: &[(String, i32)],
        deadline: Duration,
    ) -> TransportResult<()> {
        if topics.is_empty() {
            return Ok(());
        }
        let request = CreateTopicsRequest::default()
            .with_topics(
                topics
                    .iter()
                    .map(|(name, partitions)| {
                        CreatableTopic::default()
                            .with_name(TopicName(StrBytes::from_string(name.clone())))
                            .with_num_partitions(*partitions)
                            .with_replication_factor(self.replication_factor)
                    })
                    .collect(),
            )
            .with_timeout_ms(deadline.as_millis() as i32);
        let response = self
            .bootstrap
            .call_kafka(5, &request, "CreateTopics")
            .await?;
        for topic in &response.topics {
            if topic.error_code != 0 && topic.error_code != ERROR_TOPIC_ALREADY_EXISTS {
                return Err(broker_error(
                    &format!(
                        "creating topic {} with replication factor {} (--replication-factor)",
                        topic.name.0, self.replication_factor
                    ),
                    topic.error_code,
                    topic.error_message.as_ref(),
                ));
            }
        }
        self.await_partition_counts(topics, deadline).await
    }

    /// One round of a bounded wait that began at `started`: a timeout error about `what` once
    /// `deadline` has passed, else a short pause before the next look.
    async fn pause_or_give_up(
        &self,
        started: Instant,
        deadline: Duration,
        what: impl FnOnce() -> String,
    ) -> TransportResult<()> {
        if started.elapsed() > deadline {
            return Err(TransportError::Timeout {
                address: self.bootstrap.address().to_owned(),
                what: what(),
                after: deadline,
            });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        Ok(())
    }

    /// Grows `topic` to `partitions` partitions (CreatePartitions) and waits until metadata shows
    /// them led.
    pub async fn create_partitions(
        &mut self,
        topic: &str,
        partitions: i32,
        deadline: Duration,
    ) -> TransportResult<()> {
        let request = CreatePartitionsRequest::default()
            .with_topics(vec![CreatePartitionsTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
                .with_count(partitions)
                .with_assignments(None)])
            .with_timeout_ms(deadline.as_millis() as i32);
        let response = self
            .bootstrap
            .call_kafka(3, &request, "CreatePartitions")
            .await?;
        first_failure(&response.results, || {
            format!("growing topic {topic} to {partitions} partitions")
        })?;
        self.await_partition_counts(&[(topic.to_owned(), partitions)], deadline)
            .await
    }

    /// Waits, within `deadline`, until metadata shows every topic of `topics` with its count of
    /// partitions, each with a leader.
    async fn await_partition_counts(
        &mut self,
        topics: &[(String, i32)],
        deadline: Duration,
    ) -> TransportResult<()> {
        let names: Vec<String> = topics.iter().map(|(name, _)| name.clone()).collect();
        let started = Instant::now();
        loop {
            let partitions = self.partition_counts(&names).await?;
            if partitions
                .iter()
                .zip(topics)
                .all(|(found, (_, wanted))| *found == Some(*wanted))
            {
                return Ok(());
            }
            self.pause_or_give_up(started, deadline, || {
                format!("metadata for the topics {names:?}")
            })
            .await?;
        }
    }

    /// Partition counts of `names` with a leader for every partition; `None` for a topic that
    /// does not exist (yet) or has a partition without leader.
    pub async fn partition_counts(
        &mut self,
        names: &[String],
    ) -> TransportResult<Vec<Option<i32>>> {
        // Never auto-created: asking about a deleted topic must not bring it back.
        let request = MetadataRequest::default()
            .with_allow_auto_topic_creation(false)
            .with_topics(Some(
                names
                    .iter()
                    .map(|name| {
                        MetadataRequestTopic::default()
                            .with_name(Some(TopicName(StrBytes::from_string(name.clone()))))
                    })
                    .collect(),
            ));
        let response = self.bootstrap.call_kafka(12, &request, "Metadata").await?;
        Ok(names
            .iter()
            .map(|name| {
                let topic = response.topics.iter().find(|topic| {
                    topic
                        .name
                        .as_ref()
                        .is_some_and(|found| found.0.as_str() == name)
                })?;
                let led = topic
                    .partitions
                    .iter()
                    .all(|partition| partition.leader_id.0 >= 0);
                (topic.error_code == 0 && led).then_some(topic.partitions.len() as i32)
            })
            .collect())
    }

    /// Waits, within `deadline`, until metadata no longer shows `names`, so that they can be
    /// created again.
    pub async fn await_topics_gone(
        &mut self,
        names: &[String],
        deadline: Duration,
    ) -> TransportResult<()> {
        let started = Instant::now();
        while self
            .partition_counts(names)
            .await?
            .iter()
            .any(Option::is_some)
        {
            self.pause_or_give_up(started, deadline, || {
                format!("the topics {names:?} to be deleted")
            })
            .await?;
        }
        Ok(())
    }

    /// Deletes topics; topics that are already gone are not an error.
    pub async fn delete_topics(
        &mut self,
        names: &[String],
        deadline: Duration,
    ) -> TransportResult<()> {
        if names.is_empty() {
            return Ok(());
        }
        let request = DeleteTopicsRequest::default()
            .with_topic_names(
                names
                    .iter()
                    .map(|name| TopicName(StrBytes::from_string(name.clone())))
                    .collect(),
            )
            .with_timeout_ms(deadline.as_millis() as i32);
        let response = self
            .bootstrap
            .call_kafka(5, &request, "DeleteTopics")
            .await?;
        for topic in &response.responses {
            if topic.error_code != 0 && topic.error_code != ERROR_UNKNOWN_TOPIC_OR_PARTITION {
                return Err(broker_error(
                    "deleting topics",
                    topic.error_code,
                    topic.error_message.as_ref(),
                ));
            }
        }
        Ok(())
    }
}

/// Kafka's config resource type of a group.
const RESOURCE_TYPE_GROUP: i8 = 32;
/// Kafka's config resource type of a broker.
const RESOURCE_TYPE_BROKER: i8 = 4;
/// IncrementalAlterConfigs operation SET.
const CONFIG_SET: i8 = 0;
/// IncrementalAlterConfigs operation DELETE: back to the broker's default.
const CONFIG_DELETE: i8 = 1;

impl KafkaTarget {
    /// One IncrementalAlterConfigs of `group_id`: each config with its operation and value.
    async fn alter_group_configs(
        &mut self,
        group_id: &str,
        changes: Vec<AlterableConfig>,
        what: impl FnOnce() -> String,
    ) -> TransportResult<()> {
        let resource = AlterConfigsResource::default()
            .with_resource_type(RESOURCE_TYPE_GROUP)
            .with_resource_name(StrBytes::from_string(group_id.to_owned()))
            .with_configs(changes);
        let request = IncrementalAlterConfigsRequest::default().with_resources(vec![resource]);
        let response = self
            .bootstrap
            .call_kafka(1, &request, "IncrementalAlterConfigs")
            .await?;
        first_failure(&response.responses, what)
    }

    /// Takes group-level configs of `group_id` back to the broker's defaults, so that a run
    /// leaves none behind.
    pub async fn delete_group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> TransportResult<()> {
        let changes = names
            .iter()
            .map(|name| {
                AlterableConfig::default()
                    .with_name(StrBytes::from_string(name.clone()))
                    .with_config_operation(CONFIG_DELETE)
            })
            .collect();
        self.alter_group_configs(group_id, changes, || {
            format!("deleting group configs {names:?}")
        })
        .await
    }

    /// Sets group-level configs (e.g. `streams.num.standby.replicas`) of `group_id`.
    pub async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> TransportResult<()> {
        let changes = configs
            .iter()
            .map(|(name, value)| {
                AlterableConfig::default()
                    .with_name(StrBytes::from_string(name.clone()))
                    .with_config_operation(CONFIG_SET)
                    .with_value(Some(StrBytes::from_string(value.clone())))
            })
            .collect();
        self.alter_group_configs(group_id, changes, || {
            format!("setting group configs {configs:?}")
        })
        .await?;
        // The configs reach the broker's metadata a little later; wait, bounded, until they read
        // back, so that the scenario's next request meets them.
        let names: Vec<String> = configs.iter().map(|(name, _)| name.clone()).collect();
        let started = Instant::now();
        loop {
            let values = self.group_configs(group_id, &names).await?;
            // Kafka reads values back trimmed, lists without spaces after commas.
            let normal = |value: &str| {
                value
                    .split(',')
                    .map(str::trim)
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let applied = configs
                .iter()
                .zip(&values)
                .all(|((_, wanted), found)| found.as_deref().map(normal) == Some(normal(wanted)));
            if applied {
                return Ok(());
            }
            self.pause_or_give_up(started, self.timeout, || {
                format!("group configs {configs:?} to apply")
            })
            .await?;
        }
    }

    /// The values of group-level configs of `group_id`, in the order of `names`; a config never
    /// set reads as the broker's default.
    pub async fn group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> TransportResult<Vec<Option<String>>> {
        self.describe_configs(RESOURCE_TYPE_GROUP, group_id, names)
            .await
    }

    /// Every group-level config of `group_id` the broker lists (DescribeConfigs of a GROUP
    /// resource, all keys), with its name and where its value comes from.
    async fn all_group_configs(&mut self, group_id: &str) -> TransportResult<Vec<(String, i8)>> {
        let describe = DescribeConfigsRequest::default().with_resources(vec![
            DescribeConfigsResource::default()
                .with_resource_type(RESOURCE_TYPE_GROUP)
                .with_resource_name(StrBytes::from_string(group_id.to_owned()))
                .with_configuration_keys(None),
        ]);
        let response = self
            .bootstrap
            .call_kafka(4, &describe, "DescribeConfigs")
            .await?;
        first_failure(&response.results, || {
            format!("describing the configs of group {group_id}")
        })?;
        Ok(response
            .results
            .iter()
            .flat_map(|result| &result.configs)
            .map(|config| (config.name.to_string(), config.config_source))
            .collect())
    }

    /// The names of the group-level configs the broker lists, set or not.
    pub async fn group_config_names(&mut self, group_id: &str) -> TransportResult<Vec<String>> {
        let configs = self.all_group_configs(group_id).await?;
        Ok(configs.into_iter().map(|(name, _)| name).collect())
    }

    /// The values of configs of the coordinator's broker, in the order of `names`.
    pub async fn broker_configs(
        &mut self,
        names: &[String],
    ) -> TransportResult<Vec<Option<String>>> {
        let node = self.coordinator_node.to_string();
        self.describe_configs(RESOURCE_TYPE_BROKER, &node, names)
            .await
    }

    async fn describe_configs(
        &mut self,
        resource_type: i8,
        resource: &str,
        names: &[String],
    ) -> TransportResult<Vec<Option<String>>> {
        let describe = DescribeConfigsRequest::default().with_resources(vec![
            DescribeConfigsResource::default()
                .with_resource_type(resource_type)
                .with_resource_name(StrBytes::from_string(resource.to_owned()))
                .with_configuration_keys(Some(
                    names
                        .iter()
                        .map(|name| StrBytes::from_string(name.clone()))
                        .collect(),
                )),
        ]);
        let response = self
            .bootstrap
            .call_kafka(4, &describe, "DescribeConfigs")
            .await?;
        Ok(names
            .iter()
            .map(|name| {
                response
                    .results
                    .iter()
                    .flat_map(|result| &result.configs)
                    .find(|config| config.name.as_str() == name)
                    .and_then(|config| config.value.as_ref().map(|v| v.to_string()))
            })
            .collect())
    }
}

impl KafkaTarget {
    /// Makes `group_id` a consumer group (KIP-848): one consumer joins it, subscribed to `topics`.
    pub async fn create_consumer_group(
        &mut self,
        group_id: &str,
        topics: &[String],
    ) -> TransportResult<()> {
        let request = ConsumerGroupHeartbeatRequest::default()
            .with_group_id(GroupId(StrBytes::from_string(group_id.to_owned())))
            .with_member_id(StrBytes::from_string(format!("{group_id}-consumer")))
            .with_member_epoch(0)
            .with_rebalance_timeout_ms(30_000)
            .with_subscribed_topic_names(Some(
                topics
                    .iter()
                    .map(|topic| TopicName(StrBytes::from_string(topic.clone())))
                    .collect(),
            ))
            .with_topic_partitions(Some(Vec::new()));
        let response = self
            .coordinator
            .call_kafka(1, &request, "ConsumerGroupHeartbeat")
            .await?;
        if response.error_code != 0 {
            return Err(broker_error(
                &format!("creating consumer group {group_id}"),
                response.error_code,
                response.error_message.as_ref(),
            ));
        }
        Ok(())
    }
}

/// Kafka's ACL codes: resource types, the literal pattern, operations and permissions.
const ACL_RESOURCE_TOPIC: i8 = 2;
const ACL_RESOURCE_GROUP: i8 = 3;
const ACL_RESOURCE_CLUSTER: i8 = 4;
const ACL_PATTERN_LITERAL: i8 = 3;
const ACL_OPERATION_ALL: i8 = 2;
const ACL_PERMISSION_DENY: i8 = 2;
const ACL_PERMISSION_ALLOW: i8 = 3;
/// Filters matching any operation and any permission.
const ACL_OPERATION_ANY: i8 = 1;
const ACL_PERMISSION_ANY: i8 = 1;
/// Every principal from every host: scenarios deny an operation to whoever connects.
const ACL_EVERY_PRINCIPAL: &str = "User:*";
const ACL_EVERY_HOST: &str = "*";

/// Kafka's ACL code of `resource`, with its name (the cluster's is `kafka-cluster`).
fn acl_resource(resource: &Resource) -> (i8, &str) {
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
fn acl_operation(operation: Operation) -> i8 {
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

/// The address and node id of the coordinator of `group_id` (FindCoordinator v4, key type 0:
/// group), asking again while the coordinator is loading, within `deadline`.
async fn find_coordinator(
    connection: &mut Connection,
    group_id: &str,
    deadline: Duration,
) -> TransportResult<(String, i32)> {
    let request = FindCoordinatorRequest::default()
        .with_key_type(0)
        .with_coordinator_keys(vec![StrBytes::from_string(group_id.to_owned())]);
    let started = Instant::now();
    loop {
        let response = connection
            .call_kafka(4, &request, "FindCoordinator")
            .await?;
        let coordinator = response
            .coordinators
            .first()
            .ok_or_else(|| TransportError::Broker {
                what: "FindCoordinator".to_owned(),
                error_code: ERROR_UNKNOWN_SERVER_ERROR,
                message: Some("no coordinator in the response".to_owned()),
            })?;
        match coordinator.error_code {
            0 => {
                return Ok((
                    format!("{}:{}", coordinator.host, coordinator.port),
                    coordinator.node_id.0,
                ))
            }
            // The group coordinator is still being set up; worth asking again.
            ERROR_COORDINATOR_LOAD_IN_PROGRESS | ERROR_COORDINATOR_NOT_AVAILABLE
                if started.elapsed() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            code => {
                return Err(broker_error(
                    "FindCoordinator",
                    code,
                    coordinator.error_message.as_ref(),
                ))
            }
        }
    }
}

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
