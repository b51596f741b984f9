//! One script run in a fresh QuickJS runtime: the globals a script may use, its API
//! functions, the limits, and the script's outcome read back.

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rquickjs::context::{EvalOptions, intrinsic as js};
use rquickjs::{
    AsyncContext, AsyncRuntime, CatchResultExt, CaughtError, Ctx, Exception, Function, Promise,
    Value as JsValue,
};
use serde_json::{Value, json};

use super::convert::{self, Unfit};
use super::{Apis, CallRecord, Failure, FailureKind, Host, Limits, Outcome};
use crate::caller::Snapshot;
use crate::error::Error;
use crate::paginate::PageLimits;

/// The engine's stack: deep enough for any reasonable script, far below a blocking
/// thread's 2 MiB (QuickJS throws a `RangeError` when a recursion reaches it).
const STACK: usize = 512 << 10;
/// The script's name in error locations and stack traces.
const FILE: &str = "script.js";
/// The script is the body of an async function; its first line is the second of
/// what the engine parses.
const WRAP_BEFORE: &str = "(async () => { try {\n";
/// What the wrapper throws instead of a `null` that came from the engine running out
/// of memory (see [`wrapped`]).
const OUT_OF_MEMORY_MARK: &str = "toolwright: the heap is full";

/// `source` as the body of an async function, inside a `try` that tells a `null` the
/// engine threw for want of memory from one the script threw: QuickJS throws `null`
/// where it cannot even allocate its "out of memory" error (an array of objects grown
/// until the heap is full), and the script's values are still held while the `catch`
/// runs — so when `room` bytes cannot be had there, the heap is full, and the wrapper
/// throws [`OUT_OF_MEMORY_MARK`] (a literal: throwing it allocates nothing).
fn wrapped(source: &str, room: usize) -> String {
    format!(
        "{WRAP_BEFORE}{source}\n}} catch (e) {{ if (e === null) {{ let full = false; \
         try {{ new ArrayBuffer({room}); }} catch (_) {{ full = true; }} \
         if (full) throw \"{OUT_OF_MEMORY_MARK}\"; }} throw e; }} }})()"
    )
}

/// Pages one `fn.all` may fetch.
const MAX_PAGES: usize = 100;
/// Largest JSON arguments of one call (what a tool would refuse anyway).
const ARGUMENTS: usize = 4 << 20;

/// Why the interrupt handler stops the script.
const GOING: u8 = 0;
const STOP_CPU: u8 = 1;
const STOP_WALL: u8 = 2;
const STOP_CALLS: u8 = 3;
/// An answer could not be handed to the script (its heap is full).
const STOP_MEMORY: u8 = 5;
/// The caller stopped waiting (a cancelled request, a closed connection).
pub(super) const STOP_CANCELLED: u8 = 4;

/// Time the script has spent running, read by the interrupt handler: each poll of the
/// script's future counts (that is when JavaScript runs), waiting between polls does
/// not. Shared with the caller's side ([`super::run`]), which halts the run when the
/// caller goes away or when the engine is stuck past its limits.
pub(super) struct Clock {
    start: Instant,
    /// Nanoseconds spent in finished polls.
    spent: AtomicU64,
    /// When the current poll began (nanoseconds since `start`), `u64::MAX` between polls.
    polling_since: AtomicU64,
    stop: AtomicU8,
    /// Wakes the engine's wait for the script when the run is halted from outside, so
    /// a script waiting for a call stops now rather than when the call answers.
    halted: tokio::sync::Notify,
    limits: Limits,
}

impl Clock {
    pub(super) fn new(limits: Limits) -> Clock {
        Clock {
            start: Instant::now(),
            spent: AtomicU64::new(0),
            polling_since: AtomicU64::new(u64::MAX),
            stop: AtomicU8::new(GOING),
            halted: tokio::sync::Notify::new(),
            limits,
        }
    }

    fn now(&self) -> u64 {
        self.start.elapsed().as_nanos() as u64
    }

    fn enter(&self) {
        self.polling_since.store(self.now(), Ordering::Relaxed);
    }

