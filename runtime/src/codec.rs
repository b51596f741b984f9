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

use std::fmt;

use serde::de::{DeserializeOwned, DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// What a generated struct's field reader returns when a field does not fit: the
/// message [`object`] hands to the deserializer's own error type.
pub type FieldError = serde_json::Error;

/// An object's fields as a generated struct's reader takes them, one call per field.
///
/// The reader is a plain function (`fn(&mut Fields) -> Result<T, FieldError>`), not
/// generic over the deserializer: a client's thousand structs each have their field
/// reads type-checked and borrow-checked once, outside serde's generic machinery
/// (GitHub's check spent a fifth of its time in those bodies when they were generic).
#[derive(Debug)]
pub struct Fields {
    map: Map<String, Value>,
}

/// Reads an object from `deserializer` (anything else is an error naming `expected`)
/// and builds `T` from its fields with `fields`; an error there becomes the
/// deserializer's error with the same message. Values are taken as they are when
/// `deserializer` is one of this module's (a field of an object being read): an object
/// is taken apart once, not once per level.
pub fn object<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    expected: &'static str,
    fields: fn(&mut Fields) -> Result<T, FieldError>,
) -> Result<T, D::Error> {
    let map = deserializer.deserialize_map(ObjectVisitor { expected })?;
    fields(&mut Fields { map }).map_err(D::Error::custom)
}

impl Fields {
    /// A required field: missing (or `null` for a non-nullable type) is an error.
    pub fn req<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<T, FieldError> {
        match self.map.remove(key) {
            Some(value) => T::deserialize(Owned(value)).map_err(|e| nest(key, e)),
            None => Err(FieldError::missing_field(key)),
        }
    }

    /// An optional field: missing or `null` is `None`.
    pub fn opt<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<Option<T>, FieldError> {
        match self.map.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(Owned(value))
                .map(Some)
                .map_err(|e| nest(key, e)),
        }
    }

    /// The properties no named field took (a struct's `additional_properties`).
    pub fn rest<T: DeserializeOwned>(&mut self) -> Result<BTreeMap<String, T>, FieldError> {
        std::mem::take(&mut self.map)
            .into_iter()
            .map(|(key, value)| match T::deserialize(Owned(value)) {
                Ok(v) => Ok((key, v)),
                Err(e) => Err(nest(&key, e)),
            })
            .collect()
    }

    /// For types that refuse unknown properties: an error naming the first one left.
    pub fn deny_unknown(&self, known: &'static [&'static str]) -> Result<(), FieldError> {
        match self.map.keys().next() {
            Some(key) => Err(FieldError::unknown_field(key, known)),
            None => Ok(()),
        }
    }
}

/// Collects an object's entries; each value through [`Stash`].
struct ObjectVisitor {
    expected: &'static str,
}

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expected)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map = Map::new();
        while let Some((key, Stash(value))) = access.next_entry::<String, Stash>()? {
            map.insert(key, value);
        }
        Ok(map)
    }
}

// Taking a value as it is. serde can only hand a `Deserialize` impl a deserializer, so a
// `Value` inside one would be rebuilt node by node by `Value::deserialize` — for every
// level of a nested document. [`Owned`] (the deserializer of a field being read) and
// [`Stash`] (how [`object`] reads values) agree on a newtype name: asked for it,
// `Owned` leaves its value in a thread-local slot and `Stash` takes it from there, as
// is. Any other deserializer just reads the value (once).

/// The newtype name `Owned` and `Stash` agree on.
const TAKE_AS_IS: &str = "$toolwright::codec::TakeAsIs";

std::thread_local! {
    /// The value `Owned` hands over; taken at once by the `Stash` that asked.
    static HANDED_OVER: std::cell::Cell<Option<Value>> = const { std::cell::Cell::new(None) };
}

/// A JSON value read by [`object`]: taken as is from [`Owned`], read otherwise.
struct Stash(Value);

impl<'de> Deserialize<'de> for Stash {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_newtype_struct(TAKE_AS_IS, StashVisitor)
            .map(Stash)
    }
}

struct StashVisitor;

impl<'de> Visitor<'de> for StashVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    // `Owned` answers the newtype with a unit after handing the value over; a
    // deserializer that reads newtypes as their content may send anything.
    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        Ok(HANDED_OVER.take().unwrap_or(Value::Null))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = access.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Value, A::Error> {
        ObjectVisitor {
            expected: "an object",
        }
        .visit_map(access)
        .map(Value::Object)
    }
}

