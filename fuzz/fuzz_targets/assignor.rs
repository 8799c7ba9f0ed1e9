#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| streamspec_coordinator::fuzzing::assignor(data));