    fn leave(&self) {
        let since = self.polling_since.swap(u64::MAX, Ordering::Relaxed);
        if since != u64::MAX {
            self.spent
                .fetch_add(self.now().saturating_sub(since), Ordering::Relaxed);
        }
    }

    fn cpu(&self) -> Duration {
        let since = self.polling_since.load(Ordering::Relaxed);
        let running = if since == u64::MAX {
            0
        } else {
            self.now().saturating_sub(since)
        };
        Duration::from_nanos(self.spent.load(Ordering::Relaxed) + running)
    }

    /// Stops the run for `why` (the first reason given stays): the interrupt handler
    /// says so at its next poll, and the engine stops waiting for the script.
    pub(super) fn halt(&self, why: u8) {
        if self
            .stop
            .compare_exchange(GOING, why, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.halted.notify_one();
        }
    }

    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) != GOING
    }

    /// The limit the run has passed by more than `grace` without the engine stopping
    /// (a built-in looping in C does not poll the interrupt handler): the caller's side
    /// answers with it instead of waiting.
    pub(super) fn overdue(&self, grace: Duration) -> Option<Failure> {
        if self.start.elapsed() > self.limits.wall + grace {
            self.halt(STOP_WALL);
        } else if self.cpu() > self.limits.cpu + grace {
            self.halt(STOP_CPU);
        } else {
            return None;
        }
        self.stopped()
    }

    /// The interrupt handler's question: stop now?
    fn interrupt(&self) -> bool {
        if self.cpu() > self.limits.cpu {
            self.halt(STOP_CPU);
        } else if self.start.elapsed() > self.limits.wall {
            self.halt(STOP_WALL);
        }
        self.stop.load(Ordering::Relaxed) != GOING
    }

    /// The limit that stopped the run, if one did.
    pub(super) fn stopped(&self) -> Option<Failure> {
        let limits = &self.limits;
        let (kind, message) = match self.stop.load(Ordering::Relaxed) {
            STOP_CPU => (
                FailureKind::CpuLimit,
                format!(
                    "the script ran for more than {} ms of CPU time; do less work per run",
                    limits.cpu.as_millis()
                ),
            ),
            STOP_WALL => (FailureKind::WallLimit, wall_message(limits)),
            STOP_CALLS => (
                FailureKind::CallLimit,
                format!(
                    "the script made more than {} calls; fetch fewer items or ask for larger pages",
                    limits.calls
                ),
            ),
            STOP_MEMORY => (FailureKind::MemoryLimit, OUT_OF_MEMORY.to_owned()),
            STOP_CANCELLED => (
                FailureKind::Cancelled,
                "the run was cancelled: its caller stopped waiting".to_owned(),
            ),
            _ => return None,
        };
        Some(failure(kind, message))
    }
}

fn wall_message(limits: &Limits) -> String {
    format!(
        "the script took longer than {} ms; make fewer calls or run it in parts",
        limits.wall.as_millis()
    )
}

fn failure(kind: FailureKind, message: String) -> Failure {
    Failure {
        kind,
        message,
        line: None,
        column: None,
        code: None,
    }
}

/// What the script's functions write while it runs.
#[derive(Default)]
struct Record {
    calls: Vec<CallRecord>,
    logs: Vec<String>,
    log_bytes: usize,
    logs_cut: bool,
    /// A call's arguments (or the result) are being read: a getter that calls an API
    /// function now is refused, so calls cannot nest past the call limit or leave
    /// records that never finish.
    converting: bool,
}

