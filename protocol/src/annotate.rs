//! Readable dumps of encoded messages: every value with its offset, its bytes (16 a row), its field
//! path and its decoded value, then the whole message as JSON. Golden snapshots and failure reports
//! use this form.

use std::fmt::Write as _;

use crate::{DecodeError, MessageKind};

const BYTES_PER_ROW: usize = 16;

/// Decodes `bytes` as a `kind` message at `version` and lays it out field by field.
pub fn annotate(kind: MessageKind, bytes: &[u8], version: i16) -> Result<String, DecodeError> {
    let (message, trace) = kind.decode_traced(bytes, version)?;
    let mut out = String::new();
    writeln!(
        out,
        "{} v{version} ({:?} dialect, api key {}), {} bytes",
        kind.name(),
        kind.dialect(),
        kind.api_key(),
        bytes.len()
    )
    .unwrap();
    out.push_str("\noffset  bytes                                            field = value\n");
    let mut covered = 0;
    for entry in &trace {
        if entry.start > covered {
            write_rows(&mut out, bytes, covered, entry.start, "<not decoded>");
        }
        let label = format!("{} = {}", entry.path(), entry.value);
        write_rows(&mut out, bytes, entry.start, entry.end, &label);
        covered = covered.max(entry.end);
    }
    if covered < bytes.len() {
        write_rows(&mut out, bytes, covered, bytes.len(), "<not decoded>");
    }
    out.push_str("\ndecoded:\n");
    // Only what the version carries: a v0 answer shows no v1 field at its default.
    let on_the_wire: Vec<String> = trace.iter().map(|entry| entry.path()).collect();
    let json = only_fields_on_the_wire(message.to_json(), "", &on_the_wire);
    out.push_str(&serde_json::to_string_pretty(&json).expect("JSON of a message"));
    out.push('\n');
    Ok(out)
}

/// `value` without the object members that no decoded field path (`on_the_wire`, e.g.
/// `status[0].status_code`) passes through; `prefix` is the snake-case path of `value` itself.
fn only_fields_on_the_wire(
    value: serde_json::Value,
    prefix: &str,
    on_the_wire: &[String],
) -> serde_json::Value {
    match value {
        serde_json::Value::Object(members) => members
            .into_iter()
            .filter_map(|(key, member)| {
                let path = if prefix.is_empty() {
                    snake_case(&key)
                } else {
                    format!("{prefix}.{}", snake_case(&key))
                };
                let carried = key.starts_with('_')
                    || on_the_wire.iter().any(|decoded| {
                        decoded
                            .strip_prefix(path.as_str())
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
                    });
                carried.then(|| (key, only_fields_on_the_wire(member, &path, on_the_wire)))
            })
            .collect(),
        serde_json::Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                only_fields_on_the_wire(item, &format!("{prefix}[{index}]"), on_the_wire)
            })
            .collect(),
        other => other,
    }
}

/// `acceptableRecoveryLag` -> `acceptable_recovery_lag`, as field paths spell names.
fn snake_case(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for ch in camel.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// The value's bytes in rows of 16, the label on the first row only.
fn write_rows(out: &mut String, bytes: &[u8], start: usize, end: usize, label: &str) {
    let mut row_start = start;
    let mut first = true;
    loop {
        let row_end = (row_start + BYTES_PER_ROW).min(end);
        let hex: Vec<String> = bytes[row_start..row_end]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let text = if first { label } else { "" };
        let row = format!("{row_start:06x}  {:<48} {text}", hex.join(" "));
        out.push_str(row.trim_end());
        out.push('\n');
        first = false;
        row_start = row_end;
        if row_start >= end {
            break;
        }
    }
}

#[cfg(test)]
mod version_tests {
    use super::*;
    use crate::kafka::StreamsGroupHeartbeatResponse;
    use crate::WireMessage;

    #[test]
    fn the_decoded_json_shows_only_the_fields_of_the_version() {
        let response = StreamsGroupHeartbeatResponse::default().with_member_id("a");
        let decoded = |version: i16| {
            let bytes = response.encode_to_vec(version).unwrap();
            let text = annotate(StreamsGroupHeartbeatResponse::KIND, &bytes, version).unwrap();
            text[text.find("decoded:").unwrap()..].to_owned()
        };
        let v0 = decoded(0);
        assert!(
            v0.contains("\n  \"acceptableRecoveryLagLegacy\": 0,\n"),
            "{v0}"
        );
        assert!(!v0.contains("\"acceptableRecoveryLag\""), "{v0}");
        assert!(!v0.contains("topologyDescriptionRequired"), "{v0}");
        let v1 = decoded(1);
        assert!(v1.contains("\n  \"acceptableRecoveryLag\": -1,\n"), "{v1}");
        assert!(
            v1.contains("\n  \"topologyDescriptionRequired\": false,\n"),
            "{v1}"
        );
        assert!(!v1.contains("acceptableRecoveryLagLegacy"), "{v1}");
    }

    #[test]
    fn camel_case_names_read_as_field_paths() {
        assert_eq!(
            snake_case("acceptableRecoveryLag"),
            "acceptable_recovery_lag"
        );
        assert_eq!(snake_case("groupId"), "group_id");
    }
}
