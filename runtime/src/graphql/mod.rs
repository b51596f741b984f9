//! GraphQL calls: a tool generated from a GraphQL field posts one document,
//! `{"query": ..., "variables": ...}`, to its API's endpoint and returns
//! `data.<field>`; `errors` in the answer make the call fail with their messages and
//! paths ([`Error::Graphql`]).
//!
//! The document is fixed at build time ([`GraphqlCall`]): the tool's arguments are
//! its variables, and only the `selection` argument changes its text — after
//! [`selection::check`] has parsed it and checked it against the API's types.

pub mod selection;
pub mod types;

use serde_json::{Map, Value};

use crate::descriptor::GraphqlCall;
use crate::error::Error;
pub use types::TypeTable;

/// The document `call` sends, with `extra` fields (already checked and printed)
/// added to its default selection.
pub fn document(call: &GraphqlCall, extra: Option<&str>) -> String {
    if call.returns.is_empty() {
        return format!("{} }}", call.head);
    }
    match extra {
        Some(extra) => format!("{} {{ {} {extra} }} }}", call.head, call.selection),
        None => format!("{} {{ {} }} }}", call.head, call.selection),
    }
}

/// The body to post for a call with `args` (checked against the tool's input
/// schema): the selection argument, when given, is checked against `types` and
/// joins the selection; the others are the variables.
pub fn body(
    call: &GraphqlCall,
    types: Option<&TypeTable>,
    args: &Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    let mut variables = args.clone();
    let extra = if call.selection_argument.is_empty() {
        None
    } else {
        match variables.remove(call.selection_argument.as_ref()) {
            Some(Value::String(text)) => {
                let types = types.ok_or("this API's types are not known, so a selection cannot be checked; regenerate it")?;
                Some(
                    selection::check(&text, &call.returns, types)
                        .map_err(|e| format!("`{}`: {e}", call.selection_argument))?,
                )
            }
            Some(Value::Null) | None => None,
            Some(_) => {
                return Err(format!(
                    "`{}` is GraphQL text (a string)",
                    call.selection_argument
                ));
            }
        }
    };
    let mut body = Map::new();
    body.insert(
        "query".into(),
        Value::String(document(call, extra.as_deref())),
    );
    body.insert("variables".into(), Value::Object(variables));
    Ok(body)
}

/// The call's result from the endpoint's answer: `data.<field>`, or the errors.
pub fn outcome(call: &GraphqlCall, tool: &str, mut answer: Value) -> Result<Value, Error> {
    let errors = answer
        .get_mut("errors")
        .map(Value::take)
        .filter(|e| !e.is_null() && e.as_array().is_none_or(|a| !a.is_empty()));
    let mut data = answer.get_mut("data").map(Value::take).unwrap_or_default();
    if let Some(errors) = errors {
        return Err(Error::Graphql {
            tool: tool.to_owned(),
            message: messages(&errors),
            errors,
            data,
        });
    }
    match data.get_mut(call.field.as_ref()) {
        Some(value) => Ok(value.take()),
        None => Err(Error::Decode {
            tool: tool.to_owned(),
            message: format!(
                "the GraphQL answer has no `data.{}` and no `errors`",
                call.field
            ),
        }),
    }
}

/// `message (at repository.issues.0)`, each error's; at most ten, each at most 300
/// characters.
fn messages(errors: &Value) -> String {
    let Some(list) = errors.as_array() else {
        return crate::shorten::prefix(&errors.to_string(), 300);
    };
    let mut out: Vec<String> = list
        .iter()
        .take(10)
        .map(|e| {
            let message = e
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| e.to_string(), str::to_owned);
            let mut line = crate::shorten::prefix(&message, 300);
            if let Some(path) = e.get("path").and_then(Value::as_array) {
                let path: Vec<String> = path
                    .iter()
                    .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_owned))
                    .collect();
                line.push_str(&format!(" (at {})", path.join(".")));
            }
            line
        })
        .collect();
    if list.len() > 10 {
        out.push(format!("and {} more", list.len() - 10));
    }
    out.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow;

    fn call() -> GraphqlCall {
        GraphqlCall {
            head: Cow::Borrowed(
                "query query_repository($owner: String!) { repository(owner: $owner)",
            ),
            field: Cow::Borrowed("repository"),
            selection: Cow::Borrowed("id name"),
            returns: Cow::Borrowed("Repository"),
            selection_argument: Cow::Borrowed("selection"),
        }
    }

    #[test]
    fn the_body_is_the_document_and_the_variables() {
        let types = TypeTable::parse("O Repository id:ID name:String stars:Int\n");
        let args = json!({"owner": "o", "selection": "stars"});
        let body = body(&call(), Some(&types), args.as_object().unwrap()).unwrap();
        assert_eq!(
            Value::Object(body),
            json!({
                "query": "query query_repository($owner: String!) { repository(owner: $owner) { id name stars } }",
                "variables": {"owner": "o"},
            })
        );
        let bad = json!({"owner": "o", "selection": "star"});
        let err = super::body(&call(), Some(&types), bad.as_object().unwrap()).unwrap_err();
        assert!(err.contains("did you mean `stars`"), "{err}");
    }

    #[test]
    fn errors_are_a_failure_with_messages_and_paths() {
        let answer = json!({"data": {"repository": null}, "errors": [{"message": "Could not resolve", "path": ["repository", 0]}]});
        let err = outcome(&call(), "query_repository", answer).unwrap_err();
        assert_eq!(err.code(), "UPSTREAM_GRAPHQL");
        assert!(
            err.to_string()
                .contains("Could not resolve (at repository.0)"),
            "{err}"
        );
        let ok = outcome(&call(), "t", json!({"data": {"repository": {"id": "1"}}})).unwrap();
        assert_eq!(ok, json!({"id": "1"}));
        assert!(outcome(&call(), "t", json!({"data": {}})).is_err());
    }
}
