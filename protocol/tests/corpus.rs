//! The fuzz corpus in the workspace's `corpus/<target>/`: seeds are written here from the sample
//! messages plus named error-path seeds, then every file in the corpus (seeds and whatever the
//! fuzzer added) is replayed through the fuzz entry points. Under CI a stale seed fails the run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use streamspec_protocol::fuzzing::{self, seed};
use streamspec_protocol::{samples, MessageKind};

const TARGETS: [(&str, bool); 2] = [("decode_request", true), ("decode_response", false)];

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(target)
}

/// Seeds that walk the decoder's error paths, by file name.
fn error_seeds(requests: bool) -> BTreeMap<String, Vec<u8>> {
    let (kind, valid, array_at) = if requests {
        // A describe request whose first field is an array.
        (
            MessageKind::StreamsGroupDescribeRequest,
            vec![0x02, 0x02, b'g', 0x00, 0x00],
            0,
        )
    } else {
        // A describe response: throttle time, then the groups array.
        (
            MessageKind::StreamsGroupDescribeResponse,
            vec![0, 0, 0, 0, 0x01, 0x00],
            4,
        )
    };
    let with_array_length = |length: &[u8]| {
        let mut body = valid[..array_at].to_vec();
        body.extend_from_slice(length);
        body.extend_from_slice(&[0x00, 0x00]);
        seed(kind, 0, &body)
    };
    let mut invalid_utf8 = valid.clone();
    if requests {
        invalid_utf8[2] = 0xff;
    } else {
        invalid_utf8 = vec![0, 0, 0, 0, 0x02, 0x00, 0x02, 0xff];
    }
    let valid_seed = seed(kind, 0, &valid);
    let mut unknown_version = valid_seed.clone();
    unknown_version[1] = 9;
    let mut negative_version = valid_seed.clone();
    negative_version[1] = 0xff;
    BTreeMap::from([
        ("error-empty".to_owned(), vec![]),
        ("error-selector-only".to_owned(), valid_seed[..1].to_vec()),
        (
            "error-truncated".to_owned(),
            valid_seed[..valid_seed.len() - 2].to_vec(),
        ),
        (
            "error-trailing-bytes".to_owned(),
            [valid_seed.clone(), vec![0xff]].concat(),
        ),
        (
            "error-negative-array-length".to_owned(),
            with_array_length(&[0xff, 0xff, 0xff, 0xff, 0x0f]),
        ),
        (
            "error-huge-array-length".to_owned(),
            with_array_length(&[0xff, 0xff, 0xff, 0x7f]),
        ),
        (
            "error-overlong-varint".to_owned(),
            with_array_length(&[0x81, 0x00]),
        ),
        (
            "error-invalid-utf8".to_owned(),
            seed(kind, 0, &invalid_utf8),
        ),
        ("error-unknown-version".to_owned(), unknown_version),
        ("error-negative-version".to_owned(), negative_version),
    ])
}

fn expected_seeds(requests: bool) -> BTreeMap<String, Vec<u8>> {
    let mut seeds = error_seeds(requests);
    for sample in samples::all() {
        let kind = sample.message.kind();
        if kind.is_request() == requests {
            let body = sample.message.encode_to_vec(sample.version).unwrap();
            seeds.insert(
                format!("golden-{}", sample.name),
                seed(kind, sample.version, &body),
            );
            // The same message cut short in the middle.
            seeds.insert(
                format!("error-truncated-{}", sample.name),
                seed(kind, sample.version, &body[..body.len() / 2]),
            );
        }
    }
    seeds
}

#[test]
fn corpus_seeds_are_current_and_every_corpus_file_replays() {
    let in_ci = std::env::var_os("CI").is_some();
    let mut stale = Vec::new();
    for (target, requests) in TARGETS {
        let dir = corpus_dir(target);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, content) in expected_seeds(requests) {
            let path = dir.join(&name);
            if std::fs::read(&path).ok().as_deref() != Some(&content[..]) {
                stale.push(format!("{target}/{name}"));
                if !in_ci {
                    std::fs::write(&path, content).unwrap();
                }
            }
        }
        let mut replayed = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let input = std::fs::read(entry.unwrap().path()).unwrap();
            if requests {
                fuzzing::decode_request(&input);
            } else {
                fuzzing::decode_response(&input);
            }
            replayed += 1;
        }
        assert!(replayed >= expected_seeds(requests).len());
    }
    assert!(
        !in_ci || stale.is_empty(),
        "corpus seeds are stale; run `cargo test -p streamspec-protocol --test corpus` and commit: {stale:?}"
    );
}

#[test]
fn golden_seeds_decode_and_error_seeds_do_not() {
    for (_, requests) in TARGETS {
        let kinds = fuzzing::target_kinds(requests);
        for (name, input) in expected_seeds(requests) {
            let decodes = match &input[..] {
                [selector, version, body @ ..] => kinds[usize::from(*selector) % kinds.len()]
                    .decode(body, i16::from(*version as i8))
                    .is_ok(),
                _ => false,
            };
            assert_eq!(decodes, name.starts_with("golden-"), "{name}");
        }
    }
}
