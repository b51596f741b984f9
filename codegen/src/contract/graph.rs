//! The tool graph: an edge only where there is evidence — an OpenAPI link, an Arazzo
//! step's input taken from an earlier step's output, or a
//! produced and a consumed field that name the same thing (the same resource's key,
//! `Issue.number` → `{number}` of `/issues/{number}`; a reference to it, `Order.petId`
//! → `{petId}` of `getPet`) with compatible types. Every such edge is kept, ranked:
//! a resource's own key before references to it, lists and creates before other
//! reads, required inputs before optional ones; views for models show the first few.
//! Generated, manual and observed edges go through one normalize-and-merge.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::hierarchy::Hierarchy;
use super::{OperationContract, words};
use crate::ir::Crude;

/// Producers a view for models shows per consumed field (the most likely first); the
/// graph keeps every one.
pub const MAX_PRODUCERS: usize = 3;

/// One edge: data can flow from `source`'s result into `target`'s input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    /// Shared (`Arc`) with the other edges of the same tool.
    pub source: std::sync::Arc<str>,
    pub target: std::sync::Arc<str>,
    /// `data_flow`, `structural`, `link` or `manual` (static words, as
    /// `confidence` and `evidence_sources`: an edge this engine makes costs no text
    /// for them).
    pub kind: Cow<'static, str>,
    /// `extracted` (the source says so) or `inferred` (matched by this engine).
    pub confidence: Cow<'static, str>,
    pub conf_score: f64,
    pub evidence: String,
    /// `api_contract`, `path_hierarchy`, `openapi_link`, … (Microsoft Graph beta has
    /// 111,805 edges).
    /// A static list for the edges this engine makes (no allocation each).
    pub evidence_sources: Cow<'static, [Cow<'static, str>]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_flow: Option<DataFlow>,
    #[serde(default)]
    pub is_manual: bool,
    /// An inferred edge's place among the producers of its input (0: the likeliest).
    /// A field, not one of `extra`: a map's first node takes ~630 bytes, and Microsoft
    /// Graph beta has 111,805 edges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u64>,
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
    /// Shared (`Arc`) with the produced leaf it names.
    pub from_path: Option<std::sync::Arc<str>>,
}

