//! What one operation consumes (its inputs, credentials included) and produces (the
//! leaves of its success response), read from the IR. Shared schemas are walked once
//! per definition and reused by reference (a memo of each definition's leaves), never
//! inlined, so a spec whose schemas share and nest deeply (Stripe) costs what its
//! definitions cost, not what their expansion would.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::keys::Shape;
use super::words;
use crate::ir::{self, ParamLocation, Schema, SchemaType};

/// Object levels walked below an item's root (`/data/*/owner/login` is two).
const MAX_DEPTH: usize = 2;
/// Leaves kept per operation.
const MAX_LEAVES: usize = 200;

/// One input of an operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Consumed {
    /// The argument (or credential) name.
    pub name: String,
    /// JSON pointer into the tool's arguments (`/title`, `/meta/source`).
    pub path: String,
    /// `path`, `query`, `header`, `cookie` or `body`.
    pub location: &'static str,
    pub required: bool,
    /// `data` (the user or another tool supplies it), `context` (the service does:
    /// tenant, site) or `auth` (credentials).
    pub kind: &'static str,
    pub field_type: &'static str,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Vec<Value>>,
    /// `identifier`, `paging`, `search`, … when the field plays a generic role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic_tag: Option<&'static str>,
    /// The (resource, key) this input identifies, when it identifies one:
    /// `issue_number` in `/issues/{issue_number}` is `issue.number`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifies: Option<String>,
    /// Its format and pattern, for choosing the field of an item it takes.
    #[serde(skip)]
    pub shape: Shape,
}

/// One leaf of an operation's success response.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Produced {
    /// Shared (`Arc`) with the other operations that reach the same definition: each
    /// is a copy of the definition's leaves under its own path (Microsoft Graph beta's
    /// ~22,000 operations reach a few thousand definitions).
    pub name: Arc<str>,
    /// JSON pointer into the response body; `*` for every array item.
    pub path: Arc<str>,
    pub field_type: &'static str,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Arc<[Value]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic_tag: Option<&'static str>,
    /// The resource the leaf belongs to (its shared schema's name, or the path's noun).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<Arc<str>>,
    /// The (resource, key) this leaf is the identity of (`Issue.number`), or refers to
    /// (`Order.petId` is `pet.id`: see `reference`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifies: Option<Arc<str>>,
    /// `identifies` names another resource than the leaf's own (a foreign key).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
    /// The leaf sits on the response's own resource (the object, or each item of its
    /// list), not inside one of its parts: a reference there to an input's resource
    /// is that input echoed back (`channels[].service_sid` of a service's channels).
    #[serde(skip)]
    pub direct: bool,
    /// Its format and pattern (see [`Consumed::shape`]).
    #[serde(skip)]
    pub shape: Shape,
}

/// The API's nouns: its path segments, schema names and the nouns of its `noun_id`
/// fields — what a word such as `txid` is read against.
pub fn nouns(api: &ir::Api) -> BTreeSet<String> {
    let mut nouns = BTreeSet::new();
    for op in &api.operations {
        for segment in op
            .path
            .split('/')
            .filter(|s| !s.is_empty() && !s.starts_with('{'))
        {
            nouns.insert(words::singular(&words::snake(segment)));
        }
        for p in &op.params {
            nouns.extend(noun_of_key(&p.field));
        }
    }
    for (name, schema) in &api.definitions {
        nouns.insert(words::schema_noun(name));
        for (property, _) in &schema.properties {
            nouns.extend(noun_of_key(property));
        }
    }
    nouns.retain(|n| n.len() >= 2);
    nouns
}

/// `token_id` → `token`.
fn noun_of_key(field: &str) -> Option<String> {
    let identity = words::reference_identity(field, &BTreeSet::new())?;
    let (noun, _) = words::split_identity(&identity)?;
    Some(noun.rsplit('_').next().unwrap_or(noun).to_owned())
}

/// Names the service gives for fields with a role the engine cannot guess.
#[derive(Debug, Clone, Default)]
pub struct FieldRoles {
    pub context: Vec<String>,
    pub auth: Vec<String>,
    pub paging: Vec<String>,
    pub search: Vec<String>,
}

