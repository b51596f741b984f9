use toolwright::ToolSchema;

/// A limit.
#[derive(ToolSchema)]
struct Limit {
    /// Per minute.
    #[tool(minimum = 10, maximum = 5)]
    per_minute: u32,
    /// Name.
    #[tool(minimum = 1, min_length = 9, max_length = 3)]
    name: String,
    /// Count.
    #[tool(pattern = "^[0-9]+$")]
    count: u64,
}

fn main() {}
