//! Targets that misbehave on the wire: each is a small server on loopback, and `streamspec` must
//! end against it with exit 2, one clear line on stderr and within a bound, never a panic or hang.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use kafka_protocol::messages::api_versions_response::{ApiVersion, FinalizedFeatureKey};
use kafka_protocol::messages::{ApiVersionsResponse, RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::StreamsGroupDescribeResponse;
use streamspec_protocol::WireMessage;

/// Far above what any of these runs needs; only a hang gets near it.
const NO_HANG_BOUND: Duration = Duration::from_secs(20);
/// The `--timeout-ms` every run gets.
const TIMEOUT_MS: &str = "500";

/// How a server answers each connection.
type Behaviour = fn(TcpStream);

/// Serves every connection on 127.0.0.1 with `behaviour`, each on a thread of its own; returns
/// the address. The threads end with the test process.
fn serve(behaviour: Behaviour) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("a bound address").to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || behaviour(stream));
        }
    });
    address
}

/// Reads one request frame; its header and version, or `None` once the client has gone.
fn read_request(stream: &mut TcpStream) -> Option<(RequestHeader, Vec<u8>)> {
    let mut size = [0u8; 4];
    stream.read_exact(&mut size).ok()?;
    let mut frame = vec![0u8; i32::from_be_bytes(size).clamp(0, 1 << 20) as usize];
    stream.read_exact(&mut frame).ok()?;
    // ApiVersions requests use request header v2 from version 3 on, as streamspec sends.
    let mut body = &frame[..];
    let header = RequestHeader::decode(&mut body, 2).ok()?;
    Some((header, body.to_vec()))
}

/// The ApiVersions answer of a broker with the Streams rebalance protocol on: keys 88 and 89 at
/// versions 0 to 1, or without them.
fn api_versions(with_streams: bool) -> ApiVersionsResponse {
    api_versions_lacking(with_streams, None)
}

/// [`api_versions`] without api key `lacking`.
fn api_versions_lacking(with_streams: bool, lacking: Option<i16>) -> ApiVersionsResponse {
    let mut keys = vec![
        (18, 0, 4),
        (10, 0, 6),
        (3, 0, 13),
        (19, 0, 7),
        (20, 0, 6),
        (32, 0, 4),
        (44, 0, 1),
    ];
    if with_streams {
        keys.extend([(88, 0, 1), (89, 0, 1)]);
    }
    keys.retain(|(key, ..)| Some(*key) != lacking);
    ApiVersionsResponse::default()
        .with_api_keys(
            keys.into_iter()
                .map(|(key, min, max)| {
                    ApiVersion::default()
                        .with_api_key(key)
                        .with_min_version(min)
                        .with_max_version(max)
                })
                .collect(),
        )
        .with_finalized_features(vec![
            FinalizedFeatureKey::default()
                .with_name(StrBytes::from_static_str("metadata.version"))
                .with_min_version_level(33)
                .with_max_version_level(33),
            FinalizedFeatureKey::default()
                .with_name(StrBytes::from_static_str("streams.version"))
                .with_min_version_level(1)
                .with_max_version_level(1),
        ])
}

/// A response frame: size, response header v0 (as ApiVersions answers always have), body.
fn response_frame(correlation_id: i32, version: i16, body: &ApiVersionsResponse) -> Vec<u8> {
    let mut frame = BytesMut::zeroed(4);
    ResponseHeader::default()
        .with_correlation_id(correlation_id)
        .encode(&mut frame, 0)
        .expect("a response header encodes");
    body.encode(&mut frame, version)
        .expect("an ApiVersions response encodes");
    let size = (frame.len() - 4) as i32;
    frame[..4].copy_from_slice(&size.to_be_bytes());
    frame.to_vec()
}

/// Answers ApiVersions as a broker would (with a correlation id shifted by `shift`), then reads
/// and ignores every further request.
fn answer_api_versions_then_ignore(stream: TcpStream, with_streams: bool, shift: i32) {
    answer_api_versions_then(stream, with_streams, shift, |_| None);
}

/// Answers ApiVersions as a broker would (with a correlation id shifted by `shift`), then every
/// further request with the frame `answer` makes of its header, if any.
fn answer_api_versions_then(
    mut stream: TcpStream,
    with_streams: bool,
    shift: i32,
    answer: fn(&RequestHeader) -> Option<Vec<u8>>,
) {
    let Some((header, _)) = read_request(&mut stream) else {
        return;
    };
    let frame = response_frame(
        header.correlation_id + shift,
        header.request_api_version,
        &api_versions(with_streams),
    );
    if stream.write_all(&frame).is_err() {
        return;
    }
    while let Some((header, _)) = read_request(&mut stream) {
        if let Some(frame) = answer(&header) {
            if stream.write_all(&frame).is_err() {
                return;
            }
        }
    }
}

