//! Code mode's limits against hostile scripts (issue #58, hostile inputs round 3), over
//! real HTTP on loopback: built-ins that loop in C still stop at the CPU limit,
//! cancelling a run stops its calls, a getter cannot nest calls past the call limit,
//! values the engine cannot represent exactly are refused or kept exact.
#![cfg(feature = "code")]

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolwright::code::{FailureKind, Limits, Outcome};
use toolwright::{CredentialSource, Executor};
use toolwright_loopback::{Request, Response, Server};

fn executor(server: &Server) -> Executor {
    executor_at(&server.url())
}

/// The example tracker's executor against the server at `url`.
fn executor_at(url: &str) -> Executor {
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    executor_of(&adapters, &[("tracker", url)])
}

/// The executor of the adapters in `adapters`, each API (by name) against its URL.
fn executor_of(adapters: &Path, apis: &[(&str, &str)]) -> Executor {
    let analysis = toolwright_codegen::analyze(&[adapters.to_path_buf()], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let mut builder = Executor::builder(catalog);
    for (api, url) in apis {
        builder = builder.base_url(*api, format!("{url}/api/v1"));
    }
    builder
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
        .build()
        .unwrap()
}

/// Every issue exists and can be read or closed; each answer after `delay`.
fn tracker(delay: Duration) -> Server {
    Server::start(move |request: &Request| {
        std::thread::sleep(delay);
        let number: u64 = request
            .path()
            .rsplit('/')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        Response::json(
            200,
            &json!({"number": number, "title": "t", "state": "open"}),
        )
    })
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn run(script: &str, limits: Limits) -> (Outcome, Server) {
    let server = tracker(Duration::ZERO);
    let executor = executor(&server);
    let outcome = rt().block_on(executor.code().limits(limits).execute(script));
    (outcome, server)
}

fn failed(outcome: &Outcome) -> &toolwright::code::Failure {
    match &outcome.result {
        Err(failure) => failure,
        Ok(value) => panic!("the script should have failed; it returned {value}"),
    }
}

/// The CPU time this process has used (user + system), from /proc.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    // Fields 14 and 15 of stat(5), counted after the command's closing parenthesis.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// F01: QuickJS's `reverse`, `copyWithin`, `join`, `slice`, `JSON.stringify` and
/// default-order sorts loop in C without polling the interrupt handler. Each of these
/// ran for minutes to days; now each stops at the CPU limit, within a second of it,
/// and the engine itself stops (no core left spinning).
#[test]
fn built_ins_that_loop_in_c_stop_at_the_cpu_limit() {
    let limits = Limits {
        cpu: Duration::from_millis(500),
        wall: Duration::from_secs(3),
        ..Limits::default()
    };
    for script in [
        "return Array.prototype.reverse.call({ length: 2 ** 53 - 1 });",
        "return Array.prototype.copyWithin.call({ length: 2 ** 53 - 1 }, 0, 1);",
        "const a = []; a.length = 2 ** 32 - 1; return a.join('').length;",
        "const a = []; a.length = 2 ** 32 - 1; return a.reverse().length;",
        "const a = []; a.length = 2 ** 32 - 1; return a.slice(1).length;",
        "const a = []; a.length = 2 ** 31; console.log(a); return 1;",
        // A length that changes: small when first read, huge after.
        "let n = 0; const o = { get length() { return n++ ? 2 ** 53 - 1 : 0; } }; \
         Array.prototype.reverse.call(o); return Array.prototype.reverse.call(o) && 1;",
        // A proxy without traps, whose accesses would stay in C.
        "return Array.prototype.reverse.call(new Proxy({ length: 2 ** 53 - 1 }, {}));",
        // A real array with a long prototype chain of its own.
        "const a = []; a.length = 1e6; Object.setPrototypeOf(a, Object.create([])); return a.reverse().length;",
        // Nested and spread array-likes.
        "const a = []; a.length = 2 ** 32 - 1; return [a, a, a].flat().length;",
        "return [].concat({ length: 2 ** 53 - 2, [Symbol.isConcatSpreadable]: true }).length;",
        // One object of 100,000 undefined keys, 10,000 times: no output, 10^9 steps.
        "const o = {}; for (let i = 0; i < 1e5; i++) o['k' + i] = undefined; \
         return JSON.stringify(new Array(1e4).fill(o)).length;",
        "const o = {}; for (let i = 0; i < 1e5; i++) o['k' + i] = undefined; \
         return JSON.stringify(new Array(1e4).fill(o), Object.keys(o)).length;",
    ] {
        let started = Instant::now();
        let (outcome, _server) = run(script, limits);
        let took = started.elapsed();
        let failure = failed(&outcome);
        assert!(
            matches!(
                failure.kind,
                FailureKind::CpuLimit | FailureKind::WallLimit | FailureKind::MemoryLimit
            ),
            "{script}: {failure:?}"
        );
        // The engine stopped itself: the watchdog's answer would say so.
        assert!(
            !failure.message.contains("inside a built-in"),
            "{script}: {failure:?}"
        );
        assert!(
            took < limits.wall + Duration::from_secs(1),
            "{script}: {took:?}"
        );
    }
    // Nothing keeps running after the answers.
    let before = cpu_time();
    std::thread::sleep(Duration::from_millis(1000));
    let spent = cpu_time() - before;
    assert!(
        spent < Duration::from_millis(300),
        "{spent:?} of CPU in 1 s"
    );
}

/// The replaced built-ins give what the originals give, on short arrays (natively)
/// and long ones (through the interruptible path).
#[test]
fn replaced_built_ins_keep_their_results() {
    let (outcome, _server) = run(
        r#"
        const long = Array.from({ length: 70000 }, (_, i) => (i * 7919) % 70001);
        const sorted = long.slice().sort();
        let ordered = true;
        for (let i = 1; i < sorted.length; i++) if (`${sorted[i - 1]}` > `${sorted[i]}`) ordered = false;
        const typed = new Float64Array([3, -0, 0, NaN, -1, ...new Array(70000).fill(2)]).sort();
        const like = { length: 3, 0: "a", 1: "b", 2: "c" };
        Array.prototype.reverse.call(like);
        const holes = [1, , 3];
        return {
          ordered, first: sorted.slice(0, 3), back: long.slice().reverse()[0] === long[long.length - 1],
          joined: long.join("").length, typed: [typed[0], Object.is(typed[1], -0), typed[2], typed[70004]],
          like: [like[0], like[1], like[2]], holes: holes.reverse().length, hole: 1 in holes,
          concat: [1].concat([2], { length: 1, 0: 3, [Symbol.isConcatSpreadable]: true }, { x: 1 }),
          flat: [1, [2, [3, [4]]]].flat(2), flatMap: [1, 2].flatMap((x) => [x, x * 10]),
          json: JSON.stringify({ b: 1, a: [1, { a: 2, c: 3 }], c: undefined }, ["a", "b"]),
          spaced: JSON.stringify([1, { x: 2 }], null, 1),
          filtered: JSON.stringify({ a: 1, b: 2 }, (k, v) => (k === "b" ? undefined : v)),
          same: [].reverse === Array.prototype.reverse && typeof [].join === "function",
          name: [].reverse.name + "/" + [].join.length,
        };
        "#,
        // The long arrays take a few seconds in a debug build.
        Limits {
            cpu: Duration::from_secs(60),
            wall: Duration::from_secs(120),
            ..Limits::default()
        },
    );
    assert_eq!(
        outcome.result,
        Ok(json!({
            "ordered": true, "first": [0, 1, 10], "back": true, "joined": 338_890,
            "typed": [-1, true, 0, null], "like": ["c", "b", "a"], "holes": 3, "hole": false,
            "concat": [1, 2, 3, {"x": 1}], "flat": [1, 2, 3, [4]], "flatMap": [1, 10, 2, 20],
            "json": "{\"a\":[1,{\"a\":2}],\"b\":1}", "spaced": "[\n 1,\n {\n  \"x\": 2\n }\n]",
            "filtered": "{\"a\":1}", "same": true, "name": "reverse/1"
        })),
        "{outcome:?}"
    );
}

/// F04 (and F03's cause): dropping the run — what a cancelled MCP request or a closed
/// HTTP connection does — stops the script; no call goes out after it.
#[test]
fn a_cancelled_run_makes_no_more_calls() {
    let server = tracker(Duration::from_millis(300));
    let executor = executor(&server);
    let rt = rt();
    let code = executor.code();
    let script = "for (let i = 1; i <= 8; i++) \
                  await tracker.close_issue({ project: 'web', number: i, resolution: 'fixed' }); \
                  return 8;";
    let gave_up = rt.block_on(async {
        tokio::time::timeout(Duration::from_millis(750), code.execute(script)).await
    });
    assert!(gave_up.is_err(), "the script should still be running");
    std::thread::sleep(Duration::from_secs(3));
    let made = server.take_requests().len();
    // Two or three calls were under way when the caller gave up; before, all 8 went out.
    assert!((2..=3).contains(&made), "{made} calls reached the API");
}

/// F07: an argument's getter that calls an API function while the host reads the
/// arguments is refused, so the call limit holds and every record finishes (the
/// reproducer of the report, verbatim: 81 requests and 80 `pending` records under a
/// limit of 5 before).
#[test]
fn a_getter_cannot_call_the_api_while_arguments_are_read() {
    let limits = Limits {
        calls: 5,
        ..Limits::default()
    };
    let (outcome, server) = run(
        r#"
        const promises = [];
        const mk = (d) => {
          const o = { number: 1 };
          Object.defineProperty(o, "project", { enumerable: true, get() {
            if (d < 40) promises.push(tracker.get_issue(mk(d + 1)).then(() => "ok", e => e.code));
            return "reentry";
          }});
          return o;
        };
        promises.push(tracker.get_issue(mk(0)).then(() => "ok", e => e.code));
        const results = await Promise.all(promises);
        return { made: results.length, ok: results.filter(r => r === "ok").length, codes: [...new Set(results)] };
        "#,
        limits,
    );
    let made = server.take_requests().len();
    assert!(made <= limits.calls, "{made} requests: {outcome:?}");
    assert!(
        outcome.calls.iter().all(|c| c.status != "pending"),
        "{outcome:?}"
    );
    let failure = failed(&outcome);
    assert!(
        failure
            .message
            .contains("was called while a call's arguments"),
        "{failure:?}"
    );
}

/// F12 and F13: an array of length 2^31 or more (a result, a throw, an argument) is a
/// clear error, not a panic in the engine's bindings; BigInt keeps every digit.
#[test]
fn huge_lengths_and_big_integers_convert_exactly_or_not_at_all() {
    for script in [
        "const a = []; a.length = 2 ** 31; return a;",
        "const a = []; a.length = 2 ** 32 - 1; throw a;",
        "const a = []; a.length = 2 ** 31; return await tracker.get_issue({ project: 'web', number: 1, labels: a });",
    ] {
        let (outcome, server) = run(script, Limits::default());
        let failure = failed(&outcome);
        assert!(
            !failure.message.contains("panicked") && !failure.message.contains("runner stopped"),
            "{script}: {failure:?}"
        );
        assert!(
            matches!(failure.kind, FailureKind::OutputLimit | FailureKind::Thrown),
            "{script}: {failure:?}"
        );
        assert!(server.take_requests().is_empty(), "{script}");
    }
    let (outcome, _server) = run(
        "return { a: 12345678901234567890n, b: 2n ** 64n + 7n, c: -(2n ** 70n), d: 5n };",
        Limits::default(),
    );
    assert_eq!(
        outcome.result,
        Ok(json!({
            "a": "12345678901234567890", "b": "18446744073709551623",
            "c": "-1180591620717411303424", "d": "5"
        }))
    );
    let (outcome, server) = run(
        "return (await tracker.get_issue({ project: 'web', number: 18446744073709551621n })).number;",
        Limits::default(),
    );
    // Sent as the exact digits, which the schema then refuses as not an integer (never
    // wrapped to 5).
    let sent: Vec<Value> = server
        .take_requests()
        .iter()
        .map(|r| json!(r.path()))
        .collect();
    assert!(
        !sent.iter().any(|p| p.as_str().unwrap().ends_with("/5")),
        "{sent:?} {outcome:?}"
    );
    assert!(outcome.calls.len() <= 1, "{outcome:?}");
}

/// F02: what a script makes the host hold counts against its memory limit: the
/// items `fn.all` collects (the report's `max_items: 1e9` walked 100 pages of 7 MB and
/// passed 6 GB) and the arguments of calls waiting for answers.
#[test]
fn host_memory_a_script_causes_is_bounded_by_its_memory_limit() {
    // Endless pages of 500 issues with 1 KiB titles (about 0.6 MB of items each).
    let served = std::sync::atomic::AtomicUsize::new(0);
    let issues: Vec<Value> = (0..500)
        .map(|n| json!({"number": n, "title": "x".repeat(1024), "state": "open"}))
        .collect();
    let pages = Server::start(move |_: &Request| {
        let next = served.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        Response::json(200, &json!(issues)).header("X-Next-Cursor", &format!("p{next}"))
    });
    let walker = executor(&pages);
    let limits = Limits {
        memory: 4 << 20,
        ..Limits::default()
    };
    let outcome = rt().block_on(walker.code().limits(limits).execute(
        "const r = await tracker.list_issues.all({ project: 'web' }, { max_pages: 100, max_items: 1e9 }); \
         return [r.items.length, r.pages, r.complete];",
    ));
    let fetched = pages.take_requests().len();
    // 4 MiB of items is about 7 pages; the script's heap then cannot hold them all.
    assert!(fetched <= 10, "{fetched} pages fetched: {outcome:?}");
    match &outcome.result {
        Ok(value) => assert_eq!(value[2], false, "{outcome:?}"),
        Err(failure) => assert_eq!(failure.kind, FailureKind::MemoryLimit, "{outcome:?}"),
    }

    // Twenty calls with 1 MiB of arguments each, all waiting on a slow API, under 8 MiB.
    let limits = Limits {
        memory: 8 << 20,
        ..Limits::default()
    };
    let slow = tracker(Duration::from_millis(200));
    let executor = executor(&slow);
    let outcome = rt().block_on(executor.code().limits(limits).execute(
        "const body = 'x'.repeat(1 << 20); const ps = []; \
         for (let i = 0; i < 20; i++) { \
           try { ps.push(tracker.create_issue({ project: 'web', title: 't', body }).then(() => 'ok', (e) => e.message)); } \
           catch (e) { ps.push(e.message); } \
         } \
         const all = await Promise.all(ps); \
         return [all.filter((r) => r === 'ok').length, all.filter((r) => r.includes('memory limit')).length];",
    ));
    let result = outcome.result.clone().unwrap();
    let (sent, refused) = (result[0].as_u64().unwrap(), result[1].as_u64().unwrap());
    assert!(sent <= 8 && refused >= 12, "{outcome:?}");
    assert_eq!(slow.take_requests().len() as u64, sent);
}

/// A server whose every answer is a small issue padded with spaces to `size` bytes
/// (whitespace after a JSON value is JSON), of which it sends the first `first` at
/// once and the rest `pause` later: answers in flight, held by the reader meanwhile,
/// that take no room once parsed. Each connection on a thread of its own; the URL and
/// the count of requests.
fn slow_bodies(
    size: usize,
    first: usize,
    pause: Duration,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = count.clone();
    let mut body = json!({"number": 1, "title": "t", "state": "open"}).to_string();
    body.push_str(&" ".repeat(size - body.len()));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let body = body.clone();
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                    head.push(byte[0]);
                }
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(&body.as_bytes()[..first]);
                let _ = stream.flush();
                std::thread::sleep(pause);
                let _ = stream.write_all(&body.as_bytes()[first..]);
            });
        }
    });
    (url, count)
}

