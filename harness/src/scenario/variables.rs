//! `${name}` references in a scenario's strings: `${group}`, a topic's name, or a value an earlier
//! step captured; `${name+N}` and `${name-N}` add to a number. One parser for the loader, which
//! refuses unknown names, and the runner, which substitutes the values.

use std::ops::Range;

/// One `${...}` in a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference<'a> {
    /// Bytes of the whole `${...}` in the string.
    pub range: Range<usize>,
    pub name: &'a str,
    /// What `+N` or `-N` adds.
    pub offset: Option<i64>,
}

/// The references in `text`, in order.
pub fn references(text: &str) -> Result<Vec<Reference<'_>>, String> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("${").map(|start| from + start) {
        let end = text[start..]
            .find('}')
            .map(|end| start + end)
            .ok_or_else(|| format!("unclosed reference in {text:?}"))?;
        let inner = &text[start + 2..end];
        // A sign after the first character starts an offset; `${-1}` is a (unknown) name.
        let (name, offset) = match inner.find(['+', '-']) {
            Some(sign) if sign > 0 => {
                let offset = inner[sign..]
                    .parse::<i64>()
                    .map_err(|_| format!("bad offset in ${{{inner}}}"))?;
                (&inner[..sign], Some(offset))
            }
            _ => (inner, None),
        };
        if name.is_empty() || name.contains("${") {
            return Err(format!("bad reference in {text:?}"));
        }
        found.push(Reference {
            range: start..end + 1,
            name,
            offset,
        });
        from = end + 1;
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_spliced_and_offset_references() {
        assert_eq!(
            references("${e}"),
            Ok(vec![Reference {
                range: 0..4,
                name: "e",
                offset: None
            }])
        );
        assert_eq!(
            references("a ${in} b ${e+1}${e-2}"),
            Ok(vec![
                Reference {
                    range: 2..7,
                    name: "in",
                    offset: None
                },
                Reference {
                    range: 10..16,
                    name: "e",
                    offset: Some(1)
                },
                Reference {
                    range: 16..22,
                    name: "e",
                    offset: Some(-2)
                },
            ])
        );
        assert_eq!(references("no references, {} $ {"), Ok(Vec::new()));
    }

    #[test]
    fn malformed_references_are_refused() {
        assert_eq!(
            references("x ${in"),
            Err("unclosed reference in \"x ${in\"".to_owned())
        );
        assert_eq!(references("${e+x}"), Err("bad offset in ${e+x}".to_owned()));
        assert_eq!(
            references("${}"),
            Err("bad reference in \"${}\"".to_owned())
        );
        assert_eq!(
            references("${a${b}"),
            Err("bad reference in \"${a${b}\"".to_owned())
        );
    }
}
