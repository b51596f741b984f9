//! The data-flow graph as SVG, laid out here (deterministic, no script needed to see
//! it): tools that take part in an edge, in layers from producers to consumers (longest
//! path from a tool nothing feeds; a cycle is cut where it closes), each layer ordered
//! by the mean position of what feeds it. Every edge carries its evidence as an SVG
//! `<title>` (the browser's tooltip) and as data the page shows on hover and focus.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::link::Link;

use super::html::escape;

/// Edges drawn at most (the strongest first); every edge is listed in its tools'
/// details whatever this cut.
pub const MAX_EDGES: usize = 4_000;
const NODE_WIDTH: usize = 300;
const NODE_HEIGHT: usize = 20;
const ROW: usize = 26;
const LAYER_GAP: usize = 180;
const MARGIN: usize = 12;

/// An edge's score as the artifact's JSON has it (a number that is none reads as 0).
fn score(edge: &Link) -> f64 {
    if edge.score.is_finite() {
        edge.score
    } else {
        0.0
    }
}

/// The drawn graph.
#[derive(Debug, Default)]
pub struct Drawing {
    pub svg: String,
    pub nodes: usize,
    pub drawn: usize,
    pub total: usize,
}

pub fn draw(edges: &[Link], index: &BTreeMap<String, usize>) -> Drawing {
    let mut all: Vec<&Link> = edges.iter().collect();
    // Strongest first, then by names: which edges survive the cut is deterministic.
    all.sort_by(|a, b| {
        score(b)
            .total_cmp(&score(a))
            .then_with(|| (&*a.source, &*a.target).cmp(&(&*b.source, &*b.target)))
    });
    let total = all.len();
    all.truncate(MAX_EDGES);
    let drawn: Vec<(&str, &str, &Link)> = all
        .iter()
        .map(|e| (&*e.source, &*e.target, *e))
        .filter(|(s, t, _)| s != t)
        .collect();
    if drawn.is_empty() {
        return Drawing {
            total,
            ..Drawing::default()
        };
    }
    let layers = layers(&drawn);
    let mut columns: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, layer) in &layers {
        columns.entry(*layer).or_default().push(name);
    }
    // Order each column by the mean row of its feeders (the previous columns are
    // placed first), then by name.
    let mut row_of: BTreeMap<&str, f64> = BTreeMap::new();
    let mut feeders: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (s, t, _) in &drawn {
        feeders.entry(t).or_default().push(s);
    }
    for names in columns.values_mut() {
        let key = |n: &str| {
            let rows: Vec<f64> = feeders
                .get(n)
                .into_iter()
                .flatten()
                .filter_map(|f| row_of.get(f).copied())
                .collect();
            if rows.is_empty() {
                f64::MAX
            } else {
                rows.iter().sum::<f64>() / rows.len() as f64
            }
        };
        let mut keyed: Vec<(f64, &str)> = names.iter().map(|n| (key(n), *n)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(b.1)));
        *names = keyed.into_iter().map(|(_, n)| n).collect();
        for (row, name) in names.iter().enumerate() {
            row_of.insert(name, row as f64);
        }
    }
    let position = |name: &str| -> (usize, usize) {
        let layer = layers[name];
        let row = row_of[name] as usize;
        (
            MARGIN + layer * (NODE_WIDTH + LAYER_GAP),
            MARGIN + row * ROW,
        )
    };
    let tallest = columns.values().map(Vec::len).max().unwrap_or(0);
    let width = 2 * MARGIN + columns.len() * (NODE_WIDTH + LAYER_GAP) - LAYER_GAP;
    let height = 2 * MARGIN + tallest * ROW;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" id="graph-svg" role="img" aria-label="Data-flow graph: {} tools, {} edges" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><g class="edges">"#,
        layers.len(),
        drawn.len()
    );
    for (i, (s, t, e)) in drawn.iter().enumerate() {
        let (sx, sy) = position(s);
        let (tx, ty) = position(t);
        let (x1, y1) = (sx + NODE_WIDTH, sy + NODE_HEIGHT / 2);
        let (x2, y2) = (tx, ty + NODE_HEIGHT / 2);
        // Forward edges bow between the columns; an edge within or against the flow
        // (a cycle) loops out to the right of both ends.
        let d = if x2 > x1 {
            let mid = (x1 + x2) / 2;
            format!("M{x1} {y1}C{mid} {y1} {mid} {y2} {x2} {y2}")
        } else {
            let out = x1.max(tx + NODE_WIDTH) + 60;
            format!("M{x1} {y1}C{out} {y1} {out} {y2} {} {y2}", tx + NODE_WIDTH)
        };
        let evidence = &*e.evidence;
        let confidence = &*e.confidence;
        let score = score(e);
        let _ = write!(
            svg,
            r#"<path id="e{i}" class="edge {confidence}" d="{d}" data-s="{}" data-t="{}"><title>{} → {} ({confidence}, {score:.2}): {}</title></path>"#,
            escape(s),
            escape(t),
            escape(s),
            escape(t),
            escape(evidence)
        );
    }
    svg.push_str(r#"</g><g class="nodes">"#);
    for names in columns.values() {
        for name in names {
            let (x, y) = position(name);
            let row = index.get(*name).map_or(String::new(), ToString::to_string);
            let label = super::tools::cut(name, 40);
            let _ = write!(
                svg,
                r#"<g class="node" data-tool="{}" data-row="{row}" transform="translate({x} {y})"><rect width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="4"/><text x="6" y="14">{}</text><title>{}</title></g>"#,
                escape(name),
                escape(&label),
                escape(name)
            );
        }
    }
    svg.push_str("</g></svg>");
    Drawing {
        svg,
        nodes: layers.len(),
        drawn: drawn.len(),
        total,
    }
}

