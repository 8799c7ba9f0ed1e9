//! `streamspec proxy` in front of a fake broker: the answers it changes, exactly, and the ones it
//! passes on.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use bytes::BytesMut;
use kafka_protocol::messages::api_versions_response::ApiVersion;
use kafka_protocol::messages::create_topics_request::CreatableTopic;
use kafka_protocol::messages::create_topics_response::CreatableTopicResult;
use kafka_protocol::messages::describe_cluster_response::DescribeClusterBroker;
use kafka_protocol::messages::find_coordinator_response::Coordinator;
use kafka_protocol::messages::metadata_response::MetadataResponseBroker;
use kafka_protocol::messages::{
    ApiVersionsRequest, ApiVersionsResponse, BrokerId, CreateTopicsRequest, CreateTopicsResponse,
    DescribeClusterRequest, DescribeClusterResponse, FindCoordinatorRequest,
    FindCoordinatorResponse, MetadataRequest, MetadataResponse, RequestHeader, ResponseHeader,
    TopicName,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};
use std::time::{Duration, Instant};

use streamspec::proxy::faults::{Delay, FaultConfig};
use streamspec::proxy::{Proxy, ProxyConfig};
use streamspec_protocol::codes::ERROR_INVALID_REPLICATION_FACTOR;
use streamspec_protocol::frame as wire;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

const UPSTREAM_HOST: &str = "broker-1.internal";
const UPSTREAM_PORT: i32 = 19092;

/// Topic names of the CreateTopics requests the fake broker received.
type Created = Arc<Mutex<Vec<Vec<String>>>>;
/// Api key and correlation id of every request the fake broker received, in order.
type Seen = Arc<Mutex<Vec<(i16, i32)>>>;

fn frame(write: impl FnOnce(&mut BytesMut)) -> Vec<u8> {
    let mut frame = BytesMut::zeroed(4);
    write(&mut frame);
    let size = (frame.len() - 4) as i32;
    frame[..4].copy_from_slice(&size.to_be_bytes());
    frame.to_vec()
}

fn read_frame(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut size = [0u8; 4];
    stream.read_exact(&mut size).ok()?;
    let mut body = vec![0u8; i32::from_be_bytes(size) as usize];
    stream.read_exact(&mut body).ok()?;
    Some(body)
}

fn respond<R: Encodable + HeaderVersion>(
    correlation_id: i32,
    version: i16,
    response: &R,
) -> Vec<u8> {
    frame(|buf| {
        ResponseHeader::default()
            .with_correlation_id(correlation_id)
            .encode(buf, R::header_version(version))
            .unwrap();
        response.encode(buf, version).unwrap();
    })
}

fn api_versions(spans: &[(i16, i16, i16)]) -> ApiVersionsResponse {
    ApiVersionsResponse::default().with_api_keys(
        spans
            .iter()
            .map(|&(key, min, max)| {
                ApiVersion::default()
                    .with_api_key(key)
                    .with_min_version(min)
                    .with_max_version(max)
            })
            .collect(),
    )
}

/// A broker that answers ApiVersions, Metadata, FindCoordinator and CreateTopics (every topic
/// created), advertising itself as UPSTREAM_HOST:UPSTREAM_PORT. Clients here use flexible
/// versions only, whose request header is v2.
fn fake_broker(created: Created) -> String {
    fake_broker_seeing(created, Seen::default())
}

/// The answer of the fake broker to its `count`th heartbeat on a connection: member epoch
/// `count`, so that each answer's bytes differ.
fn heartbeat_answer(correlation_id: i32, count: i32) -> Vec<u8> {
    let answer = StreamsGroupHeartbeatResponse::default().with_member_epoch(count);
    wire::encode_response(correlation_id, 1, &answer).unwrap()
}

