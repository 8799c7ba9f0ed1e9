//! Shared by the tests of `streamspec proxy` judging live traffic: a fake broker on a thread,
//! frames of api 88 and 89 as clients send them, and the proxy started in front of it.
#![allow(dead_code)] // not every test binary uses every helper

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStderr, Command, Stdio};

use bytes::BytesMut;
use kafka_protocol::messages::{RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Encodable, StrBytes};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;
use streamspec_protocol::WireMessage;

pub const BINARY: &str = env!("CARGO_BIN_EXE_streamspec");
pub const VERSION: i16 = 0;
/// The client id of the tests' requests: the fake broker answers the connection that sends it.
pub const CLIENT_ID: &str = "live-test";

pub fn read_frame(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut size = [0u8; 4];
    stream.read_exact(&mut size).ok()?;
    let mut body = vec![0u8; i32::from_be_bytes(size) as usize];
    stream.read_exact(&mut body).ok()?;
    Some(body)
}

pub fn with_size(body: BytesMut) -> Vec<u8> {
    [&(body.len() as i32).to_be_bytes()[..], &body].concat()
}

/// A request frame: header v2 (every version of api 88 and 89 is flexible), then the body.
pub fn request<M: WireMessage>(api_key: i16, correlation_id: i32, message: &M) -> Vec<u8> {
    let mut body = BytesMut::new();
    RequestHeader::default()
        .with_request_api_key(api_key)
        .with_request_api_version(VERSION)
        .with_correlation_id(correlation_id)
        .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)))
        .encode(&mut body, 2)
        .unwrap();
    body.extend_from_slice(&message.encode_to_vec(VERSION).unwrap());
    with_size(body)
}

/// An answer frame: header v1, then the body.
pub fn answer(correlation_id: i32, body_bytes: Vec<u8>) -> Vec<u8> {
    let mut body = BytesMut::new();
    ResponseHeader::default()
        .with_correlation_id(correlation_id)
        .encode(&mut body, 1)
        .unwrap();
    body.extend_from_slice(&body_bytes);
    with_size(body)
}

/// Whether a request frame (without size) comes from [`CLIENT_ID`]: its header holds the client
/// id after api key, version and correlation id, as an int16-sized string in every version.
fn from_test_client(frame: &[u8]) -> bool {
    let id = CLIENT_ID.as_bytes();
    frame.len() >= 10 + id.len()
        && frame[8..10] == (id.len() as i16).to_be_bytes()
        && &frame[10..10 + id.len()] == id
}

/// A broker on a thread that answers each request of the first connection of the tests'
/// client ([`CLIENT_ID`]) with the next of `answers`; other connections (the proxy asking for
/// the brokers at start) are closed unanswered.
pub fn wrong_broker(answers: Vec<Vec<u8>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let mut answers = answers.into_iter();
        while let Ok((mut stream, _)) = listener.accept() {
            let mut request = read_frame(&mut stream);
            if !request.as_deref().is_some_and(from_test_client) {
                continue;
            }
            while let Some(frame) = request {
                let Some(body) = answers.next() else {
                    return;
                };
                let correlation_id = i32::from_be_bytes(frame[4..8].try_into().unwrap());
                stream.write_all(&answer(correlation_id, body)).unwrap();
                request = read_frame(&mut stream);
            }
            return;
        }
    });
    address
}

pub fn heartbeat(member: &str, epoch: i32) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id(member)
        .with_member_epoch(epoch)
}

/// `streamspec proxy` for 3 s in front of `upstream` with `extra` flags, writing traces and its
/// JSON report into `folder`: the child, its stderr after the line naming its address, and that
/// address.
pub fn start_proxy(
    upstream: &str,
    folder: &std::path::Path,
    extra: &[&str],
) -> (Child, BufReader<ChildStderr>, String) {
    let mut proxy = Command::new(BINARY)
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream])
        .args(["--duration", "3s", "--trace-dir"])
        .arg(folder)
        .arg("--json")
        .arg(folder.join("report.json"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(proxy.stderr.take().unwrap());
    // The line naming the proxy's address, after any warning on the upstream's brokers.
    let mut first = String::new();
    loop {
        first.clear();
        stderr.read_line(&mut first).unwrap();
        if first.is_empty() || !first.starts_with("streamspec proxy: the brokers of") {
            break;
        }
    }
    // "streamspec proxy: HOST:PORT -> upstream; ..."
    let listen = first
        .strip_prefix("streamspec proxy: ")
        .and_then(|rest| rest.split_once(" -> "))
        .map(|(listen, _)| listen.to_owned())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    (proxy, stderr, listen)
}

/// An empty folder of its own for a test's traces and report.
pub fn fresh_folder(name: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("streamspec-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&folder).ok();
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// The verdict the JSON report gives the scenario labelled `label`.
pub fn verdict_of(json: &serde_json::Value, label: &str) -> Option<String> {
    json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|outcome| outcome["scenario"] == label)
        .map(|outcome| outcome["verdict"].as_str().unwrap().to_owned())
}
