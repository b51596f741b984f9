//! Schema Objects into IR schemas, normalised to JSON Schema 2020-12:
//! `nullable` → a null type, boolean `exclusiveMinimum` → numeric, `example` →
//! `examples`, `#/components/schemas/X` → a shared definition `X`, `allOf` merged.
//! Keywords with no IR field are kept verbatim (with their `$ref`s rewritten).

use serde_json::{Map, Value, json};

use super::{Doc, Version, escape, lookup};
use crate::diagnostics::codes;
use crate::ir::{Schema, SchemaType};

const SCHEMAS: &str = "#/components/schemas/";

/// Keywords the IR models (or deliberately drops); everything else is kept.
const MODELED: &[&str] = &[
    "$ref",
    "type",
    "nullable",
    "x-nullable",
    "title",
    "description",
    "format",
    "default",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "pattern",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "allOf",
    "oneOf",
    "anyOf",
    "readOnly",
    "writeOnly",
    "deprecated",
    "example",
];

/// Lowers every definition referenced so far (and those they reference).
pub fn lower_referenced(doc: &mut Doc<'_>) {
    while let Some(name) = doc.pending.pop_first() {
        definition(doc, &name);
    }
}

/// [`lower_referenced`], then breaks rings of definitions that only refer to each
/// other (no shape to build a type from). Once per document: the ring search walks
/// every definition.
pub fn lower_pending(doc: &mut Doc<'_>) {
    lower_referenced(doc);
    for name in crate::ir::alias_cycles(&doc.definitions) {
        doc.warn(
            codes::REFERENCE,
            &format!("/components/schemas/{}", escape(&name)),
            format!("`{name}` is part of a `$ref` cycle with no schema in it; typed as any value"),
            "give one schema of the cycle a type or properties, or remove the cycle",
        );
        if let Some(def) = doc.definitions.get_mut(&name) {
            *def = Schema {
                description: def.description.take(),
                ..Schema::default()
            };
        }
    }
}

/// The lowered definition `name`, lowered on first use and cached; `None` while it is
/// being lowered (a reference cycle) or when it does not exist.
fn definition(doc: &mut Doc<'_>, name: &str) -> Option<Schema> {
    if let Some(done) = doc.definitions.get(name) {
        return Some(done.clone());
    }
    if !doc.lowering.insert(name.to_owned()) {
        return None;
    }
    let pointer = format!("/components/schemas/{}", escape(name));
    let root = doc.root;
    let schema = root.pointer(&pointer).map(|v| lower(doc, v, &pointer, 0));
    doc.lowering.remove(name);
    let schema = schema?;
    doc.definitions.insert(name.to_owned(), schema.clone());
    Some(schema)
}

