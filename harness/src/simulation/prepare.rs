//! A run's set-up on a backend and its clean-up: the source topics, seen by the coordinator, and
//! the group configs; afterwards everything the run made taken back.

use std::time::Duration;

use super::setup::{Names, Setup};
use crate::backend::{self, Backend, BackendError, BackendResult};
use crate::runner::with_short_timeout_hint;
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

/// The broker config bounding a group's standby count.
const MAX_STANDBY_REPLICAS: &str = "group.streams.max.standby.replicas";

/// What [`prepare`] set up: the group's timing, and the names of the group configs it set,
/// which [`finish`] takes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    pub timing: Timing,
    pub group_configs: Vec<String>,
}

/// Creates the run's source topics (and waits until the coordinator sees them, with
/// `probe_group`), sets its group configs, and reads the group's timing. A backend that cannot
/// set group configs runs with Kafka's defaults, which `setup` then says; so does a standby count
/// above the broker's bound (`group.streams.max.standby.replicas`), which is lowered to it.
pub async fn prepare<B: Backend>(
    backend: &mut B,
    names: &Names,
    setup: &mut Setup,
    probe_group: &str,
    io_timeout: Duration,
) -> Result<Prepared, String> {
    let mut asked = Vec::new();
    let (error, group_configs) =
        match set_up(backend, names, setup, probe_group, io_timeout, &mut asked).await {
            Ok(group_configs) => match timing(backend, &names.group, io_timeout).await {
                Ok(timing) => {
                    return Ok(Prepared {
                        timing,
                        group_configs,
                    })
                }
                Err(error) => (error, group_configs),
            },
            // A broker may have set the configs after the wait for its answer ran out.
            Err(error) => (with_short_timeout_hint(&error, io_timeout), asked),
        };
    // What the set-up made before it failed (a topic a broker created after the wait for it ran
    // out, among others) is taken back as after a run, or named.
    match finish(backend, names, setup, &group_configs).await {
        Ok(()) => Err(error),
        Err(cleanup) => Err(format!(
            "{error}; clean-up: {cleanup} (what is left starts with {})",
            names.prefix()
        )),
    }
}

/// Sets the run up; the names of the group configs it asked the backend to set go to `asked`
/// first, for a clean-up after an answer that did not come.
async fn set_up<B: Backend>(
    backend: &mut B,
    names: &Names,
    setup: &mut Setup,
    probe_group: &str,
    io_timeout: Duration,
    asked: &mut Vec<String>,
) -> BackendResult<Vec<String>> {
    let topics = setup.source_topics(names);
    backend::create_topics_and_wait(backend, &topics, probe_group, io_timeout).await?;
    // As a scenario's group does, the run's group assigns at once where the backend lets it,
    // whatever its defaults.
    let listed = match backend.group_config_names(&names.group).await {
        Ok(listed) => listed,
        Err(BackendError::Unsupported { .. }) => Vec::new(),
        Err(error) => return Err(error),
    };
    if setup.standby_replicas > 0 {
        let bound = backend
            .broker_configs(&[MAX_STANDBY_REPLICAS.to_owned()])
            .await?;
        if let Some(most) = bound[0].as_deref().and_then(|v| v.parse::<u8>().ok()) {
            setup.standby_replicas = setup.standby_replicas.min(most);
        }
    }
    let mut configs = listed_baseline_group_configs(&listed);
    configs.extend(setup.group_configs());
    asked.extend(configs.iter().map(|(name, _)| name.clone()));
    match backend.set_group_configs(&names.group, &configs).await {
        Err(BackendError::Unsupported { .. }) => {
            // The oracle then expects what such a group has: no standbys, no rack-aware tags.
            setup.standby_replicas = 0;
            setup.rack_aware_tags = false;
            Ok(Vec::new())
        }
        set => set.map(|()| configs.into_iter().map(|(name, _)| name).collect()),
    }
}

