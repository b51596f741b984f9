//! A derive-based resource served by the executor: per-verb tools, schemas, annotations
//! and call-by-name dispatch into a real (in-memory) store.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::resource::{Query, ResourceError};
use toolwright::{Catalog, Error, Executor, Resource, ToolSchema};

/// A product for sale in the shop.
#[derive(Debug, Clone, ToolSchema, Serialize, Deserialize)]
#[tool(resource(get, search, create, update, patch, delete))]
struct Product {
    /// Stock keeping unit, unique per product.
    #[tool(primary_key, pattern = "^[A-Z0-9-]+$")]
    sku: String,
    /// Display name.
    #[tool(min_length = 1)]
    name: String,
    /// Price in cents.
    price_cents: u32,
    /// Free-form labels.
    #[serde(default)]
    tags: Vec<String>,
    /// Supplier's internal note; accepted, never returned.
    #[tool(write_only)]
    #[serde(default)]
    supplier_note: Option<String>,
    /// When the product was created (RFC 3339).
    #[tool(created_time)]
    created_at: String,
    /// When the product last changed (RFC 3339).
    #[tool(updated_time)]
    updated_at: Option<String>,
}

#[derive(Default)]
struct Store {
    products: Mutex<BTreeMap<String, Product>>,
}

fn now() -> String {
    "2026-11-30T12:00:00Z".into()
}

impl Resource for Store {
    type Record = Product;

    async fn get(&self, sku: String) -> Result<Product, ResourceError> {
        self.products
            .lock()
            .unwrap()
            .get(&sku)
            .cloned()
            .ok_or_else(|| ResourceError::not_found(format!("no product `{sku}`")))
    }

    async fn search(&self, query: Query) -> Result<Vec<Product>, ResourceError> {
        Ok(self
            .products
            .lock()
            .unwrap()
            .values()
            .filter(|p| query.matches(&serde_json::to_value(p).unwrap()))
            .cloned()
            .collect())
    }

    async fn create(&self, draft: ProductDraft) -> Result<Product, ResourceError> {
        let mut products = self.products.lock().unwrap();
        if products.contains_key(&draft.sku) {
            return Err(ResourceError::conflict(format!("`{}` exists", draft.sku)));
        }
        let product = Product {
            sku: draft.sku,
            name: draft.name,
            price_cents: draft.price_cents,
            tags: draft.tags,
            supplier_note: draft.supplier_note,
            created_at: now(),
            updated_at: None,
        };
        products.insert(product.sku.clone(), product.clone());
        Ok(product)
    }

    async fn patch(&self, sku: String, patch: ProductPatch) -> Result<Product, ResourceError> {
        let mut products = self.products.lock().unwrap();
        let product = products
            .get_mut(&sku)
            .ok_or_else(|| ResourceError::not_found(format!("no product `{sku}`")))?;
        if let Some(name) = patch.name {
            product.name = name;
        }
        if let Some(price) = patch.price_cents {
            product.price_cents = price;
        }
        product.updated_at = Some(now());
        Ok(product.clone())
    }

    async fn delete(&self, sku: String) -> Result<(), ResourceError> {
        self.products
            .lock()
            .unwrap()
            .remove(&sku)
            .map(drop)
            .ok_or_else(|| ResourceError::not_found(format!("no product `{sku}`")))
    }
}

fn executor() -> Executor {
    Executor::builder(Catalog::empty())
        .resource(Store::default())
        .build()
        .unwrap()
}

fn tool(executor: &Executor, name: &str) -> Value {
    let catalog = executor.catalog();
    catalog.tool_json(catalog.get(name).expect(name))
}

