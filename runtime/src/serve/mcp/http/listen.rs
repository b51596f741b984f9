//! The standalone server's connection handling: an accept loop that outlives the
//! errors accept can return (out of file descriptors above all), a cap on open
//! connections, and timeouts for connections that hold a slot without asking for
//! anything — so no client, however many sockets it opens, stops the server or
//! starves the others.
//!
//! A connection is *busy* while a request of its own is being answered (its response
//! body included) and *idle* otherwise: before its first request, between keep-alive
//! requests, and while a request head is still arriving. Idle connections are closed
//! after [`Limits::idle_timeout`]; a request head must arrive whole within
//! [`Limits::header_timeout`] (hyper's timer, so a byte-a-second client cannot stretch
//! it), and a body within [`Limits::body_timeout`]. When every slot is taken, the
//! oldest idle connection makes room for the new one: a flood of silent sockets only
//! ever evicts itself, while a client that is being answered keeps its connection.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, Semaphore};

use super::{Http, lock};

/// How many connections the standalone server holds open, and how long it waits for
/// a client that sends nothing. The defaults suit a server for a few trusted clients
/// under the usual 1024 open-file limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once (512); past it the oldest idle one is closed, or the
    /// next accept waits while every connection is busy.
    pub max_connections: usize,
    /// Time for a request head (request line and headers) to arrive whole (10 s).
    pub header_timeout: Duration,
    /// Time a connection may stay open with no request in progress (60 s).
    pub idle_timeout: Duration,
    /// Time for a request body to arrive whole (30 s); past it the answer is `408`.
    pub body_timeout: Duration,
    /// MCP sessions held at once (10,000); past it the least recently used ends.
    pub max_sessions: usize,
    /// Time an MCP session lives without a request (1 h); then it is unknown and the
    /// client initializes again, as the protocol says it must after a `404`.
    pub session_ttl: Duration,
    /// MCP sessions one authenticated caller holds at once (64); its oldest ends first.
    pub max_sessions_per_caller: usize,
    /// `tools/call`s one authenticated caller may make per second, also its burst
    /// (100; 0: no limit); past it the answer is `429` with `Retry-After`.
    pub calls_per_second_per_caller: u32,
    /// `tools/call`s answered at once, every caller together (256); past it the
    /// answer is `503` with `Retry-After`.
    pub max_calls_in_flight: usize,
    /// Requests one authenticated caller may have in progress at once, from the first
    /// byte of the body to the last of the answer (64, a quarter of the calls in
    /// flight): past it that caller gets `429`, so its slow bodies or slow calls
    /// leave the connections and call slots of the others alone.
    pub max_requests_per_caller: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_timeout: Duration::from_secs(30),
            max_sessions: 10_000,
            session_ttl: Duration::from_secs(3600),
            max_sessions_per_caller: 64,
            calls_per_second_per_caller: 100,
            max_calls_in_flight: 256,
            max_requests_per_caller: 64,
        }
    }
}

/// Every open connection, oldest first (ids are handed out in accept order).
#[derive(Debug, Default)]
struct Connections {
    next: AtomicU64,
    open: Mutex<BTreeMap<u64, Arc<Connection>>>,
}

#[derive(Debug)]
struct Connection {
    /// Requests of this connection being answered (responses still streaming count).
    busy: AtomicUsize,
    /// When `busy` last dropped to zero (or the connection opened), in ms since `epoch`.
    idle_since: AtomicU64,
    epoch: Instant,
    /// Set once the connection was told to close, so it is not picked twice.
    closing: AtomicBool,
    close: Notify,
}

impl Connection {
    fn new() -> Self {
        Connection {
            busy: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            epoch: Instant::now(),
            closing: AtomicBool::new(false),
            close: Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// When the connection, idle now, will have been idle for `timeout`; `None` while
    /// it is busy.
    fn idle_deadline(&self, timeout: Duration) -> Option<Instant> {
        if self.busy.load(Ordering::Acquire) > 0 {
            return None;
        }
        let since = Duration::from_millis(self.idle_since.load(Ordering::Acquire));
        Some(self.epoch + since + timeout)
    }

    fn tell_to_close(&self) -> bool {
        if self.closing.swap(true, Ordering::AcqRel) {
            return false;
        }
        // `notify_one` keeps the permit if the connection task is not waiting yet.
        self.close.notify_one();
        true
    }
}

/// Held while one request (and its response body) is in progress on a connection.
#[derive(Debug)]
pub(super) struct Busy(Arc<Connection>);

impl Busy {
    fn start(connection: &Arc<Connection>) -> Self {
        connection.busy.fetch_add(1, Ordering::AcqRel);
        Busy(Arc::clone(connection))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let now = self.0.now_ms();
        // The idle clock starts when the last request in progress ends.
        if self.0.busy.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle_since.store(now, Ordering::Release);
        }
    }
}

impl Connections {
    fn open(&self) -> (u64, Arc<Connection>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection::new());
        lock(&self.open).insert(id, Arc::clone(&connection));
        (id, connection)
    }

    fn closed(&self, id: u64) {
        lock(&self.open).remove(&id);
    }

    /// Tells the oldest idle connection to close; false when every one is busy.
    fn evict_oldest_idle(&self) -> bool {
        let open = lock(&self.open);
        open.values().any(|c| {
            c.busy.load(Ordering::Acquire) == 0
                && !c.closing.load(Ordering::Acquire)
                && c.tell_to_close()
        })
    }
}

