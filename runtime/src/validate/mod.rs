//! Argument validation.
//!
//! Every call's arguments are checked against the tool's input schema, compiled once
//! ([`SchemaCheck`]): by-name calls from a model, typed calls built by hand, tools
//! generated at build time and tools interpreted at run time alike, with the same
//! error text.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Compiled in `toolwright-query`, shared with the generator (which checks adapters'
/// usage examples against the same schemas at build time).
pub use toolwright_query::schema::{ArgumentError, SchemaCheck};

/// Arguments must be a JSON object: serde would also accept a struct as a positional
/// array, which no tool call means.
pub(crate) fn require_object(args: &Value) -> Result<(), ArgumentError> {
    if args.is_object() {
        return Ok(());
    }
    Err(ArgumentError {
        path: String::new(),
        message: format!(
            "expected a JSON object of arguments, found {}",
            kind_of(args)
        ),
    })
}

/// Deserializes `args` into `T`, naming the offending field on failure.
pub fn deserialize<T: DeserializeOwned>(args: &Value) -> Result<T, ArgumentError> {
    serde_path_to_error::deserialize::<_, T>(args).map_err(located)
}

/// [`deserialize`], taking the value: strings move into the result, and generated
/// types take the values of the objects they read as they are (no copy of the
/// document, no rebuilding of it level by level).
pub fn deserialize_owned<T: DeserializeOwned>(value: Value) -> Result<T, ArgumentError> {
    serde_path_to_error::deserialize::<_, T>(crate::codec::Owned(value)).map_err(located)
}

fn located(e: serde_path_to_error::Error<serde_json::Error>) -> ArgumentError {
    ArgumentError {
        path: e.path().to_string(),
        message: e.inner().to_string(),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses a JSON argument text as a model or a command line sends it, refusing an
/// object that names one key twice (`serde_json` would keep the last one silently, so
/// a checker and the server could read different values).
///
/// # Errors
/// Invalid JSON, or the path of the repeated key.
pub fn parse_arguments(text: &str) -> Result<Value, ArgumentError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde::de::DeserializeSeed::deserialize(Unique(String::new()), &mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            let message = e.to_string();
            match message.strip_prefix("duplicate key ") {
                Some(rest) => {
                    let (path, tail) = rest.split_once('\u{0}').unwrap_or((rest, ""));
                    ArgumentError {
                        path: path.to_owned(),
                        message: format!("the key appears more than once in the object{tail}"),
                    }
                }
                None => ArgumentError {
                    path: String::new(),
                    message: format!("invalid JSON arguments: {message}"),
                },
            }
        })?;
    Ok(value)
}

/// Deserializes any JSON value, erroring on a repeated object key; carries the path.
struct Unique(String);

impl<'de> serde::de::DeserializeSeed<'de> for Unique {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) =
            seq.next_element_seed(Unique(format!("{}[{}]", self.0, items.len())))?
        {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.0.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.0)
            };
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate key {path}\u{0}"
                )));
            }
            let value = map.next_value_seed(Unique(path))?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_refused_with_their_path() {
        let err = parse_arguments(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
        assert_eq!(err.path, "a.b");
        assert!(
            err.message.starts_with("the key appears more than once"),
            "{err}"
        );
        let err = parse_arguments(r#"[{"x": 1}, {"x": 1, "x": 2}]"#).unwrap_err();
        assert_eq!(err.path, "[1].x");
        assert_eq!(
            parse_arguments(r#"{"a": [1, 2.5, null]}"#).unwrap(),
            serde_json::json!({"a": [1, 2.5, null]})
        );
        assert!(
            parse_arguments("{")
                .unwrap_err()
                .message
                .starts_with("invalid JSON")
        );
    }
}
