//! The one intermediate representation. Every source lowers into it; every emitter
//! reads only it. Execution-relevant semantics are first-class fields; whatever has no
//! home here is kept in `meta` as native metadata so nothing is lost silently.

mod schema;

use std::collections::BTreeMap;

use serde_json::Value;

pub use schema::{Direction, Schema, SchemaType};

use crate::diagnostics::Location;

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
    pub auth: Auth,
    pub operations: Vec<Operation>,
    /// Named shared schemas (`$defs`).
    pub definitions: BTreeMap<String, Schema>,
    /// Source-native fields with no IR home (author, tags, trust, rate_limits, `x-`...).
    pub meta: BTreeMap<String, Value>,
    /// Where the API was declared, for diagnostics.
    pub source: Option<Location>,
}

/// How an API authenticates. Only environment variable names; never values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    None,
    Bearer {
        token_env: String,
    },
    ApiKey {
        key_env: String,
        header: Option<String>,
        query: Option<String>,
    },
    Basic {
        username_env: String,
        password_env: String,
    },
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
}

impl Method {
    pub const ALL: [(&'static str, Method); 7] = [
        ("GET", Method::Get),
        ("POST", Method::Post),
        ("PUT", Method::Put),
        ("PATCH", Method::Patch),
        ("DELETE", Method::Delete),
        ("HEAD", Method::Head),
        ("OPTIONS", Method::Options),
    ];

    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| *m)
    }

    pub fn as_str(self) -> &'static str {
        Method::ALL
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("", |(n, _)| n)
    }

    /// Safe methods do not change server state (RFC 9110 §9.2.1).
    pub fn is_safe(self) -> bool {
        matches!(self, Method::Get | Method::Head | Method::Options)
    }
}

/// Where a parameter goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParamLocation {
    Path,
    Query,
    Header,
    Cookie,
    Body,
}

impl ParamLocation {
    pub const ALL: [(&'static str, ParamLocation); 5] = [
        ("path", ParamLocation::Path),
        ("query", ParamLocation::Query),
        ("header", ParamLocation::Header),
        ("cookie", ParamLocation::Cookie),
        ("body", ParamLocation::Body),
    ];
}

/// One operation parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// Name on the wire.
    pub name: String,
    pub location: ParamLocation,
    pub required: bool,
    /// Type, constraints and description of the value.
    pub schema: Schema,
    /// Query arrays/objects: repeat the key (`true`, form style) or comma-join.
    pub explode: bool,
    pub source: Option<Location>,
}

/// How a request body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyEncoding {
    Json,
    Form,
}

/// A response the operation may return.
#[derive(Debug, Clone)]
pub struct Response {
    /// `200`, `2XX`, `default`...
    pub status: String,
    pub description: Option<String>,
    pub schema: Option<Schema>,
}

/// Pagination style of a list operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Pagination {
    pub style: String,
    /// Further settings as given (param names, limits).
    pub settings: BTreeMap<String, Value>,
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
}

/// One operation: what a tool and a client method are made from.
#[derive(Debug, Clone)]
pub struct Operation {
    pub name: String,
    pub kind: Crude,
    pub method: Method,
    /// Path template with `{placeholders}`.
    pub path: String,
    pub description: Option<String>,
    pub params: Vec<Param>,
    pub body: BodyEncoding,
    pub responses: Vec<Response>,
    pub pagination: Option<Pagination>,
    pub supports_fields: bool,
    pub safety: SafetyHints,
    pub meta: BTreeMap<String, Value>,
    pub source: Option<Location>,
}

impl Operation {
    /// The response used for the typed output: the first 2xx one.
    pub fn success_response(&self) -> Option<&Response> {
        self.responses.iter().find(|r| r.status.starts_with('2'))
    }
}
