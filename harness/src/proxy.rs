//! A Kafka-protocol proxy in front of one broker or a cluster: it forwards every request and
//! response as it is, except that it keeps clients on itself (broker addresses in Metadata,
//! FindCoordinator and DescribeCluster answers become its own; in front of a cluster each broker
//! gets a listener of its own, which carries its connections to that broker), can lower the versions ApiVersions advertises, and can refuse topics
//! created with the broker's default replication factor, and can carry the KIP draft's
//! heartbeats to a broker that speaks Kafka's (`draft.rs`), and can apply faults on purpose (drop,
//! duplicate or delay heartbeat exchanges, tell members stale epochs, refuse an api: `faults.rs`). It reads request headers
//! to match each response to its request; traffic it cannot read is forwarded untouched, and so
//! is a body whose counts or lengths exceed its bytes, which it does not decode (see
//! `wire_bounds`). It judges the StreamsGroupHeartbeat and StreamsGroupDescribe exchanges it
//! passes on with the oracle (`observe.rs`).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod draft;
pub mod faults;
pub mod observe;

use bytes::BytesMut;
use kafka_protocol::messages::create_topics_response::CreatableTopicResult;
use kafka_protocol::messages::{
    ApiVersionsRequest, ApiVersionsResponse, CreateTopicsRequest, CreateTopicsResponse,
    DescribeClusterRequest, DescribeClusterResponse, FindCoordinatorRequest,
    FindCoordinatorResponse, MetadataRequest, MetadataResponse, ProduceRequest, RequestHeader,
    ResponseHeader,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};
use streamspec_coordinator::kip_draft::{InFlight, KipDraft};
use streamspec_protocol::codes::ERROR_INVALID_REPLICATION_FACTOR;
use streamspec_protocol::frame;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::draft::Dialect;
use crate::transport::Connection;
use crate::wire_bounds::{self, Bounded};
use faults::{ConnectionId, FaultConfig, FaultDraws, Faults, StaleEpochDraws};

/// The largest frame passed on either way, as Kafka's `socket.request.max.bytes` default.
const FRAME_SIZE_MAX: usize = 100 << 20;
/// Requests sent upstream and not yet answered, per connection; a client waits beyond it.
const IN_FLIGHT_MAX: usize = 256;
/// A connection idle this long is closed, as Kafka's `connections.max.idle.ms` default.
const IDLE_MAX: Duration = Duration::from_secs(600);
/// Bound on connecting to the upstream broker.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The most upstream brokers given a listener each.
pub const BROKERS_MAX: usize = 64;
/// DescribeCluster's endpoint type of brokers (2 asks for the controllers, left as they are).
const ENDPOINT_TYPE_BROKERS: i8 = 1;
/// The message of a refused default replication factor.
pub const DEFAULT_REPLICATION_FACTOR_REFUSED: &str = "Replication factor must be set explicitly";

/// What the proxy changes on the way.
#[derive(Debug, Clone, Default)]
pub struct ProxyConfig {
    /// The broker behind the proxy.
    pub upstream: String,
    /// Per api key, the highest version ApiVersions may advertise.
    pub version_caps: BTreeMap<i16, i16>,
    /// Answer CreateTopics for topics with replication factor -1 with INVALID_REPLICATION_FACTOR.
    pub refuse_default_replication_factor: bool,
    /// The dialect of StreamsGroupHeartbeat clients speak; the broker speaks Kafka's.
    pub dialect: Dialect,
    /// Faults applied on purpose, and apis refused.
    pub faults: FaultConfig,
    /// Where live traces are written (`observe`); empty: the working directory.
    pub trace_dir: std::path::PathBuf,
    /// Write every group's trace on exit too (`--capture`).
    pub capture: bool,
    /// The user declares every group settled when the proxy stops (`--settled-at-exit`): each
    /// is then judged so ([`observe::settle`]).
    pub settled_at_exit: bool,
}

/// `API=MAX`, e.g. `88=0`, for `--cap-version`.
pub fn parse_version_cap(text: &str) -> Result<(i16, i16), String> {
    let usage = || format!("not a version cap: {text:?} (use API=MAX, e.g. 88=0)");
    let (key, max) = text.split_once('=').ok_or_else(usage)?;
    // A key no broker offers would cap nothing, without a word.
    let key = faults::parse_api_key(key)?;
    match max.trim().parse::<i16>() {
        Ok(max) if max >= 0 => Ok((key, max)),
        _ => Err(usage()),
    }
}

