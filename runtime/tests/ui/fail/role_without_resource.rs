use toolwright::ToolSchema;

/// A note, but no resource: its roles would mean nothing.
#[derive(ToolSchema, serde::Serialize, serde::Deserialize)]
struct Note {
    /// Id.
    #[tool(primary_key)]
    id: String,
    /// When.
    #[tool(created_time)]
    at: String,
}

fn main() {}
