//! Tool names for a document's operations, all at once: an explicit
//! `x-toolwright-name` first, then the `operationId`, and for an operation with
//! neither a name built from what it does ([`shape`]).
//!
//! Derived names are made unique locally: an operation's name grows a parent scope
//! (`list_artifacts` → `list_build_artifacts`) only while another operation's name is
//! the same, so adding an unrelated operation to a document renames nothing, and the
//! names do not depend on the order of `paths`.

mod shape;

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::Method;
pub use shape::Shape;

/// The extension that names a tool explicitly, over the `operationId`.
pub const EXTENSION: &str = "x-toolwright-name";

/// The export limit on tool names (OpenAI, Anthropic, Gemini: 64 characters).
pub const LIMIT: usize = 64;

/// One operation as the namer sees it.
pub struct Site<'a> {
    pub method: Method,
    pub path: &'a str,
    /// The summary, unless it is a placeholder.
    pub summary: Option<&'a str>,
    pub operation_id: Option<&'a str>,
    pub explicit: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The tool name.
    pub name: String,
    /// What the source gave (the `operationId` or extension as written), or the
    /// derived name before a numeric suffix.
    pub raw: String,
    pub origin: Origin,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    Explicit,
    OperationId,
    /// Built from method, path and summary. `plain` is the name before any scope;
    /// `shared_with` the operations (`GET /api/artists/names`) that wanted it too,
    /// empty when the plain name was kept.
    Derived {
        plain: String,
        shared_with: Vec<String>,
    },
}

/// `^[A-Za-z][A-Za-z0-9_]*$`, the characters every LLM provider accepts in a tool
/// name. Not cut to a length: cutting here would halve words
/// (`…_runners_organiza`); each export shortens names to its target's budget by
/// words, and maps them back.
pub fn tool_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let mut out = out.trim_matches('_').to_owned();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, "op_");
    }
    out
}

fn unique(taken: &mut BTreeSet<String>, name: String) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    candidate
}

/// The names of `sites`, in their order.
pub fn assign(sites: &[Site<'_>]) -> Vec<Named> {
    // Names the source gives are taken first, in document order, as before.
    let mut taken = BTreeSet::new();
    let mut named: Vec<Option<Named>> = sites
        .iter()
        .map(|site| {
            let (raw, origin) = match (site.explicit, site.operation_id) {
                (Some(name), _) => (name, Origin::Explicit),
                (None, Some(id)) => (id, Origin::OperationId),
                (None, None) => return None,
            };
            Some(Named {
                name: unique(&mut taken, tool_name(raw)),
                raw: raw.to_owned(),
                origin,
            })
        })
        .collect();
    let fixed = taken.clone();

    // Derived names: every operation starts at its plainest candidate. Of those that
    // share one (with each other or with a given name), the ones that can still be
    // scoped take their next scope; the others keep the plain name (`list_albums`
    // stays, `list_user_albums` moves). Only when none of them can be scoped do they
    // all fall back to the whole path.
    let derived: Vec<usize> = (0..sites.len()).filter(|&i| named[i].is_none()).collect();
    let mut scoped = Vec::with_capacity(derived.len());
    let candidates: Vec<Vec<String>> = derived
        .iter()
        .map(|&i| {
            let site = &sites[i];
            let shape = Shape::of(site.method, site.path, site.summary);
            let mut list = shape.candidates(LIMIT);
            scoped.push(list.len());
            // Last resort before a number: the verb and the whole path.
            let full = shape_free(&shape.verb, site.path);
            if !list.contains(&full) {
                list.push(full);
            }
            list
        })
        .collect();
    let mut level = vec![0usize; derived.len()];
    loop {
        let mut holders: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (k, list) in candidates.iter().enumerate() {
            holders.entry(&list[level[k]]).or_default().push(k);
        }
        let mut moved = false;
        for (name, ks) in &holders {
            if ks.len() < 2 && !fixed.contains(*name) {
                continue;
            }
            let can_scope: Vec<usize> = ks
                .iter()
                .copied()
                .filter(|&k| level[k] + 1 < scoped[k])
                .collect();
            // One holder left unscoped is no collision once the others have moved.
            let movers = if !can_scope.is_empty()
                && can_scope.len() + 1 == ks.len()
                && !fixed.contains(*name)
            {
                can_scope
            } else {
                ks.clone()
            };
            for k in movers {
                if level[k] + 1 < candidates[k].len() {
                    level[k] += 1;
                    moved = true;
                }
            }
        }
        if !moved {
            break;
        }
    }

    // Who wanted each plain name, to say why a name was scoped.
    let mut wanted: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, list) in candidates.iter().enumerate() {
        wanted.entry(&list[0]).or_default().push(k);
    }
    for (k, &i) in derived.iter().enumerate() {
        let chosen = candidates[k][level[k]].clone();
        let plain = candidates[k][0].clone();
        let mut shared_with: Vec<String> = wanted[plain.as_str()]
            .iter()
            .filter(|&&other| other != k)
            .map(|&other| {
                let site = &sites[derived[other]];
                format!("{} {}", site.method.as_str(), site.path)
            })
            .collect();
        if level[k] > 0 && fixed.contains(&plain) {
            shared_with.insert(0, format!("the operationId `{plain}`"));
        }
        if level[k] == 0 {
            shared_with.clear();
        }
        named[i] = Some(Named {
            name: unique(&mut taken, chosen.clone()),
            raw: chosen,
            origin: Origin::Derived { plain, shared_with },
        });
    }
    named.into_iter().flatten().collect()
}

