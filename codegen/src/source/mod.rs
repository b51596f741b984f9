//! Sources: find the input files (adapter files, OpenAPI documents, Google Discovery
//! documents) and lower each into the IR.

pub mod adapter;
pub mod arazzo;
pub mod base_url;
pub mod discovery;
pub mod graphql;
pub mod mcp;
pub mod openapi;
pub mod placeholder;
pub mod yaml;

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Diagnostics, SourceFile, codes};
use crate::ir;

/// What a run reads: the files, and the directories searched (for rerun-if-changed).
#[derive(Debug, Default)]
pub struct Inputs {
    pub files: Vec<PathBuf>,
    pub dirs: Vec<PathBuf>,
    /// OpenAPI documents an adapter is compared with (its `-adapter-openapi` companion
    /// or a `Config::pair`): read for the drift check, not as inputs. Each with its
    /// adapter.
    pub companions: Vec<(PathBuf, PathBuf)>,
    /// How the files are read beyond what they say.
    pub options: Options,
}

/// What a build says about its inputs beyond the files.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// API names replacing the ones read (the file stem), by the name read.
    pub names: std::collections::BTreeMap<String, String>,
    pub graphql: graphql::Options,
}

/// Resolves the user's inputs: a file is taken as is; a directory is searched
/// (recursively, sorted) for `*-adapter.md`, OpenAPI and Google Discovery documents
/// (an adapter's `-adapter-openapi` companion is not an input: it is compared with
/// its adapter).
/// `paths` come with the noun findings about them use (`input`, `OpenAPI document`).
pub fn discover(paths: &[(PathBuf, &str)], diagnostics: &mut Diagnostics) -> Inputs {
    let mut inputs = Inputs::default();
    let mut seen = Seen::default();
    for (path, noun) in paths {
        if path.is_dir() {
            let before = inputs.files.len();
            let walked = walk(path, &mut inputs, &mut seen, diagnostics);
            if walked && inputs.files.len() == before {
                diagnostics.push(
                    Diagnostic::error(
                        codes::IO,
                        format!(
                            "input directory `{}` holds no adapter (`*-adapter.md`) and no OpenAPI document (`.json`, `.yaml`, `.yml` mentioning `openapi`) or Google Discovery document",
                            path.display()
                        ),
                    )
                    .help("point the input at the directory that holds them, or name the files directly"),
                );
            }
        } else if path.is_file() {
            if seen.first_visit(path) {
                inputs.files.push(path.clone());
            }
        } else {
            diagnostics.push(
                Diagnostic::error(
                    codes::IO,
                    format!("{noun} `{}` does not exist", path.display()),
                )
                .help("pass adapter files (`*-adapter.md`), OpenAPI documents (`.json`, `.yaml`, `.yml`), Google Discovery documents (`.json`), or directories holding them"),
            );
        }
    }
    inputs.files.dedup();
    without_arazzo_sources(&mut inputs.files);
    for adapter in inputs
        .files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
    {
        if let Some(companion) = crate::related::find(adapter, crate::related::Kind::Openapi) {
            inputs.companions.push((adapter.clone(), companion));
        }
    }
    inputs
}

/// Drops the OpenAPI documents an Arazzo input names as its source: the Arazzo
/// document brings their operations with its workflows (read twice, they would be
/// two APIs of one name).
fn without_arazzo_sources(files: &mut Vec<PathBuf>) {
    let mut sources = std::collections::BTreeSet::new();
    for file in files.iter() {
        let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "yaml" | "yml" | "json") {
            continue;
        }
        // Only a file whose head says `arazzo` is read whole (inputs may be large).
        let mut head = Vec::new();
        let read = std::fs::File::open(file)
            .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head));
        if read.is_err() || !arazzo::looks_like(file, &String::from_utf8_lossy(&head)) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let parsed = openapi::parse(
            &SourceFile::new(file.display().to_string(), text),
            &mut Diagnostics::default(),
        );
        let Some((root, _)) = parsed.filter(|(root, _)| arazzo::is_arazzo(root)) else {
            continue;
        };
        let base = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for url in root
            .get("sourceDescriptions")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s.get("url")?.as_str())
            .filter(|u| !u.contains("://"))
        {
            if let Ok(path) = std::fs::canonicalize(base.join(url)) {
                sources.insert(path);
            }
        }
    }
    if !sources.is_empty() {
        files.retain(|f| std::fs::canonicalize(f).map_or(true, |c| !sources.contains(&c)));
    }
}

