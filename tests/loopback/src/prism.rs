//! Prism (`@stoplight/prism-cli`, pinned in `tests/prism`) mocking an OpenAPI document
//! on a free loopback port, with request validation (`--errors`): a request that does
//! not match the document comes back as 422 with Prism's reasons.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running Prism; stopped when dropped.
#[derive(Debug)]
pub struct Prism {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub url: String,
}

impl Drop for Prism {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tests/prism`, where the lock file pins Prism.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../prism")
}

impl Prism {
    /// Installs Prism from the lock file if needed (`npm ci`), then mocks `spec`.
    ///
    /// # Errors
    /// npm or Prism cannot run, or Prism does not listen within 60 s.
    pub fn start(spec: &Path) -> Result<Prism, String> {
        let bin = crate::npm_package("prism", "node_modules/.bin/prism")?;
        let port = crate::free_port();
        let child = Command::new(&bin)
            .arg("mock")
            .arg(spec)
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "--errors"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start Prism: {e}"))?;
        let prism = Prism {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        crate::wait_listening(
            port,
            Duration::from_secs(60),
            &format!("Prism for {}", spec.display()),
        )?;
        Ok(prism)
    }
}
