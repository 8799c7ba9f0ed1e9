//! Byte identity with Apache Kafka: for every Kafka-dialect sample, Kafka's own generated message
//! classes (kafka-clients 4.4.0, driven by the Java program in `protocol/java/`) write exactly our
//! bytes for the same values and read our bytes back to equal values. Also checks that the facts of
//! our schemas (names, types, versions, nullability, defaults, order) equal those of the specs
//! shipped in the kafka-clients jar.
//!
//! Needs Java 17 and Maven (the kafka-clients jar comes from Maven Central on first use).
//! `STREAMSPEC_KAFKA_CLIENTS_VERSION` picks another kafka-clients release.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Value};
use streamspec_protocol::{java_oracle, samples, Dialect};

fn java_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("java")
}

fn kafka_clients_version() -> String {
    std::env::var("STREAMSPEC_KAFKA_CLIENTS_VERSION").unwrap_or_else(|_| "4.4.0".to_owned())
}

/// Builds the oracle once per test binary; returns the classpath to run it with.
fn oracle_classpath() -> &'static str {
    static CLASSPATH: OnceLock<String> = OnceLock::new();
    CLASSPATH.get_or_init(|| java_oracle::build(&java_dir(), &kafka_clients_version()))
}

fn run_oracle(args: &[&str]) -> String {
    let output = Command::new("java")
        .arg("-cp")
        .arg(oracle_classpath())
        .arg("dev.streamspec.oracle.KafkaWireOracle")
        .args(args)
        .output()
        .expect("Java must be installed to run the Kafka wire oracle");
    assert!(
        output.status.success(),
        "oracle {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn kafka_writes_our_bytes_and_reads_them_back_for_every_kafka_sample() {
    let kafka_samples: Vec<_> = samples::all()
        .into_iter()
        .filter(|sample| sample.message.kind().dialect() == Dialect::Kafka)
        .collect();
    assert!(kafka_samples.len() >= 25);
    let mut cases = String::new();
    for sample in &kafka_samples {
        let bytes = sample.message.encode_to_vec(sample.version).unwrap();
        let case = json!({
            "name": sample.name,
            "api": sample.message.kind().name(),
            "version": sample.version,
            "hex": hex(&bytes),
            "json": sample.message.to_json(),
        });
        cases.push_str(&case.to_string());
        cases.push('\n');
    }
    let cases_path =
        std::env::temp_dir().join(format!("streamspec-cases-{}.jsonl", std::process::id()));
    std::fs::write(&cases_path, cases).unwrap();
    let output = run_oracle(&["check", cases_path.to_str().unwrap()]);
    std::fs::remove_file(&cases_path).unwrap();

    let results: Vec<Value> = output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(results.len(), kafka_samples.len(), "one result per case");
    let mut failures = Vec::new();
    for (sample, result) in kafka_samples.iter().zip(&results) {
        assert_eq!(result["name"], sample.name);
        let verdict = (
            result["bytes_equal"].as_bool(),
            result["read_equal"].as_bool(),
            result["fully_consumed"].as_bool(),
        );
        if verdict != (Some(true), Some(true), Some(true)) || !result["error"].is_null() {
            failures.push(format!(
                "{}: ours {} kafka {} {result}",
                sample.name,
                hex(&sample.message.encode_to_vec(sample.version).unwrap()),
                result["kafka_hex"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "differs from Kafka:\n{}",
        failures.join("\n")
    );
}

/// Every fact of a spec, without the prose.
fn facts(spec: &Value) -> Value {
    match spec {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| key.as_str() != "about")
                .map(|(key, value)| (key.clone(), facts(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(facts).collect()),
        other => other.clone(),
    }
}

#[test]
fn our_kafka_schemas_state_the_same_facts_as_the_kafka_clients_jar() {
    let schema_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/kafka");
    for name in [
        "StreamsGroupHeartbeatRequest",
        "StreamsGroupHeartbeatResponse",
        "StreamsGroupDescribeRequest",
        "StreamsGroupDescribeResponse",
    ] {
        let ours = std::fs::read_to_string(schema_dir.join(format!("{name}.json"))).unwrap();
        let ours = streamspec_codegen::parse_spec_text(&ours).unwrap();
        let kafkas = streamspec_codegen::parse_spec_text(&run_oracle(&["schema", name])).unwrap();
        assert_eq!(
            facts(&ours),
            facts(&kafkas),
            "{name} differs from Kafka's spec"
        );
    }
}