#[test]
fn each_declared_verb_is_a_tool() {
    let executor = executor();
    let names: Vec<&str> = executor
        .catalog()
        .tools()
        .iter()
        .map(|t| t.name.as_ref())
        .collect();
    assert_eq!(
        names,
        [
            "create_Product",
            "delete_Product",
            "get_Product",
            "patch_Product",
            "search_Product",
            "update_Product"
        ]
    );
    let get = tool(&executor, "get_Product");
    assert_eq!(
        get["description"],
        "Fetches a single Product record by sku.\n\nA product for sale in the shop."
    );
    assert_eq!(get["inputSchema"]["required"], json!(["sku"]));
    assert_eq!(get["annotations"]["readOnlyHint"], true);
    let output = &get["outputSchema"];
    // required = non-Option fields ∪ key ∪ server-assigned; write-only fields gone.
    assert_eq!(
        output["required"],
        json!([
            "sku",
            "name",
            "price_cents",
            "tags",
            "created_at",
            "updated_at"
        ])
    );
    assert!(output["properties"].get("supplier_note").is_none());

    let create = tool(&executor, "create_Product");
    let props = create["inputSchema"]["properties"].as_object().unwrap();
    assert!(props.contains_key("sku") && props.contains_key("supplier_note"));
    assert!(!props.contains_key("created_at") && !props.contains_key("updated_at"));
    assert_eq!(create["inputSchema"]["additionalProperties"], false);
    assert_eq!(create["annotations"]["idempotentHint"], false);
    assert_eq!(create["annotations"]["destructiveHint"], false);

    let delete = tool(&executor, "delete_Product");
    assert_eq!(delete["annotations"]["destructiveHint"], true);
    assert_eq!(
        delete["outputSchema"]["required"],
        json!(["deleted", "sku"])
    );
    assert_eq!(
        tool(&executor, "update_Product")["annotations"]["idempotentHint"],
        true
    );

    let search = tool(&executor, "search_Product");
    let attribute =
        &search["inputSchema"]["properties"]["conditions"]["items"]["properties"]["attribute"];
    assert!(
        attribute["oneOf"]
            .as_array()
            .unwrap()
            .contains(&json!({"const": "price_cents", "description": "Price in cents."}))
    );
    assert_eq!(search["outputSchema"]["type"], "object");
}

#[tokio::test]
async fn calls_by_name_reach_the_store() {
    let executor = executor();
    let created = executor
        .call("create_Product", json!({"sku": "MUG-1", "name": "Blue mug", "price_cents": 800, "supplier_note": "fragile"}))
        .await
        .unwrap();
    assert_eq!(created["created_at"], "2026-11-30T12:00:00Z");
    assert!(
        created.get("supplier_note").is_none(),
        "write-only fields are never returned"
    );

    let got = executor
        .call("get_Product", json!({"sku": "MUG-1"}))
        .await
        .unwrap();
    assert_eq!(got["name"], "Blue mug");

    let patched = executor
        .call("patch_Product", json!({"sku": "MUG-1", "price_cents": 900}))
        .await
        .unwrap();
    assert_eq!(
        (patched["price_cents"].as_u64(), patched["name"].as_str()),
        (Some(900), Some("Blue mug"))
    );

    let found = executor
        .call(
            "search_Product",
            json!({"conditions": [{"attribute": "price_cents", "operator": "ge", "value": 900}]}),
        )
        .await
        .unwrap();
    assert_eq!(found["records"].as_array().unwrap().len(), 1);

    let deleted = executor
        .call("delete_Product", json!({"sku": "MUG-1"}))
        .await
        .unwrap();
    assert_eq!(deleted, json!({"deleted": true, "sku": "MUG-1"}));

    match executor.call("get_Product", json!({"sku": "MUG-1"})).await {
        Err(Error::Resource { error, .. }) => assert_eq!(error.message, "no product `MUG-1`"),
        other => panic!("expected not found, got {other:?}"),
    }
}

#[tokio::test]
async fn wrong_arguments_name_the_field() {
    let executor = executor();
    let cases = [
        (
            "create_Product",
            json!({"sku": "A", "name": "x", "price_cents": -1}),
            "price_cents",
        ),
        (
            "create_Product",
            json!({"sku": "A", "name": "x", "price_cents": 1, "created_at": "now"}),
            "created_at",
        ),
        ("get_Product", json!({}), "missing field `sku`"),
        (
            "get_Product",
            json!({"sku": "A", "extra": 1}),
            "unknown field `extra`",
        ),
        (
            "search_Product",
            json!({"conditions": [{"attribute": "colour", "operator": "eq", "value": 1}]}),
            "`colour` is not a property of Product",
        ),
        (
            "update_Product",
            json!({"sku": "A", "name": "x", "price_cents": 1}),
            "declared but not implemented",
        ),
    ];
    for (name, args, expected) in cases {
        let err = executor.call(name, args).await.unwrap_err().to_string();
        assert!(err.contains(expected), "{name}: {err}");
    }
}

/// Resource tools carry IO contracts of the same shape as generated ones: the key
/// identifies the record on the way in and out, so the graph can link them.
#[test]
fn resource_tools_carry_contracts() {
    let executor = executor();
    let catalog = executor.catalog();
    let get = catalog.get("get_Product").unwrap().contract().unwrap();
    let sku = &get["consumes"][0];
    assert_eq!(sku["name"], "sku");
    assert_eq!(sku["required"], true);
    assert_eq!(sku["identifies"], "product.sku");
    let search = catalog.get("search_Product").unwrap().contract().unwrap();
    assert!(
        search["produces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["path"] == "/records/*/sku" && p["identifies"] == "product.sku"),
        "{search}"
    );
    let create = catalog.get("create_Product").unwrap().contract().unwrap();
    assert!(
        create["consumes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.get("identifies").is_none()),
        "a create takes no existing record: {create}"
    );
}