const PAGING: &[&str] = &[
    "page",
    "per_page",
    "page_size",
    "pagesize",
    "limit",
    "offset",
    "cursor",
    "starting_after",
    "ending_before",
    "after",
    "before",
    "page_token",
    "pagetoken",
    "continue",
    "marker",
    "skip",
    "size",
];
const SEARCH: &[&str] = &[
    "q", "query", "search", "keyword", "keywords", "filter", "filters", "term", "text",
];

/// What `op` consumes.
pub fn consumes(
    api: &ir::Api,
    op: &ir::Operation,
    roles: &FieldRoles,
    nouns: &BTreeSet<String>,
) -> Vec<Consumed> {
    let mut out = Vec::new();
    for p in &op.params {
        let named = |set: &[String]| set.iter().any(|n| n == &p.name || n == &p.field);
        let location = match p.location {
            ParamLocation::Path => "path",
            ParamLocation::Query | ParamLocation::QueryString => "query",
            ParamLocation::Header => "header",
            ParamLocation::Cookie => "cookie",
            ParamLocation::Body | ParamLocation::RequestBody => "body",
        };
        let kind = if named(&roles.auth) || is_credential_header(p) {
            "auth"
        } else if named(&roles.context) {
            "context"
        } else {
            "data"
        };
        let lower = p.name.to_ascii_lowercase();
        let paged = op.pagination.as_ref().is_some_and(|pg| {
            pg.settings
                .values()
                .any(|v| v.as_str() == Some(p.field.as_str()))
        });
        let path_noun = (p.location == ParamLocation::Path)
            .then(|| words::path_noun(&op.path, Some(&p.name)))
            .flatten();
        let schema = ir::follow(&p.schema, &api.definitions);
        let identifies = words::consumer_identity(&p.field, path_noun.as_deref(), nouns)
            .or_else(|| keys_listed(op, &p.field, schema, api, nouns));
        let semantic_tag = if paged || named(&roles.paging) || PAGING.contains(&lower.as_str()) {
            Some("paging")
        } else if named(&roles.search) || SEARCH.contains(&lower.as_str()) {
            Some("search")
        } else if identifies.is_some() || p.location == ParamLocation::Path {
            Some("identifier")
        } else {
            None
        };
        out.push(Consumed {
            name: p.field.clone(),
            path: format!("/{}", pointer_escape(&p.field)),
            location,
            required: p.required,
            kind,
            field_type: type_name(schema, &api.definitions),
            enum_values: enums(schema),
            semantic_tag,
            identifies,
            shape: Shape::of(schema),
        });
        let body = matches!(p.location, ParamLocation::Body | ParamLocation::RequestBody);
        let input = Input {
            location,
            kind,
            required: p.required,
        };
        if body {
            keys_of_items(
                api,
                &input,
                &p.field,
                &pointer_escape(&p.field),
                schema,
                nouns,
                &mut out,
            );
        }
        // One level into an object body property: `meta.source` is an input too.
        if body && schema.ty == SchemaType::Object {
            for (name, sub) in &schema.properties {
                let sub = ir::follow(sub, &api.definitions);
                if sub.ty == SchemaType::Object || out.len() >= MAX_LEAVES {
                    continue;
                }
                let at = format!("{}/{}", pointer_escape(&p.field), pointer_escape(name));
                let within = Input {
                    required: p.required && schema.required.contains(name),
                    ..input
                };
                keys_of_items(api, &within, name, &at, sub, nouns, &mut out);
                out.push(Consumed {
                    name: name.clone(),
                    path: format!("/{}/{}", pointer_escape(&p.field), pointer_escape(name)),
                    location,
                    required: p.required && schema.required.contains(name),
                    kind,
                    field_type: type_name(sub, &api.definitions),
                    enum_values: enums(sub),
                    semantic_tag: None,
                    identifies: None,
                    shape: Shape::of(sub),
                });
            }
        }
    }
    // Credentials come first from the security schemes, whatever the parameters say.
    let anonymous = op.security.is_empty() || op.security.iter().any(Vec::is_empty);
    let mut seen = Vec::new();
    for name in op.security.iter().flatten() {
        let Some(scheme) = api.schemes.iter().find(|s| &s.name == name) else {
            continue;
        };
        let (name, location) = match &scheme.kind {
            ir::SchemeKind::ApiKey { placement, .. } => match placement {
                ir::KeyPlacement::Header(n) => (n.clone(), "header"),
                ir::KeyPlacement::Query(n) => (n.clone(), "query"),
                ir::KeyPlacement::Cookie(n) => (n.clone(), "cookie"),
            },
            _ => ("Authorization".to_owned(), "header"),
        };
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        out.retain(|c| !(c.name.eq_ignore_ascii_case(&name) && c.location == location));
        out.push(Consumed {
            path: format!("/{}", pointer_escape(&name)),
            name,
            location,
            required: !anonymous,
            kind: "auth",
            field_type: "string",
            enum_values: None,
            semantic_tag: None,
            identifies: None,
            shape: Shape::default(),
        });
    }
    // Kept for the whole build, like the leaves produced.
    out.shrink_to_fit();
    out
}

