//! Code mode against real HTTP on loopback: scripts that chain the example tracker's
//! calls (list across pages → pick → get → update), catch an upstream error, wait for
//! approval of a dangerous call; and every sandbox escape attempt failing with a clear
//! error.
#![cfg(feature = "code")]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolwright::code::{FailureKind, Limits, Outcome};
use toolwright::{CredentialSource, Executor, ExecutorBuilder};
use toolwright_loopback::{Request, Response, Server};

fn builder(server: &Server) -> ExecutorBuilder {
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    let analysis = toolwright_codegen::analyze(&[adapters], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    Executor::builder(catalog)
        .base_url("tracker", format!("{}/api/v1", server.url()))
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
}

/// The tracker: two pages of issues (cursor in `X-Next-Cursor`), issue 404 missing,
/// every issue gettable and closable.
fn tracker(request: &Request) -> Response {
    let path = request.path();
    match (request.method.as_str(), path) {
        ("GET", "/api/v1/projects/web/issues") => {
            if request.query().unwrap_or("").contains("cursor=p2") {
                Response::json(
                    200,
                    &json!([{"number": 3, "title": "crash on save", "state": "open"}]),
                )
            } else {
                Response::json(
                    200,
                    &json!([
                        {"number": 1, "title": "typo", "state": "open"},
                        {"number": 2, "title": "slow start", "state": "open"}
                    ]),
                )
                .header("X-Next-Cursor", "p2")
            }
        }
        ("GET", p) if p.ends_with("/issues/404") => {
            Response::json(404, &json!({"message": "no such issue"}))
        }
        ("GET", p) if p.starts_with("/api/v1/projects/web/issues/") => {
            let number: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
            let title = ["", "typo", "slow start", "crash on save"][number as usize % 4];
            Response::json(
                200,
                &json!({"number": number, "title": title, "state": "open", "labels": ["bug"]}),
            )
        }
        ("PATCH", p) | ("DELETE", p) if p.starts_with("/api/v1/projects/web/issues/") => {
            let number: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
            Response::json(
                200,
                &json!({"number": number, "title": "t", "state": "closed"}),
            )
        }
        _ => Response::json(404, &json!({"message": "not here"})),
    }
}

/// The tracker, answering each request after `delay`.
fn slow_tracker(delay: Duration) -> Server {
    Server::start(move |request| {
        std::thread::sleep(delay);
        tracker(request)
    })
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn run(executor: &Executor, limits: Limits, script: &str) -> Outcome {
    rt().block_on(executor.code().limits(limits).execute(script))
}

fn failed(outcome: &Outcome) -> &toolwright::code::Failure {
    match &outcome.result {
        Err(failure) => failure,
        Ok(value) => panic!("the script should have failed; it returned {value}"),
    }
}

#[test]
fn a_script_chains_list_pages_get_and_update_and_catches_an_upstream_error() {
    let server = Server::start(tracker);
    let executor = builder(&server).build().unwrap();
    let script = r#"
        // Every open issue, across pages (the cursor is in a response header).
        const all = await tracker.list_issues.all({ project: "web" }, { max_pages: 5 });
        const issues = all.items;
        if (!all.complete) throw new Error("more than five pages");
        // Pick the crash, read it, close it.
        const crash = issues.find(i => i.title.includes("crash"));
        const full = await tracker.get_issue({ project: "web", number: crash.number });
        const closed = await tracker.close_issue({ project: "web", number: full.number, resolution: "fixed" });
        // A missing issue: the script handles the error itself.
        let missing;
        try {
          await tracker.get_issue({ project: "web", number: 404 });
        } catch (e) {
          missing = { code: e.code, status: e.status, message: e.body.message };
        }
        console.log("closed", closed.number);
        return { seen: issues.length, closed: closed.state, labels: full.labels, missing };
    "#;
    let outcome = run(&executor, Limits::default(), script);
    assert_eq!(
        outcome.result,
        Ok(json!({
            "seen": 3,
            "closed": "closed",
            "labels": ["bug"],
            "missing": {"code": "NOT_FOUND_UPSTREAM", "status": 404, "message": "no such issue"}
        })),
        "{outcome:?}"
    );
    assert_eq!(outcome.logs, ["closed 3"]);
    let calls: Vec<(&str, &str)> = outcome
        .calls
        .iter()
        .map(|c| (c.tool.as_str(), c.status.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            ("list_issues", "ok"),
            ("get_issue", "ok"),
            ("close_issue", "ok"),
            ("get_issue", "NOT_FOUND_UPSTREAM"),
        ]
    );
    assert_eq!(outcome.calls[3].http_status, Some(404));
    // What went over the wire: the second page asked for with the first's cursor,
    // the update as a PATCH with the resolution.
    let requests = server.take_requests();
    assert!(
        requests[1].target.contains("cursor=p2"),
        "{:?}",
        requests[1].target
    );
    assert_eq!(requests[3].method, "PATCH");
    assert_eq!(requests[3].json(), json!({"resolution": "fixed"}));
}

#[test]
fn the_same_script_with_the_same_answers_gives_the_same_result() {
    let server = Server::start(tracker);
    let executor = builder(&server).build().unwrap();
    let script = r#"
        const [a, b] = await Promise.all([
          tracker.get_issue({ project: "web", number: 1 }),
          tracker.get_issue({ project: "web", number: 2 }),
        ]);
        return { titles: [a.title, b.title], dice: [Math.random(), Math.random()], date: typeof Date };
    "#;
    let first = run(&executor, Limits::default(), script);
    let second = run(&executor, Limits::default(), script);
    assert!(first.result.is_ok(), "{first:?}");
    assert_eq!(first.result, second.result);
    assert_eq!(first.result.as_ref().unwrap()["date"], "undefined");
    assert_eq!(
        first.result.as_ref().unwrap()["titles"],
        json!(["typo", "slow start"])
    );
}

#[test]
fn calls_awaited_together_run_concurrently() {
    // Each answer takes 300 ms; five together take well under five times that.
    let server = slow_tracker(Duration::from_millis(300));
    let executor = builder(&server).build().unwrap();
    let started = std::time::Instant::now();
    let outcome = run(
        &executor,
        Limits::default(),
        r#"
        const numbers = [1, 2, 3, 1, 2];
        const issues = await Promise.all(numbers.map(number => tracker.get_issue({ project: "web", number })));
        return issues.map(i => i.number);
        "#,
    );
    assert_eq!(outcome.result, Ok(json!([1, 2, 3, 1, 2])), "{outcome:?}");
    assert!(
        started.elapsed() < Duration::from_millis(1200),
        "five 300 ms calls took {:?}: not concurrent",
        started.elapsed()
    );
}

#[test]
fn a_dangerous_call_waits_for_approval_and_runs_only_when_approved() {
    let server = Server::start(tracker);
    let asked = Arc::new(AtomicUsize::new(0));
    let count = asked.clone();
    let approving = builder(&server)
        .approve_with(move |pending| {
            count.fetch_add(1, Ordering::SeqCst);
            assert_eq!(pending.tool, "delete_issue");
            // Approval takes a while (a person answers): the script waits.
            async move {
                tokio::time::sleep(Duration::from_millis(200)).await;
                true
            }
        })
        .build()
        .unwrap();
    let script = r#"
        const gone = await tracker.delete_issue({ project: "web", number: 2 });
        return gone.number;
    "#;
    let outcome = run(&approving, Limits::default(), script);
    assert_eq!(outcome.result, Ok(json!(2)), "{outcome:?}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(server.take_requests().len(), 1);

    // Nobody to approve: the call is refused before anything is sent, and the script
    // sees why.
    let plain = builder(&server).build().unwrap();
    let outcome = run(
        &plain,
        Limits::default(),
        r#"
        try { await tracker.delete_issue({ project: "web", number: 2 }); }
        catch (e) { return e.code; }
        "#,
    );
    assert_eq!(
        outcome.result,
        Ok(json!("CONFIRMATION_REQUIRED")),
        "{outcome:?}"
    );
    assert!(server.take_requests().is_empty());
}

#[test]
fn invalid_arguments_are_refused_before_sending() {
    let (outcome, server) = on_tracker(
        r#"
        try { await tracker.get_issue({ project: "web", number: "seven" }); }
        catch (e) { return [e.code, e.message]; }
        "#,
        Limits::default(),
    );
    let result = outcome.result.unwrap();
    assert_eq!(result[0], "VALIDATION_ARGUMENTS");
    assert!(result[1].as_str().unwrap().contains("number"), "{result}");
    assert!(server.take_requests().is_empty());
}

/// Runs `script` against a fresh tracker; the server keeps what it was sent.
fn on_tracker(script: &str, limits: Limits) -> (Outcome, Server) {
    let server = Server::start(tracker);
    let executor = builder(&server).build().unwrap();
    (run(&executor, limits, script), server)
}

/// Runs `script` against a tracker it must not need.
fn escape(script: &str, limits: Limits) -> Outcome {
    on_tracker(script, limits).0
}

#[test]
fn modules_the_network_and_the_host_are_out_of_reach() {
    for (script, expected) in [
        (
            "const fs = require('fs'); return fs;",
            "require is not defined",
        ),
        (
            "const fs = await import('fs'); return 1;",
            "could not load module",
        ),
        (
            "return await fetch('http://127.0.0.1:1/');",
            "fetch is not defined",
        ),
        ("return process.env;", "process is not defined"),
        ("return Deno;", "Deno is not defined"),
        (
            "return new XMLHttpRequest();",
            "XMLHttpRequest is not defined",
        ),
        ("return Date.now();", "Date is not defined"),
        ("return performance.now();", "performance is not defined"),
        // The host function is not a global, and eval sees what the script sees.
        (
            "return eval('call')('get_issue', {});",
            "call is not defined",
        ),
        (
            "return tracker.get_issue.constructor('return this')().call('get_issue', {});",
            "not a function",
        ),
    ] {
        let outcome = escape(script, Limits::default());
        let failure = failed(&outcome);
        assert_eq!(failure.kind, FailureKind::Thrown, "{script}: {failure:?}");
        assert!(
            failure.message.contains(expected),
            "{script}: expected `{expected}` in `{}`",
            failure.message
        );
        assert!(outcome.calls.is_empty(), "{script}");
    }
}

#[test]
fn module_syntax_is_a_syntax_error_with_its_line() {
    let outcome = escape(
        "const a = 1;\nimport fs from 'fs';\nreturn a;",
        Limits::default(),
    );
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::Syntax, "{failure:?}");
    assert_eq!(failure.line, Some(2), "{failure:?}");
}

#[test]
fn an_error_names_the_scripts_line_and_column() {
    let outcome = escape(
        "const a = 1;\n\n  const b = null;\n  return b.field;",
        Limits::default(),
    );
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::Thrown);
    assert_eq!(
        (failure.line, failure.column),
        (Some(4), Some(10)),
        "{failure:?}"
    );
    assert!(failure.message.contains("TypeError"), "{failure:?}");
    let json = outcome.to_json();
    assert_eq!(json["error"]["code"], "SCRIPT_THROWN");
    assert_eq!(json["error"]["line"], 4);
}

#[test]
fn polluting_prototypes_and_host_functions_changes_no_request() {
    let (outcome, server) = on_tracker(
        r#"
        Object.prototype.resolution = "wontfix";
        Object.prototype.admin = true;
        Function.prototype.call = () => "hijacked";
        Function.prototype.apply = () => "hijacked";
        let replaced = "no";
        try { tracker.get_issue = () => "fake"; } catch (e) { replaced = e.name; }
        let added = "no";
        try { tracker.steal = () => 1; } catch (e) { added = e.name; }
        let deleted = "no";
        try { delete tracker.get_issue; } catch (e) { deleted = e.name; }
        let frozen = "no";
        try { Object.setPrototypeOf(tracker, { get_issue: () => "fake" }); } catch (e) { frozen = e.name; }
        const issue = await tracker.close_issue({ project: "web", number: 1, resolution: "fixed" });
        return {
          replaced, added, deleted, frozen, state: issue.state, same: typeof tracker.get_issue,
          listed: Object.keys(tracker), has: "get_issue" in tracker, unknown: typeof tracker.nope,
        };
        "#,
        Limits::default(),
    );
    assert_eq!(
        outcome.result,
        Ok(json!({
            "replaced": "TypeError", "added": "TypeError", "deleted": "TypeError",
            "frozen": "TypeError", "state": "closed", "same": "function",
            "listed": ["close_issue", "create_issue", "delete_issue", "get_issue", "list_issues"],
            "has": true, "unknown": "undefined"
        })),
        "{outcome:?}"
    );
    let requests = server.take_requests();
    assert_eq!(requests.len(), 1);
    // Inherited properties are not arguments.
    assert_eq!(requests[0].json(), json!({"resolution": "fixed"}));
}

#[test]
fn an_infinite_loop_stops_at_the_cpu_limit() {
    let limits = Limits {
        cpu: Duration::from_millis(300),
        ..Limits::default()
    };
    for script in [
        "while (true) {}",
        // Catching the interruption does not help.
        "for (;;) { try { while (true) {} } catch (e) {} }",
        // Nor does doing the work after an await.
        "await tracker.get_issue({ project: 'web', number: 1 }); for (;;) {}",
    ] {
        let started = std::time::Instant::now();
        let outcome = escape(script, limits);
        let failure = failed(&outcome);
        assert_eq!(failure.kind, FailureKind::CpuLimit, "{script}: {failure:?}");
        assert!(failure.message.contains("300 ms of CPU"), "{failure:?}");
        assert!(started.elapsed() < Duration::from_secs(5), "{script}");
    }
}

#[test]
fn waiting_stops_at_the_wall_time_limit() {
    let server = slow_tracker(Duration::from_millis(1500));
    let executor = builder(&server).build().unwrap();
    let limits = Limits {
        wall: Duration::from_millis(400),
        ..Limits::default()
    };
    let outcome = run(
        &executor,
        limits,
        "return await tracker.get_issue({ project: 'web', number: 1 });",
    );
    assert_eq!(failed(&outcome).kind, FailureKind::WallLimit, "{outcome:?}");
}

#[test]
fn allocating_stops_at_the_memory_limit() {
    let limits = Limits {
        memory: 16 << 20,
        ..Limits::default()
    };
    let outcome = escape(
        "const hoard = []; while (true) hoard.push('x'.repeat(1 << 20));",
        limits,
    );
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::MemoryLimit, "{failure:?}");
    assert!(failure.message.contains("out of memory"), "{failure:?}");
}

