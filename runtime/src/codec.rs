//! The small, non-derived `Serialize`/`Deserialize` bodies generated types call.
//!
//! `#[derive(Deserialize)]` writes a field enum, two visitors, a sequence and a map
//! reader per struct — about ten lines of MIR per field plus a hundred per type — and
//! a large generated client pays for that on every clean build (GitHub's spent most of
//! its `cargo check` in the type checker and borrow checker of derived code). Generated
//! types call these helpers instead: one line per field, the work done here, once.
//!
//! The wire form is the derive's for JSON: structs are objects (optional fields left
//! out when `None`, extra properties flattened), string enums are strings, untagged
//! enums try their variants in order, newtypes are their content. Errors name the path
//! of the offending field (``field `price.currency`: invalid type: …``).

use std::collections::BTreeMap;
use std::fmt::Display;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// An object being read field by field into a generated struct; `E` is the
/// deserializer's error type.
#[derive(Debug)]
pub struct Object<E> {
    map: Map<String, Value>,
    error: PhantomData<E>,
}

impl<E: serde::de::Error> Object<E> {
    /// Reads the object (anything else is an error naming `expected`).
    pub fn new<'de, D: Deserializer<'de, Error = E>>(
        deserializer: D,
        expected: &'static str,
    ) -> Result<Self, E> {
        match Value::deserialize(deserializer)? {
            Value::Object(map) => Ok(Object {
                map,
                error: PhantomData,
            }),
            other => Err(E::invalid_type(unexpected(&other), &expected)),
        }
    }

    /// A required field: missing (or `null` for a non-nullable type) is an error.
    pub fn req<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<T, E> {
        match self.map.remove(key) {
            Some(value) => T::deserialize(value).map_err(|e| nest(key, e)),
            None => Err(E::missing_field(key)),
        }
    }

    /// An optional field: missing or `null` is `None`.
    pub fn opt<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<Option<T>, E> {
        match self.map.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(value).map(Some).map_err(|e| nest(key, e)),
        }
    }

    /// The properties no named field took (a struct's `additional_properties`).
    pub fn rest<T: DeserializeOwned>(&mut self) -> Result<BTreeMap<String, T>, E> {
        std::mem::take(&mut self.map)
            .into_iter()
            .map(|(key, value)| match T::deserialize(value) {
                Ok(v) => Ok((key, v)),
                Err(e) => Err(nest(&key, e)),
            })
            .collect()
    }

    /// For types that refuse unknown properties: an error naming the first one left.
    pub fn deny_unknown(&self, known: &'static [&'static str]) -> Result<(), E> {
        match self.map.keys().next() {
            Some(key) => Err(E::unknown_field(key, known)),
            None => Ok(()),
        }
    }
}

/// A string enum's value: the position of its text in `accepted` (the variants'
/// order), or an error listing the accepted texts.
pub fn variant<'de, D: Deserializer<'de>>(
    deserializer: D,
    accepted: &'static [&'static str],
) -> Result<usize, D::Error> {
    let text = String::deserialize(deserializer)?;
    accepted
        .iter()
        .position(|v| *v == text)
        .ok_or_else(|| D::Error::unknown_variant(&text, accepted))
}

/// The value an untagged enum chooses its variant by.
pub fn content<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    Value::deserialize(deserializer)
}

/// `value` as `T`, if it fits (an untagged enum's attempt at one variant).
pub fn attempt<T: DeserializeOwned>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}

/// No variant of the untagged enum `name` fits.
pub fn no_variant<E: serde::de::Error>(name: &str) -> E {
    E::custom(format_args!(
        "data did not match any variant of untagged enum {name}"
    ))
}

/// `error` inside the field `key`: paths join (``field `a.b`: …``).
fn nest<E: serde::de::Error>(key: &str, error: impl Display) -> E {
    let inner = error.to_string();
    match inner
        .strip_prefix("field `")
        .and_then(|rest| rest.split_once("`: "))
    {
        Some((path, message)) => E::custom(format_args!("field `{key}.{path}`: {message}")),
        None => E::custom(format_args!("field `{key}`: {inner}")),
    }
}

fn unexpected(value: &Value) -> serde::de::Unexpected<'_> {
    use serde::de::Unexpected;
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Unexpected::Signed(i),
            (None, Some(f)) => Unexpected::Float(f),
            _ => Unexpected::Other("number"),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Money {
        amount: i64,
        currency: String,
        note: Option<String>,
    }

    impl<'de> Deserialize<'de> for Money {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let mut o = Object::new(d, "struct Money")?;
            let value = Money {
                amount: o.req("amount")?,
                currency: o.req("currency")?,
                note: o.opt("note")?,
            };
            o.deny_unknown(&["amount", "currency", "note"])?;
            Ok(value)
        }
    }

    #[derive(Debug, PartialEq)]
    struct Product {
        price: Money,
        extra: BTreeMap<String, i64>,
    }

    impl<'de> Deserialize<'de> for Product {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let mut o = Object::new(d, "struct Product")?;
            Ok(Product {
                price: o.req("price")?,
                extra: o.rest()?,
            })
        }
    }

    #[test]
    fn reads_fields_optional_and_rest() {
        let p: Product = serde_json::from_value(
            json!({"price": {"amount": 5, "currency": "EUR", "note": null}, "x": 1}),
        )
        .unwrap();
        assert_eq!(p.price.note, None);
        assert_eq!(p.extra, BTreeMap::from([("x".to_owned(), 1)]));
    }

    #[test]
    fn errors_name_the_path() {
        let err =
            serde_json::from_value::<Product>(json!({"price": {"amount": "5", "currency": "EUR"}}))
                .unwrap_err()
                .to_string();
        assert!(
            err.starts_with("field `price.amount`: invalid type: string \"5\""),
            "{err}"
        );
        let err = serde_json::from_value::<Product>(json!({"price": {"amount": 5}}))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "field `price`: missing field `currency`");
        let err = serde_json::from_value::<Money>(json!({"amount": 5, "currency": "E", "y": 1}))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("unknown field `y`"), "{err}");
        let err = serde_json::from_value::<Money>(json!([1]))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "invalid type: sequence, expected struct Money");
    }

    #[test]
    fn variants_and_attempts() {
        assert_eq!(variant(json!("paid"), &["pending", "paid"]).unwrap(), 1);
        let err = variant(json!("lost"), &["pending", "paid"])
            .unwrap_err()
            .to_string();
        assert_eq!(err, "unknown variant `lost`, expected `pending` or `paid`");
        assert_eq!(attempt::<i64>(&json!(3)), Some(3));
        assert_eq!(attempt::<i64>(&json!("3")), None);
        let err: serde_json::Error = no_variant("Id");
        assert_eq!(
            err.to_string(),
            "data did not match any variant of untagged enum Id"
        );
    }
}
