#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| streamspec::fuzzing::coordinator_ops(data));