/// Each tool's layer: the longest path to it from a tool nothing feeds. Edges that
/// close a cycle (found by a depth-first walk in name order) are not followed.
fn layers<'a, T>(edges: &[(&'a str, &'a str, T)]) -> BTreeMap<&'a str, usize> {
    let mut out: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut nodes: BTreeMap<&str, usize> = BTreeMap::new();
    for (s, t, _) in edges {
        out.entry(s).or_default().push(t);
        nodes.insert(s, 0);
        nodes.insert(t, 0);
    }
    for targets in out.values_mut() {
        targets.sort_unstable();
        targets.dedup();
    }
    // Topological order without the back edges (iterative DFS: no recursion depth).
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut mark: BTreeMap<&str, Mark> = nodes.keys().map(|n| (*n, Mark::New)).collect();
    let mut order: Vec<&str> = Vec::new();
    let mut forward: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for start in nodes.keys() {
        if mark[start] != Mark::New {
            continue;
        }
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        mark.insert(start, Mark::Open);
        while let Some((node, next)) = stack.pop() {
            let targets = out.get(node).map(Vec::as_slice).unwrap_or_default();
            if let Some(target) = targets.get(next) {
                stack.push((node, next + 1));
                match mark[target] {
                    Mark::New => {
                        forward.entry(node).or_default().push(target);
                        mark.insert(target, Mark::Open);
                        stack.push((target, 0));
                    }
                    Mark::Done => forward.entry(node).or_default().push(target),
                    Mark::Open => {} // a back edge: it would close a cycle
                }
            } else {
                mark.insert(node, Mark::Done);
                order.push(node);
            }
        }
    }
    order.reverse();
    for node in &order {
        let layer = nodes[node];
        for target in forward.get(node).into_iter().flatten() {
            let entry = nodes.entry(target).or_default();
            *entry = (*entry).max(layer + 1);
        }
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn layers_follow_the_flow_and_cut_cycles() {
        let edges = [
            ("list", "get", ()),
            ("get", "update", ()),
            ("update", "get", ()),
            ("list", "update", ()),
        ];
        let layers = layers(&edges);
        assert_eq!(layers["list"], 0);
        assert_eq!(layers["get"], 1);
        assert_eq!(layers["update"], 2);
    }

    #[test]
    fn edges_carry_their_evidence_escaped() {
        let edges: Vec<Link> = vec![
            serde_json::from_value::<crate::contract::Edge>(json!({
                "source": "list_pets", "target": "get_pet", "kind": "data_flow",
                "confidence": "inferred", "conf_score": 0.9,
                "evidence": "`list_pets` produces <id>", "evidence_sources": [],
            }))
            .unwrap()
            .into(),
        ];
        let index = BTreeMap::from([("get_pet".to_owned(), 0), ("list_pets".to_owned(), 1)]);
        let d = draw(&edges, &index);
        assert_eq!((d.nodes, d.drawn, d.total), (2, 1, 1));
        assert!(d.svg.contains("produces &lt;id&gt;"), "{}", d.svg);
        assert!(d.svg.contains(r#"data-tool="get_pet" data-row="0""#));
        assert_eq!(d.svg, draw(&edges, &index).svg);
    }
}
