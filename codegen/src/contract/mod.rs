//! IO contracts: what each tool consumes and produces, the evidence-only graph they
//! imply, the readiness of a catalog for models, and the collection artifact that
//! carries all of it. Everything is computed from the IR, so adapters, OpenAPI
//! documents and derived resources get contracts alike.

pub mod artifact;
pub mod fields;
pub mod graph;
pub mod hierarchy;
pub mod keys;
pub mod readiness;
pub mod steps;
pub(crate) mod words;

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

pub use fields::{Consumed, FieldRoles, Produced};
pub use graph::Edge;

use crate::ir::{self, Crude};

/// One tool's contract (`api_contract` in the artifact).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contract {
    /// Shared (`Arc`), as `produces`, between the operations whose inputs are the same.
    pub consumes: Arc<[Consumed]>,
    /// Shared (`Arc`) between the operations whose leaves are the same: Microsoft Graph
    /// beta's 22,361 operations answer with ~2,200 response shapes.
    pub produces: Arc<[Produced]>,
    pub links: Vec<Link>,
}

/// An OpenAPI link: the operation it leads to and how its parameters are filled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    /// Shared (`Arc`), as `operation_id`: every producer of the same input has a link
    /// of the same name to the same operation (Microsoft Graph beta infers 111,805
    /// links to ~20,000 inputs).
    pub name: Arc<str>,
    pub operation_id: Arc<str>,
    /// Target parameter → runtime expression (`$response.body#/id`), by parameter;
    /// written as a JSON object. A list, not a map: most links fill one parameter, and
    /// a map's first node takes ~540 bytes (Microsoft Graph beta infers 111,805 links).
    /// Shared (`Arc`) between the inferred links that fill the same input from the same
    /// place.
    #[serde(serialize_with = "pairs_as_object")]
    pub parameters: Arc<[(String, String)]>,
    /// `false`: declared by the source.
    pub inferred: bool,
    /// An inferred link's place among the producers of its target's input (0: the
    /// likeliest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<u64>,
}

/// A contract with the operation it belongs to.
#[derive(Debug, Clone)]
pub struct OperationContract {
    pub api: String,
    /// Shared (`Arc`) with its edges, which name it as their source or target
    /// (Microsoft Graph beta has 111,805 edges).
    pub tool: Arc<str>,
    pub operation_id: Option<String>,
    /// Position in the build (a stable tie-break).
    pub index: usize,
    pub kind: Crude,
    pub method: &'static str,
    pub path: String,
    /// Its `201` answer declares a `Location` header (the new item's URL).
    pub location: bool,
    pub contract: Contract,
    /// The data flows its Arazzo workflow's steps declare (a workflow tool's only).
    pub flows: Vec<steps::Flow>,
}

/// The contract of each of `api`'s operations, in source order.
pub fn for_api(api: &ir::Api, roles: &FieldRoles) -> Vec<Contract> {
    let nouns = fields::nouns(api);
    // One pass in source order, not halves on two threads: what the leaves remember of
    // a cycle of definitions depends on which of them was reached first.
    let mut leaves = fields::Leaves::new(nouns.clone());
    let mut inputs = fields::Shared::default();
    let mut outputs = fields::Shared::default();
    api.operations
        .iter()
        .map(|op| Contract {
            consumes: inputs.intern(fields::consumes(api, op, roles, &nouns)),
            produces: outputs.intern(fields::produces(api, op, &mut leaves)),
            links: links(op),
        })
        .collect()
}

/// Every operation's contract, in source order, each with the links the graph
/// inferred from it (`inferred: true`) after the ones its source declares.
pub fn build(apis: &[ir::Api], roles: &FieldRoles) -> Vec<OperationContract> {
    build_with_edges(apis, roles).0
}

/// [`build`], with the graph's edges (computed once, for the inferred links too).
pub fn build_with_edges(
    apis: &[ir::Api],
    roles: &FieldRoles,
) -> (Vec<OperationContract>, Vec<Edge>) {
    let mut out = Vec::new();
    let mut edges = Vec::new();
    for api in apis {
        let start = out.len();
        out.reserve(api.operations.len());
        for (op, contract) in api.operations.iter().zip(for_api(api, roles)) {
            out.push(OperationContract {
                api: api.name.clone(),
                tool: op.name.as_str().into(),
                operation_id: op
                    .native("operationId")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                index: out.len(),
                kind: op.kind,
                method: op.method.as_str(),
                path: op.path.clone(),
                location: hierarchy::declares_location(op),
                contract,
                flows: steps::flows(op),
            });
        }
        let inferred = infer_links(&mut out[start..]);
        // Moved, not copied, when it is the first API's (the two were alive together).
        if edges.is_empty() {
            edges = inferred;
        } else {
            edges.extend(inferred);
        }
    }
    (out, edges)
}

