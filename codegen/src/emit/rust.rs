//! Rust code for one API: input/output types, the typed `Client` (thin wrappers
//! over the shared executor) and the static operation table — written as text in a
//! fixed, readable layout close to rustfmt's (not the same: long signatures and
//! tables stay on one line; run rustfmt on the output for its exact layout). Building
//! token streams, re-parsing them with syn and printing them with prettyplease was
//! most of generation's time on large specs: compute v1's 13 MB module took 1.4 s
//! that way.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use super::codec::{self, Codec, FieldCodec, Item, Needs, Root};
use super::data::Data;
use super::names::{self, ApiNames, OperationNames, Scope};
use super::plan::{ParamPlan, ToolPlan, ValueKind};
use crate::ir::{self, BodyEncoding, Direction, Method, ParamLocation, Schema, SchemaType};

mod errors;

/// The API's module, after `header` (its text grows in place): types and a client
/// method for each operation `typed` marks (in source order); the others are
/// catalog-only — a tool and a descriptor in the data tables, callable by name, with
/// no Rust type — and only the definitions typed operations reach become types. Its
/// `OPERATIONS` table comes from [`operations_table`].
pub fn api_module(
    header: String,
    api: &ir::Api,
    plans: &[ToolPlan],
    names: &ApiNames,
    typed: &[bool],
    options: &super::Options,
) -> String {
    let is_typed = |i: usize| typed.get(i).copied().unwrap_or(true);
    let typed_ops: Vec<&ir::Operation> = api
        .operations
        .iter()
        .enumerate()
        .filter(|(i, _)| is_typed(*i))
        .map(|(_, op)| op)
        .collect();
    let mut types = TypeGen::new(&api.definitions, names.types.clone(), options.derives);
    let inputs = || {
        typed_ops
            .iter()
            .flat_map(|op| op.params.iter().map(|p| &*p.schema))
    };
    let outputs = || {
        typed_ops.iter().flat_map(|op| {
            op.responses
                .iter()
                .flat_map(|r| r.schema.as_deref().into_iter().chain(r.item.as_deref()))
        })
    };
    types.input_defs = ir::reachable(inputs(), &api.definitions);
    types.output_defs = ir::reachable(outputs(), &api.definitions);
    types.definitions(&ir::reachable(inputs().chain(outputs()), &api.definitions));
    // The client's methods, at the indentation of an `impl` block's items.
    let mut methods = String::new();
    let mut errors = Vec::new();
    let mut features = BTreeSet::new();
    let method_names: BTreeSet<&str> = names.operations.iter().map(|n| n.method.as_str()).collect();
    // `OPERATIONS` holds the typed operations only, in source order.
    for (index, ((op, plan), op_names)) in api
        .operations
        .iter()
        .zip(plans)
        .zip(&names.operations)
        .enumerate()
        .filter(|(i, _)| is_typed(*i))
        .map(|(_, item)| item)
        .enumerate()
    {
        let input_schema = Schema {
            description: Some(format!("Arguments of `{}`.", op.name)),
            ..super::plan::input_schema(op)
        };
        // With features by tag, the operation's types and methods are compiled only
        // when a feature of one of its tags is enabled.
        let gate = options
            .features_by_tag
            .then(|| tag_features(&names.module, op))
            .filter(|features| !features.is_empty());
        features.extend(gate.iter().flatten().cloned());
        let cfg = gate.as_ref().map(codec::cfg).unwrap_or_default();
        types.gate = gate;
        let input = types.operation_object(&op_names.input, &input_schema, Direction::Input);
        types.need(&input, Needs::SERIALIZE);
        let method = names::ident(&op_names.method);
        // What the call is on the wire: an HTTP request, an MCP server's tool, or a
        // GraphQL field.
        let target = match (
            api.base_url.starts_with("mcp://"),
            op.path.strip_prefix("/tools/"),
            &op.graphql,
        ) {
            (_, _, Some(call)) => format!(
                "GraphQL {} `{}` (`POST` to the endpoint)",
                call.head.split(' ').next().unwrap_or("query"),
                call.field
            ),
            (true, Some(tool), _) => format!("MCP tool `{tool}` (`tools/call`)"),
            _ => format!("`{} {}`", op.method.as_str(), op.path),
        };
        // A workflow sends nothing of its own: its steps are calls of other tools.
        let target = match &op.workflow {
            Some(w) => format!(
                "Arazzo workflow `{}`: {} step(s), each a call of its tool through the executor.",
                w.plan
                    .get("workflow")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or(""),
                w.plan
                    .get("steps")
                    .and_then(serde_json::Value::as_array)
                    .map_or(0, Vec::len)
            ),
            None => target,
        };
        let doc = names::doc(
            &format!("{}\n\n{target}{}", plan.description, stream_switch_note(op)),
            "    ",
        );
        let variants = success_variants(op);
        let paged = variants.is_none() && op.pagination.is_some();
        let success = op.success_response();
        let answer = match &variants {
            Some(_) => ir::ResponseBody::Json,
            None => success.map_or(ir::ResponseBody::Json, |r| r.body),
        };
        let (output, body) = match variants {
            Some(variants) => response_enum(&mut types, op_names, &variants, index),
            None => match answer {
                ir::ResponseBody::Binary => (
                    BYTES.to_owned(),
                    format!(
                        "        self.executor.execute_bytes(&OPERATIONS[{index}], input).await\n"
                    ),
                ),
                ir::ResponseBody::Events | ir::ResponseBody::JsonLines => {
                    stream_output(&mut types, op_names, success, answer, index)
                }
                _ => {
                    let output = match success.and_then(|r| r.schema.as_deref()) {
                        Some(s) if s.ty == SchemaType::Object && !s.properties.is_empty() => {
                            types.operation_object(&op_names.output, s, Direction::Output)
                        }
                        Some(s) => types.ty(s, &op_names.output, Direction::Output),
                        None => VALUE.to_owned(),
                    };
                    (output, String::new())
                }
            },
        };
        types.need(&output, Needs::DESERIALIZE);
        errors.extend(errors::collect(&mut types, op_names, op));
        let cfg = names::indent(&cfg, 4);
        if paged && let Some(pages) = pages_method_name(&op_names.method, &method_names) {
            let pages = names::ident(&pages);
            let doc = names::doc(
                &format!(
                    "`{}` page by page: a stream of pages (`.items::<T>()` for their items), \
                     bounded by `.limits(..)` (10 pages, 1,000 items by default).",
                    op_names.method
                ),
                "    ",
            );
            let _ = write!(
                methods,
                "{doc}{cfg}    pub fn {pages}(\n        &self,\n        input: &{input},\n    \
                 ) -> ::std::result::Result<::toolwright::Pages<{output}>, ::toolwright::Error> {{\n        \
                 self.executor.paginate(&OPERATIONS[{index}], input)\n    }}\n"
            );
        }
        if body.is_empty() {
            // One answer type: the executor's named future, not an `async fn` (a state
            // machine per method is most of what rustc pays for a client; see
            // `toolwright::executor::Call`).
            let _ = write!(
                methods,
                "{doc}{cfg}    pub fn {method}(\n        &self,\n        input: &{input},\n    \
                 ) -> ::toolwright::executor::Call<'_, {output}> {{\n        \
                 self.executor.execute(&OPERATIONS[{index}], input)\n    }}\n"
            );
        } else {
            let _ = write!(
                methods,
                "{doc}{cfg}    pub async fn {method}(\n        &self,\n        input: &{input},\n    \
                 ) -> ::std::result::Result<{output}, ::toolwright::Error> {{\n{body}    }}\n"
            );
        }
        // A file or text answer can also be read as it arrives.
        if matches!(answer, ir::ResponseBody::Binary | ir::ResponseBody::Text)
            && let Some(name) = free_method_name(&op_names.method, "_stream", &method_names)
        {
            let doc = format!(
                "`{}`, its answer read as it arrives (status and headers first, then the \
                 body's chunks: `.save(path)`, `.write_to(&mut sink)`, or a `Stream` of \
                 `Bytes`), bounded by the executor's stream limits rather than its \
                 `max_response_bytes`.",
                op_names.method
            );
            let signature = format!(
                "input: &{input},\n    ) -> ::std::result::Result<::toolwright::stream::ByteStream, ::toolwright::Error>"
            );
            let body = format!("self.executor.execute_stream(&OPERATIONS[{index}], input).await");
            companion_method(&mut methods, &doc, &cfg, &name, &signature, &body);
        }
        // A binary request body can come from a file or a stream.
        // `<method>_upload`; `<method>_from` when the method already says upload.
        let suffix = if op_names.method.ends_with("upload") {
            "_from"
        } else {
            "_upload"
        };
        if op.body == BodyEncoding::Binary
            && answer == ir::ResponseBody::Json
            && let Some(name) = free_method_name(&op_names.method, suffix, &method_names)
        {
            let doc = format!(
                "`{}`, its request body read from `body` as it is sent (bytes, \
                 `Upload::file(path)` or `Upload::stream(..)`; the input's body field is not \
                 sent). A body from a stream is sent once, never retried.",
                op_names.method
            );
            let signature = format!(
                "input: &{input},\n        body: ::toolwright::stream::Upload,\n    \
                 ) -> ::std::result::Result<{output}, ::toolwright::Error>"
            );
            let body = format!(
                "self.executor\n            .execute_upload(&OPERATIONS[{index}], input, body)\n            .await"
            );
            companion_method(&mut methods, &doc, &cfg, &name, &signature, &body);
        }
        types.gate = None;
    }
    let untyped = api.operations.len() - typed_ops.len();
    let catalog_only = if untyped == 0 {
        String::new()
    } else {
        format!(
            "\n\n{untyped} of its {} operations are generated catalog-only: no method \
             here; call them by name (`executor.call(\"<tool>\", json)`).",
            api.operations.len()
        )
    };
    let features = if features.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = features.iter().map(|f| format!("`{f}`")).collect();
        format!(
            "\n\nMethods of tagged operations, and the types only they use, are compiled \
             only with a feature of their tag; declare them in your `Cargo.toml` \
             (`[features]`, e.g. `{} = []`) and enable the ones you call: {}.",
            features.iter().next().map_or("", String::as_str),
            list.join(", ")
        )
    };
    let client_doc = names::doc(
        &format!(
            "Typed client for the `{}` API ({}). Every method runs through the shared \
             [`toolwright::Executor`], like call-by-name does.{catalog_only}{features}",
            api.name, api.version
        ),
        "",
    );
    errors::emit(&mut types, &errors);
    let mut code = header;
    types.finish(&mut code, options.full_serde);
    let _ = write!(
        code,
        "{client_doc}#[derive(Debug, Clone)]\n\
         pub struct Client {{\n    executor: ::toolwright::Executor,\n}}\n\
         impl Client {{\n    \
         /// A client that sends through `executor` (its transport, base URL overrides and\n    \
         /// credentials).\n    \
         pub fn new(executor: ::toolwright::Executor) -> Self {{\n        Client {{ executor }}\n    }}\n    \
         /// The executor behind this client.\n    \
         pub fn executor(&self) -> &::toolwright::Executor {{\n        &self.executor\n    }}\n\
         {methods}}}\n"
    );
    code
}

