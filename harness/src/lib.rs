//! The conformance harness: a Kafka transport, scenarios as data, the runner that grades a
//! target rule by rule, and reports. Generators, simulated members and the invariant oracle come
//! later.

pub mod embedded;
pub mod kafka;
pub mod matcher;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod simulation;
pub mod target;
pub mod transport;
