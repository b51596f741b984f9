//! Bytes put aside until the report needs them: each operation's source lines and
//! artifact entry (read back once, when its details are made) and each tool's
//! compressed details (made in source order, written in the rows' order). Kept in a
//! temporary file, so what the report holds does not grow with the number of tools
//! (Microsoft Graph beta's reaches ~230 MB); in memory where no temporary file can be
//! had.

use std::borrow::Cow;
use std::fs::File;

/// Pieces of bytes, each read back by the number [`Spool::push`] gave it.
#[derive(Default)]
pub struct Spool {
    /// The temporary file, if one could be made.
    file: Option<File>,
    /// The file's length so far; `None` once a write failed (the disk filled up):
    /// what that write left is never read, and the rest stays in memory.
    end: Option<u64>,
    pieces: Vec<Piece>,
}

impl std::fmt::Debug for Spool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spool")
            .field("pieces", &self.pieces.len())
            .field("in_a_file", &self.file.is_some())
            .finish()
    }
}

enum Piece {
    /// At `at` in the file, `len` bytes long.
    Stored { at: u64, len: usize },
    /// Kept in memory.
    Held(Vec<u8>),
}

impl Spool {
    /// A spool backed by a new temporary file when one can be made.
    pub fn new() -> Spool {
        let file = temporary();
        Spool {
            end: file.as_ref().map(|_| 0),
            file,
            pieces: Vec::new(),
        }
    }

    /// Puts `bytes` aside; returns the number to read them back by.
    pub fn push(&mut self, bytes: Vec<u8>) -> usize {
        let piece = match (&mut self.file, self.end) {
            (Some(file), Some(at)) => {
                if write_all_at(file, &bytes, at).is_ok() {
                    self.end = Some(at + bytes.len() as u64);
                    Piece::Stored {
                        at,
                        len: bytes.len(),
                    }
                } else {
                    self.end = None;
                    Piece::Held(bytes)
                }
            }
            _ => Piece::Held(bytes),
        };
        self.pieces.push(piece);
        self.pieces.len() - 1
    }

    /// The bytes put aside as number `index`.
    ///
    /// # Errors
    /// Reading the temporary file failed, or nothing was put aside as `index`.
    pub fn read(&self, index: usize) -> std::io::Result<Cow<'_, [u8]>> {
        match (self.pieces.get(index), &self.file) {
            (Some(Piece::Held(bytes)), _) => Ok(Cow::Borrowed(bytes)),
            (Some(&Piece::Stored { at, len }), Some(file)) => {
                let mut bytes = vec![0; len];
                read_exact_at(file, &mut bytes, at)?;
                Ok(Cow::Owned(bytes))
            }
            _ => Err(std::io::Error::other(format!(
                "the report put no piece {index} aside"
            ))),
        }
    }
}

/// A new file in the system's temporary directory (`TMPDIR`), readable by this user
/// only and gone when closed; `None` when none can be made there (or on a platform
/// where that cannot be arranged).
fn temporary() -> Option<File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static MADE: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    // A few tries: a name taken (by a file of another process) is not reused.
    (0..4).find_map(|_| {
        let name = format!(
            "toolwright-report-{}-{}-{nanos}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let mut options = std::fs::OpenOptions::new();
        // `create_new`: never an existing file, nor one a link points to.
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let file = options.open(&path).ok()?;
            // Gone from the directory now; the open file stays until it is closed. A
            // file that cannot be removed is not used (it is empty, and the details stay
            // in memory).
            std::fs::remove_file(&path).ok()?;
            Some(file)
        }
        #[cfg(windows)]
        {
            use std::os::windows::fs::OpenOptionsExt;
            // FILE_FLAG_DELETE_ON_CLOSE: Windows removes it when it is closed; shared
            // with no other opener; FILE_ATTRIBUTE_TEMPORARY: kept in the cache where
            // it can be.
            options
                .custom_flags(0x0400_0000)
                .share_mode(0)
                .attributes(0x100);
            options.open(&path).ok()
        }
        #[cfg(not(any(unix, windows)))]
        {
            let _ = (path, options);
            None
        }
    })
}

/// Writes all of `bytes` to `file` at `at`: by position, as the reads are (on Windows a
/// positioned read moves the file's cursor, so a plain write after one would land
/// there).
fn write_all_at(file: &File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
    }
    #[cfg(windows)]
    {
        whole(bytes.len(), std::io::ErrorKind::WriteZero, |done| {
            std::os::windows::fs::FileExt::seek_write(file, &bytes[done..], at + done as u64)
        })
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, bytes, at);
        Err(std::io::Error::other(
            "no positioned writes on this platform",
        ))
    }
}

/// Fills `buf` from `file` at `at`.
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
    }
    #[cfg(windows)]
    {
        whole(buf.len(), std::io::ErrorKind::UnexpectedEof, |done| {
            std::os::windows::fs::FileExt::seek_read(file, &mut buf[done..], at + done as u64)
        })
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, buf, at);
        Err(std::io::Error::other(
            "no positioned reads on this platform",
        ))
    }
}

/// Repeats `step` (given the bytes done so far, returning how many more it moved) until
/// `len` bytes are done; a step that moves none is a `short` error. Windows' positioned
/// reads and writes may move fewer bytes than asked.
#[cfg(windows)]
fn whole(
    len: usize,
    short: std::io::ErrorKind,
    mut step: impl FnMut(usize) -> std::io::Result<usize>,
) -> std::io::Result<()> {
    let mut done = 0;
    while done < len {
        match step(done)? {
            0 => return Err(short.into()),
            n => done += n,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_read_back_in_any_order() {
        let mut spool = Spool::new();
        let pieces: Vec<Vec<u8>> = (0..50u8).map(|i| vec![i; usize::from(i) * 7]).collect();
        let numbers: Vec<usize> = pieces.iter().map(|p| spool.push(p.clone())).collect();
        assert_eq!(spool.pieces.len(), 50);
        for &n in numbers.iter().rev() {
            assert_eq!(&*spool.read(n).unwrap(), &pieces[n][..]);
        }
        assert!(spool.read(50).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_on_disk_and_in_no_directory() {
        use std::os::unix::fs::MetadataExt;
        let mut spool = Spool::new();
        let file = spool
            .file
            .as_ref()
            .expect("a temporary file can be made here");
        let (device, inode) = {
            let meta = file.metadata().unwrap();
            (meta.dev(), meta.ino())
        };
        spool.push(b"details".to_vec());
        assert!(matches!(spool.pieces[0], Piece::Stored { at: 0, len: 7 }));
        // This spool's own file, by what it is rather than by name (other tests'
        // spools come and go in the same directory meanwhile).
        let listed = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .filter_map(Result::ok)
            .filter_map(|e| e.metadata().ok())
            .any(|m| m.dev() == device && m.ino() == inode);
        assert!(!listed, "the temporary file was removed from its directory");
    }

    #[test]
    fn writes_after_reads_keep_what_was_written() {
        let mut spool = Spool::new();
        let first = spool.push(b"first".to_vec());
        assert_eq!(&*spool.read(first).unwrap(), b"first");
        let second = spool.push(b"second".to_vec());
        assert_eq!(&*spool.read(first).unwrap(), b"first");
        assert_eq!(&*spool.read(second).unwrap(), b"second");
    }

    #[test]
    fn without_a_file_everything_is_held() {
        let mut spool = Spool::default();
        let n = spool.push(vec![1, 2, 3]);
        assert_eq!(&*spool.read(n).unwrap(), &[1, 2, 3]);
    }
}