/// One of the proxy's own addresses, which clients are sent back to.
#[derive(Debug, Clone)]
struct Advertised {
    host: StrBytes,
    port: i32,
}

impl Advertised {
    fn of(listener: &TcpListener) -> Result<Advertised, String> {
        let local = listener.local_addr().map_err(|error| error.to_string())?;
        Ok(Advertised {
            host: StrBytes::from_string(local.ip().to_string()),
            port: i32::from(local.port()),
        })
    }
}

/// The proxy's addresses that broker addresses in answers become: with one upstream broker
/// always the main listener's; in front of a cluster, each broker's own listener (by node id),
/// and the main listener for a broker that joined after the proxy started.
#[derive(Debug, Clone)]
struct Addresses {
    main: Advertised,
    brokers: BTreeMap<i32, Advertised>,
}

impl Addresses {
    fn of(&self, node_id: i32) -> &Advertised {
        self.brokers.get(&node_id).unwrap_or(&self.main)
    }
}

/// A listener of the proxy and the upstream broker its connections go to.
#[derive(Debug)]
struct Route {
    listener: TcpListener,
    upstream: String,
}

/// A proxy listening for clients.
#[derive(Debug)]
pub struct Proxy {
    /// The main listener (to `config.upstream`), then one per upstream broker of a cluster.
    routes: Vec<Route>,
    /// Each upstream broker of a cluster by node id, with its upstream address.
    brokers: Vec<(i32, String)>,
    config: Arc<ProxyConfig>,
    addresses: Arc<Addresses>,
    /// The draft adapter's state, shared by every connection, under `--dialect kip-draft`.
    draft: Option<Arc<Mutex<KipDraft>>>,
    /// Judges the Streams group exchanges of every connection.
    observer: Arc<observe::Observer>,
}

impl Proxy {
    /// Listens at `listen` (HOST:PORT; port 0 picks one). When the upstream's metadata lists
    /// more than one broker, each gets a listener on the same host: on the ports after the
    /// main one, in the order of node ids, or on ports the system picks when `listen` has port
    /// 0. An upstream that does not tell its brokers is served as one broker.
    pub async fn bind(listen: &str, mut config: ProxyConfig) -> Result<Proxy, String> {
        let listener = TcpListener::bind(listen)
            .await
            .map_err(|error| format!("cannot listen at {listen}: {error}"))?;
        let local = listener
            .local_addr()
            .map_err(|error| format!("{listen}: {error}"))?;
        let main = Advertised::of(&listener).map_err(|error| format!("{listen}: {error}"))?;
        let mut routes = vec![Route {
            listener,
            upstream: config.upstream.clone(),
        }];
        let brokers = match upstream_brokers(&config.upstream).await {
            Ok(brokers) if brokers.len() > 1 => brokers,
            Ok(_) => Vec::new(),
            Err(reason) => {
                eprintln!(
                    "streamspec proxy: the brokers of {} are unknown ({reason}); serving it as one broker",
                    config.upstream
                );
                Vec::new()
            }
        };
        if brokers.len() > BROKERS_MAX {
            return Err(format!(
                "{} lists {} brokers; the proxy gives at most {BROKERS_MAX} a listener each",
                config.upstream,
                brokers.len()
            ));
        }
        let mut addresses = Addresses {
            main,
            brokers: BTreeMap::new(),
        };
        let asked_port = listen
            .rsplit_once(':')
            .and_then(|(_, port)| port.parse::<u16>().ok());
        let main_port = local.port();
        for (index, (node_id, upstream)) in brokers.iter().enumerate() {
            // Port 0 asked for: each broker's listener gets a port the system picks too (the
            // port after the main one may be taken).
            let port = match asked_port {
                Some(0) => 0,
                _ => u16::try_from(usize::from(main_port) + 1 + index)
                    .map_err(|_| format!("no port after {main_port} for broker {node_id}"))?,
            };
            let at = std::net::SocketAddr::new(local.ip(), port);
            let listener = TcpListener::bind(at)
                .await
                .map_err(|error| format!("cannot listen at {at} for broker {node_id}: {error}"))?;
            let advertised = Advertised::of(&listener).map_err(|error| format!("{at}: {error}"))?;
            addresses.brokers.insert(*node_id, advertised);
            routes.push(Route {
                listener,
                upstream: upstream.clone(),
            });
        }
        let draft = (config.dialect == Dialect::KipDraft).then(|| {
            // The draft defines one version of the heartbeat.
            let cap = config
                .version_caps
                .entry(draft::HEARTBEAT_KEY)
                .or_insert(draft::DRAFT_VERSION);
            *cap = (*cap).min(draft::DRAFT_VERSION);
            Arc::new(Mutex::new(KipDraft::default()))
        });
        for key in config.faults.refused() {
            config.version_caps.insert(key, faults::NO_VERSION);
        }
        Ok(Proxy {
            routes,
            brokers,
            draft,
            observer: Arc::new(observe::Observer::new(
                &config.upstream,
                &config.trace_dir,
                config.settled_at_exit,
            )),
            config: Arc::new(config),
            addresses: Arc::new(addresses),
        })
    }

