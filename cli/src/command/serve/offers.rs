//! What `serve` offers besides the tools: a saved MCP server's prompts and resources,
//! each API's documentation, and operations as resources.

/// What a saved MCP server's snapshot lists besides its tools — prompts, resources,
/// resource templates — offered as it lists them, each `prompts/get` and
/// `resources/read` passed on to the live server (`--mcp-server`), like its tools.
pub(crate) fn offer_snapshot(
    server: toolwright::serve::mcp::Server,
    executor: &toolwright::Executor,
    api: &toolwright_codegen::ir::Api,
) -> toolwright::serve::mcp::Server {
    use serde_json::{Value, json};
    use toolwright::serve::mcp::{
        Document, Prompt, PromptArgument, PromptMessage, PromptReply, ResourceContents, Template,
    };
    let Some(snapshot) = api.meta.get("x-mcp") else {
        return server;
    };
    let listed = |key: &str| {
        snapshot
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    // A `resources/read` of the live server, its contents read back.
    let read = |executor: toolwright::Executor, api: String| {
        move |reading: toolwright::serve::mcp::Reading| {
            let (executor, api) = (executor.clone(), api.clone());
            async move {
                let answer = executor
                    .mcp_request(&api, "resources/read", json!({"uri": reading.uri}))
                    .await
                    .map_err(|e| e.to_string())?;
                let contents = answer["contents"].as_array().cloned().unwrap_or_default();
                Ok(contents
                    .iter()
                    .filter_map(ResourceContents::from_json)
                    .collect())
            }
        }
    };
    let mut server = server;
    for resource in listed("resources") {
        let (Some(uri), Some(name)) = (text(&resource, "uri"), text(&resource, "name")) else {
            continue;
        };
        let mut document = Document::read_with(uri, name, read(executor.clone(), api.name.clone()));
        if let Some(d) = text(&resource, "description") {
            document = document.description(d);
        }
        if let Some(m) = text(&resource, "mimeType") {
            document = document.mime_type(m);
        }
        if let Some(t) = text(&resource, "title") {
            document = document.title(t);
        }
        server = server.resource(document);
    }
    for template in listed("resourceTemplates") {
        let (Some(uri), Some(name)) = (text(&template, "uriTemplate"), text(&template, "name"))
        else {
            continue;
        };
        let mut offered = Template::new(uri, name, read(executor.clone(), api.name.clone()));
        if let Some(d) = text(&template, "description") {
            offered = offered.description(d);
        }
        if let Some(m) = text(&template, "mimeType") {
            offered = offered.mime_type(m);
        }
        server = server.resource_template(offered);
    }
    for prompt in listed("prompts") {
        let Some(name) = text(&prompt, "name") else {
            continue;
        };
        let (executor, api_name, prompt_name) = (executor.clone(), api.name.clone(), name.clone());
        let mut offered = Prompt::asking(name, move |args, _| {
            let (executor, api, name) = (executor.clone(), api_name.clone(), prompt_name.clone());
            async move {
                let answer = executor
                    .mcp_request(
                        &api,
                        "prompts/get",
                        json!({"name": name, "arguments": args}),
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                let messages = answer["messages"].as_array().cloned().unwrap_or_default();
                Ok(PromptReply::Messages(
                    messages
                        .iter()
                        .filter_map(PromptMessage::from_json)
                        .collect(),
                ))
            }
        });
        if let Some(d) = text(&prompt, "description") {
            offered = offered.description(d);
        }
        if let Some(t) = text(&prompt, "title") {
            offered = offered.title(t);
        }
        for argument in prompt
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(arg) = text(argument, "name") else {
                continue;
            };
            let description = text(argument, "description").unwrap_or_default();
            offered = offered.argument(match argument.get("required") {
                Some(Value::Bool(true)) => PromptArgument::required(arg, description),
                _ => PromptArgument::optional(arg, description),
            });
        }
        server = server.prompt(offered);
    }
    server
}

/// Each API's documentation as a resource, and the operations `--resources` chose.
pub(crate) fn offer_resources(
    server: toolwright::serve::mcp::Server,
    catalog: &toolwright::Catalog,
    apis: &[toolwright_codegen::ir::Api],
    selectors: &[String],
) -> Result<toolwright::serve::mcp::Server, String> {
    let mut server = server;
    for api in apis.iter().filter(|api| !api.docs.trim().is_empty()) {
        let document = toolwright::serve::mcp::Document::text(
            format!("toolwright://docs/{}", api.name),
            format!("{} documentation", api.name),
            "text/markdown",
            api.docs.clone(),
        )
        .description(format!(
            "How to use the {} API: {}",
            api.name, api.description
        ));
        server = server.resource(document);
    }
    if selectors.is_empty() {
        return Ok(server);
    }
    let selection = toolwright::Selection::parse(selectors, [""; 0]).map_err(|errors| {
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("--resources: {}", errors.join("; "))
    })?;
    let chosen = catalog.select(&selection);
    Ok(server.operations_as_resources(move |tool| chosen.get(&tool.name).is_some()))
}