/// Lowers the schema `value` found at `pointer`.
pub fn lower(doc: &mut Doc<'_>, value: &Value, pointer: &str, depth: usize) -> Schema {
    if depth > 64 {
        doc.warn(
            codes::SCHEMA,
            pointer,
            "schema nested more than 64 levels; typed as any value",
            "flatten the schema or use $ref",
        );
        return Schema::default();
    }
    let object = match value {
        Value::Object(o) => o,
        Value::Bool(true) => return Schema::default(),
        Value::Bool(false) => {
            return Schema {
                extensions: [("not".to_owned(), json!({}))].into(),
                ..Schema::default()
            };
        }
        other => {
            doc.warn(
                codes::SCHEMA,
                pointer,
                format!("a schema must be an object, found `{other}`; typed as any value"),
                "write the schema as a mapping",
            );
            return Schema::default();
        }
    };
    let mut s = Schema::default();

    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        // `#/components/schemas/X/properties/y` points inside a definition: inlined.
        let whole_definition = reference
            .strip_prefix(SCHEMAS)
            .filter(|name| !name.contains('/'));
        match whole_definition {
            Some(name) => {
                let name = unescape(name);
                if doc
                    .root
                    .pointer(&format!("/components/schemas/{}", escape(&name)))
                    .is_none()
                {
                    doc.warn(
                        codes::REFERENCE,
                        pointer,
                        format!("`$ref: {reference}` points at nothing; typed as any value"),
                        format!("define `{name}` under `components.schemas`, or point the reference at an existing schema"),
                    );
                } else {
                    if !doc.definitions.contains_key(&name) {
                        doc.pending.insert(name.clone());
                    }
                    s.reference = Some(name);
                }
            }
            None => match lookup(doc.root, reference) {
                // Other local references (into paths, parameters...) are inlined.
                Some(target) if reference.starts_with('#') => {
                    let target = target.clone();
                    s = lower(doc, &target, reference.trim_start_matches('#'), depth + 1);
                }
                _ => doc.warn(
                    codes::REFERENCE,
                    pointer,
                    format!("cannot resolve `$ref: {reference}`; typed as any value"),
                    "bundle external references into the document (e.g. `npx @redocly/cli bundle`)",
                ),
            },
        }
        // 3.0 ignores siblings of `$ref`; 3.1 applies them. Both keep descriptions.
        if doc.version == Version::V30 {
            s.description = said(doc, object, pointer);
            return s;
        }
    }

    match object.get("type") {
        Some(Value::String(t)) => s.ty = type_named(doc, t, pointer),
        Some(Value::Array(types)) => {
            let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            s.nullable = named.contains(&"null");
            let rest: Vec<&str> = named.into_iter().filter(|t| *t != "null").collect();
            match rest.as_slice() {
                [one] => s.ty = type_named(doc, one, pointer),
                [] => {}
                many => {
                    s.exclusive_variants = true;
                    s.variants = many
                        .iter()
                        .map(|t| Schema::of(type_named(doc, t, pointer)))
                        .collect();
                }
            }
        }
        _ => {}
    }
    if object.get("nullable").and_then(Value::as_bool) == Some(true)
        || object.get("x-nullable").and_then(Value::as_bool) == Some(true)
    {
        s.nullable = true;
    }
    s.title = text(object, "title");
    if s.description.is_none() {
        s.description = said(doc, object, pointer);
    }
    s.format = text(object, "format");
    s.pattern = text(object, "pattern");
    if let Some((body, flags)) = s.pattern.as_deref().and_then(regex_literal) {
        // `/^[0-9]{4}[a-z]$/i`: a JavaScript regex literal, not a pattern. As written it
        // needs a leading `/` before `^`, so nothing matches and every call is refused.
        let (body, flags) = (body.to_owned(), flags.to_owned());
        if flags.contains('i') {
            let note = format!("Must match `{body}`, ignoring case.");
            s.description = Some(match s.description.take() {
                Some(d) => format!("{d} {note}"),
                None => note,
            });
            s.pattern = None;
        } else {
            s.pattern = Some(body.clone());
        }
        doc.warn(
            codes::SCHEMA,
            &format!("{pointer}/pattern"),
            format!(
                "`pattern` is a JavaScript regex literal (`/…/{flags}`); {}",
                if flags.contains('i') {
                    format!("JSON Schema patterns have no flags, so `{body}` is kept in the description and not checked")
                } else {
                    format!("read as `{body}`")
                }
            ),
            "write the pattern without the slashes and flags",
        );
    }
    if let Some(why) = s.pattern.as_deref().and_then(crate::ir::unchecked_pattern) {
        doc.warn(
            codes::SCHEMA,
            &format!("{pointer}/pattern"),
            format!("`pattern` is kept in the schema but not checked at run time: {why}"),
            "write it without look-around or back-references if calls should be checked against it",
        );
    }
    s.default = object.get("default").cloned().map(Box::new);
    s.read_only = object.get("readOnly").and_then(Value::as_bool) == Some(true);
    s.write_only = object.get("writeOnly").and_then(Value::as_bool) == Some(true);
    s.deprecated = object.get("deprecated").and_then(Value::as_bool) == Some(true);
    if let Some(Value::Array(values)) = object.get("enum") {
        s.enum_values = values.iter().filter(|v| !v.is_null()).cloned().collect();
        if values.iter().any(Value::is_null) {
            s.nullable = true;
        }
    }
    if s.ty == SchemaType::Array
        && !s.enum_values.is_empty()
        && !s.enum_values.iter().all(Value::is_array)
    {
        // Swagger-era documents put the items' enum on the array: no array equals a
        // string, so kept as is it would refuse every call. It belongs to the items.
        doc.warn(
            codes::SCHEMA,
            &format!("{pointer}/enum"),
            "`enum` on an array lists item values; it is applied to the items",
            "move `enum` into `items`",
        );
        s.enum_values.clear();
    }
    bounds(object, &mut s);
    if let Some(example) = object.get("example") {
        s.extensions.insert("examples".into(), json!([example]));
    }

    if let Some(items) = object.get("items") {
        if s.ty == SchemaType::Any {
            s.ty = SchemaType::Array;
        }
        s.items = Some(Box::new(lower(
            doc,
            items,
            &format!("{pointer}/items"),
            depth + 1,
        )));
    }
    if let Some(Value::Object(props)) = object.get("properties")
        && !props.is_empty()
        && !matches!(s.ty, SchemaType::Any | SchemaType::Object)
    {
        // `type: array` with `properties` beside `items`: the properties describe
        // nothing a value of the type has, and kept they would make it an object.
        doc.warn(
            codes::SCHEMA,
            &format!("{pointer}/properties"),
            format!(
                "`properties` on a schema of type `{}` describe nothing; the type wins",
                s.ty.as_str().unwrap_or("any")
            ),
            "remove `properties`, or move them into `items` if they describe the items",
        );
    } else if let Some(Value::Object(props)) = object.get("properties") {
        // `Schema` is large: grow once, not by doubling (measured on GitHub's spec).
        s.properties.reserve_exact(props.len());
        if s.ty == SchemaType::Any {
            s.ty = SchemaType::Object;
        }
        for (name, prop) in props {
            let at = format!("{pointer}/properties/{}", escape(name));
            let mut p = lower(doc, prop, &at, depth + 1);
            // `id: {description: id}` says nothing a model does not see in the name.
            if p.description
                .as_deref()
                .is_some_and(|d| crate::source::placeholder::is_placeholder(d, Some(name)))
            {
                let copy = p.description.take();
                doc.said(copy.as_deref(), Some(name), &format!("{at}/description"));
            }
            // A Swagger-ism: `required: true` on the property itself.
            if prop.get("required").and_then(Value::as_bool) == Some(true) {
                s.required.push(name.clone());
            }
            s.properties.push((name.clone(), p));
        }
    }
    match object.get("required") {
        Some(Value::Array(names)) => {
            for n in names.iter().filter_map(Value::as_str) {
                if !s.required.iter().any(|r| r == n) {
                    s.required.push(n.to_owned());
                }
            }
        }
        Some(Value::Bool(_)) | None => {}
        Some(other) => doc.warn(
            codes::SCHEMA,
            &format!("{pointer}/required"),
            format!("`required` must list property names, found `{other}`; ignored"),
            "write `required: [name, ...]`",
        ),
    }
    match object.get("additionalProperties") {
        Some(Value::Object(values)) => {
            if s.ty == SchemaType::Any {
                s.ty = SchemaType::Object;
            }
            let v = Value::Object(values.clone());
            s.additional = Some(Box::new(lower(
                doc,
                &v,
                &format!("{pointer}/additionalProperties"),
                depth + 1,
            )));
        }
        Some(Value::Bool(true)) if s.properties.is_empty() && s.ty == SchemaType::Object => {
            s.additional = Some(Box::new(Schema::default()));
        }
        Some(other @ Value::Bool(_)) => {
            s.extensions
                .insert("additionalProperties".into(), other.clone());
        }
        _ => {}
    }
    for (keyword, exclusive) in [("oneOf", true), ("anyOf", false)] {
        if let Some(Value::Array(members)) = object.get(keyword) {
            let mut variants: Vec<Schema> = Vec::new();
            for (i, m) in members.iter().enumerate() {
                if m.get("type").and_then(Value::as_str) == Some("null")
                    && m.as_object().is_some_and(|o| o.len() == 1)
                {
                    s.nullable = true;
                    continue;
                }
                variants.push(lower(
                    doc,
                    m,
                    &format!("{pointer}/{keyword}/{i}"),
                    depth + 1,
                ));
            }
            if variants.len() == 1 && s.properties.is_empty() && s.ty == SchemaType::Any {
                let only = variants.remove(0);
                let keep = (s.description.clone(), s.nullable);
                s = Schema {
                    description: keep.0.or(only.description.clone()),
                    nullable: keep.1 || only.nullable,
                    ..only
                };
            } else {
                let overlapping = exclusive && overlap(&variants);
                if overlapping {
                    // `oneOf: [{type: string, format: binary}, {type: string, format: uri}]`:
                    // formats are annotations, so every string matches both and
                    // "exactly one" would refuse every call.
                    doc.warn(
                        codes::SCHEMA,
                        &format!("{pointer}/oneOf"),
                        "`oneOf` alternatives differ only in `format` or wording, so a value matches several; they are checked as `anyOf`",
                        "tell them apart with `type`, `enum`, `const`, `pattern` or `required`, or write `anyOf`",
                    );
                }
                s.variants = variants;
                s.exclusive_variants = exclusive && !overlapping;
            }
        }
    }
    if let Some(Value::Array(members)) = object.get("allOf") {
        merge_all_of(doc, &mut s, members, pointer, depth);
    }
    for (k, v) in object {
        if !MODELED.contains(&k.as_str()) && !s.extensions.contains_key(k) {
            s.extensions.insert(k.clone(), rewrite_refs(doc, v));
        }
    }
    check_values(doc, &s, pointer);
    s
}