pub(super) async fn run(
    source: &str,
    apis: Apis,
    host: Host,
    clock: Arc<Clock>,
    caller: Snapshot,
) -> Outcome {
    let limits = clock.limits;
    let record = Rc::new(RefCell::new(Record::default()));
    let result = match start(&clock).await {
        Err(e) => Err(failure(
            FailureKind::Thrown,
            format!("the script engine did not start: {e}"),
        )),
        Ok((runtime, context)) => {
            let source = wrapped(source, margin(limits.memory));
            let record_in = record.clone();
            let clock_in = clock.clone();
            let work = context.async_with(async move |ctx| {
                evaluate(ctx, source, apis, host, caller, clock_in, record_in).await
            });
            let mut work = Box::pin(work);
            let mut halted = std::pin::pin!(clock.halted.notified());
            // Every poll runs JavaScript: time it for the CPU limit. A halt from outside
            // ends the wait (the script's pending calls are dropped with it).
            let timed = std::future::poll_fn(|cx| {
                if halted.as_mut().poll(cx).is_ready() {
                    return std::task::Poll::Ready(None);
                }
                clock.enter();
                let poll = work.as_mut().poll(cx);
                clock.leave();
                poll.map(Some)
            });
            let result = match tokio::time::timeout(limits.wall, timed).await {
                Ok(Some(result)) => result,
                // `clock.stopped()` below says which halt.
                Ok(None) => Err(failure(FailureKind::Cancelled, String::new())),
                Err(_) => {
                    clock.halt(STOP_WALL);
                    Err(failure(FailureKind::WallLimit, wall_message(&limits)))
                }
            };
            drop(work);
            let result = match result {
                // QuickJS throws `null` where it could not even allocate its "out of
                // memory" error (a promise chain or an array of objects grown until the
                // heap is full); a heap still at its limit says that is what happened.
                Err(thrown) if thrown.message == THREW_NULL => {
                    let usage = runtime.memory_usage().await;
                    if at_limit(usage.malloc_size, limits.memory) {
                        Err(failure(FailureKind::MemoryLimit, OUT_OF_MEMORY.to_owned()))
                    } else {
                        Err(thrown)
                    }
                }
                other => other,
            };
            drop(context);
            drop(runtime);
            result
        }
    };
    // A limit that stopped the script is the outcome, whatever the script made of it
    // (it may have caught the interruption's error or a refused call).
    let result = match clock.stopped() {
        Some(stopped) => Err(stopped),
        None => result,
    };
    let record = std::mem::take(&mut *record.borrow_mut());
    let mut logs = record.logs;
    if record.logs_cut {
        logs.push(format!(
            "(later logs left out: over {} bytes)",
            limits.output
        ));
    }
    Outcome {
        result,
        logs,
        calls: record.calls,
    }
}

/// A runtime with the limits set and a context with only the language itself: no
/// `Date` (a wall clock), no `performance`, no module loader (`Proxy` is there: the
/// API objects are proxies).
async fn start(clock: &Arc<Clock>) -> rquickjs::Result<(AsyncRuntime, AsyncContext)> {
    let runtime = AsyncRuntime::new()?;
    runtime.set_memory_limit(clock.limits.memory).await;
    runtime.set_max_stack_size(STACK).await;
    let watch = clock.clone();
    runtime
        .set_interrupt_handler(Some(Box::new(move || watch.interrupt())))
        .await;
    let context = AsyncContext::custom::<(
        js::Eval,
        js::RegExpCompiler,
        js::RegExp,
        js::Json,
        js::Proxy,
        js::MapSet,
        js::TypedArrays,
        js::Promise,
    )>(&runtime)
    .await?;
    Ok((runtime, context))
}

/// Installs the globals, runs the script and reads its result.
async fn evaluate<'js>(
    ctx: Ctx<'js>,
    source: String,
    apis: Apis,
    host: Host,
    caller: Snapshot,
    clock: Arc<Clock>,
    record: Rc<RefCell<Record>>,
) -> Result<Value, Failure> {
    let limits = clock.limits;
    let installed = super::guard::install(&ctx)
        .and_then(|()| install(&ctx, &apis, host, caller, &clock, &record));
    if let Err(e) = installed {
        return Err(failure(
            FailureKind::Thrown,
            format!("the script's globals could not be set up: {e}"),
        ));
    }
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = true;
    options.filename = Some(FILE.to_owned());
    let promise: Promise<'js> = match ctx.eval_with_options(source, options).catch(&ctx) {
        Ok(promise) => promise,
        Err(e) => return Err(thrown(e, true)),
    };
    let value = match promise.into_future::<JsValue<'js>>().await.catch(&ctx) {
        Ok(value) => value,
        Err(e) => return Err(thrown(e, false)),
    };
    let mut budget = limits.output.saturating_sub(record.borrow().log_bytes);
    let converted = reading(&record, || convert::to_json(&value, &mut budget));
    converted.map_err(|unfit| match unfit {
        Unfit::TooLarge => failure(
            FailureKind::OutputLimit,
            format!(
                "the script's result (with its logs) is larger than {} bytes; return only what \
                 is needed (a count, the fields asked for, the first items)",
                limits.output
            ),
        ),
        Unfit::NotData(what) => failure(
            FailureKind::NotData,
            format!(
                "the script returned {what}; return JSON data (objects, arrays, strings, numbers)"
            ),
        ),
        // A getter or `toJSON` of the result threw: that error is the script's.
        Unfit::Thrown => match Err::<(), _>(rquickjs::Error::Exception).catch(&ctx) {
            Err(e) => thrown(e, false),
            Ok(()) => failure(FailureKind::Thrown, "the script's result threw".to_owned()),
        },
    })
}