/// Edges between `contracts` (tools of every API of the build).
pub fn edges(contracts: &[OperationContract]) -> Vec<Edge> {
    let mut out = Vec::new();
    let by_operation_id: BTreeMap<&str, &OperationContract> = contracts
        .iter()
        .filter_map(|c| Some((c.operation_id.as_deref()?, c)))
        .collect();
    // A link's `operationRef` is kept as `METHOD /path`, of the link's own API.
    let by_route: BTreeMap<(&str, String), &OperationContract> = contracts
        .iter()
        .map(|c| ((c.api.as_str(), format!("{} {}", c.method, c.path)), c))
        .collect();
    for producer in contracts {
        // Declared links only: inferred ones are these very edges, written back.
        for link in producer.contract.links.iter().filter(|l| !l.inferred) {
            let Some(target) = by_operation_id
                .get(&*link.operation_id)
                .or_else(|| by_route.get(&(producer.api.as_str(), link.operation_id.to_string())))
            else {
                continue;
            };
            out.push(Edge {
                source: producer.tool.clone(),
                target: target.tool.clone(),
                kind: "link".into(),
                confidence: "extracted".into(),
                conf_score: 0.95,
                evidence: format!("OpenAPI link `{}` of `{}`", link.name, producer.tool),
                evidence_sources: Cow::Borrowed(&[Cow::Borrowed("openapi_link")]),
                data_flow: link.parameters.first().map(|(field, from)| DataFlow {
                    field: field.clone(),
                    from_path: Some(from.as_str().into()),
                }),
                is_manual: false,
                rank: None,
                extra: BTreeMap::new(),
            });
        }
    }
    // A key of text per tool (3 MB for Graph beta): gone before the search below.
    drop((by_operation_id, by_route));
    // An Arazzo step's input taken from an earlier step's output: declared, so
    // scored like a link.
    for flow in contracts.iter().flat_map(|c| &c.flows) {
        if flow.source == flow.target {
            continue;
        }
        out.push(Edge {
            source: flow.source.as_str().into(),
            target: flow.target.as_str().into(),
            kind: "link".into(),
            confidence: "extracted".into(),
            conf_score: 0.95,
            evidence: format!(
                "Arazzo workflow `{}`: step `{}` takes `{}` from `{}`",
                flow.workflow, flow.step, flow.field, flow.from
            ),
            evidence_sources: Cow::Borrowed(&[Cow::Borrowed("arazzo_step")]),
            data_flow: Some(DataFlow {
                field: flow.field.clone(),
                from_path: Some(flow.from.as_str().into()),
            }),
            is_manual: false,
            rank: None,
            extra: BTreeMap::new(),
        });
    }
    let identities: Vec<Identities<'_>> = contracts.iter().map(Identities::of).collect();
    let given = Given::of(contracts, &identities);
    let trees = Trees::of(contracts);
    let hierarchy = Hierarchy::of(contracts);
    // Every input that takes data, with the identity it names (if any).
    let inputs: Vec<(
        &OperationContract,
        &super::Consumed,
        Option<IdentityKey<'_>>,
    )> = contracts
        .iter()
        .flat_map(|consumer| {
            consumer
                .contract
                .consumes
                .iter()
                .map(move |i| (consumer, i))
        })
        .filter(|(_, input)| input.kind == "data" && input.semantic_tag != Some("paging"))
        .map(|(consumer, input)| {
            let key = input
                .identifies
                .as_deref()
                .map(|identity| (identity, consumed_type(input), consumer.api.as_str()));
            (consumer, input, key)
        })
        .collect();
    // What each input's path names, and the ranked producers of each identity (of a
    // type, in an API), found once however many consume it (Graph's `user.id` has
    // thousands of consumers). Each reads the build only: in two halves.
    let structural = crate::halves::in_halves(&inputs, 256, |inputs| {
        inputs
            .iter()
            .map(|(consumer, input, _)| hierarchy.producers(contracts, consumer, input))
            .collect()
    });
    let mut keys: Vec<IdentityKey<'_>> = inputs.iter().filter_map(|(_, _, key)| *key).collect();
    keys.sort_unstable();
    keys.dedup();
    let ranks = crate::halves::in_halves(&keys, 64, |keys| {
        keys.iter()
            .map(|key| producers(contracts, &identities, &given, *key))
            .collect()
    });
    let ranked: HashMap<IdentityKey<'_>, Ranked<'_>> = keys.into_iter().zip(ranks).collect();
    // Every input that takes an identity or an item of its path's collection.
    let mut wanted: Vec<Wanted<'_>> = inputs
        .into_iter()
        .zip(structural)
        .filter(|((_, _, key), structural)| key.is_some() || !structural.is_empty())
        .map(|((consumer, input, key), structural)| Wanted {
            consumer,
            input,
            key,
            structural,
            tree: trees.of_path(&consumer.path),
            next: 0,
            next_structural: 0,
            taken: Vec::new(),
        })
        .collect();
    // Round by round, each input's next likeliest producer, until every producer is
    // in or the budget is spent: a huge API keeps the first few producers of every
    // input rather than every producer of the first inputs.
    let budget = edge_budget(contracts.len());
    // What each inferred edge is made of, its words written once the search's own
    // lists are dropped: the edges' text (Graph beta's 111,805 sentences are ~20 MB)
    // and the search's lists (~30 MB) were alive together.
    let mut found = Vec::new();
    for place in 0.. {
        let mut more = false;
        for want in &mut wanted {
            let candidates: &[_] = want.key.map_or(&[], |key| ranked[&key].as_slice());
            let Some(next) = want.next_producer(candidates, &trees) else {
                continue;
            };
            more = true;
            found.push((want.consumer, want.input, place, next));
            if found.len() >= budget {
                break;
            }
        }
        if !more || found.len() >= budget {
            break;
        }
    }
    // (The paths' trees and hierarchy stay: what was found borrows them, and they
    // are small.)
    drop((wanted, ranked, given, identities));
    // Room made once: grown by doubling, the list was copied into one twice its size
    // while both were alive (Graph beta's edges are 25 MB).
    out.reserve_exact(found.len());
    out.extend(
        found
            .into_iter()
            .map(|(consumer, input, place, next)| data_flow(consumer, input, place, next)),
    );
    merge(out, Vec::new())
}

