//! `ToolSchema` for the standard types a resource field can have.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Direction, SchemaGenerator, ToolSchema, nullable, tuple};

macro_rules! integers {
    ($($ty:ty => $format:literal),* $(,)?) => {$(
        impl ToolSchema for $ty {
            fn schema(_: &mut SchemaGenerator) -> Value {
                json!({
                    "type": "integer",
                    "format": $format,
                    "minimum": <$ty>::MIN,
                    "maximum": <$ty>::MAX,
                })
            }
        }
    )*};
}

integers! {
    i8 => "int8", i16 => "int16", i32 => "int32", i64 => "int64",
    u8 => "uint8", u16 => "uint16", u32 => "uint32", u64 => "uint64",
}

/// Bounds that JSON numbers (as serde_json holds them) can state exactly.
macro_rules! wide_integers {
    ($($ty:ty => $format:literal, $min:expr, $max:expr);* $(;)?) => {$(
        impl ToolSchema for $ty {
            fn schema(_: &mut SchemaGenerator) -> Value {
                let mut schema = json!({ "type": "integer", "format": $format });
                if let Some(min) = $min {
                    schema["minimum"] = json!(min);
                }
                if let Some(max) = $max {
                    schema["maximum"] = json!(max);
                }
                schema
            }
        }
    )*};
}

wide_integers! {
    i128 => "int128", None::<i64>, None::<u64>;
    u128 => "uint128", Some(0u64), None::<u64>;
    isize => "int64", Some(isize::MIN as i64), Some(isize::MAX as u64);
    usize => "uint64", Some(0u64), Some(usize::MAX as u64);
}

macro_rules! non_zero {
    ($($ty:ty => $inner:ty),* $(,)?) => {$(
        impl ToolSchema for $ty {
            fn schema(generator: &mut SchemaGenerator) -> Value {
                let mut schema = <$inner>::schema(generator);
                if <$inner>::MIN == 0 {
                    schema["minimum"] = json!(1);
                } else {
                    schema["not"] = json!({ "const": 0 });
                }
                schema
            }
        }
    )*};
}

non_zero! {
    std::num::NonZeroU8 => u8, std::num::NonZeroU16 => u16, std::num::NonZeroU32 => u32,
    std::num::NonZeroU64 => u64, std::num::NonZeroI8 => i8, std::num::NonZeroI16 => i16,
    std::num::NonZeroI32 => i32, std::num::NonZeroI64 => i64,
}

impl ToolSchema for f32 {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "number", "format": "float" })
    }
}

impl ToolSchema for f64 {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "number", "format": "double" })
    }
}

impl ToolSchema for bool {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "boolean" })
    }
}

impl ToolSchema for char {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "string", "minLength": 1, "maxLength": 1 })
    }
}

macro_rules! strings {
    ($($ty:ty),*) => {$(
        impl ToolSchema for $ty {
            fn schema(_: &mut SchemaGenerator) -> Value {
                json!({ "type": "string" })
            }
        }
    )*};
}

strings!(String, str);

impl ToolSchema for () {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "null" })
    }
}

impl ToolSchema for Value {
    fn schema(_: &mut SchemaGenerator) -> Value {
        Value::Bool(true)
    }
}

impl ToolSchema for serde_json::Map<String, Value> {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "object" })
    }
}

impl<T: ToolSchema> ToolSchema for Option<T> {
    const OPTIONAL: bool = true;

    fn schema(generator: &mut SchemaGenerator) -> Value {
        let inner = generator.subschema::<T>();
        match generator.direction() {
            // Inputs leave an absent value out; `null` is accepted by serde but not
            // advertised, so that models omit rather than send nulls.
            Direction::Input => inner,
            Direction::Output => nullable(inner),
        }
    }

    fn flatten_schema(generator: &mut SchemaGenerator) -> Value {
        T::flatten_schema(generator)
    }
}

/// Smart pointers and borrowed forms have their pointee's schema.
macro_rules! transparent {
    ($($ty:ty),*) => {$(
        impl<T: ToolSchema + ?Sized> ToolSchema for $ty {
            const OPTIONAL: bool = T::OPTIONAL;

            fn schema_name() -> Option<Cow<'static, str>> {
                T::schema_name()
            }

            fn schema_id() -> Cow<'static, str> {
                T::schema_id()
            }

            fn schema(generator: &mut SchemaGenerator) -> Value {
                T::schema(generator)
            }

            fn flatten_schema(generator: &mut SchemaGenerator) -> Value {
                T::flatten_schema(generator)
            }
        }
    )*};
}

transparent!(Box<T>, Rc<T>, Arc<T>, &T, &mut T);

impl<T: ToolSchema + ToOwned + ?Sized> ToolSchema for Cow<'_, T> {
    const OPTIONAL: bool = T::OPTIONAL;

    fn schema_name() -> Option<Cow<'static, str>> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn schema(generator: &mut SchemaGenerator) -> Value {
        T::schema(generator)
    }
}

