//! The conformance harness: a Kafka transport, scenarios as data, the runner that grades a
//! target rule by rule, reports, and randomized runs (generators, simulated members, the
//! invariant oracle, seeded campaigns).

/// What the name of every topic, group and ACL resource the tool makes on a broker starts with,
/// so that `streamspec clean` can find what interrupted runs left behind.
pub const NAME_PREFIX: &str = "streamspec-";

pub mod campaign;
pub mod clean;
pub mod doctor;
pub mod embedded;
pub mod interrupt;
pub mod kafka;
pub mod matcher;
pub mod proxy;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod simulation;
pub mod target;
pub mod transport;
pub mod wire_bounds;
