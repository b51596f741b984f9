//! Runs adapters without compiling: the same tool plans the generator emits as static
//! tables become run-time tables for the one executor.

use std::borrow::Cow;

use toolwright::descriptor::{
    Api, BodyEncoding, Definition, KeyPlacement, Method, Operation, Param, ParamLocation,
    ParamStyle, Requirement, SchemeKind, SecurityScheme, ValueKind,
};
use toolwright::{Annotations, Catalog, Tool};
use toolwright_codegen::emit::{self, plan::ToolPlan};
use toolwright_codegen::ir;

/// The catalog of `apis`, with descriptor-based argument checks.
pub fn catalog(apis: &[ir::Api]) -> Result<Catalog, String> {
    // At most a tool an operation: no growth room left over (Graph beta's 22,361 tools
    // would otherwise keep up to ~5 MB of it).
    let mut tools = Vec::with_capacity(apis.iter().map(|a| a.operations.len()).sum());
    for api in apis {
        let contracts = emit::contracts(api);
        // A tool a plan: all plans alive at once would be the biggest thing here.
        tools.extend(
            emit::map_plans(api, |i, plan| {
                let contract = contracts.get(i)?;
                plan.exposed.then(|| tool(&plan, Some(contract)))
            })
            .into_iter()
            .flatten(),
        );
    }
    Catalog::from_tools(tools, apis.iter().map(runtime_api).collect())
}

/// The catalog of `apis` as the provider exports (`Catalog::exporter`) read it: without
/// the tools' IO contracts, which they do not show and which are made over a whole API
/// at once (Graph beta's take ~300 MB while they are made). Search (links) and the
/// TypeScript export (producers) read contracts: use [`catalog`] for those.
///
/// It takes the APIs and drops each operation once its tool is made: the operations
/// as read and the catalog are never whole together (on Graph beta, the two together
/// were the report's peak).
pub fn catalog_for_exports(apis: Vec<ir::Api>) -> Result<Catalog, String> {
    let mut runtime_apis = Vec::with_capacity(apis.len());
    let mut tools = Vec::with_capacity(apis.iter().map(|a| a.operations.len()).sum());
    // Each API dropped once its tools are made (its definitions too). The definitions a
    // tool reaches are named while the operations are here and written out once they
    // are gone: Graph beta's operations and its definitions' text together were the
    // report's peak.
    for mut api in apis {
        let reachable = emit::reachable_definitions(&api);
        tools.extend(
            emit::into_plans(&mut api, |_, plan| plan.exposed.then(|| tool(&plan, None)))
                .into_iter()
                .flatten(),
        );
        let definitions = emit::definitions_named(&api, reachable);
        runtime_apis.push(runtime_api_with(&api, definitions));
    }
    Catalog::from_tools(tools, runtime_apis)
}

fn runtime_api(api: &ir::Api) -> Api {
    runtime_api_with(api, emit::definitions(api))
}

/// `api` as the runtime describes it, with its `definitions` as [`emit::definitions`]
/// renders them.
fn runtime_api_with(api: &ir::Api, definitions: Vec<(String, String, String)>) -> Api {
    let schemes = api
        .schemes
        .iter()
        .map(|s| SecurityScheme {
            name: s.name.clone().into(),
            kind: match &s.kind {
                ir::SchemeKind::Bearer { token_env } => SchemeKind::Bearer {
                    token_env: token_env.clone().into(),
                },
                ir::SchemeKind::ClientCredentials {
                    token_env,
                    token_url,
                    client_id_env,
                    client_secret_env,
                } => SchemeKind::ClientCredentials {
                    token_env: token_env.clone().into(),
                    token_url: token_url.clone().into(),
                    client_id_env: client_id_env.clone().into(),
                    client_secret_env: client_secret_env.clone().into(),
                },
                ir::SchemeKind::ApiKey { key_env, placement } => SchemeKind::ApiKey {
                    key_env: key_env.clone().into(),
                    placement: match placement {
                        ir::KeyPlacement::Header(n) => KeyPlacement::Header(n.clone().into()),
                        ir::KeyPlacement::Query(n) => KeyPlacement::Query(n.clone().into()),
                        ir::KeyPlacement::Cookie(n) => KeyPlacement::Cookie(n.clone().into()),
                    },
                },
                ir::SchemeKind::Basic {
                    username_env,
                    password_env,
                } => SchemeKind::Basic {
                    username_env: username_env.clone().into(),
                    password_env: password_env.clone().into(),
                },
            },
        })
        .collect();
    Api {
        name: api.name.clone().into(),
        base_url: api.base_url.clone().into(),
        schemes: Cow::Owned(schemes),
        definitions: definitions
            .into_iter()
            .map(|(name, input, output)| Definition {
                name: name.into(),
                input: input.into(),
                output: output.into(),
            })
            .collect(),
        meta: (!api.meta.is_empty())
            .then(|| serde_json::to_string(&api.meta).unwrap_or_default().into()),
        graphql: api.graphql_types.clone().map(Into::into),
    }
}

