//! Generates `src/generated/` from the JSON message specs in `schemas/`.
//!
//! The generated code is checked in, so that it can be read, reviewed and browsed like any other
//! code and so that builds need no build script; the protocol crate's `generated_code` test runs
//! this generator and fails when the checked-in files differ from its output. A crate of its own,
//! so that it runs even when the generated code does not compile.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// The dialects, each a folder of `schemas/` and a module of `src/generated/`.
const DIALECTS: &[(&str, &str, &str)] = &[
    // (schema folder, module, prefix of MessageKind variants)
    ("kafka", "kafka", ""),
    ("kip-draft", "kip_draft", "KipDraft"),
];

mod spec;

use spec::{json_name, snake_case, strip_comments, FieldSpec, Spec, Ty, Versions};

struct Field<'s> {
    spec: &'s FieldSpec,
    rust_name: String,
    ty: Ty,
    nullable: bool,
    /// (present, absent) conditions when the field is not in every version.
    condition: Option<(String, String)>,
}

impl<'s> Field<'s> {
    fn new(spec: &'s FieldSpec, message_versions: Versions) -> Field<'s> {
        let versions = Versions::parse(&spec.versions);
        if let Some(nullable) = &spec.nullable_versions {
            assert_eq!(
                Versions::parse(nullable),
                versions,
                "{}: nullable in only some versions is not supported",
                spec.name
            );
        }
        Field {
            spec,
            rust_name: snake_case(&spec.name),
            ty: Ty::parse(&spec.ty),
            nullable: spec.nullable_versions.is_some(),
            condition: versions.condition(message_versions),
        }
    }

    fn rust_type(&self) -> String {
        if self.nullable {
            format!("Option<{}>", self.ty.rust())
        } else {
            self.ty.rust()
        }
    }

    fn default_expr(&self) -> String {
        let default = self.spec.default.as_ref();
        let default_text = default.map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        });
        if self.nullable && default_text.as_deref() == Some("null") {
            return "None".into();
        }
        let inner = match &self.ty {
            Ty::Bool => default_text.unwrap_or_else(|| "false".into()),
            Ty::I8 | Ty::I16 | Ty::U16 | Ty::I32 | Ty::I64 => {
                let value: i64 = default_text.as_deref().unwrap_or("0").parse().unwrap();
                value.to_string()
            }
            Ty::Str => match default_text.as_deref() {
                None | Some("") => "String::new()".into(),
                Some(text) => format!("String::from({text:?})"),
            },
            Ty::Array(_) => {
                assert!(default_text.is_none(), "{}: array default", self.spec.name);
                "Vec::new()".into()
            }
            Ty::Struct(name) => format!("{name}::default()"),
        };
        if self.nullable {
            format!("Some({inner})")
        } else {
            inner
        }
    }

    fn is_default_expr(&self) -> String {
        let name = &self.rust_name;
        match self.default_expr().as_str() {
            "None" => format!("self.{name}.is_none()"),
            "false" => format!("!self.{name}"),
            "true" => format!("self.{name}"),
            "Vec::new()" | "String::new()" => format!("self.{name}.is_empty()"),
            default => format!("self.{name} == {default}"),
        }
    }

    fn read_expr(&self, structs: &HashMap<String, Vec<&FieldSpec>>) -> String {
        fn item(ty: &Ty) -> String {
            match ty {
                Ty::Str => "decoder.string()".into(),
                Ty::Struct(name) => format!("{name}::read(decoder, version)"),
                other => format!("decoder.{}()", other.primitive().unwrap().0),
            }
        }
        match (&self.ty, self.nullable) {
            (Ty::Str, true) => "decoder.nullable_string()".into(),
            // Integers of one width: read from one slice (bool items keep their 0/1 check).
            (Ty::Array(inner), false)
                if !matches!(**inner, Ty::Bool) && inner.primitive().is_some() =>
            {
                format!(
                    "decoder.fixed_array({}::from_be_bytes)",
                    inner.primitive().unwrap().0
                )
            }
            (Ty::Array(inner), nullable) => format!(
                "decoder.{}({}, |decoder| {})",
                if nullable { "nullable_array" } else { "array" },
                inner.min_size(structs),
                item(inner)
            ),
            (Ty::Struct(name), true) => {
                format!("decoder.nullable_struct(|decoder| {name}::read(decoder, version))")
            }
            (ty, false) => item(ty),
            (ty, true) => panic!("nullable {ty:?} is not supported"),
        }
    }

    /// A statement writing the field; `None` for primitives, which cannot fail.
    fn write_stmt(&self) -> String {
        let name = &self.rust_name;
        if let Some((method, _)) = self.ty.primitive() {
            return format!("encoder.{method}(self.{name});");
        }
        fn item(ty: &Ty) -> String {
            match ty {
                Ty::Str => "encoder.string(item)".into(),
                Ty::Struct(_) => "item.write(encoder, version)".into(),
                other => format!(
                    "{{ encoder.{}(*item); Ok(()) }}",
                    other.primitive().unwrap().0
                ),
            }
        }
        let body = match (&self.ty, self.nullable) {
            (Ty::Str, false) => format!("encoder.string(&self.{name})"),
            (Ty::Str, true) => format!("encoder.nullable_string(self.{name}.as_deref())"),
            (Ty::Array(inner), false) => {
                format!("encoder.array(&self.{name}, |encoder, item| {})", item(inner))
            }
            (Ty::Array(inner), true) => format!(
                "encoder.nullable_array(self.{name}.as_deref(), |encoder, item| {})",
                item(inner)
            ),
            (Ty::Struct(_), false) => format!("self.{name}.write(encoder, version)"),
            (Ty::Struct(_), true) => format!(
                "encoder.nullable_struct(self.{name}.as_ref(), |encoder, value| value.write(encoder, version))"
            ),
            (ty, _) => panic!("unsupported {ty:?}"),
        };
        format!("encoder.field({name:?}, |encoder| {body})?;")
    }

    /// The field's type in a `...View<'a>`.
    fn view_type(&self) -> String {
        let inner = view_type(&self.ty);
        if self.nullable {
            format!("Option<{inner}>")
        } else {
            inner
        }
    }

    /// The default of [`Field::default_expr`], as a view holds it.
    fn view_default_expr(&self) -> String {
        let owned = self.default_expr();
        let (wrap, inner) = match owned.strip_prefix("Some(") {
            Some(inner) => (true, inner.strip_suffix(')').unwrap()),
            None => (false, owned.as_str()),
        };
        let inner = if inner == "String::new()" {
            "\"\"".to_owned()
        } else if let Some(text) = inner
            .strip_prefix("String::from(")
            .and_then(|rest| rest.strip_suffix(')'))
        {
            text.to_owned()
        } else if inner == "Vec::new()" {
            "ArrayView::default()".to_owned()
        } else if let Some(name) = inner.strip_suffix("::default()") {
            format!("{name}View::default()")
        } else {
            inner.to_owned()
        };
        if wrap {
            format!("Some({inner})")
        } else {
            inner
        }
    }

    /// The validating read of the field by the borrowed decoder, mirroring [`Field::read_expr`]:
    /// keeping its value (`keep`), or the same checks in the same order keeping nothing (a
    /// `DecodeResult<()>`, for the fields of array items, whose values the view does not hold).
    fn view_expr(&self, structs: &HashMap<String, Vec<&FieldSpec>>, keep: bool) -> String {
        let (check, drop, nothing, view_fn) = if keep {
            ("", "", "", "read")
        } else {
            ("check_", ".map(drop)", "::<()>", "check")
        };
        match (&self.ty, self.nullable) {
            (Ty::Str, false) => format!("decoder.{check}str()"),
            (Ty::Str, true) => format!("decoder.{check}nullable_str()"),
            (Ty::Array(inner), false)
                if !matches!(**inner, Ty::Bool) && inner.primitive().is_some() =>
            {
                let (name, size) = inner.primitive().unwrap();
                let element = if keep { name } else { "()" };
                format!("decoder.fixed_array_view::<{element}, {size}>(version){drop}")
            }
            (Ty::Array(inner), nullable) => format!(
                "decoder.{}{nothing}(version, {}, |decoder| {}){drop}",
                if nullable {
                    "nullable_array_view"
                } else {
                    "array_view"
                },
                inner.min_size(structs),
                check_item(inner)
            ),
            (Ty::Struct(name), true) => format!(
                "decoder.nullable_struct(|decoder| {name}View::{view_fn}(decoder, version)){drop}"
            ),
            (Ty::Struct(name), false) => format!("{name}View::{view_fn}(decoder, version)"),
            (ty, false) => format!("decoder.{}(){drop}", ty.primitive().unwrap().0),
            (ty, true) => panic!("nullable {ty:?} is not supported"),
        }
    }

    /// The field read again from validated bytes, an `Option` (`None` only at their end).
    fn view_parse_expr(&self) -> String {
        match (&self.ty, self.nullable) {
            (Ty::Str, false) => "cursor.string()".into(),
            (Ty::Str, true) => "cursor.nullable_string()".into(),
            (Ty::Array(inner), nullable) => format!(
                "cursor.{}::<{}>(version)",
                if nullable { "nullable_array" } else { "array" },
                view_type(inner)
            ),
            (Ty::Struct(name), false) => format!("{name}View::parse(cursor, version)"),
            (Ty::Struct(name), true) => format!(
                "match cursor.present()? {{ true => {name}View::parse(cursor, version).map(Some), false => Some(None) }}"
            ),
            (ty, _) => format!("cursor.{}()", ty.primitive().unwrap().0),
        }
    }

    /// A statement passing over the field in validated bytes.
    fn view_skip_stmt(&self) -> String {
        match (&self.ty, self.nullable) {
            (Ty::Str, _) => "cursor.skip_string()?;".into(),
            (Ty::Array(inner), _) => {
                format!("cursor.skip_array::<{}>(version)?;", view_type(inner))
            }
            (Ty::Struct(name), false) => format!("{name}View::skip(cursor, version)?;"),
            (Ty::Struct(name), true) => {
                format!("if cursor.present()? {{ {name}View::skip(cursor, version)?; }}")
            }
            (ty, _) => format!("cursor.skip({})?;", ty.primitive().unwrap().1),
        }
    }

    /// The owned value of the field, from a view in `self`.
    fn view_to_owned_expr(&self) -> String {
        let name = &self.rust_name;
        fn items(ty: &Ty, array: &str) -> String {
            match ty {
                Ty::Str => format!("{array}.iter().map(String::from).collect()"),
                Ty::Struct(name) => {
                    format!("{array}.iter().map(|item| {name}View::to_owned(&item)).collect()")
                }
                _ => format!("{array}.iter().collect()"),
            }
        }
        match (&self.ty, self.nullable) {
            (Ty::Str, false) => format!("String::from(self.{name})"),
            (Ty::Str, true) => format!("self.{name}.map(String::from)"),
            (Ty::Array(inner), false) => items(inner, &format!("self.{name}")),
            (Ty::Array(inner), true) => {
                format!("self.{name}.map(|items| {})", items(inner, "items"))
            }
            (Ty::Struct(name_), false) => format!("{name_}View::to_owned(&self.{name})"),
            (Ty::Struct(name_), true) => {
                format!("self.{name}.as_ref().map({name_}View::to_owned)")
            }
            _ => format!("self.{name}"),
        }
    }

    /// A statement handing the field's values to `visitor`: arrays in one pass over their bytes
    /// when `one_pass`, else item by item through iteration.
    fn view_visit_stmt(&self, one_pass: bool) -> String {
        let method = if one_pass { "visit" } else { "visit_fields" };
        let value = |ty: &Ty, expr: &str| -> String {
            match ty {
                Ty::Str => format!("visitor.string({expr});"),
                Ty::Struct(_) => format!("{expr}.{method}(visitor);"),
                Ty::Array(_) if one_pass => format!("{expr}.visit_items(visitor);"),
                Ty::Array(inner) => format!(
                    "visitor.array({expr}.len()); for item in {expr}.iter() {{ {} }}",
                    match &**inner {
                        Ty::Str => "visitor.string(item);".to_owned(),
                        Ty::Struct(_) => "item.visit_fields(visitor);".to_owned(),
                        other => format!("visitor.integer({});", as_i64(other, "item")),
                    }
                ),
                other => format!("visitor.integer({});", as_i64(other, expr)),
            }
        };
        let name = &self.rust_name;
        if self.nullable {
            let borrow = if matches!(self.ty, Ty::Struct(_)) {
                "&"
            } else {
                ""
            };
            format!(
                "match {borrow}self.{name} {{ Some(value) => {{ {} }} None => visitor.null(), }}",
                value(&self.ty, "value")
            )
        } else {
            value(&self.ty, &format!("self.{name}"))
        }
    }

    /// A statement reading the field from validated bytes and handing its values to `visitor`.
    fn view_visit_bytes_stmt(&self) -> String {
        match (&self.ty, self.nullable) {
            (Ty::Str, false) => "visitor.string(cursor.string()?);".into(),
            (Ty::Str, true) => "match cursor.nullable_string()? { Some(value) => visitor.string(value), None => visitor.null(), }".into(),
            (Ty::Array(inner), _) => format!(
                "cursor.visit_array::<{}, V>(version, visitor)?;",
                view_type(inner)
            ),
            (Ty::Struct(name), false) => {
                format!("{name}View::visit_bytes(cursor, version, visitor)?;")
            }
            (Ty::Struct(name), true) => format!(
                "if cursor.present()? {{ {name}View::visit_bytes(cursor, version, visitor)?; }} else {{ visitor.null(); }}"
            ),
            (ty, _) => format!(
                "visitor.integer({});",
                as_i64(ty, &format!("cursor.{}()?", ty.primitive().unwrap().0))
            ),
        }
    }

    /// A statement restricting nested structs to the version; `None` when there are none.
    fn restrict_nested(&self) -> Option<String> {
        let name = &self.rust_name;
        let call = "restrict_to_version(version)";
        match (&self.ty, self.nullable) {
            (Ty::Struct(_), false) => Some(format!("self.{name}.{call};")),
            (Ty::Struct(_), true) => Some(format!(
                "if let Some(value) = &mut self.{name} {{ value.{call}; }}"
            )),
            (Ty::Array(inner), false) if inner.contains_struct() => {
                Some(format!("for item in &mut self.{name} {{ item.{call}; }}"))
            }
            (Ty::Array(inner), true) if inner.contains_struct() => Some(format!(
                "for item in self.{name}.iter_mut().flatten() {{ item.{call}; }}"
            )),
            _ => None,
        }
    }
}

