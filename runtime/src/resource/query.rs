//! The arguments of a `search_<Type>` tool: conditions on named attributes.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// Conditions that all must hold, and an optional cap on the number of records.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    #[serde(default)]
    pub conditions: Vec<Condition>,
    #[serde(default)]
    pub limit: Option<u32>,
}

/// `attribute operator value`, e.g. `price_cents lt 1000`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// A property name of the record (as serialized).
    pub attribute: String,
    pub operator: Operator,
    pub value: Value,
}

/// How a condition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Operator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// A string contains the value, or an array contains an equal item.
    Contains,
    StartsWith,
}

impl Operator {
    const ALL: [(Operator, &'static str, &'static str); 8] = [
        (Operator::Eq, "eq", "equal to"),
        (Operator::Ne, "ne", "not equal to"),
        (Operator::Lt, "lt", "less than"),
        (Operator::Le, "le", "less than or equal to"),
        (Operator::Gt, "gt", "greater than"),
        (Operator::Ge, "ge", "greater than or equal to"),
        (
            Operator::Contains,
            "contains",
            "a string containing the value, or an array with an item equal to it",
        ),
        (
            Operator::StartsWith,
            "starts_with",
            "a string starting with the value",
        ),
    ];
}

impl Query {
    /// Whether a record (as its serialized JSON) meets every condition. In-memory
    /// stores can filter with it; a database-backed one translates the conditions.
    pub fn matches(&self, record: &Value) -> bool {
        self.conditions.iter().all(|c| c.matches(record))
    }
}

impl Condition {
    pub fn matches(&self, record: &Value) -> bool {
        let Some(actual) = record.get(&self.attribute) else {
            return false;
        };
        let order = compare(actual, &self.value);
        match self.operator {
            Operator::Eq => actual == &self.value,
            Operator::Ne => actual != &self.value,
            Operator::Lt => order == Some(Ordering::Less),
            Operator::Le => matches!(order, Some(Ordering::Less | Ordering::Equal)),
            Operator::Gt => order == Some(Ordering::Greater),
            Operator::Ge => matches!(order, Some(Ordering::Greater | Ordering::Equal)),
            Operator::Contains => match (actual, &self.value) {
                (Value::String(s), Value::String(v)) => s.contains(v.as_str()),
                (Value::Array(items), v) => items.contains(v),
                _ => false,
            },
            Operator::StartsWith => match (actual, &self.value) {
                (Value::String(s), Value::String(v)) => s.starts_with(v.as_str()),
                _ => false,
            },
        }
    }
}

fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// The input schema of `search_<Type>`: `attribute` is an enum of the record's
/// property names, each with its description.
pub(super) fn schema(properties: &Map<String, Value>, type_name: &str) -> Value {
    let attributes: Vec<Value> = properties
        .iter()
        .map(|(name, prop)| {
            let mut alternative = json!({ "const": name });
            if let Some(d) = prop.get("description") {
                alternative["description"] = d.clone();
            }
            alternative
        })
        .collect();
    let operators: Vec<Value> = Operator::ALL
        .iter()
        .map(|(_, name, meaning)| json!({ "const": name, "description": meaning }))
        .collect();
    json!({
        "type": "object",
        "properties": {
            "conditions": {
                "description": format!("Conditions that every returned {type_name} meets; none returns all records."),
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "attribute": { "description": format!("The {type_name} property to test."), "oneOf": attributes },
                        "operator": { "description": "How the property is compared with the value.", "oneOf": operators },
                        "value": { "description": "The value to compare the property with." },
                    },
                    "required": ["attribute", "operator", "value"],
                    "additionalProperties": false,
                },
            },
            "limit": {
                "description": "Return at most this many records.",
                "type": "integer",
                "format": "uint32",
                "minimum": 1,
                "maximum": u32::MAX,
            },
        },
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_compare_like_json() {
        let record = json!({"name": "Blue mug", "price": 800, "tags": ["kitchen"]});
        let q: Query = serde_json::from_value(json!({"conditions": [
            {"attribute": "price", "operator": "lt", "value": 1000},
            {"attribute": "name", "operator": "starts_with", "value": "Blue"},
            {"attribute": "tags", "operator": "contains", "value": "kitchen"},
        ]}))
        .unwrap();
        assert!(q.matches(&record));
        let q: Query = serde_json::from_value(
            json!({"conditions": [{"attribute": "price", "operator": "gt", "value": 1000}]}),
        )
        .unwrap();
        assert!(!q.matches(&record));
    }
}