/// Whether two alternatives accept the same values: the same primitive type with
/// nothing but annotations (`format`, descriptions) to tell them apart.
fn overlap(variants: &[Schema]) -> bool {
    let plain = |v: &Schema| {
        matches!(
            v.ty,
            SchemaType::String | SchemaType::Integer | SchemaType::Number | SchemaType::Boolean
        ) && v.enum_values.is_empty()
            && v.pattern.is_none()
            && v.minimum.is_none()
            && v.maximum.is_none()
            && v.reference.is_none()
            && v.variants.is_empty()
            && v.extensions
                .keys()
                .all(|k| k == "examples" || k == "contentMediaType")
            && !v.nullable
    };
    variants.iter().enumerate().any(|(i, a)| {
        variants[i + 1..]
            .iter()
            .any(|b| plain(a) && plain(b) && a.ty == b.ty)
    })
}

/// `(body, flags)` of a pattern written as a JavaScript regex literal (`/^a+$/i`).
fn regex_literal(pattern: &str) -> Option<(&str, &str)> {
    let rest = pattern.strip_prefix('/')?;
    let end = rest.rfind('/')?;
    let (body, flags) = (&rest[..end], &rest[end + 1..]);
    let flagged = flags.chars().all(|c| "gimsuy".contains(c));
    (flagged && !body.is_empty() && (body.starts_with('^') || body.ends_with('$')))
        .then_some((body, flags))
}

