//! What a randomized run drives: the reference coordinator in process on a virtual clock, or a
//! broker over TCP on real time. Both go through the wire codec.

use crate::scenario::listed_baseline_group_configs;
use std::time::{Duration, Instant};

use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};

use super::setup::{Names, Setup};
use crate::embedded::{self, EmbeddedTarget};
use crate::interrupt::Interrupt;
use crate::kafka::KafkaTarget;

/// The group configs of the run's timing; the test broker's defaults (`scripts/kafka/`).
const SESSION_TIMEOUT: &str = "streams.session.timeout.ms";
const HEARTBEAT_INTERVAL: &str = "streams.heartbeat.interval.ms";

/// A coordinator under test, seen by one run.
pub trait Cluster {
    /// Creates the run's source topics and sets its group configs.
    fn prepare(&mut self, names: &Names, setup: &Setup) -> Result<(), String>;
    fn heartbeat(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
    ) -> Result<StreamsGroupHeartbeatResponse, String>;
    fn describe(&mut self, group: &str) -> Result<DescribedGroup, String>;
    /// Grows a source topic.
    fn resize(&mut self, topic: &str, partitions: i32) -> Result<(), String>;
    /// Creates a source topic.
    fn create_topic(&mut self, topic: &str, partitions: i32) -> Result<(), String>;
    /// Deletes a source topic.
    fn delete_topic(&mut self, topic: &str) -> Result<(), String>;
    /// Lets `ms` pass: virtual time in process, real time against a broker. Fails where the
    /// coordinator's timer does not advance.
    fn advance(&mut self, ms: u64) -> Result<(), String>;
    /// Milliseconds since the run started.
    fn now_ms(&self) -> u64;
    /// The group's session timeout and heartbeat interval, in milliseconds.
    fn timing(&self) -> (u64, u64);
    /// Removes what [`Cluster::prepare`] and the run created.
    fn finish(&mut self, names: &Names, setup: &Setup) -> Result<(), String>;
    /// Whether the campaign was interrupted (Ctrl-C): the run then stops and cleans up.
    fn interrupted(&self) -> bool {
        false
    }
}

fn only_group(groups: Vec<DescribedGroup>) -> Result<DescribedGroup, String> {
    groups
        .into_iter()
        .next()
        .ok_or_else(|| "StreamsGroupDescribe answered no group".to_owned())
}

fn describe_request(group: &str) -> StreamsGroupDescribeRequest {
    StreamsGroupDescribeRequest::default().with_group_ids(vec![group.to_owned()])
}

impl Cluster for EmbeddedTarget {
    fn prepare(&mut self, names: &Names, setup: &Setup) -> Result<(), String> {
        self.create_topics(&setup.source_topics(names));
        self.set_group_configs(&names.group, &setup.group_configs())
            .map_err(|error| error.to_string())
    }

    fn heartbeat(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
    ) -> Result<StreamsGroupHeartbeatResponse, String> {
        EmbeddedTarget::heartbeat(self, EmbeddedTarget::HEARTBEAT_VERSION, request)
            .map(|(response, _)| response)
            .map_err(|error| error.to_string())
    }

    fn describe(&mut self, group: &str) -> Result<DescribedGroup, String> {
        let (response, _) = EmbeddedTarget::describe(
            self,
            EmbeddedTarget::DESCRIBE_VERSION,
            &describe_request(group),
        )
        .map_err(|error| error.to_string())?;
        only_group(response.groups)
    }

    fn resize(&mut self, topic: &str, partitions: i32) -> Result<(), String> {
        Cluster::create_topic(self, topic, partitions)
    }

    fn create_topic(&mut self, topic: &str, partitions: i32) -> Result<(), String> {
        self.create_topics(&[(topic.to_owned(), partitions)]);
        Ok(())
    }

    fn delete_topic(&mut self, topic: &str) -> Result<(), String> {
        EmbeddedTarget::delete_topic(self, topic);
        Ok(())
    }

    fn advance(&mut self, ms: u64) -> Result<(), String> {
        self.sleep(ms).map_err(|stalled| stalled.to_string())
    }

    fn now_ms(&self) -> u64 {
        EmbeddedTarget::now_ms(self)
    }

    fn timing(&self) -> (u64, u64) {
        let config = embedded::test_config();
        (
            config.session_timeout_ms,
            config.heartbeat_interval_ms as u64,
        )
    }

    fn finish(&mut self, _: &Names, _: &Setup) -> Result<(), String> {
        Ok(())
    }
}

/// A broker, driven from a thread of its own on real time.
#[derive(Debug)]
pub struct RemoteCluster {
    runtime: tokio::runtime::Runtime,
    kafka: KafkaTarget,
    started: Instant,
    timeout: Duration,
    session_timeout_ms: u64,
    heartbeat_interval_ms: u64,
    /// Names groups of their own for waiting until the coordinator sees topic changes.
    probe_group: String,
    probes: u32,
    interrupt: Interrupt,
}

impl RemoteCluster {
    /// Connects to `address` and the coordinator of `group`; `timeout` bounds every wait, and
    /// topics get `replication_factor` replicas (-1: the broker's default). A raised `interrupt`
    /// cuts waits short.
    pub fn connect(
        address: &str,
        group: &str,
        timeout: Duration,
        replication_factor: i16,
        interrupt: Interrupt,
    ) -> Result<Self, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| format!("a tokio runtime: {error}"))?;
        let kafka = runtime
            .block_on(KafkaTarget::connect(
                address,
                group,
                timeout,
                replication_factor,
            ))
            .map_err(|error| error.to_string())?;
        Ok(RemoteCluster {
            runtime,
            kafka,
            started: Instant::now(),
            timeout,
            session_timeout_ms: 0,
            heartbeat_interval_ms: 0,
            probe_group: format!("{group}-probe"),
            probes: 0,
            interrupt,
        })
    }
}

