//! `proxy --dialect kip-draft`: clients speak the KIP draft on api key 88, the broker behind
//! speaks Kafka's dialect. Each draft heartbeat is carried to the broker as Kafka's v1 and its
//! answer brought back in the draft's form by the reference's draft adapter
//! ([`KipDraft`]), which keeps what the draft has beyond Kafka (generated member ids, topology
//! ids, endpoint epochs) for every connection at once. This makes a real broker a target that
//! speaks the draft over TCP.

use std::sync::Mutex;

use streamspec_coordinator::kip_draft::{InFlight, KipDraft, KAFKA_VERSION};
use streamspec_protocol::frame;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use streamspec_protocol::kip_draft::StreamsGroupHeartbeatRequest as DraftRequest;
use streamspec_protocol::WireMessage;

use super::{Answer, RelayError};

/// The draft's only version of StreamsGroupHeartbeat, the most the proxy advertises for 88.
pub const DRAFT_VERSION: i16 = 0;

/// For a draft heartbeat frame (without its size prefix): what the client awaits, and the Kafka
/// frame to send the broker (none when the draft adapter refuses it itself).
pub(super) fn carry_request(
    request: &[u8],
    draft: &Mutex<KipDraft>,
) -> Result<(Answer, Option<Vec<u8>>), RelayError> {
    let (header, body) = frame::decode_request_header(request)
        .map_err(|error| RelayError::Frame(format!("a draft heartbeat's header: {error}")))?;
    let correlation_id = header.correlation_id;
    // An undecodable request closes the connection, as Kafka does.
    let draft_request =
        DraftRequest::decode_exact(body, header.request_api_version).map_err(|error| {
            RelayError::Frame(format!("a draft heartbeat does not decode: {error}"))
        })?;
    let translated = lock(draft).translate_request(&draft_request);
    match translated {
        Err(refusal) => {
            let frame = frame::encode_response(correlation_id, DRAFT_VERSION, &*refusal)
                .map_err(|error| RelayError::Frame(format!("a draft refusal: {error}")))?;
            Ok((Answer::Local(frame), None))
        }
        Ok((kafka_request, in_flight)) => {
            let client_id = header.client_id.as_deref();
            let forward =
                frame::encode_request(correlation_id, client_id, KAFKA_VERSION, &kafka_request)
                    .map_err(|error| {
                        RelayError::Frame(format!("a draft heartbeat in Kafka's dialect: {error}"))
                    })?;
            Ok((Answer::Draft(in_flight), Some(forward)))
        }
    }
}

/// The draft's answer frame (with its size prefix) to the broker's Kafka `response` frame
/// (without it).
pub(super) fn carry_answer(
    response: &[u8],
    in_flight: InFlight,
    draft: &Mutex<KipDraft>,
) -> Result<Vec<u8>, RelayError> {
    let (correlation_id, body) = frame::decode_response_header(response)
        .map_err(|error| RelayError::Upstream(format!("a heartbeat answer's header: {error}")))?;
    let answer =
        StreamsGroupHeartbeatResponse::decode_exact(body, KAFKA_VERSION).map_err(|error| {
            RelayError::Upstream(format!("a heartbeat answer does not decode: {error}"))
        })?;
    let draft_answer = lock(draft).answer(in_flight, answer);
    frame::encode_response(correlation_id, DRAFT_VERSION, &draft_answer).map_err(|error| {
        RelayError::Upstream(format!("a heartbeat answer as the draft's: {error}"))
    })
}

fn lock(draft: &Mutex<KipDraft>) -> std::sync::MutexGuard<'_, KipDraft> {
    // A panic on another connection's task must not stop every draft heartbeat after it.
    draft
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The api key whose dialect the proxy translates.
pub(super) const HEARTBEAT_KEY: i16 = StreamsGroupHeartbeatRequest::API_KEY;