/// The group's timing as the backend reports it: its group configs, else its broker configs,
/// else Kafka's defaults.
async fn timing<B: Backend>(
    backend: &mut B,
    group: &str,
    io_timeout: Duration,
) -> Result<Timing, String> {
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
                .map_err(|error| with_short_timeout_hint(&error, io_timeout))?;
            if values.iter().all(Option::is_none) {
                return Ok(KAFKA_DEFAULT_TIMING);
            }
            (
                values,
                "the broker",
                [BROKER_SESSION_TIMEOUT, BROKER_HEARTBEAT_INTERVAL],
            )
        }
        Err(error) => return Err(with_short_timeout_hint(&error, io_timeout)),
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

/// Removes what [`prepare`] and the run created: the group configs it set (`group_configs`,
/// the baseline's among them) and every topic it may have made. Both are tried; either failing
/// leaves something of the run on the target.
pub async fn finish<B: Backend>(
    backend: &mut B,
    names: &Names,
    setup: &Setup,
    group_configs: &[String],
) -> Result<(), String> {
    let configs = match group_configs {
        [] => Ok(()),
        names_set => match backend.delete_group_configs(&names.group, names_set).await {
            // A backend without group configs has none of the run's.
            Err(BackendError::Unsupported { .. }) => Ok(()),
            deleted => deleted,
        },
    };
    let topics = backend.delete_topics(&setup.all_topics(names)).await;
    match (configs, topics) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(error), Ok(())) | (Ok(()), Err(error)) => Err(error.to_string()),
        (Err(configs), Err(topics)) => Err(format!("{configs}; {topics}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::block_on;
    use crate::embedded::EmbeddedTarget;

    /// The reference, recording the group configs it is asked to take back.
    #[derive(Debug, Default)]
    struct Recording {
        inner: EmbeddedTarget,
        deleted: Vec<String>,
    }

    impl Backend for Recording {
        async fn call(
            &mut self,
            api: backend::StreamsApi,
            version: i16,
            request: &[u8],
        ) -> BackendResult<Vec<u8>> {
            self.inner.call(api, version, request).await
        }

        async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
            self.inner.create_topics(topics).await
        }

        async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
            self.inner.delete_topics(names).await
        }

        async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
            self.inner.sleep(duration).await
        }

        fn now_ms(&self) -> u64 {
            self.inner.now_ms()
        }

        fn sees_metadata_at_once(&self) -> bool {
            self.inner.sees_metadata_at_once()
        }

        async fn group_config_names(&mut self, group_id: &str) -> BackendResult<Vec<String>> {
            self.inner.group_config_names(group_id).await
        }

        async fn set_group_configs(
            &mut self,
            group_id: &str,
            configs: &[(String, String)],
        ) -> BackendResult<()> {
            self.inner.set_group_configs(group_id, configs).await
        }

        async fn group_configs(
            &mut self,
            group_id: &str,
            names: &[String],
        ) -> BackendResult<Vec<Option<String>>> {
            self.inner.group_configs(group_id, names).await
        }

        async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
            // A broker that lets a group have one standby at most.
            Ok(names
                .iter()
                .map(|name| (name == MAX_STANDBY_REPLICAS).then(|| "1".to_owned()))
                .collect())
        }

        async fn delete_group_configs(
            &mut self,
            group_id: &str,
            names: &[String],
        ) -> BackendResult<()> {
            self.deleted.extend(names.iter().cloned());
            self.inner.delete_group_configs(group_id, names).await
        }
    }

    #[test]
    fn a_run_takes_back_every_group_config_it_set_and_keeps_standbys_within_the_brokers_bound() {
        let mut backend = Recording::default();
        let names = Names::new("t-");
        let mut setup = Setup {
            standby_replicas: 2,
            rack_aware_tags: true,
            ..Setup::default()
        };
        let prepared = block_on(prepare(
            &mut backend,
            &names,
            &mut setup,
            "t-probe",
            Duration::from_secs(1),
        ))
        .unwrap();
        assert_eq!(setup.standby_replicas, 1);
        let set = [
            "streams.initial.rebalance.delay.ms",
            "streams.assignment.interval.ms",
            "streams.num.standby.replicas",
            "streams.rack.aware.assignment.tags",
        ];
        assert_eq!(prepared.group_configs, set);
        block_on(finish(
            &mut backend,
            &names,
            &setup,
            &prepared.group_configs,
        ))
        .unwrap();
        assert_eq!(backend.deleted, set);
    }
}