/// The globals: one frozen object per API, `console`, `now()` and a fixed-seed
/// `Math.random`. The host function itself is never a global: the API objects close
/// over it.
fn install<'js>(
    ctx: &Ctx<'js>,
    apis: &Apis,
    host: Host,
    caller: Snapshot,
    clock: &Arc<Clock>,
    record: &Rc<RefCell<Record>>,
) -> rquickjs::Result<()> {
    let call = host_call(ctx, host, caller, clock.clone(), record.clone())?;
    let namespaces: Vec<String> = apis.keys().cloned().collect();
    let known = Arc::clone(apis);
    let resolve = Function::new(ctx.clone(), move |namespace: String, name: String| {
        known
            .get(&namespace)
            .and_then(|functions| functions.get(&name))
            .cloned()
    })?;
    let known = Arc::clone(apis);
    let names = Function::new(ctx.clone(), move |namespace: String| {
        known
            .get(&namespace)
            .map(|functions| functions.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    })?;
    let bind: Function<'js> = ctx.eval(BIND)?;
    bind.call::<_, ()>((call, namespaces, resolve, names))?;

    let sink = record.clone();
    let output = clock.limits.output;
    let log = Function::new(ctx.clone(), move |level: String, text: String| {
        let mut record = sink.borrow_mut();
        let line = if level == "log" {
            text
        } else {
            format!("{level}: {text}")
        };
        if record.logs_cut || record.log_bytes + line.len() > output {
            record.logs_cut = true;
            return;
        }
        record.log_bytes += line.len();
        record.logs.push(line);
    })?;
    let start = clock.start;
    let now = Function::new(ctx.clone(), move || start.elapsed().as_secs_f64() * 1000.0)?;
    let globals: Function<'js> = ctx.eval(GLOBALS)?;
    globals.call::<_, ()>((log, now))?;
    Ok(())
}

/// One read-only object per API whose functions are made when first read (GitHub has
/// 1,223, Graph beta 22,361: making them all took 6 ms per run for GitHub), each
/// calling the host with its tool's name. Writes, deletions and new properties are
/// refused (a `TypeError` in the script's strict mode), so a script cannot swap one
/// function for another under a name a later line trusts.
const BIND: &str = r#"(function (call, namespaces, resolve, names) {
  "use strict";
  for (const namespace of namespaces) {
    const made = new Map();
    const fn = (name) => {
      if (typeof name !== "string") return undefined;
      let f = made.get(name);
      if (f !== undefined) return f;
      const tool = resolve(namespace, name);
      if (tool === undefined) return undefined;
      f = function (args) { return call(tool, args); };
      f.all = Object.freeze(function all(args, limits) {
        return call(tool, args, limits === undefined ? {} : limits);
      });
      Object.defineProperty(f, "name", { value: name });
      made.set(name, Object.freeze(f));
      return f;
    };
    const refuse = () => false;
    const api = new Proxy({}, {
      get: (_, name) => fn(name),
      has: (_, name) => fn(name) !== undefined,
      ownKeys: () => names(namespace),
      getOwnPropertyDescriptor: (_, name) => {
        const f = fn(name);
        return f === undefined ? undefined
          : { value: f, writable: false, enumerable: true, configurable: true };
      },
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      preventExtensions: refuse,
    });
    Object.defineProperty(globalThis, namespace, { value: api, enumerable: true });
  }
})"#;

