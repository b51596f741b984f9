//! Code mode as two tools a model calls: `search` (the declarations of the functions
//! for a task, as TypeScript text) and `execute` (a script against them). [`Code`]
//! lists them for any provider export and answers calls to them.

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};
use toolwright_query::declare::{self, Function};

use super::{Apis, Host, Limits, Outcome};
use crate::catalog::meta::{DEFAULT_LIMIT, RUNS_ANY_TOOL, limit, no_match, query_schema};
use crate::catalog::{Annotations, Catalog, Tool};
use crate::error::Error;
use crate::executor::Executor;

pub const SEARCH: &str = "search";
pub const EXECUTE: &str = "execute";

/// An executor's catalog as code mode serves it (from [`Executor::code`]).
#[derive(Debug, Clone)]
pub struct Code {
    executor: Executor,
    /// The tools scripts may call (a server's view may show fewer than the executor has).
    catalog: Catalog,
    limits: Limits,
    /// What every run binds, worked out on the first.
    bound: Arc<OnceLock<Bound>>,
}

/// The functions a script sees, and the tools they are.
#[derive(Debug)]
struct Bound {
    apis: Apis,
    tools: BTreeSet<String>,
}

impl Executor {
    /// This executor's catalog in code mode: [`Code::tools`] to hand a model (or
    /// export to a provider), [`Code::call`] to answer its calls to them.
    ///
    /// ```
    /// # async fn demo(executor: toolwright::Executor) -> Result<(), toolwright::Error> {
    /// let code = executor.code();
    /// let outcome = code.execute("return 6 * 7;").await;
    /// assert_eq!(outcome.result, Ok(serde_json::json!(42)));
    /// # Ok(()) }
    /// ```
    pub fn code(&self) -> Code {
        Code::over(self.clone(), self.catalog().clone())
    }
}

impl Code {
    /// Scripts calling the tools of `catalog` through `executor`.
    pub(crate) fn over(executor: Executor, catalog: Catalog) -> Code {
        Code {
            executor,
            catalog,
            limits: Limits::default(),
            bound: Arc::default(),
        }
    }

    /// The executor scripts call through.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn executor(&self) -> &Executor {
        &self.executor
    }

    /// Other limits for the scripts run ([`Limits::default`] otherwise).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Code {
        self.limits = limits;
        self
    }

    /// The two tools, `search` and `execute`, as a catalog (export it with
    /// [`Catalog::export`] for any provider).
    pub fn tools(&self) -> Catalog {
        tools_for(&self.catalog, &self.limits)
    }

    /// The declarations of the `limit` functions best matching `query`, with the types
    /// they use; a note naming the catalog's tags when nothing matches.
    ///
    /// A request longer than [`MAX_QUERY`](toolwright_query::search::MAX_QUERY) bytes
    /// is read up to there, and the answer says so on its first line.
    pub fn search(&self, query: &str, limit: usize) -> String {
        let (query, note) = crate::catalog::meta::read_request(query);
        let note = note.map(|n| format!("// {n}\n")).unwrap_or_default();
        let hits = self.catalog.search(query, limit);
        if hits.is_empty() {
            return format!("{note}// {}", no_match(&self.catalog, query));
        }
        note + &self
            .catalog
            .typescript_brief(hits.iter().map(|hit| hit.tool))
    }

    /// Runs `script` with calls made as [`Executor::call`] makes them.
    pub async fn execute(&self, script: &str) -> Outcome {
        let executor = self.executor.clone();
        let host: Host = Arc::new(move |tool, args, pages| {
            let executor = executor.clone();
            Box::pin(async move {
                match pages {
                    None => executor.call(&tool, args).await,
                    Some(limits) => executor.call_all(&tool, args, limits).await,
                }
            })
        });
        self.execute_with(script, host).await
    }

    /// Runs `script` with calls made by `host` (the MCP server's asks for approval).
    pub(crate) async fn execute_with(&self, script: &str, host: Host) -> Outcome {
        let bound = Arc::clone(&self.bound);
        let catalog = &self.catalog;
        let apis = Arc::clone(&bound.get_or_init(|| Bound::of(catalog)).apis);
        // Only the tools bound are callable, whatever reaches the host.
        let guarded: Host = Arc::new(move |tool: String, args, pages| {
            let allowed = bound.get().is_some_and(|b| b.tools.contains(&tool));
            if allowed {
                host(tool, args, pages)
            } else {
                Box::pin(async move {
                    Err(Error::UnknownTool {
                        name: tool,
                        suggestion: None,
                    })
                })
            }
        });
        super::run(script, apis, guarded, self.limits).await
    }

    /// Answers a model's call to `search` (the declarations, as a string) or `execute`
    /// (the run: `{result | error, logs, calls}`).
    ///
    /// # Errors
    /// `VALIDATION_ARGUMENTS` for arguments the tool cannot use, `NOT_FOUND_TOOL` for
    /// another name. A script that fails is not an error here: the outcome says why.
    pub async fn call(&self, name: &str, arguments: Value) -> Result<Value, Error> {
        let wrong = |message: &str| Error::InvalidArguments {
            tool: name.to_owned(),
            message: message.to_owned(),
        };
        match name {
            SEARCH => {
                let query = arguments
                    .get("query")
                    .and_then(Value::as_str)
                    .ok_or_else(|| wrong("needs a `query`: the task, in words"))?;
                let limit = limit(&arguments, DEFAULT_LIMIT as usize).map_err(|e| wrong(&e))?;
                Ok(Value::String(self.search(query, limit)))
            }
            EXECUTE => {
                let script = script(&arguments).map_err(wrong)?;
                Ok(self.execute(script).await.to_json())
            }
            other => Err(Error::UnknownTool {
                name: other.to_owned(),
                suggestion: None,
            }),
        }
    }
}

