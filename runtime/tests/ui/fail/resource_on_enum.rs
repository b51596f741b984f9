use toolwright::ToolSchema;

/// A colour.
#[derive(ToolSchema)]
#[tool(resource(get))]
enum Colour {
    /// Red.
    Red,
}

fn main() {}
