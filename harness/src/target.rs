//! What scenarios run against: a Kafka broker over TCP, or the reference coordinator in process.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};

use streamspec_protocol::access::{Operation, Resource};

use crate::embedded::{EmbeddedTarget, TimerStalled};
use crate::kafka::KafkaTarget;
use crate::transport::{Exchange, TransportResult};

/// Where to run, as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetSpec {
    /// The reference coordinator, in process, on a virtual clock.
    Embedded,
    /// A broker at HOST:PORT.
    Kafka(String),
}

impl TargetSpec {
    /// `embedded`, or HOST:PORT.
    pub fn parse(text: &str) -> TargetSpec {
        if text == "embedded" {
            TargetSpec::Embedded
        } else {
            TargetSpec::Kafka(text.to_owned())
        }
    }
}

impl fmt::Display for TargetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetSpec::Embedded => f.write_str("embedded"),
            TargetSpec::Kafka(address) => f.write_str(address),
        }
    }
}

/// An open target for one scenario.
#[derive(Debug)]
pub enum Target {
    Kafka(Box<KafkaTarget>),
    Embedded(Box<EmbeddedTarget>),
}

impl Target {
    /// Opens `spec` for a scenario whose group is `group_id`. The reference in process starts as
    /// a broker with `broker_configs` would; a broker is as it was started, and gets topics with
    /// `replication_factor` replicas.
    pub async fn open(
        spec: &TargetSpec,
        group_id: &str,
        timeout: Duration,
        replication_factor: i16,
        broker_configs: &BTreeMap<String, String>,
    ) -> TransportResult<Target> {
        Ok(match spec {
            TargetSpec::Embedded => {
                Target::Embedded(Box::new(EmbeddedTarget::with_broker_configs(
                    broker_configs
                        .iter()
                        .map(|(name, value)| (name.as_str(), value.as_str())),
                )))
            }
            TargetSpec::Kafka(address) => Target::Kafka(Box::new(
                KafkaTarget::connect(address, group_id, timeout, replication_factor).await?,
            )),
        })
    }

    /// The StreamsGroupHeartbeat version used unless a step names one.
    pub fn heartbeat_version(&self) -> i16 {
        match self {
            Target::Kafka(kafka) => kafka.heartbeat_version,
            Target::Embedded(_) => EmbeddedTarget::HEARTBEAT_VERSION,
        }
    }

    /// The values of broker-level configs, in the order of `names`.
    pub async fn broker_configs(
        &mut self,
        names: &[String],
    ) -> TransportResult<Vec<Option<String>>> {
        match self {
            Target::Kafka(kafka) => kafka.broker_configs(names).await,
            Target::Embedded(embedded) => Ok(names
                .iter()
                .map(|name| embedded.broker_config(name))
                .collect()),
        }
    }

    /// The StreamsGroupDescribe version used unless a step names one.
    pub fn describe_version(&self) -> i16 {
        match self {
            Target::Kafka(kafka) => kafka.describe_version,
            Target::Embedded(_) => EmbeddedTarget::DESCRIBE_VERSION,
        }
    }

    pub async fn heartbeat(
        &mut self,
        version: i16,
        request: &StreamsGroupHeartbeatRequest,
    ) -> TransportResult<(StreamsGroupHeartbeatResponse, Exchange)> {
        match self {
            Target::Kafka(kafka) => kafka.heartbeat(version, request).await,
            Target::Embedded(embedded) => embedded.heartbeat(version, request),
        }
    }

    pub async fn describe(
        &mut self,
        version: i16,
        request: &StreamsGroupDescribeRequest,
    ) -> TransportResult<(StreamsGroupDescribeResponse, Exchange)> {
        match self {
            Target::Kafka(kafka) => kafka.describe(version, request).await,
            Target::Embedded(embedded) => embedded.describe(version, request),
        }
    }

    /// Creates topics and waits until the coordinator sees them.
    pub async fn create_topics(
        &mut self,
        topics: &[(String, i32)],
        probe_group: &str,
        deadline: Duration,
    ) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => {
                kafka.create_topics(topics, deadline).await?;
                let names: Vec<String> = topics.iter().map(|(name, _)| name.clone()).collect();
                kafka
                    .await_topics_at_coordinator(probe_group, &names, deadline)
                    .await
            }
            Target::Embedded(embedded) => {
                embedded.create_topics(topics);
                Ok(())
            }
        }
    }

    /// The names of the group-level configs the target knows.
    pub async fn group_config_names(&mut self, group_id: &str) -> TransportResult<Vec<String>> {
        match self {
            Target::Kafka(kafka) => kafka.group_config_names(group_id).await,
            Target::Embedded(_) => Ok(streamspec_coordinator::GROUP_CONFIG_NAMES
                .iter()
                .map(|name| (*name).to_owned())
                .collect()),
        }
    }

    /// Sets group-level configs of `group_id`.
    pub async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => kafka.set_group_configs(group_id, configs).await,
            Target::Embedded(embedded) => embedded.set_group_configs(group_id, configs),
        }
    }

    /// Takes group-level configs of `group_id` back to their defaults; the embedded cluster goes
    /// away with the target.
    pub async fn delete_group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => kafka.delete_group_configs(group_id, names).await,
            Target::Embedded(_) => Ok(()),
        }
    }

    /// Deletes the scenario's topics; the embedded cluster goes away with the target.
    pub async fn delete_topics(
        &mut self,
        names: &[String],
        deadline: Duration,
    ) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => kafka.delete_topics(names, deadline).await,
            Target::Embedded(_) => Ok(()),
        }
    }

    /// Makes `group_id` a consumer group, with one consumer subscribed to `topics`.
    pub async fn create_consumer_group(
        &mut self,
        group_id: &str,
        topics: &[String],
    ) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => kafka.create_consumer_group(group_id, topics).await,
            Target::Embedded(embedded) => {
                embedded.create_consumer_group(group_id);
                Ok(())
            }
        }
    }

    /// Denies `operation` on `resource` to every client.
    pub async fn deny(&mut self, operation: Operation, resource: &Resource) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => kafka.deny(operation, resource).await,
            Target::Embedded(embedded) => embedded.deny(operation, resource),
        }
    }

    /// Takes away every ACL on `resource`.
    pub async fn remove_acls(&mut self, resource: &Resource) -> TransportResult<()> {
        match self {
            Target::Kafka(kafka) => kafka.remove_acls(resource).await,
            Target::Embedded(embedded) => {
                embedded.remove_acls(resource);
                Ok(())
            }
        }
    }

    /// Lets `duration` pass: real time for a broker, virtual time in process (where a coordinator
    /// whose timer does not advance stops the clock).
    pub async fn sleep(&mut self, duration: Duration) -> Result<(), TimerStalled> {
        match self {
            Target::Kafka(_) => {
                tokio::time::sleep(duration).await;
                Ok(())
            }
            Target::Embedded(embedded) => embedded.sleep(duration.as_millis() as u64),
        }
    }
}