impl Bound {
    fn of(catalog: &Catalog) -> Bound {
        let apis = bindings(catalog)
            .into_iter()
            .map(|(namespace, functions)| (namespace, functions.into_iter().collect()))
            .collect();
        Bound {
            apis: Arc::new(apis),
            tools: catalog.tools().iter().map(|t| t.name.to_string()).collect(),
        }
    }
}

/// The `script` argument of `execute`.
pub(crate) fn script(arguments: &Value) -> Result<&str, &'static str> {
    arguments
        .get("script")
        .and_then(Value::as_str)
        .ok_or("needs a `script`: JavaScript, the body of an async function")
}

/// `(namespace, [(function, tool)])` for every API of `catalog`: the names the
/// declarations use ([`declare::function_identifiers`] over the whole catalog).
pub(crate) fn bindings(catalog: &Catalog) -> Vec<(String, Vec<(String, String)>)> {
    let functions: Vec<Function<'_>> = catalog
        .tools()
        .iter()
        .map(|t| Function {
            api: &t.operation.api,
            name: &t.name,
            description: "",
            input: "",
            output: None,
        })
        .collect();
    let ids = declare::function_identifiers(&functions);
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for (function, id) in functions.iter().zip(ids) {
        let namespace = declare::namespace_identifier(function.api);
        let pair = (id, function.name.to_owned());
        match out.iter_mut().find(|(n, _)| *n == namespace) {
            Some((_, list)) => list.push(pair),
            None => out.push((namespace, vec![pair])),
        }
    }
    out
}

/// `search` and `execute` for `catalog`: the namespaces scripts see are named in
/// `execute`'s description.
pub(crate) fn tools_for(catalog: &Catalog, limits: &Limits) -> Catalog {
    let namespaces: Vec<String> = bindings(catalog)
        .iter()
        .map(|(namespace, functions)| format!("`{namespace}` ({} functions)", functions.len()))
        .collect();
    let search = Tool::meta(
        SEARCH,
        "Search the API",
        &format!(
            "Find the functions for a task among the {} of {}: describe the task in words \
             (\"close the issue\"); returns their TypeScript declarations (arguments, result \
             type, documentation), best first, to call from `{EXECUTE}`.",
            catalog.tools().len(),
            namespaces.join(", ")
        ),
        query_schema("functions"),
        Annotations {
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
    );
    let execute = Tool::meta(
        EXECUTE,
        "Run a script against the API",
        &format!(
            "Run JavaScript that calls the API's functions as `{SEARCH}` declares them: the \
             body of an async function, so `await` and `return` work at the top level, e.g. \
             `const page = await ns.fn({{...}}); return page.map(x => x.id);`; \
             `await ns.fn.all({{...}}, {{max_pages, max_items}})` follows a paginated \
             function's pages and gives `{{items, pages, complete, next}}`. Calls are \
             checked, rate-limited and confirmed exactly as direct calls; several awaited \
             together (`Promise.all`) run concurrently. A failed call throws an Error with \
             `code` (and `status`, `body` for an upstream answer) that the script may catch. \
             Returns `{{result, logs, calls}}`: the return value as JSON, `console.log` \
             lines, and each call's tool, status and duration. No file system, network, \
             clock (`now()` counts milliseconds since the start) or modules; at most {} \
             calls, {} s and {} KiB of result. Namespaces: {}.",
            limits.calls,
            limits.wall.as_secs(),
            limits.output >> 10,
            namespaces.join(", ")
        ),
        json!({
            "type": "object",
            "properties": {
                "script": {"type": "string",
                           "description": "JavaScript: the body of an async function."}
            },
            "required": ["script"],
            "additionalProperties": false
        }),
        RUNS_ANY_TOOL,
    );
    Catalog::from_sorted(vec![execute, search], Vec::new())
}
