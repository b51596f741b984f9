//! A tool's retrieval document, from the texts the catalog already holds (so the
//! generator, from its plans, and the runtime, from a catalog built in code, index the
//! same words).

use serde_json::Value;

/// The texts of one tool that retrieval looks at.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// The tool name (`issues_create`).
    pub name: String,
    pub title: String,
    /// The description's first paragraph.
    pub summary: String,
    /// The rest of the description.
    pub description: String,
    /// Argument names and their descriptions.
    pub params: Vec<(String, String)>,
    /// The names of the boolean arguments (`private`, `archived`): the states a tool sets.
    pub flags: Vec<String>,
    /// The values the arguments' `enum`s allow (of an array argument, its items').
    pub enum_values: Vec<String>,
    pub tags: Vec<String>,
    /// Upper-case HTTP method.
    pub method: String,
    /// Path template (`/repos/{owner}/{repo}/issues`).
    pub path: String,
    /// CRUDE group, lower-case.
    pub group: String,
    /// The source's operation id, when there is one.
    pub operation_id: String,
    /// Phrases the source says should bring this tool up (an adapter's `triggers`).
    pub triggers: Vec<String>,
    /// Requests in words the tool's usage examples answer (`_meta.toolwright.examples`).
    pub examples: Vec<String>,
    /// Summaries of tools this one feeds or is fed by (IO contract links), filled by
    /// [`Document::link_neighbours`].
    pub neighbours: Vec<String>,
    /// Operation ids or tool names this tool's contract links to.
    pub links: Vec<String>,
}

/// Enums longer than this are left out of [`Document::enum_values`].
const MAX_ENUM_VALUES: usize = 24;

/// What a catalog holds about one tool, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct ToolTexts<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub input_schema: &'a Value,
    /// The tool's `_meta`.
    pub meta: &'a Value,
    pub method: &'a str,
    pub path: &'a str,
    /// Its API's metadata.
    pub api_meta: &'a Value,
    /// The operations its IO contract links to ([`contract_links`]).
    pub links: &'a [String],
}

/// The operations an IO contract (as JSON) links to: its `links[].operation_id`.
pub fn contract_links(contract: &Value) -> Vec<String> {
    contract
        .get("links")
        .and_then(Value::as_array)
        .map(|links| {
            links
                .iter()
                .filter_map(|l| l.get("operation_id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl Document {
    /// The document of a catalog tool: its texts, `inputSchema` (argument names and
    /// descriptions), `_meta.toolwright` (tags, CRUDE group, operation id, usage
    /// examples), the
    /// operation's method and path, and its API's metadata (adapter `triggers`).
    pub fn from_tool(tool: &ToolTexts<'_>) -> Document {
        let ToolTexts {
            name,
            title,
            description,
            input_schema,
            meta,
            method,
            path,
            api_meta,
            links,
        } = *tool;
        let (summary, rest) = description.split_once("\n\n").unwrap_or((description, ""));
        let params = input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .map(|(name, schema)| {
                        let text = schema
                            .get("description")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        (name.clone(), text.to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let flags = input_schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(_, schema)| is_boolean(schema))
            .map(|(name, _)| name.clone())
            .collect();
        let enum_values = input_schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|props| props.values())
            .flat_map(|schema| [schema.get("enum"), schema.pointer("/items/enum")])
            .flatten()
            .filter_map(Value::as_array)
            // A long enum is a list of other things (every event type a webhook can
            // subscribe to), not what the tool does.
            .filter(|values| values.len() <= MAX_ENUM_VALUES)
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let strings = |value: Option<&Value>| -> Vec<String> {
            value
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let ours = meta.get("toolwright").unwrap_or(&Value::Null);
        let native = ours.get("native").unwrap_or(&Value::Null);
        let mut tags = strings(native.get("tags"));
        tags.extend(strings(ours.get("tags")));
        Document {
            name: name.to_owned(),
            title: title.to_owned(),
            summary: summary.trim().to_owned(),
            description: rest.trim().to_owned(),
            params,
            flags,
            enum_values,
            tags,
            method: method.to_owned(),
            path: path.to_owned(),
            group: ours
                .get("crude")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            operation_id: native
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            triggers: strings(api_meta.get("triggers")),
            examples: ours
                .get("examples")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(|e| e.get("request").and_then(Value::as_str))
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            neighbours: Vec::new(),
            links: links.to_vec(),
        }
    }

    /// Gives each document the summaries of the documents it links to and is linked
    /// from (by tool name or operation id): the data-flow graph's words.
    pub fn link_neighbours(docs: &mut [Document]) {
        let mut by_id = std::collections::HashMap::new();
        for (i, d) in docs.iter().enumerate() {
            by_id.insert(d.name.clone(), i);
            if !d.operation_id.is_empty() {
                by_id.insert(d.operation_id.clone(), i);
            }
        }
        let mut pairs = Vec::new();
        for (i, d) in docs.iter().enumerate() {
            for target in &d.links {
                if let Some(&j) = by_id.get(target)
                    && j != i
                {
                    pairs.push((i, j));
                    pairs.push((j, i));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for (i, j) in pairs {
            let summary = docs[j].summary.clone();
            docs[i].neighbours.push(summary);
        }
    }
}

/// A schema whose type is `boolean` (alone, or with `null`).
fn is_boolean(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "boolean",
        Some(Value::Array(types)) => types.iter().any(|t| t == "boolean"),
        _ => false,
    }
}