/// As `fake_broker`, also answering StreamsGroupHeartbeat v1 (see `heartbeat_answer`) and
/// recording every request in `seen`.
fn fake_broker_seeing(created: Created, seen: Seen) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let created = Arc::clone(&created);
            let seen = Arc::clone(&seen);
            std::thread::spawn(move || {
                let mut heartbeats = 0;
                while let Some(request) = read_frame(&mut stream) {
                    let mut body = &request[..];
                    let header = RequestHeader::decode(&mut body, 2).unwrap();
                    let (id, version) = (header.correlation_id, header.request_api_version);
                    seen.lock().unwrap().push((header.request_api_key, id));
                    let answer = match header.request_api_key {
                        88 => {
                            heartbeats += 1;
                            heartbeat_answer(id, heartbeats)
                        }
                        ApiVersionsRequest::KEY => respond(
                            id,
                            version,
                            &api_versions(&[
                                (18, 0, 4),
                                (3, 0, 13),
                                (19, 2, 7),
                                (88, 0, 1),
                                (89, 0, 1),
                            ]),
                        ),
                        MetadataRequest::KEY => respond(
                            id,
                            version,
                            &MetadataResponse::default().with_brokers(vec![
                                MetadataResponseBroker::default()
                                    .with_node_id(BrokerId(1))
                                    .with_host(StrBytes::from_static_str(UPSTREAM_HOST))
                                    .with_port(UPSTREAM_PORT)
                                    .with_rack(Some(StrBytes::from_static_str("rack-a"))),
                            ]),
                        ),
                        FindCoordinatorRequest::KEY => respond(
                            id,
                            version,
                            &FindCoordinatorResponse::default().with_coordinators(vec![
                                Coordinator::default()
                                    .with_key(StrBytes::from_static_str("g"))
                                    .with_node_id(BrokerId(1))
                                    .with_host(StrBytes::from_static_str(UPSTREAM_HOST))
                                    .with_port(UPSTREAM_PORT),
                            ]),
                        ),
                        CreateTopicsRequest::KEY => {
                            let request = CreateTopicsRequest::decode(&mut body, version).unwrap();
                            let names: Vec<String> = request
                                .topics
                                .iter()
                                .map(|t| t.name.0.to_string())
                                .collect();
                            created.lock().unwrap().push(names);
                            let results = request
                                .topics
                                .into_iter()
                                .map(|topic| {
                                    CreatableTopicResult::default()
                                        .with_name(topic.name)
                                        .with_error_message(None)
                                        .with_num_partitions(topic.num_partitions)
                                        .with_replication_factor(topic.replication_factor)
                                })
                                .collect();
                            respond(
                                id,
                                version,
                                &CreateTopicsResponse::default().with_topics(results),
                            )
                        }
                        other => panic!("the fake broker got api key {other}"),
                    };
                    stream.write_all(&answer).unwrap();
                }
            });
        }
    });
    address
}

/// Starts a proxy in front of `upstream` on a thread of its own; returns its address.
fn start_proxy(upstream: String, version_caps: &[(i16, i16)], refuse: bool) -> String {
    let (address, brokers) = start_proxy_with(ProxyConfig {
        upstream,
        version_caps: version_caps.iter().copied().collect(),
        refuse_default_replication_factor: refuse,
        ..ProxyConfig::default()
    });
    assert_eq!(
        brokers,
        [],
        "one upstream broker gets no listener of its own"
    );
    address
}

/// Each upstream broker of a cluster: node id, its address, the proxy's listener for it.
type BrokerListeners = Vec<(i32, String, String)>;

/// Starts a proxy with `config` on a thread of its own; returns its address and its listeners
/// for the brokers of a cluster.
fn start_proxy_with(mut config: ProxyConfig) -> (String, BrokerListeners) {
    // The fake brokers' answers break the oracle's properties: their live traces go to a
    // scratch folder, never into the source tree (the working directory of a test).
    if config.trace_dir.as_os_str().is_empty() {
        config.trace_dir =
            std::env::temp_dir().join(format!("streamspec-proxy-test-{}", std::process::id()));
    }
    let (address_tx, address_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let proxy = Proxy::bind("127.0.0.1:0", config).await.unwrap();
            address_tx
                .send((proxy.address(), proxy.broker_listeners()))
                .unwrap();
            proxy.serve().await;
        });
    });
    address_rx.recv().unwrap()
}

fn request_frame<R: Request>(correlation_id: i32, version: i16, request: &R) -> Vec<u8> {
    frame(|buf| {
        RequestHeader::default()
            .with_request_api_key(R::KEY)
            .with_request_api_version(version)
            .with_correlation_id(correlation_id)
            .with_client_id(Some(StrBytes::from_static_str("test")))
            .encode(buf, R::header_version(version))
            .unwrap();
        request.encode(buf, version).unwrap();
    })
}