/// The outcome of one run of the binary.
struct Run {
    code: Option<i32>,
    stderr: Vec<String>,
    stdout: String,
    elapsed: Duration,
}

fn streamspec(args: &[&str]) -> Run {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(args)
        .output()
        .expect("the streamspec binary runs");
    let elapsed = started.elapsed();
    assert!(
        elapsed < NO_HANG_BOUND,
        "streamspec {args:?} took {elapsed:?}"
    );
    Run {
        code: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr)
            .lines()
            .map(str::to_owned)
            .collect(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        elapsed,
    }
}

fn check(address: &str) -> Run {
    streamspec(&["check", "--target", address, "--timeout-ms", TIMEOUT_MS])
}

/// Exit 2 and exactly `line` on stderr.
fn assert_refused(run: &Run, line: &str) {
    assert_eq!(run.code, Some(2), "stderr {:?}", run.stderr);
    assert_eq!(run.stderr, [line], "stdout {}", run.stdout);
}

#[test]
fn a_target_that_closes_on_accept() {
    let address = serve(drop);
    assert_refused(
        &check(&address),
        &format!("streamspec: {address} closed the connection while ApiVersions was due"),
    );
}

#[test]
fn a_target_that_answers_garbage() {
    let address = serve(|mut stream| {
        read_request(&mut stream);
        stream.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n").ok();
    });
    // "HTTP" read as a size prefix.
    assert_refused(
        &check(&address),
        &format!("streamspec: {address}: response to ApiVersions: frame of 1213486160 bytes exceeds the limit of 67108864 (its size reads \"HTTP\" as text: is this a Kafka listener?)"),
    );
}

#[test]
fn a_target_that_announces_a_huge_frame() {
    let address = serve(|mut stream| {
        read_request(&mut stream);
        stream.write_all(&[0x7f, 0xff, 0xff, 0xff, 0, 0]).ok();
        while read_request(&mut stream).is_some() {}
    });
    assert_refused(
        &check(&address),
        &format!("streamspec: {address}: response to ApiVersions: frame of 2147483647 bytes exceeds the limit of 67108864"),
    );
}

#[test]
fn a_target_that_answers_with_a_truncated_header() {
    let address = serve(|mut stream| {
        read_request(&mut stream);
        stream.write_all(&[0, 0, 0, 2, 0xde, 0xad]).ok();
        while read_request(&mut stream).is_some() {}
    });
    assert_refused(
        &check(&address),
        &format!("streamspec: {address}: response to ApiVersions: malformed header: Not enough bytes remaining in buffer to read value (requested 4 but only 2 available)"),
    );
}

