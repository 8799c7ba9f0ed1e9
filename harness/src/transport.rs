//! A Kafka client connection for the harness: size-prefixed frames over TCP, correlation ids
//! checked, every wait bounded. Standard Kafka messages (ApiVersions, FindCoordinator, Metadata,
//! CreateTopics, DeleteTopics) go through `kafka-protocol`; api keys 88 and 89 through our own
//! protocol crate, and each of those exchanges is kept as bytes for the failure report.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use bytes::BytesMut;
use kafka_protocol::messages::{ApiVersionsRequest, RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};
use streamspec_protocol::codes::ErrorCode;
use streamspec_protocol::frame::{self, FrameError};
use streamspec_protocol::{MessageKind, WireMessage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::wire_bounds::{self, Bounded};

const CLIENT_ID: &str = "streamspec";
/// The largest response frame accepted; describe responses of big groups stay far below it.
const FRAME_SIZE_MAX: usize = 64 << 20;

/// Why talking to a broker failed. Each is one line for the user.
#[derive(Debug)]
#[non_exhaustive]
pub enum TransportError {
    /// Nothing listens there, the name does not resolve, or the connection was refused.
    Connect { address: String, reason: String },
    /// No answer within the bound.
    Timeout {
        address: String,
        what: String,
        after: Duration,
    },
    /// The peer closed (or reset) the connection while a response was due.
    Closed { address: String, what: String },
    Io {
        address: String,
        source: std::io::Error,
    },
    /// A response frame that could not be read.
    Frame {
        address: String,
        what: String,
        source: FrameError,
    },
    /// A standard Kafka response body that did not decode.
    Malformed {
        address: String,
        what: String,
        reason: String,
    },
    /// A response to another request than the one sent.
    CorrelationMismatch {
        address: String,
        what: String,
        expected: i32,
        received: i32,
    },
    /// The broker does not offer an API the harness needs.
    Unsupported { api: String },
    /// A set-up call (topics, coordinator lookup) answered with an error code.
    Broker {
        what: String,
        error_code: i16,
        message: Option<String>,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Connect { address, reason } => {
                write!(f, "cannot connect to {address}: {reason}")
            }
            TransportError::Timeout {
                address,
                what,
                after,
            } => {
                write!(
                    f,
                    "{address} did not answer {what} within {} ms",
                    after.as_millis()
                )
            }
            TransportError::Closed { address, what } => {
                write!(f, "{address} closed the connection while {what} was due")
            }
            TransportError::Io { address, source } => write!(f, "{address}: {source}"),
            TransportError::Frame {
                address,
                what,
                source,
            } => write!(f, "{address}: response to {what}: {source}"),
            TransportError::Malformed {
                address,
                what,
                reason,
            } => write!(f, "{address}: response to {what}: malformed body: {reason}"),
            TransportError::CorrelationMismatch {
                address,
                what,
                expected,
                received,
            } => write!(
                f,
                "{address}: response to {what} carries correlation id {received}, expected {expected}"
            ),
            TransportError::Unsupported { api } => write!(f, "the broker does not offer {api}"),
            TransportError::Broker {
                what,
                error_code,
                message,
            } => write_refusal(f, what, *error_code, message.as_deref()),
        }
    }
}

impl std::error::Error for TransportError {}

/// How a request refused with an error code reads, whoever refused it; a refusal with no code
/// of its own (0, e.g. one side of a differential set-up refusing what the other did) is `what`
/// alone, which then says why.
pub(crate) fn write_refusal(
    f: &mut fmt::Formatter<'_>,
    what: &str,
    error_code: i16,
    message: Option<&str>,
) -> fmt::Result {
    if error_code == 0 {
        f.write_str(what)?;
    } else {
        write!(f, "{what} failed with error {}", ErrorCode(error_code))?;
    }
    match message {
        Some(message) => write!(f, ": {message}"),
        None => Ok(()),
    }
}

