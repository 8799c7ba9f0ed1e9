//! The conformance harness: a Kafka transport, scenarios as data, the runner that grades a
//! target rule by rule, reports, and randomized runs (generators, simulated members, the
//! invariant oracle, seeded campaigns).
//!
//! Everything it tests is a [`Backend`]: the reference coordinator in process, a broker over
//! TCP, or a coordinator of your own, in process, in your own `cargo test`. [`check()`] runs the
//! rule catalogue against it and [`fuzz()`] a seeded campaign, each on fresh backends that a
//! [`Connect`] makes.
//!
//! # Grading your coordinator in process
//!
//! A backend answers api keys 88 and 89 as bytes, creates and deletes topics, and lets time
//! pass; everything else is optional (see [`backend`]). Here "your coordinator" is the
//! reference, delegated to:
//!
//! ```
//! use std::collections::BTreeMap;
//! use std::time::Duration;
//!
//! use streamspec::backend::{Backend, BackendResult, Connect, StreamsApi};
//! use streamspec::embedded::EmbeddedTarget;
//! use streamspec::runner::Verdict;
//! use streamspec::{CampaignConfig, CheckOptions};
//!
//! /// Your coordinator, and the cluster around it.
//! struct MyCoordinator(EmbeddedTarget);
//!
//! impl Backend for MyCoordinator {
//!     async fn call(&mut self, api: StreamsApi, version: i16, request: &[u8]) -> BackendResult<Vec<u8>> {
//!         self.0.call(api, version, request).await
//!     }
//!     async fn create_topics(&mut self, topics: &[(String, i32)]) -> BackendResult<()> {
//!         self.0.create_topics(topics).await
//!     }
//!     async fn delete_topics(&mut self, names: &[String]) -> BackendResult<()> {
//!         self.0.delete_topics(names).await
//!     }
//!     async fn sleep(&mut self, duration: Duration) -> BackendResult<()> {
//!         self.0.sleep(duration).await
//!     }
//!     fn now_ms(&self) -> u64 {
//!         self.0.now_ms()
//!     }
//! }
//!
//! /// A fresh coordinator for every scenario and every run.
//! struct Mine;
//!
//! impl Connect for Mine {
//!     type Backend = MyCoordinator;
//!     async fn open(&self, _group: &str, _: &BTreeMap<String, String>) -> BackendResult<MyCoordinator> {
//!         Ok(MyCoordinator(EmbeddedTarget::default()))
//!     }
//!     fn name(&self) -> String {
//!         "mine".to_owned()
//!     }
//! }
//!
//! // The catalogue: what a minimal backend cannot do (configs, ACLs) is skipped, with reasons.
//! let report = streamspec::check(Mine, CheckOptions::default());
//! let failed: Vec<&str> = report
//!     .outcomes
//!     .iter()
//!     .filter(|outcome| outcome.verdict == Verdict::Fail)
//!     .map(|outcome| outcome.scenario.as_str())
//!     .collect();
//! // The reference's recorded divergences from Kafka are recorded for `embedded`, not `mine`.
//! assert_eq!(
//!     failed,
//!     ["R46-endpoint-member-while-source-topics-missing", "R40-kept-configuration-of-deleted-topic"]
//! );
//!
//! // A seeded campaign with the oracle on.
//! let config = CampaignConfig { duration: Duration::from_secs(1), ..CampaignConfig::default() };
//! let result = streamspec::fuzz(Mine, &config);
//! assert!(result.runs > 0 && result.finding.is_none() && result.setup_errors.is_empty());
//! ```

/// What the name of every topic, group and ACL resource the tool makes on a broker starts with,
/// so that `streamspec clean` can find what interrupted runs left behind.
pub const NAME_PREFIX: &str = "streamspec-";

/// The longest run id (`--run-id`), which goes into every such name after [`NAME_PREFIX`].
pub const MAX_RUN_ID_LEN: usize = 64;

/// The longest topic name Kafka takes.
pub const MAX_TOPIC_NAME_LEN: usize = 249;

pub mod backend;
pub mod campaign;
pub mod check;
pub mod clean;
pub mod differential;
pub mod doctor;
pub mod draft;
pub mod embedded;
pub mod fuzzing;
pub mod interrupt;
pub mod kafka;
pub mod matcher;
pub mod proxy;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod simulation;
pub mod transport;
pub mod wire_bounds;

/// A duration as the command line takes it: whole milliseconds, seconds or minutes (`500ms`,
/// `60s`, `2m`; a bare number is seconds).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    use std::time::Duration;
    let bad = || format!("not a duration: {text:?} (use e.g. 60s, 2m, 500ms)");
    let (number, unit) = text
        .find(|c: char| !c.is_ascii_digit())
        .map_or((text, "s"), |at| text.split_at(at));
    let value: u64 = number.parse().map_err(|_| bad())?;
    match unit {
        "ms" => Ok(Duration::from_millis(value)),
        "s" => Ok(Duration::from_secs(value)),
        "m" => value
            .checked_mul(60)
            .map(Duration::from_secs)
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// As [`parse_duration`], for a bound on how long a command runs: zero would end it before
/// anything ran.
pub fn parse_run_duration(text: &str) -> Result<std::time::Duration, String> {
    let duration = parse_duration(text)?;
    if duration.is_zero() {
        return Err(format!(
            "{text:?} would end the run before anything ran: give a duration above zero, e.g. 60s"
        ));
    }
    Ok(duration)
}

pub use backend::{Backend, BackendError, BackendExt, Connect, StreamsApi};
pub use campaign::{CampaignConfig, CampaignResult};
pub use check::CheckOptions;
pub use report::Report;

/// Runs the rule catalogue (or `options.scenarios`) against fresh backends of `connector`, one
/// per scenario, several at once, and grades it: the report `streamspec check` prints. Owns its
/// runtime: call it from ordinary code, not from inside an async runtime.
pub fn check<C: Connect + 'static>(connector: C, options: CheckOptions) -> Report {
    check::run(connector, options)
}

/// Runs a seeded campaign against fresh backends of `connector`, one per run (several at once
/// where the backends share state, as a broker's do), with the oracle on; a violation is shrunk.
/// `campaign::report` renders the result as `streamspec fuzz` does. Owns its runtimes, as
/// [`check()`] does.
pub fn fuzz<C: Connect + Sync>(connector: C, config: &CampaignConfig) -> CampaignResult {
    campaign::run(config, &connector)
}
