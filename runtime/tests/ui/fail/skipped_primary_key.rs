use serde::{Deserialize, Serialize};
use toolwright::ToolSchema;

/// A session.
#[derive(ToolSchema, Serialize, Deserialize)]
#[tool(resource(get))]
struct Session {
    /// Session id.
    #[tool(primary_key)]
    #[serde(skip_serializing)]
    id: String,
}

fn main() {}
