use serde::Deserialize;
use toolwright::ToolSchema;

/// Input of `create_note`, with a field the operation doesn't take.
#[derive(ToolSchema, Deserialize)]
#[tool(adapter = "tests/adapters/notes-adapter.md", operation = "create_note")]
struct CreateNote {
    /// Notebook slug.
    notebook: String,
    /// Title.
    title: String,
    /// Not a parameter of create_note.
    colour: Option<String>,
}

fn main() {}
