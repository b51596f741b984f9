use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of `create_note` with optionality the wrong way round.
#[derive(ToolSchema, Deserialize)]
#[tool(adapter = "tests/adapters/notes-adapter.md", operation = "create_note")]
struct CreateNote {
    /// Notebook slug.
    notebook: Option<String>,
    /// Title.
    title: String,
    /// Body text.
    text: String,
}

fn main() {}