    /// The address clients connect to.
    pub fn address(&self) -> String {
        let main = &self.addresses.main;
        format!("{}:{}", main.host, main.port)
    }

    /// In front of a cluster, each upstream broker (node id, address) with the proxy's listener
    /// for it, in the order of node ids; empty in front of one broker.
    pub fn broker_listeners(&self) -> Vec<(i32, String, String)> {
        self.brokers
            .iter()
            .map(|(node_id, upstream)| {
                let own = self.addresses.of(*node_id);
                (
                    *node_id,
                    upstream.clone(),
                    format!("{}:{}", own.host, own.port),
                )
            })
            .collect()
    }

    /// What the proxy judged of the traffic it passed on.
    pub fn observer(&self) -> Arc<observe::Observer> {
        Arc::clone(&self.observer)
    }

    /// Serves clients until the task is dropped, each connection on a task of its own.
    pub async fn serve(self) {
        // Dropping the set (when this future is dropped) stops every listener.
        let mut listeners = JoinSet::new();
        // Connections are numbered across listeners, in the order accepted (faults.rs seeds by it).
        let accepted = Arc::new(AtomicU64::new(0));
        for route in self.routes {
            let config = Arc::clone(&self.config);
            let addresses = Arc::clone(&self.addresses);
            let draft = self.draft.clone();
            let observer = Arc::clone(&self.observer);
            let accepted = Arc::clone(&accepted);
            listeners.spawn(accept(route, config, addresses, draft, observer, accepted));
        }
        while listeners.join_next().await.is_some() {}
    }
}

/// Takes the connections of one listener, each to its route's upstream broker.
async fn accept(
    route: Route,
    config: Arc<ProxyConfig>,
    addresses: Arc<Addresses>,
    draft: Option<Arc<Mutex<KipDraft>>>,
    observer: Arc<observe::Observer>,
    accepted: Arc<AtomicU64>,
) {
    let upstream: Arc<str> = route.upstream.into();
    loop {
        let Ok((client, peer)) = route.listener.accept().await else {
            continue;
        };
        let connection = ConnectionId {
            index: accepted.fetch_add(1, Ordering::Relaxed),
            peer,
        };
        let config = Arc::clone(&config);
        let addresses = Arc::clone(&addresses);
        let draft = draft.clone();
        let upstream = Arc::clone(&upstream);
        let observer = Arc::clone(&observer);
        tokio::spawn(async move {
            let relayed = relay(
                client,
                &upstream,
                &config,
                &addresses,
                draft.as_deref(),
                connection,
                &observer,
            )
            .await;
            if let Err(error) = relayed {
                eprintln!("streamspec proxy: connection from {peer}: {error}");
            }
        });
    }
}

/// The brokers the upstream's metadata lists: node id and address, in the order of node ids.
async fn upstream_brokers(upstream: &str) -> Result<Vec<(i32, String)>, String> {
    let mut connection = Connection::connect(upstream, CONNECT_TIMEOUT)
        .await
        .map_err(|error| error.to_string())?;
    // No topics: only the brokers are of interest.
    let request = MetadataRequest::default()
        .with_topics(Some(Vec::new()))
        .with_allow_auto_topic_creation(false);
    let metadata = connection
        .call_kafka(12, &request, "Metadata")
        .await
        .map_err(|error| error.to_string())?;
    let mut brokers: Vec<(i32, String)> = metadata
        .brokers
        .iter()
        .map(|broker| (broker.node_id.0, format!("{}:{}", broker.host, broker.port)))
        .collect();
    brokers.sort();
    Ok(brokers)
}

/// Why a proxied connection ended early.
#[derive(Debug)]
enum RelayError {
    Upstream(String),
    Io(std::io::Error),
    Frame(String),
    /// A response whose correlation id is not the one of the oldest pending request.
    OutOfOrder {
        expected: i32,
        received: i32,
    },
}

