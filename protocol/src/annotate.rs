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
    out.push_str(&serde_json::to_string_pretty(&message.to_json()).expect("JSON of a message"));
    out.push('\n');
    Ok(out)
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
