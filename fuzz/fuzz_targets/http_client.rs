#![no_main]
// The logic lives in zkgames::fuzz_entry, shared with tests/fuzz_regressions.rs.
libfuzzer_sys::fuzz_target!(|data: &[u8]| zkgames::fuzz_entry::http_client(data));