/// The cargo features of an operation's tags: `<module>-<tag>` in kebab case
/// (`graph` and `users.user` → `graph-users-user`).
fn tag_features(module: &str, op: &ir::Operation) -> BTreeSet<String> {
    let kebab = |s: &str| names::snake(s).replace('_', "-");
    op.tags()
        .map(|tag| format!("{}-{}", kebab(module), kebab(tag)))
        .collect()
}

/// `<method>_pages`, or `<method>_paged` when another operation has that name.
fn pages_method_name(method: &str, taken: &BTreeSet<&str>) -> Option<String> {
    ["_pages", "_paged"]
        .iter()
        .map(|suffix| format!("{method}{suffix}"))
        .find(|name| !taken.contains(name.as_str()))
}

/// For a request with a `stream: true` switch (model APIs): how to read the streamed
/// answer, which this method (one JSON answer) does not.
fn stream_switch_note(op: &ir::Operation) -> String {
    let switch = op.params.iter().any(|p| {
        p.location == ParamLocation::Body
            && p.name == "stream"
            && p.schema.ty == SchemaType::Boolean
    });
    if !switch
        || op
            .success_response()
            .is_some_and(|r| r.body == ir::ResponseBody::Events)
    {
        return String::new();
    }
    format!(
        "\n\nStreaming: with `stream: true` the API answers with server-sent events, which \
         this method does not read; call `executor.call_stream(\"{}\", args)` and read \
         `.events()` (or `.json_events::<T>()`) instead.",
        op.name
    )
}

/// A second method for an operation (`<method>_stream`, `<method>_upload`): its doc,
/// the operation's `cfg`, `&self` then `signature` (the rest of the parameters and the
/// return type), and `body`.
fn companion_method(
    methods: &mut String,
    doc: &str,
    cfg: &str,
    name: &str,
    signature: &str,
    body: &str,
) {
    let doc = names::doc(doc, "    ");
    let name = names::ident(name);
    let _ = write!(
        methods,
        "{doc}{cfg}    pub async fn {name}(\n        &self,\n        {signature} {{\n        {body}\n    }}\n"
    );
}

/// `<method><suffix>`, unless another operation's method has that name.
fn free_method_name(method: &str, suffix: &str, taken: &BTreeSet<&str>) -> Option<String> {
    let name = format!("{method}{suffix}");
    (!taken.contains(name.as_str())).then_some(name)
}

