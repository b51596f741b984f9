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
}

impl Data {
    /// `Cow::Borrowed("text")`.
    pub fn cow(text: &str) -> Data {
        Data::Raw(format!(
            "::toolwright::__private::Cow::Borrowed({})",
            literal(text)
        ))
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
    // Controls would be unreadable (a bare CR is refused), and rustc refuses
    // direction-changing characters in any literal: those need escapes.
    let needs_escape =
        |c: char| (c.is_control() && c != '\n' && c != '\t') || super::text::is_bidi_control(c);
    let plain = |c: char| c != '"' && c != '\\' && !needs_escape(c);
    if text.chars().all(plain) {
        return format!("\"{text}\"");
    }
    if !text.chars().any(needs_escape) {
        let mut hashes = String::from("#");
        while text.contains(&format!("\"{hashes}")) {
            hashes.push('#');
        }
        return format!("r{hashes}\"{text}\"{hashes}");
    }
    format!("{text:?}")
}

/// `/// doc`, `#[allow(dead_code)]`, `pub static NAME: TYPE = VALUE;` as text.
pub fn static_item(doc: &str, name: &str, ty: &str, value: &Data) -> String {
    let mut out = String::new();
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
    value.print(0, &mut out);
    out.push_str(";\n");
    out
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
            "::toolwright::Param",
            vec![
                ("field", Data::cow("a\"b")),
                ("required", Data::bool(false)),
                ("params", Data::cow_slice(vec![])),
                ("meta", Data::option(None)),
            ],
        )]);
        assert_eq!(
            static_item("Doc.", "X", "[::toolwright::Param; 1]", &value),
            r####"/// Doc.
#[allow(dead_code)]
pub static X: [::toolwright::Param; 1] = [::toolwright::Param {
    field: ::toolwright::__private::Cow::Borrowed(r#"a"b"#),
    required: false,
    params: ::toolwright::__private::Cow::Borrowed(&[]),
    meta: ::std::option::Option::None,
}];
"####
        );
    }
}