impl fmt::Display for RelayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelayError::Upstream(reason) => write!(f, "upstream: {reason}"),
            RelayError::Io(error) => write!(f, "{error}"),
            RelayError::Frame(reason) => write!(f, "{reason}"),
            RelayError::OutOfOrder { expected, received } => write!(
                f,
                "upstream answered correlation id {received} while {expected} was due; connection closed"
            ),
        }
    }
}

/// A request on its way, for the response it awaits.
#[derive(Debug)]
struct Pending {
    api_key: i16,
    version: i16,
    correlation_id: i32,
    answer: Answer,
    /// Faults to apply to this exchange.
    faults: Faults,
    /// The request frame, kept for [`observe`] when its answer comes from upstream unchanged,
    /// and when it went on upstream ([`observe::Observer::now_ms`]).
    watched: Option<(BytesMut, u64)>,
}

#[derive(Debug)]
enum Answer {
    /// Upstream answers; `refused` are CreateTopics results the proxy adds to that answer.
    Upstream { refused: Vec<CreatableTopicResult> },
    /// The proxy answers itself with this frame, in turn.
    Local(Vec<u8>),
    /// Upstream answers a draft heartbeat carried in Kafka's dialect.
    Draft(InFlight),
    /// A request of a refused api: no answer, the connection closes (`--refuse-api`).
    Refused,
}

/// Carries one client connection to the upstream broker `to` and back.
async fn relay(
    client: TcpStream,
    to: &str,
    config: &ProxyConfig,
    addresses: &Addresses,
    draft: Option<&Mutex<KipDraft>>,
    connection: ConnectionId,
    observer: &observe::Observer,
) -> Result<(), RelayError> {
    let upstream = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(to))
        .await
        .map_err(|_| RelayError::Upstream(format!("no connection to {to} in time")))?
        .map_err(|error| RelayError::Upstream(format!("{to}: {error}")))?;
    client.set_nodelay(true).ok();
    upstream.set_nodelay(true).ok();
    let (mut client_read, mut client_write) = client.into_split();
    let (mut upstream_read, mut upstream_write) = upstream.into_split();
    let (pending_tx, mut pending_rx) = mpsc::channel::<Pending>(IN_FLIGHT_MAX);

    let mut fault_draws = FaultDraws::new(&config.faults, connection);
    let mut stale_epoch_draws = StaleEpochDraws::new(&config.faults, connection);

    let requests = async {
        let mut buffer = BytesMut::new();
        while let Some(request) = read_frame(&mut client_read, &mut buffer).await? {
            let (mut pending, forward) = intercept_request(&request, config, draft)?;
            if let Some(pending) = &mut pending {
                fault_draws.draw_for(pending, forward.is_some());
            }
            if let Some(pending) = pending.as_mut().filter(|pending| {
                observe::watches(pending.api_key)
                    && matches!(pending.answer, Answer::Upstream { .. })
            }) {
                pending.watched = Some((request, observer.now_ms()));
            }
            let copies = match &pending {
                Some(pending) if pending.faults.duplicate => 2,
                _ => 1,
            };
            for _ in 0..copies {
                if let Some(forward) = &forward {
                    upstream_write
                        .write_all(forward)
                        .await
                        .map_err(RelayError::Io)?;
                }
            }
            if let Some(pending) = pending {
                let refused = matches!(pending.answer, Answer::Refused);
                if pending_tx.send(pending).await.is_err() {
                    break;
                }
                if refused {
                    // Kafka reads nothing more from the connection: the answers side closes it.
                    std::future::pending::<()>().await;
                }
            }
        }
        Ok::<(), RelayError>(())
    };
    let responses = async {
        let mut buffer = BytesMut::new();
        while let Some(pending) = pending_rx.recv().await {
            let id = pending.correlation_id;
            let frame = match pending.answer {
                Answer::Local(frame) => frame,
                Answer::Refused => {
                    connection.log(
                        id,
                        &format!(
                            "refuse-api: api key {} refused, connection closed unanswered",
                            pending.api_key
                        ),
                    );
                    return Ok(());
                }
                ref upstream => {
                    let Some(response) = read_answer(&mut upstream_read, &mut buffer, id).await?
                    else {
                        break;
                    };
                    if pending.faults.duplicate {
                        if read_answer(&mut upstream_read, &mut buffer, id)
                            .await?
                            .is_none()
                        {
                            break;
                        }
                        connection.log(
                            id,
                            "duplicate: request sent twice, the second answer discarded",
                        );
                    }
                    if pending.faults.drop {
                        connection.log(id, "drop: answer discarded, connection closed");
                        return Ok(());
                    }
                    match (upstream, draft) {
                        (Answer::Draft(in_flight), Some(draft)) => {
                            draft::carry_answer(&response, in_flight.clone(), draft)?
                        }
                        (Answer::Upstream { refused }, _) => {
                            let stale = pending
                                .watched
                                .as_ref()
                                .filter(|_| pending.api_key == faults::FAULTED_KEY)
                                .and_then(|(request, _)| {
                                    stale_epoch_draws.alter(pending.version, request, &response)
                                });
                            if let Some(stale) = &stale {
                                connection.log(
                                    id,
                                    &format!(
                                        "stale-epoch: member epoch {} answered as {}",
                                        stale.answered, stale.told
                                    ),
                                );
                            }
                            let response = stale.map_or(response.to_vec(), |stale| stale.frame);
                            // Judged as the client sees it, before it does (observe.rs says why).
                            if let Some((request, sent_ms)) = &pending.watched {
                                observer.record(
                                    pending.api_key,
                                    pending.version,
                                    *sent_ms,
                                    request,
                                    &response,
                                );
                            } else if observe::shows_topics(pending.api_key) {
                                observer.record_topics(pending.api_key, pending.version, &response);
                            }
                            rewrite_response(&pending, refused, &response, config, addresses)
                                .unwrap_or_else(|| with_size_prefix(&response))
                        }
                        _ => with_size_prefix(&response),
                    }
                }
            };
            if let Some(delay) = pending.faults.delay {
                connection.log(id, &format!("delay: answer held {} ms", delay.as_millis()));
                tokio::time::sleep(delay).await;
            }
            client_write
                .write_all(&frame)
                .await
                .map_err(RelayError::Io)?;
        }
        Ok(())
    };
    // Either side ending ends the connection.
    tokio::select! {
        result = requests => result,
        result = responses => result,
    }
}

