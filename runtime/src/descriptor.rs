//! Operation descriptors: the static tables the executor runs from.
//!
//! Generated code builds these in `static` items (every field borrows `'static` data),
//! and the CLI builds them at run time from the same plan (every field owned). `Cow`
//! lets one type serve both without leaking or copying.

use std::borrow::Cow;

/// Text that is either `'static` (generated code) or owned (loaded at run time).
pub type Text = Cow<'static, str>;

/// One API: where it lives and how calls to it authenticate.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    /// The API's name (the adapter's `name`); tools refer to it.
    pub name: Text,
    /// Default base URL; a service may override it per API on the executor.
    pub base_url: Text,
    /// The ways this API authenticates; operations name the ones they accept.
    /// Credentials are read from the environment at call time.
    pub schemes: Cow<'static, [SecurityScheme]>,
    /// Shared schema definitions, rendered once; tool schemas refer to them as
    /// `#/$defs/<name>` and the catalog adds the ones a tool reaches when exporting.
    pub definitions: Cow<'static, [Definition]>,
    /// Source metadata with no execution meaning (author, tags, trust, rate limits,
    /// unknown fields), as JSON text; kept so that nothing the source said is lost.
    pub meta: Option<Text>,
    /// A GraphQL API's output types, one line each (`O Name field:Type
    /// field(arg,required!):Type ...`, `I` interfaces, `U` unions, `P Name Member ...`
    /// possible types), against which a tool's `selection` argument is checked.
    pub graphql: Option<Text>,
}

impl Api {
    /// The metadata as JSON (`Null` when there is none).
    pub fn meta_json(&self) -> serde_json::Value {
        self.meta
            .as_deref()
            .and_then(|m| serde_json::from_str(m).ok())
            .unwrap_or_default()
    }
}

/// A shared schema, rendered for each direction (inputs leave out read-only
/// properties, outputs write-only ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub name: Text,
    pub input: Text,
    pub output: Text,
}

/// A named authentication scheme. Only environment variable *names* are stored here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityScheme {
    /// The scheme's name (OpenAPI `securitySchemes` key; the adapter's name).
    pub name: Text,
    pub kind: SchemeKind,
}

/// How a scheme puts its credential on a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeKind {
    /// `Authorization: Bearer <token>`, token read from `token_env` (also OAuth 2 and
    /// OpenID Connect access tokens).
    Bearer { token_env: Text },
    /// An API key read from `key_env`, sent in a header, query parameter or cookie.
    ApiKey {
        key_env: Text,
        placement: KeyPlacement,
    },
    /// `Authorization: Basic base64(user:password)`.
    Basic {
        username_env: Text,
        password_env: Text,
    },
    /// OAuth 2 client credentials: `Authorization: Bearer <token>`, the token fetched
    /// from `token_url` with the client id and secret read from `client_id_env` and
    /// `client_secret_env` (scopes, space-separated, from `<token_env>_SCOPES` when
    /// set), cached and refreshed before it expires and once on a 401. A token in
    /// `token_env` is used as is instead, when set.
    ClientCredentials {
        token_env: Text,
        /// The token endpoint; a relative URL resolves against the API's base URL.
        token_url: Text,
        client_id_env: Text,
        client_secret_env: Text,
    },
}

/// Where an API key goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPlacement {
    Header(Text),
    Query(Text),
    Cookie(Text),
}

/// One way to satisfy an operation's security: every named scheme applies at once.
/// An empty list means anonymous access is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub schemes: Cow<'static, [Text]>,
}

/// HTTP method of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
    Head,
    Options,
    /// `QUERY` (OpenAPI 3.2's `query` operations): safe and idempotent, with a body.
    Query,
    /// Any other method an OpenAPI 3.2 `additionalOperations` names (`LINK`, `COPY`),
    /// spelled as it goes on the wire; an RFC 9110 token.
    Other(&'static str),
}

impl Method {
    /// The method's name as it goes on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
            Method::Query => "QUERY",
            Method::Other(name) => name,
        }
    }

    /// Parses a method name as it goes on the wire (case-sensitive: `GET`, `QUERY`,
    /// `LINK`); `None` for a name that is no method token.
    pub fn parse(name: &str) -> Option<Method> {
        Some(match name {
            "GET" => Method::Get,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            "HEAD" => Method::Head,
            "OPTIONS" => Method::Options,
            "QUERY" => Method::Query,
            other => Method::Other(toolwright_query::method::intern(other)?),
        })
    }

    /// Safe methods (RFC 9110 §9.2.1, and QUERY by its definition): reads.
    pub const fn is_safe(self) -> bool {
        matches!(
            self,
            Method::Get | Method::Head | Method::Options | Method::Query
        )
    }
}