impl RemoteCluster {
    /// A fresh group for one wait: a group that knew the topic keeps its view of it.
    fn next_probe_group(&mut self) -> String {
        self.probes += 1;
        format!("{}-{}", self.probe_group, self.probes)
    }
}

impl Cluster for RemoteCluster {
    fn prepare(&mut self, names: &Names, setup: &Setup) -> Result<(), String> {
        let topics = setup.source_topics(names);
        let timeout = self.timeout;
        let probe = self.next_probe_group();
        let kafka = &mut self.kafka;
        let values = self
            .runtime
            .block_on(async {
                kafka.create_topics(&topics, timeout).await?;
                let created: Vec<String> = topics.iter().map(|(name, _)| name.clone()).collect();
                kafka
                    .await_topics_at_coordinator(&probe, &created, timeout)
                    .await?;
                // As a scenario's group does, the run's group assigns at once where the broker
                // lets it, whatever the broker's defaults.
                let listed = kafka.group_config_names(&names.group).await?;
                let mut configs = listed_baseline_group_configs(&listed);
                configs.extend(setup.group_configs());
                kafka.set_group_configs(&names.group, &configs).await?;
                // The broker's own timing, which the run must know to let sessions expire.
                let timing = [SESSION_TIMEOUT.to_owned(), HEARTBEAT_INTERVAL.to_owned()];
                kafka.group_configs(&names.group, &timing).await
            })
            .map_err(|error| error.to_string())?;
        let millis = |index: usize| -> Result<u64, String> {
            values[index]
                .as_deref()
                .and_then(|value| value.parse().ok())
                .ok_or_else(|| {
                    format!(
                        "the broker reports no numeric {} for the group",
                        [SESSION_TIMEOUT, HEARTBEAT_INTERVAL][index]
                    )
                })
        };
        self.session_timeout_ms = millis(0)?;
        self.heartbeat_interval_ms = millis(1)?;
        self.started = Instant::now();
        Ok(())
    }

    fn heartbeat(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
    ) -> Result<StreamsGroupHeartbeatResponse, String> {
        let version = self.kafka.heartbeat_version;
        let kafka = &mut self.kafka;
        self.runtime
            .block_on(kafka.heartbeat(version, request))
            .map(|(response, _)| response)
            .map_err(|error| error.to_string())
    }

    fn describe(&mut self, group: &str) -> Result<DescribedGroup, String> {
        let version = self.kafka.describe_version;
        let kafka = &mut self.kafka;
        let (response, _) = self
            .runtime
            .block_on(kafka.describe(version, &describe_request(group)))
            .map_err(|error| error.to_string())?;
        only_group(response.groups)
    }

    fn resize(&mut self, topic: &str, partitions: i32) -> Result<(), String> {
        let timeout = self.timeout;
        let kafka = &mut self.kafka;
        self.runtime
            .block_on(kafka.create_partitions(topic, partitions, timeout))
            .map_err(|error| error.to_string())
    }

    fn create_topic(&mut self, topic: &str, partitions: i32) -> Result<(), String> {
        let timeout = self.timeout;
        let probe = self.next_probe_group();
        let kafka = &mut self.kafka;
        self.runtime
            .block_on(async {
                kafka
                    .create_topics(&[(topic.to_owned(), partitions)], timeout)
                    .await?;
                kafka
                    .await_topics_at_coordinator(&probe, &[topic.to_owned()], timeout)
                    .await
            })
            .map_err(|error| error.to_string())
    }

    fn delete_topic(&mut self, topic: &str) -> Result<(), String> {
        let timeout = self.timeout;
        let probe = self.next_probe_group();
        let kafka = &mut self.kafka;
        self.runtime
            .block_on(kafka.delete_topic_and_wait(topic, &probe, timeout))
            .map_err(|error| error.to_string())
    }

    fn advance(&mut self, ms: u64) -> Result<(), String> {
        // Sessions expire in tens of seconds; an interrupt must not wait for them.
        let interrupt = &self.interrupt;
        self.runtime.block_on(async {
            tokio::select! {
                () = interrupt.raised() => {}
                () = tokio::time::sleep(Duration::from_millis(ms)) => {}
            }
        });
        Ok(())
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn timing(&self) -> (u64, u64) {
        (self.session_timeout_ms, self.heartbeat_interval_ms)
    }

    fn finish(&mut self, names: &Names, setup: &Setup) -> Result<(), String> {
        let topics = setup.all_topics(names);
        let configs: Vec<String> = setup
            .group_configs()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        let timeout = self.timeout;
        let kafka = &mut self.kafka;
        self.runtime.block_on(async {
            // Both are tried; either failing leaves something of the run on the broker.
            let configs = kafka.delete_group_configs(&names.group, &configs).await;
            let topics = kafka.delete_topics(&topics, timeout).await;
            match (configs, topics) {
                (Ok(()), Ok(())) => Ok(()),
                (Err(error), Ok(())) | (Ok(()), Err(error)) => Err(error.to_string()),
                (Err(configs), Err(topics)) => Err(format!("{configs}; {topics}")),
            }
        })
    }

    fn interrupted(&self) -> bool {
        self.interrupt.is_raised()
    }
}