/// `console`, `now` and `Math.random` (xorshift32 from a fixed seed: the same script
/// with the same answers gives the same result).
const GLOBALS: &str = r#"(function (log, now) {
  "use strict";
  const show = (part) => {
    if (typeof part === "string") return part;
    try { const text = JSON.stringify(part); return text === undefined ? String(part) : text; }
    catch (e) { return String(part); }
  };
  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = (...parts) => log(level, parts.map(show).join(" "));
  }
  Object.defineProperty(globalThis, "console", { value: Object.freeze(console) });
  Object.defineProperty(globalThis, "now", { value: now });
  let state = 0x2545f491;
  Math.random = function random() {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
})"#;

/// The one host function: `call(tool, args)` → a promise of the tool's result, or of
/// an `Error` with the failure's `code` (and `status`, `body` for an upstream answer).
fn host_call<'js>(
    ctx: &Ctx<'js>,
    host: Host,
    caller: Snapshot,
    clock: Arc<Clock>,
    record: Rc<RefCell<Record>>,
) -> rquickjs::Result<Function<'js>> {
    // Host memory the script's calls hold, within its memory limit.
    let pool = crate::meter::Pool::new(clock.limits.memory);
    Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>,
              tool: String,
              args: rquickjs::prelude::Opt<JsValue<'js>>,
              pages: rquickjs::prelude::Opt<JsValue<'js>>| {
            let limits = clock.limits;
            let pool = &pool;
            if clock.halted() {
                return Err(Exception::throw_range(&ctx, "the run is stopping"));
            }
            if record.borrow().converting {
                return Err(Exception::throw_type(
                    &ctx,
                    &format!(
                        "`{tool}` was called while a call's arguments or the result were being \
                         read (from a getter or `toJSON`); call API functions from the script itself"
                    ),
                ));
            }
            let index = record.borrow().calls.len();
            if index >= limits.calls {
                // The interrupt handler ends the run at its next check, whether or not
                // the script catches this.
                clock.halt(STOP_CALLS);
                return Err(Exception::throw_range(
                    &ctx,
                    &format!("call limit reached: a run may make {} calls", limits.calls),
                ));
            }
            let mut budget = ARGUMENTS;
            let args = match args.0 {
                None => json!({}),
                Some(value) if value.is_undefined() => json!({}),
                Some(value) => {
                    reading(&record, || convert::to_json(&value, &mut budget)).map_err(|unfit| {
                        let why = match unfit {
                            Unfit::TooLarge => format!("larger than {ARGUMENTS} bytes"),
                            Unfit::NotData(what) => what,
                            // A getter threw: its error goes on as it is.
                            Unfit::Thrown => return rquickjs::Error::Exception,
                        };
                        Exception::throw_type(
                            &ctx,
                            &format!("the arguments of `{tool}` are not JSON data: {why}"),
                        )
                    })?
                }
            };
            let pages = match pages.0 {
                None => None,
                // The items of `fn.all` are held by the host, then by the script's
                // heap: at most its memory limit.
                Some(value) => {
                    Some(reading(&record, || page_limits(&ctx, &value))?.bytes(limits.memory))
                }
            };
            // Arguments wait with their call, and its answer is read into host memory:
            // both are charged to the call's account in the script's pool, within its
            // memory limit (100 calls of 4 MiB each held 400 MiB under a 64 MiB heap).
            let account = pool.account();
            if let Err(over) = account.charge(ARGUMENTS - budget) {
                return Err(Exception::throw_range(&ctx, &over.to_string()));
            }
            record.borrow_mut().calls.push(CallRecord {
                tool: tool.clone(),
                status: "pending".into(),
                http_status: None,
                duration: Duration::ZERO,
            });
            let (promise, resolve, reject) = ctx.promise()?;
            // The account lives until the answer is in the script's heap (or the call
            // is dropped); the transport charges the body it reads to it.
            let answer =
                crate::meter::metered(Arc::clone(&account), (host)(tool.clone(), args, pages));
            let caller = caller.clone();
            let record = record.clone();
            let ctx_in = ctx.clone();
            let clock_in = clock.clone();
            ctx.spawn(async move {
                let started = Instant::now();
                let outcome = caller.clone().scope(answer).await;
                let duration = started.elapsed();
                audit(&caller, &tool, &outcome, duration);
                if let Some(call) = record.borrow_mut().calls.get_mut(index) {
                    call.duration = duration;
                    match &outcome {
                        Ok(_) => call.status = "ok".into(),
                        Err(e) => {
                            call.status = e.code().into();
                            call.http_status = match e {
                                Error::Status { status, .. } => Some(*status),
                                _ => None,
                            };
                        }
                    }
                }
                // An answer the script's heap cannot take ends the run at its memory
                // limit (the promise would otherwise never settle).
                let handed = match outcome {
                    Ok(value) => ctx_in
                        .json_parse(value.to_string())
                        .and_then(|value| resolve.call::<_, ()>((value,))),
                    Err(e) => call_error(&ctx_in, &e).and_then(|e| reject.call::<_, ()>((e,))),
                };
                if handed.is_err() {
                    clock_in.halt(STOP_MEMORY);
                }
                drop(account);
            });
            Ok::<_, rquickjs::Error>(promise)
        },
    )
}