/// The output of an event-stream or JSON-lines operation: a stream of its items (the
/// described item type; an event's data as text when none is described, a line's as
/// a JSON value), and the method body that opens it.
fn stream_output(
    types: &mut TypeGen<'_>,
    op_names: &OperationNames,
    success: Option<&ir::Response>,
    answer: ir::ResponseBody,
    index: usize,
) -> (String, String) {
    // A plain string or an undescribed value is no type of its own.
    let item = success.and_then(|r| r.item.as_ref()).filter(|s| {
        let plain = s.reference.is_none() && s.variants.is_empty();
        !(plain && matches!(s.ty, SchemaType::String | SchemaType::Any))
    });
    let item_type = item.map(|s| {
        let hint = match answer {
            ir::ResponseBody::Events => format!("{}Event", op_names.output),
            _ => format!("{}Item", op_names.output),
        };
        if s.ty == SchemaType::Object && !s.properties.is_empty() {
            types.object(&hint, s, Direction::Output, false)
        } else {
            types.ty(s, &hint, Direction::Output)
        }
    });
    let call = |method: &str| {
        format!("        self.executor.{method}(&OPERATIONS[{index}], input).await\n")
    };
    match (answer, item_type) {
        (ir::ResponseBody::Events, Some(t)) => (
            format!("::toolwright::stream::Events<{t}>"),
            call("execute_events"),
        ),
        (ir::ResponseBody::Events, None) => (
            "::toolwright::stream::Events<::std::string::String>".to_owned(),
            call("execute_text_events"),
        ),
        (_, t) => (
            format!(
                "::toolwright::stream::JsonLines<{}>",
                t.unwrap_or_else(|| VALUE.to_owned())
            ),
            call("execute_lines"),
        ),
    }
}

/// The module's `OPERATIONS` table as text (see [`super::data`]): the descriptors the
/// executor runs, one per typed operation in source order (catalog-only ones are
/// data: [`super::embedded`]).
pub fn operations_table(out: &mut String, plans: &[ToolPlan], typed: &[bool]) {
    let typed: Vec<&ToolPlan> = plans
        .iter()
        .zip(typed)
        .filter(|(_, t)| **t)
        .map(|(p, _)| p)
        .collect();
    if typed.iter().any(|plan| !plan.params.is_empty()) {
        out.push_str(TABLE_ALIASES);
    }
    super::data::static_item(
        out,
        "The descriptors of the typed operations the executor runs, in source order.",
        "OPERATIONS",
        &format!("[::toolwright::descriptor::Operation; {}]", typed.len()),
        &Data::Array(typed.into_iter().map(operation).collect()),
    );
}

/// The 2xx responses when they carry different bodies (then the method returns an
/// enum with one variant per status); `None` when one type serves them all.
fn success_variants(op: &ir::Operation) -> Option<Vec<&ir::Response>> {
    let successes: Vec<&ir::Response> = op
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .collect();
    let distinct: BTreeSet<String> = successes
        .iter()
        .map(|r| {
            r.schema
                .as_ref()
                .map_or_else(String::new, |s| s.to_json(Direction::Output).to_string())
        })
        .collect();
    (distinct.len() > 1).then_some(successes)
}

fn status_variant(status: &str) -> String {
    match status {
        "DEFAULT" => "Default".to_owned(),
        s => format!("Status{s}"),
    }
}

/// Match pattern of a status key: `404`, `4XX` → `400..=499`.
fn status_pattern(status: &str) -> Option<String> {
    if let Ok(code) = status.parse::<u16>() {
        return Some(code.to_string());
    }
    let class = status.strip_suffix("XX")?.parse::<u16>().ok()?;
    Some(format!("{}..={}", class * 100, class * 100 + 99))
}

/// Exact statuses first, then ranges: the order `match` needs.
fn by_specificity<'a>(responses: impl Iterator<Item = &'a ir::Response>) -> Vec<&'a ir::Response> {
    let mut out: Vec<&ir::Response> = responses.collect();
    out.sort_by_key(|r| (r.status.parse::<u16>().is_err(), r.status.clone()));
    out
}

/// `<Op>Response`: one variant per documented success status; returns the type and
/// the method's body.
fn response_enum(
    types: &mut TypeGen<'_>,
    op_names: &OperationNames,
    variants: &[&ir::Response],
    index: usize,
) -> (String, String) {
    let pascal = &op_names.pascal;
    let ident = names::ident(&op_names.response);
    let mut defs = String::new();
    let mut arms = String::new();
    for r in by_specificity(variants.iter().copied()) {
        let Some(pattern) = status_pattern(&r.status) else {
            continue;
        };
        let variant = names::ident(&status_variant(&r.status));
        if let Some(doc) = &r.description {
            defs.push_str(&names::doc(doc, "    "));
        }
        match &r.schema {
            Some(schema) => {
                let ty = types.ty(
                    schema,
                    &format!("{pascal}{}", status_variant(&r.status)),
                    Direction::Output,
                );
                let _ = writeln!(defs, "    {variant}({ty}),");
                let _ = writeln!(
                    arms,
                    "            {pattern} => {ident}::{variant}(::toolwright::executor::decode(op, body)?),"
                );
            }
            None => {
                let _ = writeln!(defs, "    {variant},");
                let _ = writeln!(arms, "            {pattern} => {ident}::{variant},");
            }
        }
    }
    let doc = format!("The success responses of `{pascal}`, by status.");
    defs.push_str(
        "    /// A success status the description does not list.\n    \
         Other { status: u16, body: ::toolwright::__private::serde_json::Value },\n",
    );
    types.status_enum(&op_names.response, &doc, &defs, "");
    let body = format!(
        "        let op = &OPERATIONS[{index}];\n        \
         let (status, body) = self.executor.execute_raw(op, input).await?;\n        \
         ::std::result::Result::Ok(match status {{\n{arms}            \
         _ => {ident}::Other {{ status, body }},\n        }})\n"
    );
    (ident, body)
}