/// Inferred edges a build keeps at most: ample for any API written by hand (GitHub's
/// 1,223 operations have about 10,000), a bound for generated giants whose every list
/// produces what every read takes (20,000 such tools would have 100 million; Microsoft
/// Graph beta's 22,361 keep 111,805, as many as three producers per input gave).
pub fn edge_budget(tools: usize) -> usize {
    (5 * tools).max(20_000)
}

/// An identity consumed, as a type, in an API: (identity, field type, API).
type IdentityKey<'c> = (&'c str, &'c str, &'c str);

/// Producers of one identity, ranked (see [`producers`]).
type Ranked<'c> = Vec<(u8, &'c OperationContract, &'c super::Produced)>;

/// An input that takes an identity or an item of its path's collection, and how far
/// down its producers the graph is.
struct Wanted<'c> {
    consumer: &'c OperationContract,
    input: &'c super::Consumed,
    /// Its identity (`None`: it names none, only its path says what it takes).
    key: Option<IdentityKey<'c>>,
    /// The producers its path's structure names ([`Hierarchy`]), ranked.
    structural: Ranked<'c>,
    tree: Option<&'c str>,
    /// The next of its identity's producers to look at.
    next: usize,
    /// The next of its structural producers to look at.
    next_structural: usize,
    /// Producers it has an edge from (by build position), when it has structural ones.
    taken: Vec<usize>,
}

/// The next edge of an input: its producer, the leaf the value is at, its rank, and
/// the evidence that names it.
struct Next<'c> {
    rank: u8,
    producer: &'c OperationContract,
    leaf: &'c super::Produced,
    by_identity: bool,
    by_path: bool,
}

impl<'c> Wanted<'c> {
    /// The likeliest producer not yet taken, from either list (the better rank, then
    /// build order); one found by both is one edge with both kinds of evidence.
    fn next_producer(
        &mut self,
        candidates: &[(u8, &'c OperationContract, &'c super::Produced)],
        trees: &Trees,
    ) -> Option<Next<'c>> {
        let consumer = &*self.consumer.tool;
        let tree = self.tree;
        let taken = &self.taken;
        let fits = |p: &OperationContract| {
            &*p.tool != consumer && trees.of_path(&p.path) == tree && !taken.contains(&p.index)
        };
        let by_identity = candidates[self.next..]
            .iter()
            .position(|(_, p, _)| fits(p))
            .map(|at| self.next + at);
        let by_path = self.structural[self.next_structural..]
            .iter()
            .position(|(_, p, _)| fits(p))
            .map(|at| self.next_structural + at);
        let order = |(rank, p, _): &(u8, &OperationContract, &super::Produced)| (*rank, p.index);
        let from_path = match (by_identity, by_path) {
            (None, None) => {
                self.next = candidates.len();
                self.next_structural = self.structural.len();
                return None;
            }
            (Some(i), Some(s)) => order(&self.structural[s]) < order(&candidates[i]),
            (None, Some(_)) => true,
            (Some(_), None) => false,
        };
        let next = if from_path {
            let at = by_path.unwrap_or_default();
            self.next_structural = at + 1;
            let (rank, producer, leaf) = self.structural[at];
            // The same producer among the identity's: that leaf (what the identity
            // rule alone would say), and both kinds of evidence.
            let same = (0..12u8).find_map(|r| {
                candidates
                    .binary_search_by_key(&(r, producer.index), |(r, p, _)| (*r, p.index))
                    .ok()
            });
            Next {
                rank,
                producer,
                leaf: same.map_or(leaf, |at| candidates[at].2),
                by_identity: same.is_some(),
                by_path: true,
            }
        } else {
            let at = by_identity.unwrap_or_default();
            self.next = at + 1;
            let (rank, producer, leaf) = candidates[at];
            Next {
                rank,
                producer,
                leaf,
                by_identity: true,
                by_path: self
                    .structural
                    .iter()
                    .any(|(_, p, _)| p.index == producer.index),
            }
        };
        if !self.structural.is_empty() {
            self.taken.push(next.producer.index);
        }
        Some(next)
    }
}

