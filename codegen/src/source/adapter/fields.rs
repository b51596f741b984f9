//! Typed access to YAML mappings with diagnostics: every wrong type, missing field and
//! unknown key becomes a finding with its span, and reading goes on so that one run
//! reports everything.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::source::yaml::{Node, NodeValue};

/// Reading context: the file and the run's findings.
pub struct Reader<'a> {
    pub file: &'a Arc<SourceFile>,
    pub diagnostics: &'a mut Diagnostics,
}

/// A text value with where it came from.
#[derive(Debug, Clone)]
pub struct Text {
    pub value: String,
    pub span: Range<usize>,
}

/// The entries of one mapping, tracking which keys were read.
pub struct Fields<'n> {
    /// What the mapping is, for messages ("operation", "target", ...).
    pub what: &'static str,
    pub span: Range<usize>,
    entries: Vec<(String, &'n Node, &'n Node)>,
    used: Vec<bool>,
}

impl<'n> Fields<'n> {
    /// Keys of the mapping in source order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &'n Node, &'n Node)> + '_ {
        self.entries.iter().map(|(k, kn, v)| (k.as_str(), *kn, *v))
    }

    /// Marks every key as read (for mappings whose keys are names, like `params`).
    pub fn use_all(&mut self) {
        self.used.iter_mut().for_each(|u| *u = true);
    }

    /// The value of `key`, or `None` when absent or null.
    pub fn get(&mut self, key: &str) -> Option<&'n Node> {
        let i = self.entries.iter().position(|(k, _, _)| k == key)?;
        self.used[i] = true;
        let node = self.entries[i].2;
        (!matches!(node.value, NodeValue::Null)).then_some(node)
    }

    /// The span of `key` itself (for findings about the key).
    pub fn key_span(&self, key: &str) -> Option<Range<usize>> {
        self.entries
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, kn, _)| kn.span.clone())
    }
}

impl Reader<'_> {
    pub fn location(&self, span: Range<usize>) -> Location {
        Location {
            file: Arc::clone(self.file),
            span,
        }
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The node as a mapping, or a finding.
    pub fn fields<'n>(&mut self, node: &'n Node, what: &'static str) -> Option<Fields<'n>> {
        let NodeValue::Map(entries) = &node.value else {
            self.wrong_type(node, what, "a mapping");
            return None;
        };
        let mut out = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match k.scalar_text() {
                Some(name) => out.push((name, k, v)),
                None => self.push(
                    Diagnostic::error(codes::WRONG_TYPE, format!("a key in {what} is not a name"))
                        .at(self.location(k.span.clone()))
                        .label(format!("found {}", k.kind()))
                        .help("keys must be plain names"),
                ),
            }
        }
        let used = vec![false; out.len()];
        Some(Fields {
            what,
            span: node.span.clone(),
            entries: out,
            used,
        })
    }

    /// Reports keys that were never read as unknown (warnings: lenient by default) and
    /// returns them as native metadata so nothing is lost.
    pub fn finish(&mut self, fields: Fields<'_>, known: &[&str]) -> BTreeMap<String, Value> {
        let mut extra = BTreeMap::new();
        for ((name, key, value), used) in fields.entries.iter().zip(&fields.used) {
            if *used {
                continue;
            }
            // A near miss of a known field (`requried`, `maps_too`) silently changes
            // meaning if kept as metadata: an error even in lenient mode.
            let diagnostic = match crate::diagnostics::did_you_mean(name, known) {
                Some(close) => Diagnostic::error(
                    codes::UNKNOWN_FIELD,
                    format!(
                        "unknown field `{name}` in {}; did you mean `{close}`?",
                        fields.what
                    ),
                )
                .label(format!("`{close}` is a field of the adapter format"))
                .help(format!(
                    "write `{close}` (a misspelt field would be ignored)"
                )),
                None => Diagnostic::warning(
                    codes::UNKNOWN_FIELD,
                    format!("unknown field `{name}` in {}", fields.what),
                )
                .label("not part of the adapter format; kept as metadata")
                .help(format!("known fields here: {}", known.join(", "))),
            };
            self.push(diagnostic.at(self.location(key.span.clone())));
            extra.insert(name.clone(), value.to_json());
        }
        extra
    }

    pub fn wrong_type(&mut self, node: &Node, what: &str, expected: &str) {
        self.push(
            Diagnostic::error(codes::WRONG_TYPE, format!("`{what}` must be {expected}"))
                .at(self.location(node.span.clone()))
                .label(format!("found {}", node.kind())),
        );
    }

    pub fn missing(&mut self, fields: &Fields<'_>, key: &str, help: &str) {
        self.push(
            Diagnostic::error(
                codes::MISSING_FIELD,
                format!("{} is missing the required field `{key}`", fields.what),
            )
            .at(self.location(fields.span.clone()))
            .label(format!("`{key}` expected in this mapping"))
            .help(help.to_owned()),
        );
    }

    /// An optional string field.
    pub fn opt_str(&mut self, fields: &mut Fields<'_>, key: &str) -> Option<Text> {
        let node = fields.get(key)?;
        match &node.value {
            NodeValue::Str(s) => Some(Text {
                value: s.clone(),
                span: node.span.clone(),
            }),
            _ => {
                self.wrong_type(node, key, "a string");
                None
            }
        }
    }

    /// A required string field.
    pub fn req_str(&mut self, fields: &mut Fields<'_>, key: &str, help: &str) -> Option<Text> {
        if fields.key_span(key).is_none() || fields.is_null(key) {
            self.missing(fields, key, help);
            return None;
        }
        self.opt_str(fields, key)
    }

    /// An optional boolean field.
    pub fn opt_bool(&mut self, fields: &mut Fields<'_>, key: &str) -> Option<bool> {
        let node = fields.get(key)?;
        match node.value {
            NodeValue::Bool(b) => Some(b),
            _ => {
                self.wrong_type(node, key, "`true` or `false`");
                None
            }
        }
    }

    /// An optional list of strings.
    pub fn opt_str_list(&mut self, fields: &mut Fields<'_>, key: &str) -> Option<Vec<Text>> {
        let node = fields.get(key)?;
        let NodeValue::Seq(items) = &node.value else {
            self.wrong_type(node, key, "a list of strings");
            return None;
        };
        let mut out = Vec::new();
        for item in items {
            match item.scalar_text() {
                Some(s) => out.push(Text {
                    value: s,
                    span: item.span.clone(),
                }),
                None => self.wrong_type(item, key, "a list of strings"),
            }
        }
        Some(out)
    }
}

impl Fields<'_> {
    /// `key: ~` counts as missing for required fields.
    fn is_null(&self, key: &str) -> bool {
        self.entries
            .iter()
            .any(|(k, _, v)| k == key && matches!(v.value, NodeValue::Null))
    }
}
