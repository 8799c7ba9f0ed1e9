//! What the harness tests: one trait, [`Backend`], for the reference coordinator in process
//! ([`EmbeddedTarget`](crate::embedded::EmbeddedTarget)), a broker over TCP
//! ([`KafkaTarget`](crate::kafka::KafkaTarget)) and any coordinator of your own. Scenarios
//! (`check`, `doctor`) and campaigns (`fuzz`, `replay`) drive the same trait; a [`Connect`] makes
//! a fresh instance for each scenario or run.
//!
//! # The protocol under test is bytes
//!
//! A backend answers StreamsGroupHeartbeat (api key 88) and StreamsGroupDescribe (89) as bytes:
//! [`Backend::call`] takes a request body at a version and gives back the response body. The
//! harness encodes every request, decodes every answer strictly and records the exchange
//! ([`Exchange`]) once, in [`BackendExt`], for every backend alike (the one exception: the
//! reference in process hands a campaign's oracle its describes as messages,
//! [`Backend::describe_for_oracle`]). So a coordinator of your own
//! is graded on what it would put on the wire, an answer that does not decode is a finding
//! ([`BackendError::Malformed`]; the campaign's "answers are well-formed"), and failure reports
//! show the bytes field by field. A coordinator written against typed messages decodes the
//! request and encodes its answer with [`streamspec_protocol::WireMessage`] (see
//! `EmbeddedTarget`'s implementation), three lines.
//!
//! # Everything else is set-up, and optional
//!
//! Topics, configs, ACLs and time are what scenarios and campaigns arrange around the protocol.
//! A backend must create and delete topics and let time pass; every other operation has a
//! default that says [`BackendError::Unsupported`] (or, for reads, that nothing is known), and a
//! scenario that needs it is skipped with that reason, as when a broker lacks a config. So a
//! minimal backend implements [`Backend::call`], [`Backend::create_topics`],
//! [`Backend::delete_topics`], [`Backend::sleep`] and [`Backend::now_ms`].
//!
//! # Every await bounded, a panic of `call` caught
//!
//! The harness drives each backend through [`Guarded`]: a [`Backend::call`] that does not
//! answer within the run's I/O timeout is a [`TransportError::Timeout`], as from a broker that
//! stops answering, and one that panics is [`BackendError::Panicked`]; set-up methods are bounded
//! too. So a coordinator that hangs or panics is graded (a scenario error, a campaign finding)
//! instead of hanging or crashing the run.
//!
//! # Async, not `Send`, not `dyn`
//!
//! The methods are `async fn`: a broker's answers take real time, while an in-process backend's
//! futures are ready at once. The harness is generic over `B: Backend` and runs each scenario
//! and each campaign run on one thread (scenarios on a `LocalSet`, campaign runs on a
//! current-thread runtime per worker), so neither the futures nor the backend need be `Send`.
//! The entry points [`check`](crate::check()) and [`fuzz`](crate::fuzz()) own their runtimes: call
//! them from ordinary (non-async) code, e.g. a `#[test]`.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

pub use streamspec_protocol::access::{Operation, Resource};
use streamspec_protocol::codes::STATUS_MISSING_SOURCE_TOPICS;
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::{DecodeError, WireMessage};

use crate::scenario::Scenario;
use crate::transport::{write_refusal, Exchange, Loss, TransportError};

mod guarded;
pub use guarded::{open_guarded, Guarded};

/// The two RPCs under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamsApi {
    /// StreamsGroupHeartbeat, api key 88.
    Heartbeat,
    /// StreamsGroupDescribe, api key 89.
    Describe,
}

impl StreamsApi {
    pub fn api_key(self) -> i16 {
        match self {
            StreamsApi::Heartbeat => StreamsGroupHeartbeatRequest::API_KEY,
            StreamsApi::Describe => StreamsGroupDescribeRequest::API_KEY,
        }
    }

