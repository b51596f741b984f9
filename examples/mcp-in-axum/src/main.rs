//! `MCP_TOKEN=... cargo run -p mcp-in-axum`: the service on 127.0.0.1:3000, its MCP
//! endpoint at `/mcp` for holders of that token.

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tokens = toolwright::serve::mcp::BearerTokens::new().from_env("team", "MCP_TOKEN")?;
    let app = mcp_in_axum::app(tokens)?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    eprintln!("serving on http://127.0.0.1:3000 (MCP at /mcp)");
    axum::serve(listener, app).await?;
    Ok(())
}
