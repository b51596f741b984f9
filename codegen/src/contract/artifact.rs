//! The collection artifact: one JSON document holding the graph, every tool with its
//! contract and semantic metadata, the readiness report, a manifest of the sources
//! (sha256 of each file), and summaries. Deterministic: keys sorted, no timestamp
//! unless `SOURCE_DATE_EPOCH` is set. A rebuild from a previous artifact keeps what
//! this engine does not produce (unknown sections and fields, manual edges and
//! metadata). Credential-like values never enter it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};
use sha2::Digest as _;

use super::{Edge, FieldRoles, OperationContract, graph, readiness, words};
use crate::ir::{self, Crude};

/// The artifact's format version.
pub const FORMAT_VERSION: &str = "1";
/// The JSON Schema every artifact validates against.
pub const SCHEMA: &str = include_str!("artifact.schema.json");

/// What an artifact is built with.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub roles: FieldRoles,
    /// A previous artifact: its manual edges, manual metadata and unknown fields are
    /// kept.
    pub previous: Option<Value>,
}

/// Sections this engine writes (anything else in a previous artifact is kept).
const SECTIONS: &[&str] = &[
    "format_version",
    "library_version",
    "metadata",
    "graph",
    "tools",
    "readiness_report",
    "source_snapshot_manifest",
    "ingest_summary",
    "edge_stats",
    "semantic_summary",
    "edge_quality_summary",
    "contract_index",
];

/// What an artifact is made from, before its sections are built as one tree: every
/// operation's contract (in the order of `apis`' operations), the graph's edges and the
/// readiness report. The report reads these and makes each tool's entry
/// ([`tool`]) only when it gets to that tool.
#[derive(Debug)]
pub struct Parts {
    pub contracts: Vec<OperationContract>,
    pub edges: Vec<Edge>,
    pub report: readiness::Report,
}