/// `read` with API calls refused meanwhile (see [`Record::converting`]).
fn reading<T>(record: &Rc<RefCell<Record>>, read: impl FnOnce() -> T) -> T {
    record.borrow_mut().converting = true;
    let out = read();
    record.borrow_mut().converting = false;
    out
}

/// `fn.all`'s limits: `{max_pages, max_items}`, each optional, at most [`MAX_PAGES`]
/// pages.
fn page_limits<'js>(ctx: &Ctx<'js>, value: &JsValue<'js>) -> rquickjs::Result<PageLimits> {
    let mut limits = PageLimits::default();
    let mut budget = 1024;
    let given = convert::to_json(value, &mut budget).unwrap_or(Value::Null);
    let Some(given) = given.as_object() else {
        return Err(Exception::throw_type(
            ctx,
            "`all` takes `{max_pages, max_items}` as its second argument",
        ));
    };
    for (key, value) in given {
        let n = value.as_u64().filter(|n| *n >= 1).map(|n| n as usize);
        match (key.as_str(), n) {
            ("max_pages", Some(n)) => limits.max_pages = n.min(MAX_PAGES),
            ("max_items", Some(n)) => limits.max_items = n,
            _ => {
                return Err(Exception::throw_type(
                    ctx,
                    &format!(
                        "`all` takes `max_pages` and `max_items` (positive integers), not `{key}: {value}`"
                    ),
                ));
            }
        }
    }
    Ok(limits)
}

/// A failed call as the script sees it: an `Error` whose `code` it can branch on.
fn call_error<'js>(ctx: &Ctx<'js>, e: &Error) -> rquickjs::Result<JsValue<'js>> {
    let error = Exception::from_message(ctx.clone(), &e.to_string())?;
    let object = error.as_object();
    object.set("code", e.code())?;
    if let Error::Status { status, body, .. } = e {
        object.set("status", *status)?;
        object.set("body", ctx.json_parse(body.to_string())?)?;
    }
    Ok(error.into_value())
}

