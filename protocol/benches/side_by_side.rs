//! Our side of `scripts/bench/side-by-side.sh`.
//!
//! `side_by_side write DIR` writes the bytes of the benchmark messages (`samples::large`) to
//! `DIR/<name>.bin` and lists them in `DIR/cases.tsv` (name, message, version), so that Kafka's
//! Java classes read exactly these bytes. `side_by_side measure WARMUP_MS ROUNDS ROUND_MS [FILTER]` times
//! our decode and encode of each, and kafka-protocol's decoder on messages of like shape, on this
//! thread's CPU clock, and prints `measure name=<side>/<op>/<case> min_ns=.. median_ns=..`.
//! `scripts/bench/CodecBench.java` measures the Java side the same way.

use std::hint::black_box;
use std::path::Path;

use bytes::{Bytes, BytesMut};
use kafka_protocol::messages::create_topics_request::{
    CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
};
use kafka_protocol::messages::{ConsumerGroupHeartbeatRequest, GroupId, TopicName};
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeResponseView, StreamsGroupHeartbeatRequestView,
};
use streamspec_protocol::samples::{large, Sample};
use streamspec_protocol::{AnyMessage, MessageView, ValueVisitor, WireMessage};

fn thread_cpu_ns() -> u64 {
    let time = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64
}

/// How long to warm up, how to split the measurement into rounds, and which cases to run.
#[derive(Debug, Clone, Copy)]
struct Plan<'f> {
    warmup_ns: u64,
    rounds: usize,
    round_ns: u64,
    /// Only cases whose name contains this (e.g. for a profiler).
    filter: &'f str,
}

/// Runs `operation` for the warm-up, sizes a round to `round_ns` of CPU time, and returns the
/// minimum and median nanoseconds per operation over the rounds.
fn measure(plan: Plan<'_>, mut operation: impl FnMut()) -> (f64, f64) {
    let mut iterations: u64 = 1;
    let warmup_start = thread_cpu_ns();
    let mut per_operation_ns;
    loop {
        let start = thread_cpu_ns();
        for _ in 0..iterations {
            operation();
        }
        let elapsed = (thread_cpu_ns() - start).max(1);
        per_operation_ns = elapsed as f64 / iterations as f64;
        if thread_cpu_ns() - warmup_start >= plan.warmup_ns {
            break;
        }
        if elapsed < plan.round_ns / 4 {
            iterations *= 2;
        }
    }
    let iterations = ((plan.round_ns as f64 / per_operation_ns) as u64).max(1);
    let mut per_round: Vec<f64> = (0..plan.rounds)
        .map(|_| {
            let start = thread_cpu_ns();
            for _ in 0..iterations {
                operation();
            }
            (thread_cpu_ns() - start) as f64 / iterations as f64
        })
        .collect();
    per_round.sort_by(f64::total_cmp);
    (per_round[0], per_round[per_round.len() / 2])
}

fn run(plan: Plan<'_>, name: &str, operation: impl FnMut()) {
    if name.contains(plan.filter) {
        let (min_ns, median_ns) = measure(plan, operation);
        println!("measure name={name} min_ns={min_ns:.1} median_ns={median_ns:.1}");
    }
}

/// Folds every value a view hands out into one number, so that reading them cannot be skipped:
/// integers whole, strings by length and first byte (decoding already checked each byte).
#[derive(Debug, Default)]
struct Checksum(u64);

impl Checksum {
    #[inline(always)]
    fn add(&mut self, value: u64) {
        self.0 = self.0.rotate_left(5) ^ value;
    }
}

