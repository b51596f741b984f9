use toolwright::ToolSchema;

/// A user.
#[derive(ToolSchema)]
struct User {
    /// Password hash.
    #[tool(read_only, write_only)]
    hash: String,
    /// When it changed.
    #[tool(created_time, updated_time)]
    stamp: String,
}

fn main() {}
