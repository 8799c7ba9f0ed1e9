//! Golden snapshots of every sample message: the bytes laid out field by field, then the decoded
//! value. Snapshots live in the workspace's `golden/` folder; a snapshot there that no sample makes,
//! or one waiting for review, fails the suite.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use streamspec_protocol::annotate::annotate;
use streamspec_protocol::fuzzing::check_bytes;
use streamspec_protocol::samples;

/// The one place the snapshot location is set.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden")
}

fn golden_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(golden_dir());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

#[test]
fn every_sample_matches_its_golden_snapshot() {
    let samples = samples::all();
    assert!(samples.len() >= 30, "only {} samples", samples.len());
    for sample in &samples {
        let bytes = sample.message.encode_to_vec(sample.version).unwrap();
        let decoded = check_bytes(sample.message.kind(), &bytes, sample.version).unwrap();
        assert_eq!(decoded, sample.message, "{}", sample.name);
        let dump = annotate(sample.message.kind(), &bytes, sample.version).unwrap();
        golden_settings().bind(|| insta::assert_snapshot!(sample.name, dump));
    }
}

#[test]
fn golden_folder_holds_only_reviewed_snapshots_of_samples() {
    let expected: BTreeSet<String> = samples::all()
        .iter()
        .map(|sample| format!("{}.snap", sample.name))
        .collect();
    let present: BTreeSet<String> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    let unexpected: Vec<&String> = present.difference(&expected).collect();
    assert!(
        unexpected.is_empty(),
        "golden/ holds snapshots no sample makes, or snapshots waiting for review \
         (`cargo insta review`, or delete them): {unexpected:?}"
    );
}

#[test]
fn sample_names_are_unique() {
    let names: Vec<&str> = samples::all().iter().map(|sample| sample.name).collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len());
}
