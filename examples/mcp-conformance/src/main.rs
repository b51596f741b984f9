//! `cargo run -p mcp-conformance -- --http 127.0.0.1:3001`: the fixtures of the
//! official MCP conformance suite (`@modelcontextprotocol/conformance`), served at
//! `/mcp` over streamable HTTP, for both the handshake revisions and 2026-07-28.
//!
//! Everything here is toolwright's public API as a service would use it: tools the
//! service answers itself ([`ServiceTool`]), resources and templates, prompts with
//! completable arguments, and the `Http` transport.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;
use toolwright::serve::mcp::{
    Content, Context, Document, Http, InputRequest, InputRequired, LogLevel, Prompt,
    PromptArgument, PromptMessage, PromptReply, ResourceContents, Server, ServiceTool, TaskSupport,
    Template, ToolOutput,
};
use toolwright::{Catalog, Executor};

/// A 1×1 red PNG.
const PNG: [u8; 69] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A WAV file of 8 silent 8-bit mono samples at 8 kHz.
fn wav() -> Vec<u8> {
    let samples = [0x80u8; 8];
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + samples.len() as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&8000u32.to_le_bytes()); // sample rate
    out.extend_from_slice(&8000u32.to_le_bytes()); // byte rate
    out.extend_from_slice(&1u16.to_le_bytes()); // block align
    out.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    out.extend_from_slice(&samples);
    out
}

fn tools(server: Server) -> Server {
    let fixed = |name: &str, description: &str, output: ToolOutput| {
        ServiceTool::new(name, description, move |_, _| {
            std::future::ready(output.clone())
        })
    };
    server
        .tool(fixed(
            "test_simple_text",
            "Answers one text block",
            ToolOutput::content(vec![Content::text(
                "This is a simple text response for testing.",
            )]),
        ))
        .tool(fixed(
            "test_image_content",
            "Answers a 1x1 PNG image",
            ToolOutput::content(vec![Content::image(PNG, "image/png")]),
        ))
        .tool(fixed(
            "test_audio_content",
            "Answers a short WAV clip",
            ToolOutput::content(vec![Content::audio(wav(), "audio/wav")]),
        ))
        .tool(fixed(
            "test_embedded_resource",
            "Answers an embedded text resource",
            ToolOutput::content(vec![Content::Resource(ResourceContents::text(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
            ))]),
        ))
        .tool(fixed(
            "test_multiple_content_types",
            "Answers text, an image and an embedded resource",
            ToolOutput::content(vec![
                Content::text("Multiple content types test:"),
                Content::image(PNG, "image/png"),
                Content::Resource(ResourceContents::text(
                    "test://mixed-content-resource",
                    "application/json",
                    r#"{"test":"data","value":123}"#,
                )),
            ]),
        ))
        .tool(fixed(
            "test_error_handling",
            "Always fails",
            ToolOutput::error("This tool intentionally returns an error for testing"),
        ))
        .tool(
            ServiceTool::new(
                "test_region_echo",
                "Says which region it was asked about (the region rides in a header too)",
                |args, _| async move {
                    let region = args["region"].as_str().unwrap_or_default().to_owned();
                    ToolOutput::content(vec![Content::text(format!("Region: {region}"))])
                },
            )
            .input_schema(json!({
                "type": "object",
                "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
                "required": ["region"]
            })),
        )
        .tool(ServiceTool::new(
            "test_tool_with_logging",
            "Sends three log messages while it runs",
            |_, cx| async move {
                cx.log(LogLevel::Info, "Tool execution started");
                tokio::time::sleep(Duration::from_millis(50)).await;
                cx.log(LogLevel::Info, "Tool processing data");
                tokio::time::sleep(Duration::from_millis(50)).await;
                cx.log(LogLevel::Info, "Tool execution completed");
                ToolOutput::content(vec![Content::text("Logging test completed")])
            },
        ))
        .tool(ServiceTool::new(
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100",
            |_, cx| async move {
                for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                    if i > 0 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    cx.progress(done, Some(100.0), None);
                }
                ToolOutput::content(vec![Content::text("Progress test completed")])
            },
        ))
        .tool(
            fixed(
                "json_schema_2020_12_tool",
                "Takes arguments described with JSON Schema 2020-12 keywords",
                ToolOutput::content(vec![Content::text("ok")]),
            )
            .input_schema(json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
                "properties": {
                    "name": {"type": "string"},
                    "address": {"$ref": "#/$defs/address"},
                    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                    "phone": {"type": "string"},
                    "email": {"type": "string"}
                },
                "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                "if": {"properties": {"contactMethod": {"const": "phone"}},
                       "required": ["contactMethod"]},
                "then": {"required": ["phone"]},
                "else": {"required": ["email"]},
                "additionalProperties": false
            })),
        )
}