fn operation(plan: &ToolPlan) -> Data {
    let security = plan
        .security
        .iter()
        .map(|schemes| {
            Data::Struct(
                "::toolwright::descriptor::Requirement",
                vec![(
                    "schemes",
                    Data::cow_slice(schemes.iter().map(|s| Data::cow(s)).collect()),
                )],
            )
        })
        .collect();
    Data::Struct(
        "::toolwright::descriptor::Operation",
        vec![
            ("name", Data::cow(&plan.name)),
            ("api", Data::cow(&plan.api)),
            (
                "method",
                Data::Raw(match plan.method {
                    // A token (checked when read), so a plain string literal.
                    Method::Other(name) => {
                        format!("::toolwright::descriptor::Method::Other({name:?})")
                    }
                    known => format!(
                        "::toolwright::descriptor::Method::{}",
                        method_variant(known)
                    ),
                }),
            ),
            ("path", Data::cow(&plan.path)),
            (
                "params",
                Data::cow_slice(plan.params.iter().map(param).collect()),
            ),
            (
                "body",
                Data::Raw(format!(
                    "::toolwright::descriptor::BodyEncoding::{}",
                    body_variant(plan.body)
                )),
            ),
            ("content_type", Data::cow(&plan.content_type)),
            ("body_required", Data::bool(plan.body_required)),
            ("security", Data::cow_slice(security)),
            ("wrap_output", Data::bool(plan.wrap_output)),
            ("json_response", Data::bool(plan.json_response)),
            (
                "graphql",
                Data::option(plan.graphql.as_ref().map(|g| {
                    Data::Struct(
                        "::toolwright::descriptor::GraphqlCall",
                        vec![
                            ("head", Data::cow(&g.head)),
                            ("field", Data::cow(&g.field)),
                            ("selection", Data::cow(&g.selection)),
                            ("returns", Data::cow(&g.returns)),
                            ("selection_argument", Data::cow(&g.selection_argument)),
                        ],
                    )
                })),
            ),
            (
                "workflow",
                Data::option(plan.workflow.as_deref().map(Data::cow)),
            ),
        ],
    )
}

/// Variant names shared with the runtime's enums (the CLI maps the same names).
pub fn method_variant(m: Method) -> &'static str {
    match m {
        Method::Get => "Get",
        Method::Post => "Post",
        Method::Put => "Put",
        Method::Patch => "Patch",
        Method::Delete => "Delete",
        Method::Head => "Head",
        Method::Options => "Options",
        Method::Query => "Query",
        // Written with its name by the caller; never a bare variant.
        Method::Other(_) => "Other",
    }
}

pub fn body_variant(b: BodyEncoding) -> &'static str {
    match b {
        BodyEncoding::Json => "Json",
        BodyEncoding::Form => "Form",
        BodyEncoding::Multipart => "Multipart",
        BodyEncoding::Binary => "Binary",
        BodyEncoding::Text => "Text",
    }
}

pub fn location_variant(l: ParamLocation) -> &'static str {
    match l {
        ParamLocation::Path => "Path",
        ParamLocation::Query => "Query",
        ParamLocation::QueryString => "QueryString",
        ParamLocation::Header => "Header",
        ParamLocation::Cookie => "Cookie",
        ParamLocation::Body => "Body",
        ParamLocation::RequestBody => "RequestBody",
    }
}

pub fn style_variant(s: ir::Style) -> &'static str {
    match s {
        ir::Style::Form => "Form",
        ir::Style::Simple => "Simple",
        ir::Style::Label => "Label",
        ir::Style::Matrix => "Matrix",
        ir::Style::SpaceDelimited => "SpaceDelimited",
        ir::Style::PipeDelimited => "PipeDelimited",
        ir::Style::DeepObject => "DeepObject",
        ir::Style::Cookie => "Cookie",
    }
}

pub fn kind_variant(k: ValueKind) -> &'static str {
    match k {
        ValueKind::Any => "Any",
        ValueKind::String => "String",
        ValueKind::Integer => "Integer",
        ValueKind::Number => "Number",
        ValueKind::Boolean => "Boolean",
        ValueKind::Array => "Array",
        ValueKind::Object => "Object",
        ValueKind::Binary => "Binary",
    }
}

/// The aliases table rows use (`use` of them only where some row does: an unused
/// import would warn in the user's crate).
const TABLE_ALIASES: &str =
    "use ::toolwright::descriptor::{Param as __Param, ValueKind as __Kind};\n";

/// One parameter in one line a reader can read: the constructor of its location with
/// its argument name and kind, then only what differs from that location's defaults
/// (`.required()`, `.wire("X-Name")`, a style, `.explode(..)`, `.reserved()`, a media
/// type). `location_defaults` mirrors the runtime constructors (`Param::at`).
fn param(p: &ParamPlan) -> Data {
    use super::data::literal;
    let (constructor, required, style, explode) = location_defaults(p.location);
    let mut line = format!(
        "__Param::{constructor}({}, __Kind::{})",
        literal(&p.field),
        kind_variant(p.kind)
    );
    if p.required != required {
        line.push_str(if p.required {
            ".required()"
        } else {
            ".optional()"
        });
    }
    if p.wire_name != p.field {
        let _ = write!(line, ".wire({})", literal(&p.wire_name));
    }
    if p.style != style {
        let _ = write!(
            line,
            ".style(::toolwright::descriptor::ParamStyle::{})",
            style_variant(p.style)
        );
    }
    if p.explode != explode {
        let _ = write!(line, ".explode({})", p.explode);
    }
    if p.allow_reserved {
        line.push_str(".reserved()");
    }
    if let Some(media_type) = &p.content_type {
        let _ = write!(line, ".content_type({})", literal(media_type));
    }
    Data::Raw(line)
}

/// A location's `Param` constructor and the required flag, style and explode it sets
/// (OpenAPI's defaults: `form` and exploded in the query, a cookie and a body field;
/// `simple` in a path or a header; a path parameter required).
fn location_defaults(location: ParamLocation) -> (&'static str, bool, ir::Style, bool) {
    match location {
        ParamLocation::Path => ("path", true, ir::Style::Simple, false),
        ParamLocation::Query => ("query", false, ir::Style::Form, true),
        ParamLocation::QueryString => ("query_string", false, ir::Style::Form, false),
        ParamLocation::Header => ("header", false, ir::Style::Simple, false),
        ParamLocation::Cookie => ("cookie", false, ir::Style::Form, true),
        ParamLocation::Body => ("body", false, ir::Style::Form, true),
        ParamLocation::RequestBody => ("request_body", false, ir::Style::Form, false),
    }
}

/// Generates the named types a module needs.
struct TypeGen<'a> {
    scope: Scope,
    items: Vec<Item>,
    /// Types the client writes (inputs) or reads (outputs, error bodies).
    roots: Vec<Root>,
    /// The features the operation whose types are being built is behind.
    gate: Option<BTreeSet<String>>,
    definitions: &'a BTreeMap<String, Schema>,
    /// Definition name → Rust type name.
    def_types: BTreeMap<String, String>,
    /// Definitions that can reach themselves: references to them are boxed.
    cyclic: BTreeSet<String>,
    /// Inline types already emitted, by shape: identical enums and objects (common in
    /// large specs: `state: open|closed` in a hundred places) share one Rust type.
    shapes: BTreeMap<String, String>,
    /// Operations' input and output structs already emitted, by direction and a
    /// fingerprint of their schema less its description: an operation whose struct
    /// would repeat another's names that one ([`TypeGen::operation_object`]).
    operation_shapes: std::collections::HashMap<(bool, u64), Vec<(String, Schema)>>,
    /// Definitions reached from some operation's inputs, and from some response.
    input_defs: BTreeSet<String>,
    output_defs: BTreeSet<String>,
    /// The definition being emitted (its uses decide which fields are optional).
    current_def: Option<String>,
    derives: super::Derives,
}

