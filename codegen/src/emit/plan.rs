//! Every decision about a tool, made once from the IR: name, title, description,
//! schemas, annotations, metadata and the executor's descriptor. The Rust emitter turns
//! a plan into static tables; the CLI turns the same plan into run-time tables, so
//! compiled and interpreted catalogs cannot drift apart.

use serde_json::{Map, Value, json};

use super::text;
// Where they are worked out (the IR, read by selection and the artifact too); named
// here as well, where a plan's readers look for them.
pub use crate::ir::annotations::{Annotations, annotation_reasons, annotations};
use crate::ir::{
    self, Crude, DangerLevel, Direction, Method, ParamLocation, Schema, SchemaType, render_root,
};

/// The JSON type the executor checks and encodes a parameter as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
    Any,
    /// A string of base64 bytes (`format: binary`, `contentEncoding: base64`).
    Binary,
}

impl ValueKind {
    pub fn of(schema: &Schema) -> ValueKind {
        match schema.ty {
            SchemaType::String if schema.is_binary() => ValueKind::Binary,
            SchemaType::String => ValueKind::String,
            SchemaType::Integer => ValueKind::Integer,
            SchemaType::Number => ValueKind::Number,
            SchemaType::Boolean => ValueKind::Boolean,
            SchemaType::Array => ValueKind::Array,
            SchemaType::Object => ValueKind::Object,
            SchemaType::Any => ValueKind::Any,
        }
    }
}

/// One parameter as the executor sees it.
#[derive(Debug, Clone)]
pub struct ParamPlan {
    pub field: String,
    pub wire_name: String,
    pub location: ParamLocation,
    pub required: bool,
    pub kind: ValueKind,
    pub style: ir::Style,
    pub explode: bool,
    pub allow_reserved: bool,
    pub content_type: Option<String>,
}

/// Everything about one tool.
#[derive(Debug, Clone)]
pub struct ToolPlan {
    pub name: String,
    pub api: String,
    pub title: String,
    pub description: String,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    pub annotations: Annotations,
    pub meta: Value,
    pub method: Method,
    pub path: String,
    pub params: Vec<ParamPlan>,
    pub body: ir::BodyEncoding,
    pub content_type: String,
    pub body_required: bool,
    pub security: Vec<Vec<String>>,
    pub wrap_output: bool,
    /// The success response is described as JSON.
    pub json_response: bool,
    /// `danger_level: forbidden` operations get a client method but no tool.
    pub exposed: bool,
    /// A GraphQL field's call.
    pub graphql: Option<ir::GraphqlCall>,
    /// An Arazzo workflow's steps, as the descriptor's JSON text.
    pub workflow: Option<String>,
}

/// Whether the success response is no object, so the tool's result wraps it in
/// `{"result": ...}` (MCP's structured content is an object).
fn wraps_output(api: &ir::Api, op: &ir::Operation) -> bool {
    let output = op.success_response().and_then(|r| r.schema.as_deref());
    output.is_some_and(|s| !is_object(s, &api.definitions))
}

/// The tool's output schema (`None` when the success response has none): the
/// response's, or `{"result": ...}` around one that is no object. `compact`: as the
/// catalog stores it ([`ir::render_root_compact`]), else with a referenced root
/// definition inlined.
pub fn output_schema(api: &ir::Api, op: &ir::Operation, compact: bool) -> Option<Value> {
    let output = op.success_response().and_then(|r| r.schema.as_deref())?;
    let wrapped;
    let root = if wraps_output(api, op) {
        wrapped = Schema::object([("result".to_owned(), output.clone(), true)]);
        &wrapped
    } else {
        output
    };
    Some(if compact {
        ir::render_root_compact(root, &api.definitions, Direction::Output)
    } else {
        render_root(root, &api.definitions, Direction::Output)
    })
}