/// How a target failed to give an answer the harness can use at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// The connection closed, or no connection at all.
    Silence,
    /// No answer within the bound (`--timeout-ms`), which may be too short for the target.
    Timeout,
    /// An answer that cannot be read: a bad frame, another request's answer, or a standard
    /// Kafka body that does not decode. (A streams body that does not decode is a finding about
    /// the protocol under test, not a loss.)
    Unreadable,
}

impl TransportError {
    /// Whether this error means the target gave no answer the harness can use, and how; `None`
    /// when it answered, rightly or not.
    pub fn loss(&self) -> Option<Loss> {
        match self {
            TransportError::Timeout { .. } => Some(Loss::Timeout),
            TransportError::Closed { .. } | TransportError::Connect { .. } => Some(Loss::Silence),
            TransportError::Frame { .. }
            | TransportError::Malformed { .. }
            | TransportError::CorrelationMismatch { .. } => Some(Loss::Unreadable),
            TransportError::Io { .. }
            | TransportError::Unsupported { .. }
            | TransportError::Broker { .. } => None,
        }
    }
}

/// An I/O error on an open connection; a reset or broken pipe is the peer closing it.
fn io_error(address: &str, what: &str, source: std::io::Error) -> TransportError {
    use std::io::ErrorKind;
    match source.kind() {
        ErrorKind::ConnectionReset
        | ErrorKind::ConnectionAborted
        | ErrorKind::BrokenPipe
        | ErrorKind::UnexpectedEof => TransportError::Closed {
            address: address.to_owned(),
            what: what.to_owned(),
        },
        _ => TransportError::Io {
            address: address.to_owned(),
            source,
        },
    }
}

pub type TransportResult<T> = Result<T, TransportError>;

/// One request and its response, as bytes, for reports.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub request_kind: MessageKind,
    pub response_kind: MessageKind,
    pub version: i16,
    pub request: Vec<u8>,
    pub response: Vec<u8>,
    /// The exchange as the target saw it, where a backend translated it into another dialect
    /// (the KIP draft's, see [`crate::draft`]).
    pub on_the_wire: Option<Box<Exchange>>,
}

impl Exchange {
    /// Both messages laid out field by field, and after them the translated exchange, if any.
    pub fn render(&self) -> String {
        let own = self.render_own();
        match &self.on_the_wire {
            None => own,
            Some(wire) => format!(
                "{own}\n    on the wire, in the target's dialect:\n{}",
                wire.render()
            ),
        }
    }

    fn render_own(&self) -> String {
        let side = |kind: MessageKind, bytes: &[u8]| {
            streamspec_protocol::annotate::annotate(kind, bytes, self.version)
                .unwrap_or_else(|error| format!("{} v{}: {error}\n", kind.name(), self.version))
        };
        format!(
            "--> {}\n<-- {}",
            side(self.request_kind, &self.request),
            side(self.response_kind, &self.response)
        )
    }
}

/// The versions a broker offers for one api key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionSpan {
    pub min: i16,
    pub max: i16,
}

/// A connection to one broker.
#[derive(Debug)]
pub struct Connection {
    address: String,
    stream: TcpStream,
    timeout: Duration,
    /// A request was sent and its answer not (wholly) read: the call was cancelled (Ctrl-C) or
    /// timed out, and that answer would reach the next call. The next call opens a fresh stream.
    awaiting_answer: bool,
    next_correlation_id: i32,
    buffer: BytesMut,
    api_versions: BTreeMap<i16, VersionSpan>,
    /// Finalized feature levels the broker reports (e.g. `metadata.version`).
    features: BTreeMap<String, i16>,
}

