//! Every backend as the harness drives it: each await on it bounded by the run's I/O timeout,
//! and a panic of [`Backend::call`] a finding about the coordinator, not a crash of the run.

use std::any::Any;
use std::collections::BTreeMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::task::Poll;
use std::time::Duration;

use streamspec_protocol::kafka::{StreamsGroupDescribeRequest, StreamsGroupDescribeResponse};

use super::{Backend, BackendError, BackendResult, Connect, Operation, Resource, StreamsApi};
use crate::transport::{Exchange, TransportError};

/// A set-up method of the backend (topics, configs, ACLs) may be a request and a wait for its
/// effect to show, each within the I/O timeout: the bound on the whole leaves room for both.
const SET_UP_TIMEOUTS: u32 = 3;

/// `inner`, with every await on it bounded by `io_timeout` (unless it bounds its own waits,
/// [`Backend::bounds_its_own_waits`]) and a panic of its [`Backend::call`] (and of the describe
/// the oracle makes through it) turned into [`BackendError::Panicked`]. A call that does not
/// answer in time is [`TransportError::Timeout`], as from a broker that stops answering. Only
/// the backend's own futures are caught: a panic in the harness around them is still a crash.
#[derive(Debug)]
pub struct Guarded<B> {
    inner: B,
    io_timeout: Duration,
}

impl<B: Backend> Guarded<B> {
    pub fn new(inner: B, io_timeout: Duration) -> Self {
        Guarded { inner, io_timeout }
    }

    /// `bound`, unless the backend sets its own.
    fn bound(&self, bound: Duration) -> Option<Duration> {
        (!self.inner.bounds_its_own_waits()).then_some(bound)
    }

    /// The bound on a call.
    fn call_bound(&self) -> Option<Duration> {
        self.bound(self.io_timeout)
    }

    /// The bound on a set-up method.
    fn set_up_bound(&self) -> Option<Duration> {
        self.bound(self.io_timeout * SET_UP_TIMEOUTS)
    }
}

/// Opens a backend of `connector` for the group `group_id` (bounded as set-up is) and guards it.
pub async fn open_guarded<C: Connect>(
    connector: &C,
    group_id: &str,
    broker_configs: &BTreeMap<String, String>,
    io_timeout: Duration,
) -> BackendResult<Guarded<C::Backend>> {
    let opened = finished(
        Some(io_timeout * SET_UP_TIMEOUTS),
        || format!("a request to open a backend for group {group_id}"),
        connector.open(group_id, broker_configs),
    )
    .await?;
    Ok(Guarded::new(opened, io_timeout))
}

/// `future`, a request to the coordinator, answered within `bound`, its panic caught.
async fn answered<T>(
    bound: Option<Duration>,
    what: impl FnOnce() -> String,
    future: impl Future<Output = BackendResult<T>>,
) -> BackendResult<T> {
    let answer = panic_caught(future);
    let answer = match bound {
        Some(bound) => match tokio::time::timeout(bound, answer).await {
            Ok(answer) => answer,
            Err(_) => return Err(timed_out("the coordinator", what(), bound)),
        },
        None => answer.await,
    };
    answer.unwrap_or_else(|panic| {
        Err(BackendError::Panicked {
            what: what(),
            message: panic_message(&*panic),
        })
    })
}

/// `future`, a set-up request, finished within `bound`.
async fn finished<T>(
    bound: Option<Duration>,
    what: impl FnOnce() -> String,
    future: impl Future<Output = BackendResult<T>>,
) -> BackendResult<T> {
    match bound {
        Some(bound) => tokio::time::timeout(bound, future)
            .await
            .unwrap_or_else(|_| Err(timed_out("the target", what(), bound))),
        None => future.await,
    }
}

fn timed_out(address: &str, what: String, after: Duration) -> BackendError {
    BackendError::Transport(TransportError::Timeout {
        address: address.to_owned(),
        what,
        after,
    })
}

/// Polls `future`, catching a panic of any poll.
async fn panic_caught<F: Future>(future: F) -> Result<F::Output, Box<dyn Any + Send>> {
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(|cx| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Err(panic)),
        }
    })
    .await
}

/// The text a panic was raised with (`panic!` gives a `&str` or a `String`).
fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic whose payload is not text".to_owned()
    }
}

fn topic_names(topics: &[(String, i32)]) -> Vec<&str> {
    topics.iter().map(|(name, _)| name.as_str()).collect()
}

impl<B: Backend> Backend for Guarded<B> {
    fn heartbeat_version(&self) -> i16 {
        self.inner.heartbeat_version()
    }