pub fn plan(api: &ir::Api, op: &ir::Operation) -> ToolPlan {
    let input = input_schema(op);
    let mut input_schema = render_root(&input, &api.definitions, Direction::Input);
    // The root is always closed, even with no parameters: an LLM must send `{}`.
    input_schema["additionalProperties"] = json!(false);
    describe_undescribed(&mut input_schema, op);
    let wrap_output = wraps_output(api, op);
    let mut output_schema = output_schema(api, op, true);
    // What the catalog serves (descriptions, schemas with their examples, metadata)
    // carries no credential a document happened to hold.
    let mut meta = meta(api, op);
    for value in [&mut input_schema, &mut meta]
        .into_iter()
        .chain(output_schema.as_mut())
    {
        toolwright_query::redact::value(value, &mut std::collections::BTreeSet::new());
    }
    ToolPlan {
        name: op.name.clone(),
        api: api.name.clone(),
        // A summary is the document's prose like a description: no credential it
        // happened to hold reaches the catalog.
        title: op
            .summary
            .as_deref()
            .and_then(text::title_from_summary)
            .map(|t| toolwright_query::redact::text(&t).into_owned())
            .or_else(|| {
                // `PostQuotesQuoteCancel` says only its method and path: say them as
                // words ("Cancel a quote") rather than "Post quotes quote cancel".
                named_after_method(&op.name, op.method.as_str(), &op.path)
                    .then(|| text::title_from_path(op.method.as_str(), &op.path))
                    .flatten()
            })
            .unwrap_or_else(|| text::title(&op.name)),
        description: toolwright_query::redact::text(&description(api, op)).into_owned(),
        input_schema,
        output_schema,
        annotations: annotations(op),
        meta,
        method: op.method,
        path: op.path.clone(),
        params: op
            .params
            .iter()
            .map(|p| ParamPlan {
                field: p.field.clone(),
                wire_name: p.name.clone(),
                location: p.location,
                required: p.required,
                kind: ValueKind::of(&p.schema),
                style: p.style,
                explode: p.explode,
                allow_reserved: p.allow_reserved,
                content_type: p.content_type.clone(),
            })
            .collect(),
        body: op.body,
        content_type: op.content_type.clone(),
        body_required: op.body_required,
        security: op.security.clone(),
        wrap_output,
        json_response: op
            .success_response()
            .is_some_and(|r| r.json && r.schema.is_some()),
        exposed: op.safety.danger_level != Some(DangerLevel::Forbidden),
        graphql: op.graphql.clone(),
        workflow: op.workflow.as_ref().map(|w| w.plan.to_string()),
    }
}

/// The tool's input: one property per parameter, named by its argument name.
pub fn input_schema(op: &ir::Operation) -> Schema {
    let mut schema = Schema::object(
        op.params
            .iter()
            .map(|p| (p.field.clone(), Schema::clone(&p.schema), p.required)),
    );
    schema.extensions = op.input_keywords.clone();
    schema
}

/// The author's description, or a composed, verb-led one; never empty.
fn description(api: &ir::Api, op: &ir::Operation) -> String {
    // HTML (Stripe's `<p>`s, entities) cleaned here, in the catalog itself, not only
    // in exports: every client reads this text. Relative links resolve against the
    // operation's documentation site, as exports do.
    let clean = |d: &str| {
        text::fold(&toolwright_query::prose::clean(
            d,
            docs_origin(op).as_deref(),
        ))
    };
    let mut out = match op.description.as_deref().map(str::trim) {
        // Only the body's description: a model reads the first sentence for what the
        // tool does, so a composed one leads.
        Some(d) if d.starts_with(ir::BODY_DESCRIPTION_LEAD) => {
            format!("{}\n\n{}", composed(api, op), clean(d))
        }
        Some(d) if !d.is_empty() => clean(d),
        _ => composed(api, op),
    };
    if op.native("deprecated").and_then(Value::as_bool) == Some(true) {
        // After what the tool does, not before it: the first sentence is what a model
        // (and a search index) reads as the tool's summary.
        out = match out.split_once("\n\n") {
            Some((first, rest)) => format!("{first}\n\nDeprecated.\n\n{rest}"),
            None => format!("{out}\n\nDeprecated."),
        };
    }
    if op.safety.requires_confirmation {
        out.push_str("\n\nRequires confirmation: ask the user before calling this tool.");
    }
    out
}

