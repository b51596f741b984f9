use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of `create_note`.
#[derive(ToolSchema, Deserialize)]
#[tool(adapter = "tests/adapters/notes-adapter.md", operation = "create_note")]
struct CreateNote {
    /// Notebook slug.
    notebook: String,
    /// Title.
    title: u32,
    /// Body text.
    text: Option<String>,
}

fn main() {}