    /// The request's name, as a broker's reports write it.
    pub fn request_name(self) -> &'static str {
        match self {
            StreamsApi::Heartbeat => StreamsGroupHeartbeatRequest::NAME,
            StreamsApi::Describe => StreamsGroupDescribeRequest::NAME,
        }
    }
}

/// Why a backend could not do what the harness asked, typed by who is at fault.
#[derive(Debug)]
#[non_exhaustive]
pub enum BackendError {
    /// No usable answer: the target stopped answering, the connection was lost, a frame could
    /// not be read ([`TransportError::loss`] says which).
    Transport(TransportError),
    /// An answer to api key 88 or 89 whose bytes do not decode: the coordinator's fault.
    Malformed { what: String, source: DecodeError },
    /// A set-up request was refused with an error code (CreateTopics, IncrementalAlterConfigs,
    /// CreateAcls, ...).
    Refused {
        what: String,
        error_code: i16,
        message: Option<String>,
    },
    /// The coordinator's timer does not advance, so time cannot pass in process.
    TimerStalled(TimerStalled),
    /// The backend cannot do this at all; a scenario that needs it is skipped, saying so.
    Unsupported { operation: String },
    /// [`Backend::call`] panicked: the coordinator's fault, caught by the harness (see
    /// [`Guarded`]). `what` is the request, `message` the panic's.
    Panicked { what: String, message: String },
}

impl BackendError {
    /// A backend's way to say it cannot do `operation` (e.g. "deny ACLs").
    pub fn unsupported(operation: impl Into<String>) -> BackendError {
        BackendError::Unsupported {
            operation: operation.into(),
        }
    }

    /// Whether the target gave no answer the harness can use, and how (for the circuit breaker
    /// of `check`); `None` when it answered, rightly or not.
    pub fn loss(&self) -> Option<Loss> {
        match self {
            BackendError::Transport(error) => error.loss(),
            BackendError::Malformed { .. }
            | BackendError::Refused { .. }
            | BackendError::TimerStalled(_)
            | BackendError::Unsupported { .. }
            | BackendError::Panicked { .. } => None,
        }
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::Transport(error) => error.fmt(f),
            BackendError::Malformed { what, source } => write!(f, "{what}: {source}"),
            BackendError::Refused {
                what,
                error_code,
                message,
            } => write_refusal(f, what, *error_code, message.as_deref()),
            BackendError::TimerStalled(stalled) => stalled.fmt(f),
            BackendError::Unsupported { operation } => {
                write!(f, "the target cannot {operation}")
            }
            BackendError::Panicked { what, message } => {
                write!(f, "the coordinator panicked on {what}: {message}")
            }
        }
    }
}

impl std::error::Error for BackendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BackendError::Transport(error) => Some(error),
            BackendError::Malformed { source, .. } => Some(source),
            BackendError::TimerStalled(stalled) => Some(stalled),
            BackendError::Refused { .. }
            | BackendError::Unsupported { .. }
            | BackendError::Panicked { .. } => None,
        }
    }
}

impl From<TransportError> for BackendError {
    fn from(error: TransportError) -> Self {
        match error {
            TransportError::Broker {
                what,
                error_code,
                message,
            } => BackendError::Refused {
                what,
                error_code,
                message,
            },
            other => BackendError::Transport(other),
        }
    }
}

/// An in-process coordinator whose timer does not advance: a deadline is still due after `handle_timeout`
/// was called at it, so the virtual clock cannot move on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimerStalled {
    pub deadline_ms: u64,
    pub now_ms: u64,
}

impl std::fmt::Display for TimerStalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the coordinator's timer does not advance: after handle_timeout at {} ms its next deadline is still {} ms",
            self.now_ms, self.deadline_ms
        )
    }
}

impl std::error::Error for TimerStalled {}

impl From<TimerStalled> for BackendError {
    fn from(stalled: TimerStalled) -> Self {
        BackendError::TimerStalled(stalled)
    }
}

pub type BackendResult<T> = Result<T, BackendError>;

