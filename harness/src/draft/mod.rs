//! The KIP draft dialect, graded by the same catalogue and campaigns as Kafka's: scenarios and
//! simulated members speak Kafka's dialect, and [`DraftBackend`] translates each heartbeat into
//! the draft's StreamsGroupHeartbeat (api key 88, v0), sends those bytes to the target, and
//! translates the answer back. The draft bytes are kept with every exchange
//! ([`Exchange::on_the_wire`]), so reports show what the target saw.
//!
//! | Kafka's dialect | the KIP draft's |
//! | --- | --- |
//! | MemberId chosen by the client, echoed | assigned by the coordinator: a join whose member the draft has not named yet sends an empty MemberId; the id answered is used from then on, and the answer echoes the client's id |
//! | MemberId on every answer | only on a join's answer (null otherwise); a join answered without one reads as an empty id, another id on a heartbeat as that id |
//! | Topology.Epoch | Topology.TopologyId, the epoch in decimal |
//! | (none) | GroupTopologyId: on the wire only |
//! | status 0 STALE_TOPOLOGY | 0 INCONSISTENT_TOPOLOGY |
//! | status 1 to 4 | 1 to 4, the same meaning (2 is INCONSISTENT_SOURCE_TOPICS) |
//! | status 5 ASSIGNMENT_DELAYED, 6 MISSING_CLIENT_TAGS | none |
//! | EndpointInformationEpoch | none: the translation raises its own whenever the endpoint partitions answered change |
//! | PartitionsByUserEndpoint: active and standby lists | one list per endpoint, read as the active one |
//! | Endpoint.Port uint16 | int32 |
//! | TopicInfo.ReplicationFactor | none |
//! | AcceptableRecoveryLag int64 (v1), int32 (v0) | int32 |
//! | StreamsGroupDescribe (89) | none: forwarded in Kafka's dialect, with member ids put back, for the campaign's oracle; scenarios about it do not apply |
//!
//! Which catalogue scenarios apply to the draft, and why the others do not, is
//! `harness/dialects/kip-draft.json` ([`applicability`]); under `--dialect kip-draft` the others
//! are skipped with their reason.

use std::collections::BTreeMap;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::kip_draft::StreamsGroupHeartbeatResponse as DraftResponse;
use streamspec_protocol::{MessageKind, WireMessage};

use crate::backend::{Backend, BackendError, BackendResult, Connect, StreamsApi};
use crate::embedded::{decode_request, encode_answer, EmbeddedConnector, EmbeddedTarget};
use crate::scenario::Scenario;
use crate::transport::Exchange;

mod applicability;
pub mod translate;

pub use applicability::{applicability, Applicability};
pub use translate::Translator;

/// The draft's StreamsGroupHeartbeat version, its only one.
pub const DRAFT_VERSION: i16 = 0;

/// Which dialect of StreamsGroupHeartbeat the target speaks (`--dialect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Dialect {
    /// Apache Kafka's, 4.1 and later.
    #[default]
    #[value(name = "kafka")]
    Kafka,
    /// The early KIP-1071 draft (`protocol/schemas/kip-draft/`).
    #[value(name = "kip-draft")]
    KipDraft,
}

/// A target that speaks the KIP draft on api key 88, seen by the harness in Kafka's dialect.
#[derive(Debug)]
pub struct DraftBackend<B> {
    inner: B,
    translator: Translator,
    /// The last heartbeat as it went to the target, for [`Backend::take_wire_exchange`].
    wire: Option<Exchange>,
}

impl<B> DraftBackend<B> {
    pub fn new(inner: B) -> Self {
        DraftBackend {
            inner,
            translator: Translator::default(),
            wire: None,
        }
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }
}

/// An answer of the target's that must decode as `M`; one that does not is its fault.
fn decode_answer<M: WireMessage>(bytes: &[u8], version: i16) -> BackendResult<M> {
    M::decode_exact(bytes, version).map_err(|source| BackendError::Malformed {
        what: format!("{} v{version}", M::NAME),
        source,
    })
}