/// Where a parameter goes in the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ParamLocation {
    Path,
    Query,
    /// The whole query string as one value (OpenAPI 3.2 `in: querystring`), written
    /// in the parameter's media type (`content_type`).
    QueryString,
    Header,
    Cookie,
    /// One property of an object request body.
    Body,
    /// The whole request body (JSON value, form/multipart object, text, base64 bytes).
    RequestBody,
}

/// OpenAPI parameter serialization style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamStyle {
    Form,
    Simple,
    Label,
    Matrix,
    SpaceDelimited,
    PipeDelimited,
    DeepObject,
    /// OpenAPI 3.2 `style: cookie`: `name=value` pairs joined by `; `, values sent as
    /// they are (no percent-encoding).
    Cookie,
}

/// The JSON type a parameter takes; used to check arguments when no typed input exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
    /// Any JSON value.
    Any,
    /// Bytes, carried in JSON as a base64 string.
    Binary,
}

impl ValueKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            ValueKind::String => "string",
            ValueKind::Integer => "integer",
            ValueKind::Number => "number",
            ValueKind::Boolean => "boolean",
            ValueKind::Array => "array",
            ValueKind::Object => "object",
            ValueKind::Any => "any value",
            ValueKind::Binary => "base64 string",
        }
    }

    /// Whether `value` is of this kind.
    pub fn matches(self, value: &serde_json::Value) -> bool {
        use serde_json::Value as V;
        match self {
            ValueKind::String | ValueKind::Binary => value.is_string(),
            ValueKind::Integer => value.is_i64() || value.is_u64(),
            ValueKind::Number => value.is_number(),
            ValueKind::Boolean => value.is_boolean(),
            ValueKind::Array => matches!(value, V::Array(_)),
            ValueKind::Object => matches!(value, V::Object(_)),
            ValueKind::Any => true,
        }
    }
}

/// One parameter of an operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The argument name in the tool's input (what an LLM sends).
    pub field: Text,
    /// The name on the wire (path placeholder, query key, header name, body property).
    pub wire_name: Text,
    pub location: ParamLocation,
    pub required: bool,
    pub kind: ValueKind,
    pub style: ParamStyle,
    /// Arrays and objects: one pair per item (`true`) or one joined value (`false`).
    pub explode: bool,
    /// Query (and form) values keep RFC 3986 reserved characters unencoded, except
    /// those that would change the URL's structure (`#`, `&`).
    pub allow_reserved: bool,
    /// The media type the value is serialized in: `application/json` for a
    /// content-based parameter (sent as JSON text), or a multipart part's type.
    /// `None`: the location's plain form.
    pub content_type: Option<Text>,
}

impl Param {
    /// A parameter as generated tables write it, in one line: its argument name, wire
    /// name, location, whether it is required, its kind, style and explode; reserved
    /// characters encoded and no media type of its own (see [`Param::reserved`]; a
    /// parameter with a `content_type` is written as a struct literal).
    ///
    /// ```
    /// use toolwright::descriptor::{Param, ParamLocation, ParamStyle, ValueKind};
    /// static PER_PAGE: Param =
    ///     Param::new("per_page", "per_page", ParamLocation::Query, false, ValueKind::Integer, ParamStyle::Form, true);
    /// assert_eq!(PER_PAGE.wire_name, "per_page");
    /// assert!(!PER_PAGE.allow_reserved && PER_PAGE.content_type.is_none());
    /// ```
    pub const fn new(
        field: &'static str,
        wire_name: &'static str,
        location: ParamLocation,
        required: bool,
        kind: ValueKind,
        style: ParamStyle,
        explode: bool,
    ) -> Param {
        Param {
            field: Text::Borrowed(field),
            wire_name: Text::Borrowed(wire_name),
            location,
            required,
            kind,
            style,
            explode,
            allow_reserved: false,
            content_type: None,
        }
    }

    /// This parameter with RFC 3986 reserved characters kept unencoded
    /// (`allowReserved`).
    #[must_use]
    pub const fn reserved(mut self) -> Param {
        self.allow_reserved = true;
        self
    }