/// Where an input goes and whose it is, passed down to the keys inside it.
#[derive(Clone, Copy)]
struct Input {
    location: &'static str,
    kind: &'static str,
    required: bool,
}

/// The identity a list of keys takes one of: `history_item_ids` → `history_item.id`,
/// `ids` in `POST /tokens/revoke` → `token.id`, `digests` → `digest.digest`.
fn keys_listed(
    op: &ir::Operation,
    field: &str,
    schema: &Schema,
    api: &ir::Api,
    nouns: &BTreeSet<String>,
) -> Option<String> {
    let item = ir::follow(schema.items.as_deref()?, &api.definitions);
    if schema.ty != SchemaType::Array || !scalar(item) {
        return None;
    }
    let one = words::one_key(&words::snake(field))?;
    let noun = collection_noun(&op.path);
    words::consumer_identity(&one, noun.as_deref(), nouns)
}

/// The noun of the items a path acts on: `/containers/{c}/items/delete` → `item` (a
/// verb at its end names no resource).
fn collection_noun(path: &str) -> Option<String> {
    let trimmed = path.trim_end_matches('/');
    let last = trimmed.rsplit('/').next().unwrap_or_default();
    let verb = !last.starts_with('{') && VERBS.contains(&words::snake(last).as_str());
    let path = if verb {
        trimmed.rsplit_once('/').map_or("", |(head, _)| head)
    } else {
        trimmed
    };
    words::path_noun(path, None)
}

/// Last path segments that say what is done, not to what.
const VERBS: &[&str] = &[
    "delete", "remove", "archive", "restore", "move", "copy", "download", "export", "revoke",
    "cancel", "close", "open", "lock", "unlock", "publish", "retry",
];

fn scalar(schema: &Schema) -> bool {
    matches!(
        schema.ty,
        SchemaType::String | SchemaType::Integer | SchemaType::Number
    ) && schema.enum_values.is_empty()
}

/// The keys inside the items of a body list of references (`manifests: [{digest}]`):
/// `manifests[].digest` (at `/manifests/*/digest`) takes a digest.
fn keys_of_items(
    api: &ir::Api,
    input: &Input,
    name: &str,
    at: &str,
    schema: &Schema,
    nouns: &BTreeSet<String>,
    out: &mut Vec<Consumed>,
) {
    if schema.ty != SchemaType::Array {
        return;
    }
    let Some(item) = schema
        .items
        .as_deref()
        .map(|i| ir::follow(i, &api.definitions))
    else {
        return;
    };
    let noun = words::singular(&words::snake(name));
    // Only items that are references (`{digest}`, `{type, id}`): an item with data of
    // its own (`{address, amount}`, a tag's `{id, name}`) is written by the caller.
    let reference = item.properties.iter().all(|(field, sub)| {
        let sub = ir::follow(sub, &api.definitions);
        !sub.enum_values.is_empty()
            || scalar(sub) && words::consumer_identity(field, Some(&noun), nouns).is_some()
    });
    if !reference {
        return;
    }
    for (field, sub) in &item.properties {
        let sub = ir::follow(sub, &api.definitions);
        if !scalar(sub) || out.len() >= MAX_LEAVES {
            continue;
        }
        let Some(identity) = words::consumer_identity(field, Some(&noun), nouns) else {
            continue;
        };
        out.push(Consumed {
            name: format!("{name}[].{field}"),
            path: format!("/{at}/*/{}", pointer_escape(field)),
            location: input.location,
            required: input.required && item.required.contains(field),
            kind: input.kind,
            field_type: type_name(sub, &api.definitions),
            enum_values: None,
            semantic_tag: Some("identifier"),
            identifies: Some(identity),
            shape: Shape::of(sub),
        });
    }
}

