//! Shared by the test binaries that need a real broker (`harness = false`).

use std::panic::{catch_unwind, AssertUnwindSafe};

/// A test against the broker at an address.
pub type BrokerTest = (&'static str, fn(&str));

/// Runs `tests` against the broker that `variable` names, in libtest's output format; without
/// the variable each reports itself as skipped, which libtest cannot say. Exits 1 on a failure.
#[allow(dead_code)] // not every test binary runs a single broker's tests
pub fn run_broker_tests(variable: &str, tests: &[BrokerTest]) {
    run_broker_test_groups(&[(variable, tests)]);
}

/// [`run_broker_tests`] for several brokers, each named by its variable: all run before a
/// failure exits 1.
pub fn run_broker_test_groups(groups: &[(&str, &[BrokerTest])]) {
    let total: usize = groups.iter().map(|(_, tests)| tests.len()).sum();
    println!("\nrunning {total} tests");
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for (variable, tests) in groups {
        let Some(address) = std::env::var(variable)
            .ok()
            .filter(|address| !address.is_empty())
        else {
            for (name, _) in *tests {
                println!("test {name} ... skipped ({variable} is unset)");
            }
            skipped += tests.len();
            continue;
        };
        for (name, test) in *tests {
            let outcome = catch_unwind(AssertUnwindSafe(|| test(&address)));
            println!(
                "test {name} ... {}",
                if outcome.is_ok() { "ok" } else { "FAILED" }
            );
            if outcome.is_ok() {
                passed += 1;
            } else {
                failed += 1;
            }
        }
    }
    println!(
        "\ntest result: {}. {passed} passed; {failed} failed; {skipped} skipped\n",
        if failed == 0 { "ok" } else { "FAILED" },
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
