//! Kafka's own Java classes as test oracles: a small Maven project next to a crate (e.g.
//! `protocol/java/`) runs them on the cases a Rust test writes. This builds such a project.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

/// The classpaths this process has built, by project and Kafka version. A test binary's tests
/// run on threads at once, and two Maven builds of one project rewrite its classes while the
/// other's run: in a fresh tree (as cargo-mutants copies it) the oracle then died mid-input.
static BUILT: Mutex<BTreeMap<(PathBuf, String), String>> = Mutex::new(BTreeMap::new());

/// Builds the Maven project in `project` against Kafka `kafka_version`, once per process, and
/// returns the classpath to run its classes with. Panics with Maven's output when the build
/// fails, as a test should.
pub fn build(project: &Path, kafka_version: &str) -> String {
    // Held through the build: a second caller waits for the first one's classes.
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (project.to_path_buf(), kafka_version.to_owned());
    if let Some(classpath) = built.get(&key) {
        return classpath.clone();
    }
    let classpath = build_now(project, kafka_version);
    built.insert(key, classpath.clone());
    classpath
}

fn build_now(project: &Path, kafka_version: &str) -> String {
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
