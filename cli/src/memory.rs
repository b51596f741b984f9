//! How `serve` keeps its memory within what its limits promise, and how `report`
//! gives back what one phase freed before the next.
//!
//! glibc's allocator serves a large allocation (128 KiB and up) with its own `mmap` and
//! unmaps it when freed, but each such free raises the threshold to that size (up to
//! 32 MiB). After one script's 50 MiB array or a 1 MiB request body is freed, later
//! buffers of that size come from the heap arenas instead, which keep freed memory
//! resident: under the hostile-script load check (`benches/code_load.py`) the server
//! peaked at 803 MiB and kept 698 MiB after the load, against a bound of 712 MiB. With
//! the threshold fixed at its default (which also turns the raising off) the same run
//! peaks at 386 MiB and returns to 35 MiB (`benches/input_limits.md`). The cost is an
//! `mmap`/`munmap` pair for every large buffer, which that run did not show in latency.
//!
//! With the `jemalloc` feature (on by default where it builds) the command's own
//! allocations come from jemalloc: its size classes carry no header per block, where
//! glibc's spend ~16 bytes on each, and a big API's report holds millions of small
//! blocks (Microsoft Graph beta's report: a ~299 MB peak with glibc, ~280 MB with
//! jemalloc; `benches/report_memory.md`). C code linked in (QuickJS, for code mode) keeps
//! calling glibc's `malloc`, so both allocators are tuned here. jemalloc keeps freed
//! pages for ten seconds by default, for reuse; the frugal setting returns them at
//! once, which `report` and `serve` ask for and the short commands do not (the
//! report's last phase keeps them a tenth of a second).

#[cfg(all(feature = "jemalloc", unix, not(target_os = "openbsd")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Fixes glibc's mmap threshold at 128 KiB for the rest of the process, and has
/// jemalloc (when it is the allocator) return freed pages at once instead of after ten
/// seconds. Elsewhere (another C library or OS) the allocator is left as it is.
pub(crate) fn return_large_buffers_when_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fix_mmap_threshold();
    #[cfg(all(feature = "jemalloc", unix, not(target_os = "openbsd")))]
    jemalloc::return_freed_pages_at_once();
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn fix_mmap_threshold() {
    const THRESHOLD: libc::c_int = 128 * 1024;
    // SAFETY: `mallopt` takes two integers and changes only glibc's own tuning, under
    // the allocator's lock; it is safe to call at any time, from any thread. A refusal
    // (0) leaves the default behaviour, which is correct, only less frugal.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD);
    }
}

/// From here on, jemalloc (when it is the allocator) keeps freed pages ~0.1 s for reuse
/// before they go back. For a phase that frees and makes again buffers of the same
/// sizes many times a second: the report's exports, a tool at a time, spent ~20 s of
/// system time on Microsoft Graph beta returning and faulting in pages at once, for a
/// peak no lower (`benches/report_memory.md`).
pub(crate) fn keep_freed_pages_briefly() {
    #[cfg(all(feature = "jemalloc", unix, not(target_os = "openbsd")))]
    jemalloc::return_freed_pages_after(100);
}

/// Hands the memory freed so far back to the system (glibc's `malloc_trim`, and
/// jemalloc's purge when it is the allocator; elsewhere nothing). Between the report's
/// phases: what the first freed stays resident in the allocator's arenas, and the
/// threads that make the exports allocate from arenas of their own, so on Microsoft
/// Graph beta the second phase's RSS was ~150 MB over what it holds (with glibc).
pub(crate) fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    trim();
    #[cfg(all(feature = "jemalloc", unix, not(target_os = "openbsd")))]
    jemalloc::purge();
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn trim() {
    // SAFETY: `malloc_trim` takes an integer and only returns free pages of glibc's own
    // arenas to the system, under their locks; it is safe at any time, from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// jemalloc's settings, through `mallctl`.
#[cfg(all(feature = "jemalloc", unix, not(target_os = "openbsd")))]
#[allow(unsafe_code)]
mod jemalloc {
    use std::ffi::{CStr, CString, c_void};

    /// Every arena purged: 4096 is `MALLCTL_ARENAS_ALL`, the index that stands for all.
    const PURGE_ALL: &CStr = c"arena.4096.purge";

    /// Freed pages go back to the system at once.
    pub(super) fn return_freed_pages_at_once() {
        return_freed_pages_after(0);
    }

    /// Dirty pages (freed, still mapped) are returned `ms` after they were freed: the
    /// default for arenas made from now on and the setting of the automatic arenas
    /// already made (threads share them, a few per CPU). The arena of huge allocations
    /// is left as jemalloc sets it (at once: its timer would run only when it is used).
    /// Muzzy pages (handed back lazily) already go at once by jemalloc's default.
    pub(super) fn return_freed_pages_after(ms: isize) {
        write_isize("arenas.dirty_decay_ms", ms);
        for arena in 0..read_u32("opt.narenas").unwrap_or(0) {
            // An index not yet made refuses the write: it takes the default above.
            write_isize(&format!("arena.{arena}.dirty_decay_ms"), ms);
        }
    }

    /// Every arena's freed pages returned now.
    pub(super) fn purge() {
        // SAFETY: `arena.<i>.purge` takes and returns nothing: null pointers and
        // lengths of zero are what jemalloc's manual asks for.
        unsafe {
            tikv_jemalloc_sys::mallctl(
                PURGE_ALL.as_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
            );
        }
    }

    fn write_isize(name: &str, value: isize) {
        let Ok(name) = CString::new(name) else { return };
        let mut value = value;
        // SAFETY: the `*_decay_ms` settings are `ssize_t`: jemalloc reads
        // `size_of::<isize>()` bytes from `value`, which lives across the call. A
        // refusal (an arena that does not exist) changes nothing.
        unsafe {
            tikv_jemalloc_sys::mallctl(
                name.as_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                (&raw mut value).cast::<c_void>(),
                size_of::<isize>(),
            );
        }
    }

    fn read_u32(name: &str) -> Option<u32> {
        let name: &CStr = &CString::new(name).ok()?;
        let mut value: u32 = 0;
        let mut len = size_of::<u32>();
        // SAFETY: the count read here (`opt.narenas`) is an `unsigned`: jemalloc writes
        // at most `len` bytes to `value` and the length it wrote to `len`, both alive
        // across the call.
        let status = unsafe {
            tikv_jemalloc_sys::mallctl(
                name.as_ptr(),
                (&raw mut value).cast::<c_void>(),
                &raw mut len,
                std::ptr::null_mut(),
                0,
            )
        };
        (status == 0 && len == size_of::<u32>()).then_some(value)
    }
}
