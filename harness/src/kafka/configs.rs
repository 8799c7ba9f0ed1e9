//! Group and broker configs on Kafka: IncrementalAlterConfigs and DescribeConfigs.

use std::time::{Duration, Instant};

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::incremental_alter_configs_request::{
    AlterConfigsResource, AlterableConfig,
};
use kafka_protocol::messages::{DescribeConfigsRequest, IncrementalAlterConfigsRequest};
use kafka_protocol::protocol::StrBytes;

use crate::transport::{Connection, TransportResult};

use super::{first_failure, KafkaTarget};

/// Kafka's config resource type of a group.
pub(super) const RESOURCE_TYPE_GROUP: i8 = 32;

/// How long a broker may take to hand a group config it shows to its group coordinator.
const GROUP_CONFIG_HANDOVER: Duration = Duration::from_millis(250);
/// Kafka's config resource type of a broker.
pub(super) const RESOURCE_TYPE_BROKER: i8 = 4;
/// IncrementalAlterConfigs operation SET.
pub(super) const CONFIG_SET: i8 = 0;
/// IncrementalAlterConfigs operation DELETE: back to the broker's default.
pub(super) const CONFIG_DELETE: i8 = 1;

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
                // A broker shows the new value as soon as its metadata image has it, but hands it
                // to its group coordinator in a publisher that runs after: no request reads the
                // coordinator's copy, so give it a moment (a cluster's check once met the old
                // standby count at the next heartbeat, R41).
                tokio::time::sleep(GROUP_CONFIG_HANDOVER).await;
                return Ok(());
            }
            self.pause_or_give_up(started, self.timeout, || {
                format!("group configs {configs:?} to apply")
            })
            .await?;
        }
    }

    /// The values of group-level configs of `group_id`, in the order of `names`; a config never
    /// set reads as the broker's default. Read on the group's coordinator, whose metadata the
    /// group follows: on a cluster another broker may see a change earlier.
    pub async fn group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> TransportResult<Vec<Option<String>>> {
        let coordinator = self.coordinator(Some(group_id)).await?;
        describe_configs(coordinator, RESOURCE_TYPE_GROUP, group_id, names).await
    }

    /// Every group-level config of `group_id` the broker lists (DescribeConfigs of a GROUP
    /// resource, all keys), with its name and where its value comes from.
    pub(super) async fn all_group_configs(
        &mut self,
        group_id: &str,
    ) -> TransportResult<Vec<(String, i8)>> {
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

    /// The values of configs of the coordinator's broker, in the order of `names`. Asked of that
    /// broker: a broker describes only its own configs.
    pub async fn broker_configs(
        &mut self,
        names: &[String],
    ) -> TransportResult<Vec<Option<String>>> {
        let node = self.coordinator_node.to_string();
        let coordinator = self.coordinator(None).await?;
        describe_configs(coordinator, RESOURCE_TYPE_BROKER, &node, names).await
    }
}

/// The values of configs `names` of one resource, in their order, as the broker at `connection`
/// describes them.
async fn describe_configs(
    connection: &mut Connection,
    resource_type: i8,
    resource: &str,
    names: &[String],
) -> TransportResult<Vec<Option<String>>> {
    let describe =
        DescribeConfigsRequest::default().with_resources(vec![DescribeConfigsResource::default()
            .with_resource_type(resource_type)
            .with_resource_name(StrBytes::from_string(resource.to_owned()))
            .with_configuration_keys(Some(
                names
                    .iter()
                    .map(|name| StrBytes::from_string(name.clone()))
                    .collect(),
            ))]);
    let response = connection
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