impl<B: Backend> DraftBackend<B> {
    async fn heartbeat(&mut self, version: i16, request: &[u8]) -> BackendResult<Vec<u8>> {
        let request: StreamsGroupHeartbeatRequest = decode_request(request, version)?;
        let draft = self.translator.request(&request);
        let draft_bytes = encode_answer(&draft, DRAFT_VERSION);
        let answer_bytes = self
            .inner
            .call(StreamsApi::Heartbeat, DRAFT_VERSION, &draft_bytes)
            .await?;
        let answer: DraftResponse = decode_answer(&answer_bytes, DRAFT_VERSION)?;
        self.wire = Some(Exchange {
            request_kind: MessageKind::KipDraftStreamsGroupHeartbeatRequest,
            response_kind: MessageKind::KipDraftStreamsGroupHeartbeatResponse,
            version: DRAFT_VERSION,
            request: draft_bytes,
            response: answer_bytes,
            on_the_wire: None,
        });
        let response: StreamsGroupHeartbeatResponse =
            self.translator.response(&request, version, answer);
        Ok(encode_answer(&response, version))
    }

    async fn describe(&mut self, version: i16, request: &[u8]) -> BackendResult<Vec<u8>> {
        let answer = self
            .inner
            .call(StreamsApi::Describe, version, request)
            .await?;
        let response: StreamsGroupDescribeResponse = decode_answer(&answer, version)?;
        Ok(encode_answer(
            &self.translator.describe_response(response),
            version,
        ))
    }
}

impl<B: Backend> Backend for DraftBackend<B> {
    /// Kafka's v1, which carries every field the draft has.
    fn heartbeat_version(&self) -> i16 {
        1
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
        self.wire = None;
        match api {
            StreamsApi::Heartbeat => self.heartbeat(version, request).await,
            StreamsApi::Describe => self.describe(version, request).await,
        }
    }

    fn take_wire_exchange(&mut self) -> Option<Exchange> {
        self.wire.take()
    }

    crate::delegate_backend_setup!(inner);
}

/// Opens [`DraftBackend`]s over the backends of `C`, which speak the draft on api key 88: the
/// reference's draft adapter in process ([`EmbeddedDraftConnector`]) or a broker over TCP
/// ([`crate::kafka::KafkaConnector`], which sends the draft's bytes at v0 as they are).
#[derive(Debug, Clone)]
pub struct DraftConnector<C>(pub C);

impl<C: Connect> Connect for DraftConnector<C> {
    type Backend = DraftBackend<C::Backend>;

    async fn open(
        &self,
        group_id: &str,
        broker_configs: &BTreeMap<String, String>,
    ) -> BackendResult<Self::Backend> {
        Ok(DraftBackend::new(
            self.0.open(group_id, broker_configs).await?,
        ))
    }

    fn name(&self) -> String {
        self.0.name()
    }

    fn shares_state(&self) -> bool {
        self.0.shares_state()
    }

    fn flags(&self) -> String {
        format!("{} --dialect kip-draft", self.0.flags())
    }

    fn warnings(&self) -> Vec<String> {
        self.0.warnings()
    }

    /// The scenarios `harness/dialects/kip-draft.json` says do not apply, with their reason.
    fn skips(&self, scenario: &Scenario) -> Option<String> {
        self.0
            .skips(scenario)
            .or_else(|| applicability().reason(&scenario.name))
    }
}

/// The reference coordinator's KIP draft adapter in process, on a virtual clock: a fresh one
/// for every scenario and run, as [`crate::embedded::EmbeddedConnector`] opens the reference.
#[derive(Debug, Clone, Copy, Default)]
pub struct EmbeddedDraftConnector;

impl Connect for EmbeddedDraftConnector {
    type Backend = EmbeddedTarget;

    /// [`EmbeddedConnector`]'s target, speaking the draft.
    async fn open(
        &self,
        group_id: &str,
        configs: &BTreeMap<String, String>,
    ) -> BackendResult<EmbeddedTarget> {
        let target = EmbeddedConnector.open(group_id, configs).await?;
        Ok(target.speaking_kip_draft())
    }

    fn name(&self) -> String {
        EmbeddedConnector.name()
    }
}

/// The draft adapter in process, seen in Kafka's dialect: what `--dialect kip-draft` runs
/// without `--target`.
pub fn embedded() -> DraftConnector<EmbeddedDraftConnector> {
    DraftConnector(EmbeddedDraftConnector)
}