/// Reads the answer to a request of type `R` sent with `correlation_id`.
fn read_answer<R: Request>(
    stream: &mut TcpStream,
    correlation_id: i32,
    version: i16,
) -> R::Response {
    let answer = read_frame(stream).expect("an answer");
    let mut body = &answer[..];
    let header = ResponseHeader::decode(
        &mut body,
        <R::Response as HeaderVersion>::header_version(version),
    )
    .unwrap();
    assert_eq!(header.correlation_id, correlation_id);
    let response = R::Response::decode(&mut body, version).unwrap();
    assert!(body.is_empty(), "{} bytes left over", body.len());
    response
}

fn call<R: Request>(
    stream: &mut TcpStream,
    correlation_id: i32,
    version: i16,
    request: &R,
) -> R::Response {
    stream
        .write_all(&request_frame(correlation_id, version, request))
        .unwrap();
    read_answer::<R>(stream, correlation_id, version)
}

fn port_of(address: &str) -> i32 {
    address.rsplit_once(':').unwrap().1.parse().unwrap()
}

fn topic(name: &str, replication_factor: i16) -> CreatableTopic {
    CreatableTopic::default()
        .with_name(TopicName(StrBytes::from_string(name.to_owned())))
        .with_num_partitions(2)
        .with_replication_factor(replication_factor)
}

#[test]
fn api_versions_advertise_the_capped_max_versions() {
    let proxy = start_proxy(fake_broker(Created::default()), &[(88, 0), (19, 1)], false);
    let mut client = TcpStream::connect(&proxy).unwrap();
    let answer = call(&mut client, 1, 3, &ApiVersionsRequest::default());
    let spans: Vec<(i16, i16, i16)> = answer
        .api_keys
        .iter()
        .map(|api| (api.api_key, api.min_version, api.max_version))
        .collect();
    // 19 (CreateTopics) capped below its min version is no longer offered.
    assert_eq!(spans, [(18, 0, 4), (3, 0, 13), (88, 0, 0), (89, 0, 1)]);
}

#[test]
fn metadata_and_find_coordinator_point_clients_at_the_proxy() {
    let proxy = start_proxy(fake_broker(Created::default()), &[], false);
    let mut client = TcpStream::connect(&proxy).unwrap();
    let metadata = call(&mut client, 1, 12, &MetadataRequest::default());
    let brokers: Vec<(i32, String, i32, Option<String>)> = metadata
        .brokers
        .iter()
        .map(|b| {
            (
                b.node_id.0,
                b.host.to_string(),
                b.port,
                b.rack.as_ref().map(|r| r.to_string()),
            )
        })
        .collect();
    assert_eq!(
        brokers,
        [(
            1,
            "127.0.0.1".to_owned(),
            port_of(&proxy),
            Some("rack-a".to_owned())
        )]
    );
    let coordinator = call(&mut client, 2, 4, &FindCoordinatorRequest::default());
    let coordinators: Vec<(String, i32, String, i32)> = coordinator
        .coordinators
        .iter()
        .map(|c| (c.key.to_string(), c.node_id.0, c.host.to_string(), c.port))
        .collect();
    assert_eq!(
        coordinators,
        [("g".to_owned(), 1, "127.0.0.1".to_owned(), port_of(&proxy))]
    );
}

#[test]
fn create_topics_with_the_default_replication_factor_is_refused_the_rest_forwarded() {
    let created = Created::default();
    let proxy = start_proxy(fake_broker(Arc::clone(&created)), &[], true);
    let mut client = TcpStream::connect(&proxy).unwrap();
    let results = |response: CreateTopicsResponse| -> Vec<(String, i16, Option<String>, i16)> {
        response
            .topics
            .iter()
            .map(|t| {
                (
                    t.name.0.to_string(),
                    t.error_code,
                    t.error_message.as_ref().map(|m| m.to_string()),
                    t.replication_factor,
                )
            })
            .collect()
    };
    let refused = |name: &str| {
        (
            name.to_owned(),
            ERROR_INVALID_REPLICATION_FACTOR,
            Some("Replication factor must be set explicitly".to_owned()),
            -1,
        )
    };

    let mixed = CreateTopicsRequest::default().with_topics(vec![topic("a", -1), topic("b", 3)]);
    assert_eq!(
        results(call(&mut client, 1, 7, &mixed)),
        [("b".to_owned(), 0, None, 3), refused("a")]
    );
    let explicit = CreateTopicsRequest::default().with_topics(vec![topic("c", 1)]);
    assert_eq!(
        results(call(&mut client, 2, 7, &explicit)),
        [("c".to_owned(), 0, None, 1)]
    );
    // Pipelined: the proxy's own answer waits for the broker's answer before it.
    let only_default = CreateTopicsRequest::default().with_topics(vec![topic("d", -1)]);
    client
        .write_all(&request_frame(3, 12, &MetadataRequest::default()))
        .unwrap();
    client
        .write_all(&request_frame(4, 7, &only_default))
        .unwrap();
    assert_eq!(
        read_answer::<MetadataRequest>(&mut client, 3, 12)
            .brokers
            .len(),
        1
    );
    assert_eq!(
        results(read_answer::<CreateTopicsRequest>(&mut client, 4, 7)),
        [refused("d")]
    );
    assert_eq!(
        *created.lock().unwrap(),
        [vec!["b".to_owned()], vec!["c".to_owned()]]
    );
}

