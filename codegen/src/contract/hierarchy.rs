//! The path's own structure as evidence (`path_hierarchy`): what every REST API says
//! by its paths. `GET /vaults` lists vaults and `POST /vaults` creates one; each
//! operation at `/vaults/{vaultUuid}` or deeper (`/vaults/{vaultUuid}/items`) takes
//! one vault's key — whichever field of the item fits `{vaultUuid}` ([`keys`]). One
//! level down the same holds (`/vaults/{v}/items` → `/vaults/{v}/items/{itemUuid}`).
//! A create that answers only with a `Location` header (a `201` that declares one)
//! hands out the new item through it.
//!
//! Names need not match, and operations need no operationId: the collection is the
//! path before the parameter, compared with parameter names blanked
//! (`/vaults/{id}/items` is `/vaults/{vaultUuid}/items`).

use std::collections::HashMap;

use serde_json::Value;

use super::fields::{Consumed, Produced};
use super::keys::{self, Shape};
use super::{OperationContract, words};
use crate::ir::Crude;

/// The runtime expression of a `Location` header, the `from_path` of an edge from it.
pub const LOCATION: &str = "$response.header.Location";

/// The collections of a build: for each collection path, the operations that list
/// its items or create one.
#[derive(Debug)]
pub struct Hierarchy {
    /// (API, collection path with parameters blanked) → its lists and creates.
    collections: HashMap<(String, String), Vec<Member>>,
    /// A `Location` header as a leaf, for creates that declare one.
    location: Produced,
}

/// A list or create of a collection, with its item's fields (indexes into its
/// `produces`), found once: every operation under the collection asks for them
/// (thousands under Microsoft Graph's `/users`).
#[derive(Debug)]
struct Member {
    contract: usize,
    way: Way,
    item_fields: Vec<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    List,
    Create,
}

impl Hierarchy {
    pub fn of(contracts: &[OperationContract]) -> Hierarchy {
        let mut collections: HashMap<(String, String), Vec<Member>> = HashMap::new();
        for (i, c) in contracts.iter().enumerate() {
            let (way, item_fields) = match c.method {
                "GET" => match items(c, true) {
                    Some(fields) => (Way::List, fields),
                    None => continue,
                },
                "POST" if c.kind == Crude::Create || c.location => {
                    (Way::Create, items(c, false).unwrap_or_default())
                }
                _ => continue,
            };
            collections
                .entry((c.api.clone(), blanked(&c.path)))
                .or_default()
                .push(Member {
                    contract: i,
                    way,
                    item_fields,
                });
        }
        Hierarchy {
            collections,
            location: Produced {
                name: "Location".into(),
                path: LOCATION.into(),
                field_type: "string",
                enum_values: None,
                semantic_tag: Some("identifier"),
                resource: None,
                identifies: None,
                reference: false,
                direct: true,
                shape: Shape::default(),
            },
        }
    }

    /// The producers `consumer`'s path input `input` takes from its collection: (rank
    /// as the graph ranks, the producer, the field it takes). Lists first, then
    /// creates, in build order.
    pub fn producers<'c, 'h: 'c>(
        &'h self,
        contracts: &'c [OperationContract],
        consumer: &OperationContract,
        input: &Consumed,
    ) -> Vec<(u8, &'c OperationContract, &'c Produced)> {
        let mut out = Vec::new();
        if input.location != "path" || input.kind != "data" || input.enum_values.is_some() {
            return out;
        }
        let Some((collection, noun)) = collection_of(&consumer.path, &input.name) else {
            return out;
        };
        let Some(found) = self.collections.get(&(consumer.api.clone(), collection)) else {
            return out;
        };
        for member in found {
            let (producer, way) = (&contracts[member.contract], member.way);
            if producer.tool == consumer.tool {
                continue;
            }
            let fields = member
                .item_fields
                .iter()
                .map(|&k| &producer.contract.produces[k]);
            let leaf = keys::key_field(input, &noun, fields).or_else(|| {
                // No body: only the header says which item was made (its URL).
                let bodiless = producer.contract.produces.is_empty();
                (way == Way::Create && producer.location && bodiless).then_some(&self.location)
            });
            if let Some(leaf) = leaf {
                let rank = match way {
                    Way::List => 0,
                    Way::Create => 1,
                };
                out.push((rank, producer, leaf));
            }
        }
        out.sort_by_key(|(rank, p, _)| (*rank, p.index));
        out
    }
}

