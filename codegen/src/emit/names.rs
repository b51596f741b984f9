//! Rust identifiers from source names: snake/Pascal case, keywords made raw, anything
//! else made safe, and collisions resolved deterministically.

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToSnakeCase};

/// A `snake_case` identifier for a field, method or module.
pub fn snake(name: &str) -> String {
    let s = sanitize(&name.to_snake_case());
    if s.is_empty() || s.chars().all(|c| c == '_') {
        return "field".to_owned();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// A `PascalCase` identifier for a type or variant.
pub fn pascal(name: &str) -> String {
    let s = sanitize(&name.to_pascal_case());
    if s.is_empty() {
        "Value".to_owned()
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{s}")
    } else {
        s
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// Rust's keywords, strict and reserved (2015 to 2024 editions): as identifiers they
/// are written raw (`r#type`).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// An identifier as written in code: raw for keywords (`r#type`); `self`/`Self`/
/// `super`/`crate` (which cannot be raw) get `_`. Never invalid: text that is no
/// identifier is sanitised first (callers pass names from [`snake`]/[`pascal`], so
/// this is a safety net, not a naming rule).
pub fn ident(name: &str) -> String {
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid && !name.is_empty() {
        let cleaned = sanitize(name);
        let cleaned = if cleaned.starts_with(|c: char| c.is_ascii_digit()) || cleaned.is_empty() {
            format!("_{cleaned}")
        } else {
            cleaned
        };
        return ident(&cleaned);
    }
    if matches!(name, "self" | "Self" | "super" | "crate" | "_" | "") {
        return format!("{name}_");
    }
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// Doc comments for `text` (made safe by [`super::text::rustdoc`]), one `///` line per
/// line, each after `indent`. Docs that hold a code block are written as attributes
/// left out of doctest collection (`cfg_attr(not(doctest))`): even a block the
/// Markdown rules read differently than we do can never run in the user's
/// `cargo test`.
pub fn doc(text: &str, indent: &str) -> String {
    thread_local! {
        // Large APIs repeat descriptions on many types (compute v1: 16,556 doc blocks,
        // 8,642 distinct): each is made safe once.
        static SAFE: std::cell::RefCell<std::collections::HashMap<String, (std::rc::Rc<str>, bool)>> =
            std::cell::RefCell::default();
    }
    let text = text.trim();
    let known = SAFE.with(|safe| safe.borrow().get(text).cloned());
    let (safe, has_code) = known.unwrap_or_else(|| {
        let (safe, has_code) = super::text::rustdoc(text);
        let made: (std::rc::Rc<str>, bool) = (safe.into(), has_code);
        SAFE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.len() >= 1 << 14 {
                cache.clear();
            }
            cache.insert(text.to_owned(), made.clone());
        });
        made
    });
    let mut out = String::with_capacity(safe.len() + 16);
    for line in safe.trim().lines() {
        out.push_str(indent);
        if has_code {
            let line = if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            };
            out.push_str("#[cfg_attr(not(doctest), doc = ");
            out.push_str(&super::data::literal(&line));
            out.push_str(")]\n");
        } else if line.is_empty() {
            out.push_str("///\n");
        } else {
            out.push_str("/// ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A string literal on one line (escaped: keys and enum values may hold anything),
/// so that [`indent`] never reaches into one.
pub fn lit(text: &str) -> String {
    format!("{text:?}")
}

/// `text` with every non-empty line indented by `spaces` more (generated code holds
/// no multi-line literals, so lines are lines of code).
pub fn indent(text: &str, spaces: usize) -> String {
    let pad = " ".repeat(spaces);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        if line != "\n" {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

/// Hands out unique names within one scope. Names are compared case-folded, so two
/// names never differ only in case (file names on case-insensitive file systems, and
/// readers, would confuse them).
#[derive(Debug, Default, Clone)]
pub struct Scope {
    taken: BTreeSet<String>,
}

impl Scope {
    /// A scope in which `reserved` (the generator's own names) are already taken.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        let mut scope = Scope::default();
        for name in reserved {
            scope.taken.insert(name.to_lowercase());
        }
        scope
    }

    /// `name`, or `name2`, `name3`... if already taken.
    pub fn claim(&mut self, name: &str) -> String {
        let mut candidate = name.to_owned();
        let mut n = 2;
        while !self.taken.insert(candidate.to_lowercase()) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        candidate
    }
}

/// Module names a generated API module must not take: the entry file's stem, and crate
/// names a user's `use` paths would find ambiguous next to a module of the same name.
const RESERVED_MODULES: &[&str] = &["toolwright", "std", "core", "alloc", "serde", "serde_json"];

/// Type names the generator itself uses inside an API module.
const RESERVED_TYPES: &[&str] = &["Client"];

/// Method names `Client` already has (its constructor and accessor, and the trait
/// methods an inherent method of the same name would shadow at call sites).
const RESERVED_METHODS: &[&str] = &["new", "executor", "clone", "fmt"];

/// The Rust names of one API's generated items, allocated once and shared by every
/// emitter (the module's code and the entry file's catalog refer to the same names).
#[derive(Debug, Clone)]
pub struct ApiNames {
    /// The module (`mod <module>`), also the file stem (`<module>.rs`).
    pub module: String,
    /// Per operation, in source order.
    pub operations: Vec<OperationNames>,
    /// Type names taken so far; definitions and inline types claim from here.
    pub types: Scope,
}

/// The items generated for one operation.
#[derive(Debug, Clone)]
pub struct OperationNames {
    /// The `Client` method.
    pub method: String,
    /// `<Op>Input`, `<Op>Output`, `<Op>Response`, `<Op>Error`.
    pub input: String,
    pub output: String,
    pub response: String,
    pub error: String,
    /// Prefix for the inline types this operation's schemas need.
    pub pascal: String,
}

impl ApiNames {
    pub fn file_name(&self) -> String {
        format!("{}.rs", self.module)
    }
}

/// Allocates the module name of every API (in the order given) and, per API, the names
/// of the generator's own items before any name taken from the source: an operation's
/// `<Op>Input` keeps its name, and a component schema called `Client` or `GetXInput`
/// becomes `Client2` / `GetXInput2`.
pub fn allocate<'a>(apis: impl IntoIterator<Item = &'a crate::ir::Api>) -> Vec<ApiNames> {
    let mut modules = Scope::with_reserved(RESERVED_MODULES);
    apis.into_iter()
        .map(|api| {
            let wanted = snake(&api.name);
            let module = if RESERVED_MODULES.contains(&wanted.as_str()) {
                modules.claim(&format!("{wanted}_api"))
            } else {
                modules.claim(&wanted)
            };
            let mut types = Scope::with_reserved(RESERVED_TYPES);
            let mut methods = Scope::with_reserved(RESERVED_METHODS);
            // `getX` and `get_x` get distinct prefixes (`GetX`, `GetX2`) so that all
            // their types stay recognisably theirs.
            let mut prefixes = Scope::default();
            let operations = api
                .operations
                .iter()
                .map(|op| {
                    let pascal = prefixes.claim(&pascal(&op.name));
                    OperationNames {
                        method: methods.claim(&snake(&op.name)),
                        input: types.claim(&format!("{pascal}Input")),
                        output: types.claim(&format!("{pascal}Output")),
                        response: types.claim(&format!("{pascal}Response")),
                        error: types.claim(&format!("{pascal}Error")),
                        pascal,
                    }
                })
                .collect();
            ApiNames {
                module,
                operations,
                types,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("X-Trace-Id"), "x_trace_id");
        assert_eq!(snake("2fa"), "_2fa");
        assert_eq!(pascal("in progress"), "InProgress");
        assert_eq!(pascal("1.0"), "V10");
        assert_eq!(ident("type"), "r#type");
        assert_eq!(ident("self"), "self_");
        assert_eq!(ident("gen"), "r#gen", "reserved in edition 2024");
        assert_eq!(ident("a-b"), "ab");
        let mut s = Scope::default();
        assert_eq!(s.claim("A"), "A");
        assert_eq!(s.claim("A"), "A2");
        assert_eq!(s.claim("a"), "a3", "names differing only in case collide");
    }

    #[test]
    fn docs_are_line_comments_unless_they_hold_code() {
        assert_eq!(
            doc("One.\n\nTwo.", "    "),
            "    /// One.\n    ///\n    /// Two.\n"
        );
        let with_code = doc("See:\n```\nx\n```", "");
        assert!(with_code.starts_with("#[cfg_attr(not(doctest), doc = \" See:\")]\n"));
        assert!(with_code.contains("doc = \" ```text\")"), "{with_code}");
        assert_eq!(
            indent("a {\n\n    b\n}\n", 4),
            "    a {\n\n        b\n    }\n"
        );
        assert_eq!(lit("a\nb\"c"), "\"a\\nb\\\"c\"");
    }
}
