//! Where a tool's inputs come from: the data flows the build found between tools (the
//! links in each tool's contract, `{target}.{field}` → `$response.body#/path`), turned
//! around — for each tool, which tools hand out the values its inputs take. One rule
//! for the runtime (`describe_tool`, code mode's declarations) and the build (the
//! `.d.ts` file), so both name the same producers in the same order.

use std::collections::BTreeMap;

/// One producer of an input: `tool`'s result at `from` — a JSON pointer into the
/// body, or `$response.header.<name>` for a header (a 201's `Location`) — is what the
/// input takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Producer {
    pub tool: String,
    pub from: String,
}

/// Tool name → input name → its producers, likeliest first.
pub type Incoming = BTreeMap<String, BTreeMap<String, Vec<Producer>>>;

/// One link of a tool's contract, as its contract states it.
#[derive(Debug, Clone, Copy)]
pub struct LinkOf<'a> {
    /// The tool whose contract holds the link: the producer.
    pub source: &'a str,
    /// `{target}.{field}` for an inferred link; the source's own name for a declared one.
    pub name: &'a str,
    pub operation_id: &'a str,
    /// Target parameter → runtime expression.
    pub parameters: &'a [(String, String)],
    pub inferred: bool,
    /// An inferred link's place among its input's producers (0: the likeliest).
    pub rank: Option<u64>,
}

/// Every tool's producers from `links` (given tool by tool, in the catalog's order),
/// for the targets `exists` knows: declared links first, then by the build's ranking;
/// one entry per producer of an input.
pub fn incoming<'a>(
    links: impl IntoIterator<Item = LinkOf<'a>>,
    exists: impl Fn(&str) -> bool,
) -> Incoming {
    let mut incoming: BTreeMap<String, BTreeMap<String, Vec<(u64, Producer)>>> = BTreeMap::new();
    for link in links {
        // Inferred links are named `{target}.{field}`; declared ones name the target's
        // operation id, which is its tool name unless renamed.
        let target = if link.inferred {
            link.name.rsplit_once('.').map(|(target, _)| target)
        } else {
            Some(link.operation_id)
        };
        let Some(target) = target.filter(|t| exists(t)) else {
            continue;
        };
        for (field, expression) in link.parameters {
            let from = match expression.strip_prefix("$response.body#") {
                Some(pointer) => pointer,
                None if expression.starts_with("$response.header.") => expression,
                None => "",
            };
            let producers = incoming
                .entry(target.to_owned())
                .or_default()
                .entry(field.clone())
                .or_default();
            if !producers.iter().any(|(_, p)| p.tool == link.source) {
                let rank = link.rank.map_or(0, |r| r + 1);
                producers.push((
                    rank,
                    Producer {
                        tool: link.source.to_owned(),
                        from: from.to_owned(),
                    },
                ));
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

/// The producers of `tool`'s `input` as declarations name them.
pub fn origins<'i>(
    incoming: &'i Incoming,
    tool: &str,
    input: &str,
) -> Vec<super::declare::Origin<'i>> {
    incoming
        .get(tool)
        .and_then(|inputs| inputs.get(input))
        .map(|producers| {
            producers
                .iter()
                .map(|p| super::declare::Origin {
                    tool: &p.tool,
                    from: &p.from,
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_turned_around_declared_first_then_by_rank() {
        let body = |p: &str| vec![("id".to_owned(), format!("$response.body#{p}"))];
        let (list, create, declared) = (body("/*/id"), body("/id"), body("/id"));
        let header = vec![("id".to_owned(), "$response.header.Location".to_owned())];
        let link = |source, name, parameters, inferred, rank| LinkOf {
            source,
            name,
            operation_id: "get",
            parameters,
            inferred,
            rank,
        };
        let incoming = incoming(
            [
                link("create", "get.id", &create, true, Some(1)),
                link("list", "get.id", &list, true, Some(0)),
                link("upload", "get.id", &header, true, Some(2)),
                link("old", "GetIt", &declared, false, None),
                link("list", "gone.id", &list, true, Some(0)),
            ],
            |t| t == "get",
        );
        let from: Vec<(&str, &str)> = incoming["get"]["id"]
            .iter()
            .map(|p| (p.tool.as_str(), p.from.as_str()))
            .collect();
        assert_eq!(
            from,
            [
                ("old", "/id"),
                ("list", "/*/id"),
                ("create", "/id"),
                ("upload", "$response.header.Location")
            ]
        );
        assert_eq!(incoming.len(), 1, "no tool `gone`");
        assert_eq!(origins(&incoming, "get", "id")[1].from, "/*/id");
        assert!(origins(&incoming, "get", "other").is_empty());
    }
}
