//! Catalog views: the tools a [`Selection`] keeps (what a service serves or exports).

use serde_json::Value;
use toolwright_query::{Facts, Selection};

use super::{Catalog, Tool};

impl Catalog {
    /// The tools `selection` keeps, with the APIs they call (for example the read-only
    /// subset: `Selection::parse(["read-only"], [""; 0])`).
    pub fn select(&self, selection: &Selection) -> Catalog {
        if selection.is_all() {
            return self.clone();
        }
        self.subset(|tool| with_facts(tool, |facts| selection.keeps(facts)))
    }

    /// The tools `keep` keeps, and the APIs they call.
    pub(crate) fn subset(&self, keep: impl Fn(&Tool) -> bool) -> Catalog {
        let tools: Vec<Tool> = self
            .tools()
            .iter()
            .filter(|tool| keep(tool))
            .cloned()
            .collect();
        let apis = self
            .apis()
            .iter()
            .filter(|api| tools.iter().any(|t| t.operation.api == api.name))
            .cloned()
            .collect();
        // Already sorted and unique: a subset of a catalog.
        Catalog::from_sorted(tools, apis)
    }
}

/// Runs `f` on what a selector knows of `tool` (from its descriptor, annotations and
/// `_meta.toolwright`: tags, CRUDE group, operation id).
pub fn with_facts<R>(tool: &Tool, f: impl FnOnce(&Facts<'_>) -> R) -> R {
    let meta: Value = tool
        .meta
        .as_deref()
        .and_then(|m| serde_json::from_str(m).ok())
        .unwrap_or_default();
    let ours = &meta["toolwright"];
    let tags: Vec<&str> = ours["native"]["tags"]
        .as_array()
        .into_iter()
        .chain(ours["tags"].as_array())
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let tag_paths: Vec<&str> = ours["native"]["tagPaths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let group = ours["crude"]
        .as_str()
        .unwrap_or_else(|| match tool.operation.method {
            crate::descriptor::Method::Get
            | crate::descriptor::Method::Head
            | crate::descriptor::Method::Options
            | crate::descriptor::Method::Query => "read",
            crate::descriptor::Method::Post => "create",
            crate::descriptor::Method::Put | crate::descriptor::Method::Patch => "update",
            crate::descriptor::Method::Delete => "delete",
            crate::descriptor::Method::Other(_) => "execute",
        });
    f(&Facts {
        name: &tool.name,
        api: &tool.operation.api,
        operation_id: ours["native"]["operationId"].as_str(),
        tags: &tags,
        tag_paths: &tag_paths,
        path: &tool.operation.path,
        method: tool.operation.method.as_str(),
        group,
        read_only: tool.annotations.read_only,
        destructive: tool.annotations.destructive,
    })
}
