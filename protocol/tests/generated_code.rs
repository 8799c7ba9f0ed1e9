//! The checked-in code in `src/generated/` is what the generator makes of `schemas/`; after
//! changing a schema or the generator, run `cargo run -p streamspec-codegen`.

use std::path::Path;

#[test]
fn generated_code_matches_the_schemas() {
    let staleness = streamspec_codegen::check(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        staleness.is_fresh(),
        "src/generated/ is stale (differs: {:?}; not generated: {:?}); run `cargo run -p streamspec-codegen`",
        staleness.differs,
        staleness.orphans
    );
}
