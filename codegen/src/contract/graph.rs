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
    // Each producer once per bucket, in build order.
    for producers in by_bucket.values_mut() {
        producers.dedup();
    }
    unbucketed.dedup();
    let identities: Vec<Identities<'_>> = contracts.iter().map(Identities::of).collect();
    // The ranked producers of one identity (of a type, in an API) are the same for
    // every consumer of it: found once (Graph's `user.id` has thousands of consumers).
    type Ranked<'c> = Vec<(u8, &'c OperationContract, &'c super::Produced)>;
    let mut ranked: std::collections::HashMap<(&str, &str, &str), Ranked<'_>> =
        std::collections::HashMap::new();
    for consumer in contracts {
        for input in &consumer.contract.consumes {
            let Some(identity) = input.identifies.as_deref() else {
                continue;
            };
            if !input.required || input.kind != "data" {
                continue;
            }
            let key = (identity, input.field_type, consumer.api.as_str());
            let candidates = ranked
                .entry(key)
                .or_insert_with(|| producers(contracts, &identities, &by_bucket, &unbucketed, key));
            // The same producers, in the same order, as a scan of every contract.
            let chosen = candidates
                .iter()
                .filter(|(_, producer, _)| producer.tool != consumer.tool)
                .take(MAX_PRODUCERS);
            for &(rank, producer, leaf) in chosen {
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

/// One contract's identities: the ones it requires, and its produced fields that
/// identify something (most produced fields do not).
struct Identities<'c> {
    needs: Vec<(&'c str, &'c str)>,
    gives: Vec<((&'c str, &'c str), &'c super::Produced)>,
}

impl<'c> Identities<'c> {
    fn of(contract: &'c OperationContract) -> Self {
        Identities {
            needs: contract
                .contract
                .consumes
                .iter()
                .filter(|c| c.required)
                .filter_map(|c| words::split_identity(c.identifies.as_deref()?))
                .collect(),
            gives: contract
                .contract
                .produces
                .iter()
                .filter_map(|p| Some((words::split_identity(p.identifies.as_deref()?)?, p)))
                .collect(),
        }
    }
}

/// The producers of `identity` (as `field_type`, in `api`) ranked best first: those
/// that produce it without needing it, by [`rank`] then source order.
fn producers<'c>(
    contracts: &'c [OperationContract],
    identities: &[Identities<'c>],
    by_bucket: &std::collections::HashMap<(String, String), Vec<usize>>,
    unbucketed: &[usize],
    (identity, field_type, api): (&str, &str, &str),
) -> Vec<(u8, &'c OperationContract, &'c super::Produced)> {
    let mut possible: Vec<usize> = match words::identity_bucket(identity) {
        Some(bucket) => by_bucket.get(&bucket).cloned().unwrap_or_default(),
        None => (0..contracts.len()).collect(),
    };
    if !unbucketed.is_empty() {
        possible.extend(unbucketed);
        possible.sort_unstable();
        possible.dedup();
    }
    let mut candidates = Vec::new();
    let Some(wanted) = words::split_identity(identity) else {
        return candidates;
    };
    for i in possible {
        let producer = &contracts[i];
        if producer.api != api {
            continue;
        }
        // An operation that needs the identity to produce it only echoes it.
        let echoes = identities[i]
            .needs
            .iter()
            .any(|needed| words::same_parts(*needed, wanted));
        if echoes {
            continue;
        }
        let leaf = identities[i]
            .gives
            .iter()
            .find(|(given, p)| {
                words::same_parts(*given, wanted) && compatible(p.field_type, field_type)
            })
            .map(|(_, p)| *p);
        if let Some(leaf) = leaf {
            candidates.push((rank(producer, leaf), producer, leaf));
        }
    }
    candidates.sort_by_key(|(rank, p, _)| (*rank, p.index));
    candidates
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
