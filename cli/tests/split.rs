//! Features by tag (`generate --features-by-tag`, `Config::features_by_tag`): a crate
//! compiles the methods and types of the tags it enables, and only those — checked by
//! compiling a crate with cargo, feature by feature. An error enum two tags' operations
//! share goes with both tags.

use std::path::{Path, PathBuf};
use std::process::Command;

const SPEC: &str = r##"
openapi: 3.0.3
info: {title: Petstore, version: "1"}
servers: [{url: "https://pets.example.com"}]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
        "404": {description: no pets, content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
  /stores:
    get:
      operationId: listStores
      tags: [stores, admin]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Store"}}}}}
        "404": {description: no stores, content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
  /health:
    get:
      operationId: health
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Status"}}}}
components:
  schemas:
    Pet: {type: object, required: [name], properties: {name: {type: string}, owner: {$ref: "#/components/schemas/Owner"}}}
    Store: {type: object, properties: {owner: {$ref: "#/components/schemas/Owner"}}}
    Owner: {type: object, properties: {id: {type: integer}}}
    Status: {type: object, properties: {ok: {type: boolean}}}
    Problem: {type: object, properties: {title: {type: string}}}
"##;

/// The user's code: the untagged operation always, the `pets` one when enabled.
const LIB: &str = r#"#![deny(warnings)]
pub mod api {
    include!(concat!(env!("CARGO_MANIFEST_DIR"), "/generated/toolwright.rs"));
}
use api::petstore::Client;

pub async fn healthy(client: &Client) -> bool {
    client.health(&Default::default()).await.is_ok_and(|s| s.ok == Some(true))
}

#[cfg(feature = "petstore-pets")]
pub async fn pet_names(client: &Client) -> Vec<String> {
    let pets = client.list_pets(&Default::default()).await.unwrap_or_default();
    pets.into_iter().map(|p| p.name).collect()
}

#[cfg(feature = "petstore-pets")]
pub fn owner(pet: &api::petstore::Pet) -> Option<i64> {
    pet.owner.as_ref().and_then(|o| o.id)
}

#[cfg(feature = "petstore-pets")]
pub fn no_pets(error: &toolwright::Error) -> Option<String> {
    match api::petstore::ListPetsError::from_error(error)? {
        api::petstore::ListPetsError::Status404(problem) => problem.title,
    }
}
"#;

fn cargo_check(dir: &Path, lib: &str, features: &[&str]) -> (bool, String) {
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["check", "--quiet", "--message-format", "short"])
        .current_dir(dir)
        // Shares the runtime's dependencies with the mutation test's crate.
        .env("CARGO_TARGET_DIR", target.join("mutants"));
    if !features.is_empty() {
        cmd.args(["--features", &features.join(",")]);
    }
    let out = cmd.output().expect("run cargo check");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_crate_compiles_the_tags_it_enables_and_only_those() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("split");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("petstore.yaml"), SPEC).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["generate", "--features-by-tag", "--out"])
        .arg(dir.join("generated"))
        .arg(dir.join("petstore.yaml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // What is gated, and by what: a type goes with every tag that uses it.
    let code = std::fs::read_to_string(dir.join("generated/petstore.rs")).unwrap();
    let gate_of = |ty: &str| -> Option<String> {
        let at = code
            .find(&format!("pub struct {ty} "))
            .or_else(|| code.find(&format!("pub enum {ty} ")))?;
        let module_start = code[..at].rfind("mod tagged")?;
        // The type is inside a gated module when no module ended in between.
        if code[module_start..at].contains("\n}\n") {
            return None;
        }
        let cfg = code[..module_start].rfind("#[cfg(")?;
        let attribute: String = code[cfg..module_start]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        Some(attribute[..=attribute.find(")]")? + 1].to_owned())
    };
    assert_eq!(
        gate_of("Pet").as_deref(),
        Some(r#"#[cfg(any(feature="petstore-pets"))]"#)
    );
    assert_eq!(
        gate_of("Store").as_deref(),
        Some(r#"#[cfg(any(feature="petstore-admin",feature="petstore-stores"))]"#)
    );
    assert_eq!(
        gate_of("Owner").as_deref(),
        Some(
            r#"#[cfg(any(feature="petstore-admin",feature="petstore-pets",feature="petstore-stores"))]"#
        )
    );
    assert_eq!(gate_of("Status"), None, "used by an untagged operation");
    // Both list operations document a 404 with a `Problem`: one enum, their error
    // types aliases of it, compiled with either tag.
    assert!(
        code.contains("pub type ListPetsError = Status404Error;")
            && code.contains("pub type ListStoresError = Status404Error;"),
        "{code}"
    );
    assert_eq!(
        gate_of("Status404Error").as_deref(),
        Some(
            r#"#[cfg(any(feature="petstore-admin",feature="petstore-pets",feature="petstore-stores"))]"#
        )
    );
    assert!(
        code.contains("`petstore-pets`"),
        "the client's docs list the features"
    );

    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"split\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\ntoolwright = {{ path = {:?}, default-features = false }}\n\n\
             [features]\npetstore-pets = []\npetstore-stores = []\npetstore-admin = []\n\n\
             [workspace]\n",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../runtime")
                .display()
                .to_string()
        ),
    )
    .unwrap();

    // No feature: the untagged operation and its types, no warning (dead code,
    // unused imports or unexpected cfgs would fail `deny(warnings)`).
    let (ok, err) = cargo_check(&dir, LIB, &[]);
    assert!(ok, "{err}");
    // `pets` enabled: its method and types are there.
    let (ok, err) = cargo_check(&dir, LIB, &["petstore-pets"]);
    assert!(ok, "{err}");
    // ... and only those: `stores` stays out.
    let stores = format!(
        "{LIB}\npub async fn stores(c: &Client) -> usize {{ c.list_stores(&Default::default()).await.map_or(0, |s| s.len()) }}\n\
         pub fn store(s: &api::petstore::Store) -> bool {{ s.owner.is_some() }}\n"
    );
    let (ok, err) = cargo_check(&dir, &stores, &["petstore-pets"]);
    assert!(!ok, "list_stores compiled without its feature");
    assert!(err.contains("no method named `list_stores`"), "{err}");
    assert!(err.contains("Store"), "{err}");
    // Either of its tags brings it in.
    let (ok, err) = cargo_check(&dir, &stores, &["petstore-pets", "petstore-admin"]);
    assert!(ok, "{err}");
    // Without `pets`, its method is gone.
    let pets_ungated = LIB.replace("#[cfg(feature = \"petstore-pets\")]\n", "");
    let (ok, err) = cargo_check(&dir, &pets_ungated, &["petstore-stores"]);
    assert!(!ok, "list_pets compiled without its feature");
    assert!(err.contains("no method named `list_pets`"), "{err}");
}
