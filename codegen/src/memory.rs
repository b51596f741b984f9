//! Freeing large values off the critical path (a leaf: reading and emitting both use it).

/// Frees a large value on another thread: a big specification's document and IR take
/// tenths of a second to free, and a build script or the CLI usually exits first.
pub(crate) fn drop_later<T: Send + 'static>(value: T) {
    let spawned = std::thread::Builder::new()
        .name("toolwright-drop".into())
        .spawn(move || drop(value));
    // No thread to be had: free it here (the value moved into the failed closure,
    // which dropped it).
    drop(spawned);
}
