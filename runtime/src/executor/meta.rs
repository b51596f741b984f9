//! The meta-tools run against the executor's catalog: `search_tools`,
//! `describe_tool`, `call_tool` and the CRUDE groups (see [`crate::catalog::meta`],
//! which lists them).

use serde_json::{Value, json};

use super::Executor;
use crate::catalog::meta::{
    CALL, DESCRIBE, GROUP_PREFIX, SEARCH, group_of, hit_json, limit, no_match,
};
use crate::error::Error;

impl Executor {
    /// Answers a model's call to a meta-tool ([`tools`](crate::catalog::meta::tools)) against this executor's
    /// catalog: `search_tools` → `{tools: [{name, title, description, required,
    /// score}]}` (with a `note` naming the catalog's tags when nothing matches),
    /// `describe_tool` → `{tool}` (its `tools/list` entry, schemas self-contained),
    /// `call_tool` → the tool's own result ([`Executor::call`]: checked and gated the
    /// same). Any other name is called as a tool of the catalog.
    ///
    /// # Errors
    /// Arguments a meta-tool cannot use (`VALIDATION_ARGUMENTS`), an unknown tool, and
    /// every error of the tool called.
    pub async fn call_meta(&self, name: &str, arguments: Value) -> Result<Value, Error> {
        let wrong = |message: String| Error::InvalidArguments {
            tool: name.to_owned(),
            message,
        };
        let catalog = self.catalog();
        match name {
            SEARCH => {
                let query = arguments
                    .get("query")
                    .and_then(Value::as_str)
                    .ok_or_else(|| wrong("needs a `query`: the task, in words".into()))?;
                let limit = limit(&arguments).map_err(wrong)?;
                let (query, cut) = crate::catalog::meta::read_request(query);
                let tools: Vec<Value> = catalog
                    .search(query, limit)
                    .iter()
                    .map(|hit| hit_json(hit, &hit.tool.name))
                    .collect();
                let note = match (tools.is_empty(), cut) {
                    (true, cut) => Some(
                        no_match(catalog, query)
                            + &cut.map(|c| format!(" ({c})")).unwrap_or_default(),
                    ),
                    (false, cut) => cut,
                };
                let mut out = json!({ "tools": tools });
                if let Some(note) = note {
                    out["note"] = json!(note);
                }
                Ok(out)
            }
            DESCRIBE => {
                let wanted = arguments
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| wrong("needs the tool's `name`".into()))?;
                let tool = catalog.get(wanted).ok_or_else(|| Error::UnknownTool {
                    name: wanted.to_owned(),
                    suggestion: catalog.suggest(wanted).map(str::to_owned),
                })?;
                Ok(json!({ "tool": catalog.tool_json(tool) }))
            }
            group if group.starts_with(GROUP_PREFIX) => {
                let group = &group[GROUP_PREFIX.len()..];
                let operation = arguments
                    .get("operation")
                    .and_then(Value::as_str)
                    .ok_or_else(|| wrong("needs an `operation`".into()))?;
                if group_of(catalog, operation).as_deref() != Some(group) {
                    return Err(wrong(format!(
                        "`{operation}` is not a {group} operation; `{name}` lists its operations"
                    )));
                }
                let params = arguments.get("params").cloned().unwrap_or(json!({}));
                self.call(operation, params).await
            }
            CALL => {
                let wanted = arguments
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| wrong("needs the tool's `name`".into()))?;
                let args = arguments.get("arguments").cloned().unwrap_or(json!({}));
                self.call(wanted, args).await
            }
            other => self.call(other, arguments).await,
        }
    }
}
