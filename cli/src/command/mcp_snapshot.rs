//! `toolwright mcp-snapshot`: an MCP server's `tools/list` (with its info, prompts and
//! resources) saved as a JSON file to use as a source.

use std::process::ExitCode;

use crate::output::write_output;

pub(crate) fn run(out: &std::path::Path, timeout: f64, command: &[String]) -> ExitCode {
    let timeout = std::time::Duration::from_secs_f64(timeout.max(0.001));
    let server = toolwright::transport::McpStdio::new(&command[0], &command[1..]);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let snapshot = runtime.block_on(async {
        let info = server.server_info(timeout).await?;
        let mut out = serde_json::Map::new();
        for key in toolwright_codegen::source::mcp::live::SERVER_KEYS {
            if let Some(v) = info.get(key) {
                out.insert(key.to_owned(), v.clone());
            }
        }
        out.insert(
            "tools".into(),
            server.list("tools/list", "tools", timeout).await?.into(),
        );
        // Prompts and resources are recorded when the server offers them.
        for (capability, method) in toolwright_codegen::source::mcp::live::OPTIONAL_LISTS {
            if info
                .pointer(&format!("/capabilities/{capability}"))
                .is_some()
            {
                let listed = server.list(method, capability, timeout).await?;
                out.insert(capability.into(), listed.into());
            }
        }
        Ok::<_, toolwright::TransportError>(serde_json::Value::Object(out))
    });
    match snapshot {
        Ok(snapshot) => {
            let mut text = serde_json::to_string_pretty(&snapshot).unwrap_or_default();
            text.push('\n');
            let tools = snapshot["tools"].as_array().map_or(0, Vec::len);
            write_output(out, text.as_bytes(), &format!("{tools} tool(s)"))
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