#[test]
fn without_the_flag_the_default_replication_factor_is_forwarded() {
    let created = Created::default();
    let proxy = start_proxy(fake_broker(Arc::clone(&created)), &[], false);
    let mut client = TcpStream::connect(&proxy).unwrap();
    let request = CreateTopicsRequest::default().with_topics(vec![topic("a", -1)]);
    let answer = call(&mut client, 1, 7, &request);
    assert_eq!(answer.topics[0].error_code, 0);
    assert_eq!(*created.lock().unwrap(), [vec!["a".to_owned()]]);
}

#[test]
fn garbage_from_a_client_closes_its_connection_and_the_proxy_serves_on() {
    let proxy = start_proxy(fake_broker(Created::default()), &[], true);
    let mut bad = TcpStream::connect(&proxy).unwrap();
    bad.write_all(&[0x7f, 0xff, 0xff, 0xff, 1, 2, 3]).unwrap();
    let mut rest = Vec::new();
    bad.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    assert_eq!(
        bad.read_to_end(&mut rest).unwrap(),
        0,
        "closed without an answer"
    );
    let mut good = TcpStream::connect(&proxy).unwrap();
    assert_eq!(
        call(&mut good, 1, 3, &ApiVersionsRequest::default())
            .api_keys
            .len(),
        5
    );
}

/// A proxy applying `faults` in front of a fake broker that records what it receives.
fn faulty_proxy(faults: FaultConfig) -> (String, Seen) {
    let seen = Seen::default();
    let upstream = fake_broker_seeing(Created::default(), Arc::clone(&seen));
    let (proxy, _) = start_proxy_with(ProxyConfig {
        upstream,
        faults,
        ..ProxyConfig::default()
    });
    // What the proxy asked at start for the upstream's brokers is its own, not a client's.
    seen.lock().unwrap().clear();
    (proxy, seen)
}

fn heartbeat_frame(correlation_id: i32) -> Vec<u8> {
    let request = StreamsGroupHeartbeatRequest::default();
    wire::encode_request(correlation_id, Some("test"), 1, &request).unwrap()
}

/// Sends a heartbeat; returns its answer frame (without its size prefix), none when the proxy
/// closed the connection instead.
fn heartbeat(client: &mut TcpStream, correlation_id: i32) -> Option<Vec<u8>> {
    client.write_all(&heartbeat_frame(correlation_id)).unwrap();
    read_frame(client)
}

fn without_size_prefix(frame: Vec<u8>) -> Vec<u8> {
    frame[4..].to_vec()
}

/// Every wait on the proxy here ends within this.
const PATIENCE: Duration = Duration::from_secs(5);

fn client_of(proxy: &str) -> TcpStream {
    let client = TcpStream::connect(proxy).unwrap();
    client.set_read_timeout(Some(PATIENCE)).unwrap();
    client
}

/// Asserts that the proxy closed `client` with nothing more to read.
fn assert_closed(client: &mut TcpStream) {
    let mut rest = Vec::new();
    assert_eq!(
        client.read_to_end(&mut rest).unwrap(),
        0,
        "closed without an answer"
    );
}

