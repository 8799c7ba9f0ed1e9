//! `cargo run -p streamspec-codegen`: rewrites `protocol/src/generated/` from `protocol/schemas/`.

use std::path::Path;

fn main() {
    let crate_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let report = streamspec_codegen::write(&crate_root);
    for line in report {
        println!("{line}");
    }
}