/// Gives each argument the source left undescribed a description composed from what
/// is known of it (its name, where it goes, the values it allows, its format): a
/// model reads a property's description to fill it, and a bare name often says
/// little (`q`, `since`).
fn describe_undescribed(input_schema: &mut Value, op: &ir::Operation) {
    let Some(properties) = input_schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for param in &op.params {
        let Some(Value::Object(property)) = properties.get_mut(&param.field) else {
            continue;
        };
        if property
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.trim().is_empty())
        {
            continue;
        }
        property.insert(
            "description".into(),
            json!(composed_param_description(param, &op.path)),
        );
    }
}

fn composed_param_description(param: &ir::Param, path: &str) -> String {
    let mut out = if param.location == ParamLocation::RequestBody {
        String::new()
    } else {
        format!("{}.", text::title(&param.name))
    };
    match param.location {
        ParamLocation::Path => out.push_str(&format!(
            " Fills `{{{}}}` in the path `{path}`.",
            param.name
        )),
        ParamLocation::Query => out.push_str(" Sent in the query string."),
        ParamLocation::QueryString => out.push_str(" Sent as the whole query string."),
        ParamLocation::Header => out.push_str(&format!(" Sent as the `{}` header.", param.name)),
        ParamLocation::Cookie => out.push_str(&format!(" Sent as the `{}` cookie.", param.name)),
        ParamLocation::Body => {}
        ParamLocation::RequestBody => out.push_str("The request body."),
    }
    let values: Vec<String> = param
        .schema
        .enum_values
        .iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
            _ => None,
        })
        .collect();
    if !values.is_empty() && values.len() <= 12 {
        out.push_str(&format!(" One of: {}.", values.join(", ")));
    }
    if let Some(format) = &param.schema.format {
        out.push_str(&format!(" Format: {format}."));
    }
    out
}

/// Whether `name` is only its method and path run together
/// (`PostQuotesQuoteCancel` for `POST /v1/quotes/{quote}/cancel`), as some generators
/// make operation ids; a name an author chose (`get_issue`) says more and stays.
fn named_after_method(name: &str, method: &str, path: &str) -> bool {
    let letters = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let path: String = path
        .split('/')
        .filter(|s| !text::is_version(s))
        .map(letters)
        .collect();
    letters(name) == format!("{}{path}", method.to_ascii_lowercase())
}

/// `https://host` of the operation's `externalDocs` URL.
fn docs_origin(op: &ir::Operation) -> Option<String> {
    toolwright_query::prose::origin(op.meta.get("externalDocs")?.get("url")?.as_str()?)
}

fn composed(api: &ir::Api, op: &ir::Operation) -> String {
    let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
    let last_param = segments
        .last()
        .and_then(|s| s.strip_prefix('{'))
        .map(|s| s.trim_end_matches('}'));
    let resource = segments
        .iter()
        .rev()
        .find(|s| !s.starts_with('{'))
        .map(|s| s.replace(['-', '_'], " "))
        .unwrap_or_else(|| api.name.replace(['-', '_'], " "));
    let one = text::singular(&resource);
    let by = last_param.map(|p| format!(" by {p}")).unwrap_or_default();
    let sentence = match rest_sentence(op) {
        Some(sentence) => sentence,
        None => generic_sentence(op, &resource, &one, &by),
    };
    format!(
        "{sentence} Calls `{} {}` on the {} API.",
        op.method.as_str(),
        op.path,
        api.name
    )
}