/// A TCP stream to `address`, within `timeout`, each failure said in one line.
async fn open_stream(address: &str, timeout: Duration) -> TransportResult<TcpStream> {
    let connect_error = |reason: String| TransportError::Connect {
        address: address.to_owned(),
        reason,
    };
    let stream = match tokio::time::timeout(timeout, TcpStream::connect(address)).await {
        Err(_) => {
            return Err(connect_error(format!(
                "no answer within {} ms",
                timeout.as_millis()
            )))
        }
        Ok(Err(error)) if error.kind() == std::io::ErrorKind::ConnectionRefused => {
            return Err(connect_error(
                "nothing listens there (connection refused)".to_owned(),
            ))
        }
        // `localhost` alone: the port is what is missing, whatever the resolver calls it.
        Ok(Err(_)) if !address.contains(':') => {
            return Err(connect_error(
                "not HOST:PORT (e.g. localhost:9092), nor `embedded`".to_owned(),
            ))
        }
        Ok(Err(error)) => return Err(connect_error(error.to_string())),
        Ok(Ok(stream)) => stream,
    };
    stream.set_nodelay(true).ok();
    Ok(stream)
}

impl Connection {
    /// Connects and asks which API versions the broker offers.
    pub async fn connect(address: &str, timeout: Duration) -> TransportResult<Connection> {
        let stream = open_stream(address, timeout).await?;
        let mut connection = Connection {
            address: address.to_owned(),
            stream,
            awaiting_answer: false,
            timeout,
            next_correlation_id: 1,
            buffer: BytesMut::new(),
            api_versions: BTreeMap::new(),
            features: BTreeMap::new(),
        };
        let request = ApiVersionsRequest::default()
            .with_client_software_name(StrBytes::from_static_str("streamspec"))
            .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")));
        let response = connection.call_kafka(3, &request, "ApiVersions").await?;
        if response.error_code != 0 {
            return Err(TransportError::Broker {
                what: "ApiVersions".to_owned(),
                error_code: response.error_code,
                message: None,
            });
        }
        connection.api_versions = response
            .api_keys
            .iter()
            .map(|api| {
                (
                    api.api_key,
                    VersionSpan {
                        min: api.min_version,
                        max: api.max_version,
                    },
                )
            })
            .collect();
        connection.features = response
            .finalized_features
            .iter()
            .map(|feature| (feature.name.to_string(), feature.max_version_level))
            .collect();
        Ok(connection)
    }

    /// The finalized level of feature `name`, if the broker reports one.
    pub fn feature_level(&self, name: &str) -> Option<i16> {
        self.features.get(name).copied()
    }

    pub fn address(&self) -> &str {
        &self.address
    }

    /// The versions offered for `api_key`, if any.
    pub fn versions(&self, api_key: i16) -> Option<VersionSpan> {
        self.api_versions.get(&api_key).copied()
    }

    /// The highest version of `M` both sides speak.
    pub fn negotiate<M: WireMessage>(&self) -> TransportResult<i16> {
        let offered = self
            .versions(M::API_KEY)
            .ok_or_else(|| TransportError::Unsupported {
                api: format!("{} (api key {})", M::NAME, M::API_KEY),
            })?;
        let version = offered.max.min(M::VERSIONS.max);
        if version < offered.min.max(M::VERSIONS.min) {
            return Err(TransportError::Unsupported {
                api: format!("a version of {} that streamspec speaks", M::NAME),
            });
        }
        Ok(version)
    }

    fn correlation_id(&mut self) -> i32 {
        let id = self.next_correlation_id;
        self.next_correlation_id = self.next_correlation_id.wrapping_add(1);
        id
    }