const VALUE: &str = "::toolwright::__private::serde_json::Value";

impl<'a> TypeGen<'a> {
    /// `scope` already holds the generator's own names (see [`names::allocate`]).
    fn new(
        definitions: &'a BTreeMap<String, Schema>,
        mut scope: Scope,
        derives: super::Derives,
    ) -> Self {
        let def_types = definitions
            .keys()
            .map(|d| (d.clone(), scope.claim(&names::pascal(d))))
            .collect();
        TypeGen {
            scope,
            items: Vec::new(),
            roots: Vec::new(),
            gate: None,
            definitions,
            def_types,
            cyclic: cyclic(definitions),
            shapes: BTreeMap::new(),
            operation_shapes: std::collections::HashMap::new(),
            input_defs: BTreeSet::new(),
            output_defs: BTreeSet::new(),
            current_def: None,
            derives,
        }
    }

    /// Emits one type per definition, in name order.
    fn definitions(&mut self, reachable: &BTreeSet<String>) {
        for (name, schema) in self
            .definitions
            .iter()
            .filter(|(n, _)| reachable.contains(*n))
        {
            let type_name = self.def_types[name].clone();
            let recursive = self.cyclic.contains(name);
            self.current_def = Some(name.clone());
            self.define(&type_name, schema, Direction::Output, recursive);
            self.current_def = None;
        }
    }

    /// Emits a named type for a shared definition (struct, enum, or an alias — a
    /// newtype when the definition contains itself, which an alias cannot).
    fn define(&mut self, name: &str, schema: &Schema, direction: Direction, recursive: bool) {
        let shared = true;
        if schema.reference.is_none()
            && (schema.ty == SchemaType::Object || !schema.properties.is_empty())
            && !schema.properties.is_empty()
            && schema.variants.is_empty()
        {
            self.object(name, schema, direction, shared);
        } else if schema.reference.is_none() && is_string_enum(schema) {
            self.string_enum(name, schema);
        } else if schema.reference.is_none() && !schema.variants.is_empty() {
            self.variants(name, schema, direction);
        } else {
            let ident = names::ident(name);
            let doc = names::doc(&type_doc(name, schema), "");
            let mut plain = schema.clone();
            plain.description = None;
            // `ty` already makes nullable types `Option` (a bare JSON value holds null).
            let ty = self.ty(&plain, &format!("{name}Value"), direction);
            if recursive && schema.bare_reference().is_none() {
                // `Tree = array of Tree`: the newtype is read and written as its
                // content, so the wire form is the alias's.
                self.push(
                    name,
                    Some(Codec::Newtype),
                    format!(
                        "{doc}{}pub struct {ident}(pub {ty});\n",
                        self.derives.attribute("")
                    ),
                );
            } else {
                self.push(name, None, format!("{doc}pub type {ident} = {ty};\n"));
            }
        }
    }

    /// The Rust type of a schema; `hint` names any type it has to create.
    fn ty(&mut self, schema: &Schema, hint: &str, direction: Direction) -> String {
        let inner = self.ty_inner(schema, hint, direction);
        if schema.nullable
            && !(schema.ty == SchemaType::Any
                && schema.reference.is_none()
                && schema.variants.is_empty())
        {
            format!("::std::option::Option<{inner}>")
        } else {
            inner
        }
    }

    fn ty_inner(&mut self, schema: &Schema, hint: &str, direction: Direction) -> String {
        if let Some(def) = &schema.reference
            && schema.properties.is_empty()
            && schema.variants.is_empty()
        {
            return match self.def_types.get(def) {
                Some(name) => names::ident(name),
                None => VALUE.to_owned(),
            };
        }
        if !schema.variants.is_empty() {
            let name = self.scope.claim(&names::pascal(hint));
            self.variants(&name, schema, direction);
            return names::ident(&name);
        }
        match schema.ty {
            SchemaType::Any => VALUE.to_owned(),
            SchemaType::String if is_string_enum(schema) => {
                let key = format!("enum {}", Value::Array(schema.enum_values.clone()));
                let name = match self.shapes.get(&key) {
                    Some(name) => name.clone(),
                    None => {
                        let name = self.scope.claim(&names::pascal(hint));
                        self.shapes.insert(key, name.clone());
                        self.string_enum(&name, schema);
                        name
                    }
                };
                names::ident(&name)
            }
            SchemaType::String => "::std::string::String".to_owned(),
            SchemaType::Integer => integer_type(schema).to_owned(),
            SchemaType::Number => "f64".to_owned(),
            SchemaType::Boolean => "bool".to_owned(),
            SchemaType::Array => {
                let item = match &schema.items {
                    Some(items) => self.ty(items, &format!("{hint}Item"), direction),
                    None => VALUE.to_owned(),
                };
                format!("::std::vec::Vec<{item}>")
            }
            SchemaType::Object if schema.properties.is_empty() => {
                let values = match &schema.additional {
                    Some(v) => self.ty(v, &format!("{hint}Value"), direction),
                    None => VALUE.to_owned(),
                };
                format!("::std::collections::BTreeMap<::std::string::String, {values}>")
            }
            SchemaType::Object => {
                let key = format!("object {direction:?} {}", schema.to_json(direction));
                let name = match self.shapes.get(&key) {
                    Some(name) => name.clone(),
                    None => {
                        let name = self.scope.claim(&names::pascal(hint));
                        self.shapes.insert(key, name.clone());
                        self.object(&name, schema, direction, false);
                        name
                    }
                };
                names::ident(&name)
            }
        }
    }

