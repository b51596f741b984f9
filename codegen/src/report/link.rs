//! An edge of the graph as the report shows it: its ends, confidence, score, evidence
//! and the input it feeds, scrubbed. The artifact's edge carries more (its kind,
//! sources, rank, path and anything a previous artifact added), which the page never
//! shows: Microsoft Graph beta's 111,805 edges took 25 MB in place as the artifact
//! has them, and were alive with the whole IR and the contracts.

use std::borrow::Cow;
use std::sync::Arc;

use crate::contract::Edge;

/// One edge of the report's graph.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Shared (`Arc`) with the other edges of the same tool.
    pub source: Arc<str>,
    pub target: Arc<str>,
    /// `extracted` or `inferred` (the engine's words cost no text).
    pub confidence: Cow<'static, str>,
    pub score: f64,
    pub evidence: Box<str>,
    /// The target's input the edge feeds, when it is a data flow.
    pub field: Option<Box<str>>,
}

impl From<Edge> for Link {
    /// What the page shows of `edge`, every credential taken out as scrubbing the
    /// artifact's edges does: field by field (none of these is named like a
    /// credential, so only their text is read).
    fn from(edge: Edge) -> Link {
        Link {
            source: clean(edge.source),
            target: clean(edge.target),
            confidence: clean(edge.confidence),
            score: edge.conf_score,
            evidence: clean(edge.evidence).into_boxed_str(),
            field: edge
                .data_flow
                .map(|flow| clean(flow.field).into_boxed_str()),
        }
    }
}

/// `text` with what the scrubber takes out of it gone (as is when nothing is).
fn clean<T: std::ops::Deref<Target = str> + From<String>>(text: T) -> T {
    match toolwright_query::redact::text(&text) {
        Cow::Owned(clean) => clean.into(),
        Cow::Borrowed(_) => text,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    /// What the page shows of an edge is what it showed of the scrubbed artifact's.
    #[test]
    fn links_are_scrubbed_as_the_artifact_scrubs_edges() {
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let edge: Edge = serde_json::from_value(json!({
            "source": format!("Bearer {token}"),
            "target": "get_key",
            "kind": "manual",
            "confidence": "extracted",
            "conf_score": 1.0,
            "evidence": format!("the key {token} is shown"),
            "evidence_sources": ["manual", format!("Bearer {token}")],
            "data_flow": {"field": format!("key {token}"), "from_path": "/key"},
            "is_manual": true,
            "rank": 2,
            "note": format!("token {token}"),
        }))
        .unwrap();
        let mut expected = serde_json::to_value(&edge).unwrap();
        crate::contract::artifact::scrub(&mut expected);
        let link = Link::from(edge);
        let shown = |v: &Value| {
            json!([
                v["source"],
                v["target"],
                v["confidence"],
                v["conf_score"],
                v["evidence"],
                v["data_flow"]["field"]
            ])
        };
        let got = json!([
            &*link.source,
            &*link.target,
            link.confidence,
            link.score,
            &*link.evidence,
            link.field.as_deref()
        ]);
        assert_eq!(got, shown(&expected));
        assert!(!got.to_string().contains(token), "{got}");
    }
}
