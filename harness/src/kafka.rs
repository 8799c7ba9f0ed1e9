//! A Kafka broker as a target: finds the group coordinator, creates and deletes the topics a
//! scenario needs, and carries heartbeats and describes. What the harness asks of it goes
//! through [`Backend`](crate::backend::Backend) (`kafka/backend.rs`); the rest is Kafka's admin
//! APIs: topics here, configs (`kafka/configs.rs`), ACLs (`kafka/acls.rs`) and what `streamspec
//! clean` lists and removes (`kafka/clean.rs`).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use kafka_protocol::messages::create_acls_response::AclCreationResult;
use kafka_protocol::messages::create_partitions_request::CreatePartitionsTopic;
use kafka_protocol::messages::create_partitions_response::CreatePartitionsTopicResult;
use kafka_protocol::messages::create_topics_request::CreatableTopic;
use kafka_protocol::messages::delete_acls_response::DeleteAclsFilterResult;
use kafka_protocol::messages::describe_configs_response::DescribeConfigsResult;
use kafka_protocol::messages::incremental_alter_configs_response::AlterConfigsResourceResponse;
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    ConsumerGroupHeartbeatRequest, CreatePartitionsRequest, CreateTopicsRequest,
    DeleteTopicsRequest, FindCoordinatorRequest, GroupId, MetadataRequest, TopicName,
};
use kafka_protocol::protocol::StrBytes;
use streamspec_protocol::codes::{
    ERROR_COORDINATOR_LOAD_IN_PROGRESS, ERROR_COORDINATOR_NOT_AVAILABLE,
    ERROR_TOPIC_ALREADY_EXISTS, ERROR_UNKNOWN_SERVER_ERROR, ERROR_UNKNOWN_TOPIC_OR_PARTITION,
};
use streamspec_protocol::kafka::{StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest};

use crate::transport::{Connection, TransportError, TransportResult};

#[macro_use]
mod acls;
mod backend;
mod clean;
mod configs;
mod coordinators;
pub(crate) use backend::consumer_groups_unsupported;
pub use backend::KafkaConnector;
pub use clean::{AclResourcePattern, ACL_PATTERN_PREFIXED};

/// Connections to a broker: the bootstrap one for set-up, and one to each group coordinator
/// met. On a cluster, groups have different coordinators, none of them necessarily the
/// bootstrap broker; on a single broker, all are one connection.
#[derive(Debug)]
pub struct KafkaTarget {
    bootstrap: Connection,
    /// Connections to group coordinators, by node id.
    coordinators: BTreeMap<i32, Connection>,
    /// The coordinator's node id of each group asked about so far.
    group_nodes: BTreeMap<String, i32>,
    /// The node id of the scenario group's coordinator, for its broker configs and for
    /// requests without a readable group id.
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
            coordinators: BTreeMap::from([(coordinator_node, coordinator)]),
            group_nodes: BTreeMap::from([(group_id.to_owned(), coordinator_node)]),
            coordinator_node,
            timeout,
            replication_factor,
            heartbeat_version,
            describe_version,
            opened: Instant::now(),
        })
    }

    /// Creates topics and waits, within `deadline`, until metadata shows a leader for every
    /// partition, on the bootstrap broker and on every coordinator met: a group coordinator
    /// reads topics from its own broker's metadata, which may lag behind the bootstrap's.
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
            let counted = |partitions: &[Option<i32>]| {
                partitions
                    .iter()
                    .zip(topics)
                    .all(|(found, (_, wanted))| *found == Some(*wanted))
            };
            if self.every_node_shows(&names, counted).await? {
                return Ok(());
            }
            self.pause_or_give_up(started, deadline, || {
                format!("metadata for the topics {names:?}")
            })
            .await?;
        }
    }

    /// Whether the partition counts of `names` in the metadata of the bootstrap broker and of
    /// every coordinator met are all as `wanted`.
    async fn every_node_shows(
        &mut self,
        names: &[String],
        wanted: impl Fn(&[Option<i32>]) -> bool,
    ) -> TransportResult<bool> {
        if !wanted(&partition_counts(&mut self.bootstrap, names).await?) {
            return Ok(false);
        }
        for connection in self.coordinators.values_mut() {
            if !wanted(&partition_counts(connection, names).await?) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Partition counts of `names` in the bootstrap broker's metadata (see [`partition_counts`]).
    pub async fn partition_counts(
        &mut self,
        names: &[String],
    ) -> TransportResult<Vec<Option<i32>>> {
        partition_counts(&mut self.bootstrap, names).await
    }

    /// Waits, within `deadline`, until no node met shows `names` any longer, so that they can be
    /// created again.
    pub async fn await_topics_gone(
        &mut self,
        names: &[String],
        deadline: Duration,
    ) -> TransportResult<()> {
        let started = Instant::now();
        let gone = |partitions: &[Option<i32>]| partitions.iter().all(Option::is_none);
        while !self.every_node_shows(names, gone).await? {
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
            .coordinator(Some(group_id))
            .await?
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

/// Partition counts of `names` with a leader for every partition in the metadata of the broker
/// at `connection`; `None` for a topic that does not exist (yet) or has a partition without
/// leader.
async fn partition_counts(
    connection: &mut Connection,
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
    let response = connection.call_kafka(12, &request, "Metadata").await?;
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
