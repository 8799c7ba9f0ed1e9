//! Kafka's own Java classes as test oracles: a small Maven project next to a crate (e.g.
//! `protocol/java/`) runs them on the cases a Rust test writes. This builds such a project.

use std::path::Path;
use std::process::Command;

/// Builds the Maven project in `project` against Kafka `kafka_version` and returns the classpath
/// to run its classes with. Panics with Maven's output when the build fails, as a test should.
pub fn build(project: &Path, kafka_version: &str) -> String {
    let output = Command::new("mvn")
        .args(["-q", "-B", "-f"])
        .arg(project.join("pom.xml"))
        .arg(format!("-Dkafka.version={kafka_version}"))
        .args([
            "package",
            "dependency:build-classpath",
            "-Dmdep.outputFile=target/classpath.txt",
            "-DskipTests",
        ])
        .output()
        .expect("Maven (mvn) must be installed to build the Kafka oracle");
    assert!(
        output.status.success(),
        "building {} failed:\n{}\n{}",
        project.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let dependencies = std::fs::read_to_string(project.join("target/classpath.txt"))
        .unwrap_or_else(|error| panic!("{}: no classpath: {error}", project.display()));
    format!(
        "{}:{}",
        project.join("target/classes").display(),
        dependencies.trim()
    )
}