/// `expr`, an integer or boolean of type `ty`, as the `i64` a `ValueVisitor` takes.
fn as_i64(ty: &Ty, expr: &str) -> String {
    if *ty == Ty::I64 {
        expr.to_owned()
    } else {
        format!("i64::from({expr})")
    }
}

/// A type as a view holds it: strings borrowed, arrays as `ArrayView`s, structs as their views.
fn view_type(ty: &Ty) -> String {
    match ty {
        Ty::Str => "&'a str".into(),
        Ty::Array(inner) => format!("ArrayView<'a, {}>", view_type(inner)),
        Ty::Struct(name) => format!("{name}View<'a>"),
        other => other.rust(),
    }
}

struct StructDef<'s> {
    name: String,
    about: String,
    /// The versions the struct is on the wire in; its fields' conditions are relative to these.
    versions: Versions,
    fields: Vec<&'s FieldSpec>,
}

/// The message struct, its inline structs in order of appearance, then its common structs.
fn collect_structs(spec: &Spec) -> Vec<StructDef<'_>> {
    let message_versions = Versions::parse(&spec.valid_versions);
    fn walk<'s>(fields: &'s [FieldSpec], within: Versions, out: &mut Vec<StructDef<'s>>) {
        for field in fields {
            if let Some(inner) = &field.fields {
                let versions = Versions::parse(&field.versions).within(within);
                out.push(StructDef {
                    name: field.ty.trim_start_matches("[]").to_owned(),
                    about: field.about.clone(),
                    versions,
                    fields: inner.iter().collect(),
                });
                walk(inner, versions, out);
            }
        }
    }
    let mut out = vec![StructDef {
        name: spec.name.clone(),
        about: String::new(),
        versions: message_versions,
        fields: spec.fields.iter().collect(),
    }];
    walk(&spec.fields, message_versions, &mut out);
    for common in &spec.common_structs {
        let versions = Versions::parse(&common.versions).within(message_versions);
        out.push(StructDef {
            name: common.name.clone(),
            about: String::new(),
            versions,
            fields: common.fields.iter().collect(),
        });
        walk(&common.fields, versions, &mut out);
    }
    out
}