/// Files and directories already visited, by canonical path: a symlink loop (or two
/// links to one directory) is walked once, and each file is read once.
#[derive(Default)]
struct Seen(std::collections::BTreeSet<PathBuf>);

impl Seen {
    fn first_visit(&mut self, path: &Path) -> bool {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        self.0.insert(canonical)
    }
}

/// Walks `dir` unless it was walked already (then `false`).
fn walk(dir: &Path, inputs: &mut Inputs, seen: &mut Seen, diagnostics: &mut Diagnostics) -> bool {
    if !seen.first_visit(dir) {
        return false;
    }
    inputs.dirs.push(dir.to_owned());
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            diagnostics.push(Diagnostic::error(
                codes::IO,
                format!("cannot read `{}`: {e}", dir.display()),
            ));
            return true;
        }
    };
    entries.sort();
    for path in entries {
        if path.is_dir() {
            // Installed packages and tool state (`node_modules`, `.git`) are not the
            // service's inputs, however many schemas they hold.
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "node_modules" || name.starts_with('.') {
                continue;
            }
            walk(&path, inputs, seen, diagnostics);
        } else if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with("-adapter.md"))
            || (crate::related::kind_of(&path).is_none() && is_document(&path))
        {
            if seen.first_visit(&path) {
                inputs.files.push(path);
            }
        } else if path.extension().is_some_and(|e| e == "md")
            && crate::related::kind_of(&path).is_none()
        {
            diagnostics.push(
                Diagnostic::warning(
                    codes::IO,
                    format!(
                        "`{}` is not read: adapter files are named `<name>-adapter.md`",
                        path.display()
                    ),
                )
                .help("rename it to `<name>-adapter.md` if it is an adapter"),
            );
        }
    }
    true
}

/// A `.json`/`.yaml`/`.yml` file whose head mentions `openapi` (or `swagger`, to say
/// that it needs converting), or a `.json` one that is a Google Discovery document.
/// Discovery documents list `auth` (often long) before `discoveryVersion`: 64 KiB are
/// read.
fn is_document(path: &Path) -> bool {
    use std::io::Read;
    let mut head = vec![0u8; 64 * 1024];
    let n = std::fs::File::open(path)
        .and_then(|f| f.take(head.len() as u64).read(&mut head))
        .unwrap_or(0);
    let head = String::from_utf8_lossy(&head[..n]);
    graphql::is_sdl(&path.to_string_lossy())
        || openapi::looks_like(path, &head[..head.len().min(4096)])
        || arazzo::looks_like(path, &head[..head.len().min(4096)])
        || discovery::looks_like(path, &head)
        || mcp::looks_like(path, &head)
        || graphql::looks_like(path, &head[..head.len().min(4096)])
}

/// Reads and lowers every input file. Unreadable or broken files are reported and
/// skipped so that the other files' findings still come out.
pub fn load(inputs: &Inputs, diagnostics: &mut Diagnostics) -> Vec<ir::Api> {
    let mut apis = Vec::new();
    for path in &inputs.files {
        apis.extend(read_path(path, &inputs.options, diagnostics));
    }
    apis
}

/// The OpenAPI twin of each adapter paired with one (`companions`), read and lowered,
/// with the adapter's index in `apis`: `check` compares them.
pub fn twins(
    inputs: &Inputs,
    apis: &[ir::Api],
    diagnostics: &mut Diagnostics,
) -> Vec<(usize, ir::Api)> {
    let mut twins = Vec::new();
    for (adapter, companion) in &inputs.companions {
        let name = adapter.display().to_string();
        let Some(index) = apis
            .iter()
            .position(|a| a.source.as_ref().is_some_and(|l| l.file.path == name))
        else {
            diagnostics.push(
                Diagnostic::warning(
                    codes::DRIFT,
                    format!(
                        "`{name}` is paired with `{}` but is not an adapter among the inputs",
                        companion.display()
                    ),
                )
                .help("pair an adapter file the build reads, with the same path as its input"),
            );
            continue;
        };
        if let Some(twin) = read_path(companion, &inputs.options, diagnostics) {
            twins.push((index, twin));
        }
    }
    twins
}

