//! The meta-tools run against the executor's catalog: `search_tools`,
//! `describe_tool`, `call_tool` and the CRUDE groups (see [`crate::catalog::meta`],
//! which lists them).

use serde_json::{Value, json};

use super::Executor;
use crate::catalog::meta::{
    CALL, DESCRIBE, Detail, GROUP_PREFIX, SEARCH, group_of, no_match, read_request, search_answer,
    search_limit,
};
use crate::error::Error;

impl Executor {
    /// Answers a model's call to a meta-tool ([`tools`](crate::catalog::meta::tools)) against this executor's
    /// catalog: `search_tools` → `{tools: [{name, title, description, required,
    /// score}]}`, or with `detail: "compact"` `{tools: ["name: summary"], next}` (with a
    /// `note` naming the catalog's tags when nothing matches; ordered by the
    /// executor's [reranker](crate::ExecutorBuilder::reranker) when it has one),
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
                let detail = Detail::of(&arguments).map_err(wrong)?;
                let limit = search_limit(&arguments, detail).map_err(wrong)?;
                let (query, cut) = read_request(query);
                let hits = self.search(query, limit).await;
                let note = match (hits.is_empty(), cut) {
                    (true, cut) => Some(
                        no_match(catalog, query)
                            + &cut.map(|c| format!(" ({c})")).unwrap_or_default(),
                    ),
                    (false, cut) => cut,
                };
                Ok(search_answer(&hits, detail, |tool| Some(&tool.name), note))
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::catalog::Catalog;
    use crate::catalog::rerank::{Candidate, Reranked, Reranker};

    /// Puts the tool it was made with first (a stand-in for a model).
    struct Prefers(&'static str);

    impl Reranker for Prefers {
        fn rerank<'a>(&'a self, _: &'a str, candidates: &'a [Candidate]) -> Reranked<'a> {
            let mut names: Vec<String> = candidates.iter().map(|c| c.name.clone()).collect();
            names.sort_by_key(|n| n != self.0);
            Box::pin(std::future::ready(names))
        }
    }

    fn catalog() -> Catalog {
        crate::catalog::catalog_of(&[
            ("create_issue", "Create an issue in a project"),
            ("list_issues", "List the issues of a project"),
            ("close_issue", "Close an issue"),
        ])
    }

    fn names(answer: &serde_json::Value) -> Vec<String> {
        answer["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| match t.as_str() {
                Some(line) => line.split(':').next().unwrap().to_owned(),
                None => t["name"].as_str().unwrap().to_owned(),
            })
            .collect()
    }

    #[tokio::test]
    async fn search_tools_answers_compact_lines_in_the_rerankers_order() {
        let plain = crate::Executor::builder(catalog()).build().unwrap();
        let query = json!({"query": "create an issue in a project", "detail": "compact"});
        let lexical = plain
            .call_meta("search_tools", query.clone())
            .await
            .unwrap();
        assert_eq!(names(&lexical)[0], "create_issue");
        // Lines, and the way to a tool's whole definition.
        assert_eq!(
            lexical["tools"][0],
            "create_issue: Create an issue in a project"
        );
        assert!(lexical["next"].as_str().unwrap().contains("describe_tool"));

        let reranked = crate::Executor::builder(catalog())
            .reranker(Prefers("close_issue"))
            .build()
            .unwrap();
        let answer = reranked.call_meta("search_tools", query).await.unwrap();
        assert_eq!(names(&answer)[0], "close_issue");
        let mut rest = names(&lexical);
        rest.retain(|n| n != "close_issue");
        assert_eq!(names(&answer)[1..], rest[..]);
        // Full detail (the default) and `Executor::search` follow it too.
        let full = reranked
            .call_meta(
                "search_tools",
                json!({"query": "create an issue", "limit": 2}),
            )
            .await
            .unwrap();
        assert_eq!(names(&full), ["close_issue", "create_issue"]);
        assert!(full.get("next").is_none());
        let hits = reranked.search("create an issue", 1).await;
        assert_eq!(&*hits[0].tool.name, "close_issue");
        // A wrong `detail` is the caller's to fix.
        let wrong = reranked
            .call_meta("search_tools", json!({"query": "x", "detail": "short"}))
            .await;
        assert!(wrong.unwrap_err().to_string().contains("`detail`"));
    }
}
