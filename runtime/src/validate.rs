//! Argument validation.
//!
//! Generated tools validate by deserializing the JSON arguments into their typed input
//! struct (which denies unknown fields), so the check and the type cannot disagree.
//! Tools interpreted at run time check the descriptor's parameter list instead.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::descriptor::Param;

/// Why a tool's arguments were rejected, with the path of the offending field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// Dotted path to the field (`labels[0]`), empty for the whole object.
    pub path: String,
    pub message: String,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ArgumentError {}

/// Validates `args` by deserializing them into `T`. Arguments must be a JSON object:
/// serde would also accept a struct as a positional array, which no tool call means.
pub fn typed<T: DeserializeOwned>(args: &Value) -> Result<(), ArgumentError> {
    require_object(args)?;
    deserialize::<T>(args).map(drop)
}

fn require_object(args: &Value) -> Result<(), ArgumentError> {
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
    serde_path_to_error::deserialize::<_, T>(args).map_err(|e| ArgumentError {
        path: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

/// Checks `args` against a parameter list: an object, no unknown fields, required ones
/// present, each of the declared JSON type.
pub fn by_params(params: &[Param], args: &Value) -> Result<(), ArgumentError> {
    require_object(args)?;
    let Some(object) = args.as_object() else {
        return Ok(());
    };
    for key in object.keys() {
        if !params.iter().any(|p| p.field == *key) {
            let known: Vec<&str> = params.iter().map(|p| p.field.as_ref()).collect();
            return Err(ArgumentError {
                path: key.clone(),
                message: format!("unknown field; expected one of: {}", known.join(", ")),
            });
        }
    }
    for p in params {
        match object.get(p.field.as_ref()) {
            None | Some(Value::Null) if p.required => {
                return Err(ArgumentError {
                    path: p.field.to_string(),
                    message: format!("missing required field of type {}", p.kind.as_str()),
                });
            }
            Some(v) if !v.is_null() && !p.kind.matches(v) => {
                return Err(ArgumentError {
                    path: p.field.to_string(),
                    message: format!("expected {}, found {}", p.kind.as_str(), kind_of(v)),
                });
            }
            _ => {}
        }
    }
    Ok(())
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