/// F02 (answers in flight): the bodies a script's pending calls are reading count
/// against its memory limit with their arguments. Twenty calls whose answers of 700
/// KiB each arrive in two parts, 1 s apart, held 20 × 500 KiB at once under an 8 MiB
/// limit (all twenty succeeded); now the calls past the limit fail (`LIMIT_MEMORY`, saying
/// the script's memory limit, which the script can catch) and the rest succeed.
#[test]
fn answers_being_read_count_against_the_memory_limit() {
    let (url, requests) = slow_bodies(700 << 10, 500 << 10, Duration::from_secs(1));
    let executor = executor_at(&url);
    let limits = Limits {
        memory: 8 << 20,
        ..Limits::default()
    };
    let outcome = rt().block_on(executor.code().limits(limits).execute(
        "const ps = []; \
         for (let i = 1; i <= 20; i++) { \
           ps.push(tracker.get_issue({ project: 'web', number: i }).then(() => 'ok', (e) => e.code + ': ' + e.message)); \
         } \
         return await Promise.all(ps);",
    ));
    let answers = outcome.result.clone().unwrap();
    let answers: Vec<&str> = answers
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let ok = answers.iter().filter(|a| **a == "ok").count();
    let refused: Vec<&&str> = answers.iter().filter(|a| **a != "ok").collect();
    assert!((1..=16).contains(&ok), "{answers:?}");
    assert!(refused.len() >= 4, "{answers:?}");
    for why in refused {
        assert!(why.starts_with("LIMIT_MEMORY"), "{why}");
        assert!(why.contains("memory limit (8388608 bytes)"), "{why}");
    }
    assert_eq!(requests.load(std::sync::atomic::Ordering::SeqCst), 20);
}

