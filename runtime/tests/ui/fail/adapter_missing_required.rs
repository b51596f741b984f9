use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of `create_note`, without its title.
#[derive(ToolSchema, Deserialize)]
#[tool(adapter = "tests/adapters/notes-adapter.md", operation = "create_note")]
struct CreateNote {
    /// Notebook slug.
    notebook: String,
}

fn main() {}
