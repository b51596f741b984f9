//! The code generated from `inputs/` behaves as its names and types promise: the
//! generator's own names kept, source names renamed around them, recursive types
//! readable, nothing the documents said lost from the catalog.

use serde_json::json;
use toolwright_hostile::*;

fn executor(catalog: toolwright::Catalog, api: &str) -> toolwright::Executor {
    // Port 9 (discard) on loopback: nothing listens, so a call that passes validation
    // fails at the transport, which tells validation and sending apart.
    toolwright::Executor::builder(catalog)
        .base_url(api, "http://127.0.0.1:9")
        .build()
        .unwrap()
}

#[tokio::test]
async fn generator_names_win_and_source_names_move_aside() {
    use input_collisions::collisions;
    // A component schema named `Client` or `GetXInput` is renamed, not the generator's.
    let schema = collisions::Client2 {
        id: Some("1".into()),
    };
    let other = collisions::GetXInput2 {
        z: Some("z".into()),
    };
    let input = collisions::GetXInput {
        q: Some("q".into()),
    };
    assert_eq!(
        format!("{schema:?} {other:?} {input:?}"),
        r#"Client2 { id: Some("1") } GetXInput2 { z: Some("z") } GetXInput { q: Some("q") }"#
    );
    // Operations called `new`, `executor`, and pairs whose names fold to one method.
    let client = collisions::Client::new(executor(input_collisions::catalog(), "collisions"));
    let _ = client.executor();
    let methods = (
        collisions::Client::new2,
        collisions::Client::executor2,
        collisions::Client::list_rules,
        collisions::Client::list_rules2,
        collisions::Client::get_x,
        collisions::Client::get_x2,
    );
    let _ = methods;
    let catalog = input_collisions::catalog();
    let names: Vec<&str> = catalog.tools().iter().map(|t| &*t.name).collect();
    assert_eq!(
        names,
        [
            "executor",
            "getX",
            "get_x",
            "listRules",
            "list_rules",
            "new"
        ]
    );
    // By name, `getX` validates against its own input (`q`), not the schema `GetXInput`.
    let executor = executor(input_collisions::catalog(), "collisions");
    let wrong = executor.call("getX", json!({"z": "1"})).await.unwrap_err();
    assert!(
        matches!(&wrong, toolwright::Error::InvalidArguments { message, .. } if message.contains("`z`")),
        "{wrong}"
    );
    let sent = executor.call("getX", json!({"q": "1"})).await.unwrap_err();
    assert!(matches!(sent, toolwright::Error::Transport(_)), "{sent}");
}

#[test]
fn api_modules_never_take_the_entry_file_or_a_crate_name() {
    let _ = input_toolwright::toolwright_api::Client::new;
    let _ = input_std::std_api::Client::ping;
    assert!(input_toolwright::catalog().get("new").is_some());
}

#[test]
fn types_named_like_the_serde_impls_generics_and_locals_read_and_write_their_json() {
    use input_serde_names::serde_names::*;
    let d: D = serde_json::from_value(json!({
        "object": "o", "deserializer": "x", "content": {"map": "m", "value": 1},
        "kind": "self", "extra": 7
    }))
    .unwrap();
    assert_eq!(d.kind, Some(E::Self2));
    assert!(matches!(&d.content, Some(U::S(s)) if s.map == "m" && s.value == 1));
    assert_eq!(d.additional_properties["extra"], 7);
    assert_eq!(
        serde_json::to_value(&d).unwrap(),
        json!({"object": "o", "deserializer": "x", "content": {"map": "m", "value": 1},
               "kind": "self", "extra": 7})
    );
    let e: E = serde_json::from_value(json!("ALL")).unwrap();
    assert_eq!(serde_json::to_value(e).unwrap(), json!("ALL"));
    let wrong = serde_json::from_value::<D>(json!({"object": 1})).unwrap_err();
    assert!(
        wrong
            .to_string()
            .starts_with("field `object`: invalid type"),
        "{wrong}"
    );
    let wrong = serde_json::from_value::<E>(json!("nope")).unwrap_err();
    assert!(
        wrong.to_string().contains("expected one of `Self`, `self`"),
        "{wrong}"
    );
}

#[test]
fn recursive_schemas_are_types_that_read_and_write_their_json() {
    use input_recursive::recursive::*;
    let tree: Tree = serde_json::from_value(json!([[], [[]]])).unwrap();
    assert_eq!(tree.0.len(), 2);
    assert_eq!(serde_json::to_value(&tree).unwrap(), json!([[], [[]]]));
    let map: MapSelf = serde_json::from_value(json!({"a": {"b": {}}})).unwrap();
    assert!(map.0["a"].0.contains_key("b"));
    let pair: ListOfMaps = serde_json::from_value(json!([{"k": [{}]}])).unwrap();
    assert_eq!(serde_json::to_value(&pair).unwrap(), json!([{"k": [{}]}]));
    let node: Node =
        serde_json::from_value(json!({"parent": {"children": [{}]}, "maybe": [[]]})).unwrap();
    assert_eq!(node.parent.unwrap().children.unwrap().len(), 1);
    // Rings of bare references have no shape: any value.
    let ring: Ring1 = json!({"anything": 1});
    let single: Single1 = json!(1);
    let merged: Merged1 = json!("x");
    assert_eq!(
        (ring.is_object(), single.is_number(), merged.is_string()),
        (true, true, true)
    );
}

#[test]
fn response_keys_that_are_no_statuses_stay_metadata() {
    let catalog = input_responses::catalog();
    let tool = catalog.get("getW").unwrap();
    let meta: serde_json::Value = serde_json::from_str(tool.meta.as_deref().unwrap()).unwrap();
    let responses = &meta["toolwright"]["native"]["responses"];
    for key in ["200", "4XX", "4xx", "x-error", "-1", "404'", "{x}"] {
        assert!(
            responses.get(key).is_some(),
            "{key} missing from {responses}"
        );
    }
    // One typed variant for the 4XX range (the first of `4XX`/`4xx`).
    let body = json!({"u": "upper"});
    let error = toolwright::Error::status("getW", 404, "", body, Vec::new());
    assert!(matches!(
        input_responses::responses::GetWError::from_error(&error),
        Some(input_responses::responses::GetWError::Status4XX(_))
    ));
}

#[test]
fn text_rustc_refuses_is_escaped_in_data_and_kept() {
    let catalog = input_bidi::catalog();
    let tool = catalog.get("postBidi").unwrap();
    let schema: serde_json::Value = serde_json::from_str(&tool.input_schema).unwrap();
    assert_eq!(
        schema["properties"]["mode"]["enum"],
        json!(["a\u{202e}\u{2066}b", "plain", "cr\rhere"])
    );
    let value: input_bidi::bidi::PostBidiInputMode =
        serde_json::from_value(json!("a\u{202e}\u{2066}b")).unwrap();
    assert_eq!(
        serde_json::to_value(value).unwrap(),
        json!("a\u{202e}\u{2066}b")
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    assert!(input_bom::catalog().get("getBom").is_some());
}

#[test]
fn numbers_beyond_64_bits_reach_the_catalog_as_floats() {
    let catalog = input_numbers::catalog();
    let schema: serde_json::Value =
        serde_json::from_str(&catalog.get("a").unwrap().input_schema).unwrap();
    assert_eq!(
        schema["properties"]["n"]["maximum"],
        json!(18446744073709551616.0)
    );
}
