//! A service that already has an axum router mounts the MCP endpoint in it: one
//! `route_service` beside its own routes, so the service's tower layers, listener and
//! TLS serve both. The tools here are the service's own resource (`#[derive(ToolSchema)]`);
//! a generated catalog mounts the same way.

use axum::Router;
use axum::routing::get;
use serde::{Deserialize, Serialize};
use toolwright::resource::ResourceError;
use toolwright::serve::mcp::{BearerTokens, Http, Server};
use toolwright::{Catalog, Executor, Resource, ToolSchema};

/// A city the service knows.
#[derive(Debug, Clone, ToolSchema, Serialize, Deserialize)]
#[tool(resource(get))]
pub struct City {
    /// Its name.
    #[tool(primary_key)]
    pub name: String,
    /// Inhabitants.
    pub population: u32,
}

/// The service's store of cities.
#[derive(Debug)]
pub struct Cities;

impl Resource for Cities {
    type Record = City;
    async fn get(&self, name: String) -> Result<City, ResourceError> {
        match name.as_str() {
            "Lyon" => Ok(City {
                name,
                population: 522_250,
            }),
            _ => Err(ResourceError::not_found(format!("no city named `{name}`"))),
        }
    }
}

/// The service's router: its own `/health`, and MCP at `/mcp` for holders of `tokens`.
///
/// # Errors
/// The executor cannot be built.
pub fn app(tokens: BearerTokens) -> Result<Router, toolwright::Error> {
    let executor = Executor::builder(Catalog::empty())
        .resource(Cities)
        .build()?;
    let mcp = Http::new(Server::new(executor)).auth(tokens);
    Ok(Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/mcp", mcp))
}