fn param(p: &emit::plan::ParamPlan) -> Param {
    use emit::plan::ValueKind as K;
    Param {
        field: p.field.clone().into(),
        wire_name: p.wire_name.clone().into(),
        location: match p.location {
            ir::ParamLocation::Path => ParamLocation::Path,
            ir::ParamLocation::Query => ParamLocation::Query,
            ir::ParamLocation::QueryString => ParamLocation::QueryString,
            ir::ParamLocation::Header => ParamLocation::Header,
            ir::ParamLocation::Cookie => ParamLocation::Cookie,
            ir::ParamLocation::Body => ParamLocation::Body,
            ir::ParamLocation::RequestBody => ParamLocation::RequestBody,
        },
        required: p.required,
        kind: match p.kind {
            K::Any => ValueKind::Any,
            K::String => ValueKind::String,
            K::Integer => ValueKind::Integer,
            K::Number => ValueKind::Number,
            K::Boolean => ValueKind::Boolean,
            K::Array => ValueKind::Array,
            K::Object => ValueKind::Object,
            K::Binary => ValueKind::Binary,
        },
        style: match p.style {
            ir::Style::Form => ParamStyle::Form,
            ir::Style::Simple => ParamStyle::Simple,
            ir::Style::Label => ParamStyle::Label,
            ir::Style::Matrix => ParamStyle::Matrix,
            ir::Style::SpaceDelimited => ParamStyle::SpaceDelimited,
            ir::Style::PipeDelimited => ParamStyle::PipeDelimited,
            ir::Style::DeepObject => ParamStyle::DeepObject,
            ir::Style::Cookie => ParamStyle::Cookie,
        },
        explode: p.explode,
        allow_reserved: p.allow_reserved,
        content_type: p.content_type.clone().map(Into::into),
    }
}

fn tool(plan: &ToolPlan, contract: Option<&emit::ToolContract>) -> Tool {
    let a = plan.annotations;
    Tool {
        name: plan.name.clone().into(),
        title: plan.title.clone().into(),
        description: plan.description.clone().into(),
        input_schema: plan.input_schema.to_string().into(),
        output_schema: plan.output_schema.as_ref().map(|s| s.to_string().into()),
        annotations: Annotations {
            read_only: a.read_only,
            destructive: a.destructive,
            idempotent: a.idempotent,
            open_world: a.open_world,
        },
        meta: Some(plan.meta.to_string().into()),
        contract: contract.map(|c| c.json.clone().into()),
        operation: Cow::Owned(Operation {
            name: plan.name.clone().into(),
            api: plan.api.clone().into(),
            method: match plan.method {
                ir::Method::Other(name) => Method::Other(name),
                known => Method::parse(known.as_str()).unwrap_or(Method::Get),
            },
            path: plan.path.clone().into(),
            params: plan.params.iter().map(param).collect(),
            body: match plan.body {
                ir::BodyEncoding::Json => BodyEncoding::Json,
                ir::BodyEncoding::Form => BodyEncoding::Form,
                ir::BodyEncoding::Multipart => BodyEncoding::Multipart,
                ir::BodyEncoding::Binary => BodyEncoding::Binary,
                ir::BodyEncoding::Text => BodyEncoding::Text,
            },
            content_type: plan.content_type.clone().into(),
            body_required: plan.body_required,
            json_response: plan.json_response,
            graphql: plan
                .graphql
                .as_ref()
                .map(|g| toolwright::descriptor::GraphqlCall {
                    head: g.head.clone().into(),
                    field: g.field.clone().into(),
                    selection: g.selection.clone().into(),
                    returns: g.returns.clone().into(),
                    selection_argument: g.selection_argument.clone().into(),
                }),
            workflow: plan.workflow.clone().map(Into::into),
            security: plan
                .security
                .iter()
                .map(|schemes| Requirement {
                    schemes: schemes.iter().map(|s| s.clone().into()).collect(),
                })
                .collect(),
            wrap_output: plan.wrap_output,
        }),
    }
}