    /// Writes a frame and reads the response frame, whose header must carry `correlation_id`;
    /// returns the response body.
    async fn round_trip(
        &mut self,
        request_frame: &[u8],
        correlation_id: i32,
        response_header_version: i16,
        what: &str,
    ) -> TransportResult<Vec<u8>> {
        if self.awaiting_answer {
            self.stream = open_stream(&self.address, self.timeout).await?;
            self.buffer.clear();
        }
        self.awaiting_answer = true;
        let address = self.address.clone();
        let timeout = self.timeout;
        let frame_error = |source| TransportError::Frame {
            address: address.clone(),
            what: what.to_owned(),
            source,
        };
        let exchange = async {
            self.stream
                .write_all(request_frame)
                .await
                .map_err(|source| io_error(&address, what, source))?;
            loop {
                if let Some(frame) =
                    frame::split_frame(&mut self.buffer, FRAME_SIZE_MAX).map_err(frame_error)?
                {
                    return Ok(frame);
                }
                let read = self
                    .stream
                    .read_buf(&mut self.buffer)
                    .await
                    .map_err(|source| io_error(&address, what, source))?;
                if read == 0 {
                    return Err(io_error(
                        &address,
                        what,
                        std::io::ErrorKind::UnexpectedEof.into(),
                    ));
                }
            }
        };
        let frame = tokio::time::timeout(timeout, exchange)
            .await
            .map_err(|_| TransportError::Timeout {
                address: self.address.clone(),
                what: what.to_owned(),
                after: timeout,
            })??;
        self.awaiting_answer = false;
        let mut body = &frame[..];
        let header = ResponseHeader::decode(&mut body, response_header_version)
            .map_err(|error| frame_error(FrameError::Header(error)))?;
        if header.correlation_id != correlation_id {
            return Err(TransportError::CorrelationMismatch {
                address: self.address.clone(),
                what: what.to_owned(),
                expected: correlation_id,
                received: header.correlation_id,
            });
        }
        Ok(body.to_vec())
    }

    /// Calls a standard Kafka API through `kafka-protocol`'s messages; the response is decoded
    /// only once its counts and lengths fit its bytes (see [`wire_bounds`]).
    pub async fn call_kafka<R: Request>(
        &mut self,
        version: i16,
        request: &R,
        what: &str,
    ) -> TransportResult<R::Response>
    where
        R::Response: Bounded,
    {
        let correlation_id = self.correlation_id();
        let header = RequestHeader::default()
            .with_request_api_key(R::KEY)
            .with_request_api_version(version)
            .with_correlation_id(correlation_id)
            .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)));
        let mut request_frame = BytesMut::zeroed(4);
        header
            .encode(&mut request_frame, R::header_version(version))
            .and_then(|()| request.encode(&mut request_frame, version))
            .unwrap_or_else(|error| panic!("{what} v{version} does not encode: {error}"));
        let size = (request_frame.len() - 4) as i32;
        request_frame[..4].copy_from_slice(&size.to_be_bytes());
        let response_header_version = <R::Response as HeaderVersion>::header_version(version);
        let body = self
            .round_trip(
                &request_frame,
                correlation_id,
                response_header_version,
                what,
            )
            .await?;
        let malformed = |reason: String| TransportError::Malformed {
            address: self.address.clone(),
            what: what.to_owned(),
            reason,
        };
        wire_bounds::decode(version, &mut &body[..]).map_err(malformed)
    }

    /// Calls api key 88 or 89: `body` is the request body, and so is the answer (its header
    /// checked and taken off); decoding it is the harness's, for every backend alike.
    pub async fn call_streams(
        &mut self,
        api_key: i16,
        version: i16,
        body: &[u8],
        what: &str,
    ) -> TransportResult<Vec<u8>> {
        let correlation_id = self.correlation_id();
        let header = RequestHeader::default()
            .with_request_api_key(api_key)
            .with_request_api_version(version)
            .with_correlation_id(correlation_id)
            .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)));
        let mut request_frame = BytesMut::zeroed(4);
        header
            .encode(&mut request_frame, frame::REQUEST_HEADER_VERSION)
            .expect("a request header with a short client id always encodes");
        request_frame.extend_from_slice(body);
        let size = (request_frame.len() - 4) as i32;
        request_frame[..4].copy_from_slice(&size.to_be_bytes());
        self.round_trip(
            &request_frame,
            correlation_id,
            frame::RESPONSE_HEADER_VERSION,
            what,
        )
        .await
    }
}
