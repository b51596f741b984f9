//! The one intermediate representation. Every source lowers into it; every emitter
//! reads only it. Execution-relevant semantics are first-class fields; whatever has no
//! home here is kept in `meta` as native metadata so nothing is lost silently.

pub mod annotations;
mod schema;

use std::collections::BTreeMap;

use serde_json::Value;

pub use schema::{
    Direction, Schema, SchemaType, alias_cycles, exceeds_64_bits, fingerprint, follow, reachable,
    render_root, render_root_compact, unchecked_pattern,
};

use crate::diagnostics::Location;

/// A native metadata value, shared between the operations that carry the same one.
pub type Native = std::sync::Arc<Value>;

/// Native metadata whose values are shared with no other operation's.
pub fn natives(meta: BTreeMap<String, Value>) -> BTreeMap<String, Native> {
    meta.into_iter().map(|(k, v)| (k, Native::new(v))).collect()
}

/// Hands out one shared value for equal native metadata arrays and objects, and for
/// equal parameter and response schemas, as the operations of a document are read (a
/// scalar costs as much shared as not).
#[derive(Debug, Default)]
pub struct Sharing {
    /// By a hash of their JSON text ([`schema::hash_of`]: equal texts, equal hashes);
    /// each confirmed equal before it is handed out. Keyed by the text itself, Microsoft
    /// Graph beta's path items' metadata took ~15 MB while the document was read.
    seen: std::collections::HashMap<u64, Vec<Native>>,
    /// By their [`fingerprint`]; each confirmed equal before it is handed out.
    schemas: std::collections::HashMap<u64, Vec<std::sync::Arc<Schema>>>,
}

impl Sharing {
    /// `meta` with each array or object replaced by an equal one handed out before.
    pub fn share(&mut self, meta: BTreeMap<String, Value>) -> BTreeMap<String, Native> {
        meta.into_iter()
            .map(|(key, value)| {
                let shared = match &value {
                    Value::Array(_) | Value::Object(_) => {
                        let same = self
                            .seen
                            .entry(schema::hash_of(format_args!("{value}")))
                            .or_default();
                        match same.iter().find(|kept| ***kept == value) {
                            Some(kept) => kept.clone(),
                            None => {
                                let kept = Native::new(value);
                                same.push(kept.clone());
                                kept
                            }
                        }
                    }
                    _ => Native::new(value),
                };
                (key, shared)
            })
            .collect()
    }

    /// `schema`, or an equal one handed out before. Equal is equal as `Debug` writes
    /// it (so `-0.0` and `0.0` stay apart): the fingerprints match and the two compare
    /// equal. Microsoft Graph beta's operations repeat their path parameters and
    /// `$select` lists thousands of times; shared, its IR is ~50 MB smaller.
    pub fn schema(&mut self, schema: Schema) -> std::sync::Arc<Schema> {
        let same = self.schemas.entry(fingerprint(&schema)).or_default();
        if let Some(found) = same.iter().find(|s| ***s == schema) {
            return found.clone();
        }
        let shared = std::sync::Arc::new(schema);
        same.push(shared.clone());
        shared
    }
}

/// One API (an adapter file, or later an OpenAPI document).
#[derive(Debug, Clone)]
pub struct Api {
    /// Identity (the adapter's `name`); also the generated module's name.
    pub name: String,
    pub version: String,
    pub description: String,
    /// Long-form documentation (the adapter's Markdown body), for rustdoc.
    pub docs: String,
    pub base_url: String,
    pub schemes: Vec<SecurityScheme>,
    pub operations: Vec<Operation>,
    /// Named shared schemas (`$defs`).
    pub definitions: BTreeMap<String, Schema>,
    /// Source-native fields with no IR home (author, tags, trust, rate_limits, `x-`...).
    pub meta: BTreeMap<String, Value>,
    /// Where the API was declared, for diagnostics.
    pub source: Option<Location>,
    /// A GraphQL API's output types, compact (`O Name field:Type ...`), for checking
    /// a `selection` argument at run time.
    pub graphql_types: Option<String>,
}