#[test]
fn a_dropped_heartbeat_reaches_the_broker_and_its_client_loses_the_connection() {
    let (proxy, seen) = faulty_proxy(FaultConfig {
        drop: 1.0,
        ..FaultConfig::default()
    });
    let mut client = client_of(&proxy);
    assert_eq!(
        call(&mut client, 1, 3, &ApiVersionsRequest::default())
            .api_keys
            .len(),
        5
    );
    assert_eq!(heartbeat(&mut client, 2), None);
    assert_closed(&mut client);
    assert_eq!(*seen.lock().unwrap(), [(18, 1), (88, 2)]);
}

#[test]
fn a_duplicated_heartbeat_reaches_the_broker_twice_and_its_client_gets_the_first_answer() {
    let (proxy, seen) = faulty_proxy(FaultConfig {
        duplicate: 1.0,
        ..FaultConfig::default()
    });
    let mut client = client_of(&proxy);
    assert_eq!(
        heartbeat(&mut client, 5),
        Some(without_size_prefix(heartbeat_answer(5, 1)))
    );
    // The broker's second answer (epoch 2) was discarded: the next exchange gets its first.
    assert_eq!(
        heartbeat(&mut client, 6),
        Some(without_size_prefix(heartbeat_answer(6, 3)))
    );
    client
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut extra = [0u8; 1];
    let error = client.read(&mut extra).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
        "nothing more to read: {error}"
    );
    assert_eq!(*seen.lock().unwrap(), [(88, 5), (88, 5), (88, 6), (88, 6)]);
}

#[test]
fn a_delayed_heartbeat_answer_is_held_and_the_answers_after_it_keep_their_order() {
    let hold = Duration::from_millis(300);
    let (proxy, seen) = faulty_proxy(FaultConfig {
        delay: Some(Delay {
            fraction: 1.0,
            duration: hold,
        }),
        ..FaultConfig::default()
    });
    let mut client = client_of(&proxy);
    let started = Instant::now();
    // Pipelined: the ApiVersions answer waits behind the held heartbeat answer.
    client.write_all(&heartbeat_frame(1)).unwrap();
    client
        .write_all(&request_frame(2, 3, &ApiVersionsRequest::default()))
        .unwrap();
    assert_eq!(
        read_frame(&mut client),
        Some(without_size_prefix(heartbeat_answer(1, 1)))
    );
    assert_eq!(
        read_answer::<ApiVersionsRequest>(&mut client, 2, 3)
            .api_keys
            .len(),
        5
    );
    let elapsed = started.elapsed();
    assert!(elapsed >= hold, "answered after {elapsed:?}");
    assert!(elapsed < PATIENCE, "answered after {elapsed:?}");
    assert_eq!(*seen.lock().unwrap(), [(88, 1), (18, 2)]);
}

/// Correlation ids among 1..=20 that the broker received twice.
fn duplicated_ids(seen: &Seen) -> Vec<i32> {
    let seen = seen.lock().unwrap();
    (1..=20)
        .filter(|id| seen.iter().filter(|(_, seen_id)| seen_id == id).count() == 2)
        .collect()
}

#[test]
fn a_fault_seed_pins_which_heartbeats_are_faulted_on_each_connection() {
    let faults = FaultConfig {
        duplicate: 0.3,
        fault_seed: 7,
        ..FaultConfig::default()
    };
    let (proxy, seen) = faulty_proxy(faults.clone());
    let mut first = client_of(&proxy);
    for id in 1..=20 {
        assert!(heartbeat(&mut first, id).is_some());
    }
    assert_eq!(duplicated_ids(&seen), FIRST_CONNECTION_DUPLICATES);
    // The second connection draws a stream of its own.
    seen.lock().unwrap().clear();
    let mut second = client_of(&proxy);
    for id in 1..=20 {
        assert!(heartbeat(&mut second, id).is_some());
    }
    assert_eq!(duplicated_ids(&seen), SECOND_CONNECTION_DUPLICATES);
    // The same seed on a fresh proxy faults the same heartbeats again.
    let (proxy, seen) = faulty_proxy(faults);
    let mut again = client_of(&proxy);
    for id in 1..=20 {
        assert!(heartbeat(&mut again, id).is_some());
    }
    assert_eq!(duplicated_ids(&seen), FIRST_CONNECTION_DUPLICATES);
}

/// Of heartbeats 1..=20 at `--duplicate 0.3 --fault-seed 7`, those duplicated on the proxy's
/// first and second connection: SplitMix64 from `sub_seed(7, connection)`, the second of each
/// heartbeat's three draws below 0.3 (checked against an independent SplitMix64).
const FIRST_CONNECTION_DUPLICATES: [i32; 6] = [1, 4, 11, 15, 18, 19];
const SECOND_CONNECTION_DUPLICATES: [i32; 4] = [2, 6, 14, 18];

