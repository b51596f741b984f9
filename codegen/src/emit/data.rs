//! Static data tables (operation descriptors, the API list, the tool catalog) written
//! straight as text. They are nothing but struct literals, arrays, paths and literals,
//! so a small tree and a few layout rules give the shape prettyplease would, without
//! building tokens and re-parsing megabytes of them with syn (on GitHub's spec that was
//! most of generation's time). Long JSON texts become raw strings: no escaping.

/// A value in a table.
pub enum Data {
    /// Text printed as is (a path, a literal).
    Raw(String),
    /// `path { field: value, ... }`
    Struct(&'static str, Vec<(&'static str, Data)>),
    /// `[a, b, ...]`
    Array(Vec<Data>),
    /// `prefix<inner>suffix`, e.g. `Cow::Borrowed(&` `[...]` `)`.
    Wrap(&'static str, Box<Data>, &'static str),
    /// `__private::text("text")` (a `Cow::Borrowed` rustc has no type to infer for),
    /// the text kept as is until printed (catalog texts are most of a large catalog:
    /// one copy fewer).
    Cow(String),
}

impl Data {
    /// A borrowed text, `__private::text("text")`.
    pub fn cow(text: &str) -> Data {
        Data::Cow(text.to_owned())
    }

    /// [`Data::cow`] of a text already owned.
    pub fn cow_owned(text: String) -> Data {
        Data::Cow(text)
    }

    /// About how many bytes [`Data::print`] writes (to size the output once).
    fn size(&self, depth: usize) -> usize {
        match self {
            Data::Raw(text) => text.len(),
            Data::Cow(text) => text.len() + 38,
            Data::Wrap(prefix, inner, suffix) => prefix.len() + inner.size(depth) + suffix.len(),
            Data::Struct(path, fields) => {
                path.len()
                    + fields
                        .iter()
                        .map(|(name, value)| {
                            4 * (depth + 1) + name.len() + 4 + value.size(depth + 1)
                        })
                        .sum::<usize>()
                    + 4 * depth
                    + 4
            }
            Data::Array(items) => {
                items
                    .iter()
                    .map(|i| 4 * (depth + 1) + i.size(depth + 1) + 2)
                    .sum::<usize>()
                    + 4 * depth
                    + 3
            }
        }
    }

    /// `Cow::Borrowed(&[items])`.
    pub fn cow_slice(items: Vec<Data>) -> Data {
        Data::Wrap(
            "::toolwright::__private::Cow::Borrowed(&",
            Box::new(Data::Array(items)),
            ")",
        )
    }

    pub fn bool(value: bool) -> Data {
        Data::Raw(value.to_string())
    }

    /// `Some(value)` / `None`.
    pub fn option(value: Option<Data>) -> Data {
        match value {
            Some(v) => Data::Wrap("::std::option::Option::Some(", Box::new(v), ")"),
            None => Data::Raw("::std::option::Option::None".into()),
        }
    }

    fn print(&self, depth: usize, out: &mut String) {
        match self {
            Data::Raw(text) => out.push_str(text),
            Data::Cow(text) => {
                out.push_str("::toolwright::__private::text(");
                write_literal(text, out);
                out.push(')');
            }
            Data::Wrap(prefix, inner, suffix) => {
                out.push_str(prefix);
                inner.print(depth, out);
                out.push_str(suffix);
            }
            Data::Struct(path, fields) => {
                out.push_str(path);
                if fields.is_empty() {
                    out.push_str(" {}");
                    return;
                }
                out.push_str(" {\n");
                for (name, value) in fields {
                    indent(out, depth + 1);
                    out.push_str(name);
                    out.push_str(": ");
                    value.print(depth + 1, out);
                    out.push_str(",\n");
                }
                indent(out, depth);
                out.push('}');
            }
            Data::Array(items) => match items.as_slice() {
                [] => out.push_str("[]"),
                [one] => {
                    out.push('[');
                    one.print(depth, out);
                    out.push(']');
                }
                _ => {
                    out.push_str("[\n");
                    for item in items {
                        indent(out, depth + 1);
                        item.print(depth + 1, out);
                        out.push_str(",\n");
                    }
                    indent(out, depth);
                    out.push(']');
                }
            },
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("    ");
    }
}

/// A Rust string literal for `text`: plain when nothing needs escaping, raw (with as
/// many `#` as needed) when only quotes or backslashes do, escaped otherwise.
pub fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    write_literal(text, &mut out);
    out
}