/// A coordinator under test, as one scenario or one campaign run sees it. See the
/// [module documentation](self) for the design; [`BackendExt`] adds the typed calls.
#[allow(async_fn_in_trait)] // generic use only; see "Async, not `Send`" above
pub trait Backend {
    /// The StreamsGroupHeartbeat version used unless a scenario step names one.
    fn heartbeat_version(&self) -> i16 {
        1
    }

    /// The StreamsGroupDescribe version used unless a scenario step names one.
    fn describe_version(&self) -> i16 {
        1
    }

    /// Answers a request of `api` at `version`: `request` is the body without size prefix or
    /// header, and so is the answer.
    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>>;

    /// Creates `topics` (name, partitions) and returns once the cluster's metadata shows them;
    /// topics that exist already are no error. (The harness then waits until the coordinator
    /// sees them: [`create_topics_and_wait`].)
    async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()>;

    /// Deletes topics and returns once the cluster's metadata no longer shows them; topics that
    /// are gone already are no error.
    async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()>;

    /// Grows `topic` to `partitions` partitions and returns once the metadata shows them. A
    /// campaign without it leaves its topics as they were created.
    async fn create_partitions(&mut self, topic: &str, partitions: i32) -> BackendResult<()> {
        let _ = (topic, partitions);
        Err(BackendError::unsupported("grow topics"))
    }

    /// A group named after `probe_group` whose coordinator is the scenario group's, for the
    /// waits of [`create_topics_and_wait`]: on a cluster, another coordinator may see a topic
    /// before the one under test does. By default `probe_group` itself (one coordinator).
    async fn probe_group_beside(&mut self, probe_group: &str) -> BackendResult<String> {
        Ok(probe_group.to_owned())
    }

    /// True when the coordinator sees a topic change as soon as the call that made it returns,
    /// as the reference in process does (the harness hands it the metadata itself): the waits of
    /// [`create_topics_and_wait`] then send no probe. By default false: a broker's coordinator
    /// may lag the cluster's metadata.
    fn sees_metadata_at_once(&self) -> bool {
        false
    }

    /// True when the backend bounds each of its own waits by the I/O timeout, as a broker's
    /// does per exchange, and so says more precisely than the harness what did not answer (a
    /// lookup of the coordinator, then the request, each within the bound): the harness then
    /// sets no bound of its own on it (see [`Guarded`]). By default false.
    fn bounds_its_own_waits(&self) -> bool {
        false
    }

    /// Lets `duration` pass: real time for a broker, virtual time in process, where a
    /// coordinator whose timer does not advance is [`BackendError::TimerStalled`], not a hang.
    async fn sleep(&mut self, duration: Duration) -> BackendResult<()>;

    /// Milliseconds since the backend was opened, on the clock [`Backend::sleep`] moves.
    fn now_ms(&self) -> u64;

    /// Broker-level configs by Kafka's names (`group.streams.max.size`,
    /// `authorizer.class.name`, ...), in the order of `names`; `None` for what it does not
    /// report. Scenarios that require a config the backend does not report are skipped.
    async fn broker_configs(&mut self, names: &[String]) -> BackendResult<Vec<Option<String>>> {
        Ok(vec![None; names.len()])
    }

    /// The names of the group-level configs the backend knows (`streams.*`).
    async fn group_config_names(&mut self, group_id: &str) -> BackendResult<Vec<String>> {
        let _ = group_id;
        Err(BackendError::unsupported("list group configs"))
    }

    /// The values of group-level configs of `group_id`, in the order of `names`.
    async fn group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<Vec<Option<String>>> {
        let _ = (group_id, names);
        Err(BackendError::unsupported("read group configs"))
    }

    /// Sets group-level configs of `group_id`; a refused value is [`BackendError::Refused`].
    async fn set_group_configs(
        &mut self,
        group_id: &str,
        configs: &[(String, String)],
    ) -> BackendResult<()> {
        let _ = (group_id, configs);
        Err(BackendError::unsupported("set group configs"))
    }

