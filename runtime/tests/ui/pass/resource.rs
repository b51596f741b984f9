//! A resource with every verb, a server-assigned key and per-verb idempotency.

use serde::{Deserialize, Serialize};
use toolwright::resource::Record;
use toolwright::ToolSchema;

/// An order.
#[derive(ToolSchema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[tool(resource(get, search, create(idempotent), update, patch, delete))]
struct Order {
    /// Order number, assigned by the server.
    #[tool(primary_key, read_only)]
    order_id: u64,
    /// Customer.
    customer: String,
    /// Note.
    note: Option<String>,
    /// Created.
    #[tool(created_time)]
    created_at: String,
}

fn main() {
    let spec = Order::SPEC;
    assert_eq!(spec.key, Some("orderId"));
    assert!(!spec.key_in_draft);
    assert_eq!(spec.server_assigned, ["orderId", "createdAt"]);
    let _draft = OrderDraft { customer: String::new(), note: None };
    let _patch = OrderPatch { customer: None, note: None };
}