/// Reads one frame (without its size prefix); `None` when the peer closed between frames.
async fn read_frame(
    reader: &mut (impl AsyncRead + Unpin),
    buffer: &mut BytesMut,
) -> Result<Option<BytesMut>, RelayError> {
    loop {
        if let Some(frame) = frame::split_frame(buffer, FRAME_SIZE_MAX)
            .map_err(|error| RelayError::Frame(error.to_string()))?
        {
            return Ok(Some(frame));
        }
        let read = tokio::time::timeout(IDLE_MAX, reader.read_buf(buffer))
            .await
            .map_err(|_| RelayError::Frame(format!("idle for {} s", IDLE_MAX.as_secs())))?
            .map_err(RelayError::Io)?;
        if read == 0 {
            return if buffer.is_empty() {
                Ok(None)
            } else {
                Err(RelayError::Frame("closed within a frame".to_owned()))
            };
        }
    }
}

/// Reads the broker's answer to the oldest pending request, `expected`; `None` when the broker
/// closed the connection.
async fn read_answer(
    upstream: &mut (impl AsyncRead + Unpin),
    buffer: &mut BytesMut,
    expected: i32,
) -> Result<Option<BytesMut>, RelayError> {
    let Some(response) = read_frame(upstream, buffer).await? else {
        return Ok(None);
    };
    let received = correlation_id(&response)?;
    if received != expected {
        return Err(RelayError::OutOfOrder { expected, received });
    }
    Ok(Some(response))
}