/// `get` and `/pets/{petId}/toys` → `get_pets_pet_id_toys`: every word of the path,
/// for operations nothing else tells apart.
fn shape_free(verb: &str, path: &str) -> String {
    let mut words = vec![verb.to_owned()];
    for segment in path.split(['/', '?', '&', '#', '=', '.']) {
        let w = crate::contract::words::snake(segment);
        if !w.is_empty() && !words.contains(&w) {
            words.push(w);
        }
    }
    let mut name = tool_name(&words.join("_"));
    if name.len() > LIMIT {
        // Keep the verb and the end of the path, which says the most.
        let tail = &name[name.len() - (LIMIT - words[0].len() - 1)..];
        name = format!("{}_{}", words[0], tail.trim_start_matches('_'));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(method: Method, path: &str) -> Site<'_> {
        Site {
            method,
            path,
            summary: None,
            operation_id: None,
            explicit: None,
        }
    }

    fn names(sites: &[Site<'_>]) -> Vec<String> {
        assign(sites).into_iter().map(|n| n.name).collect()
    }

    #[test]
    fn only_colliding_names_take_a_scope() {
        let sites = [
            site(Method::Delete, "/api/albums/comments/{commentId}"),
            site(Method::Delete, "/api/artists/comments/{commentId}"),
            site(Method::Get, "/api/albums/{id}"),
        ];
        assert_eq!(
            names(&sites),
            ["delete_album_comment", "delete_artist_comment", "get_album"]
        );
        let named = assign(&sites);
        assert_eq!(
            named[0].origin,
            Origin::Derived {
                plain: "delete_comment".into(),
                shared_with: vec!["DELETE /api/artists/comments/{commentId}".into()],
            }
        );
        assert_eq!(
            named[2].origin,
            Origin::Derived {
                plain: "get_album".into(),
                shared_with: vec![],
            }
        );
    }

    #[test]
    fn adding_an_unrelated_operation_renames_nothing() {
        let before = [
            site(Method::Get, "/api/albums"),
            site(Method::Get, "/api/albums/{id}/comments"),
            site(Method::Get, "/api/artists/{id}/comments"),
        ];
        let mut after: Vec<Site<'_>> = before.iter().map(|s| site(s.method, s.path)).collect();
        after.insert(1, site(Method::Get, "/api/songs"));
        let (old, new) = (names(&before), names(&after));
        assert_eq!(new[0], old[0]);
        assert_eq!(&new[2..], &old[1..]);
        assert_eq!(new[1], "list_songs");
        // The order of `paths` does not matter either.
        let reversed: Vec<Site<'_>> = before
            .iter()
            .rev()
            .map(|s| site(s.method, s.path))
            .collect();
        let mut back = names(&reversed);
        back.reverse();
        assert_eq!(back, old);
    }

    #[test]
    fn given_names_win_and_derived_ones_step_aside() {
        let mut by_id = site(Method::Get, "/pets");
        by_id.operation_id = Some("list_pets");
        let mut explicit = site(Method::Get, "/toys");
        explicit.operation_id = Some("getToys");
        explicit.explicit = Some("list_toys");
        let sites = [site(Method::Get, "/shop/{id}/pets"), by_id, explicit];
        assert_eq!(names(&sites), ["list_shop_pets", "list_pets", "list_toys"]);
        let named = assign(&sites);
        assert_eq!(named[2].raw, "list_toys");
        assert_eq!(named[2].origin, Origin::Explicit);
    }

    #[test]
    fn operations_only_the_query_tells_apart_are_named_by_it() {
        let sites = [
            site(Method::Get, "/current?city_id={city_id}"),
            site(Method::Get, "/current?lat={lat}&lon={lon}"),
            site(Method::Get, "/alerts"),
        ];
        assert_eq!(
            names(&sites),
            [
                "get_current_by_city_id",
                "get_current_by_lat_lon",
                "list_alerts"
            ]
        );
    }

    #[test]
    fn names_nothing_tells_apart_fall_back_to_the_path_then_a_number() {
        let sites = [
            site(Method::Get, "/a/things"),
            site(Method::Get, "/b/things"),
            site(Method::Get, "/a/things"),
        ];
        let got = names(&sites);
        assert_eq!(got, ["list_a_things", "list_b_things", "list_a_things_2"]);
        // The top-level collection keeps the plain name; the nested one is scoped.
        let sites = [
            site(Method::Get, "/api/albums"),
            site(Method::Get, "/api/users/{id}/albums"),
        ];
        assert_eq!(names(&sites), ["list_albums", "list_user_albums"]);
        // Two that only the path tells apart both take it.
        let sites = [
            site(Method::Get, "/logs/{appId}"),
            site(Method::Get, "/v3/logs/{appId}"),
        ];
        assert_eq!(names(&sites), ["get_logs_app_id", "get_v3_logs_app_id"]);
        assert_eq!(
            shape_free("get", "/pets/{petId}/toys"),
            "get_pets_pet_id_toys"
        );
        let long = format!("/{}", "segment/".repeat(20));
        assert!(shape_free("get", &long).len() <= LIMIT);
    }
}