    /// Takes group-level configs back to their defaults. By default nothing: a backend that
    /// goes away after the scenario keeps none.
    async fn delete_group_configs(
        &mut self,
        group_id: &str,
        names: &[String],
    ) -> BackendResult<()> {
        let _ = (group_id, names);
        Ok(())
    }

    /// Makes `group_id` a consumer group, with one consumer subscribed to `topics` (R19).
    async fn create_consumer_group(
        &mut self,
        group_id: &str,
        topics: &[String],
    ) -> BackendResult<()> {
        let _ = (group_id, topics);
        Err(BackendError::unsupported("make consumer groups"))
    }

    /// Denies `operation` on `resource` to every client, allowing everything else on it.
    async fn deny(&mut self, operation: Operation, resource: &Resource) -> BackendResult<()> {
        let _ = (operation, resource);
        Err(BackendError::unsupported("deny ACLs"))
    }

    /// Takes away every ACL on `resource`. By default nothing, as nothing was denied.
    async fn remove_acls(&mut self, resource: &Resource) -> BackendResult<()> {
        let _ = resource;
        Ok(())
    }

    /// The last [`Backend::call`] as it went to the target, where the backend translated it
    /// into another dialect (as [`crate::draft::DraftBackend`] does); the harness keeps it with
    /// the exchange. `None` for a backend that sends what it is given.
    fn take_wire_exchange(&mut self) -> Option<Exchange> {
        None
    }

    /// For a backend that compares every answer with the reference's
    /// ([`crate::differential::DifferentialBackend`]): the difference the last call found, taken
    /// once; the campaign reports it as "answers equal the reference's". `None` otherwise.
    fn take_divergence(&mut self) -> Option<crate::differential::Divergence> {
        None
    }

    /// For a backend that compares every answer with the reference's: what it compared so far.
    fn comparison(&self) -> Option<crate::differential::Comparison> {
        None
    }

    /// The answer to the describe a campaign's oracle makes after every exchange, typed and
    /// written over `into` (the oracle's previous describe; left as it was on an error). By
    /// default a StreamsGroupDescribe as any other ([`BackendExt::describe`]); a backend that
    /// holds the coordinator in process may answer with the coordinator's own message, which
    /// is the message the bytes would decode to (the codec re-encodes canonically), without
    /// encoding and decoding it, and may leave out what the oracle does not read: the topology
    /// and every member field but its id, epoch, process id, assignment and target. Wrappers
    /// keep the default, so that what they do to calls (compare, translate) applies to these
    /// describes too.
    async fn describe_for_oracle(
        &mut self,
        version: i16,
        request: &StreamsGroupDescribeRequest,
        into: &mut StreamsGroupDescribeResponse,
    ) -> BackendResult<()> {
        *into = exchange(self, StreamsApi::Describe, version, request)
            .await?
            .0;
        Ok(())
    }
}