/// REST's shape read as a sentence ("List tax ids of a customer."), when the method
/// and the operation's kind agree on what it does: it names whose item a resource
/// hangs under, which the generic sentence cannot.
fn rest_sentence(op: &ir::Operation) -> Option<String> {
    let segments: Vec<&str> = op
        .path
        .split('/')
        .filter(|s| !s.is_empty() && !text::is_version(s))
        .collect();
    let item = segments.last()?.starts_with('{');
    // `POST /quotes/{quote}/cancel`: an action on an item.
    let action = segments.len() >= 2
        && segments[segments.len() - 2].starts_with('{')
        && !segments.last()?.ends_with('s')
        && !item;
    let agrees = match (op.method, op.kind) {
        (Method::Get | Method::Head, Crude::Read)
        | (Method::Delete, Crude::Delete)
        | (Method::Put | Method::Patch, Crude::Update) => true,
        (Method::Post, Crude::Create) => !item && !action,
        (Method::Post, Crude::Execute) => action,
        (Method::Post, Crude::Update) => item,
        _ => false,
    };
    let title = agrees
        .then(|| text::title_from_path(op.method.as_str(), &op.path))
        .flatten()?;
    // A description says what the tool does ("Lists …"); a title commands ("List …").
    let (verb, rest) = title.split_once(' ').unwrap_or((&title, ""));
    Some(format!("{} {rest}.", text::third_person(verb)).replace(" .", "."))
}

/// What the operation does to its resource, in the words of its kind.
fn generic_sentence(op: &ir::Operation, resource: &str, one: &str, by: &str) -> String {
    match (op.kind, op.method) {
        (Crude::Create, _) => format!("Creates a new {one}."),
        (Crude::Read, _) if !by.is_empty() => format!("Fetches a single {one}{by}."),
        (Crude::Read, _) => format!("Lists {resource}."),
        (Crude::Update, Method::Patch) => format!("Partially updates a {one}{by}."),
        (Crude::Update, _) => format!("Updates a {one}{by}."),
        (Crude::Delete, _) => format!("Deletes a {one}{by}."),
        (Crude::Execute, _) => format!(
            "Runs {} on {resource}.",
            text::title(&op.name).to_lowercase()
        ),
    }
}

/// Inspectable metadata: where the tool comes from and the hints with no MCP field.
fn meta(api: &ir::Api, op: &ir::Operation) -> Value {
    let mut m = Map::new();
    m.insert("api".into(), json!(api.name));
    m.insert("apiVersion".into(), json!(api.version));
    m.insert("method".into(), json!(op.method.as_str()));
    m.insert("path".into(), json!(op.path));
    m.insert("crude".into(), json!(op.kind.as_str()));
    if let Some(d) = op.safety.danger_level {
        m.insert("dangerLevel".into(), json!(d.as_str()));
    }
    if op.safety.requires_confirmation {
        m.insert("requiresConfirmation".into(), json!(true));
    }
    if let Some(p) = &op.pagination {
        let mut page = Map::new();
        page.insert("style".into(), json!(p.style));
        page.extend(p.settings.iter().map(|(k, v)| (k.clone(), v.clone())));
        m.insert("pagination".into(), Value::Object(page));
    }
    if op.supports_fields {
        m.insert("supportsFields".into(), json!(true));
    }
    if !op.examples.is_empty() {
        let examples: Vec<Value> = op
            .examples
            .iter()
            .map(|e| json!({"request": e.request, "arguments": e.arguments}))
            .collect();
        m.insert("examples".into(), Value::Array(examples));
    }
    if !op.aliases.is_empty() {
        m.insert("aliases".into(), json!(op.aliases));
    }
    if !op.meta.is_empty() {
        m.insert("native".into(), json!(op.meta));
    }
    let mut out = Map::new();
    out.insert("toolwright".into(), Value::Object(m));
    Value::Object(out)
}

