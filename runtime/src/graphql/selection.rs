//! A `selection` argument: GraphQL fields a model adds to a tool's default
//! selection (`issues(first: 5) { nodes { title } }`).
//!
//! The text goes into the document the executor sends, so it is never pasted: it is
//! parsed (fields, aliases, arguments with literal values, nested selection sets,
//! inline fragments), checked against the API's types (each field exists where it is
//! selected, takes the arguments given, has every required one, and has a selection
//! set exactly when it is an object), and printed anew. Text that closes the
//! document early or opens a second operation does not parse. Variables, directives
//! and named fragments are refused (values are written inline).

use std::fmt::Write as _;

use super::types::{Composite, TypeTable};

/// Longest selection text taken.
pub const MAX_LENGTH: usize = 16 * 1024;
/// Deepest nesting of selection sets and values.
pub const MAX_DEPTH: usize = 16;

#[derive(Debug, Clone, PartialEq)]
enum Selection {
    Field {
        alias: Option<String>,
        name: String,
        args: Vec<(String, Literal)>,
        selections: Option<Vec<Selection>>,
        /// Byte offset, for messages.
        at: usize,
    },
    Fragment {
        on: String,
        selections: Vec<Selection>,
        at: usize,
    },
}

#[derive(Debug, Clone, PartialEq)]
enum Literal {
    /// An integer or float, as written (checked against the number grammar).
    Number(String),
    String(String),
    Bool(bool),
    Null,
    Enum(String),
    List(Vec<Literal>),
    Object(Vec<(String, Literal)>),
}

/// `text` parsed, checked against the fields of `parent` in `types`, and printed as
/// it goes in the document (fields separated by spaces, no braces around).
pub fn check(text: &str, parent: &str, types: &TypeTable) -> Result<String, String> {
    if text.len() > MAX_LENGTH {
        return Err(format!(
            "the selection is {} bytes; at most {MAX_LENGTH} are taken",
            text.len()
        ));
    }
    let mut parser = Parser {
        text,
        at: 0,
        depth: 0,
    };
    let selections = parser.top()?;
    let mut errors = Vec::new();
    validate(&selections, parent, types, &mut errors);
    if !errors.is_empty() {
        return Err(errors.join("; "));
    }
    let mut out = String::new();
    print(&selections, &mut out);
    Ok(out)
}

