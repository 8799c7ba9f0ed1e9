//! The conformance harness: a Kafka transport, scenarios as data, the runner that grades a
//! target rule by rule, reports, and randomized runs (generators, simulated members, the
//! invariant oracle, seeded campaigns).

pub mod campaign;
pub mod doctor;
pub mod embedded;
pub mod kafka;
pub mod matcher;
pub mod proxy;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod simulation;
pub mod target;
pub mod transport;
