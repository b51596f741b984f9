use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of the shop's `listProducts`, wrongly typed.
#[derive(ToolSchema, Deserialize)]
#[tool(openapi = "tests/openapi/shop.yaml", operation = "listProducts")]
struct ListProducts {
    /// Page size.
    limit: Option<String>,
}

fn main() {}
