use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of an operation the adapter doesn't have.
#[derive(ToolSchema, Deserialize)]
#[tool(adapter = "tests/adapters/notes-adapter.md", operation = "create_notes")]
struct CreateNote {
    /// Notebook slug.
    notebook: String,
}

fn main() {}