/// Whether a schema (following references) is a JSON object at its root.
pub fn is_object(
    schema: &Schema,
    definitions: &std::collections::BTreeMap<String, Schema>,
) -> bool {
    let target = ir::follow(schema, definitions);
    !schema.nullable
        && !target.nullable
        && target.variants.is_empty()
        && target.bare_reference().is_none()
        && target.ty == SchemaType::Object
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_lead_with_what_the_tool_does() {
        let openapi = r#"
openapi: 3.0.3
info: {title: shop, version: '1'}
servers: [{url: 'https://shop.example.com'}]
paths:
  /customers/{customer}/tax_ids:
    get:
      operationId: GetCustomersCustomerTaxIds
      parameters: [{name: customer, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
    post:
      operationId: PostCustomersCustomerTaxIds
      parameters: [{name: customer, in: path, required: true, schema: {type: string}}]
      requestBody:
        description: The tax id to add.
        content: {application/json: {schema: {type: object, properties: {value: {type: string}}}}}
      responses: {'200': {description: ok}}
  /quotes/{quote}/cancel:
    post:
      operationId: cancelQuote
      summary: Cancel a quote
      deprecated: true
      description: Cancels it for good.
      parameters: [{name: quote, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
"#;
        let analysis = crate::analyze_text("shop.yaml", openapi, false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        let api = &analysis.apis[0];
        let text = |name: &str| {
            let op = api.operations.iter().find(|o| o.name == name).unwrap();
            description(api, op)
        };
        assert!(
            text("GetCustomersCustomerTaxIds").starts_with("Lists tax ids of a customer. Calls"),
            "{}",
            text("GetCustomersCustomerTaxIds")
        );
        let body_only = text("PostCustomersCustomerTaxIds");
        assert!(
            body_only.starts_with("Creates a tax id of a customer. Calls")
                && body_only.ends_with("\n\nRequest body: The tax id to add."),
            "{body_only}"
        );
        assert_eq!(
            text("cancelQuote"),
            "Cancel a quote\n\nDeprecated.\n\nCancels it for good."
        );
    }

    #[test]
    fn only_names_made_of_method_and_path_give_way_to_a_composed_title() {
        assert!(named_after_method(
            "PostQuotesQuoteCancel",
            "POST",
            "/v1/quotes/{quote}/cancel"
        ));
        assert!(named_after_method(
            "GetCustomersCustomerTaxIds",
            "GET",
            "/v1/customers/{customer}/tax_ids"
        ));
        assert!(!named_after_method(
            "get_issue",
            "GET",
            "/projects/{project}/issues/{number}"
        ));
        assert!(!named_after_method("PostQuotes", "GET", "/v1/quotes"));
    }

    #[test]
    fn provenance_names_what_each_source_declared() {
        let mcp = r#"{"tools": [{"name": "get-sum", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}}]}"#;
        let analysis = crate::analyze_text("everything.json", mcp, false);
        let why = annotation_reasons(&analysis.apis[0].operations[0], false);
        let text: Vec<(&str, bool, &str)> =
            why.iter().map(|(h, v, w)| (*h, *v, w.as_str())).collect();
        assert_eq!(
            text,
            [
                ("readOnlyHint", true, "declared `readOnlyHint: true`"),
                ("destructiveHint", false, "read-only"),
                ("idempotentHint", true, "declared `idempotentHint: true`"),
                ("openWorldHint", false, "declared `openWorldHint: false`"),
            ]
        );
        let openapi = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers: [{url: 'https://t.example.com'}]\npaths:\n  /x/{id}:\n    delete:\n      operationId: del\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'204': {description: ok}}\n";
        let analysis = crate::analyze_text("t.yaml", openapi, false);
        let why = annotation_reasons(&analysis.apis[0].operations[0], false);
        assert_eq!(why[1].2, "the DELETE method");
        assert_eq!(
            why[2].2,
            "DELETE: only GET, HEAD, OPTIONS and PUT count as idempotent unless declared"
        );
        assert_eq!(why[3].2, "always: the tool calls a remote API");
    }
}