/// The edge of `next` into `consumer`'s `input`, its `place`-th producer.
fn data_flow(
    consumer: &OperationContract,
    input: &super::Consumed,
    place: usize,
    next: Next<'_>,
) -> Edge {
    let Next {
        rank,
        producer,
        leaf,
        by_identity,
        by_path,
    } = next;
    // Own keys 0.9 down to 0.75, keys of parts 0.72 to 0.6, references 0.58 to 0.45.
    let score = [
        0.9, 0.88, 0.8, 0.75, 0.72, 0.7, 0.64, 0.6, 0.58, 0.56, 0.5, 0.45,
    ][usize::from(rank.min(11))];
    let optional = if input.required { 0.0 } else { 0.1 };
    const CONTRACT: Cow<'static, str> = Cow::Borrowed("api_contract");
    const HIERARCHY: Cow<'static, str> = Cow::Borrowed("path_hierarchy");
    let evidence_sources: &'static [Cow<'static, str>] = match (by_identity, by_path) {
        (true, true) => &[CONTRACT, HIERARCHY],
        (true, false) => &[CONTRACT],
        (false, true) => &[HIERARCHY],
        (false, false) => &[],
    };
    let mut evidence = if by_identity {
        format!(
            "`{}` produces `{}` ({}{}) and `{}` takes it as `{}`{}",
            producer.tool,
            leaf.name,
            leaf.path,
            if leaf.reference { ", a reference" } else { "" },
            consumer.tool,
            input.name,
            if input.required { "" } else { " (optional)" }
        )
    } else {
        format!(
            "`{}` {} `{}` ({}); `{}` at `{}` takes one's `{}` as `{}`",
            producer.tool,
            if producer.method == "GET" {
                "lists the items of"
            } else {
                "creates an item of"
            },
            producer.path,
            leaf.path,
            consumer.tool,
            consumer.path,
            leaf.name,
            input.name,
        )
    };
    // Kept for the whole build: `format!`'s room to grow goes (~100 bytes an edge).
    evidence.shrink_to_fit();
    Edge {
        source: producer.tool.clone(),
        target: consumer.tool.clone(),
        kind: "data_flow".into(),
        confidence: "inferred".into(),
        conf_score: score - optional,
        evidence,
        evidence_sources: Cow::Borrowed(evidence_sources),
        data_flow: Some(DataFlow {
            field: input.name.clone(),
            from_path: Some(std::sync::Arc::clone(&leaf.path)),
        }),
        is_manual: false,
        rank: Some(place as u64),
        extra: BTreeMap::new(),
    }
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
            // Required inputs only: an optional one (a member's role) is often left to
            // the server, whose choice is news to the caller.
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
    given: &Given<'_>,
    (identity, field_type, api): (&str, &str, &str),
) -> Vec<(u8, &'c OperationContract, &'c super::Produced)> {
    let mut candidates = Vec::new();
    let Some(wanted) = words::split_identity(identity) else {
        return candidates;
    };
    // The matching leaves, producer by producer (in build order).
    let leaves: Vec<(usize, &'c super::Produced)> = given
        .candidates(api, wanted)
        .into_iter()
        .filter_map(|(i, g)| {
            let (produced, leaf) = identities[i].gives[g];
            (words::same_parts(produced, wanted) && compatible(leaf.field_type, field_type))
                .then_some((i, leaf))
        })
        .collect();
    for group in leaves.chunk_by(|a, b| a.0 == b.0) {
        let i = group[0].0;
        // An operation that needs the identity hands it back on its own resource only
        // as an echo; inside it (a transaction's inputs name other transactions) it is
        // news.
        let needs = identities[i]
            .needs
            .iter()
            .any(|needed| words::same_parts(*needed, wanted));
        // Its own key before a reference, the shallowest first.
        let best = group
            .iter()
            .map(|(_, leaf)| *leaf)
            .filter(|leaf| !(needs && leaf.direct))
            .min_by_key(|leaf| (leaf.reference, leaf.path.matches('/').count()));
        if let Some(leaf) = best {
            let producer = &contracts[i];
            candidates.push((rank(producer, leaf), producer, leaf));
        }
    }
    candidates.sort_by_key(|(rank, p, _)| (*rank, p.index));
    candidates
}

/// Every identity the build's operations hand out, filed by API, key and each of its
/// noun's two places ([`words::noun_places`]): (producer, whether its noun is short,
/// index into its identities' `gives`), in build order. A consumed identity is compared
/// only with those filed where it would be — linear in the build instead of quadratic
/// (22,000 operations on Microsoft Graph, and a reference to a user in most of their
/// results).
struct Given<'c> {
    by_word: HashMap<(&'c str, &'c str, &'c str), Vec<Filed>>,
    by_letters: HashMap<(&'c str, &'c str, String), Vec<Filed>>,
}

/// A produced identity as [`Given`] files it: (producer, whether its noun is short,
/// index into the producer's identities' `gives`).
type Filed = (usize, bool, usize);

/// A noun of fewer than three letters (`_` aside): within one producer, a long
/// consumed noun meets the producer's long nouns first (the order the graph has
/// always ranked ties in: `parent_tx.id` before `tx.id` for `parent_tx_id`).
fn is_short(noun: &str) -> bool {
    noun.chars().filter(|c| *c != '_').nth(2).is_none()
}

impl<'c> Given<'c> {
    fn of(contracts: &'c [OperationContract], identities: &[Identities<'c>]) -> Self {
        let mut given = Given {
            by_word: HashMap::new(),
            by_letters: HashMap::new(),
        };
        for (i, gives) in identities.iter().enumerate() {
            let api = contracts[i].api.as_str();
            for (g, ((noun, key), _)) in gives.gives.iter().enumerate() {
                let (word, letters) = words::noun_places(noun);
                let entry = (i, is_short(noun), g);
                given
                    .by_word
                    .entry((api, key, word))
                    .or_default()
                    .push(entry);
                given
                    .by_letters
                    .entry((api, key, letters))
                    .or_default()
                    .push(entry);
            }
        }
        given
    }

    /// The identities of `api` that can match `(noun, key)`, each once: producer by
    /// producer in build order, and within one in the order ties are ranked in (for a
    /// long noun its long nouns first, then in leaf order).
    fn candidates(&self, api: &str, (noun, key): (&str, &str)) -> Vec<(usize, usize)> {
        let (word, letters) = words::noun_places(noun);
        let by_word = self.by_word.get(&(api, key, word));
        let by_letters = self.by_letters.get(&(api, key, letters));
        let mut found: Vec<Filed> = by_word
            .into_iter()
            .chain(by_letters)
            .flatten()
            .copied()
            .collect();
        if is_short(noun) {
            found.sort_unstable_by_key(|&(i, _, g)| (i, g));
        } else {
            found.sort_unstable();
        }
        found.dedup();
        found.into_iter().map(|(i, _, g)| (i, g)).collect()
    }
}