/// A GraphQL field called as a tool: the document it sends is `head`, then its
/// selection set (`{ selection <the selection argument> }`, none for a scalar or enum
/// field), then `}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphqlCall {
    /// `query query_repository($owner: String!) { repository(owner: $owner)`.
    pub head: String,
    /// The field's response key in `data`.
    pub field: String,
    /// The default selection set, without braces; empty for a scalar or enum field.
    pub selection: String,
    /// The named type the selection selects from; empty for a scalar or enum field.
    pub returns: String,
    /// The argument that adds fields to the selection; empty when there is none.
    pub selection_argument: String,
}

/// A named way to authenticate. Only environment variable names; never values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityScheme {
    pub name: String,
    pub kind: SchemeKind,
    pub description: Option<String>,
    /// OAuth 2 scopes the scheme declares, with what each grants.
    pub scopes: BTreeMap<String, String>,
}

/// How a scheme's credential goes on a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeKind {
    /// Bearer tokens: HTTP bearer, OAuth 2 and OpenID Connect access tokens.
    Bearer { token_env: String },
    /// OAuth 2 client credentials: a token fetched from `token_url` with the client id
    /// and secret from the environment (or a ready token from `token_env`).
    ClientCredentials {
        token_env: String,
        token_url: String,
        client_id_env: String,
        client_secret_env: String,
    },
    ApiKey {
        key_env: String,
        placement: KeyPlacement,
    },
    Basic {
        username_env: String,
        password_env: String,
    },
}

/// Where an API key goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPlacement {
    Header(String),
    Query(String),
    Cookie(String),
}

/// The CRUDE group of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Crude {
    Create,
    Read,
    Update,
    Delete,
    Execute,
}

impl Crude {
    pub const ALL: [(&'static str, Crude); 5] = [
        ("create", Crude::Create),
        ("read", Crude::Read),
        ("update", Crude::Update),
        ("delete", Crude::Delete),
        ("execute", Crude::Execute),
    ];

    pub fn as_str(self) -> &'static str {
        Crude::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("", |(n, _)| n)
    }
}

/// HTTP method of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
    Head,
    Options,
    /// OpenAPI 3.2's `query`: safe and idempotent, with a body.
    Query,
    /// Another method an OpenAPI 3.2 `additionalOperations` names, as sent (a token,
    /// interned: `Method::parse`).
    Other(&'static str),
}

impl Method {
    pub const ALL: [(&'static str, Method); 8] = [
        ("GET", Method::Get),
        ("POST", Method::Post),
        ("PUT", Method::Put),
        ("PATCH", Method::Patch),
        ("DELETE", Method::Delete),
        ("HEAD", Method::Head),
        ("OPTIONS", Method::Options),
        ("QUERY", Method::Query),
    ];

    /// One of [`Method::ALL`] by its upper-case name.
    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| *m)
    }

    /// Any method by its name as sent (case-sensitive), `None` for a name that is no
    /// RFC 9110 token.
    pub fn named(name: &str) -> Option<Method> {
        Method::parse(name).or_else(|| toolwright_query::method::intern(name).map(Method::Other))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Other(name) => name,
            known => Method::ALL
                .iter()
                .find(|(_, m)| *m == known)
                .map_or("", |(n, _)| n),
        }
    }

    /// Safe methods do not change server state (RFC 9110 §9.2.1; QUERY by its
    /// definition).
    pub fn is_safe(self) -> bool {
        matches!(
            self,
            Method::Get | Method::Head | Method::Options | Method::Query
        )
    }
}

/// Where a parameter goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParamLocation {
    Path,
    Query,
    /// The whole query string as one value (OpenAPI 3.2 `in: querystring`), written in
    /// the parameter's `content_type`.
    QueryString,
    Header,
    Cookie,
    /// One property of an object request body.
    Body,
    /// The whole request body as one argument.
    RequestBody,
}