macro_rules! sequences {
    ($($ty:ident => $unique:literal),*) => {$(
        impl<T: ToolSchema> ToolSchema for $ty<T> {
            fn schema(generator: &mut SchemaGenerator) -> Value {
                let items = generator.subschema::<T>();
                if $unique {
                    json!({ "type": "array", "items": items, "uniqueItems": true })
                } else {
                    json!({ "type": "array", "items": items })
                }
            }
        }
    )*};
}

sequences!(Vec => false, VecDeque => false, LinkedList => false, BTreeSet => true);

impl<T: ToolSchema, S> ToolSchema for HashSet<T, S> {
    fn schema(generator: &mut SchemaGenerator) -> Value {
        let items = generator.subschema::<T>();
        json!({ "type": "array", "items": items, "uniqueItems": true })
    }
}

impl<T: ToolSchema> ToolSchema for [T] {
    fn schema(generator: &mut SchemaGenerator) -> Value {
        let items = generator.subschema::<T>();
        json!({ "type": "array", "items": items })
    }
}

impl<T: ToolSchema, const N: usize> ToolSchema for [T; N] {
    fn schema(generator: &mut SchemaGenerator) -> Value {
        let items = generator.subschema::<T>();
        json!({ "type": "array", "items": items, "minItems": N, "maxItems": N })
    }
}

/// A map key that serializes as a JSON string. serde_json writes other keys as strings
/// too, but their schema would be a lie (`{"1": ...}` for `u8` keys), so only string
/// keys are accepted.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a string, so it cannot be a key of a JSON object",
    label = "map keys must be strings",
    note = "use `String` (or `&str`, `Cow<str>`, `Box<str>`, `Arc<str>`) keys, or a `Vec` of pairs"
)]
pub trait StringKey {}

impl StringKey for String {}
impl StringKey for str {}
impl StringKey for &str {}
impl StringKey for Cow<'_, str> {}
impl StringKey for Box<str> {}
impl StringKey for Arc<str> {}
impl StringKey for Rc<str> {}

impl<K: StringKey, V: ToolSchema> ToolSchema for BTreeMap<K, V> {
    fn schema(generator: &mut SchemaGenerator) -> Value {
        let values = generator.subschema::<V>();
        json!({ "type": "object", "additionalProperties": values })
    }
}

impl<K: StringKey, V: ToolSchema, S> ToolSchema for HashMap<K, V, S> {
    fn schema(generator: &mut SchemaGenerator) -> Value {
        let values = generator.subschema::<V>();
        json!({ "type": "object", "additionalProperties": values })
    }
}

macro_rules! tuples {
    ($(($($name:ident),+)),*) => {$(
        impl<$($name: ToolSchema),+> ToolSchema for ($($name,)+) {
            fn schema(generator: &mut SchemaGenerator) -> Value {
                tuple(vec![$(generator.subschema::<$name>()),+])
            }
        }
    )*};
}

tuples! {
    (A), (A, B), (A, B, C), (A, B, C, D), (A, B, C, D, E), (A, B, C, D, E, F),
    (A, B, C, D, E, F, G), (A, B, C, D, E, F, G, H)
}

impl<T: ?Sized> ToolSchema for std::marker::PhantomData<T> {
    fn schema(_: &mut SchemaGenerator) -> Value {
        json!({ "type": "null" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<T: ToolSchema + ?Sized>() -> Value {
        SchemaGenerator::root::<T>(Direction::Input)
    }

    #[test]
    fn integer_bounds_follow_the_type() {
        assert_eq!(
            input::<u8>(),
            json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255})
        );
        assert_eq!(input::<i64>()["minimum"], json!(i64::MIN));
        assert_eq!(input::<u64>()["maximum"], json!(u64::MAX));
        assert_eq!(input::<std::num::NonZeroU32>()["minimum"], json!(1));
    }

    #[test]
    fn option_is_nullable_only_as_output() {
        assert_eq!(input::<Option<bool>>(), json!({"type": "boolean"}));
        assert_eq!(
            SchemaGenerator::root::<Option<bool>>(Direction::Output),
            json!({"type": ["boolean", "null"]})
        );
    }

    #[test]
    fn collections() {
        assert_eq!(input::<BTreeSet<String>>()["uniqueItems"], json!(true));
        assert_eq!(input::<[u8; 3]>()["maxItems"], json!(3));
        assert_eq!(
            input::<(bool, String)>(),
            json!({"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "string"}],
                   "items": false, "minItems": 2, "maxItems": 2})
        );
        assert_eq!(
            input::<HashMap<String, f64>>(),
            json!({"type": "object", "additionalProperties": {"type": "number", "format": "double"}})
        );
    }
}