/// Inside an `impl Backend for ..` of a backend that wraps another in its field `$inner` and
/// changes only what goes through [`Backend::call`]: every set-up method, handed to the wrapped
/// backend as it is (`create_topics` to `remove_acls`, with `sleep` and `now_ms`). With
/// `except broker_configs` that one is left to the wrapper, which reports configs of its own.
#[macro_export]
macro_rules! delegate_backend_setup {
    ($inner:ident) => {
        $crate::delegate_backend_setup!($inner, except broker_configs);

        async fn broker_configs(
            &mut self,
            names: &[String],
        ) -> $crate::backend::BackendResult<Vec<Option<String>>> {
            self.$inner.broker_configs(names).await
        }
    };
    ($inner:ident, except broker_configs) => {
        async fn create_topics(
            &mut self,
            topics: &[(String, i32)],
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.create_topics(topics).await
        }

        async fn delete_topics(&mut self, names: &[String]) -> $crate::backend::BackendResult<()> {
            self.$inner.delete_topics(names).await
        }

        async fn create_partitions(
            &mut self,
            topic: &str,
            partitions: i32,
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.create_partitions(topic, partitions).await
        }

        async fn sleep(
            &mut self,
            duration: ::std::time::Duration,
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.sleep(duration).await
        }

        fn now_ms(&self) -> u64 {
            self.$inner.now_ms()
        }

        fn sees_metadata_at_once(&self) -> bool {
            self.$inner.sees_metadata_at_once()
        }

        fn bounds_its_own_waits(&self) -> bool {
            self.$inner.bounds_its_own_waits()
        }

        async fn probe_group_beside(
            &mut self,
            probe_group: &str,
        ) -> $crate::backend::BackendResult<String> {
            self.$inner.probe_group_beside(probe_group).await
        }

        async fn group_config_names(
            &mut self,
            group_id: &str,
        ) -> $crate::backend::BackendResult<Vec<String>> {
            self.$inner.group_config_names(group_id).await
        }

        async fn group_configs(
            &mut self,
            group_id: &str,
            names: &[String],
        ) -> $crate::backend::BackendResult<Vec<Option<String>>> {
            self.$inner.group_configs(group_id, names).await
        }

        async fn set_group_configs(
            &mut self,
            group_id: &str,
            configs: &[(String, String)],
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.set_group_configs(group_id, configs).await
        }

        async fn delete_group_configs(
            &mut self,
            group_id: &str,
            names: &[String],
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.delete_group_configs(group_id, names).await
        }

        async fn create_consumer_group(
            &mut self,
            group_id: &str,
            topics: &[String],
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.create_consumer_group(group_id, topics).await
        }

        async fn deny(
            &mut self,
            operation: $crate::backend::Operation,
            resource: &$crate::backend::Resource,
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.deny(operation, resource).await
        }

        async fn remove_acls(
            &mut self,
            resource: &$crate::backend::Resource,
        ) -> $crate::backend::BackendResult<()> {
            self.$inner.remove_acls(resource).await
        }
    };
}

/// Makes fresh backends: one per scenario of `check`, one per run of `fuzz`. Shared by the
/// scenarios and runs in flight (`Sync` where a campaign runs groups on several threads).
#[allow(async_fn_in_trait)] // generic use only, as for `Backend`
pub trait Connect {
    type Backend: Backend;

    /// A backend for a scenario or run whose group is `group_id`. `broker_configs` are the
    /// broker configs the scenario requires (Kafka's names): an in-process backend can start as
    /// a broker configured so would; one that cannot reports its own in
    /// [`Backend::broker_configs`] and the scenario is skipped.
    async fn open(
        &self,
        group_id: &str,
        broker_configs: &BTreeMap<String, String>,
    ) -> BackendResult<Self::Backend>;

    /// The target's name in reports and divergence files: `embedded`, HOST:PORT, or yours.
    fn name(&self) -> String;

    /// Whether every backend opened is a view of one shared coordinator (a broker), so that
    /// runs need names of their own and may run several at once; `false` when every open gives
    /// a fresh coordinator (in process).
    fn shares_state(&self) -> bool {
        false
    }

    /// Flags besides `--target` that a command reproducing a run needs (e.g. a replication
    /// factor).
    fn flags(&self) -> String {
        String::new()
    }

    /// What a run's report warns of in how this target was set up (e.g. a divergence file of
    /// which nothing applies to it); nothing by default.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Why `scenario` does not apply to this target at all (e.g. a dialect that lacks what it
    /// checks), decided before anything is opened: the scenario is skipped with this reason.
    /// `None`, the default, runs it.
    fn skips(&self, scenario: &Scenario) -> Option<String> {
        let _ = scenario;
        None
    }
}

/// The typed calls every backend gets: encode, [`Backend::call`], decode strictly, and keep the
/// exchange as bytes.
#[allow(async_fn_in_trait)]
pub trait BackendExt: Backend {
    async fn heartbeat(
        &mut self,
        version: i16,
        request: &StreamsGroupHeartbeatRequest,
    ) -> BackendResult<(StreamsGroupHeartbeatResponse, Exchange)> {
        exchange(self, StreamsApi::Heartbeat, version, request).await
    }