/// Parameter serialization style (OpenAPI `style`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Form,
    Simple,
    Label,
    Matrix,
    SpaceDelimited,
    PipeDelimited,
    DeepObject,
    /// OpenAPI 3.2, for cookies: pairs joined by `; `, values not percent-encoded.
    Cookie,
}

impl Style {
    pub const ALL: [(&'static str, Style); 8] = [
        ("form", Style::Form),
        ("simple", Style::Simple),
        ("label", Style::Label),
        ("matrix", Style::Matrix),
        ("spaceDelimited", Style::SpaceDelimited),
        ("pipeDelimited", Style::PipeDelimited),
        ("deepObject", Style::DeepObject),
        ("cookie", Style::Cookie),
    ];

    /// OpenAPI's default style for a location.
    pub fn default_for(location: ParamLocation) -> Style {
        match location {
            ParamLocation::Path | ParamLocation::Header => Style::Simple,
            _ => Style::Form,
        }
    }
}

impl ParamLocation {
    pub const ALL: [(&'static str, ParamLocation); 5] = [
        ("path", ParamLocation::Path),
        ("query", ParamLocation::Query),
        ("header", ParamLocation::Header),
        ("cookie", ParamLocation::Cookie),
        ("body", ParamLocation::Body),
    ];

    /// The location's name (`requestBody` for the whole body).
    pub fn as_str(self) -> &'static str {
        if self == ParamLocation::QueryString {
            return "querystring";
        }
        ParamLocation::ALL
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("requestBody", |(n, _)| n)
    }
}

/// One operation parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// Name on the wire.
    pub name: String,
    /// Argument name in the tool input and Rust field source: the wire name, or a
    /// mapped one when the wire name is not safe for LLM providers (`filter[id]`).
    pub field: String,
    pub location: ParamLocation,
    pub required: bool,
    /// Type, constraints and description of the value: shared with the parameters
    /// that have an equal one (Microsoft Graph beta's 89,188 parameters have 3,116
    /// distinct ones as written; see [`Sharing::schema`]). Changed through
    /// [`Arc::make_mut`](std::sync::Arc::make_mut), which copies a shared one.
    pub schema: std::sync::Arc<Schema>,
    pub style: Style,
    /// Arrays/objects: one pair per item (`true`) or one joined value.
    pub explode: bool,
    pub allow_reserved: bool,
    /// The media type the value is written in, when it is not the location's plain
    /// text: content-based parameters (`content: {application/json: ...}`) and
    /// multipart parts (`encoding.contentType`, or the OpenAPI default by type).
    pub content_type: Option<String>,
    pub source: Option<Location>,
}

/// How a request body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyEncoding {
    Json,
    Form,
    Multipart,
    Binary,
    Text,
}

/// A response the operation may return.
#[derive(Debug, Clone)]
pub struct Response {
    /// `200`, `2XX`, `default`...
    pub status: String,
    pub description: Option<String>,
    /// Shared with the responses that have an equal one, as a parameter's is.
    pub schema: Option<std::sync::Arc<Schema>>,
    /// The body is described as JSON (a `*json` media type): a body that does not
    /// parse is an error, not a string.
    pub json: bool,
    /// What the body is on the wire, for typed code (a JSON value, text, bytes, or a
    /// stream of events or lines).
    pub body: ResponseBody,
    /// An event's data or a line's value (`Events`, `JsonLines`), when described.
    /// Boxed: most responses have none, and a schema takes 288 bytes in place.
    pub item: Option<Box<Schema>>,
}

