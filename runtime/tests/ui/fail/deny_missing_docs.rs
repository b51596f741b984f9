use toolwright::ToolSchema;

#[derive(ToolSchema)]
#[tool(deny_missing_docs)]
struct Undocumented {
    /// Documented.
    a: String,
    b: u32,
}

fn main() {}