/// The key of the response's own resource first, then a key of one of its parts (a
/// run's id inside an artifact), then references; within each, lists and searches
/// first (they hand out many), then creates, then other reads, then the rest.
fn rank(producer: &OperationContract, leaf: &super::Produced) -> u8 {
    let by_kind = match producer.kind {
        Crude::Read if leaf.path.contains("/*") => 0,
        Crude::Create => 1,
        Crude::Read => 2,
        _ => 3,
    };
    let tier = match (leaf.reference, leaf.direct) {
        (false, true) => 0,
        (false, false) => 4,
        (true, _) => 8,
    };
    tier + by_kind
}

/// Parallel trees of one API — `/ins/tx/{txid}` and `/testnet/ins/tx/{txid}`, a
/// network and its test network, a sandbox — whose values do not cross: a path prefix
/// under which at least three of the API's other paths appear again.
struct Trees {
    prefixes: Vec<String>,
}

impl Trees {
    fn of(contracts: &[OperationContract]) -> Trees {
        let paths: std::collections::HashSet<&str> =
            contracts.iter().map(|c| c.path.as_str()).collect();
        let mut mirrored: BTreeMap<&str, usize> = BTreeMap::new();
        for path in &paths {
            // `/testnet/ins/tx/{txid}` whose tail `/ins/tx/{txid}` is a path too.
            for (at, _) in path.match_indices('/').skip(1) {
                if paths.contains(&path[at..]) {
                    *mirrored.entry(&path[..at]).or_default() += 1;
                }
            }
        }
        Trees {
            prefixes: mirrored
                .into_iter()
                .filter(|(prefix, n)| *n >= 3 && !prefix.contains('{'))
                .map(|(prefix, _)| format!("{prefix}/"))
                .collect(),
        }
    }