/// A response body's form, from its media type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ResponseBody {
    /// JSON, or nothing described.
    #[default]
    Json,
    /// Text (`text/*`, XML, CSV, YAML): a string.
    Text,
    /// Bytes (`application/octet-stream`, images, audio, PDF...).
    Binary,
    /// `text/event-stream`: server-sent events, their data described by `schema`
    /// (the media type's `itemSchema`, else its `schema`) when it is not a string.
    Events,
    /// `application/x-ndjson`, `application/jsonl`, `application/json-seq`: one JSON
    /// value per line, each described by `schema`.
    JsonLines,
}

/// How a list operation pages. The runtime (`toolwright::paginate`) reads `style` and
/// `settings` from the tool's metadata; input parameters are named by their field.
#[derive(Debug, Clone, PartialEq)]
pub struct Pagination {
    /// `cursor`, `token`, `offset`, `page` or `link_header`.
    pub style: String,
    /// The style's settings ([`Pagination::settings_of`]); anything else the source
    /// gave is kept too.
    pub settings: BTreeMap<String, Value>,
}

impl Pagination {
    pub const STYLES: &'static [&'static str] =
        &["none", "offset", "cursor", "page", "link_header", "token"];

    /// The settings a style takes: which parameter carries the position, where the
    /// next cursor and the items are in the response, whether more pages follow.
    pub fn settings_of(style: &str) -> &'static [&'static str] {
        match style {
            "cursor" | "token" => &[
                "cursor_param",
                "next_cursor",
                "cursor_from_item",
                "has_more",
                "items",
                "limit_param",
            ],
            "offset" => &["offset_param", "limit_param", "has_more", "items"],
            "page" => &["page_param", "start", "limit_param", "has_more", "items"],
            "link_header" => &["limit_param", "items"],
            _ => &[],
        }
    }

    /// The setting naming the parameter that sets a page's size, and its
    /// conventional name, for the styles whose pages are counted out by the caller.
    pub fn limit_param(style: &str) -> Option<(&'static str, &'static str)> {
        match style {
            "offset" => Some(("limit_param", "limit")),
            "page" => Some(("limit_param", "per_page")),
            _ => None,
        }
    }

    /// The setting naming the parameter that carries the position, and its default.
    pub fn position_param(style: &str) -> Option<(&'static str, &'static str)> {
        match style {
            "cursor" | "token" => Some(("cursor_param", "cursor")),
            "offset" => Some(("offset_param", "offset")),
            "page" => Some(("page_param", "page")),
            _ => None,
        }
    }
}

/// How risky an operation is, as declared by the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DangerLevel {
    Safe,
    Reversible,
    Destructive,
    Dangerous,
    Forbidden,
}

impl DangerLevel {
    pub const ALL: [(&'static str, DangerLevel); 5] = [
        ("safe", DangerLevel::Safe),
        ("reversible", DangerLevel::Reversible),
        ("destructive", DangerLevel::Destructive),
        ("dangerous", DangerLevel::Dangerous),
        ("forbidden", DangerLevel::Forbidden),
    ];

    pub fn as_str(self) -> &'static str {
        DangerLevel::ALL
            .iter()
            .find(|(_, d)| *d == self)
            .map_or("", |(n, _)| n)
    }
}

/// Behaviour hints declared by the source; annotations derive from these.
#[derive(Debug, Clone, Default)]
pub struct SafetyHints {
    pub danger_level: Option<DangerLevel>,
    pub requires_confirmation: bool,
    /// `Some(true)`: declared not idempotent; `Some(false)`: declared idempotent.
    pub non_idempotent: Option<bool>,
    /// Declared read-only or not (an MCP tool's `readOnlyHint`); else derived.
    pub read_only: Option<bool>,
    /// Declared as reaching an open world or not (an MCP tool's `openWorldHint`);
    /// else true (remote APIs).
    pub open_world: Option<bool>,
}

/// How a description made only of the request body's description begins: the source
/// said nothing of the operation itself, so the catalog leads with a composed sentence.
pub const BODY_DESCRIPTION_LEAD: &str = "Request body: ";

