//! Where a tool's inputs come from: the data flows the build found between tools (the
//! links in each tool's contract, `{target}.{field}` → `$response.body#/path`), turned
//! around — for each tool, which tools hand out the values its inputs take. The build
//! keeps the likeliest producers of each input (three at most); the collection
//! artifact has the whole graph.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Catalog;

/// One producer of an input: `tool`'s result at `from` (a JSON pointer) is what the
/// input takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Producer {
    pub tool: String,
    pub from: String,
}

/// Tool name → input name → its producers, likeliest first.
pub type Incoming = BTreeMap<String, BTreeMap<String, Vec<Producer>>>;

/// The part of a contract read here (the rest is skipped, not built: Graph beta's
/// contracts are 100 MB).
#[derive(Deserialize)]
struct Links {
    #[serde(default)]
    links: Vec<Link>,
}

#[derive(Deserialize)]
struct Link {
    name: String,
    operation_id: String,
    #[serde(default)]
    parameters: BTreeMap<String, String>,
    #[serde(default)]
    inferred: bool,
    rank: Option<u64>,
}

/// Every tool's producers, read from the contracts of `catalog`'s tools.
pub fn incoming(catalog: &Catalog) -> Incoming {
    let mut incoming: BTreeMap<String, BTreeMap<String, Vec<(u64, Producer)>>> = BTreeMap::new();
    for source in catalog.tools() {
        let Some(contract) = source.contract.as_deref() else {
            continue;
        };
        let Ok(Links { links }) = serde_json::from_str::<Links>(contract) else {
            continue;
        };
        for link in links {
            // Inferred links are named `{target}.{field}`; declared ones name the
            // target's operation id, which is its tool name unless renamed.
            let target = if link.inferred {
                link.name.rsplit_once('.').map(|(target, _)| target)
            } else {
                Some(link.operation_id.as_str())
            };
            let Some(target) = target.filter(|t| catalog.get(t).is_some()) else {
                continue;
            };
            for (field, expression) in link.parameters {
                let from = expression
                    .strip_prefix("$response.body#")
                    .unwrap_or_default();
                let producers = incoming
                    .entry(target.to_owned())
                    .or_default()
                    .entry(field)
                    .or_default();
                if !producers
                    .iter()
                    .any(|(_, p)| p.tool == source.name.as_ref())
                {
                    // Declared links first, then by the build's ranking.
                    let rank = link.rank.map_or(0, |r| r + 1);
                    producers.push((
                        rank,
                        Producer {
                            tool: source.name.to_string(),
                            from: from.to_owned(),
                        },
                    ));
                }
            }
        }
    }
    incoming
        .into_iter()
        .map(|(tool, inputs)| {
            let inputs = inputs
                .into_iter()
                .map(|(input, mut producers)| {
                    producers.sort_by_key(|(rank, _)| *rank);
                    (input, producers.into_iter().map(|(_, p)| p).collect())
                })
                .collect();
            (tool, inputs)
        })
        .collect()
}