#[test]
fn ten_thousand_calls_stop_at_the_call_limit() {
    let server = Server::start(tracker);
    let executor = builder(&server).build().unwrap();
    let limits = Limits {
        calls: 20,
        ..Limits::default()
    };
    let outcome = run(
        &executor,
        limits,
        r#"
        let made = 0;
        for (let i = 0; i < 10000; i++) {
          try { await tracker.get_issue({ project: "web", number: 1 }); made++; } catch (e) {}
        }
        return made;
        "#,
    );
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::CallLimit, "{failure:?}");
    assert_eq!(outcome.calls.len(), 20);
    assert_eq!(server.take_requests().len(), 20);
}

#[test]
fn a_result_of_a_gigabyte_stops_at_the_output_limit() {
    // 16 MB of engine memory (one string, a million references) but 1 GB as JSON.
    let outcome = escape(
        "return new Array(1000000).fill('x'.repeat(1000));",
        Limits::default(),
    );
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::OutputLimit, "{failure:?}");
    // Logs count against the same limit and are cut, not lost silently.
    let outcome = escape(
        "for (let i = 0; i < 100000; i++) console.log('x'.repeat(100)); return 1;",
        Limits::default(),
    );
    assert_eq!(outcome.result, Ok(json!(1)));
    assert!(outcome.logs.last().unwrap().contains("later logs left out"));
    assert!(outcome.logs.len() < 3000);
}