    /// The tree `path` is in: its mirrored prefix, or none.
    fn of_path(&self, path: &str) -> Option<&str> {
        self.prefixes
            .iter()
            .find(|p| path.starts_with(p.as_str()))
            .map(String::as_str)
    }
}

/// The type an input takes values of, for [`compatible`]: a path parameter typed as a
/// string takes a number too ([`SEGMENT`]).
fn consumed_type(input: &super::Consumed) -> &'static str {
    if input.location == "path" && input.field_type == "string" {
        SEGMENT
    } else {
        input.field_type
    }
}

/// A path segment: text, into which a numeric id is written as it is (`GameId: 42`
/// into `/BoxScore/{gameid}`, typed string by many specs).
const SEGMENT: &str = "segment";

pub(super) fn compatible(produced: &str, consumed: &str) -> bool {
    let numeric = |t: &str| matches!(t, "integer" | "number");
    produced == consumed
        || consumed == SEGMENT && matches!(produced, "string" | "integer" | "number")
        || numeric(produced) && numeric(consumed)
        || consumed == "any"
        || produced == "any"
        // One value into a list of them (a filter taking several identities).
        || consumed == "array" && matches!(produced, "string" | "integer" | "number")
}

/// Normalizes and merges edges: one per (source, target, field), the strongest
/// evidence kept and every source of evidence listed; manual edges win. A manual
/// edge marked `deleted_by_user` stays (so that a rebuild keeps the deletion) and
/// users of the graph skip it.
pub fn merge(generated: Vec<Edge>, manual: Vec<Edge>) -> Vec<Edge> {
    fn key(edge: &Edge) -> (&str, &str, &str) {
        let field = edge.data_flow.as_ref().map_or("", |d| d.field.as_str());
        (&*edge.source, &*edge.target, field)
    }
    // All in place: Microsoft Graph beta keeps 111,805 edges (~25 MB), and a second
    // list of them (or a sort's scratch half as long) was the top of `report`'s memory.
    let mut edges = generated;
    edges.extend(manual);
    // By (source, target, field), each group in the order the edges came: the order
    // sorted (stable) as positions, then the edges moved into it.
    let mut order: Vec<usize> = (0..edges.len()).collect();
    order.sort_by(|&a, &b| key(&edges[a]).cmp(&key(&edges[b])));
    permute(&mut edges, order);
    edges.dedup_by(|edge, existing| {
        if key(existing) != key(edge) {
            return false;
        }
        // The group's edge so far keeps the group's key whichever edge it is.
        let mut sources = existing.evidence_sources.clone();
        for s in edge.evidence_sources.iter() {
            if !sources.contains(s) {
                sources.to_mut().push(s.clone());
            }
        }
        if edge.is_manual || edge.conf_score > existing.conf_score {
            // The later edge takes the group's place; what it does not say of `extra`
            // and `rank` is kept from the earlier one.
            std::mem::swap(existing, edge);
            let mut extra = std::mem::take(&mut edge.extra);
            extra.append(&mut existing.extra);
            existing.extra = extra;
            existing.rank = existing.rank.or(edge.rank);
        }
        existing.evidence_sources = sources;
        true
    });
    edges.shrink_to_fit();
    edges
}