#[test]
fn a_refused_api_is_not_advertised_and_a_request_of_it_closes_the_connection_unanswered() {
    let (proxy, seen) = faulty_proxy(FaultConfig {
        refused_apis: vec![89],
        ..FaultConfig::default()
    });
    let mut client = client_of(&proxy);
    let answer = call(&mut client, 1, 3, &ApiVersionsRequest::default());
    let keys: Vec<i16> = answer.api_keys.iter().map(|api| api.api_key).collect();
    assert_eq!(keys, [18, 3, 19, 88]);
    // Pipelined: the answer due before the refused request arrives, then the connection closes,
    // and the request after it never reaches the broker.
    let describe = wire::encode_request(
        3,
        Some("test"),
        0,
        &streamspec_protocol::kafka::StreamsGroupDescribeRequest::default(),
    )
    .unwrap();
    client.write_all(&heartbeat_frame(2)).unwrap();
    client.write_all(&describe).unwrap();
    client.write_all(&heartbeat_frame(4)).unwrap();
    assert_eq!(
        read_frame(&mut client),
        Some(without_size_prefix(heartbeat_answer(2, 1)))
    );
    assert_closed(&mut client);
    assert_eq!(*seen.lock().unwrap(), [(18, 1), (88, 2)]);
}

/// Three brokers of one cluster (node ids 1, 2, 3), each advertising its real address. Each
/// answers Metadata (every broker; its own node id as cluster id, to tell who answered),
/// FindCoordinator (node 2 for every key) and DescribeCluster (every broker, or for endpoint
/// type 2 one controller at 127.0.0.1:1). Returns their addresses.
fn fake_cluster() -> Vec<String> {
    let listeners: Vec<TcpListener> = (0..3)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let addresses: Vec<String> = listeners
        .iter()
        .map(|listener| listener.local_addr().unwrap().to_string())
        .collect();
    let nodes: Vec<(i32, String, i32)> = listeners
        .iter()
        .enumerate()
        .map(|(index, listener)| {
            let local = listener.local_addr().unwrap();
            (
                index as i32 + 1,
                local.ip().to_string(),
                i32::from(local.port()),
            )
        })
        .collect();
    for (listener, (node_id, _, _)) in listeners.into_iter().zip(nodes.clone()) {
        let nodes = nodes.clone();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let nodes = nodes.clone();
                std::thread::spawn(move || {
                    while let Some(request) = read_frame(&mut stream) {
                        let mut body = &request[..];
                        let header = RequestHeader::decode(&mut body, 2).unwrap();
                        let (id, version) = (header.correlation_id, header.request_api_version);
                        let answer = match header.request_api_key {
                            ApiVersionsRequest::KEY => respond(
                                id,
                                version,
                                &api_versions(&[(18, 0, 4), (3, 0, 13), (10, 0, 6), (60, 0, 2)]),
                            ),
                            MetadataRequest::KEY => respond(
                                id,
                                version,
                                &MetadataResponse::default()
                                    .with_cluster_id(Some(StrBytes::from_string(format!(
                                        "node-{node_id}"
                                    ))))
                                    .with_brokers(
                                        nodes
                                            .iter()
                                            .map(|(node, host, port)| {
                                                MetadataResponseBroker::default()
                                                    .with_node_id(BrokerId(*node))
                                                    .with_host(StrBytes::from_string(host.clone()))
                                                    .with_port(*port)
                                            })
                                            .collect(),
                                    ),
                            ),
                            FindCoordinatorRequest::KEY => {
                                let (_, host, port) = &nodes[1];
                                respond(
                                    id,
                                    version,
                                    &FindCoordinatorResponse::default().with_coordinators(vec![
                                        Coordinator::default()
                                            .with_key(StrBytes::from_static_str("g"))
                                            .with_node_id(BrokerId(2))
                                            .with_host(StrBytes::from_string(host.clone()))
                                            .with_port(*port),
                                    ]),
                                )
                            }
                            DescribeClusterRequest::KEY => {
                                let request =
                                    DescribeClusterRequest::decode(&mut body, version).unwrap();
                                let brokers = match request.endpoint_type {
                                    2 => vec![(1, "127.0.0.1".to_owned(), 1)],
                                    _ => nodes.clone(),
                                };
                                respond(
                                    id,
                                    version,
                                    &DescribeClusterResponse::default()
                                        .with_endpoint_type(request.endpoint_type)
                                        .with_brokers(
                                            brokers
                                                .into_iter()
                                                .map(|(node, host, port)| {
                                                    DescribeClusterBroker::default()
                                                        .with_broker_id(BrokerId(node))
                                                        .with_host(StrBytes::from_string(host))
                                                        .with_port(port)
                                                })
                                                .collect(),
                                        ),
                                )
                            }
                            other => panic!("the fake broker got api key {other}"),
                        };
                        stream.write_all(&answer).unwrap();
                    }
                });
            }
        });
    }
    addresses
}