/// One operation: what a tool and a client method are made from.
#[derive(Debug, Clone)]
pub struct Operation {
    pub name: String,
    pub kind: Crude,
    pub method: Method,
    /// Path template with `{placeholders}`.
    pub path: String,
    /// The source's one-line name for what the operation does (OpenAPI's `summary`):
    /// the tool's title when it reads as one.
    pub summary: Option<String>,
    pub description: Option<String>,
    pub params: Vec<Param>,
    pub body: BodyEncoding,
    /// Media type sent with the body.
    pub content_type: String,
    /// The body must be sent even when no body argument is given (then as `{}`, or
    /// the media type's empty form).
    pub body_required: bool,
    /// Ways to authenticate (scheme names that apply together), tried in order;
    /// empty: none. An empty inner list allows anonymous calls.
    pub security: Vec<Vec<String>>,
    pub responses: Vec<Response>,
    pub pagination: Option<Pagination>,
    pub supports_fields: bool,
    pub safety: SafetyHints,
    /// Keywords of the tool's input schema beyond its properties (e.g.
    /// `dependentRequired` for an optional body whose object requires properties).
    pub input_keywords: BTreeMap<String, Value>,
    /// Source-native fields with no IR home. Each value shared ([`Native`]): many
    /// operations carry the same (Microsoft Graph beta's ~22,000 operations repeat a
    /// few hundred response summaries, and each path item's extensions per method).
    pub meta: BTreeMap<String, Native>,
    pub source: Option<Location>,
    /// A GraphQL field: the document the call posts (its arguments are the
    /// variables).
    pub graphql: Option<GraphqlCall>,
    /// Usage examples (an adapter's `{name}-adapter-examples.md`), checked against the
    /// tool's input schema.
    pub examples: Vec<Example>,
    /// Words or phrases the API's users call the operation by that its own text may
    /// not use (`x-toolwright-aliases`, an adapter operation's `aliases`): search
    /// indexes them with the tool's texts.
    pub aliases: Vec<String>,
    /// Placeholder text the source gave instead of prose (`XXXX`, `TODO`) in the
    /// operation or its parameters, treated as missing: kept for the readiness report,
    /// which names each and where it is.
    pub placeholders: Vec<Placeholder>,
    /// An Arazzo workflow: the tool runs these steps (other tools of the catalog)
    /// instead of sending a request of its own.
    pub workflow: Option<Workflow>,
}

/// An Arazzo workflow lowered for the executor.
#[derive(Debug, Clone)]
pub struct Workflow {
    /// The steps as the runtime reads them (`toolwright::workflow`'s format).
    pub plan: Value,
    /// Derived from the steps' tools: read-only when all are, destructive when any is,
    /// idempotent when all are.
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
}

/// Text standing in for prose (`XXXXXXXX`, `TODO`), which was treated as missing.
#[derive(Debug, Clone)]
pub struct Placeholder {
    /// The text as written, trimmed.
    pub text: String,
    pub source: Location,
}

/// A request in words and the arguments a model should send for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub request: String,
    pub arguments: Value,
}

