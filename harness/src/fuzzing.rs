//! Fuzz and property-test entry points over runs: the `coordinator_ops` cargo-fuzz target is one
//! call into [`coordinator_ops`], like the other four targets (`streamspec_protocol::fuzzing`,
//! `streamspec_coordinator::fuzzing`), and `cargo test` replays its corpus through it. Your own
//! coordinator gets the same in one line each: [`run`] for a cargo-fuzz target, and
//! [`arb_run_input`] with [`check_run`] for a proptest (`proptest` feature).
//!
//! A cargo-fuzz target over your backend (`fuzz/fuzz_targets/my_coordinator.rs`; shown as text
//! since it needs `libfuzzer-sys`, which only the fuzz crate depends on, and `fuzz/` builds ours):
//!
//! ```text
//! #![no_main]
//! libfuzzer_sys::fuzz_target!(|data: &[u8]| streamspec::fuzzing::run(&MyConnector, data));
//! ```
//!
//! The same call in an ordinary test, here with the reference as "your" coordinator; a
//! violation panics with the property, the exchanges that show it and the run as JSON:
//!
//! ```
//! use streamspec::embedded::EmbeddedConnector;
//! use streamspec::simulation::{run_bytes, RunInput};
//!
//! for run in 0..4 {
//!     streamspec::fuzzing::run(&EmbeddedConnector, &run_bytes(7, run, 400));
//! }
//! // Or, to look at the outcome rather than panic:
//! let input = RunInput::from_bytes(&run_bytes(7, 0, 400));
//! assert!(streamspec::fuzzing::check_run(&EmbeddedConnector, &input).is_ok());
//! ```

use std::fmt;

use crate::backend::Connect;
use crate::embedded::EmbeddedConnector;
use crate::simulation::oracle::Violation;
use crate::simulation::setup::Names;
use crate::simulation::{run_on, RunBounds, RunInput};

/// Why a run did not pass.
#[derive(Debug, Clone)]
pub enum RunFailure {
    /// The coordinator broke a property of the oracle.
    Violation {
        violation: Violation,
        /// The exchanges that show it.
        slice: String,
        input: RunInput,
    },
    /// The run could not be carried out (its set-up, or a change of its topics, failed): nothing
    /// was shown either way.
    NotCarriedOut { error: String, input: RunInput },
}

impl fmt::Display for RunFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (head, input) = match self {
            RunFailure::Violation {
                violation,
                slice,
                input,
            } => (format!("{violation}\n{slice}"), input),
            RunFailure::NotCarriedOut { error, input } => (
                format!("the run could not be carried out: {error}\n"),
                input,
            ),
        };
        write!(
            f,
            "{head}run: {}",
            serde_json::to_string(input).unwrap_or_default()
        )
    }
}

impl std::error::Error for RunFailure {}

/// Runs `input` against a fresh backend of `connector`, with the oracle on: `Ok` when every
/// `always` and `eventually` property held.
pub fn check_run<C: Connect>(connector: &C, input: &RunInput) -> Result<(), Box<RunFailure>> {
    let record =
        run_on(connector, Names::new(""), input, &RunBounds::default()).map_err(|error| {
            RunFailure::NotCarriedOut {
                error,
                input: input.clone(),
            }
        })?;
    match record.violation {
        None => Ok(()),
        Some(violation) => Err(Box::new(RunFailure::Violation {
            slice: violation.slice(&record.history),
            violation,
            input: input.clone(),
        })),
    }
}

/// A fuzz target over `connector`'s coordinator: the run `data` encodes (bytes, or a run written
/// as JSON), which panics when it breaks a property or cannot be carried out.
pub fn run<C: Connect>(connector: &C, data: &[u8]) {
    if let Err(failure) = check_run(connector, &RunInput::from_fuzz_input(data)) {
        panic!("{failure}");
    }
}

/// The `coordinator_ops` target: [`run`] against the reference coordinator.
pub fn coordinator_ops(data: &[u8]) {
    run(&EmbeddedConnector, data);
}

/// Runs as proptest draws them: bytes read as [`RunInput::from_bytes`] reads them, so a case
/// shrinks by its bytes and a fuzzer's find replays as a case. For
/// `proptest!(|(input in arb_run_input())| ...)`.
///
/// ```
/// use proptest::prelude::*;
/// use streamspec::embedded::EmbeddedConnector;
/// use streamspec::fuzzing::{arb_run_input, check_run};
///
/// proptest!(ProptestConfig::with_cases(4), |(input in arb_run_input())| {
///     check_run(&EmbeddedConnector, &input).map_err(|failure| TestCaseError::fail(failure.to_string()))?;
/// });
/// ```
#[cfg(feature = "proptest")]
pub fn arb_run_input() -> impl proptest::strategy::Strategy<Value = RunInput> {
    use proptest::prelude::*;
    proptest::collection::vec(any::<u8>(), 0..1024).prop_map(|bytes| RunInput::from_bytes(&bytes))
}