#[test]
fn a_target_that_answers_with_an_array_length_bomb() {
    let address = serve(|mut stream| {
        let Some((header, _)) = read_request(&mut stream) else {
            return;
        };
        // Correlation id, error code 0, then a compact array claiming 2^32 - 2 entries.
        let mut frame = vec![0, 0, 0, 11];
        frame.extend(header.correlation_id.to_be_bytes());
        frame.extend([0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        stream.write_all(&frame).ok();
        while read_request(&mut stream).is_some() {}
    });
    assert_refused(
        &check(&address),
        &format!("streamspec: {address}: response to ApiVersions: malformed body: ApiVersionsResponse v3 .api_keys: count 4294967294 of at least 7 bytes each exceeds the 0 bytes left"),
    );
}

#[test]
fn a_target_that_answers_with_another_correlation_id() {
    let address = serve(|stream| answer_api_versions_then_ignore(stream, true, 1000));
    assert_refused(
        &check(&address),
        &format!("streamspec: {address}: response to ApiVersions carries correlation id 1001, expected 1"),
    );
}

#[test]
fn a_target_without_the_streams_apis() {
    let address = serve(|stream| answer_api_versions_then_ignore(stream, false, 0));
    assert_refused(
        &check(&address),
        &format!(
            "streamspec: {address} does not offer api key 88: is the Streams rebalance protocol enabled?"
        ),
    );
}

#[test]
fn a_target_without_an_api_every_run_calls() {
    // The Streams APIs, but no IncrementalAlterConfigs: a request of it would close the
    // connection and read as a target that stopped answering.
    let address = serve(|mut stream| {
        let Some((header, _)) = read_request(&mut stream) else {
            return;
        };
        let versions = api_versions_lacking(true, Some(44));
        let frame = response_frame(header.correlation_id, header.request_api_version, &versions);
        if stream.write_all(&frame).is_ok() {
            while read_request(&mut stream).is_some() {}
        }
    });
    let refusal = format!(
        "streamspec: {address} does not offer IncrementalAlterConfigs (api key 44), which every run calls (group configs a scenario sets)"
    );
    assert_refused(&check(&address), &refusal);
    assert_refused(
        &streamspec(&[
            "fuzz",
            "--target",
            &address,
            "--timeout-ms",
            TIMEOUT_MS,
            "--duration",
            "2s",
        ]),
        &refusal,
    );
    // doctor shows what the broker offers, and which runs would be refused and why.
    assert_doctor_shows_a_missing_api(
        &address,
        "IncrementalAlterConfigs   44  MISSING  group configs a scenario sets",
        &format!("check, fuzz and replay refuse this broker before anything runs:\n  {address} does not offer IncrementalAlterConfigs (api key 44), which every run calls (group configs a scenario sets)"),
    );
}

/// `doctor` at `address`: exit 1, its API table with `row`, and last `no scenario can run:
/// {why}`.
fn assert_doctor_shows_a_missing_api(address: &str, row: &str, why: &str) {
    let run = streamspec(&["doctor", "--target", address, "--timeout-ms", TIMEOUT_MS]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout.contains(&format!("\n  {row}\n")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with(&format!("\nno scenario can run: {why}\n")),
        "{}",
        run.stdout
    );
}

/// A StreamsGroupDescribe answer frame (response header v1) naming one group with `error_code`.
fn describe_answer(header: &RequestHeader, error_code: i16) -> Option<Vec<u8>> {
    if header.request_api_key != 89 {
        return None;
    }
    let response =
        StreamsGroupDescribeResponse::default().with_groups(vec![DescribedGroup::default()
            .with_group_id("streamspec-preflight")
            .with_error_code(error_code)]);
    let body = response
        .encode_to_vec(header.request_api_version)
        .expect("a describe answer encodes");
    let mut frame = ((body.len() + 5) as i32).to_be_bytes().to_vec();
    frame.extend(header.correlation_id.to_be_bytes());
    frame.push(0);
    frame.extend(body);
    Some(frame)
}

/// UNSUPPORTED_VERSION, as Kafka 4.4.0 answers with `streams` left out of
/// group.coordinator.rebalance.protocols.
fn describe_unsupported(header: &RequestHeader) -> Option<Vec<u8>> {
    describe_answer(header, 35)
}

#[test]
fn a_target_with_the_streams_protocol_off() {
    let address = serve(|stream| answer_api_versions_then(stream, true, 0, describe_unsupported));
    let reason = format!(
        "{address} has the Streams rebalance protocol off: it answers StreamsGroupDescribe 35 UNSUPPORTED_VERSION (on Kafka, group.coordinator.rebalance.protocols must include streams)"
    );
    assert_refused(&check(&address), &format!("streamspec: {reason}"));
    assert_doctor_runs_nothing(&address, &[], &reason);
}

/// doctor (with `flags`) at `address` exits 1, ending on `reason` for why no scenario can run.
fn assert_doctor_runs_nothing(address: &str, flags: &[&str], reason: &str) {
    let mut args = vec!["doctor", "--target", address, "--timeout-ms", TIMEOUT_MS];
    args.extend_from_slice(flags);
    let run = streamspec(&args);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout
            .ends_with(&format!("\nno scenario can run: {reason}\n")),
        "{}",
        run.stdout
    );
}

#[test]
fn doctor_shows_a_target_without_the_streams_apis() {
    let address = serve(|stream| answer_api_versions_then_ignore(stream, false, 0));
    assert_doctor_shows_a_missing_api(
        &address,
        "StreamsGroupHeartbeat     88  MISSING  the protocol under test",
        &format!("{address} does not offer api key 88: is the Streams rebalance protocol enabled?"),
    );
}

#[test]
fn a_target_that_answers_too_late() {
    let address = serve(|mut stream| {
        let Some((header, _)) = read_request(&mut stream) else {
            return;
        };
        std::thread::sleep(Duration::from_millis(1_500));
        let frame = response_frame(
            header.correlation_id,
            header.request_api_version,
            &api_versions(true),
        );
        stream.write_all(&frame).ok();
    });
    assert_refused(
        &check(&address),
        &format!("streamspec: {address} did not answer ApiVersions within 500 ms"),
    );
}

/// `check`, one scenario at a time, against a target that answers ApiVersions and then nothing
/// usable: the breaker stops the run once exactly its limit of scenarios failed that way. Exit 2,
/// the run's first line and then `streamspec: {lost}` alone on stderr, the JSON report's verdict
/// target_lost with that line, all within a bound.
fn assert_check_loses_the_target(address: &str, lost: &str, hint: &str) {
    let json_path = std::env::temp_dir().join(format!(
        "streamspec-lost-target-{}-{}.json",
        std::process::id(),
        address.replace(':', "-")
    ));
    let run = streamspec(&[
        "check",
        "--target",
        address,
        "--timeout-ms",
        TIMEOUT_MS,
        "--jobs",
        "1",
        "--json",
        json_path.to_str().unwrap(),
    ]);
    // The report says what the exit code says, with the breaker's line.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    std::fs::remove_file(&json_path).ok();
    assert_eq!(
        (&json["verdict"], &json["exit_code"], &json["passed"]),
        (
            &serde_json::json!("target_lost"),
            &serde_json::json!(2),
            &serde_json::json!(false)
        )
    );
    let scenarios = streamspec::scenario::catalogue().len();
    let breaker_line = format!("{lost}; {} scenarios not run{hint}", scenarios - 3);
    assert_eq!(json["target_lost"].as_str(), Some(breaker_line.as_str()));
    // The three that tripped the breaker carry the same hint, if any.
    let tripped: Vec<&str> = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|scenario| scenario["reason"].as_str())
        .filter(|reason| !reason.starts_with("not run: "))
        .collect();
    assert_eq!(tripped.len(), 3, "{tripped:?}");
    assert!(
        tripped.iter().all(|reason| reason.ends_with(hint)),
        "{tripped:?}"
    );
    assert_eq!(run.code, Some(2), "stderr {:?}", run.stderr);
    assert_eq!(run.stderr.len(), 1, "{:?}", run.stderr);
    assert!(
        run.stderr[0].starts_with(&format!(
            "streamspec check --target {address}: {scenarios} scenarios, run id "
        )),
        "{:?}",
        run.stderr
    );
    // On the console, the three scenarios that ran, each with its error, then the counts JUnit
    // and JSON give (every scenario an error: the three that tripped the breaker, and the rest
    // not run), with the breaker's line as the verdict.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "3 scenarios ran before the target was lost; the lines below judge those alone:"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|line| line.starts_with("ERROR "))
            .count(),
        3,
        "{}",
        run.stdout
    );
    let summary = format!(
        " failing, 0 not checked) in {scenarios} scenarios: 0 passed, 0 failed, {scenarios} errors ({} not run), 0 timed out, 0 skipped, 0 preconditions not met, 0 known divergences; TARGET LOST: {breaker_line}\n",
        scenarios - 3
    );
    assert!(run.stdout.ends_with(&summary), "{}", run.stdout);
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
}

