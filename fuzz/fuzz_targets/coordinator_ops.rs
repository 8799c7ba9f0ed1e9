#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| streamspec::simulation::fuzz_coordinator_ops(data));
