//! Generators, simulated members, the invariant checker, targets, scenarios and the CLI.
//!
//! Not built yet: this crate holds no behaviour until the conformance harness lands.
