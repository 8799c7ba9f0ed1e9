//! Shared by the test binaries that need a real broker (`harness = false`).

use std::panic::{catch_unwind, AssertUnwindSafe};

/// A test against the broker at an address.
pub type BrokerTest = (&'static str, fn(&str));

/// Runs `tests` against the broker that `variable` names, in libtest's output format; without
/// the variable each reports itself as skipped, which libtest cannot say. Exits 1 on a failure.
pub fn run_broker_tests(variable: &str, tests: &[BrokerTest]) {
    println!("\nrunning {} tests", tests.len());
    let Some(address) = std::env::var(variable)
        .ok()
        .filter(|address| !address.is_empty())
    else {
        for (name, _) in tests {
            println!("test {name} ... skipped ({variable} is unset)");
        }
        println!(
            "\ntest result: ok. 0 passed; 0 failed; {} skipped\n",
            tests.len()
        );
        return;
    };
    let mut failed = 0;
    for (name, test) in tests {
        let outcome = catch_unwind(AssertUnwindSafe(|| test(&address)));
        println!(
            "test {name} ... {}",
            if outcome.is_ok() { "ok" } else { "FAILED" }
        );
        failed += usize::from(outcome.is_err());
    }
    println!(
        "\ntest result: {}. {} passed; {failed} failed; 0 skipped\n",
        if failed == 0 { "ok" } else { "FAILED" },
        tests.len() - failed
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