/// Whether `op`'s `201` answer declares a `Location` header (in its native metadata).
pub fn declares_location(op: &crate::ir::Operation) -> bool {
    let Some(Value::Object(responses)) = op.native("responses") else {
        return false;
    };
    responses.get("201").is_some_and(|created| {
        created
            .get("headers")
            .and_then(Value::as_object)
            .is_some_and(|h| h.keys().any(|k| k.eq_ignore_ascii_case("location")))
    })
}

/// The own fields of the items of `c`'s response (indexes into its `produces`): for a
/// list, the items of its shallowest list (`/*`, `/data/*`, `/actions_caches/*`: at
/// most one wrapper deep); otherwise the shallowest object (the top, or an
/// envelope's). Never a part nested in the item (`/object/sha` of a git ref is not the
/// ref's key).
fn items(c: &OperationContract, list: bool) -> Option<Vec<usize>> {
    let produced = &c.contract.produces;
    let parents = produced.iter().map(parent);
    let level = if list {
        parents
            .filter(|p| p.ends_with("/*") && p.matches('/').count() <= 2)
            .min_by_key(|p| p.matches('/').count())
    } else {
        parents.min_by_key(|p| p.matches('/').count())
    }?;
    let fields: Vec<usize> = (0..produced.len())
        .filter(|&k| parent(&produced[k]) == level)
        .collect();
    (!fields.is_empty()).then_some(fields)
}

/// A leaf's parent: `/data/*/id` → `/data/*`.
fn parent(leaf: &Produced) -> &str {
    leaf.path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// The collection `{parameter}` of `path` picks an item of, blanked, and the noun of
/// its items: `/vaults/{vaultUuid}/items/{itemUuid}` and `itemUuid` →
/// (`/vaults/{}/items`, `item`). `None` when the parameter follows no collection name
/// (`/repos/{owner}/{repo}`, `/{id}`, `/v1/{id}`).
fn collection_of(path: &str, parameter: &str) -> Option<(String, String)> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let wanted = words::snake(parameter);
    let at = segments.iter().position(|s| {
        s.strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .is_some_and(|name| name == parameter || words::snake(name) == wanted)
    })?;
    let last = *segments[..at].last()?;
    if last.starts_with('{') || words::is_action(last) {
        return None;
    }
    let noun = words::singular(&words::snake(last));
    let collection = format!("/{}", segments[..at].join("/"));
    Some((blanked(&collection), noun))
}

/// `path` with every parameter's name removed: `/vaults/{vaultUuid}` → `/vaults/{}`.
fn blanked(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_picks_an_item_of_the_collection_before_it() {
        assert_eq!(
            collection_of("/vaults/{vaultUuid}/items/{itemUuid}/files", "itemUuid"),
            Some(("/vaults/{}/items".to_owned(), "item".to_owned()))
        );
        assert_eq!(
            collection_of("/vaults/{vaultUuid}", "vaultUuid"),
            Some(("/vaults".to_owned(), "vault".to_owned()))
        );
        assert_eq!(collection_of("/repos/{owner}/{repo}", "repo"), None);
        assert_eq!(collection_of("/{id}", "id"), None);
        assert_eq!(collection_of("/api/{id}", "id"), None, "no noun");
        assert_eq!(blanked("/a/{b}/c/{d}"), "/a/{}/c/{}");
    }
}