    async fn describe(
        &mut self,
        version: i16,
        request: &StreamsGroupDescribeRequest,
    ) -> BackendResult<(StreamsGroupDescribeResponse, Exchange)> {
        exchange(self, StreamsApi::Describe, version, request).await
    }
}

impl<B: Backend + ?Sized> BackendExt for B {}

async fn exchange<B: Backend + ?Sized, Q: WireMessage, P: WireMessage>(
    backend: &mut B,
    api: StreamsApi,
    version: i16,
    request: &Q,
) -> BackendResult<(P, Exchange)> {
    let request_bytes = request
        .encode_to_vec(version)
        .unwrap_or_else(|error| panic!("{} v{version} does not encode: {error}", Q::NAME));
    let response_bytes = backend.call(api, version, &request_bytes).await?;
    let response =
        P::decode_exact(&response_bytes, version).map_err(|source| BackendError::Malformed {
            what: format!("{} v{version}", P::NAME),
            source,
        })?;
    let exchange = Exchange {
        request_kind: Q::KIND,
        response_kind: P::KIND,
        version,
        request: request_bytes,
        response: response_bytes,
        on_the_wire: backend.take_wire_exchange().map(Box::new),
    };
    Ok((response, exchange))
}

thread_local! {
    /// The runtime [`block_on`] drives futures on, one per thread, made at first use.
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
}

/// Runs `future` to its end on this thread's runtime: how the harness's synchronous callers
/// (campaign workers, proptest, fuzz targets) drive a backend. Must not be called from inside an
/// async context.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    RUNTIME.with(|runtime| runtime.block_on(future))
}

/// As [`block_on`], with `spawn_local` available to `future`.
pub fn block_on_local<F: std::future::Future>(future: F) -> F::Output {
    RUNTIME.with(|runtime| tokio::task::LocalSet::new().block_on(runtime, future))
}

/// How often a wait for the coordinator's view looks again.
const PROBE_EVERY: Duration = Duration::from_millis(50);

/// Creates `topics` and waits, within `deadline` of the backend's time, until the coordinator
/// sees them: its view of the cluster may lag the metadata, and a join in that window is told
/// the source topics are missing, which shifts every epoch after it. Probes with a throwaway
/// member of `probe_group` (which must be fresh: a group that knew a topic keeps its view of it).
pub async fn create_topics_and_wait<B: Backend>(
    backend: &mut B,
    topics: &[(String, i32)],
    probe_group: &str,
    deadline: Duration,
) -> BackendResult<()> {
    if topics.is_empty() {
        return Ok(());
    }
    backend.create_topics(topics).await?;
    let names: Vec<String> = topics.iter().map(|(name, _)| name.clone()).collect();
    let view = CoordinatorView::Present;
    await_coordinator_view(backend, probe_group, &names, view, deadline).await
}

/// Deletes `names` and waits, as [`create_topics_and_wait`] does, until the coordinator sees
/// them missing.
pub async fn delete_topics_and_wait<B: Backend>(
    backend: &mut B,
    names: &[String],
    probe_group: &str,
    deadline: Duration,
) -> BackendResult<()> {
    backend.delete_topics(names).await?;
    let view = CoordinatorView::Missing;
    await_coordinator_view(backend, probe_group, names, view, deadline).await
}

/// Grows `topic` to `partitions` partitions and waits, as [`create_topics_and_wait`] does, until
/// the coordinator counts them: the probe member, alone in its group, is then assigned one task
/// per partition.
pub async fn grow_topic_and_wait<B: Backend>(
    backend: &mut B,
    topic: &str,
    partitions: i32,
    probe_group: &str,
    deadline: Duration,
) -> BackendResult<()> {
    backend.create_partitions(topic, partitions).await?;
    let view = CoordinatorView::Partitions(partitions);
    await_coordinator_view(backend, probe_group, &[topic.to_owned()], view, deadline).await
}

