//! The tool graph: an edge only where there is evidence — an OpenAPI link, or a
//! produced and a required consumed field that name the same thing (the same
//! resource's key, `Issue.number` → `{number}` of `/issues/{number}`) with compatible
//! types. Generated, manual and observed edges go through one normalize-and-merge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{OperationContract, words};
use crate::ir::Crude;

/// Producers kept per consumed field (the most likely sources first).
pub const MAX_PRODUCERS: usize = 3;

/// One edge: data can flow from `source`'s result into `target`'s input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub source: String,
    pub target: String,
    /// `data_flow`, `structural`, `link` or `manual`.
    pub kind: String,
    /// `extracted` (the source says so) or `inferred` (matched by this engine).
    pub confidence: String,
    pub conf_score: f64,
    pub evidence: String,
    pub evidence_sources: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_flow: Option<DataFlow>,
    #[serde(default)]
    pub is_manual: bool,
    /// Anything else an edge carried (kept through rebuilds).
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataFlow {
    /// The consumer's input.
    pub field: String,
    /// Where the value is in the producer's response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_path: Option<String>,
}

/// Edges between `contracts` (tools of every API of the build).
pub fn edges(contracts: &[OperationContract]) -> Vec<Edge> {
    let mut out = Vec::new();
    let by_operation_id: BTreeMap<&str, &OperationContract> = contracts
        .iter()
        .filter_map(|c| Some((c.operation_id.as_deref()?, c)))
        .collect();
    for producer in contracts {
        // Declared links only: inferred ones are these very edges, written back.
        for link in producer.contract.links.iter().filter(|l| !l.inferred) {
            let Some(target) = by_operation_id.get(link.operation_id.as_str()) else {
                continue;
            };
            out.push(Edge {
                source: producer.tool.clone(),
                target: target.tool.clone(),
                kind: "link".into(),
                confidence: "extracted".into(),
                conf_score: 0.95,
                evidence: format!("OpenAPI link `{}` of `{}`", link.name, producer.tool),
                evidence_sources: vec!["openapi_link".into()],
                data_flow: link.parameters.keys().next().map(|field| DataFlow {
                    field: field.clone(),
                    from_path: link.parameters.get(field).cloned(),
                }),
                is_manual: false,
                extra: BTreeMap::new(),
            });
        }
    }
    // Producers by the bucket of each identity they produce (plus those with nouns too
    // short to bucket): a consumed identity is only compared with producers that can
    // match it — linear in the build instead of quadratic (22,000 operations).
    let mut by_bucket: std::collections::HashMap<(String, String), Vec<usize>> =
        std::collections::HashMap::new();
    let mut unbucketed: Vec<usize> = Vec::new();
    for (i, producer) in contracts.iter().enumerate() {
        for produced in &producer.contract.produces {
            let Some(identity) = produced.identifies.as_deref() else {
                continue;
            };
            match words::identity_bucket(identity) {
                Some(bucket) => by_bucket.entry(bucket).or_default().push(i),
                None => unbucketed.push(i),
            }
        }
    }
    for consumer in contracts {
        for input in &consumer.contract.consumes {
            let Some(identity) = input.identifies.as_deref() else {
                continue;
            };
            if !input.required || input.kind != "data" {
                continue;
            }
            // The same producers, in the same order, as a scan of every contract.
            let mut possible: Vec<usize> = match words::identity_bucket(identity) {
                Some(bucket) => by_bucket.get(&bucket).cloned().unwrap_or_default(),
                None => (0..contracts.len()).collect(),
            };
            possible.extend(&unbucketed);
            possible.sort_unstable();
            possible.dedup();
            let mut candidates: Vec<(u8, &OperationContract, &super::Produced)> = Vec::new();
            for producer in possible.into_iter().map(|i| &contracts[i]) {
                if producer.tool == consumer.tool || producer.api != consumer.api {
                    continue;
                }
                // An operation that needs the identity to produce it only echoes it.
                let echoes = producer.contract.consumes.iter().any(|c| {
                    c.required
                        && c.identifies
                            .as_deref()
                            .is_some_and(|i| words::same_identity(i, identity))
                });
                if echoes {
                    continue;
                }
                let leaf = producer.contract.produces.iter().find(|p| {
                    p.identifies
                        .as_deref()
                        .is_some_and(|i| words::same_identity(i, identity))
                        && compatible(p.field_type, input.field_type)
                });
                if let Some(leaf) = leaf {
                    candidates.push((rank(producer, leaf), producer, leaf));
                }
            }
            candidates.sort_by_key(|(rank, p, _)| (*rank, p.index));
            for (rank, producer, leaf) in candidates.into_iter().take(MAX_PRODUCERS) {
                out.push(Edge {
                    source: producer.tool.clone(),
                    target: consumer.tool.clone(),
                    kind: "data_flow".into(),
                    confidence: "inferred".into(),
                    conf_score: [0.9, 0.88, 0.8, 0.75][usize::from(rank.min(3))],
                    evidence: format!(
                        "`{}` produces `{}` ({}) and `{}` consumes it as `{}`",
                        producer.tool, leaf.name, leaf.path, consumer.tool, input.name
                    ),
                    evidence_sources: vec!["api_contract".into()],
                    data_flow: Some(DataFlow {
                        field: input.name.clone(),
                        from_path: Some(leaf.path.clone()),
                    }),
                    is_manual: false,
                    extra: BTreeMap::new(),
                });
            }
        }
    }
    merge(out, Vec::new())
}

/// Lists and searches first (they hand out many), then creates, then other reads,
/// then the rest.
fn rank(producer: &OperationContract, leaf: &super::Produced) -> u8 {
    match producer.kind {
        Crude::Read if leaf.path.contains("/*") => 0,
        Crude::Create => 1,
        Crude::Read => 2,
        _ => 3,
    }
}

fn compatible(produced: &str, consumed: &str) -> bool {
    let numeric = |t: &str| matches!(t, "integer" | "number");
    produced == consumed
        || numeric(produced) && numeric(consumed)
        || consumed == "any"
        || produced == "any"
}

/// Normalizes and merges edges: one per (source, target, field), the strongest
/// evidence kept and every source of evidence listed; manual edges win. A manual
/// edge marked `deleted_by_user` stays (so that a rebuild keeps the deletion) and
/// users of the graph skip it.
pub fn merge(generated: Vec<Edge>, manual: Vec<Edge>) -> Vec<Edge> {
    let mut merged: BTreeMap<(String, String, String), Edge> = BTreeMap::new();
    for edge in generated.into_iter().chain(manual) {
        let field = edge
            .data_flow
            .as_ref()
            .map(|d| d.field.clone())
            .unwrap_or_default();
        let key = (edge.source.clone(), edge.target.clone(), field);
        match merged.get_mut(&key) {
            None => {
                merged.insert(key, edge);
            }
            Some(existing) => {
                let mut sources = existing.evidence_sources.clone();
                for s in &edge.evidence_sources {
                    if !sources.contains(s) {
                        sources.push(s.clone());
                    }
                }
                if edge.is_manual || edge.conf_score > existing.conf_score {
                    let mut extra = existing.extra.clone();
                    extra.extend(edge.extra.clone());
                    *existing = Edge { extra, ..edge };
                }
                existing.evidence_sources = sources;
            }
        }
    }
    merged.into_values().collect()
}
