use serde::{Deserialize, Serialize};
use toolwright::ToolSchema;

/// A log line.
#[derive(ToolSchema, Serialize, Deserialize)]
#[tool(resource(search, get, delete))]
struct LogLine {
    /// The text.
    text: String,
}

fn main() {}
