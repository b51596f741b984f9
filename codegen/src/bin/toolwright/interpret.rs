//! Runs adapters without compiling: the same tool plans the generator emits as static
//! tables become run-time tables for the one executor.

use std::borrow::Cow;

use toolwright::{
    Annotations, Api, Auth, BodyEncoding, Catalog, KeyPlacement, Method, Operation, Param,
    ParamLocation, Tool, ValueKind,
};
use toolwright_codegen::emit::{self, plan::ToolPlan};
use toolwright_codegen::ir::{self, SchemaType};

/// The catalog of `apis`, with descriptor-based argument checks.
pub fn catalog(apis: &[ir::Api]) -> Result<Catalog, String> {
    let mut tools = Vec::new();
    for api in apis {
        tools.extend(emit::plans(api).iter().filter(|p| p.exposed).map(tool));
    }
    Catalog::from_tools(tools, apis.iter().map(runtime_api).collect())
}

fn runtime_api(api: &ir::Api) -> Api {
    Api {
        name: api.name.clone().into(),
        base_url: api.base_url.clone().into(),
        auth: match &api.auth {
            ir::Auth::None => Auth::None,
            ir::Auth::Bearer { token_env } => Auth::Bearer {
                token_env: token_env.clone().into(),
            },
            ir::Auth::ApiKey {
                key_env,
                header,
                query,
            } => Auth::ApiKey {
                key_env: key_env.clone().into(),
                placement: match (header, query) {
                    (_, Some(q)) => KeyPlacement::Query(q.clone().into()),
                    (h, None) => {
                        KeyPlacement::Header(h.clone().unwrap_or_else(|| "X-API-Key".into()).into())
                    }
                },
            },
            ir::Auth::Basic {
                username_env,
                password_env,
            } => Auth::Basic {
                username_env: username_env.clone().into(),
                password_env: password_env.clone().into(),
            },
        },
        meta: (!api.meta.is_empty())
            .then(|| serde_json::to_string(&api.meta).unwrap_or_default().into()),
    }
}

fn tool(plan: &ToolPlan) -> Tool {
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
        operation: Cow::Owned(Operation {
            name: plan.name.clone().into(),
            api: plan.api.clone().into(),
            method: Method::parse(plan.method.as_str()).unwrap_or(Method::Get),
            path: plan.path.clone().into(),
            params: plan
                .params
                .iter()
                .map(|p| Param {
                    field: p.field.clone().into(),
                    wire_name: p.wire_name.clone().into(),
                    location: match p.location {
                        ir::ParamLocation::Path => ParamLocation::Path,
                        ir::ParamLocation::Query => ParamLocation::Query,
                        ir::ParamLocation::Header => ParamLocation::Header,
                        ir::ParamLocation::Cookie => ParamLocation::Cookie,
                        ir::ParamLocation::Body => ParamLocation::Body,
                    },
                    required: p.required,
                    kind: match p.kind {
                        SchemaType::Any => ValueKind::Any,
                        SchemaType::String => ValueKind::String,
                        SchemaType::Integer => ValueKind::Integer,
                        SchemaType::Number => ValueKind::Number,
                        SchemaType::Boolean => ValueKind::Boolean,
                        SchemaType::Array => ValueKind::Array,
                        SchemaType::Object => ValueKind::Object,
                    },
                    explode: p.explode,
                })
                .collect(),
            body: match plan.body {
                ir::BodyEncoding::Json => BodyEncoding::Json,
                ir::BodyEncoding::Form => BodyEncoding::Form,
            },
            wrap_output: plan.wrap_output,
        }),
        validate: None,
    }
}