/// The schema's description, unless it is a placeholder (reported, then missing).
fn said(doc: &mut Doc<'_>, object: &Map<String, Value>, pointer: &str) -> Option<String> {
    let text = object.get("description").and_then(Value::as_str);
    doc.said(text, None, &format!("{pointer}/description"))
}

fn text(object: &Map<String, Value>, key: &str) -> Option<String> {
    object.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn type_named(doc: &mut Doc<'_>, name: &str, pointer: &str) -> SchemaType {
    match SchemaType::ALL.iter().find(|(n, _)| *n == name) {
        Some((_, t)) => *t,
        None if name == "null" => SchemaType::Any,
        None => {
            doc.warn(
                codes::SCHEMA,
                &format!("{pointer}/type"),
                format!("unknown type `{name}`; typed as any value"),
                "use one of string, integer, number, boolean, array, object, null",
            );
            SchemaType::Any
        }
    }
}

/// `minimum`/`maximum`, with 3.0's boolean `exclusive*` turned into 2020-12's numbers.
fn bounds(object: &Map<String, Value>, s: &mut Schema) {
    for (bound, exclusive) in [
        ("minimum", "exclusiveMinimum"),
        ("maximum", "exclusiveMaximum"),
    ] {
        let value = object.get(bound).filter(|v| v.is_number()).cloned();
        match (object.get(exclusive), value) {
            (Some(Value::Bool(true)), Some(v)) => {
                s.extensions.insert(exclusive.into(), v);
            }
            (Some(n @ Value::Number(_)), v) => {
                s.extensions.insert(exclusive.into(), n.clone());
                set_bound(s, bound, v);
            }
            (_, v) => set_bound(s, bound, v),
        }
    }
}

fn set_bound(s: &mut Schema, bound: &str, v: Option<Value>) {
    if bound == "minimum" {
        s.minimum = v.map(Box::new);
    } else {
        s.maximum = v.map(Box::new);
    }
}

/// `allOf`: properties, required names and the type of every member (references
/// followed) are merged into one object. Members that are not objects stay as an
/// `allOf` keyword so nothing is lost.
fn merge_all_of(doc: &mut Doc<'_>, s: &mut Schema, members: &[Value], pointer: &str, depth: usize) {
    if depth > 48 {
        s.extensions.insert(
            "allOf".into(),
            Value::Array(members.iter().map(|m| rewrite_refs(doc, m)).collect()),
        );
        return;
    }
    let mut unmerged = Vec::new();
    for (i, member) in members.iter().enumerate() {
        let member_pointer = format!("{pointer}/allOf/{i}");
        let lowered = lower(doc, member, &member_pointer, depth + 1);
        // A member that is a reference merges the definition's lowered form (lowered
        // once and cached, so diamonds of `allOf` stay linear); a reference back into
        // a definition still being lowered is a cycle and stays unmerged.
        let resolved = match lowered.reference.clone() {
            Some(name) => match definition(doc, &name) {
                Some(mut r) => {
                    r.description = lowered.description.clone().or(r.description);
                    // 3.1 refinements next to the `$ref` apply on top.
                    if lowered.bare_reference().is_none() {
                        r.reference = None;
                        overlay(&mut r, lowered.clone());
                    }
                    r
                }
                None => {
                    // Kept, the member would make validators recurse forever.
                    doc.warn(
                        codes::REFERENCE,
                        &member_pointer,
                        format!("`allOf` member `{name}` refers back to a schema that contains it (a cycle); member left out"),
                        "break the cycle: a schema cannot be all of itself",
                    );
                    continue;
                }
            },
            None => lowered.clone(),
        };
        let objectish = resolved.ty == SchemaType::Object || !resolved.properties.is_empty();
        if objectish && resolved.variants.is_empty() {
            if s.description.is_none() {
                s.description = resolved.description.clone();
            }
            if s.additional.is_none() {
                s.additional = resolved.additional.clone();
            }
            overlay(s, resolved);
            s.ty = SchemaType::Object;
        } else if resolved.ty != SchemaType::Any
            && s.ty == SchemaType::Any
            && s.properties.is_empty()
        {
            // A single typed member (e.g. a string with a format): take it over.
            let description = s.description.take();
            *s = Schema {
                description: description.or(resolved.description.clone()),
                ..resolved
            };
        } else {
            unmerged.push(member.clone());
        }
    }
    if !unmerged.is_empty() {
        let kept: Vec<Value> = unmerged.iter().map(|m| rewrite_refs(doc, m)).collect();
        s.extensions.insert("allOf".into(), Value::Array(kept));
    }
}

/// Properties and required names of `top` over those of `base` (for a `$ref` with
/// sibling keywords inside `allOf`).
fn overlay(base: &mut Schema, top: Schema) {
    if top.ty != SchemaType::Any {
        base.ty = top.ty;
    }
    for (name, prop) in top.properties {
        match base.properties.iter_mut().find(|(n, _)| *n == name) {
            Some(existing) => existing.1 = prop,
            None => base.properties.push((name, prop)),
        }
    }
    for r in top.required {
        if !base.required.contains(&r) {
            base.required.push(r);
        }
    }
}

/// Rewrites `#/components/schemas/X` references inside kept keywords to `#/$defs/X`
/// (and makes sure `X` is lowered), so kept keywords stay valid in the catalog.
fn rewrite_refs(doc: &mut Doc<'_>, value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    match (k.as_str(), v.as_str().and_then(|r| r.strip_prefix(SCHEMAS))) {
                        ("$ref", Some(pointer)) => {
                            // A pointer inside a definition keeps its tail.
                            let (name, tail) = pointer.split_once('/').unwrap_or((pointer, ""));
                            let name = unescape(name);
                            if !doc.definitions.contains_key(&name) {
                                doc.pending.insert(name.clone());
                            }
                            let tail = if tail.is_empty() {
                                String::new()
                            } else {
                                format!("/{tail}")
                            };
                            (
                                k.clone(),
                                json!(format!("#/$defs/{}{tail}", super::escape(&name))),
                            )
                        }
                        _ => (k.clone(), rewrite_refs(doc, v)),
                    }
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| rewrite_refs(doc, v)).collect()),
        other => other.clone(),
    }
}