/// F06: a search request is read up to 4 KiB, and the answer says it was cut (50,000
/// distinct words took about 17 s to read before: the reading was quadratic in them).
#[test]
fn a_long_search_request_is_cut_with_a_note() {
    let server = tracker(Duration::ZERO);
    let executor = executor(&server);
    let long: String = (0..50_000).map(|i| format!("close{i} ")).collect();
    let started = Instant::now();
    let answer = executor
        .code()
        .search(&format!("close the issue {long}"), 3);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(
        answer.starts_with("// the request was read up to its first 4096 bytes"),
        "{answer}"
    );
    assert!(answer.contains("close_issue"), "{answer}");
    let short = executor.code().search("close the issue", 3);
    assert!(!short.contains("the request was read up to"), "{short}");
}

/// F15: running out of memory while a promise chain or an array of objects grows
/// made QuickJS throw `null` (it could not allocate its own error), which read as
/// `SCRIPT_THROWN` "the script threw null"; it is `LIMIT_MEMORY`. A script that throws
/// `null` itself is still `SCRIPT_THROWN`.
#[test]
fn out_of_memory_in_a_promise_chain_is_the_memory_limit() {
    let limits = Limits {
        memory: 16 << 20,
        ..Limits::default()
    };
    for script in [
        "let p = Promise.resolve(); for (;;) { p = p.then(() => {}); }",
        "const a = []; while (true) a.push({ a: 1, b: 2, c: [1, 2, 3] });",
    ] {
        let (outcome, _server) = run(script, limits);
        let failure = failed(&outcome);
        assert_eq!(
            failure.kind,
            FailureKind::MemoryLimit,
            "{script}: {failure:?}"
        );
    }
    let (outcome, _server) = run("throw null;", limits);
    let failure = failed(&outcome);
    assert_eq!(failure.kind, FailureKind::Thrown, "{failure:?}");
    assert!(failure.message.contains("threw null"), "{failure:?}");
}