    /// A parameter at `location` with the serialization OpenAPI defaults to there
    /// (`form`, exploded, in the query, a cookie and a body; `simple` in a path or a
    /// header; a whole request body or query string unexploded), its wire name its
    /// field name, required only in a path. The per-location constructors below call
    /// this; the modifiers after them state what differs.
    const fn at(field: &'static str, location: ParamLocation, kind: ValueKind) -> Param {
        let (style, explode) = match location {
            ParamLocation::Path | ParamLocation::Header => (ParamStyle::Simple, false),
            ParamLocation::Query | ParamLocation::Cookie | ParamLocation::Body => {
                (ParamStyle::Form, true)
            }
            ParamLocation::QueryString | ParamLocation::RequestBody => (ParamStyle::Form, false),
        };
        Param {
            field: Text::Borrowed(field),
            wire_name: Text::Borrowed(field),
            location,
            required: matches!(location, ParamLocation::Path),
            kind,
            style,
            explode,
            allow_reserved: false,
            content_type: None,
        }
    }

    /// A path placeholder (`{field}`): required, `simple`, not exploded.
    ///
    /// Generated tables write each parameter as one of these constructors and the
    /// modifiers for what differs from its location's defaults:
    ///
    /// ```
    /// use toolwright::descriptor::{Param, ParamLocation, ParamStyle, ValueKind};
    /// static OWNER: Param = Param::path("owner", ValueKind::String);
    /// static PER_PAGE: Param = Param::query("per_page", ValueKind::Integer);
    /// static IDS: Param = Param::query("ids", ValueKind::Array).explode(false).required();
    /// static VERSION: Param =
    ///     Param::header("api_version", ValueKind::String).wire("X-GitHub-Api-Version");
    /// assert!(OWNER.required && OWNER.style == ParamStyle::Simple && !OWNER.explode);
    /// assert!(!PER_PAGE.required && PER_PAGE.style == ParamStyle::Form && PER_PAGE.explode);
    /// assert!(IDS.required && !IDS.explode);
    /// assert_eq!(VERSION.wire_name, "X-GitHub-Api-Version");
    /// assert_eq!(VERSION.location, ParamLocation::Header);
    /// ```
    pub const fn path(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::Path, kind)
    }

    /// A query parameter: optional, `form`, exploded.
    pub const fn query(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::Query, kind)
    }

    /// The whole query string as one value (OpenAPI 3.2 `in: querystring`): optional;
    /// give its media type with [`Param::content_type`].
    pub const fn query_string(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::QueryString, kind)
    }

    /// A header: optional, `simple`, not exploded.
    pub const fn header(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::Header, kind)
    }

    /// A cookie: optional, `form`, exploded.
    pub const fn cookie(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::Cookie, kind)
    }

    /// One property of an object request body: optional, `form`, exploded (what a form
    /// body does with arrays).
    pub const fn body(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::Body, kind)
    }

    /// The whole request body: optional, not exploded.
    pub const fn request_body(field: &'static str, kind: ValueKind) -> Param {
        Param::at(field, ParamLocation::RequestBody, kind)
    }

    /// This parameter required.
    #[must_use]
    pub const fn required(mut self) -> Param {
        self.required = true;
        self
    }

    /// This parameter optional (a path parameter an API description leaves optional).
    #[must_use]
    pub const fn optional(mut self) -> Param {
        self.required = false;
        self
    }

    /// This parameter sent under another name than its argument's.
    ///
    /// Made for tables of borrowed text: the name it replaces is not dropped (a const
    /// fn cannot run a destructor), so an owned one would not be freed.
    #[must_use]
    pub const fn wire(mut self, wire_name: &'static str) -> Param {
        std::mem::forget(std::mem::replace(
            &mut self.wire_name,
            Text::Borrowed(wire_name),
        ));
        self
    }

    /// This parameter in another serialization style than its location's default.
    #[must_use]
    pub const fn style(mut self, style: ParamStyle) -> Param {
        self.style = style;
        self
    }

    /// This parameter's arrays and objects exploded (`true`: one pair per item) or
    /// joined, against its location's default.
    #[must_use]
    pub const fn explode(mut self, explode: bool) -> Param {
        self.explode = explode;
        self
    }

    /// This parameter serialized in a media type of its own (`application/json` for a
    /// content-based parameter, a multipart part's type). Like [`Param::wire`], it
    /// does not drop what it replaces.
    #[must_use]
    pub const fn content_type(mut self, media_type: &'static str) -> Param {
        std::mem::forget(self.content_type.replace(Text::Borrowed(media_type)));
        self
    }
}