#[test]
fn check_against_a_target_that_goes_silent_after_api_versions() {
    let address = serve(|stream| answer_api_versions_then_ignore(stream, true, 0));
    assert_check_loses_the_target(
        &address,
        &format!("{address} stopped answering: 3 scenarios in a row got no answer (last: {address} did not answer FindCoordinator within 500 ms)"),
        // Lost to timeouts of 500 ms, less than a broker may need.
        "; hint: --timeout-ms 500 may be too short for this target: a wait can hold a heartbeat round trip behind Kafka's own (a topic's creation, a coordinator loading, an initial rebalance delay of 3 s); run again with --timeout-ms 5000 or more (the default is 15000)",
    );
}

#[test]
fn check_against_a_target_that_announces_2_pow_31_minus_1_coordinators() {
    let address = serve(|stream| {
        answer_api_versions_then(stream, true, 0, |header| {
            // FindCoordinator v4 in 14 bytes: response header v1 (correlation id, no tagged
            // fields), throttle_time_ms, then a compact array announcing 2^31 - 1 coordinators.
            let mut frame = vec![0, 0, 0, 14];
            frame.extend(header.correlation_id.to_be_bytes());
            frame.extend([0, 0, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x08]);
            Some(frame)
        });
    });
    assert_check_loses_the_target(
        &address,
        &format!("{address} answers what cannot be read: 3 scenarios in a row got no answer that could be read (last: {address}: response to FindCoordinator: malformed body: FindCoordinatorResponse v4 .coordinators: count 2147483647 of at least 14 bytes each exceeds the 0 bytes left)"),
        "",
    );
}