/// F14 end to end: APIs named `JSON` and `Object` (the report's made every `execute`
/// fail, or replaced the built-in) are bound as `JSON_` and `Object_`; a script calls
/// them against a real API and still has the built-ins.
#[test]
fn apis_named_like_script_globals_are_called_under_their_own_names() {
    let dir = std::env::temp_dir().join(format!("tw-globals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/issue-tracker/adapters/tracker-adapter.md"),
    )
    .unwrap();
    for name in ["JSON", "Object"] {
        let adapter = original.replacen("name: tracker", &format!("name: {name}"), 1);
        let adapter = adapter.replace("_issue", &format!("_issue_{}", name.to_lowercase()));
        std::fs::write(dir.join(format!("{name}-adapter.md")), adapter).unwrap();
    }
    let server = tracker(Duration::ZERO);
    let url = server.url();
    let executor = executor_of(&dir, &[("JSON", &url), ("Object", &url)]);
    let outcome = rt().block_on(executor.code().execute(
        "const a = await JSON_.get_issue_json({ project: 'web', number: 7 }); \
         const b = await Object_.get_issue_object({ project: 'web', number: 8 }); \
         return [a.number, b.number, JSON.stringify({ k: 1 }), Object.keys({ x: 1 })];",
    ));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        outcome.result,
        Ok(json!([7, 8, "{\"k\":1}", ["x"]])),
        "{outcome:?}"
    );
    assert_eq!(server.take_requests().len(), 2);
}
