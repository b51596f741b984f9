//! Every supported shape derives and its schema is what serde reads and writes.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use toolwright::ToolSchema;

/// Every integer and float.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Numbers {
    /// i8.
    a: i8,
    /// i16.
    b: i16,
    /// i32.
    c: i32,
    /// i64.
    d: i64,
    /// i128.
    e: i128,
    /// isize.
    f: isize,
    /// u8.
    g: u8,
    /// u16.
    h: u16,
    /// u32.
    i: u32,
    /// u64.
    j: u64,
    /// u128.
    k: u128,
    /// usize.
    l: usize,
    /// f32.
    m: f32,
    /// f64.
    n: f64,
}

/// Strings, containers and pointers (serde needs its `rc` feature for `Rc`/`Arc`, so
/// this type derives only the schema).
#[derive(ToolSchema)]
struct Containers<'a> {
    /// bool.
    flag: bool,
    /// String.
    owned: String,
    /// &str.
    borrowed: &'a str,
    /// char.
    letter: char,
    /// Cow.
    cow: Cow<'a, str>,
    /// Option.
    maybe: Option<u8>,
    /// Vec.
    list: Vec<String>,
    /// VecDeque.
    queue: VecDeque<u8>,
    /// HashSet.
    set: HashSet<String>,
    /// BTreeSet.
    ordered: BTreeSet<i32>,
    /// HashMap.
    map: HashMap<String, f64>,
    /// BTreeMap.
    tree: BTreeMap<String, Vec<u8>>,
    /// Box.
    boxed: Box<Numbers>,
    /// Rc.
    rc: Rc<String>,
    /// Arc.
    arc: Arc<String>,
    /// Tuple.
    pair: (u8, String),
    /// Array.
    rgb: [u8; 3],
    /// Nested, optional.
    nested: Option<Box<Numbers>>,
}

/// A tree: recursion through `$defs`.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Tree {
    /// Label.
    label: String,
    /// Children.
    children: Vec<Tree>,
}

/// Newtype.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Sku(String);

/// Tuple struct.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Point(i32, i32);

/// Unit struct.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Nothing;

/// Transparent.
#[derive(ToolSchema, Serialize, Deserialize)]
#[serde(transparent)]
struct Meters {
    value: f64,
}

/// Generic.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Page<T> {
    /// Items.
    items: Vec<T>,
    /// Cursor.
    next: Option<String>,
}

/// External enum.
#[derive(ToolSchema, Serialize, Deserialize)]
enum External {
    /// Unit.
    A,
    /// Newtype.
    B(u8),
    /// Tuple.
    C(u8, u8),
    /// Struct.
    D {
        /// x.
        x: u8,
    },
}

/// Internal enum.
#[derive(ToolSchema, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Internal {
    /// Unit.
    Empty,
    /// Newtype of a struct.
    Tree(Tree),
    /// Struct.
    Circle {
        /// Radius.
        radius: f64,
    },
}

/// Adjacent enum.
#[derive(ToolSchema, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    /// Unit.
    Off,
    /// Newtype.
    Level(u8),
}

/// Untagged enum.
#[derive(ToolSchema, Serialize, Deserialize)]
#[serde(untagged)]
enum Untagged {
    /// A number.
    Number(f64),
    /// A word.
    Word(String),
}

/// Serde attributes.
#[derive(ToolSchema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Attributes {
    /// Renamed.
    #[serde(rename = "ID")]
    id: u64,
    /// Skipped.
    #[serde(skip)]
    cache: Vec<u8>,
    /// Only read.
    #[serde(skip_serializing)]
    password: String,
    /// Only written.
    #[serde(skip_deserializing)]
    computed: u32,
    /// Defaulted.
    #[serde(default)]
    retries: u8,
    /// Omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    labels: Vec<String>,
    /// Flattened.
    #[serde(flatten)]
    page: Page<String>,
    /// Overrides.
    #[tool(title = "Colour", example = "red", format = "color", allowed = ["red", "green"], min_length = 3, max_length = 5, pattern = "^[a-z]+$")]
    colour: String,
    /// Bounds.
    #[tool(minimum = -5, maximum = 2.5)]
    offset: f32,
}

/// Flattened map.
#[derive(ToolSchema, Serialize, Deserialize)]
struct Extra {
    /// Known.
    known: bool,
    /// The rest.
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

fn main() {
    for schema in [
        Numbers::json_schema(),
        Containers::json_schema(),
        Tree::json_schema(),
        Sku::json_schema(),
        Point::json_schema(),
        Nothing::json_schema(),
        Meters::json_schema(),
        Page::<Tree>::json_schema(),
        External::json_schema(),
        Internal::json_schema(),
        Adjacent::json_schema(),
        Untagged::json_schema(),
        Attributes::json_schema(),
        Extra::json_schema(),
    ] {
        assert!(schema.is_object());
    }
}
