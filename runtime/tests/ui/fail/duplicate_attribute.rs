use toolwright::ToolSchema;

/// A note.
#[derive(ToolSchema)]
struct Note {
    /// Text.
    #[tool(description = "one", description = "two")]
    text: String,
}

fn main() {}