/// The [`Parts`] of the artifact of `apis`.
pub fn parts(apis: &[ir::Api], options: &Options) -> Parts {
    let (contracts, generated) = super::build_with_edges(apis, &options.roles);
    let manual: Vec<Edge> = options
        .previous
        .as_ref()
        .and_then(|p| p.pointer("/graph/edges"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|e| e.get("is_manual") == Some(&Value::Bool(true)))
        .filter_map(manual_edge)
        .collect();
    let edges = graph::merge(generated, manual);
    let report = readiness::report(apis, &contracts, &edges);
    Parts {
        contracts,
        edges,
        report,
    }
}

/// A manual edge of a previous artifact, as written: a `rank` that is no count (a
/// hand edit) is kept among the edge's other fields, not a reason to drop the edge.
fn manual_edge(value: &Value) -> Option<Edge> {
    let mut value = value.clone();
    let odd_rank = match value.as_object_mut() {
        Some(map) if map.get("rank").is_some_and(|r| !r.is_u64()) => map.remove("rank"),
        _ => None,
    };
    let mut edge: Edge = serde_json::from_value(value).ok()?;
    if let Some(rank) = odd_rank {
        edge.extra.insert("rank".into(), rank);
    }
    Some(edge)
}

/// The artifact's entry of one tool (under `tools`, scrubbed as the artifact is).
pub fn tool(api: &ir::Api, op: &ir::Operation, contract: &OperationContract) -> Value {
    // Scrubbed under its name, as the whole artifact's walk reaches it.
    let mut wrapped = json!({"tools": {op.name.clone(): tool_entry(api, op, contract)}});
    scrub(&mut wrapped);
    wrapped["tools"][&op.name].take()
}

/// The artifact of `apis`.
pub fn build(apis: &[ir::Api], options: &Options) -> Value {
    let Parts {
        contracts,
        edges,
        report,
    } = parts(apis, options);
    let previous = options.previous.as_ref();

    let mut tools = Map::new();
    let ops = apis
        .iter()
        .flat_map(|api| api.operations.iter().map(move |op| (api, op)));
    for ((api, op), contract) in ops.zip(&contracts) {
        let mut tool = tool_entry(api, op, contract);
        if let Some(old) = previous.and_then(|p| {
            p.pointer(&format!(
                "/tools/{}",
                super::fields::pointer_escape(&op.name)
            ))
        }) {
            keep_unknown(&mut tool, old, 3);
        }
        // A name seen twice keeps the first (the catalog refuses duplicates anyway).
        tools.entry(op.name.clone()).or_insert(tool);
    }
    let duplicates = duplicate_names(&contracts);
    let mut artifact = json!({
        "format_version": FORMAT_VERSION,
        "library_version": env!("CARGO_PKG_VERSION"),
        "metadata": metadata(apis, options, &report),
        "graph": {
            "nodes": contracts.iter().map(|c| json!({
                "id": c.tool,
                "node_type": "tool",
                "api": c.api,
                "kind": c.kind.as_str(),
            })).collect::<Vec<_>>(),
            "edges": edges,
        },
        "tools": tools,
        "readiness_report": report,
        "source_snapshot_manifest": manifest(apis),
        "ingest_summary": {
            "ingested_tool_total": contracts.len(),
            "registered_tool_count": contracts.len() - duplicates.values().map(|n| n - 1).sum::<usize>(),
            "duplicate_tool_count": duplicates.len(),
            "duplicate_tool_names": duplicates.iter().map(|(n, c)| json!({"name": n, "count": c})).collect::<Vec<_>>(),
        },
        "edge_stats": edge_stats(&edges, contracts.len()),
        "semantic_summary": semantic_summary(&tools),
        "edge_quality_summary": edge_quality(&edges),
        "contract_index": index(&contracts, &report),
    });
    if let (Some(Value::Object(old)), Value::Object(new)) = (previous, &mut artifact) {
        for (key, value) in old {
            if !SECTIONS.contains(&key.as_str()) {
                new.insert(key.clone(), value.clone());
            }
        }
        if let (Some(old_meta), Some(new_meta)) = (old.get("metadata"), new.get_mut("metadata")) {
            keep_unknown(new_meta, old_meta, 1);
        }
    }
    scrub(&mut artifact);
    artifact
}

/// The contract index: one row per operation (its contract is under `tools`, stored
/// once), and lookups by operation id, tool name and `METHOD /path`.
pub fn index(contracts: &[OperationContract], report: &readiness::Report) -> Value {
    let key = |c: &OperationContract| format!("{} {}", c.method, c.path);
    let mut by_operation_id = Map::new();
    let mut by_tool_name = Map::new();
    let mut by_method_path = Map::new();
    for c in contracts {
        if let Some(id) = &c.operation_id {
            by_operation_id.insert(id.clone(), json!(key(c)));
        }
        by_tool_name.insert(c.tool.to_string(), json!(key(c)));
        by_method_path.insert(key(c), json!(&*c.tool));
    }
    json!({
        "version": 1,
        "operation_count": contracts.len(),
        "operations": contracts.iter().map(|c| json!({
            "key": key(c),
            "tool_name": c.tool,
            "operation_id": c.operation_id,
            "api": c.api,
            "method": c.method,
            "path": c.path,
            "consumes_count": c.contract.consumes.len(),
            "produces_count": c.contract.produces.len(),
            "link_count": c.contract.links.len(),
        })).collect::<Vec<_>>(),
        "by_operation_id": by_operation_id,
        "by_tool_name": by_tool_name,
        "by_method_path": by_method_path,
        "summary": {
            "response_schema_coverage": report.coverage.response_schema_coverage,
            "produces_field_count": report.coverage.produces_field_count,
            "consumes_field_count": report.coverage.consumes_field_count,
            "auth_tool_count": contracts.iter().filter(|c| c.contract.consumes.iter().any(|f| f.kind == "auth")).count(),
        },
    })
}

fn tool_entry(api: &ir::Api, op: &ir::Operation, contract: &OperationContract) -> Value {
    let annotations = crate::ir::annotations::annotations(op);
    let parameters: Vec<Value> = op
        .params
        .iter()
        .map(|p| {
            let mut row = json!({
                "name": p.field,
                "wire_name": p.name,
                "in": location(p.location),
                "required": p.required,
                "field_type": contract
                    .contract
                    .consumes
                    .iter()
                    .find(|c| c.name == p.field)
                    .map_or("any", |c| c.field_type),
            });
            if let Some(default) = &p.schema.default {
                row["default"] = (**default).clone();
            }
            if let Some(examples) = p.schema.extensions.get("examples") {
                row["examples"] = examples.clone();
            }
            row
        })
        .collect();
    let description = op.description.clone().unwrap_or_default();
    json!({
        "name": op.name,
        "api": api.name,
        "description": description,
        "annotations": {
            "read_only": annotations.read_only,
            "destructive": annotations.destructive,
            "idempotent": annotations.idempotent,
            "open_world": annotations.open_world,
        },
        "metadata": {
            "openapi": {
                "method": op.method.as_str(),
                "path": op.path,
                "operation_id": contract.operation_id,
                "parameters": parameters,
                "security": op.security,
                "path_module": path_module(&op.path),
            },
            "api_contract": contract.contract,
            "ai_metadata": ai_metadata(api, op, &description),
        },
    })
}

fn location(l: ir::ParamLocation) -> &'static str {
    match l {
        ir::ParamLocation::Path => "path",
        ir::ParamLocation::Query | ir::ParamLocation::QueryString => "query",
        ir::ParamLocation::Header => "header",
        ir::ParamLocation::Cookie => "cookie",
        ir::ParamLocation::Body | ir::ParamLocation::RequestBody => "body",
    }
}

