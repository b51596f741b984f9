//! A GraphQL endpoint on a free loopback port: graphql-js, the reference
//! implementation (pinned in `tests/graphql`), executing a schema over a few records
//! (`tests/graphql/server.mjs`). It parses and validates every document it receives
//! as any GraphQL server would, and records each request as received.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running server; stopped when dropped.
#[derive(Debug)]
pub struct Graphql {
    child: Child,
    port: u16,
}

impl Drop for Graphql {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Graphql {
    /// Installs graphql-js from the lock file if needed (`npm ci`), then serves
    /// `schema` (SDL) with `server.mjs`'s records.
    ///
    /// # Errors
    /// npm or node cannot run, or the server does not say where it listens.
    pub fn start(schema: &Path) -> Result<Graphql, String> {
        crate::npm_package("graphql", "node_modules/graphql/package.json")?;
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../graphql");
        let mut child = Command::new("node")
            .arg(dir.join("server.mjs"))
            .arg(schema)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("node is needed for the GraphQL server: {e}"))?;
        let mut line = String::new();
        let stdout = child.stdout.take().ok_or("no stdout")?;
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let port = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("the GraphQL server did not start: `{}`", line.trim()))?;
        Ok(Graphql { child, port })
    }

    /// The endpoint: `http://127.0.0.1:PORT/graphql`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/graphql", self.port)
    }

    /// The requests received since the last call, each `{query, variables,
    /// authorization, contentType}` as sent.
    pub fn take_requests(&self) -> Vec<Value> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        write!(
            stream,
            "GET /requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .expect("write");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read");
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        match serde_json::from_str(body) {
            Ok(Value::Array(items)) => items,
            _ => panic!("the GraphQL server's record is not a JSON array: {answer}"),
        }
    }
}
