//! The snapshots of `codegen/tests/golden.rs`, compiled (and linted) as a user's crate.

pub mod adapters {
    include!("../expected/toolwright.rs");
}

pub mod openapi {
    include!("../expected-openapi/toolwright.rs");
}

pub mod openapi32 {
    include!("../expected-openapi32/toolwright.rs");
}

pub mod discovery {
    include!("../expected-discovery/toolwright.rs");
}

pub mod mcp {
    include!("../expected-mcp/toolwright.rs");
}

pub mod graphql {
    include!("../expected-graphql/toolwright.rs");
}

#[cfg(test)]
mod tests {
    use toolwright::query::Techniques;

    /// The index the generator embedded is the one the runtime would build from the
    /// same catalog (what `Catalog::select` and catalogs made in code rely on).
    #[test]
    fn embedded_search_index_matches_the_runtime_build() {
        for (catalog, embedded) in [
            (
                super::adapters::catalog(),
                &include_bytes!("../expected/toolwright_search.idx")[..],
            ),
            (
                super::openapi::catalog(),
                &include_bytes!("../expected-openapi/toolwright_search.idx")[..],
            ),
            (
                super::openapi32::catalog(),
                &include_bytes!("../expected-openapi32/toolwright_search.idx")[..],
            ),
            (
                super::discovery::catalog(),
                &include_bytes!("../expected-discovery/toolwright_search.idx")[..],
            ),
            (
                super::mcp::catalog(),
                &include_bytes!("../expected-mcp/toolwright_search.idx")[..],
            ),
            (
                super::graphql::catalog(),
                &include_bytes!("../expected-graphql/toolwright_search.idx")[..],
            ),
        ] {
            let rebuilt = toolwright::catalog::search::build(&catalog, Techniques::DEFAULT);
            assert!(rebuilt == embedded, "the runtime indexes differently");
            assert_eq!(catalog.search_index().len(), catalog.tools().len());
        }
    }

    #[test]
    fn generated_catalogs_answer_searches_and_selections() {
        let catalog = super::adapters::catalog();
        let hits = catalog.search("give the money back for a charge", 3);
        assert_eq!(hits[0].tool.name, "refund_charge", "{hits:?}");
        let read_only =
            catalog.select(&toolwright::Selection::parse(["read-only"], [""; 0]).unwrap());
        assert!(!read_only.tools().is_empty());
        assert!(read_only.tools().iter().all(|t| t.annotations.read_only));
        // The subset has its own index, built on first use.
        let hits = read_only.search("weather forecast", 3);
        assert_eq!(hits[0].tool.name, "forecast", "{hits:?}");
        assert!(hits.iter().all(|h| h.tool.annotations.read_only));
    }
}