#[test]
fn results_that_are_not_data_say_so() {
    for (script, expected) in [
        ("return () => 1;", "a function"),
        ("const a = {}; a.self = a; return a;", "cycle"),
        (
            "return tracker.get_issue({ project: 'web', number: 1 });",
            "a promise",
        ),
    ] {
        // A promise returned from an async function is awaited by it: that one is data.
        let outcome = escape(script, Limits::default());
        if expected == "a promise" {
            assert!(outcome.result.is_ok(), "{outcome:?}");
            continue;
        }
        let failure = failed(&outcome);
        assert_eq!(failure.kind, FailureKind::NotData, "{script}");
        assert!(failure.message.contains(expected), "{failure:?}");
    }
}

#[test]
fn deep_recursion_is_an_error_not_a_crash() {
    let outcome = escape(
        "const f = (n) => f(n + 1) + 1; return f(0);",
        Limits::default(),
    );
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::Thrown);
    assert!(failure.message.contains("stack"), "{failure:?}");
}

#[test]
fn search_and_execute_are_two_tools_for_any_provider() {
    let server = Server::start(tracker);
    let executor = builder(&server).build().unwrap();
    let code = executor.code();
    let tools = code.tools();
    let names: Vec<&str> = tools.tools().iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["execute", "search"]);
    for profile in [
        toolwright::Profile::Mcp,
        toolwright::Profile::OpenAi,
        toolwright::Profile::Anthropic,
        toolwright::Profile::Gemini,
    ] {
        let export = tools.export(profile);
        assert_eq!(export.tools().len(), 2, "{profile:?}");
        assert!(
            export.warnings().is_empty(),
            "{profile:?}: {:?}",
            export.warnings()
        );
    }
    let rt = rt();
    let found: Value = rt
        .block_on(code.call("search", json!({"query": "close a bug", "limit": 2})))
        .unwrap();
    let text = found.as_str().unwrap();
    assert!(text.contains("namespace tracker"), "{text}");
    assert!(text.contains("function close_issue("), "{text}");
    let ran: Value = rt
        .block_on(code.call(
            "execute",
            json!({"script": "const i = await tracker.get_issue({project: 'web', number: 2}); return i.title;"}),
        ))
        .unwrap();
    assert_eq!(ran["result"], "slow start");
    assert_eq!(ran["calls"][0]["tool"], "get_issue");
    assert_eq!(ran["calls"][0]["status"], "ok");
}