/// Where [`Log`] writes.
pub(super) type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// What the server reports about itself while it runs (accept errors, evictions):
/// rare events, each at most once a second.
#[derive(Clone)]
pub(super) struct Log {
    sink: Option<Sink>,
    last: Arc<Mutex<Option<Instant>>>,
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

impl Log {
    pub(super) fn new(sink: Option<Sink>) -> Self {
        Log {
            sink,
            last: Arc::default(),
        }
    }

    fn say(&self, message: &str) {
        {
            let mut last = lock(&self.last);
            if last.is_some_and(|at| at.elapsed() < Duration::from_secs(1)) {
                return;
            }
            *last = Some(Instant::now());
        }
        #[cfg(feature = "tracing")]
        tracing::warn!(target: "toolwright::serve", "{message}");
        if let Some(sink) = &self.sink {
            sink(message);
        }
    }
}

/// Connections the kernel queues until they are accepted. `TcpListener::bind` asks for
/// 1,024; a burst of 1,000 clients connecting at once (`benches/http_load.sh`) overflowed
/// that on 2 busy cores, and connections that overflow are reset after their client has
/// sent its request. The kernel caps it at `net.core.somaxconn` (4,096 on current Linux).
const LISTEN_BACKLOG: u32 = 4096;

impl Http {
    /// A standalone server on `addr` (loopback unless told otherwise), until the
    /// process ends. Connections are held within [`Http::limits`]; errors accepting
    /// a connection (out of file descriptors, a connection reset before it was
    /// taken) are reported to [`Http::log`] and the server goes on.
    ///
    /// # Errors
    /// The address cannot be bound, or is off loopback without [`Http::auth`] (see
    /// [`Http::serve_on`]).
    pub async fn serve(self, addr: SocketAddr) -> std::io::Result<()> {
        let socket = if addr.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        // As `TcpListener::bind` does: a restarted server can bind at once.
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        socket.bind(addr)?;
        self.serve_on(socket.listen(LISTEN_BACKLOG)?).await
    }

    /// [`Http::serve`] on `127.0.0.1:port`.
    ///
    /// # Errors
    /// The port cannot be bound.
    pub async fn bind(self, port: u16) -> std::io::Result<()> {
        self.serve(SocketAddr::from(([127, 0, 0, 1], port))).await
    }

    /// [`Http::serve`] on a listener already bound (a port chosen by the OS, a socket
    /// handed over by a service manager).
    ///
    /// # Errors
    /// A listener off loopback without [`Http::auth`] (unless
    /// [`Http::without_auth_off_loopback`]); accept errors are logged and waited out.
    pub async fn serve_on(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        let addr = listener.local_addr()?;
        if !addr.ip().is_loopback() && self.auth.is_none() && !self.open {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "refusing to serve MCP on {addr} without authorization: anyone who reaches it would call the tools with this service's credentials. Add bearer tokens (`Http::auth`; `serve --auth-token NAME=ENV_VAR` or `--auth-tokens FILE`), bind to 127.0.0.1, or, on a network where every host is trusted, allow it (`Http::without_auth_off_loopback`; `serve --no-auth`)"
                ),
            ));
        }
        let limits = self.limits;
        let connections = Arc::new(Connections::default());
        let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
        loop {
            let slot = match Arc::clone(&slots).try_acquire_owned() {
                Ok(slot) => slot,
                Err(_) => {
                    if connections.evict_oldest_idle() {
                        self.log.say(&format!(
                            "{} connections open: closing the oldest idle one",
                            limits.max_connections
                        ));
                    }
                    match Arc::clone(&slots).acquire_owned().await {
                        Ok(slot) => slot,
                        Err(_) => return Ok(()),
                    }
                }
            };
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    drop(slot);
                    self.log
                        .say(&format!("cannot accept a connection: {e}; going on"));
                    // Out of descriptors: free one held by an idle client, and give
                    // the ones closing a moment. Anything else passes at once.
                    let exhausted = matches!(e.raw_os_error(), Some(23 | 24));
                    if exhausted {
                        connections.evict_oldest_idle();
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    } else {
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    continue;
                }
            };
            let (id, connection) = connections.open();
            let endpoint = self.clone();
            let connections = Arc::clone(&connections);
            tokio::spawn(async move {
                endpoint.connection(stream, &connection).await;
                connections.closed(id);
                drop(slot);
            });
        }
    }

    /// Serves one connection until the client closes it, it idles past the timeout,
    /// or it is evicted to make room.
    async fn connection(self, stream: tokio::net::TcpStream, connection: &Arc<Connection>) {
        let limits = self.limits;
        let tracked = Arc::clone(connection);
        let service = hyper::service::service_fn(move |request| {
            let endpoint = self.clone();
            let busy = Busy::start(&tracked);
            async move {
                let mut response = endpoint.handle(request).await;
                // The connection stays busy until the body (an event stream, say) is sent.
                response.body_mut().hold(busy);
                Ok::<_, std::convert::Infallible>(response)
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(limits.header_timeout);
        let serving = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
        tokio::pin!(serving);
        loop {
            let deadline = connection.idle_deadline(limits.idle_timeout);
            let idle_expired = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at.into()).await,
                    // Busy: look again after a timeout's worth of time.
                    None => tokio::time::sleep(limits.idle_timeout).await,
                }
            };
            tokio::select! {
                _ = &mut serving => return,
                () = connection.close.notified() => return,
                () = idle_expired => {
                    let still_idle = connection
                        .idle_deadline(limits.idle_timeout)
                        .is_some_and(|at| at <= Instant::now());
                    if still_idle {
                        return;
                    }
                }
            }
        }
    }
}