/// A header parameter that carries credentials though no security scheme says so
/// (`xi-api-key`, `X-Auth-Token`): the caller's own secret, never another tool's output.
fn is_credential_header(p: &ir::Param) -> bool {
    let name = p.name.to_ascii_lowercase().replace(['-', '_'], "");
    p.location == ParamLocation::Header
        && ["apikey", "token", "secret", "authorization", "password"]
            .iter()
            .any(|word| name.contains(word))
}

/// The operations' lists of inputs or of leaves, each kept once: an operation whose
/// list equals another's shares it (Microsoft Graph beta's 22,361 operations produce
/// 2,150 different lists of leaves).
#[derive(Debug)]
pub struct Shared<T> {
    /// By a hash of what the list says (enum values by count only; lists of the same
    /// hash are then compared whole).
    kept: std::collections::HashMap<u64, Vec<Arc<[T]>>>,
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared {
            kept: Default::default(),
        }
    }
}

/// What [`Shared`] hashes of a list's item, and its enum values (compared as written).
pub trait Fingerprint {
    fn fingerprint(&self, hasher: &mut impl std::hash::Hasher);
    fn enum_values(&self) -> Option<&[Value]>;
}

impl Fingerprint for Produced {
    fn fingerprint(&self, hasher: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.name.hash(hasher);
        self.path.hash(hasher);
        self.field_type.hash(hasher);
        self.enum_values.as_ref().map(|v| v.len()).hash(hasher);
        self.semantic_tag.hash(hasher);
        self.resource.hash(hasher);
        self.identifies.hash(hasher);
        (self.reference, self.direct).hash(hasher);
        self.shape.hash(hasher);
    }

    fn enum_values(&self) -> Option<&[Value]> {
        self.enum_values.as_deref()
    }
}

impl Fingerprint for Consumed {
    fn fingerprint(&self, hasher: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.name.hash(hasher);
        self.path.hash(hasher);
        (self.location, self.required, self.kind).hash(hasher);
        self.field_type.hash(hasher);
        self.enum_values.as_ref().map(Vec::len).hash(hasher);
        self.semantic_tag.hash(hasher);
        self.identifies.hash(hasher);
        self.shape.hash(hasher);
    }

    fn enum_values(&self) -> Option<&[Value]> {
        self.enum_values.as_deref()
    }
}

impl<T: PartialEq + Fingerprint> Shared<T> {
    /// `list` as a shared list: the one kept before when equal, else kept now.
    pub fn intern(&mut self, list: Vec<T>) -> Arc<[T]> {
        use std::hash::Hasher;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        list.iter().for_each(|item| item.fingerprint(&mut hasher));
        let same = self.kept.entry(hasher.finish()).or_default();
        // Equal, and their enum values written alike: `Value`'s equality holds `0.0`
        // and `-0.0` equal, which are written differently.
        let alike = |kept: &[T]| {
            *kept == *list
                && kept.iter().zip(&list).all(|(a, b)| {
                    a.enum_values().map(|v| serde_json::to_string(v).ok())
                        == b.enum_values().map(|v| serde_json::to_string(v).ok())
                })
        };
        if let Some(kept) = same.iter().find(|kept| alike(kept)) {
            return Arc::clone(kept);
        }
        let kept: Arc<[T]> = list.into();
        same.push(Arc::clone(&kept));
        kept
    }
}

/// Each definition's leaves (relative paths), computed once per catalog.
#[derive(Debug, Default)]
pub struct Leaves {
    memo: BTreeMap<(String, usize), Vec<Produced>>,
    /// The API's nouns, which references are read against.
    nouns: BTreeSet<String>,
}

