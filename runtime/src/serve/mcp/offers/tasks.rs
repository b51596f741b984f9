//! The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for the service's
//! own tools: a call that would take long answers a task at once (`resultType:
//! "task"`), runs on, and is polled with `tasks/get` (its result inlined when done),
//! answered with `tasks/update` when it asks for input, and stopped with
//! `tasks/cancel`. A task belongs to the caller that started it (others are told it
//! does not exist), a caller holds a bounded number, and each is kept for its `ttlMs`
//! after its last change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::fail;
use super::input::{InputRequest, InputRequired};
use super::tools::{Context, Handle, ToolOutput};
use crate::serve::mcp::codes;

/// The extension's name, as clients declare it and servers advertise it.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// How long a task is kept after its last change.
const TTL: Duration = Duration::from_secs(300);
/// How often a client is told to poll.
const POLL_MS: u64 = 250;
/// Tasks one caller holds at most (finished ones it has not let expire included).
const MOST_PER_CALLER: usize = 32;
/// Tasks held at most, all callers together.
const MOST: usize = 4096;

/// Whether a service tool runs as a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Always answered in the request (the default).
    #[default]
    Forbidden,
    /// A task when the client declared the extension, else in the request.
    Optional,
    /// Only as a task: a client without the extension is refused (`-32021`).
    Required,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    fn terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

#[derive(Debug)]
struct Task {
    owner: Option<Arc<str>>,
    status: Status,
    created: SystemTime,
    updated: SystemTime,
    /// When it last changed, on the monotonic clock (what expiry counts from).
    touched: Instant,
    /// The tool result (completed) or JSON-RPC error (failed).
    outcome: Option<Value>,
    /// Asked and not yet answered (key → request), while `input_required`.
    pending: Map<String, Value>,
    /// Answered so far in this round.
    answered: Map<String, Value>,
    /// Wakes the runner when answers arrive.
    wake: Arc<tokio::sync::Notify>,
    abort: Option<tokio::task::AbortHandle>,
}

/// The tasks of one server.
#[derive(Debug, Default)]
pub(in crate::serve::mcp) struct Tasks {
    by_id: Mutex<HashMap<String, Task>>,
}

impl Tasks {
    /// Starts `handle` with `args` as a task of `owner`; the `CreateTaskResult`.
    pub(super) fn create(
        self: &Arc<Self>,
        owner: Option<Arc<str>>,
        handle: Handle,
        args: Value,
        cx: Context,
    ) -> Result<Value, Value> {
        // Progress and log messages have nowhere to go once the request is answered
        // (and holding its stream would keep it open): a task is polled.
        let mut cx = cx;
        cx.notify = None;
        self.create_with(owner, move |inbox| run_tool(inbox, handle, args, cx))
    }

