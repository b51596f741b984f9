//! A real HTTP/1.1 server on `127.0.0.1` (ephemeral port) that hands each request to a
//! handler and records it, so tests can assert on exactly what went over the wire.
//! One request per connection (`Connection: close`); std only.

pub mod conformance;
pub mod corpus;
pub mod graphql;
pub mod prism;
pub mod seed;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

/// A request as received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// Path and query exactly as sent (still percent-encoded).
    pub target: String,
    /// Lower-cased names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The path part of the target (still encoded).
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The raw query string, if any.
    pub fn query(&self) -> Option<&str> {
        self.target.split_once('?').map(|(_, q)| q)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON (`Null` when empty or not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// A response to send.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
    /// More headers (`Link`, `X-Next-Cursor`, ...).
    pub headers: Vec<(String, String)>,
}

impl Response {
    pub fn json(status: u16, body: &Value) -> Response {
        Response {
            status,
            content_type: "application/json".into(),
            body: body.to_string().into_bytes(),
            headers: Vec::new(),
        }
    }

    pub fn text(status: u16, body: &str) -> Response {
        Response {
            status,
            content_type: "text/plain".into(),
            body: body.as_bytes().to_vec(),
            headers: Vec::new(),
        }
    }

    /// The response with one more header.
    pub fn header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// A running server; stops when dropped.
pub struct Server {
    addr: std::net::SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Starts serving on an ephemeral loopback port.
    ///
    /// # Panics
    /// If no loopback port can be bound (the test cannot run at all then).
    pub fn start(handler: impl Fn(&Request) -> Response + Send + Sync + 'static) -> Server {
        Server::bind("127.0.0.1:0", handler).expect("bind a loopback port")
    }

    /// Serves on `addr` (a fixed address a person can point a program at).
    ///
    /// # Errors
    /// The address cannot be bound (in use, or not a local address).
    pub fn bind(
        addr: &str,
        handler: impl Fn(&Request) -> Response + Send + Sync + 'static,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let accept = {
            let (requests, stop) = (Arc::clone(&requests), Arc::clone(&stop));
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (requests, handler) = (Arc::clone(&requests), Arc::clone(&handler));
                    std::thread::spawn(move || {
                        let _ = serve(stream, &requests, &*handler);
                    });
                }
            })
        };
        Ok(Server {
            addr,
            requests,
            stop,
            accept: Some(accept),
        })
    }

    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The requests received so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Takes and clears the recorded requests.
    pub fn take_requests(&self) -> Vec<Request> {
        self.requests
            .lock()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

fn serve(
    stream: TcpStream,
    requests: &Mutex<Vec<Request>>,
    handler: &Handler,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return Ok(());
    };
    let (method, target) = (method.to_owned(), target.to_owned());
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        read_chunked(&mut reader)?
    } else {
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        body
    };
    let request = Request {
        method,
        target,
        headers,
        body,
    };
    let response = handler(&request);
    if let Ok(mut r) = requests.lock() {
        r.push(request);
    }
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {} X\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n",
        response.status,
        response.content_type,
        response.body.len()
    )?;
    for (name, value) in &response.headers {
        write!(out, "{name}: {value}\r\n")?;
    }
    write!(out, "\r\n")?;
    out.write_all(&response.body)?;
    out.flush()
}

/// A `Transfer-Encoding: chunked` body (a request whose length the client did not
/// know: an upload from a stream).
fn read_chunked(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = line.trim().split(';').next().unwrap_or("");
        let size = usize::from_str_radix(size, 16)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "chunk size"))?;
        if size == 0 {
            // Trailers, up to the blank line.
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                    return Ok(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        line.clear();
        reader.read_line(&mut line)?;
    }
}

/// The npm packages of `tests/<dir>` (Prism, the MCP Inspector, playwright-core, the
/// reference MCP servers), installed from their lock file on first use: the path of
/// `installed` inside the directory, which exists afterwards.
///
/// # Errors
/// npm cannot run, or `npm ci` fails.
pub fn npm_package(dir: &str, installed: &str) -> Result<std::path::PathBuf, String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir);
    let path = root.join(installed);
    if !path.exists() {
        let status = std::process::Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&root)
            .status()
            .map_err(|e| format!("npm is needed to install tests/{dir}: {e}"))?;
        if !status.success() {
            return Err(format!("`npm ci` in tests/{dir} failed"));
        }
    }
    Ok(path)
}

/// The data an inspection report page carries (its `tw-data` JSON element), for
/// tests that read what a report says.
///
/// # Panics
/// `html` is not a report page.
pub fn report_data(html: &str) -> Value {
    let data = html
        .split_once("<script type=\"application/json\" id=\"tw-data\">")
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map(|(data, _)| data)
        .expect("a report page holds its data in <script id=\"tw-data\">");
    serde_json::from_str(data).expect("the report's data is JSON")
}

/// A loopback port free right now, for a server a test starts itself.
///
/// # Panics
/// No port can be bound.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind a loopback port")
        .port()
}

/// Waits until something listens on loopback `port`.
///
/// # Errors
/// Nothing listens within `within`: `what` did not start.
pub fn wait_listening(port: u16, within: Duration, what: &str) -> Result<(), String> {
    let started = std::time::Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > within {
            return Err(format!(
                "{what} did not listen on 127.0.0.1:{port} within {} s",
                within.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// The resident memory of process `pid`, in KiB (Linux; 0 when it cannot be read).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// One JSON-RPC message to `port`'s MCP endpoint with `token` (HTTP/1.0: the answer
/// comes unchunked); the answer's body.
pub fn mcp_post(port: u16, token: &str, message: &serde_json::Value) -> serde_json::Value {
    use std::io::{Read, Write};
    let body = message.to_string();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {}\r\nMcp-Name: {}\r\nContent-Length: {}\r\n\r\n{body}",
        message["method"].as_str().unwrap(),
        message["params"]["name"].as_str().unwrap(),
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// GitHub's issues of `octo-org/widgets` as the API answers them: the list in two
/// pages of `per_page=2` linked as GitHub links them (absolute URLs on the host asked,
/// `next` before `last`), issues 1 "Typo", 2 "Slow start" and 3 "Crash on save", issue
/// 3 readable and closable (PATCH answers it closed), anything else 404.
pub fn octo_widgets_issues(request: &Request) -> Response {
    let base = "/repos/octo-org/widgets/issues";
    let issue = |n: u64, title: &str| serde_json::json!({"id": 1000 + n, "number": n, "title": title, "state": "open", "labels": []});
    let path = request.path();
    match request.method.as_str() {
        "GET" if path == base => {
            if request
                .query()
                .unwrap_or("")
                .split('&')
                .any(|kv| kv == "page=2")
            {
                Response::json(200, &serde_json::json!([issue(3, "Crash on save")]))
            } else {
                let next = format!(
                    "http://{}{base}?state=open&per_page=2&page=2",
                    request.header("host").unwrap_or_default()
                );
                Response::json(
                    200,
                    &serde_json::json!([issue(1, "Typo"), issue(2, "Slow start")]),
                )
                .header(
                    "Link",
                    &format!("<{next}>; rel=\"next\", <{next}>; rel=\"last\""),
                )
            }
        }
        "GET" if path == format!("{base}/3") => Response::json(200, &issue(3, "Crash on save")),
        "PATCH" if path == format!("{base}/3") => {
            let mut closed = issue(3, "Crash on save");
            closed["state"] = serde_json::json!("closed");
            Response::json(200, &closed)
        }
        _ => Response::json(404, &serde_json::json!({"message": "Not Found"})),
    }
}