fn doc(out: &mut String, text: &str) {
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            out.push_str("///\n");
        } else {
            writeln!(out, "/// {line}").unwrap();
        }
    }
}

fn generate_message(spec: &Spec, dialect: &str, schema_path: &str) -> String {
    assert_eq!(
        spec.flexible_versions, "0+",
        "{}: only flexible messages",
        spec.name
    );
    let versions = Versions::parse(&spec.valid_versions);
    let max_version = versions.max.unwrap();
    let structs = collect_structs(spec);
    let by_name: HashMap<String, Vec<&FieldSpec>> = structs
        .iter()
        .map(|def| (def.name.clone(), def.fields.clone()))
        .collect();
    let mut out = String::new();
    writeln!(out, "// Generated from `protocol/{schema_path}` by `streamspec-codegen` (`protocol/codegen`); do not edit.").unwrap();
    writeln!(
        out,
        "//! `{}` (api key {}, versions {}), {} dialect.",
        spec.name, spec.api_key, spec.valid_versions, dialect
    )
    .unwrap();
    out.push_str("\nuse serde::{Deserialize, Serialize};\n\n");
    out.push_str(
        "use crate::codec::{arbitrary_tagged_fields, DecodeResult, Decoder, EncodeResult, Encoder, Recorder, Sink, TaggedFields};\nuse crate::error::{DecodeError, DecodeErrorKind};\nuse crate::view::{ArrayView, Cursor, MessageView, RawTaggedFields, ValueVisitor, ViewItem};\n\n",
    );

    for def in &structs {
        let fields: Vec<Field> = def
            .fields
            .iter()
            .map(|spec| Field::new(spec, def.versions))
            .collect();
        let is_message = def.name == spec.name;
        if is_message {
            writeln!(
                out,
                "/// The `{}` message; every field of every version.",
                spec.name
            )
            .unwrap();
            if !spec.listeners.is_empty() {
                writeln!(out, "///\n/// Served by: {}.", spec.listeners.join(", ")).unwrap();
            }
        } else if !def.about.is_empty() {
            doc(&mut out, &def.about);
        } else {
            writeln!(out, "/// The `{}` struct of `{}`.", def.name, spec.name).unwrap();
        }
        out.push_str("#[non_exhaustive]\n#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]\n#[serde(default)]\n");
        writeln!(out, "pub struct {} {{", def.name).unwrap();
        for field in &fields {
            doc(&mut out, &field.spec.about);
            let mut facts = format!("Versions {}", field.spec.versions);
            if field.nullable {
                facts.push_str(", nullable");
            }
            if field.spec.ignorable {
                facts.push_str(", ignorable");
            }
            if let Some(entity) = &field.spec.entity_type {
                write!(facts, ", entity type `{entity}`").unwrap();
            }
            writeln!(out, "///\n/// {facts}.").unwrap();
            writeln!(out, "#[serde(rename = {:?})]", json_name(&field.spec.name)).unwrap();
            writeln!(out, "pub {}: {},", field.rust_name, field.rust_type()).unwrap();
        }
        out.push_str("/// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.\n");
        out.push_str("#[serde(rename = \"_unknownTaggedFields\", skip_serializing_if = \"TaggedFields::is_empty\")]\n");
        out.push_str("#[arbitrary(with = arbitrary_tagged_fields)]\n");
        out.push_str("pub unknown_tagged_fields: TaggedFields,\n}\n\n");

        writeln!(
            out,
            "impl Default for {} {{\n#[inline]\nfn default() -> Self {{\n{} {{",
            def.name, def.name
        )
        .unwrap();
        for field in &fields {
            writeln!(out, "{}: {},", field.rust_name, field.default_expr()).unwrap();
        }
        out.push_str("unknown_tagged_fields: TaggedFields::new(),\n}\n}\n}\n\n");

        writeln!(out, "impl {} {{", def.name).unwrap();
        for field in &fields {
            let name = &field.rust_name;
            if field.ty == Ty::Str && !field.nullable {
                writeln!(out, "/// Sets `{name}`.\n#[inline]\npub fn with_{name}(mut self, value: impl Into<String>) -> Self {{ self.{name} = value.into(); self }}").unwrap();
            } else {
                writeln!(out, "/// Sets `{name}`.\n#[inline]\npub fn with_{name}(mut self, value: {}) -> Self {{ self.{name} = value; self }}", field.rust_type()).unwrap();
            }
        }

        let reads_version = fields
            .iter()
            .any(|f| f.condition.is_some() || f.ty.contains_struct());
        let version_param = if reads_version { "version" } else { "_version" };
        writeln!(out, "\npub(crate) fn read<R: Recorder>(decoder: &mut Decoder<'_, R>, {version_param}: i16) -> DecodeResult<Self> {{").unwrap();
        let mut tail = String::from("let unknown_tagged_fields = decoder.tagged_fields()?;\n");
        if is_message {
            // Before the value is assembled, so that it is built in the caller's slot.
            tail.push_str("decoder.end_of_message()?;\n");
        }
        reader_body(
            &mut out,
            &fields,
            |field| {
                format!(
                    "decoder.field({:?}, |decoder| {})?",
                    field.rust_name,
                    field.read_expr(&by_name)
                )
            },
            Field::default_expr,
            &tail,
            "Ok",
        );

        writeln!(out, "pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, {version_param}: i16) -> EncodeResult {{").unwrap();
        for field in &fields {
            let write = field.write_stmt();
            match (&field.condition, field.spec.ignorable) {
                (None, _) => writeln!(out, "{write}").unwrap(),
                (Some((condition, _)), true) => {
                    writeln!(out, "// Ignorable: a value the version cannot carry is dropped.\nif {condition} {{ {write} }}").unwrap()
                }
                (Some((condition, _)), false) => writeln!(
                    out,
                    "if {condition} {{ {write} }} else {{ encoder.absent_field({:?}, {}, version)?; }}",
                    field.rust_name,
                    field.is_default_expr()
                )
                .unwrap(),
            }
        }
        out.push_str("encoder.tagged_fields(&self.unknown_tagged_fields)\n}\n\n");

        let mut restrict = String::new();
        for field in &fields {
            let nested = field.restrict_nested();
            match (&field.condition, nested) {
                (Some((_, absent)), nested) => {
                    write!(
                        restrict,
                        "if {absent} {{ self.{} = {}; }}",
                        field.rust_name,
                        field.default_expr()
                    )
                    .unwrap();
                    if let Some(nested) = nested {
                        write!(restrict, " else {{ {nested} }}").unwrap();
                    }
                    restrict.push('\n');
                }
                (None, Some(nested)) => writeln!(restrict, "{nested}").unwrap(),
                (None, None) => {}
            }
        }
        let restrict_param = if restrict.is_empty() {
            "_version"
        } else {
            "version"
        };
        writeln!(out, "/// Resets every field that `version` lacks to its default, here and in nested structs.\npub fn restrict_to_version(&mut self, {restrict_param}: i16) {{\n{restrict}}}").unwrap();
        out.push_str("}\n\n");
    }

    for def in &structs {
        generate_view(&mut out, spec, def, &by_name);
    }

    let message = &spec.name;
    let kind_variant = kind_variant(dialect, message);
    let is_request = spec.kind == "request";
    writeln!(out, "impl crate::WireMessage for {message} {{").unwrap();
    writeln!(out, "const NAME: &'static str = {message:?};").unwrap();
    writeln!(out, "const API_KEY: i16 = {};", spec.api_key).unwrap();
    writeln!(out, "const VERSIONS: kafka_protocol::protocol::VersionRange = kafka_protocol::protocol::VersionRange {{ min: {}, max: {max_version} }};", versions.min).unwrap();
    writeln!(
        out,
        "const KIND: crate::MessageKind = crate::MessageKind::{kind_variant};"
    )
    .unwrap();
    out.push_str("fn read_body<R: Recorder>(decoder: &mut Decoder<'_, R>, version: i16) -> DecodeResult<Self> { Self::read(decoder, version) }\n");
    out.push_str("fn write_body<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult { self.write(encoder, version) }\n");
    out.push_str("fn restrict_to_version(&mut self, version: i16) { self.restrict_to_version(version) }\n}\n\n");
    writeln!(
        out,
        "crate::impl_kafka_protocol_traits!({message}, header_version: {});",
        if is_request { 2 } else { 1 }
    )
    .unwrap();
    if is_request {
        let response = message.replace("Request", "Response");
        writeln!(out, "\nimpl kafka_protocol::protocol::Request for {message} {{\nconst KEY: i16 = {};\ntype Response = super::{}::{response};\n}}", spec.api_key, snake_case(&response)).unwrap();
    }
    out
}