    /// A struct. Operation inputs deny unknown fields (that is the argument check);
    /// shared and output types accept them (servers add fields).
    fn object(
        &mut self,
        name: &str,
        schema: &Schema,
        direction: Direction,
        shared: bool,
    ) -> String {
        let ident = names::ident(name);
        let mut fields = String::new();
        let mut field_scope = Scope::default();
        let mut required_fields: Vec<(String, String)> = Vec::new();
        let mut optional_fields: Vec<String> = Vec::new();
        let mut codec_fields = Vec::new();
        for (prop, prop_schema) in &schema.properties {
            let field = names::ident(&field_scope.claim(&names::snake(prop)));
            // Bytes sent as base64 in JSON (a file part, a binary body) are bytes in
            // typed code, written as base64 for the request builder to decode back.
            // Only inputs: specs use `format: binary` loosely in JSON answers, where a
            // string that is not base64 would fail the typed decode.
            let binary = direction == Direction::Input && base64_bytes(prop_schema);
            // A multipart file part (`format: binary` kept beside the encoding) can
            // also name its file and media type: a `FilePart`, which writes itself.
            let file_part = binary && prop_schema.format.as_deref() == Some("binary");
            let binary = binary && !file_part;
            let inner = if file_part {
                FILE_PART.to_owned()
            } else if binary {
                BYTES.to_owned()
            } else {
                self.ty_inner(
                    prop_schema,
                    &format!("{name}{}", names::pascal(prop)),
                    direction,
                )
            };
            let inner = self.boxed_if_cyclic(prop_schema, inner);
            if let Some(doc) = field_doc(prop_schema) {
                fields.push_str(&names::doc(&doc, "    "));
            }
            // A property left out in a direction the type is used in is optional: a
            // shared type used for requests and responses makes its read-only and
            // write-only properties optional; one used only in responses keeps its
            // required read-only ones (`id`) required.
            let (as_input, as_output) = self.uses(shared, direction);
            let left_out =
                (as_input && prop_schema.read_only) || (as_output && prop_schema.write_only);
            let required = schema.required.contains(prop) && !prop_schema.nullable && !left_out;
            if required {
                let _ = writeln!(fields, "    pub {field}: {inner},");
                required_fields.push((field.clone(), inner));
            } else {
                let _ = writeln!(fields, "    pub {field}: ::std::option::Option<{inner}>,");
                optional_fields.push(field.clone());
            }
            codec_fields.push(FieldCodec {
                ident: field,
                key: prop.clone(),
                required,
                binary,
            });
        }
        let mut extra = None;
        if let Some(values) = &schema.additional {
            let values = self.ty(values, &format!("{name}Extra"), direction);
            let field = names::ident(&field_scope.claim("additional_properties"));
            let _ = write!(
                fields,
                "    /// Properties beyond the named ones.\n    \
                 pub {field}: ::std::collections::BTreeMap<::std::string::String, {values}>,\n"
            );
            extra = Some(field);
        }
        let input = direction == Direction::Input && !shared;
        // Read only with `full_serde`: arguments are checked against the input schema.
        let deny_unknown = input && schema.additional.is_none();
        let doc = names::doc(&type_doc(name, schema), "");
        // Inputs a caller builds: `Default` when nothing is required (leave out what you
        // do not need with `..Default::default()`), else `new(required...)` with every
        // optional field `None`.
        let default = if input && required_fields.is_empty() {
            ", Default"
        } else {
            ""
        };
        let derive = self.derives.attribute(default);
        let mut code = if fields.is_empty() {
            format!("{doc}{derive}pub struct {ident} {{}}\n")
        } else {
            format!("{doc}{derive}pub struct {ident} {{\n{fields}}}\n")
        };
        if input && !required_fields.is_empty() {
            // Text arguments take anything that becomes a `String` (`"octo-org"` as
            // well as an owned one).
            let text = |t: &str| t == "::std::string::String";
            let params: Vec<String> = required_fields
                .iter()
                .map(|(f, t)| {
                    if text(t) {
                        format!("{f}: impl ::std::convert::Into<{t}>")
                    } else {
                        format!("{f}: {t}")
                    }
                })
                .collect();
            let one_line = params.join(", ");
            // rustfmt's rule: arguments on one line while the signature fits in 100
            // columns, else one per line.
            let params = if one_line.len() + 26 <= 100 {
                one_line
            } else {
                let mut list = String::from("\n");
                for p in &params {
                    let _ = writeln!(list, "        {p},");
                }
                list + "    "
            };
            let mut init = String::new();
            for (f, t) in &required_fields {
                if text(t) {
                    let _ = writeln!(init, "            {f}: {f}.into(),");
                } else {
                    let _ = writeln!(init, "            {f},");
                }
            }
            for f in &optional_fields {
                let _ = writeln!(init, "            {f}: ::std::option::Option::None,");
            }
            if let Some(f) = &extra {
                let _ = writeln!(
                    init,
                    "            {f}: ::std::collections::BTreeMap::new(),"
                );
            }
            // Clippy's limit is seven arguments: the allow only where it is passed.
            let allow = if required_fields.len() > 7 {
                "#[allow(clippy::too_many_arguments)]\n    "
            } else {
                ""
            };
            let _ = write!(
                code,
                "impl {ident} {{\n    \
                 /// The required fields; every optional one is `None`.\n    \
                 {allow}pub fn new({params}) -> Self {{\n        {ident} {{\n{init}        }}\n    }}\n}}\n"
            );
        }
        let codec = Codec::Struct {
            fields: codec_fields,
            extra,
            deny_unknown,
        };
        self.push(name, Some(codec), code);
        ident
    }

    /// An operation's input or output struct, named `name`. When an earlier operation's
    /// struct has the same schema (its description aside) this one is an alias of it,
    /// with its own doc: GitHub's 1,223 operations repeat ~550 of these (`owner, repo`
    /// alone 73 times), and each struct, its derives and its serde impl cost the
    /// user's compiler as much as the first (a fifth of the check). The alias names the
    /// same fields, `new` and impls.
    fn operation_object(&mut self, name: &str, schema: &Schema, direction: Direction) -> String {
        let shape = Schema {
            description: None,
            ..schema.clone()
        };
        let ident = names::ident(name);
        let key = (direction == Direction::Input, ir::fingerprint(&shape));
        let same = self.operation_shapes.entry(key).or_default();
        // Equal as written, as `ir::Sharing::schema` compares (the fingerprint keeps
        // `-0.0` apart from `0.0`, which `==` does not), so equal structs only; nested
        // inline types are shared by shape already, or named after the first struct.
        if let Some((first, _)) = same.iter().find(|(_, kept)| *kept == shape) {
            let first = names::ident(first);
            let doc = names::doc(&type_doc(name, schema), "");
            self.push(name, None, format!("{doc}pub type {ident} = {first};\n"));
            return ident;
        }
        same.push((name.to_owned(), shape));
        self.object(name, schema, direction, false)
    }

    /// A direct (uncontained) reference into a cycle of definitions needs a `Box`;
    /// `Vec` and maps already hold their items behind a pointer.
    fn boxed_if_cyclic(&self, schema: &Schema, ty: String) -> String {
        match &schema.reference {
            Some(def)
                if self.cyclic.contains(def)
                    && schema.properties.is_empty()
                    && schema.variants.is_empty() =>
            {
                if schema.nullable {
                    let inner = names::ident(&self.def_types[def]);
                    format!("::std::option::Option<::std::boxed::Box<{inner}>>")
                } else {
                    format!("::std::boxed::Box<{ty}>")
                }
            }
            _ => ty,
        }
    }