/// Reads and lowers one file; an unreadable one is reported.
fn read_path(path: &Path, options: &Options, diagnostics: &mut Diagnostics) -> Option<ir::Api> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            diagnostics.push(Diagnostic::error(
                codes::IO,
                format!("cannot read `{}`: {e}", path.display()),
            ));
            return None;
        }
    };
    let file = SourceFile::new(path.display().to_string(), text);
    read_with(&file, options, diagnostics)
}

/// Reads one file: an adapter (`.md`), GraphQL SDL (`.graphql`, `.gql`), or a
/// JSON/YAML document — parsed once, then read as what it is (Google Discovery when it
/// says `discoveryVersion`, a saved MCP `tools/list` when it holds `tools`, a GraphQL
/// introspection result when it holds `__schema`, else OpenAPI).
pub fn read(file: &std::sync::Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Option<ir::Api> {
    read_with(file, &Options::default(), diagnostics)
}

/// [`read`] with the build's [`Options`].
pub fn read_with(
    file: &std::sync::Arc<SourceFile>,
    options: &Options,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    // Every source's API leaves through here: renamed as the build asks, and
    // scrubbed once for everything made from it (files, report, artifact, exports).
    let renamed = |mut api: ir::Api| {
        if let Some(name) = options.names.get(&api.name) {
            api.name = name.clone();
        }
        crate::scrub::api(&mut api);
        api
    };
    if file.path.ends_with(".md") {
        return adapter::read(file, diagnostics).map(renamed);
    }
    if graphql::is_sdl(&file.path) {
        return graphql::read_sdl(
            file,
            &options.graphql,
            &|n| renamed_name(options, n),
            diagnostics,
        )
        .map(renamed);
    }
    // An OpenAPI JSON document is lowered a path item at a time (Graph beta's whole
    // tree was ~400 MB beside what is made of it).
    if file.path.ends_with(".json")
        && let Some((root, items)) = openapi::split(file)
        && !(arazzo::is_arazzo(&root)
            || discovery::is_discovery(&root)
            || mcp::is_tools_list(&root)
            || graphql::is_introspection(&root))
    {
        return openapi::read_split(
            file,
            root,
            Some(items),
            &openapi::locate::Locator::Json,
            diagnostics,
        )
        .map(renamed);
    }
    let (root, locator) = openapi::parse(file, diagnostics)?;
    if arazzo::is_arazzo(&root) {
        return arazzo::lower::read(file, diagnostics).map(renamed);
    }
    let api = if discovery::is_discovery(&root) {
        discovery::read(file, &root, diagnostics)
    } else if mcp::is_tools_list(&root) {
        mcp::read(file, &root, diagnostics)
    } else if graphql::is_introspection(&root) {
        graphql::read_introspection(
            file,
            &root,
            &options.graphql,
            &|n| renamed_name(options, n),
            diagnostics,
        )
    } else {
        return openapi::read_root(file, root, &locator, diagnostics).map(renamed);
    };
    // A large document's tree takes a while to free (compute v1's: 7% of generation):
    // not on the way to the output.
    crate::memory::drop_later(root);
    api.map(renamed)
}

/// The name an API read as `name` goes by.
fn renamed_name(options: &Options, name: &str) -> String {
    options
        .names
        .get(name)
        .cloned()
        .unwrap_or_else(|| name.to_owned())
}

/// A JSON object of `entries`, moved in. (`json!` serializes an interpolated value
/// into a new tree — a deep copy of every schema put into a document that way.)
pub(crate) fn object(
    entries: impl IntoIterator<Item = (&'static str, serde_json::Value)>,
) -> serde_json::Value {
    serde_json::Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}