/// Lets go of the source text every location of `apis` holds, keeping where each
/// location is: each file is replaced by one that knows the line and column of every
/// location's start and nothing else ([`crate::diagnostics::SourceFile::without_text`]).
/// For what is made from the APIs once their excerpts are out: a report lets Microsoft
/// Graph beta's 47 MB go before the contracts are made, and its readiness findings
/// still say where each operation is.
pub fn let_go_of_text(apis: &mut [Api]) {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use crate::diagnostics::SourceFile;

    /// Every location of `api`, in turn.
    fn each_location(api: &mut Api, f: &mut impl FnMut(&mut Location)) {
        if let Some(l) = &mut api.source {
            f(l);
        }
        for op in &mut api.operations {
            if let Some(l) = &mut op.source {
                f(l);
            }
            for p in &mut op.placeholders {
                f(&mut p.source);
            }
            for p in &mut op.params {
                if let Some(l) = &mut p.source {
                    f(l);
                }
            }
        }
    }
    // Per file (by address: one file can hold several APIs), the offsets asked for.
    let mut files: BTreeMap<*const SourceFile, (Arc<SourceFile>, Vec<usize>)> = BTreeMap::new();
    for api in apis.iter_mut() {
        each_location(api, &mut |l| {
            files
                .entry(Arc::as_ptr(&l.file))
                .or_insert_with(|| (Arc::clone(&l.file), Vec::new()))
                .1
                .push(l.span.start);
        });
    }
    let detached: BTreeMap<*const SourceFile, Arc<SourceFile>> = files
        .into_iter()
        .map(|(at, (file, offsets))| (at, file.without_text(offsets)))
        .collect();
    for api in apis.iter_mut() {
        each_location(api, &mut |l| {
            if let Some(file) = detached.get(&Arc::as_ptr(&l.file)) {
                l.file = Arc::clone(file);
            }
        });
    }
}

impl Operation {
    /// The response used for the typed output: the first 2xx one.
    pub fn success_response(&self) -> Option<&Response> {
        self.responses.iter().find(|r| r.status.starts_with('2'))
    }

    /// The native metadata value under `key`.
    pub fn native(&self, key: &str) -> Option<&Value> {
        self.meta.get(key).map(|v| &**v)
    }

    /// The source's tags (OpenAPI `tags`, kept in the native metadata).
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.native("tags")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every location's `path:line:col`, in order.
    fn places(api: &Api) -> Vec<String> {
        let mut out: Vec<String> = api.source.iter().map(Location::display).collect();
        for op in &api.operations {
            out.extend(op.source.iter().map(Location::display));
            out.extend(op.placeholders.iter().map(|p| p.source.display()));
            out.extend(
                op.params
                    .iter()
                    .flat_map(|p| p.source.iter().map(Location::display)),
            );
        }
        out
    }

    #[test]
    fn letting_go_of_the_text_keeps_every_place() {
        let text = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /things/{id}:\n    get:\n      operationId: getThing\n      description: TODO\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n        - {name: q, in: query, description: 'é TBD', schema: {type: string}}\n      responses:\n        '200': {description: ok}\n";
        let mut apis = crate::analyze_text("things.yaml", text, false).apis;
        let before = places(&apis[0]);
        // The file, and the placeholder `TODO` (line 7, column 7).
        assert!(before.contains(&"things.yaml:7:7".to_owned()), "{before:?}");
        let file = std::sync::Arc::clone(&apis[0].source.as_ref().unwrap().file);
        let_go_of_text(&mut apis);
        assert_eq!(places(&apis[0]), before);
        // The text went (only this test's handle holds it still).
        assert_eq!(std::sync::Arc::strong_count(&file), 1);
        assert!(apis[0].source.as_ref().unwrap().file.text.is_empty());
    }

    #[test]
    fn equal_schemas_are_shared_and_any_difference_keeps_them_apart() {
        let mut sharing = Sharing::default();
        let with = |minimum: Value, description: &str| {
            let mut s = Schema::of(SchemaType::Number);
            s.minimum = Some(Box::new(minimum));
            s.description = Some(description.to_owned());
            s
        };
        let first = sharing.schema(with(Value::from(0.0), "a"));
        let again = sharing.schema(with(Value::from(0.0), "a"));
        assert!(std::sync::Arc::ptr_eq(&first, &again));
        // `==` holds these equal; as written they are not.
        let negative = sharing.schema(with(Value::from(-0.0), "a"));
        assert!(!std::sync::Arc::ptr_eq(&first, &negative));
        assert_eq!(
            negative
                .minimum
                .as_deref()
                .map(ToString::to_string)
                .as_deref(),
            Some("-0.0")
        );
        let other = sharing.schema(with(Value::from(0.0), "b"));
        assert!(!std::sync::Arc::ptr_eq(&first, &other));
    }
}