impl Leaves {
    pub fn new(nouns: BTreeSet<String>) -> Self {
        Leaves {
            memo: BTreeMap::new(),
            nouns,
        }
    }

    /// The leaf `name` at `path`, of `schema`'s type, on `resource`; its identity is
    /// read as a key of `owner` (else as a reference).
    fn leaf(
        &self,
        api: &ir::Api,
        name: String,
        path: String,
        schema: &Schema,
        owner: Option<&str>,
        resource: Option<&str>,
    ) -> Produced {
        let (identifies, reference) = self.identity(&name, owner);
        Produced {
            field_type: type_name(schema, &api.definitions),
            enum_values: enums(schema).map(Arc::from),
            semantic_tag: identifies.as_ref().map(|_| "identifier"),
            resource: resource.map(Arc::from),
            identifies: identifies.map(Arc::from),
            reference,
            direct: false,
            shape: Shape::of(schema),
            name: Arc::from(name),
            path: Arc::from(path),
        }
    }

    /// A leaf's identity: its resource's own key, or a reference to another's.
    fn identity(&self, name: &str, resource: Option<&str>) -> (Option<String>, bool) {
        match resource.and_then(|r| words::producer_identity(name, r)) {
            Some(own) => (Some(own), false),
            None => {
                let reference = words::reference_identity(name, &self.nouns);
                let found = reference.is_some();
                (reference, found)
            }
        }
    }
}

/// What `op` produces: its success response's leaves, through envelopes
/// (`{data: [...]}`) down to the items.
pub fn produces(api: &ir::Api, op: &ir::Operation, memo: &mut Leaves) -> Vec<Produced> {
    let Some(schema) = op.success_response().and_then(|r| r.schema.as_deref()) else {
        return Vec::new();
    };
    let noun = words::path_noun(&op.path, None);
    let mut out = Vec::new();
    memo.walk(api, schema, "", 0, noun.as_deref(), &mut out);
    out.truncate(MAX_LEAVES);
    // The response's own resource: where the shallowest own key of the path's noun is
    // (a channel list's `/channels/*`, not its `/meta`), else the shallowest own key,
    // else the top.
    let own = |leaf: &&Produced| leaf.identifies.is_some() && !leaf.reference;
    let of_path_noun = |leaf: &&Produced| {
        let (Some(noun), Some(identity)) = (noun.as_deref(), leaf.identifies.as_deref()) else {
            return false;
        };
        words::split_identity(identity)
            .is_some_and(|(n, key)| words::same_parts((n, key), (noun, key)))
    };
    let shallowest = |leaves: &mut dyn Iterator<Item = &Produced>| {
        leaves
            .map(|leaf| parent(&leaf.path))
            .min_by_key(|p| p.matches('/').count())
            .map(str::to_owned)
    };
    let main = shallowest(&mut out.iter().filter(own).filter(of_path_noun))
        .or_else(|| shallowest(&mut out.iter().filter(own)))
        .unwrap_or_default();
    for leaf in &mut out {
        leaf.direct = parent(&leaf.path) == main;
    }
    // Kept for the whole build: the room left from growing it goes.
    out.shrink_to_fit();
    out
}

/// A pointer's parent: `/channels/*/sid` → `/channels/*`.
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