/// Sloppy specs: an enum value or default that does not fit the declared type is kept
/// and reported.
fn check_values(doc: &mut Doc<'_>, s: &Schema, pointer: &str) {
    let numbers = [
        ("minimum", s.minimum.as_deref()),
        ("maximum", s.maximum.as_deref()),
        ("default", s.default.as_deref()),
        ("exclusiveMinimum", s.extensions.get("exclusiveMinimum")),
        ("exclusiveMaximum", s.extensions.get("exclusiveMaximum")),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
    .chain(
        s.enum_values
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("enum/{i}"), v)),
    );
    let lossy: Vec<(String, Value)> = numbers
        .filter(|(_, v)| crate::ir::exceeds_64_bits(v))
        .map(|(k, v)| (k, v.clone()))
        .collect();
    for (key, value) in lossy {
        doc.warn(
            codes::VALUE_MISMATCH,
            &format!("{pointer}/{key}"),
            format!("`{key}` is beyond the 64-bit integer range; it is kept as the float `{value}`, whose digits may differ from the document's"),
            "use a bound within 64 bits, or write the value as a string if it is an identifier",
        );
    }
    if s.ty == SchemaType::Any {
        return;
    }
    if let Some(bad) = s.enum_values.iter().find(|v| !s.ty.accepts(v)) {
        doc.warn(
            codes::VALUE_MISMATCH,
            &format!("{pointer}/enum"),
            format!(
                "enum value `{bad}` does not fit type `{}`",
                s.ty.as_str().unwrap_or("any")
            ),
            "the value is kept as written; fix the enum or the type",
        );
    }
    if let Some(d) = &s.default
        && !d.is_null()
        && !s.ty.accepts(d)
    {
        doc.warn(
            codes::VALUE_MISMATCH,
            &format!("{pointer}/default"),
            format!(
                "default `{d}` does not fit type `{}`",
                s.ty.as_str().unwrap_or("any")
            ),
            "the value is kept as written; fix the default or the type",
        );
    }
}