struct Parser<'t> {
    text: &'t str,
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    /// The whole text: a selection set with or without its braces.
    fn top(&mut self) -> Result<Vec<Selection>, String> {
        self.skip();
        let braced = self.peek() == Some(b'{');
        if braced {
            self.at += 1;
        }
        let selections = self.selections(braced)?;
        self.skip();
        if self.at < self.text.len() {
            return Err(self.error("unexpected text after the selection"));
        }
        if selections.is_empty() {
            return Err("the selection names no field".into());
        }
        Ok(selections)
    }

    /// Selections up to a `}` (taken) when `closed`, else up to the end.
    fn selections(&mut self, closed: bool) -> Result<Vec<Selection>, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let mut out = Vec::new();
        loop {
            self.skip();
            match self.peek() {
                None if closed => return Err(self.error("a `{` is not closed")),
                None => break,
                Some(b'}') if closed => {
                    self.at += 1;
                    break;
                }
                Some(b'}') => return Err(self.error("a `}` closes nothing")),
                Some(b'.') => out.push(self.fragment()?),
                Some(_) => out.push(self.field()?),
            }
        }
        self.depth -= 1;
        Ok(out)
    }

    fn fragment(&mut self) -> Result<Selection, String> {
        let at = self.at;
        if !self.text[self.at..].starts_with("...") {
            return Err(self.error("expected `...`"));
        }
        self.at += 3;
        self.skip();
        let word = self.name()?;
        if word != "on" {
            return Err(format!(
                "at byte {at}: named fragments (`...{word}`) are not taken; write `... on Type {{ fields }}`"
            ));
        }
        self.skip();
        let on = self.name()?;
        self.skip();
        self.directive_check()?;
        self.expect(b'{', "a fragment needs its fields in `{ }`")?;
        let selections = self.selections(true)?;
        Ok(Selection::Fragment { on, selections, at })
    }

    fn field(&mut self) -> Result<Selection, String> {
        let at = self.at;
        let first = self.name()?;
        self.skip();
        let (alias, name) = if self.peek() == Some(b':') {
            self.at += 1;
            self.skip();
            (Some(first), self.name()?)
        } else {
            (None, first)
        };
        self.skip();
        let mut args = Vec::new();
        if self.peek() == Some(b'(') {
            self.at += 1;
            loop {
                self.skip();
                if self.peek() == Some(b')') {
                    self.at += 1;
                    break;
                }
                let arg = self.name()?;
                self.skip();
                self.expect(b':', "an argument is `name: value`")?;
                let value = self.value()?;
                args.push((arg, value));
            }
        }
        self.skip();
        self.directive_check()?;
        let selections = if self.peek() == Some(b'{') {
            self.at += 1;
            Some(self.selections(true)?)
        } else {
            None
        };
        Ok(Selection::Field {
            alias,
            name,
            args,
            selections,
            at,
        })
    }

    fn directive_check(&self) -> Result<(), String> {
        if self.peek() == Some(b'@') {
            return Err(self.error("directives (`@include`, `@skip`, ...) are not taken"));
        }
        Ok(())
    }

    fn value(&mut self) -> Result<Literal, String> {
        self.skip();
        self.depth += 1;
        if self.depth > MAX_DEPTH * 2 {
            return Err(self.error("a value nested too deep"));
        }
        let value = match self.peek() {
            Some(b'$') => {
                return Err(
                    self.error("variables are not taken in a selection: write the value itself")
                );
            }
            Some(b'"') => Literal::String(self.string()?),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip();
                    if self.peek() == Some(b']') {
                        self.at += 1;
                        break;
                    }
                    if self.peek().is_none() {
                        return Err(self.error("a `[` is not closed"));
                    }
                    items.push(self.value()?);
                }
                Literal::List(items)
            }
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                loop {
                    self.skip();
                    if self.peek() == Some(b'}') {
                        self.at += 1;
                        break;
                    }
                    let name = self.name()?;
                    self.skip();
                    self.expect(b':', "an object field is `name: value`")?;
                    fields.push((name, self.value()?));
                }
                Literal::Object(fields)
            }
            Some(b'-' | b'0'..=b'9') => Literal::Number(self.number()?),
            Some(_) => match self.name()?.as_str() {
                "true" => Literal::Bool(true),
                "false" => Literal::Bool(false),
                "null" => Literal::Null,
                other => Literal::Enum(other.to_owned()),
            },
            None => return Err(self.error("a value is missing")),
        };
        self.depth -= 1;
        Ok(value)
    }

    /// `"..."` with GraphQL's escapes (the JSON ones). Block strings are refused.
    fn string(&mut self) -> Result<String, String> {
        if self.text[self.at..].starts_with("\"\"\"") {
            return Err(self.error("block strings (`\"\"\"`) are not taken; use `\"...\"`"));
        }
        let start = self.at;
        self.at += 1;
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() {
            match bytes[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return serde_json::from_str::<String>(&self.text[start..self.at])
                        .map_err(|e| format!("at byte {start}: a string does not read: {e}"));
                }
                b'\n' | b'\r' => break,
                _ => self.at += 1,
            }
        }
        Err(format!("at byte {start}: a string is not closed"))
    }

    fn number(&mut self) -> Result<String, String> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        while self.at < bytes.len()
            && matches!(
                bytes[self.at],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.at += 1;
        }
        let text = &self.text[start..self.at];
        // GraphQL numbers are JSON numbers (no leading `+`, no bare `.5`).
        match serde_json::from_str::<serde_json::Number>(text) {
            Ok(_) => Ok(text.to_owned()),
            Err(_) => Err(format!("at byte {start}: `{text}` is not a number")),
        }
    }

    fn name(&mut self) -> Result<String, String> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        if !bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        {
            let found = self.text[self.at..].chars().next();
            return Err(match found {
                Some(c) => format!("at byte {start}: expected a name, found `{c}`"),
                None => format!("at byte {start}: expected a name, found the end"),
            });
        }
        while self.at < bytes.len()
            && (bytes[self.at].is_ascii_alphanumeric() || bytes[self.at] == b'_')
        {
            self.at += 1;
        }
        Ok(self.text[start..self.at].to_owned())
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), String> {
        self.skip();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    /// Whitespace, commas (insignificant in GraphQL) and `#` comments.
    fn skip(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() {
            match bytes[self.at] {
                b' ' | b'\t' | b'\n' | b'\r' | b',' => self.at += 1,
                b'#' => {
                    while self.at < bytes.len() && bytes[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
        // A byte-order mark or other Unicode whitespace is not GraphQL's; it stays
        // and is reported where it is.
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn error(&self, what: &str) -> String {
        format!("at byte {}: {what}", self.at)
    }
}

fn validate(selections: &[Selection], parent: &str, types: &TypeTable, errors: &mut Vec<String>) {
    let Some(entry) = types.get(parent) else {
        errors.push(format!("`{parent}` has no fields to select"));
        return;
    };
    for selection in selections {
        match selection {
            Selection::Fragment { on, selections, at } => {
                if types.get(on).is_none() {
                    errors.push(format!(
                        "at byte {at}: `... on {on}`: there is no object, interface or union `{on}`"
                    ));
                } else if !types.overlaps(parent, on) {
                    errors.push(format!(
                        "at byte {at}: `... on {on}` can never apply to a `{parent}`"
                    ));
                } else {
                    validate(selections, on, types, errors);
                }
            }
            Selection::Field {
                name,
                args,
                selections,
                at,
                ..
            } => {
                if name == "__typename" {
                    if !args.is_empty() || selections.is_some() {
                        errors.push(format!(
                            "at byte {at}: `__typename` takes no arguments and no selection"
                        ));
                    }
                    continue;
                }
                let Some(field) = entry.fields.get(name) else {
                    let hint = if entry.kind == Composite::Union {
                        format!(
                            "; `{parent}` is a union: select `__typename` and `... on Member {{ fields }}`"
                        )
                    } else {
                        crate::catalog::closest(entry.fields.keys().map(String::as_str), name)
                            .map(|n| format!("; did you mean `{n}`?"))
                            .unwrap_or_default()
                    };
                    errors.push(format!(
                        "at byte {at}: `{parent}` has no field `{name}`{hint}"
                    ));
                    continue;
                };
                for (arg, _) in args {
                    if !field.args.iter().any(|(a, _)| a == arg) {
                        let known: Vec<&str> = field.args.iter().map(|(a, _)| a.as_str()).collect();
                        errors.push(format!(
                            "at byte {at}: `{parent}.{name}` takes no argument `{arg}` (it takes {})",
                            if known.is_empty() { "none".to_owned() } else { format!("`{}`", known.join("`, `")) }
                        ));
                    }
                }
                for (required, _) in field.args.iter().filter(|(_, r)| *r) {
                    if !args.iter().any(|(a, _)| a == required) {
                        errors.push(format!(
                            "at byte {at}: `{parent}.{name}` needs the argument `{required}`"
                        ));
                    }
                }
                match (types.get(&field.returns), selections) {
                    (Some(_), Some(inner)) => validate(inner, &field.returns, types, errors),
                    (Some(_), None) => errors.push(format!(
                        "at byte {at}: `{name}` is a `{}`: select its fields, e.g. `{name} {{ __typename }}`",
                        field.returns
                    )),
                    (None, Some(_)) => errors.push(format!(
                        "at byte {at}: `{name}` is a `{}` (a scalar or enum): it takes no selection",
                        field.returns
                    )),
                    (None, None) => {}
                }
            }
        }
    }
}

fn print(selections: &[Selection], out: &mut String) {
    for (i, s) in selections.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match s {
            Selection::Field {
                alias,
                name,
                args,
                selections,
                ..
            } => {
                if let Some(alias) = alias {
                    let _ = write!(out, "{alias}: ");
                }
                out.push_str(name);
                if !args.is_empty() {
                    out.push('(');
                    for (j, (arg, value)) in args.iter().enumerate() {
                        if j > 0 {
                            out.push_str(", ");
                        }
                        let _ = write!(out, "{arg}: ");
                        literal(value, out);
                    }
                    out.push(')');
                }
                if let Some(inner) = selections {
                    out.push_str(" { ");
                    print(inner, out);
                    out.push_str(" }");
                }
            }
            Selection::Fragment { on, selections, .. } => {
                let _ = write!(out, "... on {on} {{ ");
                print(selections, out);
                out.push_str(" }");
            }
        }
    }
}

fn literal(value: &Literal, out: &mut String) {
    match value {
        Literal::Number(n) => out.push_str(n),
        // JSON's escapes are GraphQL's.
        Literal::String(s) => out.push_str(&serde_json::Value::from(s.as_str()).to_string()),
        Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Literal::Null => out.push_str("null"),
        Literal::Enum(e) => out.push_str(e),
        Literal::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                literal(item, out);
            }
            out.push(']');
        }
        Literal::Object(fields) => {
            out.push('{');
            for (i, (name, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{name}: ");
                literal(v, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TypeTable {
        TypeTable::parse(
            "O Repository id:ID name:String owner:Owner issues(first,after,states):IssueConnection file(path!):String\n\
             O IssueConnection totalCount:Int nodes:Issue\n\
             O Issue number:Int title:String\n\
             O User login:String bio:String\n\
             I Owner login:String\n\
             U Result\n\
             P Owner User\n\
             P Result Issue User\n",
        )
    }

    #[test]
    fn a_valid_selection_is_printed_anew() {
        let out = check(
            "{ issues(first: 5, states: [OPEN], after: \"x\\\"y\") { totalCount, nodes { n: number title } } owner { ... on User { bio } } # note\n }",
            "Repository",
            &table(),
        )
        .unwrap();
        assert_eq!(
            out,
            "issues(first: 5, states: [OPEN], after: \"x\\\"y\") { totalCount nodes { n: number title } } owner { ... on User { bio } }"
        );
        assert_eq!(check("name", "Repository", &table()).unwrap(), "name");
    }

    #[test]
    fn what_the_schema_does_not_have_is_refused_with_a_reason() {
        let t = table();
        let err = check("nam", "Repository", &t).unwrap_err();
        assert!(
            err.contains("no field `nam`") && err.contains("`name`"),
            "{err}"
        );
        let err = check("owner", "Repository", &t).unwrap_err();
        assert!(err.contains("select its fields"), "{err}");
        let err = check("name { x }", "Repository", &t).unwrap_err();
        assert!(err.contains("takes no selection"), "{err}");
        let err = check("file", "Repository", &t).unwrap_err();
        assert!(err.contains("needs the argument `path`"), "{err}");
        let err = check("issues(last: 3) { totalCount }", "Repository", &t).unwrap_err();
        assert!(err.contains("no argument `last`"), "{err}");
        let err = check("owner { ... on Issue { title } }", "Repository", &t).unwrap_err();
        assert!(err.contains("can never apply"), "{err}");
    }

    #[test]
    fn text_that_would_escape_the_document_does_not_parse() {
        let t = table();
        for hostile in [
            "name } } mutation { deleteRepository(id: 1) { id }",
            "name }",
            "{ name",
            "issues(first: $n) { totalCount }",
            "name @include(if: true)",
            "...Frag",
            "issues(after: \"\"\"x\"\"\") { totalCount }",
            "issues(first: 1e) { totalCount }",
            "",
        ] {
            assert!(check(hostile, "Repository", &t).is_err(), "{hostile}");
        }
        let deep = format!("{}{}", "owner { ".repeat(40), "}".repeat(40));
        assert!(
            check(&deep, "Repository", &t)
                .unwrap_err()
                .contains("deeper")
        );
        assert!(
            check(&"name ".repeat(5000), "Repository", &t)
                .unwrap_err()
                .contains("bytes")
        );
    }
}