#[test]
fn fuzz_against_a_target_that_goes_silent_after_api_versions() {
    let address = serve(|stream| answer_api_versions_then_ignore(stream, true, 0));
    let run = streamspec(&[
        "fuzz",
        "--target",
        &address,
        "--timeout-ms",
        TIMEOUT_MS,
        "--duration",
        "2s",
        "--groups",
        "1",
    ]);
    // A run that cannot be set up ends the campaign as an error of the run (exit 1: an error
    // of any grade fails it); the report says why and that it stopped early.
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let cause = format!("run 0: {address} did not answer FindCoordinator within 500 ms");
    assert!(
        run.stdout.contains(&format!(
            "\nERROR run set-up (set-up, MUST) in fuzz\n  {cause}\n"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!(
            "\nstopped early: a run could not be carried out ({cause}); a campaign stops at the first such run\n"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .lines()
            .any(|line| line.ends_with("; FAILED (1 fail the run)")),
        "{}",
        run.stdout
    );
}

/// GROUP_ID_NOT_FOUND, as a broker with the Streams protocol on answers for a group nobody uses.
fn describe_not_found(header: &RequestHeader) -> Option<Vec<u8>> {
    describe_answer(header, 69)
}

/// `--dialect kip-draft` against a broker that does not answer the draft's heartbeat (as Kafka
/// 4.x closes the connection on it) is refused before anything runs, and doctor says so: both
/// had gone on, check to end TARGET LOST and doctor to predict scenarios that would run.
#[test]
fn a_target_that_does_not_speak_the_draft_is_refused_under_dialect_kip_draft() {
    let address = serve(|stream| answer_api_versions_then(stream, true, 0, describe_not_found));
    let reason = format!(
        "{address} does not speak the KIP draft's dialect of StreamsGroupHeartbeat (--dialect kip-draft): to a draft heartbeat, {address} did not answer StreamsGroupHeartbeat in the KIP draft's dialect within {TIMEOUT_MS} ms; leave --dialect out for a broker that speaks Kafka's released schema (as Kafka 4.x does), or put `streamspec proxy --dialect kip-draft` in front of it"
    );
    for command in ["check", "fuzz"] {
        let run = streamspec(&[
            command,
            "--target",
            &address,
            "--timeout-ms",
            TIMEOUT_MS,
            "--dialect",
            "kip-draft",
        ]);
        assert_refused(&run, &format!("streamspec: {reason}"));
    }
    assert_doctor_runs_nothing(&address, &["--dialect", "kip-draft"], &reason);
}

/// doctor against a target that stops answering after the preflight, under a short
/// `--timeout-ms`: the error says the bound may be what is too short, as check's does.
#[test]
fn doctor_hints_at_a_short_timeout() {
    let address = serve(|stream| answer_api_versions_then(stream, true, 0, describe_not_found));
    let run = streamspec(&["doctor", "--target", &address, "--timeout-ms", TIMEOUT_MS]);
    assert_refused(
        &run,
        &format!("streamspec: {address} did not answer FindCoordinator within {TIMEOUT_MS} ms; hint: --timeout-ms {TIMEOUT_MS} may be too short for this target: a wait can hold a heartbeat round trip behind Kafka's own (a topic's creation, a coordinator loading, an initial rebalance delay of 3 s); run again with --timeout-ms 5000 or more (the default is 15000)"),
    );
}

/// `--check-determinism` against a broker is refused before anything runs: two runs on real
/// time are never alike, so the property failed every broker.
#[test]
fn check_determinism_is_refused_against_a_broker() {
    let address = serve(|stream| answer_api_versions_then(stream, true, 0, describe_not_found));
    let run = streamspec(&[
        "fuzz",
        "--target",
        &address,
        "--timeout-ms",
        TIMEOUT_MS,
        "--check-determinism",
    ]);
    assert_refused(
        &run,
        "streamspec: --check-determinism runs each input twice and compares the traces, which only a coordinator on a virtual clock can repeat; a broker runs on real time, where no two runs are alike: use it with --target embedded or a coordinator of your own in process",
    );
}
