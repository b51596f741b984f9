//! The gate on calls by name (what models make), on the example tracker adapter:
//! `delete_issue` says `requires_confirmation`, so it runs only after approval;
//! without an approval callback, or when it says no, nothing reaches the server.
//! A service's own policy can deny, or ask for approval of, anything, and knows which
//! authenticated MCP client asked.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use toolwright::gate::{self, Verdict};
use toolwright::{CredentialSource, Error, Executor, ExecutorBuilder};
use toolwright_loopback::{Response, Server, mcp_post};

fn builder(server: &Server) -> ExecutorBuilder {
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    let analysis = toolwright_codegen::analyze(&[adapters], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    Executor::builder(catalog)
        .base_url("tracker", format!("{}/api/v1", server.url()))
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
}

fn server() -> Server {
    Server::start(|_| Response::json(200, &json!({"number": 7, "title": "t", "state": "open"})))
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn confirmation_is_asked_and_nothing_runs_without_it() {
    let server = server();
    let rt = rt();
    let args = json!({"project": "web", "number": 7});

    // No approval callback: refused, not sent.
    let executor = builder(&server).build().unwrap();
    let err = rt
        .block_on(executor.call("delete_issue", args.clone()))
        .unwrap_err();
    assert_eq!(err.code(), "CONFIRMATION_REQUIRED", "{err}");
    assert!(matches!(
        err,
        Error::ConfirmationRequired {
            declined: false,
            ..
        }
    ));
    assert!(err.to_string().contains("asks for confirmation"), "{err}");
    assert_eq!(server.take_requests().len(), 0);
    // Calls that need nothing run as before.
    rt.block_on(executor.call("get_issue", args.clone()))
        .unwrap();
    assert_eq!(server.take_requests().len(), 1);

    // The callback sees the call and says no: refused, not sent.
    let asked = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&asked);
    let executor = builder(&server)
        .approve_with(move |call| {
            assert_eq!(call.tool, "delete_issue");
            assert_eq!(call.arguments["number"], 7);
            assert!(call.requires_confirmation && call.annotations.destructive);
            assert_eq!(call.danger_level.as_deref(), Some("destructive"));
            seen.fetch_add(1, Ordering::SeqCst);
            async { false }
        })
        .build()
        .unwrap();
    let err = rt
        .block_on(executor.call("delete_issue", args.clone()))
        .unwrap_err();
    assert!(
        matches!(err, Error::ConfirmationRequired { declined: true, .. }),
        "{err}"
    );
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(server.take_requests().len(), 0);

    // It says yes: the call runs, once.
    let executor = builder(&server)
        .approve_with(|_| async { true })
        .build()
        .unwrap();
    rt.block_on(executor.call("delete_issue", args)).unwrap();
    let requests = server.take_requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "DELETE");
}

#[test]
fn a_service_policy_can_deny_or_confirm_anything() {
    let server = server();
    let rt = rt();
    let args = json!({"project": "web", "number": 7});
    // Read-only service: every write denied.
    let executor = builder(&server)
        .gate(|call| {
            if call.annotations.read_only {
                Verdict::Allow
            } else {
                Verdict::Deny("this service only reads".into())
            }
        })
        .build()
        .unwrap();
    let close = json!({"project": "web", "number": 7, "resolution": "fixed"});
    let err = rt
        .block_on(executor.call("close_issue", close))
        .unwrap_err();
    assert_eq!(err.code(), "PERMISSION_DENIED_POLICY", "{err}");
    assert!(err.to_string().contains("only reads"), "{err}");
    rt.block_on(executor.call("get_issue", args.clone()))
        .unwrap();
    assert_eq!(server.take_requests().len(), 1, "only the read went out");
    // Confirm every destructive call (a built-in stricter policy).
    let executor = builder(&server)
        .gate(gate::confirm_destructive)
        .build()
        .unwrap();
    let err = rt
        .block_on(executor.call("delete_issue", args))
        .unwrap_err();
    assert_eq!(err.code(), "CONFIRMATION_REQUIRED");
    assert_eq!(server.take_requests().len(), 0);
}