/// The deserializer of a value taken out of an object: objects and arrays hand out
/// their entries as `Owned` too, and a [`Stash`] gets the value itself; everything
/// else reads as `serde_json::Value` reads.
pub(crate) struct Owned(pub(crate) Value);

macro_rules! as_value_reads {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, serde_json::Error> {
                self.0.$method(visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Owned {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(map) => visitor.visit_map(OwnedEntries {
                entries: map.into_iter(),
                value: None,
            }),
            Value::Array(items) => visitor.visit_seq(OwnedItems(items.into_iter())),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        if name == TAKE_AS_IS {
            HANDED_OVER.set(Some(self.0));
            visitor.visit_unit()
        } else {
            // As `Value` reads it (which knows serde_json's own newtypes).
            self.0.deserialize_newtype_struct(name, visitor)
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    /// Bytes (a generated `Bytes` field) travel in JSON as base64 text.
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(text) => match crate::base64::decode(&text) {
                Some(bytes) => visitor.visit_byte_buf(bytes),
                None => Err(serde_json::Error::custom(
                    "expected base64-encoded bytes (RFC 4648, standard alphabet)",
                )),
            },
            other => other.deserialize_byte_buf(visitor),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_byte_buf(visitor)
    }

    as_value_reads! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_unit deserialize_identifier deserialize_ignored_any
    }
}

/// Bytes written as JSON's form of them, base64 text (a generated `Bytes` field; the
/// request builder decodes it back, so typed and by-name calls send the same bytes).
#[derive(Debug, Clone, Copy)]
pub struct Base64<'a>(pub &'a [u8]);

impl serde::Serialize for Base64<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&crate::base64::encode(self.0))
    }
}

struct OwnedEntries {
    entries: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for OwnedEntries {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(Value::String(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, Self::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(Owned(value)),
            None => Err(serde_json::Error::custom(
                "a value was asked for before its key",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct OwnedItems(std::vec::IntoIter<Value>);

impl<'de> SeqAccess<'de> for OwnedItems {
    type Error = serde_json::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Self::Error> {
        self.0
            .next()
            .map(|item| seed.deserialize(Owned(item)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
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
            fn fields(o: &mut Fields) -> Result<Money, FieldError> {
                let value = Money {
                    amount: o.req("amount")?,
                    currency: o.req("currency")?,
                    note: o.opt("note")?,
                };
                o.deny_unknown(&["amount", "currency", "note"])?;
                Ok(value)
            }
            object(d, "struct Money", fields)
        }
    }

    #[derive(Debug, PartialEq)]
    struct Product {
        price: Money,
        extra: BTreeMap<String, i64>,
    }

    impl<'de> Deserialize<'de> for Product {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            fn fields(o: &mut Fields) -> Result<Product, FieldError> {
                Ok(Product {
                    price: o.req("price")?,
                    extra: o.rest()?,
                })
            }
            object(d, "struct Product", fields)
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
    fn values_are_taken_as_they_are_from_any_source() {
        #[derive(Debug, PartialEq)]
        struct Outer {
            inner: Option<Vec<Product>>,
            any: Value,
        }
        impl<'de> Deserialize<'de> for Outer {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                fn fields(o: &mut Fields) -> Result<Outer, FieldError> {
                    Ok(Outer {
                        inner: o.opt("inner")?,
                        any: o.req("any")?,
                    })
                }
                object(d, "struct Outer", fields)
            }
        }
        let doc = json!({
            "inner": [{"price": {"amount": 1, "currency": "EUR", "note": "n"}, "y": 2}],
            "any": {"deep": [1, {"x": null}]}
        });
        let text = doc.to_string();
        // Text, a borrowed value and an owned one read alike.
        let from_text: Outer = serde_json::from_str(&text).unwrap();
        let from_ref = Outer::deserialize(&doc).unwrap();
        let from_owned: Outer = serde_json::from_value(doc.clone()).unwrap();
        assert_eq!(from_text, from_ref);
        assert_eq!(from_ref, from_owned);
        let product = &from_owned.inner.as_ref().unwrap()[0];
        assert_eq!(product.price.note.as_deref(), Some("n"));
        assert_eq!(product.extra["y"], 2);
        assert_eq!(from_owned.any, json!({"deep": [1, {"x": null}]}));
        // Nothing is left behind between reads.
        assert!(HANDED_OVER.take().is_none());
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
