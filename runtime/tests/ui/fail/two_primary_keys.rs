use serde::{Deserialize, Serialize};
use toolwright::ToolSchema;

/// An account.
#[derive(ToolSchema, Serialize, Deserialize)]
#[tool(resource(get))]
struct Account {
    /// Account id.
    #[tool(primary_key)]
    id: String,
    /// Login e-mail.
    #[tool(primary_key)]
    email: String,
}

fn main() {}