fn host_port(address: &str) -> (String, i32) {
    let (host, port) = address.rsplit_once(':').unwrap();
    (host.to_owned(), port.parse().unwrap())
}

#[test]
fn in_front_of_a_cluster_each_broker_gets_a_listener_and_answers_name_them() {
    let upstream = fake_cluster();
    let (proxy, listeners) = start_proxy_with(ProxyConfig {
        upstream: upstream[0].clone(),
        ..ProxyConfig::default()
    });
    let (proxy_host, proxy_port) = host_port(&proxy);
    assert_eq!(proxy_host, "127.0.0.1");
    // One listener per broker, in node id order, on the proxy's host, each its own port.
    let nodes: Vec<(i32, String)> = listeners
        .iter()
        .map(|(node, to, _)| (*node, to.clone()))
        .collect();
    assert_eq!(
        nodes,
        [
            (1, upstream[0].clone()),
            (2, upstream[1].clone()),
            (3, upstream[2].clone())
        ]
    );
    let own: Vec<(String, i32)> = listeners.iter().map(|(_, _, own)| host_port(own)).collect();
    let mut ports: Vec<i32> = own.iter().map(|(_, port)| *port).collect();
    ports.push(proxy_port);
    ports.sort_unstable();
    ports.dedup();
    assert_eq!(ports.len(), 4, "{own:?} {proxy_port}");
    assert!(own.iter().all(|(host, _)| host == "127.0.0.1"));

    let mut client = TcpStream::connect(&proxy).unwrap();
    let metadata = call(&mut client, 1, 12, &MetadataRequest::default());
    assert_eq!(metadata.cluster_id.as_ref().unwrap().as_str(), "node-1");
    let brokers: Vec<(i32, (String, i32))> = metadata
        .brokers
        .iter()
        .map(|b| (b.node_id.0, (b.host.to_string(), b.port)))
        .collect();
    assert_eq!(
        brokers,
        [
            (1, own[0].clone()),
            (2, own[1].clone()),
            (3, own[2].clone())
        ]
    );
    let coordinator = call(&mut client, 2, 4, &FindCoordinatorRequest::default());
    let coordinators: Vec<(i32, String, i32)> = coordinator
        .coordinators
        .iter()
        .map(|c| (c.node_id.0, c.host.to_string(), c.port))
        .collect();
    assert_eq!(coordinators, [(2, own[1].0.clone(), own[1].1)]);
    let described = |endpoint_type: i8, client: &mut TcpStream| -> Vec<(i32, String, i32)> {
        let request = DescribeClusterRequest::default().with_endpoint_type(endpoint_type);
        call(client, 3, 2, &request)
            .brokers
            .iter()
            .map(|b| (b.broker_id.0, b.host.to_string(), b.port))
            .collect()
    };
    assert_eq!(
        described(1, &mut client),
        [
            (1, own[0].0.clone(), own[0].1),
            (2, own[1].0.clone(), own[1].1),
            (3, own[2].0.clone(), own[2].1)
        ]
    );
    // Controllers are not the proxy's to stand in for.
    assert_eq!(described(2, &mut client), [(1, "127.0.0.1".to_owned(), 1)]);

    // A connection on a broker's listener reaches that broker.
    for (node, _, own) in &listeners {
        let mut client = TcpStream::connect(own).unwrap();
        let metadata = call(&mut client, 1, 12, &MetadataRequest::default());
        assert_eq!(
            metadata.cluster_id.as_ref().unwrap().to_string(),
            format!("node-{node}")
        );
    }
}