/// GitHub's own description (1,223 tools) against a loopback API: a script follows the
/// issue list across pages (`Link` headers), picks one, reads it and updates it, the
/// way the tool graph says the values flow (the list hands out `number`, which the
/// get and the update take as `issue_number`).
#[test]
fn a_script_against_githubs_description_lists_picks_reads_and_updates() {
    let spec = toolwright_loopback::corpus::big("github.com_api.github.com.json", "github.json");
    let analysis = toolwright_codegen::analyze(&[spec], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let producers = toolwright::catalog::flows::incoming(&catalog);
    let of_number: Vec<&str> = producers
        .get("issues_get")
        .and_then(|inputs| inputs.get("issue_number"))
        .map(|p| p.iter().map(|p| p.tool.as_str()).collect())
        .unwrap_or_default();
    let server = Server::start(toolwright_loopback::octo_widgets_issues);
    let executor = Executor::builder(catalog)
        .base_url("github", server.url())
        .credentials(CredentialSource::from_fn(|_| Some("ghp_test".into())))
        .build()
        .unwrap();
    let script = r#"
        const where = { owner: "octo-org", repo: "widgets" };
        const open = await github.issues_list_for_repo.all({ ...where, state: "open", per_page: 2 }, { max_pages: 5 });
        const crash = open.items.find(issue => issue.title.includes("Crash"));
        const issue = await github.issues_get({ ...where, issue_number: crash.number });
        const closed = await github.issues_update({
          ...where, issue_number: issue.number, state: "closed", labels: ["bug"],
        });
        let gone = null;
        try { await github.issues_get({ ...where, issue_number: 404 }); }
        catch (e) { gone = `${e.code} ${e.status}`; }
        return { pages: open.pages, seen: open.items.length, closed: closed.state, gone };
    "#;
    let outcome = run(&executor, Limits::default(), script);
    let sent_first: Vec<String> = server
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(
        outcome.result,
        Ok(json!({"pages": 2, "seen": 3, "closed": "closed", "gone": "NOT_FOUND_UPSTREAM 404"})),
        "{outcome:?}\n{sent_first:?}\nproducers of issues/get's issue_number: {of_number:?}"
    );
    let sent: Vec<String> = server
        .take_requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(sent.len(), 5, "{sent:?}");
    assert!(
        sent[1].contains("&page=2") || sent[1].contains("?page=2"),
        "{sent:?}"
    );
    assert!(
        sent[3].starts_with("PATCH /repos/octo-org/widgets/issues/3"),
        "{sent:?}"
    );
    assert!(
        of_number.contains(&"issues_list_for_repo"),
        "the graph should say the list hands out issue numbers: {of_number:?}"
    );
}

/// Over MCP's HTTP endpoint in code mode, a script's calls are made for the caller who
/// sent it: the gate's policy and the approver see that caller's name inside the
/// script (which runs on another thread), exactly as for a direct call.
#[test]
fn a_scripts_calls_are_made_for_the_authenticated_caller() {
    use std::sync::Mutex;
    use toolwright::gate::Verdict;
    use toolwright::serve::mcp::{BearerTokens, Http, Server as Mcp, ToolMode};

    let upstream = Server::start(tracker);
    let rt = rt();
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
    let http = Http::new(Mcp::new(executor).mode(ToolMode::Code)).auth(tokens);
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    rt.spawn(http.serve_on(listener));
    let execute = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "execute",
        "arguments": {"script": r#"
            const issue = await tracker.get_issue({ project: "web", number: 1 });
            try {
              const closed = await tracker.close_issue({ project: "web", number: issue.number, resolution: "fixed" });
              return closed.state;
            } catch (e) { return e.code + ": " + e.message; }
        "#},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});

    let answer = toolwright_loopback::mcp_post(port, "alice-token-0123456789", &execute);
    let result = &answer["result"]["structuredContent"]["result"];
    assert!(
        result
            .as_str()
            .unwrap()
            .starts_with("PERMISSION_DENIED_POLICY")
            && result.as_str().unwrap().contains("alice"),
        "{answer}"
    );
    assert_eq!(
        upstream.take_requests().len(),
        1,
        "only alice's read went out"
    );
    let answer = toolwright_loopback::mcp_post(port, "bot-token-0123456789", &execute);
    assert_eq!(
        answer["result"]["structuredContent"]["result"], "closed",
        "{answer}"
    );
    assert_eq!(upstream.take_requests().len(), 2);
    assert_eq!(
        *approvals.lock().unwrap(),
        [Some(Arc::<str>::from("release-bot"))]
    );
}
