//! Where a tool's inputs come from: the data flows the build found between tools (the
//! links in each tool's contract, `{target}.{field}` → `$response.body#/path`), turned
//! around — for each tool, which tools hand out the values its inputs take. The build
//! keeps the likeliest producers of each input (three at most); the collection
//! artifact has the whole graph.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use toolwright_query::flows::LinkOf;

use super::Catalog;

/// A catalog's [`Incoming`], built on first use and shared by clones: reading every
/// contract costs what the catalog's size does (Graph beta's are 100 MB), once.
#[derive(Debug, Clone, Default)]
pub(super) struct Slot {
    built: OnceLock<Arc<Incoming>>,
}

impl Slot {
    pub(super) const fn new() -> Slot {
        Slot {
            built: OnceLock::new(),
        }
    }
}

impl Catalog {
    /// Every tool's producers ([`incoming`]), read once per catalog.
    pub fn producers(&self) -> Arc<Incoming> {
        self.flows
            .built
            .get_or_init(|| Arc::new(incoming(self)))
            .clone()
    }
}

pub use toolwright_query::flows::{Incoming, Producer};

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
    #[serde(default, deserialize_with = "object_as_pairs")]
    parameters: Vec<(String, String)>,
    #[serde(default)]
    inferred: bool,
    rank: Option<u64>,
}

/// A link's `parameters` object as its pairs, by parameter.
fn object_as_pairs<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(String, String)>, D::Error> {
    let map: BTreeMap<String, String> = serde::Deserialize::deserialize(deserializer)?;
    Ok(map.into_iter().collect())
}

/// Every tool's producers, read from the contracts of `catalog`'s tools
/// ([`toolwright_query::flows::incoming`]: the rule the build's `.d.ts` follows too).
pub fn incoming(catalog: &Catalog) -> Incoming {
    let read: Vec<(&str, Vec<Link>)> = catalog
        .tools()
        .iter()
        .filter_map(|source| {
            let contract = source.contract.as_deref()?;
            let Links { links } = serde_json::from_str::<Links>(contract).ok()?;
            Some((source.name.as_ref(), links))
        })
        .collect();
    let links = read.iter().flat_map(|(source, links)| {
        links.iter().map(|link| LinkOf {
            source,
            name: &link.name,
            operation_id: &link.operation_id,
            parameters: &link.parameters,
            inferred: link.inferred,
            rank: link.rank,
        })
    });
    toolwright_query::flows::incoming(links, |t| catalog.get(t).is_some())
}
