//! How GraphQL scalars are written as JSON Schema.
//!
//! | GraphQL | JSON Schema |
//! |---|---|
//! | `Int` | `integer`, `int32` |
//! | `Float` | `number`, `double` |
//! | `String`, `ID` | `string` |
//! | `Boolean` | `boolean` |
//! | custom, named `DateTime`, `ISO8601DateTime`, `Timestamp`, `*DateTime` | `string`, `date-time` |
//! | custom, named `Date` | `string`, `date` |
//! | custom, named `URI`, `URL`, `Url`, `Uri` | `string`, `uri` |
//! | custom, named `UUID`, `Uuid` | `string`, `uuid` |
//! | any other custom scalar | any JSON value |
//!
//! A custom scalar is a shared definition of its own name (so the Rust client has a
//! type alias for it, `pub type DateTime = String;`), which
//! `Config::graphql_scalar(name, schema)` replaces.

use serde_json::{Value, json};

use super::model::BUILT_IN_SCALARS;

pub fn is_built_in(name: &str) -> bool {
    BUILT_IN_SCALARS.contains(&name)
}

/// A built-in scalar's schema (any value for a name that is not one).
pub fn built_in(name: &str) -> Value {
    match name {
        "Int" => json!({"type": "integer", "format": "int32"}),
        "Float" => json!({"type": "number", "format": "double"}),
        "String" | "ID" => json!({"type": "string"}),
        "Boolean" => json!({"type": "boolean"}),
        _ => json!({}),
    }
}

/// A custom scalar's schema by the mapping above.
pub fn custom(name: &str) -> Value {
    let format = match name {
        "DateTime" | "ISO8601DateTime" | "Timestamp" => Some("date-time"),
        n if n.ends_with("DateTime") => Some("date-time"),
        "Date" => Some("date"),
        "URI" | "URL" | "Url" | "Uri" => Some("uri"),
        "UUID" | "Uuid" => Some("uuid"),
        _ => None,
    };
    match format {
        Some(format) => json!({"type": "string", "format": format}),
        None => json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_mapping() {
        assert_eq!(built_in("Int")["format"], "int32");
        assert_eq!(custom("PreciseDateTime")["format"], "date-time");
        assert_eq!(custom("URI")["format"], "uri");
        assert_eq!(custom("GitObjectID"), json!({}));
    }
}
