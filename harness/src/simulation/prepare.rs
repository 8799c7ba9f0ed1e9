//! A run's set-up on a backend and its clean-up: the source topics, seen by the coordinator, and
//! the group configs; afterwards everything the run made taken back.

use std::time::Duration;

use super::setup::{Names, Setup};
use crate::backend::{self, Backend, BackendError, BackendResult};
use crate::scenario::listed_baseline_group_configs;

/// The group configs of the run's timing.
const SESSION_TIMEOUT: &str = "streams.session.timeout.ms";
const HEARTBEAT_INTERVAL: &str = "streams.heartbeat.interval.ms";
/// The broker-level defaults of the same, for a backend that reports no group configs.
const BROKER_SESSION_TIMEOUT: &str = "group.streams.session.timeout.ms";
const BROKER_HEARTBEAT_INTERVAL: &str = "group.streams.heartbeat.interval.ms";
/// Kafka's defaults of both, for a backend that reports neither.
const KAFKA_DEFAULT_TIMING: Timing = Timing {
    session_timeout_ms: 45_000,
    heartbeat_interval_ms: 5_000,
};

/// The group's session timeout and heartbeat interval, which the run must know to let sessions
/// expire and to bound how long settling may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
}

/// Creates the run's source topics (and waits until the coordinator sees them, with
/// `probe_group`), sets its group configs, and reads the group's timing. A backend that cannot
/// set group configs runs with Kafka's defaults, which `setup` then says.
pub async fn prepare<B: Backend>(
    backend: &mut B,
    names: &Names,
    setup: &mut Setup,
    probe_group: &str,
    io_timeout: Duration,
) -> Result<Timing, String> {
    set_up(backend, names, setup, probe_group, io_timeout)
        .await
        .map_err(|error| error.to_string())?;
    timing(backend, &names.group).await
}

async fn set_up<B: Backend>(
    backend: &mut B,
    names: &Names,
    setup: &mut Setup,
    probe_group: &str,
    io_timeout: Duration,
) -> BackendResult<()> {
    let topics = setup.source_topics(names);
    backend::create_topics_and_wait(backend, &topics, probe_group, io_timeout).await?;
    // As a scenario's group does, the run's group assigns at once where the backend lets it,
    // whatever its defaults.
    let listed = match backend.group_config_names(&names.group).await {
        Ok(listed) => listed,
        Err(BackendError::Unsupported { .. }) => Vec::new(),
        Err(error) => return Err(error),
    };
    let mut configs = listed_baseline_group_configs(&listed);
    configs.extend(setup.group_configs());
    match backend.set_group_configs(&names.group, &configs).await {
        Err(BackendError::Unsupported { .. }) => {
            // The oracle then expects what such a group has: no standbys, no rack-aware tags.
            setup.standby_replicas = 0;
            setup.rack_aware_tags = false;
            Ok(())
        }
        set => set,
    }
}

/// The group's timing as the backend reports it: its group configs, else its broker configs,
/// else Kafka's defaults.
async fn timing<B: Backend>(backend: &mut B, group: &str) -> Result<Timing, String> {
    let names = [SESSION_TIMEOUT.to_owned(), HEARTBEAT_INTERVAL.to_owned()];
    let (values, source, names) = match backend.group_configs(group, &names).await {
        Ok(values) => (values, "the group", [SESSION_TIMEOUT, HEARTBEAT_INTERVAL]),
        Err(BackendError::Unsupported { .. }) => {
            let names = [
                BROKER_SESSION_TIMEOUT.to_owned(),
                BROKER_HEARTBEAT_INTERVAL.to_owned(),
            ];
            let values = backend
                .broker_configs(&names)
                .await
                .map_err(|error| error.to_string())?;
            if values.iter().all(Option::is_none) {
                return Ok(KAFKA_DEFAULT_TIMING);
            }
            (
                values,
                "the broker",
                [BROKER_SESSION_TIMEOUT, BROKER_HEARTBEAT_INTERVAL],
            )
        }
        Err(error) => return Err(error.to_string()),
    };
    let millis = |index: usize| -> Result<u64, String> {
        values[index]
            .as_deref()
            .and_then(|value| value.parse().ok())
            .ok_or_else(|| {
                format!(
                    "the target reports no numeric {} for {source}",
                    names[index]
                )
            })
    };
    Ok(Timing {
        session_timeout_ms: millis(0)?,
        heartbeat_interval_ms: millis(1)?,
    })
}

/// Removes what [`prepare`] and the run created: its group configs and every topic it may have
/// made. Both are tried; either failing leaves something of the run on the target.
pub async fn finish<B: Backend>(
    backend: &mut B,
    names: &Names,
    setup: &Setup,
) -> Result<(), String> {
    let configs: Vec<String> = setup
        .group_configs()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let configs = backend.delete_group_configs(&names.group, &configs).await;
    let topics = backend.delete_topics(&setup.all_topics(names)).await;
    match (configs, topics) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(error), Ok(())) | (Ok(()), Err(error)) => Err(error.to_string()),
        (Err(configs), Err(topics)) => Err(format!("{configs}; {topics}")),
    }
}
