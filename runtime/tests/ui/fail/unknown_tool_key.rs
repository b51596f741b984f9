use toolwright::ToolSchema;

/// A city.
#[derive(ToolSchema)]
#[tool(descripton = "typo")]
struct City {
    /// Name.
    #[tool(minimun = 1)]
    name: String,
}

fn main() {}