impl ValueVisitor for Checksum {
    #[inline(always)]
    fn integer(&mut self, value: i64) {
        self.add(value as u64);
    }
    #[inline(always)]
    fn string(&mut self, value: &str) {
        let first = value.as_bytes().first().copied().unwrap_or(0);
        self.add(value.len() as u64 ^ (u64::from(first) << 32));
    }
    #[inline(always)]
    fn null(&mut self) {
        self.add(u64::MAX);
    }
    #[inline(always)]
    fn array(&mut self, len: usize) {
        self.add(len as u64);
    }
    #[inline(always)]
    fn tagged_field(&mut self, tag: u32, data: &[u8]) {
        self.add(u64::from(tag) ^ data.len() as u64);
    }
}

/// The borrowed decode of `bytes` and a walk over every value it holds, as the walk's checksum:
/// in one pass over each array's items (`visit`), or through the fields and array iteration
/// (`visit_fields`, where each level of nesting passes over the bytes below it once more).
#[inline(always)]
fn decode_and_read<'a, V: MessageView<'a>>(bytes: &'a [u8], version: i16, one_pass: bool) -> u64 {
    let view = V::decode(bytes, version).expect("samples decode");
    let mut checksum = Checksum::default();
    if one_pass {
        view.visit_values(&mut checksum);
    } else {
        view.visit_fields(&mut checksum);
    }
    checksum.0
}

/// The owned message of the view of `bytes`, to check the view against the sample.
fn view_to_message<'a, V: MessageView<'a>>(bytes: &'a [u8], version: i16) -> V::Owned {
    V::decode(bytes, version)
        .expect("samples decode")
        .to_message()
}

/// Decode (from the encoded bytes): `decode` with the borrowed view, reading every value once
/// through `read_all(bytes, true)`; `decode_fields` the same through `read_all(bytes, false)`;
/// `decode_owned` into the owned message, dropping it. Encode (into a fresh `Vec`).
fn measure_ours<M: WireMessage + PartialEq>(
    plan: Plan<'_>,
    name: &str,
    message: &M,
    version: i16,
    read_all: impl Fn(&[u8], bool) -> u64,
) {
    let bytes = message.encode_to_vec(version).expect("samples encode");
    assert!(M::decode_exact(&bytes, version).expect("samples decode") == *message);
    assert_eq!(read_all(&bytes, true), read_all(&bytes, false));
    run(plan, &format!("ours/decode/{name}"), || {
        black_box(read_all(black_box(&bytes), true));
    });
    run(plan, &format!("ours/decode_fields/{name}"), || {
        black_box(read_all(black_box(&bytes), false));
    });
    run(plan, &format!("ours/decode_owned/{name}"), || {
        // A reference to the decoded message, not the message: `black_box` of a value copies it.
        let decoded = M::decode_exact(black_box(&bytes), version);
        black_box(&decoded);
        drop(decoded)
    });
    run(plan, &format!("ours/encode/{name}"), || {
        drop(black_box(
            black_box(message)
                .encode_to_vec(version)
                .expect("samples encode"),
        ))
    });
}

fn measure_sample(plan: Plan<'_>, sample: &Sample) {
    match &sample.message {
        AnyMessage::StreamsGroupHeartbeatRequest(message) => {
            let version = sample.version;
            let bytes = message.encode_to_vec(version).expect("samples encode");
            let owned = view_to_message::<StreamsGroupHeartbeatRequestView>(&bytes, version);
            assert!(owned == *message, "the view reads other values");
            measure_ours(plan, sample.name, message, version, |bytes, one_pass| {
                decode_and_read::<StreamsGroupHeartbeatRequestView>(bytes, version, one_pass)
            })
        }
        AnyMessage::StreamsGroupDescribeResponse(message) => {
            let version = sample.version;
            let bytes = message.encode_to_vec(version).expect("samples encode");
            let owned = view_to_message::<StreamsGroupDescribeResponseView>(&bytes, version);
            assert!(owned == *message, "the view reads other values");
            measure_ours(plan, sample.name, message, version, |bytes, one_pass| {
                decode_and_read::<StreamsGroupDescribeResponseView>(bytes, version, one_pass)
            })
        }
        other => panic!("no benchmark case for {:?}", other.kind()),
    }
}