    /// `oneOf`/`anyOf`: an untagged enum, tried in order.
    fn variants(&mut self, name: &str, schema: &Schema, direction: Direction) {
        let ident = names::ident(name);
        let mut variant_scope = Scope::default();
        let mut variants = String::new();
        let mut idents = Vec::new();
        for (i, v) in schema.variants.iter().enumerate() {
            let label = match (&v.reference, v.ty.as_str()) {
                (Some(r), _) => names::pascal(r),
                (None, Some(t)) => names::pascal(t),
                (None, None) => format!("Variant{i}"),
            };
            let variant = names::ident(&variant_scope.claim(&label));
            let ty = self.ty(v, &format!("{name}{label}"), direction);
            let ty = self.boxed_if_cyclic(v, ty);
            let _ = writeln!(variants, "    {variant}({ty}),");
            idents.push(variant);
        }
        let doc = names::doc(&type_doc(name, schema), "");
        // Untagged: read by trying each variant in order, written as its content.
        // Variant sizes follow the API description; boxing them would change the types
        // callers match on.
        self.push(
            name,
            Some(Codec::Untagged(idents)),
            format!(
                "{doc}{}#[allow(clippy::large_enum_variant)]\n\
                 pub enum {ident} {{\n{variants}}}\n",
                self.derives.attribute("")
            ),
        );
    }

    fn string_enum(&mut self, name: &str, schema: &Schema) {
        let ident = names::ident(name);
        let mut variant_scope = Scope::default();
        // A value listed twice (Stripe has some) is one variant.
        let mut seen = BTreeSet::new();
        let variants: Vec<(String, String)> = schema
            .enum_values
            .iter()
            .filter_map(|v| v.as_str())
            .filter(|value| seen.insert(*value))
            .map(|value| {
                let variant = names::ident(&variant_scope.claim(&names::pascal(value)));
                (variant, value.to_owned())
            })
            .collect();
        let doc = names::doc(&type_doc(name, schema), "");
        let mut body = String::new();
        for (variant, value) in &variants {
            body.push_str(&names::doc(&format!("`{value}`"), "    "));
            let _ = writeln!(body, "    {variant},");
        }
        let code = format!(
            "{doc}#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]\npub enum {ident} {{\n{body}}}\n"
        );
        self.push(name, Some(Codec::Strings(variants)), code);
    }
}

impl TypeGen<'_> {
    fn push(&mut self, name: &str, codec: Option<Codec>, code: String) {
        self.items.push(Item {
            name: name.to_owned(),
            code,
            codec,
        });
    }

    /// An enum of an operation's responses by status (`variants`: its body; the
    /// variants' bodies are read), with `impls` after it.
    fn status_enum(&mut self, name: &str, doc: &str, variants: &str, impls: &str) {
        self.need(&names::ident(name), Needs::DESERIALIZE);
        self.enum_item(name, doc, variants, impls);
    }

    /// An enum of bodies by status, as [`status_enum`](Self::status_enum) writes it,
    /// reached only through the types that name it.
    fn enum_item(&mut self, name: &str, doc: &str, variants: &str, impls: &str) {
        let ident = names::ident(name);
        let doc = names::doc(doc, "");
        // Variant sizes follow the API description; boxing them would change the types
        // callers match on.
        self.push(
            name,
            None,
            format!(
                "{doc}{}#[allow(clippy::large_enum_variant)]\n\
                 pub enum {ident} {{\n{variants}}}\n{impls}",
                self.derives.attribute("")
            ),
        );
    }

    /// The types `ty` names are written (or read) by the client.
    fn need(&mut self, ty: &str, needs: Needs) {
        self.roots.push(Root {
            ty: ty.to_owned(),
            needs,
            gate: self.gate.clone(),
        });
    }

    /// Every item, with the serde impls its uses need (both with `full_serde`); items
    /// only tagged operations use are grouped in a module per set of features, compiled
    /// only when one of them is enabled, and re-exported.
    fn finish(self, out: &mut String, full_serde: bool) {
        let graph = codec::Graph::new(&self.items);
        let needs = codec::resolve(&self.items, &graph, &self.roots);
        let gates = codec::gates(&self.items, &graph, &self.roots);
        // Gated items by feature set, in order of first use (output follows the source).
        let mut groups: Vec<(BTreeSet<String>, String)> = Vec::new();
        let mut group_of: BTreeMap<BTreeSet<String>, usize> = BTreeMap::new();
        for ((item, needs), gate) in self.items.into_iter().zip(needs).zip(gates) {
            let mut code = item.code;
            if let Some(c) = &item.codec {
                let needs = if full_serde { Needs::BOTH } else { needs };
                codec::impls(&mut code, &item.name, c, needs);
            }
            match gate {
                None => out.push_str(&code),
                Some(features) => {
                    let group = *group_of.entry(features.clone()).or_insert_with(|| {
                        groups.push((features, String::new()));
                        groups.len() - 1
                    });
                    groups[group].1.push_str(&code);
                }
            }
        }
        for (n, (features, items)) in groups.into_iter().enumerate() {
            let cfg = codec::cfg(&features);
            let module = names::ident(&format!("tagged{}", n + 1));
            let doc = names::doc(
                &format!(
                    "Types used only by operations behind {}.",
                    features
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                "",
            );
            let _ = write!(
                out,
                "{doc}{cfg}mod {module} {{\n    #[allow(unused_imports)]\n    use super::*;\n{}}}\n{cfg}pub use {module}::*;\n",
                names::indent(&items, 4)
            );
        }
    }

    /// Whether the type being built is used in requests and in responses: a shared
    /// definition by where operations reach it, any other type by its direction.
    fn uses(&self, shared: bool, direction: Direction) -> (bool, bool) {
        match (&self.current_def, shared) {
            (Some(def), true) => (
                self.input_defs.contains(def),
                self.output_defs.contains(def),
            ),
            _ => (
                direction == Direction::Input,
                direction == Direction::Output,
            ),
        }
    }
}

/// A type's rustdoc: its description, or a line saying where it comes from (every
/// generated type is documented, so `missing_docs` users stay quiet).
fn type_doc(name: &str, schema: &Schema) -> String {
    match schema.description.as_deref().map(str::trim) {
        Some(d) if !d.is_empty() => d.to_owned(),
        _ => format!("`{name}`, as the API description defines it."),
    }
}