/// How the request body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyEncoding {
    /// `application/json` and `*+json`
    Json,
    /// `application/x-www-form-urlencoded`
    Form,
    /// `multipart/form-data`; `Binary` fields become file parts
    Multipart,
    /// Raw bytes from a base64 argument (`application/octet-stream`, images, ...)
    Binary,
    /// Text as is (`text/plain`, XML, CSV, ...)
    Text,
}

impl BodyEncoding {
    /// The encoding a request media type calls for.
    /// The media type to put on the wire for one the description lists: a wildcard
    /// (`application/*+json`, `text/*`, `*/*`) is never sent as such.
    pub fn concrete_media_type(media: &str) -> String {
        if !media.contains('*') {
            return media.to_owned();
        }
        let m = media.to_ascii_lowercase();
        if m.contains("json") {
            "application/json".to_owned()
        } else if m.starts_with("text/") {
            "text/plain".to_owned()
        } else {
            "application/octet-stream".to_owned()
        }
    }

    pub fn for_media_type(media: &str) -> BodyEncoding {
        let m = media
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if m.contains("json") {
            BodyEncoding::Json
        } else if m == "application/x-www-form-urlencoded" {
            BodyEncoding::Form
        } else if m.starts_with("multipart/") {
            BodyEncoding::Multipart
        } else if m.starts_with("text/")
            || m.contains("xml")
            || m.contains("csv")
            || m.contains("yaml")
        {
            BodyEncoding::Text
        } else {
            BodyEncoding::Binary
        }
    }

    /// Encodings that build a body from an object's properties (one argument each).
    pub fn takes_fields(self) -> bool {
        matches!(
            self,
            BodyEncoding::Json | BodyEncoding::Form | BodyEncoding::Multipart
        )
    }
}

/// What the executor needs to run one operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// Tool / operation name, unique in a catalog.
    pub name: Text,
    /// Name of the [`Api`] this operation belongs to.
    pub api: Text,
    pub method: Method,
    /// Path template relative to the base URL, with `{placeholders}`.
    pub path: Text,
    pub params: Cow<'static, [Param]>,
    pub body: BodyEncoding,
    /// The request media type sent with a body (`application/json`, `application/xml`...).
    pub content_type: Text,
    /// The body is required: sent (as `{}`, or the media type's empty form) even when
    /// no body argument is given.
    pub body_required: bool,
    /// Accepted ways to authenticate, tried in order; empty: no authentication.
    pub security: Cow<'static, [Requirement]>,
    /// The response is not a JSON object: the tool's structured output wraps it as
    /// `{"result": ...}` so that it matches the object-rooted output schema.
    pub wrap_output: bool,
    /// The success response is described as JSON: a body that does not parse is an
    /// error naming the status and content type, not a string result.
    pub json_response: bool,
    /// A GraphQL field: the call posts `{query, variables}` to the API's endpoint
    /// (the arguments are the variables) and returns `data.<field>`.
    pub graphql: Option<GraphqlCall>,
    /// An Arazzo workflow: the call runs its steps, each a call of another tool of
    /// the catalog through the executor, instead of sending a request of its own. The
    /// steps as JSON text (see [`crate::workflow`] for the format), read once when
    /// the executor is built.
    pub workflow: Option<Text>,
}

/// The GraphQL document a tool sends: `head`, then `{ selection <the selection
/// argument> }` unless the field is a scalar or enum, then `}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphqlCall {
    /// `query query_repository($owner: String!) { repository(owner: $owner)`
    pub head: Text,
    /// The field's key in `data`.
    pub field: Text,
    /// The default selection set, without braces; empty for a scalar or enum.
    pub selection: Text,
    /// The type the selection selects from; empty for a scalar or enum.
    pub returns: Text,
    /// The argument that adds fields to the selection; empty when none.
    pub selection_argument: Text,
}

impl Operation {
    /// An operation the service answers itself (resources, meta-tools): JSON in and
    /// out, no body required, no authentication.
    pub(crate) fn local(
        name: &str,
        api: &'static str,
        method: Method,
        path: String,
        params: Vec<Param>,
    ) -> Operation {
        Operation {
            name: Cow::Owned(name.to_owned()),
            api: Cow::Borrowed(api),
            method,
            path: Cow::Owned(path),
            params: Cow::Owned(params),
            body: BodyEncoding::Json,
            content_type: Cow::Borrowed("application/json"),
            body_required: false,
            security: Cow::Borrowed(&[]),
            wrap_output: false,
            json_response: true,
            graphql: None,
            workflow: None,
        }
    }
}
