use toolwright::ToolSchema;

struct Opaque;

/// Holds something without a schema.
#[derive(ToolSchema)]
struct Holder {
    /// The opaque value.
    value: Opaque,
}

fn main() {}
