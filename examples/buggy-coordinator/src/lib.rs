//! How a Rust coordinator is graded in its own `cargo test`: [`Buggy`] stands for "your
//! coordinator". It is the reference coordinator with one planted bug, chosen by [`Bug`], so its
//! tests can show the catalogue and the campaign catching each bug by name. A real adopter
//! implements [`Backend`] over their own coordinator in the same way: answer api keys 88 and 89
//! as bytes, create and delete topics, let time pass, and (optionally) set configs and ACLs.

use std::collections::BTreeMap;

use streamspec::backend::{BackendResult, Connect};
use streamspec::embedded::{EmbeddedConnector, EmbeddedTarget};
use streamspec::{Backend, StreamsApi};
use streamspec_protocol::codes::{ERROR_FENCED_MEMBER_EPOCH, ERROR_NONE};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use streamspec_protocol::WireMessage;

/// The defect planted in the coordinator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bug {
    /// None: the reference as it is.
    None,
    /// A heartbeat at an epoch the group has moved past is accepted at that epoch instead of
    /// being fenced (R24 asks for FENCED_MEMBER_EPOCH).
    AcceptsStaleEpochs,
    /// Every member given active tasks is also given partition 0 of its first subtopology, so
    /// two members can own one task (the campaign's "at most one member owns an active task").
    SharesTaskZero,
}

/// The coordinator under test: the reference behind a planted [`Bug`].
#[derive(Debug)]
pub struct Buggy {
    inner: EmbeddedTarget,
    bug: Bug,
}

impl Buggy {
    /// Rewrites the reference's answer to `request` as the bug would have it.
    fn plant(
        &self,
        request: &StreamsGroupHeartbeatRequest,
        mut response: StreamsGroupHeartbeatResponse,
    ) -> StreamsGroupHeartbeatResponse {
        match self.bug {
            Bug::None => {}
            Bug::AcceptsStaleEpochs => {
                if response.error_code == ERROR_FENCED_MEMBER_EPOCH && request.member_epoch > 0 {
                    response = StreamsGroupHeartbeatResponse::default()
                        .with_error_code(ERROR_NONE)
                        .with_member_id(request.member_id.clone())
                        .with_member_epoch(request.member_epoch)
                        .with_heartbeat_interval_ms(5_000);
                }
            }
            Bug::SharesTaskZero => {
                if let Some(first) = response
                    .active_tasks
                    .as_mut()
                    .and_then(|tasks| tasks.first_mut())
                {
                    if !first.partitions.contains(&0) {
                        first.partitions.insert(0, 0);
                    }
                }
            }
        }
        response
    }
}

impl Backend for Buggy {
    async fn call(
        &mut self,
        api: StreamsApi,
        version: i16,
        request: &[u8],
    ) -> BackendResult<Vec<u8>> {
        let answer = self.inner.call(api, version, request).await?;
        if api != StreamsApi::Heartbeat || self.bug == Bug::None {
            return Ok(answer);
        }
        // The harness sent the request and the reference answered it: both decode.
        let request = StreamsGroupHeartbeatRequest::decode_exact(request, version)
            .expect("the harness sends well-formed requests");
        let response = StreamsGroupHeartbeatResponse::decode_exact(&answer, version)
            .expect("the reference answers well-formed responses");
        Ok(self
            .plant(&request, response)
            .encode_to_vec(version)
            .expect("a decoded response encodes again"))
    }

    streamspec::delegate_backend_setup!(inner);
}

/// Makes a fresh [`Buggy`] coordinator with `0`'s bug for every scenario and every run.
#[derive(Debug, Clone, Copy)]
pub struct WithBug(pub Bug);

impl Connect for WithBug {
    type Backend = Buggy;

    async fn open(
        &self,
        group_id: &str,
        broker_configs: &BTreeMap<String, String>,
    ) -> BackendResult<Buggy> {
        Ok(Buggy {
            inner: EmbeddedConnector.open(group_id, broker_configs).await?,
            bug: self.0,
        })
    }

    fn name(&self) -> String {
        format!("buggy-{:?}", self.0)
    }
}