/// The first literal path segment that is not a version or `api`.
fn path_module(path: &str) -> Option<String> {
    path.split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .find(|s| {
            *s != "api" && !(s.starts_with('v') && s[1..].chars().all(|c| c.is_ascii_digit()))
        })
        .map(str::to_owned)
}

/// Deterministic semantic metadata: the action, the resource, what the result looks
/// like, one line to choose the tool by.
fn ai_metadata(api: &ir::Api, op: &ir::Operation, description: &str) -> Value {
    let lower = op.name.to_ascii_lowercase();
    let action = match op.kind {
        Crude::Read
            if lower.contains("search") || lower.contains("find") || lower.starts_with("list") =>
        {
            "search"
        }
        Crude::Read => "read",
        Crude::Create => "create",
        Crude::Update => "update",
        Crude::Delete => "delete",
        Crude::Execute => "action",
    };
    // The result is a list when its root is an array, or an envelope holding one.
    let response = op.success_response().and_then(|r| r.schema.as_deref());
    let root = response.map(|s| ir::follow(s, &api.definitions));
    let items = root.and_then(|r| match r.ty {
        ir::SchemaType::Array => r.items.as_deref(),
        ir::SchemaType::Object => r
            .properties
            .iter()
            .find(|(name, p)| {
                words::is_envelope(name)
                    && ir::follow(p, &api.definitions).ty == ir::SchemaType::Array
            })
            .and_then(|(_, p)| ir::follow(p, &api.definitions).items.as_deref()),
        _ => None,
    });
    let result_shape = match (op.kind, root, items) {
        (Crude::Read, _, Some(_)) => "list",
        (Crude::Read, Some(_), None) => "single",
        (Crude::Read, None, _) => "unknown",
        _ => "mutation",
    };
    // The resource: the (item) schema's name, else the path's noun.
    let resource = items
        .or(response)
        .and_then(|s| s.bare_reference())
        .map(words::schema_noun)
        .or_else(|| words::path_noun(&op.path, None));
    let summary: String = description
        .split(['\n', '.'])
        .next()
        .unwrap_or("")
        .trim()
        .chars()
        .take(120)
        .collect();
    json!({
        "canonical_action": action,
        "primary_resource": resource,
        "one_line_summary": if summary.is_empty() { format!("{} {}", op.method.as_str(), op.path) } else { summary },
        "result_shape": result_shape,
    })
}

fn metadata(apis: &[ir::Api], options: &Options, report: &readiness::Report) -> Value {
    let mut meta = json!({
        "tool_count": apis.iter().map(|a| a.operations.len()).sum::<usize>(),
        "api_count": apis.len(),
        "apis": apis.iter().map(|a| json!({"name": a.name, "version": a.version})).collect::<Vec<_>>(),
        "build_options": {
            "context_fields": options.roles.context,
            "auth_fields": options.roles.auth,
            "paging_fields": options.roles.paging,
            "search_filter_fields": options.roles.search,
            "producers_shown_per_field": graph::MAX_PRODUCERS,
        },
        "readiness_summary": {"score": report.score, "status": report.status},
    });
    if let Some(at) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
    {
        meta["built_at"] = json!(rfc3339(at));
    }
    meta
}

