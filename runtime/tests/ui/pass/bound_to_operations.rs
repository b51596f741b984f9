//! Types bound to declared operations, matching them exactly.

use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of `create_note`.
#[derive(ToolSchema, Deserialize)]
#[tool(adapter = "tests/adapters/notes-adapter.md", operation = "create_note")]
struct CreateNote {
    /// Notebook slug.
    notebook: String,
    /// Title.
    title: String,
    /// Body text.
    text: Option<String>,
    /// Labels.
    #[serde(default)]
    tags: Vec<String>,
}

/// Input of the shop's `listProducts`.
#[derive(ToolSchema, Deserialize)]
#[tool(openapi = "tests/openapi/shop.yaml", operation = "listProducts")]
struct ListProducts {
    /// Page size.
    limit: Option<u32>,
    /// Sort order.
    sort: Option<String>,
}

fn main() {
    let _ = (CreateNote::json_schema(), ListProducts::json_schema());
}
