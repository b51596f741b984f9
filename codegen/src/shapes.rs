//! Names APIs give to common shapes, which reading (pagination: where a page's items
//! are) and analysis (contracts: which property holds the resource) both look for: a
//! leaf, so neither stage imports the other.

/// Envelope property names: their items are the response's resource (also the items
/// field pagination looks for).
pub(crate) const ENVELOPES: &[&str] = &[
    "data",
    "items",
    "results",
    "values",
    "value",
    "records",
    "entries",
    "elements",
    "nodes",
    "list",
    "content",
    "embedded",
    "_embedded",
];