impl Leaves {
    /// Appends `schema`'s leaves under `prefix`. `resource`: the noun of the object
    /// the leaves belong to, when known.
    fn walk(
        &mut self,
        api: &ir::Api,
        schema: &Schema,
        prefix: &str,
        depth: usize,
        resource: Option<&str>,
        out: &mut Vec<Produced>,
    ) {
        if out.len() >= MAX_LEAVES {
            return;
        }
        if let Some(name) = schema.bare_reference() {
            let key = (name.to_owned(), depth);
            if !self.memo.contains_key(&key) {
                // Placeholder first: a definition that reaches itself stops here.
                self.memo.insert(key.clone(), Vec::new());
                let mut own = Vec::new();
                if let Some(def) = api.definitions.get(name) {
                    let noun = words::schema_noun(name);
                    self.walk(api, def, "", depth, Some(&noun), &mut own);
                }
                self.memo.insert(key.clone(), own);
            }
            for leaf in &self.memo[&key] {
                let mut leaf = leaf.clone();
                // Under no prefix (the response is the definition) the path is shared too.
                if !prefix.is_empty() {
                    leaf.path = format!("{prefix}{}", leaf.path).into();
                }
                out.push(leaf);
            }
            return;
        }
        match schema.ty {
            SchemaType::Array => {
                if let Some(items) = &schema.items {
                    self.walk(api, items, &format!("{prefix}/*"), depth, resource, out);
                }
            }
            SchemaType::Object if !schema.properties.is_empty() => {
                for (name, prop) in &schema.properties {
                    let at = format!("{prefix}/{}", pointer_escape(name));
                    let target = ir::follow(prop, &api.definitions);
                    // A list of plain values (`tx: [txid, ...]`): each item is a leaf,
                    // named for one of them (`addresses` → `address`).
                    if target.ty == SchemaType::Array
                        && let Some(items) = &target.items
                        && let item = ir::follow(items, &api.definitions)
                        && !matches!(item.ty, SchemaType::Object | SchemaType::Array)
                        && items
                            .bare_reference()
                            .is_none_or(|_| item.properties.is_empty())
                    {
                        // Its items are no resource's own key: at most references.
                        let name = words::singular(&words::snake(name));
                        out.push(self.leaf(api, name, format!("{at}/*"), item, None, resource));
                        continue;
                    }
                    let nested = matches!(target.ty, SchemaType::Object | SchemaType::Array)
                        || prop.bare_reference().is_some();
                    if nested {
                        // An envelope (`data`, `items`) keeps the resource; a nested
                        // object (`owner`) is a resource of its own.
                        let envelope = words::is_envelope(name);
                        if envelope {
                            self.walk(api, prop, &at, depth, resource, out);
                        } else if depth < MAX_DEPTH {
                            let noun = words::singular(&words::snake(name));
                            let noun = prop
                                .bare_reference()
                                .map(words::schema_noun)
                                .unwrap_or(noun);
                            self.walk(api, prop, &at, depth + 1, Some(&noun), out);
                        }
                        continue;
                    }
                    out.push(self.leaf(api, name.clone(), at, target, resource, resource));
                }
            }
            _ => {}
        }
    }
}

fn type_name(schema: &Schema, definitions: &BTreeMap<String, Schema>) -> &'static str {
    ir::follow(schema, definitions).ty.as_str().unwrap_or("any")
}

fn enums(schema: &Schema) -> Option<Vec<Value>> {
    (!schema.enum_values.is_empty()).then(|| schema.enum_values.clone())
}

/// RFC 6901 escaping of one pointer segment.
pub fn pointer_escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(path: &str, enum_values: Option<Vec<Value>>) -> Produced {
        Produced {
            name: "state".into(),
            path: path.into(),
            field_type: "number",
            enum_values: enum_values.map(Into::into),
            semantic_tag: None,
            resource: None,
            identifies: None,
            reference: false,
            direct: true,
            shape: Shape::default(),
        }
    }

    #[test]
    fn equal_lists_are_shared_and_others_are_not() {
        let mut shared = Shared::default();
        let first = shared.intern(vec![leaf("/state", None)]);
        let again = shared.intern(vec![leaf("/state", None)]);
        let other = shared.intern(vec![leaf("/status", None)]);
        assert!(Arc::ptr_eq(&first, &again));
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(&*other[0].path, "/status");
    }

    /// `0.0` and `-0.0` are equal values written differently: each list keeps its own.
    #[test]
    fn enum_values_written_differently_are_not_shared() {
        let mut shared = Shared::default();
        let zero = shared.intern(vec![leaf("/state", Some(vec![serde_json::json!(0.0)]))]);
        let negative = shared.intern(vec![leaf("/state", Some(vec![serde_json::json!(-0.0)]))]);
        assert!(!Arc::ptr_eq(&zero, &negative));
        assert_eq!(
            serde_json::to_string(&*negative).unwrap(),
            serde_json::to_string(&[leaf("/state", Some(vec![serde_json::json!(-0.0)]))]).unwrap()
        );
    }
}