    fn describe_version(&self) -> i16 {
        self.inner.describe_version()
    }

    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        let what = || format!("{} v{version}", api.request_name());
        let bound = self.call_bound();
        answered(bound, what, self.inner.call(api, version, request)).await
    }

    async fn describe_for_oracle(
        &mut self,
        version: i16,
        request: &StreamsGroupDescribeRequest,
        into: &mut StreamsGroupDescribeResponse,
    ) -> BackendResult<()> {
        let what = || format!("{} v{version}", StreamsApi::Describe.request_name());
        let bound = self.call_bound();
        let described = self.inner.describe_for_oracle(version, request, into);
        answered(bound, what, described).await
    }

    async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
        let what = || format!("a request to create topics {:?}", topic_names(topics));
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.create_topics(topics)).await
    }

    async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
        let what = || format!("a request to delete topics {names:?}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.delete_topics(names)).await
    }

    async fn create_partitions(&mut self, topic: &str, partitions: i32) -> BackendResult<()> {
        let what = || format!("a request to grow topic {topic:?} to {partitions} partitions");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.create_partitions(topic, partitions)).await
    }

    async fn probe_group_beside(&mut self, probe_group: &str) -> BackendResult<String> {
        let what = || format!("a request for a group beside {probe_group:?}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.probe_group_beside(probe_group)).await
    }

    fn sees_metadata_at_once(&self) -> bool {
        self.inner.sees_metadata_at_once()
    }

    fn bounds_its_own_waits(&self) -> bool {
        true
    }

    async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
        // Time may be real: the wait itself is part of the bound.
        let what = || format!("a request to let {} ms pass", duration.as_millis());
        let bound = self.bound(duration + self.io_timeout);
        finished(bound, what, self.inner.sleep(duration)).await
    }

    fn now_ms(&self) -> u64 {
        self.inner.now_ms()
    }

    async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
        let what = || format!("a request for the broker configs {names:?}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.broker_configs(names)).await
    }

    async fn group_config_names(&mut self, group_id: &str) -> BackendResult<Vec<String>> {
        let what = || format!("a request for the config names of group {group_id}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.group_config_names(group_id)).await
    }

    async fn group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<Vec<Option<String>>> {
        let what = || format!("a request for the configs {names:?} of group {group_id}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.group_configs(group_id, names)).await
    }

    async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> BackendResult<()> {
        let what = || format!("a request to set configs of group {group_id}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.set_group_configs(group_id, configs)).await
    }

    async fn delete_group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<()> {
        let what = || format!("a request to delete the configs {names:?} of group {group_id}");
        let bound = self.set_up_bound();
        finished(
            bound,
            what,
            self.inner.delete_group_configs(group_id, names),
        )
        .await
    }

    async fn create_consumer_group(
        &mut self,
        group_id: &str,
        topics: &[String],
    ) -> BackendResult<()> {
        let what = || format!("a request to make {group_id} a consumer group");
        let bound = self.set_up_bound();
        finished(
            bound,
            what,
            self.inner.create_consumer_group(group_id, topics),
        )
        .await
    }

    async fn deny(&mut self, operation: Operation, resource: &Resource) -> BackendResult<()> {
        let what = || format!("a request to deny {operation:?} on {resource:?}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.deny(operation, resource)).await
    }

    async fn remove_acls(&mut self, resource: &Resource) -> BackendResult<()> {
        let what = || format!("a request to remove the ACLs on {resource:?}");
        let bound = self.set_up_bound();
        finished(bound, what, self.inner.remove_acls(resource)).await
    }

    fn take_wire_exchange(&mut self) -> Option<Exchange> {
        self.inner.take_wire_exchange()
    }

    fn take_divergence(&mut self) -> Option<crate::differential::Divergence> {
        self.inner.take_divergence()
    }

    fn comparison(&self) -> Option<crate::differential::Comparison> {
        self.inner.comparison()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::block_on;
    use crate::embedded::EmbeddedTarget;

    /// The reference, but its topics are never created and a describe panics.
    #[derive(Debug, Default)]
    struct Broken {
        inner: EmbeddedTarget,
        bounds_its_own_waits: bool,
    }

    impl Backend for Broken {
        async fn call(
            &mut self,
            api: StreamsApi,
            version: i16,
            request: &[u8],
        ) -> BackendResult<Vec<u8>> {
            if api == StreamsApi::Describe {
                panic!("describe is not implemented");
            }
            self.inner.call(api, version, request).await
        }

        async fn create_topics(&mut self, _: &[(String, i32)]) -> BackendResult<()> {
            std::future::pending().await
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

        fn bounds_its_own_waits(&self) -> bool {
            self.bounds_its_own_waits
        }
    }

    const IO_TIMEOUT: Duration = Duration::from_millis(50);

    #[test]
    fn a_set_up_request_that_never_completes_ends_after_three_io_timeouts() {
        let mut guarded = Guarded::new(Broken::default(), IO_TIMEOUT);
        let error = block_on(guarded.create_topics(&[("in".to_owned(), 1)])).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"the target did not answer a request to create topics ["in"] within 150 ms"#
        );
        assert_eq!(error.loss(), Some(crate::transport::Loss::Timeout));
    }

    #[test]
    fn a_backend_that_bounds_its_own_waits_gets_no_bound_of_the_harness() {
        let broken = Broken {
            bounds_its_own_waits: true,
            ..Broken::default()
        };
        let mut guarded = Guarded::new(broken, IO_TIMEOUT);
        // Well past the harness's bound of 150 ms, the request is still waited for.
        let waited = block_on(async {
            let topics = [("in".to_owned(), 1)];
            tokio::time::timeout(IO_TIMEOUT * 6, guarded.create_topics(&topics)).await
        });
        assert!(waited.is_err());
    }

    #[test]
    fn a_panic_of_a_call_is_an_error_naming_the_request() {
        let mut guarded = Guarded::new(Broken::default(), IO_TIMEOUT);
        let error = block_on(guarded.call(StreamsApi::Describe, 1, &[])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the coordinator panicked on StreamsGroupDescribeRequest v1: describe is not implemented"
        );
        assert_eq!(error.loss(), None);
    }

    #[test]
    #[should_panic(expected = "the harness's own bug")]
    fn a_panic_outside_the_backend_is_not_caught() {
        let mut guarded = Guarded::new(Broken::default(), IO_TIMEOUT);
        block_on(async {
            let _ = guarded.call(StreamsApi::Heartbeat, 1, &[]).await;
            panic!("the harness's own bug");
        });
    }
}