/// The check of an array item by the borrowed decoder: an item's values are read again when the
/// array is iterated, so its strings are checked, not borrowed (no `&str` to make).
fn check_item(ty: &Ty) -> String {
    match ty {
        Ty::Str => "decoder.check_str()".into(),
        Ty::Struct(name) => format!("{name}View::check(decoder, version)"),
        other => format!("decoder.{}().map(drop)", other.primitive().unwrap().0),
    }
}

/// The body of a struct's reader: each field read in order by `read` (a field the version lacks
/// takes its default instead), then `tail`, then the struct, in `wrap` (`Ok` or `Some`).
fn reader_body<'s>(
    out: &mut String,
    fields: &[Field<'s>],
    read: impl Fn(&Field<'s>) -> String,
    default: impl Fn(&Field<'s>) -> String,
    tail: &str,
    wrap: &str,
) {
    for field in fields {
        let read = read(field);
        match &field.condition {
            Some((condition, _)) => writeln!(
                out,
                "let {} = if {condition} {{ {read} }} else {{ {} }};",
                field.rust_name,
                default(field)
            )
            .unwrap(),
            None => writeln!(out, "let {} = {read};", field.rust_name).unwrap(),
        }
    }
    out.push_str(tail);
    writeln!(out, "{wrap}(Self {{").unwrap();
    for field in fields {
        writeln!(out, "{},", field.rust_name).unwrap();
    }
    out.push_str("unknown_tagged_fields,\n})\n}\n\n");
}

/// The borrowed twin of a struct (see `src/view.rs`): its type, its validating read (the
/// owned reader's checks, in the same order), its re-read, skip and visit over validated bytes,
/// and its conversion to the owned struct.
fn generate_view(
    out: &mut String,
    spec: &Spec,
    def: &StructDef<'_>,
    structs: &HashMap<String, Vec<&FieldSpec>>,
) {
    let fields: Vec<Field> = def
        .fields
        .iter()
        .map(|spec| Field::new(spec, def.versions))
        .collect();
    let name = &def.name;
    let view = format!("{name}View");
    let is_message = *name == spec.name;
    writeln!(out, "/// [`{name}`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.").unwrap();
    out.push_str("#[non_exhaustive]\n#[derive(Debug, Clone)]\n");
    writeln!(out, "pub struct {view}<'a> {{").unwrap();
    for field in &fields {
        writeln!(out, "/// See [`{name}::{}`].", field.rust_name).unwrap();
        writeln!(out, "pub {}: {},", field.rust_name, field.view_type()).unwrap();
    }
    out.push_str("/// Tagged fields this schema does not declare, as they lie in the input.\npub unknown_tagged_fields: RawTaggedFields<'a>,\n}\n\n");

    writeln!(
        out,
        "impl Default for {view}<'_> {{\nfn default() -> Self {{\n{view} {{"
    )
    .unwrap();
    for field in &fields {
        writeln!(out, "{}: {},", field.rust_name, field.view_default_expr()).unwrap();
    }
    out.push_str("unknown_tagged_fields: RawTaggedFields::default(),\n}\n}\n}\n\n");

    // Arrays keep the version, to read their items when iterated.
    let uses_version = fields
        .iter()
        .any(|field| field.condition.is_some() || matches!(field.ty, Ty::Array(_) | Ty::Struct(_)));
    let version_param = if uses_version { "version" } else { "_version" };
    writeln!(out, "impl<'a> {view}<'a> {{").unwrap();
    if is_message {
        writeln!(out, "/// Decodes exactly one message filling `bytes`, refusing what [`crate::WireMessage::decode_exact`] refuses for [`{name}`], with the same error, and allocating nothing.").unwrap();
        // Always inline, so that the caller's slot receives the view: it is hundreds of bytes,
        // and copying them out of a returned `Result` cost a sixth of a steady heartbeat's
        // decode. A hint alone was followed or not depending on the caller.
        writeln!(
            out,
            "#[inline(always)]\npub fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {{"
        )
        .unwrap();
        writeln!(
            out,
            "let versions = <{name} as crate::WireMessage>::VERSIONS;"
        )
        .unwrap();
        writeln!(out, "if version < versions.min || version > versions.max {{ return Err(DecodeError::new(0, DecodeErrorKind::UnsupportedVersion {{ message: <{name} as crate::WireMessage>::NAME, version }})); }}").unwrap();
        out.push_str("Self::read(&mut Decoder::exact(bytes), version)\n}\n\n");
    }
    if is_message {
        // Only `decode` calls it: inlined there, the view is built in the caller's slot.
        out.push_str("#[inline(always)]\n");
    } else {
        out.push_str("#[allow(dead_code, reason = \"an array's items are only checked\")]\n");
    }
    writeln!(out, "pub(crate) fn read(decoder: &mut Decoder<'a>, {version_param}: i16) -> DecodeResult<Self> {{").unwrap();
    let mut tail = String::from("let unknown_tagged_fields = decoder.raw_tagged_fields()?;\n");
    if is_message {
        tail.push_str("decoder.end_of_message()?;\n");
    }
    reader_body(
        out,
        &fields,
        |field| {
            format!(
                "decoder.field({:?}, |decoder| {})?",
                field.rust_name,
                field.view_expr(structs, true)
            )
        },
        Field::view_default_expr,
        &tail,
        "Ok",
    );

    if !is_message {
        // The checks of `read`, in its order, keeping nothing: an array item's or its nested
        // structs' values are read again from the bytes when the array is iterated.
        writeln!(out, "#[allow(dead_code, reason = \"not every struct is in an array\")]\npub(crate) fn check(decoder: &mut Decoder<'a>, {version_param}: i16) -> DecodeResult<()> {{").unwrap();
        for field in &fields {
            let check = format!(
                "decoder.field({:?}, |decoder| {})?;",
                field.rust_name,
                field.view_expr(structs, false)
            );
            match &field.condition {
                Some((condition, _)) => writeln!(out, "if {condition} {{ {check} }}").unwrap(),
                None => writeln!(out, "{check}").unwrap(),
            }
        }
        out.push_str("decoder.raw_tagged_fields()?;\nOk(())\n}\n\n");
    }

    writeln!(out, "/// The owned [`{name}`] with the same values.\npub fn to_owned(&self) -> {name} {{\n{name} {{").unwrap();
    for field in &fields {
        writeln!(out, "{}: {},", field.rust_name, field.view_to_owned_expr()).unwrap();
    }
    out.push_str("unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),\n}\n}\n\n");

    for (method, one_pass, doc) in [
        ("visit", true, "Hands every value to `visitor`, in wire order, reading each array's items in one pass."),
        ("visit_fields", false, "Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration."),
    ] {
        writeln!(out, "/// {doc}\npub fn {method}<V: ValueVisitor>(&self, visitor: &mut V) {{").unwrap();
        for field in &fields {
            writeln!(out, "{}", field.view_visit_stmt(one_pass)).unwrap();
        }
        out.push_str("for (tag, data) in self.unknown_tagged_fields.iter() { visitor.tagged_field(tag, data); }\n}\n\n");
    }
    out.push_str("}\n\n");

    writeln!(out, "impl<'a> ViewItem<'a> for {view}<'a> {{").unwrap();
    writeln!(
        out,
        "fn parse(cursor: &mut Cursor<'a>, {version_param}: i16) -> Option<Self> {{"
    )
    .unwrap();
    reader_body(
        out,
        &fields,
        |field| format!("{}?", field.view_parse_expr()),
        Field::view_default_expr,
        "let unknown_tagged_fields = cursor.tagged_fields()?;\n",
        "Some",
    );

    writeln!(
        out,
        "fn skip(cursor: &mut Cursor<'a>, {version_param}: i16) -> Option<()> {{"
    )
    .unwrap();
    for field in &fields {
        match &field.condition {
            // A nullable struct's skip is an `if` of its own, joined to the condition.
            Some((condition, _)) => match field.view_skip_stmt().strip_prefix("if ") {
                Some(skip) => writeln!(out, "if {condition} && {skip}").unwrap(),
                None => writeln!(out, "if {condition} {{ {} }}", field.view_skip_stmt()).unwrap(),
            },
            None => writeln!(out, "{}", field.view_skip_stmt()).unwrap(),
        }
    }
    out.push_str("cursor.skip_tagged_fields()\n}\n\n");

    writeln!(out, "fn visit_bytes<V: ValueVisitor>(cursor: &mut Cursor<'a>, {version_param}: i16, visitor: &mut V) -> Option<()> {{").unwrap();
    for field in &fields {
        match &field.condition {
            // A field the version lacks is visited with its default, as `visit` does.
            Some((condition, _)) => writeln!(
                out,
                "if {condition} {{ {} }} else {{ let absent: {} = {}; {} }}",
                field.view_visit_bytes_stmt(),
                field.view_type(),
                field.view_default_expr(),
                field
                    .view_visit_stmt(true)
                    .replace(&format!("self.{}", field.rust_name), "absent")
            )
            .unwrap(),
            None => writeln!(out, "{}", field.view_visit_bytes_stmt()).unwrap(),
        }
    }
    out.push_str("for (tag, data) in cursor.tagged_fields()?.iter() { visitor.tagged_field(tag, data); }\nSome(())\n}\n}\n\n");

    if is_message {
        writeln!(out, "impl<'a> MessageView<'a> for {view}<'a> {{").unwrap();
        writeln!(out, "type Owned = {name};").unwrap();
        writeln!(out, "#[inline(always)]\nfn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {{ {view}::decode(bytes, version) }}").unwrap();
        writeln!(out, "fn to_message(&self) -> {name} {{ self.to_owned() }}").unwrap();
        out.push_str(
            "fn visit_values<V: ValueVisitor>(&self, visitor: &mut V) { self.visit(visitor) }\n",
        );
        out.push_str("fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) { self.visit_fields(visitor) }\n}\n\n");
    }
}

fn kind_variant(dialect_prefix: &str, message: &str) -> String {
    let prefix = DIALECTS
        .iter()
        .find(|(_, module, _)| *module == dialect_prefix)
        .map(|(_, _, prefix)| *prefix)
        .unwrap();
    format!("{prefix}{message}")
}

fn rustfmt(source: &str) -> String {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt must be installed (rustup component add rustfmt)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "rustfmt refused the generated code:\n{source}"
    );
    String::from_utf8(output.stdout).unwrap()
}

/// A spec file's JSON with its `//` comments removed, e.g. to compare its facts with another's.
pub fn parse_spec_text(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(&strip_comments(text))
}

fn load_spec(path: &Path) -> Spec {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&strip_comments(&text))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Every generated file, by path relative to the crate root.
pub fn generate(crate_root: &Path) -> BTreeMap<PathBuf, String> {
    let mut files = BTreeMap::new();
    let mut kinds = Vec::new(); // (variant, module path, is_request)
    let mut top = String::from("// Generated by `streamspec-codegen` (`protocol/codegen`); do not edit.\n//! Message types generated from the JSON specs in `protocol/schemas/`.\n\n// The generated `Default` impls spell out every spec default, even where a derive would do, so that\n// a default is visible where the schema sets it.\n#![allow(clippy::derivable_impls)]\n\n");
    for (folder, module, _) in DIALECTS {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(crate_root.join("schemas").join(folder))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        paths.sort();
        let mut module_file = format!("// Generated by `streamspec-codegen` (`protocol/codegen`); do not edit.\n//! Messages of the {folder} dialect.\n\n");
        let mut uses = String::new();
        for path in paths {
            let spec = load_spec(&path);
            let file_module = snake_case(&spec.name);
            let schema_path = format!(
                "schemas/{folder}/{}",
                path.file_name().unwrap().to_str().unwrap()
            );
            files.insert(
                PathBuf::from(format!("src/generated/{module}/{file_module}.rs")),
                rustfmt(&generate_message(&spec, module, &schema_path)),
            );
            writeln!(module_file, "pub mod {file_module};").unwrap();
            writeln!(uses, "pub use {file_module}::{{{0}, {0}View}};", spec.name).unwrap();
            kinds.push((
                kind_variant(module, &spec.name),
                format!("{module}::{}", spec.name),
                spec.kind == "request",
            ));
        }
        module_file.push('\n');
        module_file.push_str(&uses);
        files.insert(
            PathBuf::from(format!("src/generated/{module}/mod.rs")),
            rustfmt(&module_file),
        );
        writeln!(top, "pub mod {module};").unwrap();
    }
    top.push_str(&generate_dispatch(&kinds));
    files.insert(PathBuf::from("src/generated/mod.rs"), rustfmt(&top));
    files
}

fn generate_dispatch(kinds: &[(String, String, bool)]) -> String {
    let mut out = String::new();
    out.push_str("\nuse crate::codec::TraceEntry;\nuse crate::error::{DecodeError, EncodeError};\nuse crate::WireMessage;\n\n");
    out.push_str("/// Every message type, of every dialect.\n#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]\npub enum MessageKind {\n");
    for (variant, _, _) in kinds {
        writeln!(out, "{variant},").unwrap();
    }
    out.push_str("}\n\n/// A message of any kind, for code that handles them all alike.\n#[derive(Debug, Clone, PartialEq, Eq)]\npub enum AnyMessage {\n");
    for (variant, path, _) in kinds {
        writeln!(out, "{variant}({path}),").unwrap();
    }
    out.push_str("}\n\nimpl MessageKind {\n/// All kinds, requests and responses of every dialect.\npub const ALL: &'static [MessageKind] = &[");
    for (variant, _, _) in kinds {
        write!(out, "MessageKind::{variant},").unwrap();
    }
    out.push_str("];\n\n");
    let arms = |body: &dyn Fn(&str, &str) -> String| -> String {
        kinds
            .iter()
            .map(|(variant, path, _)| {
                format!("MessageKind::{variant} => {},\n", body(variant, path))
            })
            .collect()
    };
    writeln!(out, "/// The message's name in its schema.\npub fn name(self) -> &'static str {{ match self {{ {} }} }}", arms(&|_, path| format!("{path}::NAME"))).unwrap();
    writeln!(
        out,
        "/// The API key.\npub fn api_key(self) -> i16 {{ match self {{ {} }} }}",
        arms(&|_, path| format!("{path}::API_KEY"))
    )
    .unwrap();
    writeln!(out, "/// The versions the schema defines.\npub fn versions(self) -> kafka_protocol::protocol::VersionRange {{ match self {{ {} }} }}", arms(&|_, path| format!("<{path} as WireMessage>::VERSIONS"))).unwrap();
    writeln!(out, "/// True for requests, false for responses.\npub fn is_request(self) -> bool {{ match self {{ {} }} }}", kinds.iter().map(|(variant, _, request)| format!("MessageKind::{variant} => {request},\n")).collect::<String>()).unwrap();
    writeln!(out, "/// The dialect the message belongs to.\npub fn dialect(self) -> crate::Dialect {{ match self {{ {} }} }}", kinds.iter().map(|(variant, path, _)| format!("MessageKind::{variant} => crate::Dialect::{},\n", if path.starts_with("kafka::") { "Kafka" } else { "KipDraft" })).collect::<String>()).unwrap();
    writeln!(out, "/// Decodes one whole message of this kind; trailing bytes are an error.\npub fn decode(self, bytes: &[u8], version: i16) -> Result<AnyMessage, DecodeError> {{ match self {{ {} }} }}", arms(&|variant, path| format!("{path}::decode_exact(bytes, version).map(AnyMessage::{variant})"))).unwrap();
    writeln!(out, "/// Decodes with the message's borrowed view (`...View::decode`) and converts the view to the owned message: what [`MessageKind::decode`] gives, the other way.\npub fn decode_view(self, bytes: &[u8], version: i16) -> Result<AnyMessage, DecodeError> {{ match self {{ {} }} }}", arms(&|variant, path| format!("{path}View::decode(bytes, version).map(|view| AnyMessage::{variant}(view.to_owned()))"))).unwrap();
    writeln!(out, "/// Decodes like [`MessageKind::decode`] and records where every value lies.\npub fn decode_traced(self, bytes: &[u8], version: i16) -> Result<(AnyMessage, Vec<TraceEntry>), DecodeError> {{ match self {{ {} }} }}", arms(&|variant, path| format!("{path}::decode_traced(bytes, version).map(|(message, trace)| (AnyMessage::{variant}(message), trace))"))).unwrap();
    out.push_str("}\n\n");
    let message_arms = |body: &dyn Fn(&str) -> String| -> String {
        kinds
            .iter()
            .map(|(variant, _, _)| {
                format!("AnyMessage::{variant}(message) => {},\n", body(variant))
            })
            .collect()
    };
    out.push_str("impl AnyMessage {\n");
    writeln!(
        out,
        "/// The message's kind.\npub fn kind(&self) -> MessageKind {{ match self {{ {} }} }}",
        kinds
            .iter()
            .map(|(variant, _, _)| format!("AnyMessage::{variant}(_) => MessageKind::{variant},\n"))
            .collect::<String>()
    )
    .unwrap();
    writeln!(out, "/// Encodes the message at `version`.\npub fn encode_to_vec(&self, version: i16) -> Result<Vec<u8>, EncodeError> {{ match self {{ {} }} }}", message_arms(&|_| "message.encode_to_vec(version)".into())).unwrap();
    writeln!(out, "/// The encoded size at `version`.\npub fn encoded_size(&self, version: i16) -> Result<usize, EncodeError> {{ match self {{ {} }} }}", message_arms(&|_| "message.encoded_size(version)".into())).unwrap();
    writeln!(out, "/// Resets every field that `version` lacks to its default.\npub fn restrict_to_version(&mut self, version: i16) {{ match self {{ {} }} }}", message_arms(&|_| "WireMessage::restrict_to_version(message, version)".into())).unwrap();
    writeln!(out, "/// The message in the JSON form of Kafka's generated converters.\npub fn to_json(&self) -> serde_json::Value {{ match self {{ {} }} }}", message_arms(&|_| "serde_json::to_value(message).expect(\"messages always serialize\")".into())).unwrap();
    writeln!(out, "/// Reads a message of `kind` from its JSON form.\npub fn from_json(kind: MessageKind, json: serde_json::Value) -> Result<AnyMessage, serde_json::Error> {{ match kind {{ {} }} }}", kinds.iter().map(|(variant, _, _)| format!("MessageKind::{variant} => serde_json::from_value(json).map(AnyMessage::{variant}),\n")).collect::<String>()).unwrap();
    writeln!(out, "/// Builds an arbitrary message of `kind`.\npub fn arbitrary_of(kind: MessageKind, input: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<AnyMessage> {{ match kind {{ {} }} }}", kinds.iter().map(|(variant, _, _)| format!("MessageKind::{variant} => input.arbitrary().map(AnyMessage::{variant}),\n")).collect::<String>()).unwrap();
    out.push_str("}\n");
    out
}

/// Paths (relative to the protocol crate) whose content differs from the generator's output, and
/// files under `src/generated/` that the generator does not make.
#[derive(Debug, Default)]
pub struct Staleness {
    pub differs: Vec<String>,
    pub orphans: Vec<String>,
}

impl Staleness {
    pub fn is_fresh(&self) -> bool {
        self.differs.is_empty() && self.orphans.is_empty()
    }
}

/// Compares the checked-in generated code with the generator's output.
pub fn check(crate_root: &Path) -> Staleness {
    let expected = generate(crate_root);
    let mut staleness = Staleness::default();
    for (relative, content) in &expected {
        let current = std::fs::read_to_string(crate_root.join(relative)).ok();
        if current.as_deref() != Some(content.as_str()) {
            staleness.differs.push(relative.display().to_string());
        }
    }
    for path in files_under(&crate_root.join("src/generated")) {
        let relative = path.strip_prefix(crate_root).unwrap().to_path_buf();
        if !expected.contains_key(&relative) {
            staleness.orphans.push(relative.display().to_string());
        }
    }
    staleness
}

/// Rewrites the generated code; returns a line per file written or removed.
pub fn write(crate_root: &Path) -> Vec<String> {
    let staleness = check(crate_root);
    let expected = generate(crate_root);
    let mut report = Vec::new();
    for relative in &staleness.differs {
        let path = crate_root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &expected[Path::new(relative)]).unwrap();
        report.push(format!("wrote {relative}"));
    }
    for relative in &staleness.orphans {
        std::fs::remove_file(crate_root.join(relative)).unwrap();
        report.push(format!("removed {relative}"));
    }
    if report.is_empty() {
        report.push("src/generated/ is up to date".to_owned());
    }
    report
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}
