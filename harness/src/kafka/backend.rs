//! A broker as a [`Backend`]: api keys 88 and 89 to the group's coordinator as bytes, set-up
//! through Kafka's admin APIs, real time.

use std::collections::BTreeMap;
use std::time::Duration;

use streamspec_protocol::access::{Operation, Resource};

use super::KafkaTarget;
use crate::backend::{Backend, BackendError, BackendResult, Connect, StreamsApi};
use crate::transport::Connection;

impl Backend for KafkaTarget {
    fn heartbeat_version(&self) -> i16 {
        self.heartbeat_version
    }

    fn describe_version(&self) -> i16 {
        self.describe_version
    }

    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        let what = match api {
            StreamsApi::Heartbeat => format!("StreamsGroupHeartbeatRequest v{version}"),
            StreamsApi::Describe => format!("StreamsGroupDescribeRequest v{version}"),
        };
        // On a cluster each group has its own coordinator.
        Ok(match api {
            StreamsApi::Heartbeat => {
                self.heartbeat_to_coordinator(version, request, &what)
                    .await?
            }
            StreamsApi::Describe => {
                self.describe_across_coordinators(version, request, &what)
                    .await?
            }
        })
    }

    async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
        Ok(KafkaTarget::create_topics(self, topics, self.timeout).await?)
    }

    async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
        KafkaTarget::delete_topics(self, names, self.timeout).await?;
        Ok(self.await_topics_gone(names, self.timeout).await?)
    }

    async fn create_partitions(&mut self, topic: &str, partitions: i32) -> BackendResult<()> {
        Ok(KafkaTarget::create_partitions(self, topic, partitions, self.timeout).await?)
    }

    fn bounds_its_own_waits(&self) -> bool {
        true
    }

    async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
        tokio::time::sleep(duration).await;
        Ok(())
    }

    fn now_ms(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }

    async fn probe_group_beside(&mut self, probe_group: &str) -> BackendResult<String> {
        Ok(KafkaTarget::probe_group_beside(self, probe_group).await?)
    }

    async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
        Ok(KafkaTarget::broker_configs(self, names).await?)
    }

    async fn group_config_names(&mut self, group_id: &str) -> BackendResult<Vec<String>> {
        Ok(KafkaTarget::group_config_names(self, group_id).await?)
    }

    async fn group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<Vec<Option<String>>> {
        Ok(KafkaTarget::group_configs(self, group_id, names).await?)
    }

    async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> BackendResult<()> {
        Ok(KafkaTarget::set_group_configs(self, group_id, configs).await?)
    }

    async fn delete_group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<()> {
        Ok(KafkaTarget::delete_group_configs(self, group_id, names).await?)
    }

    async fn create_consumer_group(
        &mut self,
        group_id: &str,
        topics: &[String],
    ) -> BackendResult<()> {
        // A Streams-only broker cannot hold R19's consumer group: the scenario is skipped,
        // naming the api, rather than failed on a closed connection.
        if let Some(unsupported) = consumer_groups_unsupported(&self.bootstrap) {
            return Err(unsupported);
        }
        Ok(KafkaTarget::create_consumer_group(self, group_id, topics).await?)
    }

    async fn deny(&mut self, operation: Operation, resource: &Resource) -> BackendResult<()> {
        Ok(KafkaTarget::deny(self, operation, resource).await?)
    }

    async fn remove_acls(&mut self, resource: &Resource) -> BackendResult<()> {
        Ok(KafkaTarget::remove_acls(self, resource).await?)
    }
}

/// Connects to a broker for every scenario and run, to the coordinator of its group.
#[derive(Debug, Clone)]
pub struct KafkaConnector {
    pub address: String,
    /// Bound on every single wait for the broker.
    pub timeout: Duration,
    /// Replicas of the topics created; -1 for the broker's default.
    pub replication_factor: i16,
}

impl Connect for KafkaConnector {
    type Backend = KafkaTarget;

    /// A broker is as it was started: the scenario's broker configs are read, not set.
    async fn open(
        &self,
        group_id: &str,
        _: &BTreeMap<String, String>,
    ) -> BackendResult<KafkaTarget> {
        Ok(KafkaTarget::connect(
            &self.address,
            group_id,
            self.timeout,
            self.replication_factor,
        )
        .await?)
    }

    fn name(&self) -> String {
        self.address.clone()
    }

    fn shares_state(&self) -> bool {
        true
    }

    fn flags(&self) -> String {
        if self.replication_factor == 1 {
            String::new()
        } else {
            format!(" --replication-factor {}", self.replication_factor)
        }
    }
}

/// ConsumerGroupHeartbeat, which only a `consumer_group` step (R19) calls.
const CONSUMER_GROUP_HEARTBEAT: i16 = 68;

/// Why a broker whose ApiVersions answer is `connection`'s cannot run a `consumer_group` step,
/// if it cannot: `check` skips the scenario with this reason when it reaches the step.
pub(crate) fn consumer_groups_unsupported(connection: &Connection) -> Option<BackendError> {
    connection
        .versions(CONSUMER_GROUP_HEARTBEAT)
        .is_none()
        .then(|| {
            BackendError::unsupported(
                format!("make a consumer group: it does not offer ConsumerGroupHeartbeat (api key {CONSUMER_GROUP_HEARTBEAT})"),
            )
        })
}
