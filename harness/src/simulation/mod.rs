//! Randomized runs: simulated Streams members driven by a sequence of [`Operation`]s (drawn by
//! proptest, a fuzzer or a seeded campaign from the same bytes) against a [`Backend`], every
//! exchange recorded with its time, and the named properties of [`oracle`] judged over the
//! history as it grows.
//!
//! - [`setup`]: what a run sets up (topics, topology, members' settings); [`operation`]: what
//!   happens, decoded from bytes.
//! - [`history`]: what a run records, and the views of it the oracle reads.
//! - `member`: the simulated members, correct clients; [`driver`]: carries the operations out,
//!   records, and asks the oracle.
//! - [`live`]: a real client's history the proxy captured, retold as a run (a corpus seed).
//! - [`oracle`]: every property, `always` (safety, under faults: on each exchange and on a
//!   describe of the group after it), `eventually` (liveness, once faults stop: within a bounded
//!   number of heartbeat rounds the group settles with every task of a ready topology owned
//!   once) and `sometimes` (states the generator must reach, counted over a campaign).
//!
//! [`Backend`]: crate::Backend

pub mod driver;
pub mod history;
pub mod live;
mod member;
pub mod operation;
pub mod oracle;
mod prepare;
pub mod setup;

pub use driver::{
    execute, is_of, run_in_process, run_on, Halt, RunBounds, RunRecord, Simulation, SETTLE_ROUNDS,
};
pub use history::{first_difference, trace_hash, Event};
pub use operation::{run_bytes, Operation, RunInput, MAX_FUZZ_OPERATIONS};