fn correlation_id(response: &[u8]) -> Result<i32, RelayError> {
    response
        .get(..4)
        .map(|bytes| i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        .ok_or_else(|| RelayError::Frame("a response shorter than its header".to_owned()))
}

fn with_size_prefix(body: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend((body.len() as i32).to_be_bytes());
    frame.extend_from_slice(body);
    frame
}

/// What to await for a client request, and the frame to send upstream (none when the proxy
/// answers itself).
fn intercept_request(
    request: &[u8],
    config: &ProxyConfig,
    draft: Option<&Mutex<KipDraft>>,
) -> Result<(Option<Pending>, Option<Vec<u8>>), RelayError> {
    // Api key, version and correlation id open every request header version.
    let Some(fixed) = request.get(..8) else {
        return Err(RelayError::Frame(
            "a request shorter than its header; connection closed".to_owned(),
        ));
    };
    let api_key = i16::from_be_bytes([fixed[0], fixed[1]]);
    let version = i16::from_be_bytes([fixed[2], fixed[3]]);
    let correlation_id = i32::from_be_bytes([fixed[4], fixed[5], fixed[6], fixed[7]]);
    let pending = |answer| Pending {
        api_key,
        version,
        correlation_id,
        answer,
        faults: Faults::default(),
        watched: None,
    };
    if config.faults.refused_apis.contains(&api_key) {
        return Ok((Some(pending(Answer::Refused)), None));
    }
    if let (draft::HEARTBEAT_KEY, Some(draft)) = (api_key, draft) {
        let (answer, forward) = draft::carry_request(request, draft)?;
        return Ok((Some(pending(answer)), forward));
    }
    if api_key == CreateTopicsRequest::KEY && config.refuse_default_replication_factor {
        if let Some((forward, refused)) = refuse_default_replication_factor(request, version) {
            return Ok(match forward {
                None => (
                    Some(pending(Answer::Local(create_topics_answer(
                        correlation_id,
                        version,
                        refused,
                    )))),
                    None,
                ),
                Some(forward) => (Some(pending(Answer::Upstream { refused })), Some(forward)),
            });
        }
    }
    // Kafka sends no response to a produce request with acks 0.
    if api_key == 0 && produce_without_acks(request, version) {
        return Ok((None, Some(with_size_prefix(request))));
    }
    Ok((
        Some(pending(Answer::Upstream {
            refused: Vec::new(),
        })),
        Some(with_size_prefix(request)),
    ))
}

/// Whether a Produce request asks for no answer (acks 0).
fn produce_without_acks(request: &[u8], version: i16) -> bool {
    let mut body = request;
    RequestHeader::decode(&mut body, ProduceRequest::header_version(version))
        .ok()
        .and_then(|_| wire_bounds::decode::<ProduceRequest>(version, &mut body).ok())
        .is_some_and(|produce| produce.acks == 0)
}

/// For a CreateTopics request naming topics with replication factor -1: the request to forward
/// without them (none if no topic is left) and their refusals. `None` when no topic asks for -1
/// or the request does not decode.
fn refuse_default_replication_factor(
    request: &[u8],
    version: i16,
) -> Option<(Option<Vec<u8>>, Vec<CreatableTopicResult>)> {
    let header_version = CreateTopicsRequest::header_version(version);
    let mut body = request;
    let header = RequestHeader::decode(&mut body, header_version).ok()?;
    let mut create: CreateTopicsRequest = wire_bounds::decode(version, &mut body).ok()?;
    let (refused, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut create.topics)
        .into_iter()
        .partition(|topic| topic.replication_factor == -1);
    if refused.is_empty() {
        return None;
    }
    let refused = refused
        .into_iter()
        .map(|topic| {
            CreatableTopicResult::default()
                .with_name(topic.name)
                .with_error_code(ERROR_INVALID_REPLICATION_FACTOR)
                .with_error_message(Some(StrBytes::from_static_str(
                    DEFAULT_REPLICATION_FACTOR_REFUSED,
                )))
                .with_num_partitions(-1)
                .with_replication_factor(-1)
                .with_configs((version >= 5).then(Vec::new))
        })
        .collect();
    if kept.is_empty() {
        return Some((None, refused));
    }
    create.topics = kept;
    let mut forward = BytesMut::zeroed(4);
    header.encode(&mut forward, header_version).ok()?;
    create.encode(&mut forward, version).ok()?;
    let size = (forward.len() - 4) as i32;
    forward[..4].copy_from_slice(&size.to_be_bytes());
    Some((Some(forward.to_vec()), refused))
}

/// A CreateTopics response frame with only `results`.
fn create_topics_answer(
    correlation_id: i32,
    version: i16,
    results: Vec<CreatableTopicResult>,
) -> Vec<u8> {
    let response = CreateTopicsResponse::default().with_topics(results);
    encode_response(correlation_id, version, &response)
        .expect("a CreateTopics response of a version the request decoded at encodes")
}

fn encode_response<R: Encodable + HeaderVersion>(
    correlation_id: i32,
    version: i16,
    response: &R,
) -> Option<Vec<u8>> {
    let mut frame = BytesMut::zeroed(4);
    ResponseHeader::default()
        .with_correlation_id(correlation_id)
        .encode(&mut frame, R::header_version(version))
        .ok()?;
    response.encode(&mut frame, version).ok()?;
    let size = (frame.len() - 4) as i32;
    frame[..4].copy_from_slice(&size.to_be_bytes());
    Some(frame.to_vec())
}

pub(crate) fn decode_response<R: Bounded + HeaderVersion>(frame: &[u8], version: i16) -> Option<R> {
    let mut body = frame;
    ResponseHeader::decode(&mut body, R::header_version(version)).ok()?;
    let response = wire_bounds::decode(version, &mut body).ok()?;
    // Bytes this decoder does not know of would be lost in re-encoding: forward as is then.
    body.is_empty().then_some(response)
}

/// The response frame to send the client instead of `response`, or `None` to forward it as is.
fn rewrite_response(
    pending: &Pending,
    refused: &[CreatableTopicResult],
    response: &[u8],
    config: &ProxyConfig,
    addresses: &Addresses,
) -> Option<Vec<u8>> {
    let (version, correlation_id) = (pending.version, pending.correlation_id);
    match pending.api_key {
        ApiVersionsRequest::KEY if !config.version_caps.is_empty() => {
            let mut answer: ApiVersionsResponse = decode_response(response, version)?;
            cap_versions(&mut answer, &config.version_caps);
            encode_response(correlation_id, version, &answer)
        }
        MetadataRequest::KEY => {
            let mut answer: MetadataResponse = decode_response(response, version)?;
            for broker in &mut answer.brokers {
                let own = addresses.of(broker.node_id.0);
                (broker.host, broker.port) = (own.host.clone(), own.port);
            }
            encode_response(correlation_id, version, &answer)
        }
        FindCoordinatorRequest::KEY => {
            let mut answer: FindCoordinatorResponse = decode_response(response, version)?;
            if answer.error_code == 0 && version < 4 {
                let own = addresses.of(answer.node_id.0);
                (answer.host, answer.port) = (own.host.clone(), own.port);
            }
            for coordinator in answer.coordinators.iter_mut().filter(|c| c.error_code == 0) {
                let own = addresses.of(coordinator.node_id.0);
                (coordinator.host, coordinator.port) = (own.host.clone(), own.port);
            }
            encode_response(correlation_id, version, &answer)
        }
        DescribeClusterRequest::KEY => {
            let mut answer: DescribeClusterResponse = decode_response(response, version)?;
            // Version 0 knows only brokers; controllers (endpoint type 2) are not the proxy's.
            if version == 0 || answer.endpoint_type == ENDPOINT_TYPE_BROKERS {
                for broker in &mut answer.brokers {
                    let own = addresses.of(broker.broker_id.0);
                    (broker.host, broker.port) = (own.host.clone(), own.port);
                }
            }
            encode_response(correlation_id, version, &answer)
        }
        CreateTopicsRequest::KEY if !refused.is_empty() => {
            let mut answer: CreateTopicsResponse = decode_response(response, version)?;
            answer.topics.extend(refused.iter().cloned());
            encode_response(correlation_id, version, &answer)
        }
        _ => None,
    }
}

/// Lowers the advertised max version of each capped api key; a key capped below its min
/// version is no longer offered.
fn cap_versions(answer: &mut ApiVersionsResponse, caps: &BTreeMap<i16, i16>) {
    answer
        .api_keys
        .retain_mut(|api| match caps.get(&api.api_key) {
            None => true,
            Some(&cap) => {
                api.max_version = api.max_version.min(cap);
                api.max_version >= api.min_version
            }
        });
}

/// `streamspec proxy`: serves until `duration` has passed or Ctrl-C, then reports what it judged
/// of the traffic it passed on.
/// How long reading the upstream broker's configs may take at start.
const CONFIGS_TIMEOUT: Duration = Duration::from_secs(15);

/// The configs of the broker at `upstream` that decide its answers besides the group's
/// ([`crate::differential::MIRRORED_BROKER_CONFIGS`]), those it reports, for the traces: a
/// replay answers with them.
async fn upstream_broker_configs(upstream: &str) -> Result<BTreeMap<String, String>, String> {
    use crate::backend::Connect;
    let connector = crate::kafka::KafkaConnector {
        address: upstream.to_owned(),
        timeout: CONFIGS_TIMEOUT,
        replication_factor: -1,
    };
    let names: Vec<String> = crate::differential::MIRRORED_BROKER_CONFIGS
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    let mut broker = connector
        .open(
            &format!("{}proxy-configs", crate::NAME_PREFIX),
            &BTreeMap::new(),
        )
        .await
        .map_err(|error| error.to_string())?;
    let values = broker
        .broker_configs(&names)
        .await
        .map_err(|error| error.to_string())?;
    Ok(names
        .into_iter()
        .zip(values)
        .filter_map(|(name, value)| Some((name, value?)))
        .collect())
}

pub async fn run(
    listen: &str,
    config: ProxyConfig,
    duration: Option<Duration>,
) -> Result<crate::Report, String> {
    let upstream = config.upstream.clone();
    let refuse = config.refuse_default_replication_factor;
    let dialect = match config.dialect {
        Dialect::Kafka => "",
        Dialect::KipDraft => "; clients speak the KIP draft on api key 88",
    };
    let proxy = Proxy::bind(listen, config).await?;
    let refused = proxy.config.faults.refused();
    for (node_id, upstream, own) in proxy.broker_listeners() {
        eprintln!("streamspec proxy: {own} -> broker {node_id} at {upstream}");
    }
    let caps: Vec<String> = proxy
        .config
        .version_caps
        .iter()
        .filter(|(key, _)| !refused.contains(key))
        .map(|(key, max)| format!("{key}<={max}"))
        .collect();
    eprintln!(
        "streamspec proxy: {} -> {upstream}; versions capped: {}; default replication factor {}{dialect}; {}",
        proxy.address(),
        if caps.is_empty() {
            "none".to_owned()
        } else {
            caps.join(", ")
        },
        if refuse { "refused" } else { "forwarded" },
        proxy.config.faults.describe()
    );
    let observer = proxy.observer();
    // Read beside serving: clients are not kept waiting on a slow broker's configs.
    let reading = {
        let observer = observer.clone();
        let upstream = upstream.clone();
        tokio::spawn(async move {
            observer.record_broker_configs(upstream_broker_configs(&upstream).await);
        })
    };
    let address = proxy.address();
    let capture = proxy.config.capture;
    let until = async {
        match duration {
            Some(duration) => tokio::time::sleep(duration).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        () = proxy.serve() => {}
        () = until => {}
        caught = tokio::signal::ctrl_c() => {
            caught.map_err(|error| format!("cannot catch Ctrl-C: {error}"))?;
            eprintln!("\nstreamspec proxy: stopped by Ctrl-C");
        }
    }
    observer.finish();
    reading.abort();
    if capture {
        if let Some(missing) = observer.broker_configs_missing() {
            eprintln!(
                "streamspec proxy: the captures do not record the configs of {upstream} ({missing}): a replay of them assumes the test broker's timing"
            );
        }
        for written in observer.capture() {
            match written {
                Ok(path) => eprintln!("streamspec proxy: captured {}", path.display()),
                Err(error) => eprintln!("streamspec proxy: not captured: {error}"),
            }
        }
    }
    Ok(observer.report(&address))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire_bounds::COMPACT_2_POW_31_MINUS_1;

    #[test]
    fn a_response_announcing_more_than_its_bytes_hold_is_forwarded_undecoded() {
        let pending = Pending {
            api_key: MetadataRequest::KEY,
            version: 12,
            correlation_id: 7,
            answer: Answer::Upstream {
                refused: Vec::new(),
            },
            faults: Faults::default(),
            watched: None,
        };
        let addresses = Addresses {
            main: Advertised {
                host: StrBytes::from_static_str("127.0.0.1"),
                port: 9,
            },
            brokers: BTreeMap::new(),
        };
        // Response header v1 (correlation id, no tagged fields), throttle_time_ms, brokers.
        let response = [&[0, 0, 0, 7, 0, 0, 0, 0, 0][..], &COMPACT_2_POW_31_MINUS_1].concat();
        let config = ProxyConfig::default();
        assert_eq!(
            rewrite_response(&pending, &[], &response, &config, &addresses),
            None
        );
    }

    #[test]
    fn requests_announcing_more_than_their_bytes_hold_are_forwarded_undecoded() {
        // CreateTopics v5 with request header v2 (api key, version, correlation id, null client
        // id, no tagged fields), then its topics.
        let create_topics = [
            &[0, 19, 0, 5, 0, 0, 0, 7, 0xff, 0xff, 0][..],
            &COMPACT_2_POW_31_MINUS_1,
        ]
        .concat();
        assert_eq!(refuse_default_replication_factor(&create_topics, 5), None);
        // Produce v3 with acks 0, request header v1 (no tagged fields): no transactional id,
        // acks, timeout_ms, then its topics; it awaits an answer, as one the proxy cannot read.
        let produce = |topics: [u8; 4]| {
            let head = [
                0, 0, 0, 3, 0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
            ];
            [&head[..], &topics].concat()
        };
        assert!(produce_without_acks(&produce([0, 0, 0, 0]), 3));
        assert!(!produce_without_acks(&produce([0x7f, 0xff, 0xff, 0xff]), 3));
    }
}