    /// Runs `work` as a task of `owner` (in the caller's context: its identity reaches
    /// the executor as in the request); the `CreateTaskResult`. `work` asks the client
    /// through the [`Inbox`] it is given, and its outcome is the task's result (`Ok`)
    /// or its JSON-RPC error (`Err`, a `failed` task).
    pub(in crate::serve::mcp) fn create_with<F, Fut>(
        self: &Arc<Self>,
        owner: Option<Arc<str>>,
        work: F,
    ) -> Result<Value, Value>
    where
        F: FnOnce(Inbox) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<Value, Value>> + Send + 'static,
    {
        let id = new_id();
        let now = SystemTime::now();
        let wake = Arc::new(tokio::sync::Notify::new());
        {
            let mut tasks = lock(&self.by_id);
            expire(&mut tasks);
            let held = tasks.values().filter(|t| t.owner == owner).count();
            if held >= MOST_PER_CALLER || tasks.len() >= MOST {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!(
                        "too many tasks held ({held} of {MOST_PER_CALLER} for this caller): wait for some to finish or expire"
                    ),
                ));
            }
            tasks.insert(
                id.clone(),
                Task {
                    owner,
                    status: Status::Working,
                    created: now,
                    updated: now,
                    touched: Instant::now(),
                    outcome: None,
                    pending: Map::new(),
                    answered: Map::new(),
                    wake: Arc::clone(&wake),
                    abort: None,
                },
            );
        }
        let inbox = Inbox {
            tasks: Arc::clone(self),
            id: id.clone(),
            wake,
        };
        let caller = crate::caller::snapshot();
        let tasks = Arc::clone(self);
        let task_id = id.clone();
        // Created before it is answered: a `tasks/get` right after finds it.
        let runner = tokio::spawn(caller.scope(async move {
            match work(inbox).await {
                Ok(result) => tasks.finish(&task_id, Status::Completed, result),
                Err(error) => tasks.finish(&task_id, Status::Failed, error),
            }
        }));
        let mut tasks = lock(&self.by_id);
        let Some(task) = tasks.get_mut(&id) else {
            runner.abort();
            return Err(fail(
                codes::INTERNAL_ERROR,
                "the task ended before it was answered",
            ));
        };
        task.abort = Some(runner.abort_handle());
        let mut created = envelope(&id, task);
        created["resultType"] = json!("task");
        Ok(created)
    }

    /// Parks the task in `input_required` until every request is answered (`None`:
    /// cancelled or expired meanwhile).
    async fn ask(
        &self,
        id: &str,
        asks: &InputRequired,
        wake: &tokio::sync::Notify,
    ) -> Option<Map<String, Value>> {
        {
            let mut tasks = lock(&self.by_id);
            let task = tasks.get_mut(id)?;
            task.status = Status::InputRequired;
            task.pending = asks.requests_map();
            task.answered = Map::new();
            task.updated = SystemTime::now();
            task.touched = Instant::now();
        }
        loop {
            wake.notified().await;
            let mut tasks = lock(&self.by_id);
            let task = tasks.get_mut(id)?;
            if task.status.terminal() {
                return None;
            }
            if task.pending.is_empty() {
                task.status = Status::Working;
                task.updated = SystemTime::now();
                task.touched = Instant::now();
                return Some(std::mem::take(&mut task.answered));
            }
        }
    }

    fn finish(&self, id: &str, status: Status, outcome: Value) {
        let mut tasks = lock(&self.by_id);
        if let Some(task) = tasks.get_mut(id)
            && !task.status.terminal()
        {
            task.status = status;
            task.outcome = Some(outcome);
            task.pending.clear();
            task.updated = SystemTime::now();
            task.touched = Instant::now();
        }
    }

    /// `tasks/get`, `tasks/update` and `tasks/cancel` of `caller`.
    pub(super) fn answer(
        &self,
        method: &str,
        params: &Value,
        caller: Option<&str>,
    ) -> Result<Value, Value> {
        let Some(id) = params.get("taskId").and_then(Value::as_str) else {
            return Err(fail(
                codes::INVALID_PARAMS,
                format!("`{method}` needs a `taskId`"),
            ));
        };
        let mut tasks = lock(&self.by_id);
        expire(&mut tasks);
        let task = match tasks.get_mut(id) {
            Some(task) if task.owner.as_deref() == caller => task,
            _ => {
                let mut error = fail(codes::INVALID_PARAMS, format!("unknown task `{id}`"));
                error["data"] = json!({"taskId": id});
                return Err(error);
            }
        };
        match method {
            "tasks/get" => {
                let mut detailed = envelope(id, task);
                detailed["resultType"] = json!("complete");
                match (task.status, &task.outcome) {
                    (Status::Completed, Some(result)) => detailed["result"] = result.clone(),
                    (Status::Failed, Some(error)) => detailed["error"] = error.clone(),
                    (Status::InputRequired, _) => {
                        detailed["inputRequests"] = Value::Object(task.pending.clone());
                    }
                    _ => {}
                }
                Ok(detailed)
            }
            "tasks/update" => {
                if let Some(responses) = params.get("inputResponses").and_then(Value::as_object) {
                    // Answers to what is pending count; others are ignored.
                    let mut took = false;
                    for (key, response) in responses {
                        if task.pending.remove(key).is_some() {
                            task.answered.insert(key.clone(), response.clone());
                            took = true;
                        }
                    }
                    if took {
                        // All answered: working again from now, as the next
                        // `tasks/get` shows, whenever the runner wakes.
                        if task.pending.is_empty() && task.status == Status::InputRequired {
                            task.status = Status::Working;
                        }
                        task.updated = SystemTime::now();
                        task.touched = Instant::now();
                        task.wake.notify_one();
                    }
                }
                Ok(json!({"resultType": "complete"}))
            }
            "tasks/cancel" => {
                if !task.status.terminal() {
                    if let Some(abort) = &task.abort {
                        abort.abort();
                    }
                    task.status = Status::Cancelled;
                    task.pending.clear();
                    task.updated = SystemTime::now();
                    task.touched = Instant::now();
                    task.wake.notify_one();
                }
                Ok(json!({"resultType": "complete"}))
            }
            _ => Err(fail(
                codes::METHOD_NOT_FOUND,
                format!("method `{method}` is not supported"),
            )),
        }
    }
}