/// The tracker adapter with `trust: {level: LEVEL}` added to its front matter.
fn tracker_trusted(server: &Server, level: &str) -> ExecutorBuilder {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/issue-tracker/adapters/tracker-adapter.md");
    let text = std::fs::read_to_string(path).unwrap().replacen(
        "\nauthor:",
        &format!("\ntrust: {{ level: {level} }}\nauthor:"),
        1,
    );
    let analysis = toolwright_codegen::analyze_text("tracker-adapter.md", &text, false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    Executor::builder(catalog)
        .base_url("tracker", format!("{}/api/v1", server.url()))
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
}

#[test]
fn an_untrusted_api_gets_every_change_confirmed() {
    let server = server();
    let rt = rt();
    let read = json!({"project": "web", "number": 7});
    let close = json!({"project": "web", "number": 7, "resolution": "fixed"});
    let executor = tracker_trusted(&server, "untrusted").build().unwrap();
    rt.block_on(executor.call("get_issue", read.clone()))
        .unwrap();
    let err = rt
        .block_on(executor.call("close_issue", close.clone()))
        .unwrap_err();
    assert_eq!(err.code(), "CONFIRMATION_REQUIRED", "{err}");
    assert!(err.to_string().contains("`untrusted`"), "{err}");
    assert_eq!(server.take_requests().len(), 1, "only the read went out");

    // A trusted level changes nothing; a service policy sees the level.
    let executor = tracker_trusted(&server, "verified").build().unwrap();
    rt.block_on(executor.call("close_issue", close.clone()))
        .unwrap();
    let executor = tracker_trusted(&server, "community")
        .gate(|call| match call.trust.as_deref() {
            Some("community") if !call.annotations.read_only => {
                Verdict::Deny("community adapters are read-only here".into())
            }
            _ => Verdict::Allow,
        })
        .build()
        .unwrap();
    let err = rt
        .block_on(executor.call("close_issue", close))
        .unwrap_err();
    assert_eq!(err.code(), "PERMISSION_DENIED_POLICY", "{err}");
    assert_eq!(server.take_requests().len(), 1);

    // An unknown level is a located warning when the adapter is read.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/issue-tracker/adapters/tracker-adapter.md"),
    )
    .unwrap()
    .replacen("\nauthor:", "\ntrust: { level: trusted }\nauthor:", 1);
    let analysis = toolwright_codegen::analyze_text("tracker-adapter.md", &text, false);
    let rendered = analysis.render();
    assert!(
        rendered.contains("unknown trust level `trusted`")
            && rendered.contains("tracker-adapter.md:6:17"),
        "{rendered}"
    );
}

#[test]
fn the_policy_and_the_approver_see_who_is_calling() {
    use std::sync::Mutex;
    use toolwright::serve::mcp::{BearerTokens, Http, Server as Mcp};

    let upstream = server();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Only the `release-bot` caller may close issues; every approval question names
    // who asked.
    let approvals = Arc::new(Mutex::new(Vec::new()));
    let asked = Arc::clone(&approvals);
    let executor = builder(&upstream)
        .gate(|call| match call.caller.as_deref() {
            _ if call.annotations.read_only => Verdict::Allow,
            Some("release-bot") => Verdict::Confirm("a bot changes issues".into()),
            who => Verdict::Deny(format!("{who:?} may only read")),
        })
        .approve_with(move |call| {
            asked.lock().unwrap().push(call.caller.clone());
            async { true }
        })
        .build()
        .unwrap();
    let tokens = BearerTokens::new()
        .token("alice", "alice-token-0123456789")
        .unwrap()
        .token("release-bot", "bot-token-0123456789")
        .unwrap();
    let http = Http::new(Mcp::new(executor)).auth(tokens);
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    rt.spawn(http.serve_on(listener));

    let call = |name: &str, arguments: serde_json::Value| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": name, "arguments": arguments,
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}}}})
    };
    let close = call(
        "close_issue",
        json!({"project": "web", "number": 7, "resolution": "fixed"}),
    );
    let get = call("get_issue", json!({"project": "web", "number": 7}));

    // alice reads, and may not close: refused by name, nothing sent.
    let answer = mcp_post(port, "alice-token-0123456789", &get);
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(upstream.take_requests().len(), 1);
    let answer = mcp_post(port, "alice-token-0123456789", &close);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(answer.to_string().contains("alice"), "{answer}");
    assert_eq!(upstream.take_requests().len(), 0);
    // The bot closes, after an approval that knew it was the bot.
    let answer = mcp_post(port, "bot-token-0123456789", &close);
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(upstream.take_requests().len(), 1);
    assert_eq!(
        *approvals.lock().unwrap(),
        [Some(Arc::<str>::from("release-bot"))]
    );
    // A call from the service's own code has no caller.
    let err = rt
        .block_on(async {
            builder(&upstream)
                .gate(|call| match &call.caller {
                    None => Verdict::Deny("no caller".into()),
                    Some(_) => Verdict::Allow,
                })
                .build()
                .unwrap()
                .call("get_issue", json!({"project": "web", "number": 7}))
                .await
        })
        .unwrap_err();
    assert!(err.to_string().contains("no caller"), "{err}");
}