/// Adds to each producer the links its inferred data-flow edges stand for; returns the
/// edges (inferred links are not read back as edges, so they stay the same).
fn infer_links(contracts: &mut [OperationContract]) -> Vec<Edge> {
    let edges = graph::edges(contracts);
    // By tool name, found once: a scan per edge was quadratic (Graph: ~22,000 tools).
    let mut position: std::collections::HashMap<Arc<str>, usize> = Default::default();
    for (i, c) in contracts.iter().enumerate() {
        position.entry(Arc::clone(&c.tool)).or_insert(i);
    }
    // A link per input for the likeliest producers only: the graph holds the rest.
    let shown = |e: &&Edge| e.rank.is_none_or(|rank| rank < graph::MAX_PRODUCERS as u64);
    // Each input's link name and target made once, shared by its producers' links.
    let mut named = std::collections::HashMap::<(&str, &str), (Arc<str>, Arc<str>)>::new();
    // Each input's parameters, by where the value is taken from (most producers of an
    // input take it from the same place: `/id`, `/value/*/id`).
    let mut filled = std::collections::HashMap::<(&str, String), Arc<[(String, String)]>>::new();
    for edge in edges
        .iter()
        .filter(|e| e.confidence == "inferred")
        .filter(shown)
    {
        let Some(flow) = &edge.data_flow else {
            continue;
        };
        let (name, operation_id) = named
            .entry((&*edge.target, flow.field.as_str()))
            .or_insert_with(|| {
                let target = position.get(&edge.target).map(|&i| &contracts[i]);
                let operation_id = target
                    .and_then(|t| t.operation_id.as_deref())
                    .unwrap_or(&edge.target);
                (
                    format!("{}.{}", edge.target, flow.field).into(),
                    operation_id.into(),
                )
            })
            .clone();
        if let Some(&i) = position.get(&edge.source) {
            let source = &mut contracts[i];
            source.contract.links.push(Link {
                name,
                operation_id,
                parameters: filled
                    .entry((flow.field.as_str(), expression(flow)))
                    .or_insert_with_key(|(field, expression)| {
                        Arc::new([((*field).to_owned(), expression.clone())])
                    })
                    .clone(),
                inferred: true,
                rank: edge.rank,
            });
        }
    }
    // Kept for the whole build: the room left from growing them goes (a producer of
    // many inputs grows room for twice its links).
    for contract in contracts.iter_mut() {
        contract.contract.links.shrink_to_fit();
    }
    edges
}

/// `pairs` as a JSON object, in their order.
fn pairs_as_object<S: serde::Serializer>(
    pairs: &[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// The runtime expression of where a flow's value is: a pointer into the body
/// (`$response.body#/id`), or already an expression (a `Location` header's).
fn expression(flow: &graph::DataFlow) -> String {
    match flow.from_path.as_deref() {
        Some(expression) if expression.starts_with('$') => expression.to_owned(),
        path => format!("$response.body#{}", path.unwrap_or("")),
    }
}

/// `GET /users/{id}` for a local `operationRef` (`#/paths/~1users~1{id}/get`).
fn route_of(reference: &str) -> Option<String> {
    let pointer = reference.strip_prefix("#/paths/")?;
    let (path, method) = pointer.rsplit_once('/')?;
    let path = path.replace("~1", "/").replace("~0", "~");
    let method = match method {
        "additionalOperations" => return None,
        m => m.to_ascii_uppercase(),
    };
    Some(format!("{method} {path}"))
}

/// The OpenAPI links of `op`'s responses (kept in its native metadata).
fn links(op: &ir::Operation) -> Vec<Link> {
    let mut out = Vec::new();
    let Some(Value::Object(responses)) = op.native("responses") else {
        return out;
    };
    for response in responses.values() {
        let Some(Value::Object(links)) = response.get("links") else {
            continue;
        };
        for (name, link) in links {
            // `operationRef: '#/paths/~1users~1{id}/get'` names its target by place:
            // kept as `GET /users/{id}`, which the graph finds by method and path.
            let operation_id = match (
                link.get("operationId").and_then(Value::as_str),
                link.get("operationRef").and_then(Value::as_str),
            ) {
                (Some(id), _) => id.to_owned(),
                (None, Some(reference)) => match route_of(reference) {
                    Some(route) => route,
                    None => continue,
                },
                (None, None) => continue,
            };
            let parameters = link
                .get("parameters")
                .and_then(Value::as_object)
                .map(|p| {
                    let mut pairs: Vec<(String, String)> = p
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                        .collect();
                    pairs.sort_unstable();
                    pairs
                })
                .unwrap_or_default();
            out.push(Link {
                name: name.as_str().into(),
                operation_id: operation_id.into(),
                parameters: parameters.into(),
                inferred: false,
                rank: None,
            });
        }
    }
    out
}
