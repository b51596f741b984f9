use toolwright::ToolSchema;

/// Bound to nothing.
#[derive(ToolSchema)]
#[tool(operation = "create_note")]
struct CreateNote {
    /// Notebook slug.
    notebook: String,
}

fn main() {}