/// [`literal`], written to `out`.
fn write_literal(text: &str, out: &mut String) {
    use std::fmt::Write as _;
    // Controls would be unreadable (a bare CR is refused), and rustc refuses
    // direction-changing characters in any literal: those need escapes. Most texts
    // are ASCII without controls: checked byte by byte, chars only past ASCII.
    let needs_escape =
        |c: char| (c.is_control() && c != '\n' && c != '\t') || super::text::is_bidi_control(c);
    // One pass over the bytes: a control, a quote or backslash, anything past ASCII.
    let (mut control, mut quoted, mut wide) = (false, false, false);
    for &b in text.as_bytes() {
        match b {
            b'\n' | b'\t' => {}
            0..0x20 | 0x7f => control = true,
            b'"' | b'\\' => quoted = true,
            0x80.. => wide = true,
            _ => {}
        }
    }
    let escapes = control || (wide && text.chars().any(needs_escape));
    if escapes {
        let _ = write!(out, "{text:?}");
    } else if quoted {
        let mut hashes = 1;
        while text.contains(&format!("\"{}", "#".repeat(hashes))) {
            hashes += 1;
        }
        let hashes = "#".repeat(hashes);
        out.push('r');
        out.push_str(&hashes);
        out.push('"');
        out.push_str(text);
        out.push('"');
        out.push_str(&hashes);
    } else {
        out.push('"');
        out.push_str(text);
        out.push('"');
    }
}

/// `/// doc`, `#[allow(dead_code)]`, `pub static NAME: TYPE = VALUE;` as text, written
/// to `out` (tables are megabytes: written once, in place).
pub fn static_item(out: &mut String, doc: &str, name: &str, ty: &str, value: &Data) {
    out.reserve(doc.len() + name.len() + ty.len() + value.size(0) + 64);
    for line in doc.lines() {
        out.push_str("///");
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str("#[allow(dead_code)]\n");
    out.push_str(&format!("pub static {name}: {ty} = "));
    value.print(0, out);
    out.push_str(";\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_need_no_escaping_when_they_can_avoid_it() {
        assert_eq!(literal("plain"), "\"plain\"");
        assert_eq!(literal(r#"{"a":"b"}"#), r##"r#"{"a":"b"}"#"##);
        assert_eq!(literal(r##"say "#hi""##), r###"r##"say "#hi""##"###);
        assert_eq!(literal("bell\u{7}"), "\"bell\\u{7}\"");
        assert_eq!(literal("a\u{202e}b"), "\"a\\u{202e}b\"");
        assert_eq!(literal("\"q\"\r"), "\"\\\"q\\\"\\r\"");
    }

    #[test]
    fn lays_out_struct_literals_and_arrays() {
        let value = Data::Array(vec![Data::Struct(
            "::toolwright::descriptor::Param",
            vec![
                ("field", Data::cow("a\"b")),
                ("required", Data::bool(false)),
                ("params", Data::cow_slice(vec![])),
                ("meta", Data::option(None)),
            ],
        )]);
        assert_eq!(
            {
                let mut out = String::new();
                static_item(
                    &mut out,
                    "Doc.",
                    "X",
                    "[::toolwright::descriptor::Param; 1]",
                    &value,
                );
                out
            },
            r####"/// Doc.
#[allow(dead_code)]
pub static X: [::toolwright::descriptor::Param; 1] = [::toolwright::descriptor::Param {
    field: ::toolwright::__private::text(r#"a"b"#),
    required: false,
    params: ::toolwright::__private::Cow::Borrowed(&[]),
    meta: ::std::option::Option::None,
}];
"####
        );
    }
}
