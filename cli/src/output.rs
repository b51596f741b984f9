//! Writing a command's output: to standard output (a reader that stops early is no
//! error), or to a file only when its bytes change.

use std::process::ExitCode;

/// `text` on standard output. A reader that stops early (`| head`) is no error: the
/// rest is not wanted (and `print!` would panic on the closed pipe).
pub(crate) fn print_all(text: &str) -> ExitCode {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A writer that counts the bytes written through it.
pub(crate) struct Counted<W> {
    inner: W,
    pub(crate) written: u64,
}

impl<W: std::io::Write> std::io::Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes what `make` writes as it goes (without holding it whole) to `out` (`-`:
/// standard output, where a reader that stops early is no error); a file is written
/// beside `out` and replaces it only when the bytes differ (build caches and file
/// watchers stay quiet). `make` says what it wrote, for the line printed after.
pub(crate) fn write_if_changed(
    out: &std::path::Path,
    make: impl FnOnce(&mut Counted<&mut dyn std::io::Write>) -> std::io::Result<String>,
) -> ExitCode {
    use std::io::Write as _;
    if out == std::path::Path::new("-") {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        let mut counted = Counted {
            inner: &mut stdout as &mut dyn std::io::Write,
            written: 0,
        };
        return match make(&mut counted).and_then(|_| stdout.flush()) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write to standard output: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let name = out.file_name().map_or_else(
        || std::ffi::OsString::from("output"),
        std::ffi::OsStr::to_owned,
    );
    let mut partial = std::ffi::OsString::from(".");
    partial.push(&name);
    partial.push(format!(".{}.partial", std::process::id()));
    let partial = out.with_file_name(partial);
    let written = std::fs::File::create(&partial).and_then(|file| {
        let mut file = std::io::BufWriter::new(file);
        let what = make(&mut Counted {
            inner: &mut file as &mut dyn std::io::Write,
            written: 0,
        })?;
        file.into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        Ok(what)
    });
    let what = match written {
        Ok(what) => what,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            eprintln!("error: cannot write {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
    };
    if same_bytes(&partial, out) {
        let _ = std::fs::remove_file(&partial);
        eprintln!("{} is up to date: {what}", out.display());
        return ExitCode::SUCCESS;
    }
    match std::fs::rename(&partial, out) {
        Ok(()) => {
            eprintln!("wrote {}: {what}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            eprintln!("error: cannot write {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

/// Whether files `a` and `b` hold the same bytes, compared a block at a time (false
/// when either cannot be read).
pub(crate) fn same_bytes(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::io::Read as _;
    let (Ok(a), Ok(b)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    if a.metadata().map(|m| m.len()).ok() != b.metadata().map(|m| m.len()).ok() {
        return false;
    }
    let (mut a, mut b) = (std::io::BufReader::new(a), std::io::BufReader::new(b));
    let (mut x, mut y) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    loop {
        let n = match a.read(&mut x) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if n == 0 {
            // Same length: `b` is at its end too.
            return true;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}

/// [`write_if_changed`] for output already made whole.
pub(crate) fn write_output(out: &std::path::Path, bytes: &[u8], what: &str) -> ExitCode {
    write_if_changed(out, |w| {
        std::io::Write::write_all(w, bytes)?;
        Ok(what.to_owned())
    })
}