/// Puts `items[order[i]]` at `i` for every `i`, in place (`order` is a permutation):
/// each cycle of the permutation is walked once, swapping along it.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        // A place whose order names itself is done (or was never moved).
        while order[at] != at {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(source: &str, target: &str, score: f64, evidence: &'static str) -> Edge {
        Edge {
            source: source.into(),
            target: target.into(),
            kind: Cow::Borrowed("data_flow"),
            confidence: Cow::Borrowed("inferred"),
            conf_score: score,
            evidence: evidence.to_owned(),
            evidence_sources: Cow::Owned(vec![Cow::Borrowed(evidence)]),
            data_flow: None,
            is_manual: false,
            rank: None,
            extra: BTreeMap::new(),
        }
    }

    #[test]
    fn permuting_puts_each_item_where_the_order_says() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        // Two cycles (0 → 2 → 4, 1 → 5) and a fixed point (3).
        permute(&mut items, vec![2, 5, 4, 3, 0, 1]);
        assert_eq!(items, ['c', 'f', 'e', 'd', 'a', 'b']);
    }

    #[test]
    fn edges_of_one_key_merge_into_the_strongest_keeping_what_it_does_not_say() {
        let mut weak = edge("list", "get", 0.5, "weak");
        weak.rank = Some(2);
        weak.extra.insert("kept".into(), Value::from(1));
        weak.extra.insert("both".into(), Value::from("weak"));
        let mut strong = edge("list", "get", 0.9, "strong");
        strong.extra.insert("both".into(), Value::from("strong"));
        let other = edge("a", "b", 0.1, "other");
        let merged = merge(vec![weak, other, strong], Vec::new());
        assert_eq!(merged.len(), 2);
        assert_eq!(&*merged[0].source, "a");
        let kept = &merged[1];
        assert_eq!(kept.conf_score, 0.9);
        assert_eq!(kept.evidence, "strong");
        assert_eq!(kept.rank, Some(2));
        assert_eq!(kept.extra["kept"], Value::from(1));
        assert_eq!(kept.extra["both"], Value::from("strong"));
        assert_eq!(kept.evidence_sources.as_ref(), ["weak", "strong"]);
        // A manual edge wins whatever its score.
        let mut manual = edge("list", "get", 0.1, "manual");
        manual.is_manual = true;
        let merged = merge(vec![edge("list", "get", 0.9, "strong")], vec![manual]);
        assert_eq!(merged.len(), 1);
        assert!(merged[0].is_manual);
        assert_eq!(merged[0].evidence_sources.as_ref(), ["strong", "manual"]);
    }
}