/// A one-string-field form for `elicitation/create`.
fn form(field: &str) -> serde_json::Value {
    json!({"type": "object", "properties": {field: {"type": "string"}}, "required": [field]})
}

/// The text of a response: an elicitation's field, or a sampling result's text.
fn answer_text(response: &serde_json::Value, field: &str) -> String {
    response
        .pointer(&format!("/content/{field}"))
        .or_else(|| response.pointer("/content/text"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Asks `requests` unless every one has been answered, else answers `done`.
fn ask_or(
    cx: &Context,
    requests: Vec<InputRequest>,
    keys: &[&str],
    done: impl FnOnce() -> ToolOutput,
) -> ToolOutput {
    if keys.iter().all(|k| cx.response(k).is_some()) {
        done()
    } else {
        ToolOutput::input_required(InputRequired::new(requests))
    }
}

/// Tools that ask the client for input: elicitation, sampling and roots, over several
/// rounds, with state carried by the client (2026-07-28) or asked over the connection.
fn asking_tools(server: Server) -> Server {
    let name_form = || InputRequest::elicit("user_name", "What is your name?", form("name"));
    server
        .tool(ServiceTool::new(
            "test_input_required_result_elicitation",
            "Asks the user's name, then greets them",
            move |_, cx| async move {
                ask_or(&cx, vec![name_form()], &["user_name"], || {
                    let name = answer_text(cx.response("user_name").unwrap_or(&json!({})), "name");
                    ToolOutput::content(vec![Content::text(format!("Hello, {name}!"))])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_sampling",
            "Asks the client's model a question",
            |_, cx| async move {
                let ask = InputRequest::sample("capital_question", "What is the capital of France?", 100);
                ask_or(&cx, vec![ask], &["capital_question"], || {
                    let said = answer_text(cx.response("capital_question").unwrap_or(&json!({})), "text");
                    ToolOutput::content(vec![Content::text(format!("The model said: {said}"))])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_list_roots",
            "Asks for the client's roots",
            |_, cx| async move {
                ask_or(&cx, vec![InputRequest::list_roots("client_roots")], &["client_roots"], || {
                    let roots = cx.response("client_roots").cloned().unwrap_or_default();
                    ToolOutput::content(vec![Content::text(format!("Roots: {}", roots["roots"]))])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_request_state",
            "Asks for a confirmation, keeping state between the rounds",
            |_, cx| async move {
                if cx.response("confirm").is_some() && cx.state() == Some(&json!({"round": 1})) {
                    return ToolOutput::content(vec![Content::text("state-ok: confirmed")]);
                }
                let confirm = InputRequest::elicit(
                    "confirm",
                    "Please confirm",
                    json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
                );
                ToolOutput::input_required(InputRequired::new(vec![confirm]).state(json!({"round": 1})))
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_multiple_inputs",
            "Asks for a name, a greeting and the roots at once",
            move |_, cx| async move {
                let requests = vec![
                    name_form(),
                    InputRequest::sample("greeting", "Generate a greeting", 50),
                    InputRequest::list_roots("client_roots"),
                ];
                ask_or(&cx, requests, &["user_name", "greeting", "client_roots"], || {
                    ToolOutput::content(vec![Content::text("All inputs received")])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_multi_round",
            "Asks a name, then a colour, one round each",
            |_, cx| async move {
                let round = cx.state().and_then(|s| s["round"].as_u64()).unwrap_or(0);
                match (round, cx.response("step1"), cx.response("step2")) {
                    (2, _, Some(colour)) => ToolOutput::content(vec![Content::text(format!(
                        "Favourite colour: {}",
                        answer_text(colour, "color")
                    ))]),
                    (1, Some(_), _) => ToolOutput::input_required(
                        InputRequired::new(vec![InputRequest::elicit(
                            "step2",
                            "Step 2: What is your favorite color?",
                            form("color"),
                        )])
                        .state(json!({"round": 2})),
                    ),
                    _ => ToolOutput::input_required(
                        InputRequired::new(vec![InputRequest::elicit(
                            "step1",
                            "Step 1: What is your name?",
                            form("name"),
                        )])
                        .state(json!({"round": 1})),
                    ),
                }
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_tampered_state",
            "Asks for a confirmation; its state is integrity-protected",
            |_, cx| async move {
                let ask = InputRequest::elicit("confirm", "Please confirm", form("ok"));
                ask_or(&cx, vec![ask], &["confirm"], || {
                    ToolOutput::content(vec![Content::text("confirmed")])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_input_required_result_capabilities",
            "Asks only for what the client declared it can answer",
            |_, cx| async move {
                let offered = [
                    ("elicitation", InputRequest::elicit("user_name", "What is your name?", form("name"))),
                    ("sampling", InputRequest::sample("greeting", "Generate a greeting", 50)),
                    ("roots", InputRequest::list_roots("client_roots")),
                ];
                let keys = ["user_name", "greeting", "client_roots"];
                let (mut requests, mut asked) = (Vec::new(), Vec::new());
                for ((capability, request), key) in offered.into_iter().zip(keys) {
                    if cx.client_supports(capability) {
                        requests.push(request);
                        asked.push(key);
                    }
                }
                if requests.is_empty() {
                    return ToolOutput::content(vec![Content::text("nothing to ask")]);
                }
                ask_or(&cx, requests, &asked, || ToolOutput::content(vec![Content::text("done")]))
            },
        ))
        .tool(ServiceTool::new(
            "test_missing_capability",
            "Needs the client's model (sampling), whatever the client declared",
            |_, cx| async move {
                ask_or(&cx, vec![InputRequest::sample("q", "Say hello", 10)], &["q"], || {
                    ToolOutput::content(vec![Content::text("sampled")])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_streaming_elicitation",
            "Asks the user a question",
            |_, cx| async move {
                ask_or(&cx, vec![InputRequest::elicit("answer", "Anything to say?", form("text"))], &["answer"], || {
                    ToolOutput::content(vec![Content::text("thanks")])
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_logging_tool",
            "Logs one message at each of info and debug",
            |_, cx| async move {
                cx.log(LogLevel::Info, "info message");
                cx.log(LogLevel::Debug, "debug message");
                ToolOutput::content(vec![Content::text("logged")])
            },
        ))
        .tool(ServiceTool::new(
            "test_sampling",
            "Asks the client's model the prompt given",
            |args, cx| async move {
                let prompt = args["prompt"].as_str().unwrap_or_default().to_owned();
                ask_or(&cx, vec![InputRequest::sample("reply", &prompt, 100)], &["reply"], || {
                    let said = answer_text(cx.response("reply").unwrap_or(&json!({})), "text");
                    ToolOutput::content(vec![Content::text(format!("LLM response: {said}"))])
                })
            },
        ).input_schema(json!({"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]})))
        .tool(ServiceTool::new(
            "test_elicitation",
            "Asks the user for a name and an email",
            |args, cx| async move {
                let message = args["message"].as_str().unwrap_or_default().to_owned();
                let schema = json!({"type": "object", "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"}},
                    "required": ["username", "email"]});
                ask_or(&cx, vec![InputRequest::elicit("user", &message, schema)], &["user"], || {
                    let r = cx.response("user").cloned().unwrap_or_default();
                    ToolOutput::content(vec![Content::text(format!(
                        "User response: <action: {}, content: {}>",
                        r["action"].as_str().unwrap_or("cancel"), r["content"]
                    ))])
                })
            },
        ).input_schema(json!({"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]})))
        .tool(ServiceTool::new(
            "test_elicitation_sep1034_defaults",
            "Asks with a default for every primitive type",
            |_, cx| async move {
                let schema = json!({"type": "object", "properties": {
                    "name": {"type": "string", "default": "John Doe"},
                    "age": {"type": "integer", "default": 30},
                    "score": {"type": "number", "default": 95.5},
                    "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                    "verified": {"type": "boolean", "default": true}}});
                ask_or(&cx, vec![InputRequest::elicit("form", "Defaults test", schema)], &["form"], || {
                    completed(cx.response("form"))
                })
            },
        ))
        .tool(ServiceTool::new(
            "test_elicitation_sep1330_enums",
            "Asks with every enum form",
            |_, cx| async move {
                let schema = json!({"type": "object", "properties": {
                    "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                    "titledSingle": {"type": "string", "oneOf": [
                        {"const": "value1", "title": "First Option"},
                        {"const": "value2", "title": "Second Option"},
                        {"const": "value3", "title": "Third Option"}]},
                    "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"]},
                    "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                    "titledMulti": {"type": "array", "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}]}}}});
                ask_or(&cx, vec![InputRequest::elicit("form", "Enums test", schema)], &["form"], || {
                    completed(cx.response("form"))
                })
            },
        ))
}

/// The Tasks extension's fixtures: tools that go on in the background.
fn task_tools(server: Server) -> Server {
    let object =
        |properties: serde_json::Value| json!({"type": "object", "properties": properties});
    server
        .tool(
            ServiceTool::new("greet", "Greets someone, at once", |args, _| async move {
                let name = args["name"].as_str().unwrap_or("world").to_owned();
                ToolOutput::content(vec![Content::text(format!("Hello, {name}!"))])
            })
            .input_schema(object(json!({"name": {"type": "string"}}))),
        )
        .tool(
            ServiceTool::new("slow_compute", "Sleeps `seconds`, then answers", |args, cx| async move {
                let seconds = args["seconds"].as_f64().unwrap_or(1.0).clamp(0.0, 60.0);
                if seconds > 0.0 && !cx.in_task() {
                    return ToolOutput::as_task();
                }
                tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
                ToolOutput::content(vec![Content::text(format!("Computed after {seconds} s"))])
            })
            .input_schema(object(json!({"seconds": {"type": "number"}})))
            .task_support(TaskSupport::Optional),
        )
        .tool(
            ServiceTool::new("failing_job", "Fails after a second", |_, cx| async move {
                if !cx.in_task() {
                    return ToolOutput::as_task();
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                ToolOutput::error("the job failed")
            })
            .task_support(TaskSupport::Required),
        )
        .tool(
            ServiceTool::new("protocol_error_job", "Fails as the server, not the tool", |_, cx| async move {
                if !cx.in_task() {
                    return ToolOutput::as_task();
                }
                ToolOutput::protocol_error("the job broke down")
            })
            .task_support(TaskSupport::Optional),
        )
        .tool(
            ServiceTool::new("confirm_delete", "Asks for a confirmation, then deletes", |_, cx| async move {
                if !cx.in_task() {
                    return ToolOutput::as_task();
                }
                match cx.response("confirm") {
                    Some(answer) => ToolOutput::content(vec![Content::text(format!(
                        "Deletion answered: {}",
                        answer["action"].as_str().unwrap_or("cancel")
                    ))]),
                    None => ToolOutput::input_required(InputRequired::new(vec![
                        InputRequest::elicit(
                            "confirm",
                            "Delete the item?",
                            json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
                        ),
                    ])),
                }
            })
            .task_support(TaskSupport::Optional),
        )
        .tool(
            ServiceTool::new("multi_input", "Asks two questions at once", |_, cx| async move {
                if !cx.in_task() {
                    return ToolOutput::as_task();
                }
                let requests = vec![
                    InputRequest::elicit("first", "First question?", form("answer")),
                    InputRequest::elicit("second", "Second question?", form("answer")),
                ];
                ask_or(&cx, requests, &["first", "second"], || {
                    ToolOutput::content(vec![Content::text("Both answered")])
                })
            })
            .task_support(TaskSupport::Optional),
        )
        .tool(
            ServiceTool::new("test_tool_with_task", "Asks a name, then greets in a task", |_, cx| async move {
                let Some(answer) = cx.response("user_name") else {
                    let ask = InputRequest::elicit("user_name", "What is your name?", form("name"));
                    return ToolOutput::input_required(InputRequired::new(vec![ask]));
                };
                if !cx.in_task() {
                    return ToolOutput::as_task();
                }
                let name = answer_text(answer, "name");
                ToolOutput::content(vec![Content::text(format!("Hello, {name}, from a task"))])
            })
            .task_support(TaskSupport::Required),
        )
}

fn completed(response: Option<&serde_json::Value>) -> ToolOutput {
    let r = response.cloned().unwrap_or_default();
    ToolOutput::content(vec![Content::text(format!(
        "Elicitation completed: action={}, content={}",
        r["action"].as_str().unwrap_or("cancel"),
        r["content"]
    ))])
}

fn resources(server: Server) -> Server {
    server
        .resource(
            Document::text(
                "test://static-text",
                "static-text",
                "text/plain",
                "This is the content of the static text resource.",
            )
            .description("A text resource that never changes"),
        )
        .resource(
            Document::bytes("test://static-binary", "static-binary", "image/png", PNG)
                .description("A 1x1 PNG image"),
        )
        .resource(
            Document::text(
                "test://watched-resource",
                "watched-resource",
                "text/plain",
                "A resource clients may subscribe to.",
            )
            .description("A resource to subscribe to"),
        )
        .resource_template(
            Template::new("test://template/{id}/data", "template-data", |reading| async move {
                let id = &reading.params["id"];
                let body = json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                Ok(vec![ResourceContents::text(
                    reading.uri,
                    "application/json",
                    body.to_string(),
                )])
            })
            .description("Data for one ID")
            .mime_type("application/json")
            .complete("id", ["123", "456"]),
        )
}

fn prompts(server: Server) -> Server {
    let user_text = |text: String| PromptMessage::user(Content::text(text));
    server
        .prompt(
            Prompt::new("test_simple_prompt", move |_| async move {
                Ok(vec![user_text(
                    "This is a simple prompt for testing.".into(),
                )])
            })
            .description("A prompt without arguments"),
        )
        .prompt(
            Prompt::new("test_prompt_with_arguments", move |args| async move {
                let text = format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    args["arg1"], args["arg2"]
                );
                Ok(vec![user_text(text)])
            })
            .description("A prompt with two arguments")
            .argument(
                PromptArgument::required("arg1", "First test argument")
                    .complete(["paris", "park", "party", "test"]),
            )
            .argument(PromptArgument::required("arg2", "Second test argument")),
        )
        .prompt(
            Prompt::new(
                "test_prompt_with_embedded_resource",
                move |args| async move {
                    Ok(vec![
                        PromptMessage::user(Content::Resource(ResourceContents::text(
                            args["resourceUri"].clone(),
                            "text/plain",
                            "Embedded resource content for testing.",
                        ))),
                        user_text("Please process the embedded resource above.".into()),
                    ])
                },
            )
            .description("A prompt embedding a resource")
            .argument(PromptArgument::required(
                "resourceUri",
                "URI of the resource to embed",
            )),
        )
        .prompt(
            Prompt::new("test_prompt_with_image", move |_| async move {
                Ok(vec![
                    PromptMessage::user(Content::image(PNG, "image/png")),
                    user_text("Please analyze the image above.".into()),
                ])
            })
            .description("A prompt with an image"),
        )
        .prompt(
            Prompt::asking("test_input_required_result_prompt", |_, cx| async move {
                let Some(answer) = cx.response("user_context") else {
                    let ask = InputRequest::elicit(
                        "user_context",
                        "What context should the prompt use?",
                        form("context"),
                    );
                    return Ok(PromptReply::InputRequired(InputRequired::new(vec![ask])));
                };
                let context = answer_text(answer, "context");
                Ok(PromptReply::Messages(vec![PromptMessage::user(
                    Content::text(format!("Use this context: {context}")),
                )]))
            })
            .description("A prompt that asks the user for context first"),
        )
}

/// The conformance server over an empty catalog (every fixture is the service's own).
pub fn server() -> Result<Server, toolwright::Error> {
    let executor = Executor::builder(Catalog::empty()).build()?;
    let server = Server::new(executor).info("mcp-conformance", env!("CARGO_PKG_VERSION"));
    Ok(prompts(resources(task_tools(asking_tools(tools(server))))))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr: SocketAddr = match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => addr.parse()?,
        _ => return Err("usage: mcp-conformance --http ADDR (e.g. 127.0.0.1:3001)".into()),
    };
    eprintln!("MCP conformance fixtures at http://{addr}/mcp");
    Http::new(server()?).serve(addr).await?;
    Ok(())
}
