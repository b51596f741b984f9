//! Calls across pages: by name (what models make; gated like any by-name call) and
//! typed (generated clients' `*_pages` methods). See [`crate::paginate`].

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::{Executor, Found, Reply};
use crate::error::Error;
use crate::paginate::{Next, PageLimits, Pages, Plan, Walk, origin};

impl Executor {
    /// Tool `name`'s pages, by name with JSON arguments (checked now; the gate is
    /// passed before the first page). Bound them with [`Pages::limits`].
    ///
    /// # Errors
    /// The tool is unknown, not paginated, or the arguments do not fit.
    pub fn pages(&self, name: &str, args: Value) -> Result<Pages, Error> {
        let found = self.find(name)?;
        let plan = plan_of(found)?;
        let args = self.checked_arguments(found, args)?;
        Ok(Pages::new(Walk::new(
            self.clone(),
            name.to_owned(),
            plan,
            args,
            true,
        )))
    }

    /// Tool `name` called by name across its pages, up to `limits`: `{"items": [...],
    /// "pages": n, "complete": bool, "next": arguments for the page after | null}` —
    /// what a model gets when it asks for "all pages up to N".
    pub async fn call_all(
        &self,
        name: &str,
        args: Value,
        limits: PageLimits,
    ) -> Result<Value, Error> {
        let mut pages = self.pages(name, args)?.limits(limits);
        let mut items = Vec::new();
        let mut count = 0;
        while let Some(page) = pages.next_fetched().await {
            count += 1;
            items.extend(page?.into_items());
        }
        Ok(json!({
            "items": items,
            "pages": count,
            "complete": pages.complete(),
            "next": pages.resume_arguments().cloned().map_or(Value::Null, Value::Object),
        }))
    }

    /// Operation `op`'s pages with a typed input, each page decoded as `O` (what
    /// generated clients' `*_pages` methods call). Not gated, like every typed call.
    ///
    /// # Errors
    /// The operation is not paginated, or the input breaks its schema.
    pub fn paginate<I: Serialize, O: DeserializeOwned>(
        &self,
        op: &crate::descriptor::Operation,
        input: &I,
    ) -> Result<Pages<O>, Error> {
        let plan = match self.lookup(&op.name) {
            Some(found) => plan_of(found)?,
            None => return Err(not_paginated(&op.name)),
        };
        let call = self.typed(op, input)?;
        Ok(Pages::new(Walk::new(
            self.clone(),
            op.name.to_string(),
            plan,
            call.args,
            false,
        )))
    }

    /// One page: by arguments, or at a URL the API gave — only on the API's own
    /// origin, so a page can never send the call (and its credentials) elsewhere.
    /// `args`: the last page's arguments (headers and body still come from them).
    pub(crate) async fn page(
        &self,
        name: &str,
        step: &Next,
        args: &Map<String, Value>,
        gate: bool,
    ) -> Result<Reply, Error> {
        let found = self.find(name)?;
        let op = found.operation();
        match step {
            Next::Args(args) => {
                if gate {
                    self.admit(found, args).await?;
                }
                self.send(op, Some(found), args, None).await
            }
            Next::Url(url) => {
                let (_, base) = self.api(&op.api)?;
                let url = absolute(base, url);
                if origin(&url).is_none() || origin(&url) != origin(base) {
                    return Err(Error::Request {
                        tool: name.to_owned(),
                        message: format!(
                            "the API gave a next page on another origin (`{}`); it was not followed",
                            url.split('?').next().unwrap_or(&url)
                        ),
                    });
                }
                self.send(op, Some(found), args, Some(&url)).await
            }
        }
    }
}

/// A next-page URL as given, or against the base URL's origin when it is a path.
fn absolute(base: &str, url: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") {
        crate::auth::oauth::resolve_url(base, url)
    } else {
        url.to_owned()
    }
}

/// How tool `found` pages, or why it cannot be called across pages.
fn plan_of(found: Found<'_>) -> Result<Plan, Error> {
    found
        .state
        .plan
        .clone()
        .ok_or_else(|| not_paginated(&found.tool.name))
}

fn not_paginated(tool: &str) -> Error {
    Error::Request {
        tool: tool.to_owned(),
        message: "this tool is not paginated (its description declares no pagination and none was recognised); call it once instead".into(),
    }
}