fn manifest(apis: &[ir::Api]) -> Value {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for api in apis {
        let Some(location) = &api.source else {
            continue;
        };
        let file = &location.file;
        if !seen.insert(file.path.clone()) {
            continue;
        }
        let digest = sha2::Sha256::digest(file.text.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        out.push(json!({
            "path": file.path,
            "sha256": hex,
            "bytes": file.text.len(),
            "api": api.name,
            "operation_count": api.operations.len(),
        }));
    }
    Value::Array(out)
}

fn duplicate_names(contracts: &[OperationContract]) -> BTreeMap<String, usize> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for c in contracts {
        *counts.entry(c.tool.to_string()).or_default() += 1;
    }
    counts.retain(|_, n| *n > 1);
    counts
}

fn edge_stats(edges: &[Edge], tools: usize) -> Value {
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_confidence: BTreeMap<&str, usize> = BTreeMap::new();
    for e in edges {
        *by_kind.entry(&e.kind).or_default() += 1;
        *by_confidence.entry(&e.confidence).or_default() += 1;
    }
    let budget = graph::edge_budget(tools);
    let inferred = by_confidence.get("inferred").copied().unwrap_or(0);
    json!({
        "edge_count": edges.len(),
        "tool_count": tools,
        "by_kind": by_kind,
        "by_confidence": by_confidence,
        // Inferred edges kept at most (5 per tool, at least 20,000), and whether this
        // build reached it (then each input keeps only its likeliest producers).
        "inferred_budget": budget,
        "inferred_budget_reached": inferred >= budget,
    })
}

fn edge_quality(edges: &[Edge]) -> Value {
    let count = |k: &str| edges.iter().filter(|e| e.kind == k).count();
    let strong = edges
        .iter()
        .filter(|e| e.confidence == "extracted" || e.conf_score >= 0.85)
        .count();
    json!({
        "total": edges.len(),
        "data_flow": count("data_flow"),
        "link": count("link"),
        "structural": count("structural"),
        "manual": edges.iter().filter(|e| e.is_manual).count(),
        "strong_deterministic_evidence": strong,
    })
}

fn semantic_summary(tools: &Map<String, Value>) -> Value {
    let mut actions: BTreeMap<String, usize> = BTreeMap::new();
    let mut resources: BTreeMap<String, usize> = BTreeMap::new();
    let mut shapes: BTreeMap<String, usize> = BTreeMap::new();
    for tool in tools.values() {
        let ai = &tool["metadata"]["ai_metadata"];
        let text = |k: &str| ai[k].as_str().map(str::to_owned);
        if let Some(a) = text("canonical_action") {
            *actions.entry(a).or_default() += 1;
        }
        if let Some(r) = text("primary_resource") {
            *resources.entry(r).or_default() += 1;
        }
        if let Some(s) = text("result_shape") {
            *shapes.entry(s).or_default() += 1;
        }
    }
    let n = tools.len().max(1) as f64;
    json!({
        "tool_count": tools.len(),
        "action_counts": actions,
        "resource_counts": resources,
        "result_shape_counts": shapes,
        "primary_resource_assigned_rate": resources.values().sum::<usize>() as f64 / n,
    })
}

/// Copies into `new` what `old` has and `new` does not, `depth` levels down
/// (manual metadata, fields of later versions).
fn keep_unknown(new: &mut Value, old: &Value, depth: usize) {
    let (Value::Object(new), Value::Object(old)) = (new, old) else {
        return;
    };
    for (key, value) in old {
        match new.get_mut(key) {
            None => {
                new.insert(key.clone(), value.clone());
            }
            Some(mine) if depth > 1 => keep_unknown(mine, value, depth - 1),
            Some(_) => {}
        }
    }
}

/// Takes every credential out of `value` (the shared scrubber's rules:
/// [`toolwright_query::redact`]).
pub(crate) fn scrub(value: &mut Value) {
    toolwright_query::redact::value(value, &mut BTreeSet::new());
}

/// `SOURCE_DATE_EPOCH` seconds as an RFC 3339 UTC time (civil-from-days).
fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_render_as_utc_times() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_796_083_200), "2026-12-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn a_manual_edge_with_a_rank_of_any_kind_is_kept_as_written() {
        for rank in [json!(2), json!("high"), json!(-1), json!(null)] {
            let written = json!({
                "source": "list_pets", "target": "get_pet", "kind": "manual",
                "confidence": "extracted", "conf_score": 1.0, "evidence": "by hand",
                "evidence_sources": [], "is_manual": true, "rank": rank,
            });
            let edge = manual_edge(&written).expect("the edge is kept");
            let again = serde_json::to_value(&edge).unwrap();
            assert_eq!(again["rank"], rank, "{again}");
        }
    }
}