/// Each call a script makes, with the caller it is made for (the executor's own
/// `toolwright.call` span follows with the request's details).
fn audit(caller: &Snapshot, tool: &str, outcome: &Result<Value, Error>, duration: Duration) {
    #[cfg(feature = "tracing")]
    tracing::info!(
        target: "toolwright::code",
        tool,
        caller = caller.name().as_deref().unwrap_or(""),
        status = match outcome {
            Ok(_) => "ok",
            Err(e) => e.code(),
        },
        duration_ms = duration.as_millis() as u64,
        "script call"
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (caller, tool, outcome, duration);
}

/// What a script that threw `null` is told, unless its heap is full (then QuickJS
/// threw it for want of memory: [`at_limit`]).
const THREW_NULL: &str = "the script threw null (throw an Error for a line number)";

/// Whether a heap of `used` bytes is at the limit `limit`: within what one more
/// object, string or array block would take (an eighth of the limit, at least 256 KiB).
fn at_limit(used: i64, limit: usize) -> bool {
    usize::try_from(used).is_ok_and(|used| used.saturating_add(margin(limit)) >= limit)
}

/// Room a heap of `limit` bytes has left when it is not full: an eighth of the limit,
/// at least 256 KiB (more than one object, string or array block takes).
fn margin(limit: usize) -> usize {
    (limit / 8).max(256 << 10)
}

/// What a run that reached the memory limit says.
const OUT_OF_MEMORY: &str =
    "the script ran out of memory (its heap limit); keep less in memory at once";

/// A script error as a [`Failure`]: the engine's message and the script's line and
/// column (from the first frame in the script); out of memory and interruptions as
/// their limits (the caller replaces an interruption with the limit that caused it).
fn thrown(error: CaughtError<'_>, parsing: bool) -> Failure {
    match error {
        CaughtError::Exception(exception) => {
            let message = exception.message().unwrap_or_default();
            let (line, column) = exception
                .stack()
                .as_deref()
                .and_then(location)
                .map_or((None, None), |(l, c)| (Some(l), Some(c)));
            let code: Option<String> = exception.as_object().get("code").ok();
            let name: String = exception
                .as_object()
                .get("name")
                .unwrap_or_else(|_| "Error".to_owned());
            let (kind, message) = if message == "out of memory" {
                (FailureKind::MemoryLimit, OUT_OF_MEMORY.to_owned())
            } else if parsing && name == "SyntaxError" {
                (FailureKind::Syntax, format!("{name}: {message}"))
            } else {
                (FailureKind::Thrown, format!("{name}: {message}"))
            };
            Failure {
                kind,
                message,
                line,
                column,
                code,
            }
        }
        CaughtError::Value(value) if value.is_null() => {
            failure(FailureKind::Thrown, THREW_NULL.to_owned())
        }
        CaughtError::Value(value)
            if value
                .as_string()
                .and_then(|s| s.to_string().ok())
                .as_deref()
                == Some(OUT_OF_MEMORY_MARK) =>
        {
            failure(FailureKind::MemoryLimit, OUT_OF_MEMORY.to_owned())
        }
        CaughtError::Value(value) => {
            let mut budget = 4096;
            let shown = convert::to_json(&value, &mut budget)
                .map(|v| v.to_string())
                .unwrap_or_else(|_| "a value that is not JSON".to_owned());
            failure(
                FailureKind::Thrown,
                format!("the script threw {shown} (throw an Error for a line number)"),
            )
        }
        CaughtError::Error(rquickjs::Error::Allocation) => {
            failure(FailureKind::MemoryLimit, OUT_OF_MEMORY.to_owned())
        }
        CaughtError::Error(e) => failure(FailureKind::Thrown, e.to_string()),
    }
}

/// The first `script.js:LINE:COLUMN` of a stack trace, as a line of the user's script.
fn location(stack: &str) -> Option<(u32, u32)> {
    let at = stack.find(&format!("{FILE}:"))? + FILE.len() + 1;
    let rest = &stack[at..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit() && c != ':')
        .unwrap_or(rest.len());
    let mut parts = rest[..end].split(':');
    let line: u32 = parts.next()?.parse().ok()?;
    let column: u32 = parts.next()?.parse().ok()?;
    // Line 1 is the wrapper's; the script starts on line 2.
    (line >= 2).then(|| (line - 1, column))
}

#[cfg(test)]
mod tests {
    use super::location;

    #[test]
    fn locations_are_the_scripts_own() {
        assert_eq!(
            location("    at <anonymous> (script.js:4:3)\n    at <eval> (script.js:5:1)\n"),
            Some((3, 3))
        );
        assert_eq!(location("    at script.js:2:11\n"), Some((1, 11)));
        assert_eq!(location("    at <eval> (script.js:1:1)\n"), None);
        assert_eq!(location("no frames"), None);
    }
}