/// A field's rustdoc: its description, then the default and the constraints the
/// schema gives (what the run-time check enforces), so they show where the field does.
fn field_doc(schema: &Schema) -> Option<String> {
    let mut facts = Vec::new();
    let shown = |v: &Value| format!("`{v}`");
    if let Some(d) = &schema.default {
        facts.push(format!("Default: {}.", shown(d)));
    }
    let keyword = |k: &str| schema.extensions.get(k);
    for (value, words) in [
        (schema.minimum.as_deref(), "At least"),
        (keyword("exclusiveMinimum"), "Greater than"),
        (schema.maximum.as_deref(), "At most"),
        (keyword("exclusiveMaximum"), "Less than"),
        (keyword("multipleOf"), "A multiple of"),
    ] {
        if let Some(v) = value.filter(|v| v.is_number()) {
            facts.push(format!("{words} {}.", shown(v)));
        }
    }
    for (k, words) in [
        ("minLength", "At least {} characters."),
        ("maxLength", "At most {} characters."),
        ("minItems", "At least {} items."),
        ("maxItems", "At most {} items."),
    ] {
        if let Some(n) = keyword(k).and_then(Value::as_u64) {
            facts.push(words.replace("{}", &n.to_string()));
        }
    }
    if keyword("uniqueItems") == Some(&Value::Bool(true)) {
        facts.push("Items are unique.".to_owned());
    }
    if let Some(p) = &schema.pattern {
        facts.push(format!("Matches `` {p} ``."));
    }
    if let Some(f) = &schema.format {
        facts.push(format!("Format: `{f}`."));
    }
    match (
        schema.description.as_deref().map(str::trim),
        facts.is_empty(),
    ) {
        (Some(d), true) if !d.is_empty() => Some(d.to_owned()),
        (Some(d), false) if !d.is_empty() => Some(format!("{d}\n\n{}", facts.join(" "))),
        (_, false) => Some(facts.join(" ")),
        _ => None,
    }
}

/// The integer type a `format` names (`int32` → `i32`, `uint8` → `u8`); `i64` when
/// there is none (JSON Schema integers are unbounded; `i64` holds what APIs send).
/// The runtime's bytes type, as generated code names it.
const BYTES: &str = "::toolwright::Bytes";

/// Bytes with an optional file name and media type (multipart file parts).
const FILE_PART: &str = "::toolwright::stream::FilePart";

/// A string the catalog says is base64 of raw bytes (`contentEncoding: base64`; not
/// `format: byte`, which is base64 text the API itself reads).
fn base64_bytes(schema: &Schema) -> bool {
    schema.ty == SchemaType::String
        && schema.format.as_deref() != Some("byte")
        && schema.enum_values.is_empty()
        && schema
            .extensions
            .get("contentEncoding")
            .and_then(Value::as_str)
            == Some("base64")
}

fn integer_type(schema: &Schema) -> &'static str {
    match schema.format.as_deref() {
        Some("int8") => "i8",
        Some("int16") => "i16",
        Some("int32") => "i32",
        Some("uint8") => "u8",
        Some("uint16") => "u16",
        Some("uint32") => "u32",
        Some("uint64") => "u64",
        _ => "i64",
    }
}

fn is_string_enum(schema: &Schema) -> bool {
    schema.ty == SchemaType::String
        && !schema.enum_values.is_empty()
        && schema.enum_values.iter().all(|v| v.is_string())
}

/// Definitions that reach themselves through references.
fn cyclic(definitions: &BTreeMap<String, Schema>) -> BTreeSet<String> {
    let edges: BTreeMap<&str, Vec<String>> = definitions
        .iter()
        .map(|(name, s)| {
            let mut refs = Vec::new();
            s.references(&mut refs);
            (name.as_str(), refs)
        })
        .collect();
    let mut out = BTreeSet::new();
    for start in definitions.keys() {
        let mut stack: Vec<&str> = edges
            .get(start.as_str())
            .map(|r| r.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let mut seen = BTreeSet::new();
        while let Some(next) = stack.pop() {
            if next == start {
                out.insert(start.clone());
                break;
            }
            if seen.insert(next) {
                stack.extend(edges.get(next).into_iter().flatten().map(String::as_str));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_switch_in_the_request_is_documented() {
        let spec = |response: &str| {
            format!(
                "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\nservers: [{{url: 'https://t.example.com'}}]\npaths:\n  /chat:\n    post:\n      operationId: chat\n      requestBody:\n        content:\n          application/json:\n            schema: {{type: object, properties: {{stream: {{type: boolean}}, prompt: {{type: string}}}}}}\n      responses: {{'200': {{description: ok, content: {{{response}: {{schema: {{type: object}}}}}}}}}}\n"
            )
        };
        let analysis = crate::analyze_text("t.yaml", &spec("application/json"), false);
        let note = stream_switch_note(&analysis.apis[0].operations[0]);
        assert!(
            note.contains("`executor.call_stream(\"chat\", args)`"),
            "{note}"
        );
        // An operation that already answers with events has its typed stream.
        let analysis = crate::analyze_text("t.yaml", &spec("text/event-stream"), false);
        assert_eq!(stream_switch_note(&analysis.apis[0].operations[0]), "");
    }

    /// Operations whose inputs (or outputs) are the same struct share it through an
    /// alias; ones that differ anywhere (a default written `0.0` or `-0.0`, an enum
    /// value, a description inside) get a struct each.
    #[test]
    fn operations_with_the_same_struct_share_it() {
        let op = |id: &str, default: &str, state: &str| {
            format!(
                "  /{id}/{{owner}}:\n    get:\n      operationId: {id}\n      parameters:\n        - {{name: owner, in: path, required: true, schema: {{type: string}}}}\n        - {{name: ratio, in: query, schema: {{type: number, default: {default}}}}}\n        - {{name: state, in: query, schema: {{type: string, enum: [{state}]}}}}\n      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {{type: object, properties: {{id: {{type: string}}}}}}}}}}}}}}\n"
            )
        };
        let spec = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\nservers: [{{url: 'https://t.example.com'}}]\npaths:\n{}{}{}{}",
            op("first", "0.0", "open"),
            op("second", "0.0", "open"),
            op("third", "-0.0", "open"),
            op("fourth", "0.0", "closed"),
        );
        let analysis = crate::analyze_text("t.yaml", &spec, false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        let files = super::super::generate(&analysis.apis);
        let code = String::from_utf8(files["t.rs"].clone()).unwrap();
        assert!(code.contains("pub struct FirstInput {"), "{code}");
        assert!(code.contains("/// Arguments of `second`.\npub type SecondInput = FirstInput;\n"));
        assert!(code.contains("pub struct ThirdInput {"), "{code}");
        assert!(code.contains("pub struct FourthInput {"), "{code}");
        // Outputs alike: the same object answered by all four.
        assert!(code.contains("pub struct FirstOutput {"), "{code}");
        for other in ["Second", "Third", "Fourth"] {
            assert!(
                code.contains(&format!("pub type {other}Output = FirstOutput;\n")),
                "{code}"
            );
        }
        // The struct's serializer and `new` are written once.
        assert_eq!(code.matches("Serialize for FirstInput {").count(), 1);
        assert!(!code.contains("Serialize for SecondInput {"));
    }
}
