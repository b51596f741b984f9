//! The real API descriptions the tests and benches run on, inside the repository
//! (`tests/data/corpus`, origins and licences in its README): the 40 dev specs as they
//! are, the big ones gzipped and unpacked on first use.

use std::io::Read;
use std::path::{Path, PathBuf};

/// `tests/data/corpus` of this checkout.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/corpus")
}

/// The directory of the 40 dev specs.
pub fn dev() -> PathBuf {
    root().join("dev")
}

/// One dev spec by file name.
pub fn dev_spec(name: &str) -> PathBuf {
    dev().join(name)
}

/// A big spec (`github.com_api.github.com.json`, `stripe.com_api.json`,
/// `kubernetes.io_api.json`, `microsoft.com_graph-beta.json`) unpacked as `file_name`
/// (the API is named after the file's stem), once, into the system's temporary
/// directory (keyed by the packed file's size, so a changed file is unpacked again).
///
/// # Panics
/// If the packed file is missing or does not unpack: the test cannot run without it.
pub fn big(name: &str, file_name: &str) -> PathBuf {
    let packed = root().join("big").join(format!("{name}.gz"));
    let size = std::fs::metadata(&packed)
        .unwrap_or_else(|e| panic!("{}: {e}", packed.display()))
        .len();
    let out = std::env::temp_dir()
        .join(format!("toolwright-corpus-{size}"))
        .join(file_name);
    if out.is_file() {
        return out;
    }
    let bytes = std::fs::read(&packed).unwrap_or_else(|e| panic!("{}: {e}", packed.display()));
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_end(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", packed.display()));
    let dir = out.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    // Written aside and renamed: tests running at once never read half a file.
    let partial = dir.join(format!("{file_name}.{}.partial", std::process::id()));
    std::fs::write(&partial, text).unwrap_or_else(|e| panic!("{}: {e}", partial.display()));
    std::fs::rename(&partial, &out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    out
}

/// The JSON dev specs (sorted), then Stripe, Kubernetes and GitHub unpacked (GitHub
/// as `github_file`, which names its API): what the catalog-wide checks run over.
pub fn dev_json_and_big(github_file: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dev())
        .expect("the dev corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    out.sort();
    out.push(big("stripe.com_api.json", "stripe.com_api.json"));
    out.push(big("kubernetes.io_api.json", "kubernetes.io_api.json"));
    out.push(big("github.com_api.github.com.json", github_file));
    out
}
