//! Where a value sits in a JSON text, found by its path, so that an error about a parsed value can
//! name the line and column a reader should look at.

/// One step of a path into a JSON document: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

impl From<&str> for Segment {
    fn from(key: &str) -> Self {
        Segment::Key(key.to_owned())
    }
}

impl From<usize> for Segment {
    fn from(index: usize) -> Self {
        Segment::Index(index)
    }
}

/// The 1-based line and column (in characters) of the first character of the value at `path` in
/// `text`; none when `text` has no value there. Of a key given twice, the last counts, as
/// serde_json's maps keep the last. Malformed text gives none, never a panic.
pub fn locate(text: &str, path: &[Segment]) -> Option<(usize, usize)> {
    let mut cursor = Cursor { text, at: 0 };
    cursor.skip_whitespace();
    for segment in path {
        cursor.enter(segment)?;
    }
    Some(line_and_column(text, cursor.at))
}

/// Like [`locate`], but falls back to the longest prefix of `path` that is in the text (a value
/// left at its default has no place of its own; its parent does).
pub fn locate_nearest(text: &str, path: &[Segment]) -> Option<(usize, usize)> {
    (0..=path.len())
        .rev()
        .find_map(|length| locate(text, &path[..length]))
}

fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}

struct Cursor<'a> {
    text: &'a str,
    /// A byte offset, always at a character boundary: it only stops at ASCII bytes.
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek() == Some(byte)).then(|| self.at += 1)
    }

    /// Moves from the start of an object or array to the start of its member `segment`.
    fn enter(&mut self, segment: &Segment) -> Option<()> {
        match segment {
            Segment::Key(wanted) => {
                self.expect(b'{')?;
                let mut found = None;
                loop {
                    self.skip_whitespace();
                    if self.peek() == Some(b'}') {
                        break;
                    }
                    let key = self.string()?;
                    self.expect(b':')?;
                    self.skip_whitespace();
                    if key == *wanted {
                        found = Some(self.at);
                    }
                    self.skip_value()?;
                    self.skip_whitespace();
                    match self.peek()? {
                        b',' => self.at += 1,
                        b'}' => {}
                        _ => return None,
                    }
                }
                self.at = found?;
            }
            Segment::Index(wanted) => {
                self.expect(b'[')?;
                for _ in 0..*wanted {
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        return None;
                    }
                    self.skip_value()?;
                    self.expect(b',')?;
                }
                self.skip_whitespace();
                if matches!(self.peek(), Some(b']') | None) {
                    return None;
                }
            }
        }
        Some(())
    }

    /// Reads a string, escapes decoded, and stops after its closing quote.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        self.skip_string()?;
        serde_json::from_str(&self.text[start..self.at]).ok()
    }

    fn skip_string(&mut self) -> Option<()> {
        (self.peek() == Some(b'"')).then_some(())?;
        self.at += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
    }

    /// Skips one value; nested objects and arrays by counting brackets, so that depth costs no
    /// stack.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0_usize;
        loop {
            match self.peek()? {
                b'"' => self.skip_string()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.at += 1;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.at += 1;
                }
                b',' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return Some(()),
                // Scalar text; a multi-byte character goes byte by byte (none of them ASCII).
                _ => self.at += 1,
            }
            if depth == 0 && matches!(self.peek(), None | Some(b',' | b'}' | b']')) {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(segments: &[Segment]) -> Vec<Segment> {
        segments.to_vec()
    }

    fn key(name: &str) -> Segment {
        Segment::from(name)
    }

    const TEXT: &str = r#"{
  "name": "x",
  "steps": [
    { "sleep_ms": 5 },
    { "heartbeat": { "member": "a", "fields": {"memberEpok": 1} },
      "expect": {"errorCode": [1, {"k": "é}]\"{"}, 3]} }
  ],
  "topics": [{"name": "in", "partitions": 2000000000}]
}"#;

    #[test]
    fn finds_values_by_key_and_index() {
        assert_eq!(locate(TEXT, &[]), Some((1, 1)));
        assert_eq!(locate(TEXT, &path(&[key("name")])), Some((2, 11)));
        assert_eq!(
            locate(TEXT, &path(&[key("steps"), 0.into(), key("sleep_ms")])),
            Some((4, 19))
        );
        assert_eq!(
            locate(
                TEXT,
                &path(&[
                    key("steps"),
                    1.into(),
                    key("heartbeat"),
                    key("fields"),
                    key("memberEpok")
                ])
            ),
            Some((5, 62))
        );
        assert_eq!(
            locate(TEXT, &path(&[key("topics"), 0.into(), key("partitions")])),
            Some((8, 43))
        );
    }

    #[test]
    fn skips_strings_with_brackets_escapes_and_wide_characters() {
        let expect = path(&[key("steps"), 1.into(), key("expect"), key("errorCode")]);
        assert_eq!(locate(TEXT, &expect), Some((6, 31)));
        let mut third = expect.clone();
        third.push(2.into());
        assert_eq!(locate(TEXT, &third), Some((6, 52)));
        let mut inner = expect;
        inner.extend([1.into(), key("k")]);
        assert_eq!(locate(TEXT, &inner), Some((6, 41)));
    }

    #[test]
    fn keys_with_escapes_match_their_decoded_text_and_the_last_duplicate_counts() {
        let text = "{\"a\\u0062\": 1, \"x\": 2, \"x\": 3}";
        assert_eq!(locate(text, &[key("ab")]), Some((1, 13)));
        assert_eq!(locate(text, &[key("x")]), Some((1, 29)));
    }

    #[test]
    fn a_missing_value_has_no_position_but_its_parent_has() {
        assert_eq!(locate(TEXT, &[key("nope")]), None);
        assert_eq!(locate(TEXT, &[key("steps"), 2.into()]), None);
        assert_eq!(locate(TEXT, &[key("name"), key("deeper")]), None);
        assert_eq!(locate(TEXT, &[key("steps"), key("x")]), None);
        assert_eq!(locate("[]", &[0.into()]), None);
        assert_eq!(
            locate_nearest(TEXT, &[key("steps"), 0.into(), key("until")]),
            Some((4, 5))
        );
    }

    #[test]
    fn malformed_text_gives_none_without_panic() {
        for text in [
            "",
            "{",
            "{\"a\"",
            "{\"a\": ",
            "{\"a\": [1, ",
            "\"\\",
            "}}}",
            "{\"a\": 1 \"b\": 2}",
            "[[[[",
        ] {
            assert_eq!(locate(text, &[key("b")]), None, "{text:?}");
            assert_eq!(locate(text, &[3.into()]), None, "{text:?}");
        }
        // Skipping a deep value takes no stack.
        let deep = "[".repeat(100_000);
        assert_eq!(locate(&deep, &[1.into()]), None);
        assert_eq!(locate(&deep, &[0.into(), 0.into()]), Some((1, 3)));
    }
}
