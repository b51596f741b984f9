//! An adapter-driven client end to end: `adapters/tracker-adapter.md` → build.rs →
//! typed client + tool catalog. A small in-memory tracker on loopback stands in for the
//! remote API, so `cargo run -p issue-tracker` works offline; `-- --serve` runs only that
//! server, on 127.0.0.1:8733, for a program of one's own to call. Milestones are a
//! `#[derive(ToolSchema)]` resource the service answers itself; their tools sit in the
//! same catalog and are called by name the same way.

mod milestones;
mod server;

include!(concat!(env!("OUT_DIR"), "/toolwright.rs"));

use serde_json::json;
use toolwright::{CredentialSource, Executor};

/// Where `--serve` listens unless given an address (the README's crate calls it here).
const SERVE_ADDRESS: &str = "127.0.0.1:8733";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `--serve [ADDRESS]`: only the stand-in API, until interrupted, for a program of
    // one's own to call (the README's "Using it in a crate").
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some("--serve") {
        let address = args.next().unwrap_or_else(|| SERVE_ADDRESS.into());
        let server = server::bind(&address).unwrap_or_else(|e| {
            eprintln!("error: cannot listen on {address}: {e}");
            std::process::exit(1)
        });
        println!(
            "stand-in tracker API on {}/api/v1 (bearer token `demo-token`); Ctrl-C stops it",
            server.url()
        );
        loop {
            std::thread::park();
        }
    }
    let server = server::start();
    // `--mcp`: stdout belongs to the protocol.
    let mcp = std::env::args().any(|a| a == "--mcp");
    if !mcp {
        println!("stand-in tracker API listening on {}\n", server.url());
    }

    // One executor serves the typed client and call-by-name alike. The base URL is the
    // service's choice (here: the loopback server), never the caller's.
    let executor = Executor::builder(catalog())
        .base_url("tracker", format!("{}/api/v1", server.url()))
        // Real services read TRACKER_TOKEN from the environment (the default); the
        // example supplies a demo token so it runs without setup.
        .credentials(CredentialSource::from_fn(|name| {
            std::env::var(name)
                .ok()
                .or_else(|| (name == "TRACKER_TOKEN").then(|| "demo-token".into()))
        }))
        // Derive-based resource tools join the generated ones in one catalog.
        .resource(milestones::Milestones::default())
        .build()?;

    // `--mcp`: serve the whole catalog (adapter tools and milestones) to MCP clients on
    // stdin/stdout instead of running the walkthrough (which prints to stdout).
    if mcp {
        eprintln!("serving MCP on stdio; the stand-in API is {}", server.url());
        toolwright::serve::mcp::Server::new(executor)
            .info("issue-tracker", env!("CARGO_PKG_VERSION"))
            .serve_stdio()
            .await?;
        return Ok(());
    }

    println!("== tools/list (what an LLM sees) ==");
    for tool in executor.catalog().tools() {
        let a = tool.annotations;
        println!(
            "- {:<17} read_only={:<5} destructive={:<5} idempotent={:<5} {}",
            tool.name,
            a.read_only,
            a.destructive,
            a.idempotent,
            tool.description.lines().next().unwrap_or("")
        );
    }

    println!("\n== typed calls ==");
    let client = tracker::Client::new(executor.clone());
    let created = client
        .create_issue(&tracker::CreateIssueInput {
            project: "web".into(),
            title: "Login button does nothing on Safari".into(),
            body: Some("Steps: open /login, click **Sign in**.".into()),
            priority: Some(tracker::CreateIssueInputPriority::High),
            labels: Some(vec!["bug".into(), "safari".into()]),
        })
        .await?;
    println!(
        "created #{} {:?} ({:?})",
        created.number, created.title, created.state
    );
    let fetched = client
        .get_issue(&tracker::GetIssueInput {
            project: "web".into(),
            number: created.number,
        })
        .await?;
    println!(
        "fetched #{} labels={:?}",
        fetched.number,
        fetched.labels.unwrap_or_default()
    );

    // Three more, then the list page by page (the tracker serves two a page and says
    // where the next one starts in `X-Next-Cursor`).
    for title in [
        "Dark mode flickers",
        "Typo on pricing page",
        "Search ignores accents",
    ] {
        client
            .create_issue(&tracker::CreateIssueInput {
                project: "web".into(),
                title: title.into(),
                body: None,
                priority: None,
                labels: None,
            })
            .await?;
    }
    let mut pages = client.list_issues_pages(&tracker::ListIssuesInput::new("web"))?;
    let mut sizes = Vec::new();
    while let Some(page) = pages.next_page().await {
        sizes.push(page?.value.len());
    }
    println!("list_issues_pages → page sizes {sizes:?}");

    println!("\n== by-name calls (JSON arguments, as an LLM sends them) ==");
    let all = executor
        .call_all(
            "list_issues",
            json!({"project": "web"}),
            toolwright::PageLimits::pages(10),
        )
        .await?;
    println!(
        "list_issues, all pages → {} issues in {} pages",
        all["items"].as_array().map_or(0, Vec::len),
        all["pages"]
    );
    let listed = executor
        .call("list_issues", json!({"project": "web", "state": "open"}))
        .await?;
    println!("list_issues → {listed}");
    let closed = executor
        .call(
            "close_issue",
            json!({"project": "web", "number": created.number, "resolution": "fixed"}),
        )
        .await?;
    println!("close_issue → {closed}");
    let milestone = executor
        .call(
            "create_Milestone",
            json!({"slug": "v2.1", "project": "web", "title": "Safari fixes", "due": "2026-12-15"}),
        )
        .await?;
    println!("create_Milestone → {milestone}");
    let found = executor
        .call(
            "search_Milestone",
            json!({"conditions": [{"attribute": "project", "operator": "eq", "value": "web"}]}),
        )
        .await?;
    println!("search_Milestone → {found}");
    let renamed = executor
        .call(
            "patch_Milestone",
            json!({"slug": "v2.1", "title": "Safari and Firefox fixes"}),
        )
        .await?;
    println!("patch_Milestone → {renamed}");

    // The same resource, with the same descriptions and schemas, as OpenAPI 3.1.
    let document = toolwright::resource::OpenApi::new("Tracker service", "1.0.0")
        .resource::<milestones::Milestone>()
        .render();
    let paths: Vec<&String> = document["paths"]
        .as_object()
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    println!("OpenAPI 3.1 paths of the milestone resource: {paths:?}");

    println!("\n== errors ==");
    match executor
        .call("get_issue", json!({"project": "web", "number": 999}))
        .await
    {
        Err(e) => println!("get_issue #999 → {e}"),
        Ok(v) => println!("unexpected: {v}"),
    }
    match executor
        .call("create_issue", json!({"project": "web", "title": 42}))
        .await
    {
        Err(e) => println!("create_issue with a bad title → {e}"),
        Ok(v) => println!("unexpected: {v}"),
    }
    match executor
        .call("create_Milestone", json!({"slug": "v3", "project": "web"}))
        .await
    {
        Err(e) => println!("create_Milestone without a title → {e}"),
        Ok(v) => println!("unexpected: {v}"),
    }
    Ok(())
}
