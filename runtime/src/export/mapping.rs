//! The way back from an export: exported tool names and argument keys to the
//! catalog's, so a call a model makes with what it was shown runs the right
//! operation with the API's own wire names.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Map, Value};

/// Renamed keys of one object in a tool's arguments, and of the objects inside it.
/// Only what differs from the catalog is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Keys {
    /// Exported key → the catalog's key.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub renamed: BTreeMap<String, String>,
    /// Exported keys made nullable for a strict target: `null` there means "not given".
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub nulls: BTreeSet<String>,
    /// The objects under each exported key.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub nested: BTreeMap<String, Keys>,
    /// Array items.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Keys>>,
    /// Values of a map (`additionalProperties`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Box<Keys>>,
}

impl Keys {
    /// Whether nothing is renamed here or below.
    pub fn is_empty(&self) -> bool {
        self == &Keys::default()
    }

    pub(crate) fn nest(&mut self, key: &str, child: Keys) {
        if child.is_empty() {
            return;
        }
        // Alternatives (`anyOf`) describing the same key: their renames join.
        match self.nested.get_mut(key) {
            Some(existing) => existing.join(child),
            None => {
                self.nested.insert(key.to_owned(), child);
            }
        }
    }

    pub(crate) fn set_items(&mut self, child: Keys) {
        if !child.is_empty() {
            match &mut self.items {
                Some(existing) => existing.join(child),
                None => self.items = Some(Box::new(child)),
            }
        }
    }

    pub(crate) fn set_values(&mut self, child: Keys) {
        if !child.is_empty() {
            match &mut self.values {
                Some(existing) => existing.join(child),
                None => self.values = Some(Box::new(child)),
            }
        }
    }

    fn join(&mut self, other: Keys) {
        for (k, v) in other.renamed {
            self.renamed.entry(k).or_insert(v);
        }
        self.nulls.extend(other.nulls);
        for (k, v) in other.nested {
            self.nest(&k, v);
        }
        if let Some(items) = other.items {
            self.set_items(*items);
        }
        if let Some(values) = other.values {
            self.set_values(*values);
        }
    }

    /// `value` (arguments as the catalog names them) with the exported keys a model is
    /// shown, and `null` for each left-out key a strict target wants sent: the way
    /// there of [`Keys::restore`] (usage examples in an export).
    pub fn export(&self, value: Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut out = Map::new();
                for (key, v) in map {
                    let exported = self
                        .renamed
                        .iter()
                        .find(|(_, original)| **original == key)
                        .map_or(key, |(exported, _)| exported.clone());
                    let v = match self.nested.get(&exported) {
                        Some(child) => child.export(v),
                        None => match &self.values {
                            Some(child) => child.export(v),
                            None => v,
                        },
                    };
                    out.insert(exported, v);
                }
                for null in &self.nulls {
                    out.entry(null.clone()).or_insert(Value::Null);
                }
                Value::Object(out)
            }
            Value::Array(items) => match &self.items {
                Some(child) => Value::Array(items.into_iter().map(|v| child.export(v)).collect()),
                None => Value::Array(items),
            },
            other => other,
        }
    }

    /// `value` with exported keys turned back into the catalog's, and the `null`s a
    /// strict target makes the model send for left-out arguments removed.
    pub fn restore(&self, value: Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut out = Map::new();
                for (key, v) in map {
                    if v.is_null() && self.nulls.contains(&key) {
                        continue;
                    }
                    let v = match self.nested.get(&key) {
                        Some(child) => child.restore(v),
                        None => match &self.values {
                            Some(child) if !self.renamed.contains_key(&key) => child.restore(v),
                            _ => v,
                        },
                    };
                    let original = self.renamed.get(&key).cloned().unwrap_or(key);
                    out.insert(original, v);
                }
                Value::Object(out)
            }
            Value::Array(items) => match &self.items {
                Some(child) => Value::Array(items.into_iter().map(|v| child.restore(v)).collect()),
                None => Value::Array(items),
            },
            other => other,
        }
    }
}

/// One exported tool: the catalog's name and the argument renames.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolMapping {
    /// The catalog's tool name.
    pub tool: String,
    #[serde(skip_serializing_if = "Keys::is_empty")]
    pub keys: Keys,
}

/// Exported names → the catalog's, for every tool of an export.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Mapping {
    tools: BTreeMap<String, ToolMapping>,
}

impl Mapping {
    pub(crate) fn insert(&mut self, exported: String, mapping: ToolMapping) {
        self.tools.insert(exported, mapping);
    }

    /// The catalog's tool for an exported name.
    pub fn get(&self, exported: &str) -> Option<&ToolMapping> {
        self.tools.get(exported)
    }

    /// Exported name → mapping, sorted by exported name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ToolMapping)> {
        self.tools.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The catalog's name and arguments for a call made with exported ones. A name
    /// that is not exported is returned as it is (it may be the catalog's own).
    pub fn translate<'a>(&'a self, exported: &'a str, args: Value) -> (&'a str, Value) {
        match self.tools.get(exported) {
            Some(m) => (m.tool.as_str(), m.keys.restore(args)),
            None => (exported, args),
        }
    }

    /// The exported name of a catalog tool.
    pub fn exported_name(&self, tool: &str) -> Option<&str> {
        self.tools
            .iter()
            .find(|(_, m)| m.tool == tool)
            .map(|(k, _)| k.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn restores_keys_and_drops_strict_nulls() {
        let mut inner = Keys::default();
        inner.renamed.insert("X_Trace".into(), "X-Trace".into());
        let mut keys = Keys::default();
        keys.renamed.insert("filter_id".into(), "filter[id]".into());
        keys.nulls.insert("limit".into());
        keys.nest("body", inner.clone());
        keys.set_items(inner);
        let back = keys.restore(json!({"filter_id": 3, "limit": null, "body": {"X_Trace": "t"}}));
        assert_eq!(back, json!({"filter[id]": 3, "body": {"X-Trace": "t"}}));
    }
}
