use toolwright::ToolSchema;

/// A buffer.
#[derive(ToolSchema)]
struct Buffer {
    /// Start of the data.
    data: *const u8,
}

fn main() {}