/// How work running as a task asks its client for input: the task turns
/// `input_required` with the requests until `tasks/update` has answered them all.
#[derive(Debug)]
pub(in crate::serve::mcp) struct Inbox {
    tasks: Arc<Tasks>,
    id: String,
    wake: Arc<tokio::sync::Notify>,
}

impl Inbox {
    /// Asks and waits; the answers by key.
    async fn ask(&self, asks: &InputRequired) -> Option<Map<String, Value>> {
        self.tasks.ask(&self.id, asks, &self.wake).await
    }

    /// Sends one request (`elicitation/create`...) and waits for its answer.
    pub(in crate::serve::mcp) async fn request(
        &self,
        method: &str,
        params: Value,
    ) -> Option<Value> {
        let asks = InputRequired::new(vec![InputRequest::new("answer", method, params)]);
        self.ask(&asks).await?.remove("answer")
    }
}

/// A service tool run inside its task, again with the answers each time it asks.
async fn run_tool(
    inbox: Inbox,
    handle: Handle,
    args: Value,
    mut cx: Context,
) -> Result<Value, Value> {
    cx.in_task = true;
    loop {
        let output: ToolOutput = handle(args.clone(), cx.clone()).await;
        if let Some(error) = output.failure {
            return Err(error);
        }
        if output.as_task {
            return Err(fail(
                codes::INTERNAL_ERROR,
                "the tool asked to become a task while running as one",
            ));
        }
        let Some(asks) = output.asks.clone() else {
            return Ok(output.to_json());
        };
        let Some(answers) = inbox.ask(&asks).await else {
            // Cancelled or expired: the outcome is already set.
            return Err(fail(codes::INTERNAL_ERROR, "the task ended"));
        };
        cx.responses = answers;
        cx.state = Some(asks.state_value()).filter(|s| !s.is_null());
    }
}

/// Whether a 2026-07-28 request's client declared the extension.
pub(in crate::serve::mcp) fn declared(capabilities: &Value) -> bool {
    capabilities
        .get("extensions")
        .and_then(|e| e.get(EXTENSION))
        .is_some()
}

/// `-32021`: the request needs the extension its client did not declare.
pub(super) fn extension_required(what: &str) -> Value {
    let mut error = fail(
        codes::MISSING_CLIENT_CAPABILITY,
        format!(
            "{what} needs the `{EXTENSION}` extension, which this request's client capabilities do not declare"
        ),
    );
    error["data"] = json!({"requiredCapabilities": {"extensions": {EXTENSION: {}}}});
    error
}

/// The `Task` fields every answer about one carries.
fn envelope(id: &str, task: &Task) -> Value {
    json!({
        "taskId": id,
        "status": task.status.as_str(),
        "createdAt": rfc3339(task.created),
        "lastUpdatedAt": rfc3339(task.updated),
        "ttlMs": TTL.as_millis() as u64,
        "pollIntervalMs": POLL_MS,
    })
}

/// Drops the tasks whose time to live ran out since their last change: finished ones,
/// and ones left waiting for input (stopped). A working task is kept while it works
/// (the caller's count of tasks bounds those).
fn expire(tasks: &mut HashMap<String, Task>) {
    let now = Instant::now();
    tasks.retain(|_, task| {
        let alive = task.status == Status::Working || now.duration_since(task.touched) < TTL;
        if !alive && let Some(abort) = &task.abort {
            abort.abort();
        }
        alive
    });
}

/// 128 random bits as hex.
fn new_id() -> String {
    use ring::rand::{SecureRandom, SystemRandom};
    let mut bytes = [0u8; 16];
    SystemRandom::new()
        .fill(&mut bytes)
        .expect("the operating system's random number generator answers");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A UTC time as RFC 3339 with milliseconds (civil-from-days).
fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339_utc() {
        let t = UNIX_EPOCH + Duration::from_millis(1_796_563_864_651);
        assert_eq!(rfc3339(t), "2026-12-06T13:31:04.651Z");
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
    }
}
