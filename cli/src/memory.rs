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

/// Fixes glibc's mmap threshold at 128 KiB for the rest of the process. Elsewhere
/// (another C library or OS) the allocator is left as it is.
pub(crate) fn return_large_buffers_when_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fix_mmap_threshold();
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

/// Hands the memory freed so far back to the system (glibc's `malloc_trim`; elsewhere
/// nothing). Between the report's phases: what the first freed stays resident in the
/// allocator's arenas, and the threads that make the exports allocate from arenas of
/// their own, so on Microsoft Graph beta the second phase's RSS was ~150 MB over what
/// it holds.
pub(crate) fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    trim();
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
