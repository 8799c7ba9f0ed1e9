//! The JSON message specs as read from `schemas/`: messages, fields, version ranges and types.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Spec {
    pub(crate) api_key: i16,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) listeners: Vec<String>,
    pub(crate) name: String,
    pub(crate) valid_versions: String,
    pub(crate) flexible_versions: String,
    pub(crate) fields: Vec<FieldSpec>,
    #[serde(default)]
    pub(crate) common_structs: Vec<StructSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct FieldSpec {
    pub(crate) name: String,
    #[serde(rename = "type")]
    pub(crate) ty: String,
    pub(crate) versions: String,
    #[serde(default)]
    pub(crate) nullable_versions: Option<String>,
    #[serde(default)]
    pub(crate) default: Option<Value>,
    #[serde(default)]
    pub(crate) ignorable: bool,
    #[serde(default)]
    pub(crate) entity_type: Option<String>,
    pub(crate) about: String,
    #[serde(default)]
    pub(crate) fields: Option<Vec<FieldSpec>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct StructSpec {
    pub(crate) name: String,
    pub(crate) versions: String,
    pub(crate) fields: Vec<FieldSpec>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Versions {
    pub(crate) min: i16,
    pub(crate) max: Option<i16>,
}

impl Versions {
    pub(crate) fn parse(text: &str) -> Versions {
        if let Some(min) = text.strip_suffix('+') {
            Versions {
                min: min.parse().unwrap(),
                max: None,
            }
        } else if let Some((min, max)) = text.split_once('-') {
            Versions {
                min: min.parse().unwrap(),
                max: Some(max.parse().unwrap()),
            }
        } else {
            let only = text.parse().unwrap();
            Versions {
                min: only,
                max: Some(only),
            }
        }
    }

    /// These versions, limited to those of the enclosing message or struct.
    pub(crate) fn within(self, outer: Versions) -> Versions {
        let max = match (self.max, outer.max) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Versions {
            min: self.min.max(outer.min),
            max,
        }
    }

    /// The conditions under which a field with these versions is on the wire and off it, or
    /// `None` when it is in every version of the message.
    pub(crate) fn condition(self, message: Versions) -> Option<(String, String)> {
        let mut present = Vec::new();
        let mut absent = Vec::new();
        if self.min > message.min {
            present.push(format!("version >= {}", self.min));
            absent.push(format!("version < {}", self.min));
        }
        if let Some(max) = self.max {
            if max < message.max.unwrap() {
                present.push(format!("version <= {max}"));
                absent.push(format!("version > {max}"));
            }
        }
        (!present.is_empty()).then(|| (present.join(" && "), absent.join(" || ")))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ty {
    Bool,
    I8,
    I16,
    U16,
    I32,
    I64,
    Str,
    Array(Box<Ty>),
    Struct(String),
}

impl Ty {
    pub(crate) fn parse(text: &str) -> Ty {
        match text {
            "bool" => Ty::Bool,
            "int8" => Ty::I8,
            "int16" => Ty::I16,
            "uint16" => Ty::U16,
            "int32" => Ty::I32,
            "int64" => Ty::I64,
            "string" => Ty::Str,
            _ => match text.strip_prefix("[]") {
                Some(inner) => Ty::Array(Box::new(Ty::parse(inner))),
                None => {
                    assert!(
                        text.chars().next().unwrap().is_ascii_uppercase(),
                        "unsupported type {text}"
                    );
                    Ty::Struct(text.to_owned())
                }
            },
        }
    }

    pub(crate) fn rust(&self) -> String {
        match self {
            Ty::Bool => "bool".into(),
            Ty::I8 => "i8".into(),
            Ty::I16 => "i16".into(),
            Ty::U16 => "u16".into(),
            Ty::I32 => "i32".into(),
            Ty::I64 => "i64".into(),
            Ty::Str => "String".into(),
            Ty::Array(inner) => format!("Vec<{}>", inner.rust()),
            Ty::Struct(name) => name.clone(),
        }
    }

    pub(crate) fn primitive(&self) -> Option<(&'static str, usize)> {
        match self {
            Ty::Bool => Some(("bool", 1)),
            Ty::I8 => Some(("i8", 1)),
            Ty::I16 => Some(("i16", 2)),
            Ty::U16 => Some(("u16", 2)),
            Ty::I32 => Some(("i32", 4)),
            Ty::I64 => Some(("i64", 8)),
            _ => None,
        }
    }

    /// The fewest bytes a value of this type takes on the wire.
    /// A lower bound, used to refuse array counts the remaining input cannot hold: a struct
    /// counts its tagged-field byte and the fields present in every version (a nullable one as
    /// its one-byte null).
    pub(crate) fn min_size(&self, structs: &HashMap<String, Vec<&FieldSpec>>) -> usize {
        if let Some((_, size)) = self.primitive() {
            return size;
        }
        match self {
            Ty::Struct(name) => {
                let in_every_version = |field: &&&FieldSpec| {
                    Versions::parse(&field.versions) == Versions { min: 0, max: None }
                };
                1 + structs[name]
                    .iter()
                    .filter(in_every_version)
                    .map(|field| match field.nullable_versions {
                        Some(_) => 1,
                        None => Ty::parse(&field.ty).min_size(structs),
                    })
                    .sum::<usize>()
            }
            _ => 1,
        }
    }

    pub(crate) fn contains_struct(&self) -> bool {
        match self {
            Ty::Struct(_) => true,
            Ty::Array(inner) => inner.contains_struct(),
            _ => false,
        }
    }
}

pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (index, ch) in name.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if index > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// The name Kafka's JSON converters use: the spec name with its first letter in lower case.
pub(crate) fn json_name(name: &str) -> String {
    let mut chars = name.chars();
    let first = chars.next().unwrap().to_ascii_lowercase();
    std::iter::once(first).chain(chars).collect()
}

/// Kafka's JSON message specs allow `//` line comments.
pub(crate) fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut escaped = false;
        let mut cut = line.len();
        let bytes = line.as_bytes();
        for (index, &byte) in bytes.iter().enumerate() {
            match byte {
                _ if escaped => escaped = false,
                b'\\' if in_string => escaped = true,
                b'"' => in_string = !in_string,
                b'/' if !in_string && bytes.get(index + 1) == Some(&b'/') => {
                    cut = index;
                    break;
                }
                _ => {}
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}