/// kafka-protocol's decoder, from a `Bytes` buffer as its users hold one.
fn measure_kafka_protocol<M: Encodable + Decodable>(
    plan: Plan<'_>,
    name: &str,
    message: &M,
    version: i16,
) {
    let mut buffer = BytesMut::new();
    message.encode(&mut buffer, version).expect("encodes");
    let bytes: Bytes = buffer.freeze();
    eprintln!("kafka-protocol/{name}: {} bytes", bytes.len());
    run(plan, &format!("kafka-protocol/decode/{name}"), || {
        let mut input = black_box(&bytes).clone();
        drop(black_box(M::decode(&mut input, version).expect("decodes")))
    });
}

/// Kafka's consumer-group heartbeat with the same ids and every nullable field null: the shape
/// of our steady heartbeat (57 bytes against 68).
fn consumer_steady_heartbeat() -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest::default()
        .with_group_id(GroupId(StrBytes::from_static_str("app-1")))
        .with_member_id(StrBytes::from_static_str(
            "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b",
        ))
        .with_member_epoch(7)
}

/// CreateTopics v7 with four topics per subtopology of our join, two of them with a config:
/// nested structs of short strings, as many strings as the join and about as many bytes.
fn create_topics_like_join(subtopologies: usize) -> CreateTopicsRequest {
    let topic = |name: String, with_config: bool| {
        let configs = if with_config {
            vec![CreatableTopicConfig::default()
                .with_name(StrBytes::from_static_str("cleanup.policy"))
                .with_value(Some(StrBytes::from_static_str("compact")))]
        } else {
            vec![]
        };
        CreatableTopic::default()
            .with_name(TopicName(StrBytes::from_string(name)))
            .with_num_partitions(8)
            .with_configs(configs)
    };
    let topics = (0..subtopologies)
        .flat_map(|index| {
            [
                topic(format!("input-{index}-a"), true),
                topic(format!("input-{index}-b"), false),
                topic(format!("app-1-store-{index}-changelog"), true),
                topic(format!("app-1-repartition-{index}"), false),
            ]
        })
        .collect();
    CreateTopicsRequest::default().with_topics(topics)
}

fn write_samples(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut index = String::new();
    for sample in large::all() {
        let bytes = sample
            .message
            .encode_to_vec(sample.version)
            .expect("samples encode");
        std::fs::write(dir.join(format!("{}.bin", sample.name)), &bytes)?;
        index.push_str(&format!(
            "{}\t{}\t{}\n",
            sample.name,
            sample.message.kind().name(),
            sample.version
        ));
        eprintln!("{}: {} bytes", sample.name, bytes.len());
    }
    std::fs::write(dir.join("cases.tsv"), index)
}

fn main() {
    // `cargo bench` appends `--bench`; only the positional arguments count.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let number = |index: usize, default: u64| {
        args.get(index)
            .map_or(default, |text| text.parse().expect("a number"))
    };
    match args.first().map(String::as_str) {
        Some("write") => {
            let dir = args.get(1).expect("usage: side_by_side write DIR");
            write_samples(Path::new(dir)).expect("writes the samples");
        }
        Some("measure") => {
            let plan = Plan {
                warmup_ns: number(1, 1_000) * 1_000_000,
                rounds: number(2, 7) as usize,
                round_ns: number(3, 200) * 1_000_000,
                filter: args.get(4).map_or("", String::as_str),
            };
            for sample in large::all() {
                measure_sample(plan, &sample);
            }
            measure_kafka_protocol(plan, "hb_steady", &consumer_steady_heartbeat(), 0);
            measure_kafka_protocol(
                plan,
                "hb_join_100_subtopologies",
                &create_topics_like_join(100),
                7,
            );
        }
        _ => {
            eprintln!(
                "usage: side_by_side write DIR | measure [WARMUP_MS ROUNDS ROUND_MS [FILTER]]"
            );
            std::process::exit(2);
        }
    }
}