/// What a probe's join must be told of its topics.
#[derive(Debug, Clone, Copy)]
enum CoordinatorView {
    Present,
    Missing,
    /// Present, with this many partitions (one task each, all the probe's).
    Partitions(i32),
}

impl CoordinatorView {
    fn seen_in(self, response: &StreamsGroupHeartbeatResponse) -> bool {
        let missing = response
            .status
            .iter()
            .flatten()
            .any(|status| status.status_code == STATUS_MISSING_SOURCE_TOPICS);
        if response.error_code != 0 {
            return false;
        }
        match self {
            CoordinatorView::Present => !missing,
            CoordinatorView::Missing => missing,
            CoordinatorView::Partitions(count) => {
                let tasks: usize = response
                    .active_tasks
                    .iter()
                    .flatten()
                    .map(|tasks| tasks.partitions.len())
                    .sum();
                !missing && tasks == count as usize
            }
        }
    }

    fn described(self) -> String {
        match self {
            CoordinatorView::Present => "created".to_owned(),
            CoordinatorView::Missing => "deleted".to_owned(),
            CoordinatorView::Partitions(count) => format!("with {count} partitions"),
        }
    }
}

/// Waits until a join of `probe_group` that reads `topics` is told of them what `view` says,
/// and has the probe member leave.
async fn await_coordinator_view<B: Backend>(
    backend: &mut B,
    probe_group: &str,
    topics: &[String],
    view: CoordinatorView,
    deadline: Duration,
) -> BackendResult<()> {
    if topics.is_empty() || backend.sees_metadata_at_once() {
        return Ok(());
    }
    let probe_group = &backend.probe_group_beside(probe_group).await?;
    let topology = Topology::default().with_subtopologies(vec![Subtopology::default()
        .with_subtopology_id("0")
        .with_source_topics(topics.to_vec())]);
    let join = StreamsGroupHeartbeatRequest::default()
        .with_group_id(probe_group)
        .with_member_id("streamspec-probe")
        .with_rebalance_timeout_ms(1_000)
        .with_topology(Some(topology))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("streamspec-probe".into()));
    let version = backend.heartbeat_version();
    let started_ms = backend.now_ms();
    loop {
        let (response, _) = backend.heartbeat(version, &join).await?;
        if view.seen_in(&response) {
            let leave = join
                .clone()
                .with_member_epoch(-1)
                .with_topology(None)
                .with_active_tasks(None)
                .with_standby_tasks(None)
                .with_warmup_tasks(None);
            backend.heartbeat(version, &leave).await?;
            return Ok(());
        }
        // The backend's own clock bounds the wait, so that a virtual one cannot spin forever.
        if backend.now_ms().saturating_sub(started_ms) > deadline.as_millis() as u64 {
            return Err(BackendError::Transport(TransportError::Timeout {
                address: "the coordinator".to_owned(),
                // It answered, without the topics: "did not answer ... as one that sees them".
                what: format!(
                    "a join reading the topics {topics:?} as one that sees them {}",
                    view.described()
                ),
                after: deadline,
            }));
        }
        backend.sleep(PROBE_EVERY).await?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedded::EmbeddedTarget;

    /// The reference behind a cluster whose coordinator learns of a grown topic only at the
    /// third heartbeat after the admin call returned, as Kafka's does from its metadata image.
    #[derive(Debug, Default)]
    struct Lagging {
        inner: EmbeddedTarget,
        growth: Option<(String, i32, u32)>,
        heartbeats: u32,
    }

    impl Backend for Lagging {
        async fn call(
            &mut self,
            api: StreamsApi,
            version: i16,
            request: &[u8],
        ) -> BackendResult<Vec<u8>> {
            self.heartbeats += u32::from(api == StreamsApi::Heartbeat);
            if let Some((topic, partitions, _)) = self
                .growth
                .take_if(|(_, _, seen_at)| self.heartbeats >= *seen_at)
            {
                self.inner.create_partitions(&topic, partitions).await?;
            }
            self.inner.call(api, version, request).await
        }

        async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
            self.inner.create_topics(topics).await
        }

        async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
            self.inner.delete_topics(names).await
        }

        async fn create_partitions(&mut self, topic: &str, partitions: i32) -> BackendResult<()> {
            self.growth = Some((topic.to_owned(), partitions, self.heartbeats + 3));
            Ok(())
        }

        async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
            self.inner.sleep(duration).await
        }

        fn now_ms(&self) -> u64 {
            self.inner.now_ms()
        }
    }

    /// The tasks a fresh group's first member reading `topic` is assigned.
    async fn assigned_on_join(backend: &mut Lagging, group: &str, topic: &str) -> Vec<i32> {
        let join = StreamsGroupHeartbeatRequest::default()
            .with_group_id(group)
            .with_member_id("m")
            .with_rebalance_timeout_ms(1_000)
            .with_topology(Some(Topology::default().with_subtopologies(vec![
                Subtopology::default()
                    .with_subtopology_id("0")
                    .with_source_topics(vec![topic.to_owned()]),
            ])))
            .with_active_tasks(Some(vec![]))
            .with_standby_tasks(Some(vec![]))
            .with_warmup_tasks(Some(vec![]))
            .with_process_id(Some("p".into()));
        let (answer, _) = backend.heartbeat(1, &join).await.unwrap();
        answer
            .active_tasks
            .unwrap_or_default()
            .into_iter()
            .flat_map(|tasks| tasks.partitions)
            .collect()
    }

    #[test]
    fn growing_a_topic_waits_until_the_coordinator_assigns_the_new_count() {
        block_on(async {
            let mut backend = Lagging::default();
            backend.create_topics(&[("t".to_owned(), 1)]).await.unwrap();
            // Without the wait, a join right after the admin call gets the old count's task.
            backend.create_partitions("t", 2).await.unwrap();
            assert_eq!(assigned_on_join(&mut backend, "g1", "t").await, [0]);
            let deadline = Duration::from_secs(5);
            grow_topic_and_wait(&mut backend, "t", 3, "probe", deadline)
                .await
                .unwrap();
            // Three probe joins (the third sees 3 partitions) and the probe's leave.
            assert_eq!(backend.heartbeats, 1 + 3 + 1);
            assert_eq!(assigned_on_join(&mut backend, "g2", "t").await, [0, 1, 2]);
        });
    }

    /// The reference in process, counting the calls that reach it; everything else forwarded.
    #[derive(Debug, Default)]
    struct Counted {
        inner: EmbeddedTarget,
        calls: u32,
    }

    impl Backend for Counted {
        async fn call(
            &mut self,
            api: StreamsApi,
            version: i16,
            request: &[u8],
        ) -> BackendResult<Vec<u8>> {
            self.calls += 1;
            self.inner.call(api, version, request).await
        }

        crate::delegate_backend_setup!(inner);
    }

    #[test]
    fn a_coordinator_that_sees_metadata_at_once_is_not_probed() {
        block_on(async {
            let mut backend = Counted::default();
            assert!(backend.sees_metadata_at_once());
            let deadline = Duration::from_secs(5);
            let topics = [("t".to_owned(), 1)];
            create_topics_and_wait(&mut backend, &topics, "probe", deadline)
                .await
                .unwrap();
            grow_topic_and_wait(&mut backend, "t", 3, "probe", deadline)
                .await
                .unwrap();
            delete_topics_and_wait(&mut backend, &["t".to_owned()], "probe", deadline)
                .await
                .unwrap();
            assert_eq!(backend.calls, 0);
            // Behind a wrapper that does not say so, the same wait probes: a join and a leave.
            let mut lagging = Lagging::default();
            assert!(!lagging.sees_metadata_at_once());
            create_topics_and_wait(&mut lagging, &topics, "probe", deadline)
                .await
                .unwrap();
            assert_eq!(lagging.heartbeats, 2);
        });
    }
}
