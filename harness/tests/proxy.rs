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
use kafka_protocol::messages::find_coordinator_response::Coordinator;
use kafka_protocol::messages::metadata_response::MetadataResponseBroker;
use kafka_protocol::messages::{
    ApiVersionsRequest, ApiVersionsResponse, BrokerId, CreateTopicsRequest, CreateTopicsResponse,
    FindCoordinatorRequest, FindCoordinatorResponse, MetadataRequest, MetadataResponse,
    RequestHeader, ResponseHeader, TopicName,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};
use streamspec::proxy::{Proxy, ProxyConfig};
use streamspec_protocol::codes::ERROR_INVALID_REPLICATION_FACTOR;

const UPSTREAM_HOST: &str = "broker-1.internal";
const UPSTREAM_PORT: i32 = 19092;

/// Topic names of the CreateTopics requests the fake broker received.
type Created = Arc<Mutex<Vec<Vec<String>>>>;

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

/// A broker that answers ApiVersions, Metadata, FindCoordinator and CreateTopics (every topic
/// created), advertising itself as UPSTREAM_HOST:UPSTREAM_PORT. Clients here use flexible
/// versions only, whose request header is v2.
fn fake_broker(created: Created) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let created = Arc::clone(&created);
            std::thread::spawn(move || {
                while let Some(request) = read_frame(&mut stream) {
                    let mut body = &request[..];
                    let header = RequestHeader::decode(&mut body, 2).unwrap();
                    let (id, version) = (header.correlation_id, header.request_api_version);
                    let answer = match header.request_api_key {
                        ApiVersionsRequest::KEY => respond(
                            id,
                            version,
                            &ApiVersionsResponse::default().with_api_keys(
                                [(18, 0, 4), (3, 0, 13), (19, 2, 7), (88, 0, 1), (89, 0, 1)]
                                    .into_iter()
                                    .map(|(key, min, max)| {
                                        ApiVersion::default()
                                            .with_api_key(key)
                                            .with_min_version(min)
                                            .with_max_version(max)
                                    })
                                    .collect(),
                            ),
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
    let config = ProxyConfig {
        upstream,
        version_caps: version_caps.iter().copied().collect(),
        refuse_default_replication_factor: refuse,
        ..ProxyConfig::default()
    };
    let (address_tx, address_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let proxy = Proxy::bind("127.0.0.1:0", config).await.unwrap();
            address_tx.send(proxy.address()).unwrap();
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
