//! [`Config`]: what a build script asks for, and the run that reads the inputs and
//! writes the generated files (in the style of `prost_build::Config`).

use std::path::{Path, PathBuf};

use crate::analysis::analyze_described;
use crate::diagnostics::{self, Diagnostic, Severity};
use crate::{Analysis, ENTRY_FILE, Error, Generated};
use crate::{cargo, contract, emit, output, report, select, source};

/// Configures generation, in the style of `prost_build::Config`.
///
/// In a build script, `generate` writes to `OUT_DIR` and speaks to cargo
/// (`rerun-if-changed`, warnings, errors). Elsewhere, name the output directory:
///
/// ```
/// let dir = std::env::temp_dir().join(format!("toolwright-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("adapters"))?;
/// std::fs::write(dir.join("adapters/resources-adapter.md"), r#"---
/// name: resources
/// type: adapter
/// version: "1.0.0"
/// description: "Create and list resources"
/// target:
///   base_url: "https://api.example.com"
///   transport: http
///   protocol: rest
///   serialization: json
/// operations:
///   read:
///     - name: list_resources
///       maps_to: GET /resources
///       description: "List the resources, newest first"
/// ---
/// "#)?;
/// let generated = toolwright_codegen::Config::new()
///     .adapters(dir.join("adapters"))
///     .out_dir(dir.join("out"))
///     .generate()?;
/// assert!(generated.files.contains(&"toolwright.rs".to_string()));
/// assert!(generated.warnings.is_empty(), "{}", generated.warnings);
/// // Nothing changed, nothing rewritten: cargo does not rebuild the user's crate.
/// let again = toolwright_codegen::Config::new()
///     .adapters(dir.join("adapters"))
///     .out_dir(dir.join("out"))
///     .generate()?;
/// assert!(again.written.is_empty());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct Config {
    /// Each input with what the user called it (`adapters(..)`, `openapi(..)`).
    inputs: Vec<(PathBuf, &'static str)>,
    out_dir: Option<PathBuf>,
    strict: bool,
    cargo_directives: Option<bool>,
    /// File name of the collection artifact to write too (`None`: none).
    artifact: Option<String>,
    /// File name of the inspection report to write too (`None`: none).
    report: Option<String>,
    /// File name of the TypeScript declarations to write too (`None`: none).
    declarations: Option<String>,
    /// (adapter file, OpenAPI document) described as the same API: compared.
    pairs: Vec<(PathBuf, PathBuf)>,
    /// MCP servers recorded at build time: (snapshot, program, arguments).
    mcp_servers: Vec<(PathBuf, String, Vec<String>)>,
    /// How long recording one may take (default 30 s).
    mcp_timeout: Option<std::time::Duration>,
    roles: contract::FieldRoles,
    /// Selectors (`tag:issues`, `read-only`, ...): what is generated.
    include: Vec<String>,
    exclude: Vec<String>,
    /// Selectors of the operations that get Rust types (empty: see `catalog_only`).
    typed: Vec<String>,
    /// No Rust types for operations `typed` does not select.
    catalog_only: bool,
    /// Both serde directions on every generated type.
    full_serde: bool,
    /// Tagged operations' methods and types behind cargo features.
    features_by_tag: bool,
    /// What generated types derive besides `Debug`.
    derives: emit::Derives,
    /// Typed tools' catalog entries embedded as data too.
    embed_tools: bool,
    /// The adapters' conformance cases as `#[test]`s.
    tests: bool,
    /// API names, GraphQL endpoints and scalar schemas.
    options: source::Options,
}

impl Config {
    pub fn new() -> Self {
        Config::default()
    }

    /// Adds adapter inputs: a `*-adapter.md` file, or a directory searched recursively.
    pub fn adapters(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "adapter input")
    }

    /// Adds OpenAPI 3.0/3.1 documents (`.json`, `.yaml`, `.yml`): a file, or a
    /// directory searched recursively. Same as [`Config::input`].
    pub fn openapi(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "OpenAPI document")
    }

    /// Adds an Arazzo 1.0/1.1 document (`workflows.arazzo.yaml`): the OpenAPI document
    /// its `sourceDescriptions` names (a path relative to the Arazzo file) is read
    /// with it, and each workflow becomes one more tool whose call runs its steps.
    /// Do not also add that OpenAPI document: its operations come with the workflows.
    pub fn arazzo(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "Arazzo document")
    }

    /// Adds Google Discovery documents (REST descriptions, `.json` with
    /// `discoveryVersion`): a file, or a directory searched recursively. Same as
    /// [`Config::input`]: each input is read as what it is.
    pub fn discovery(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "Google Discovery document")
    }

    /// Adds saved MCP `tools/list` results (`.json` holding `tools`, e.g. written by
    /// `toolwright mcp-snapshot`): each server's tools become an API whose calls go
    /// through the MCP client the executor is given (`ExecutorBuilder::mcp_stdio`).
    pub fn mcp_tools(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "MCP tools/list")
    }

    /// Runs the MCP server `program args...` over stdio when generating (an explicit
    /// opt-in: it runs a command), records its `tools/list` (with its prompts and
    /// resources) in `snapshot` — a file of the crate, checked in like a lock file, written
    /// only when it changed — and reads the snapshot as an input, as
    /// [`Config::mcp_tools`] would. When the server cannot start or answer within the
    /// timeout ([`Config::mcp_timeout`], 30 s), the recorded snapshot is used with a
    /// warning, so builds stay reproducible offline; with no snapshot either, generation
    /// fails. The server inherits only `PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL`,
    /// `TERM`, `LANG` and `TMPDIR` of the build's environment.
    pub fn mcp_server(
        &mut self,
        snapshot: impl AsRef<Path>,
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> &mut Self {
        self.mcp_servers.push((
            snapshot.as_ref().to_owned(),
            program.into(),
            args.into_iter().map(Into::into).collect(),
        ));
        self
    }

    /// How long recording an MCP server ([`Config::mcp_server`]) may take.
    pub fn mcp_timeout(&mut self, timeout: std::time::Duration) -> &mut Self {
        self.mcp_timeout = Some(timeout);
        self
    }

    /// Adds GraphQL schemas: SDL (`.graphql`, `.gql`) or an introspection result
    /// (`.json` holding `__schema`), a file or a directory searched recursively. Each
    /// query and mutation field becomes a tool (`query_repository`,
    /// `mutation_createIssue`); give the endpoint with [`Config::graphql_endpoint`].
    pub fn graphql(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "GraphQL schema")
    }

    /// The endpoint of GraphQL API `api` (named by its file stem, or by
    /// [`Config::api_name`]): the schema does not say where it is served. Without one
    /// the base URL is empty and the service sets it on the executor.
    pub fn graphql_endpoint(
        &mut self,
        api: impl Into<String>,
        url: impl Into<String>,
    ) -> &mut Self {
        self.options
            .graphql
            .endpoints
            .insert(api.into(), url.into());
        self
    }

    /// The JSON Schema of GraphQL custom scalar `name`, in every GraphQL input,
    /// replacing the default mapping (any JSON value, or a `string` with a `format`
    /// for `DateTime`, `Date`, `URI`, `UUID` and the like):
    /// `.graphql_scalar("GitObjectID", json!({"type": "string", "pattern": "^[0-9a-f]{40}$"}))`.
    pub fn graphql_scalar(
        &mut self,
        name: impl Into<String>,
        schema: serde_json::Value,
    ) -> &mut Self {
        self.options.graphql.scalars.insert(name.into(), schema);
        self
    }

    /// Names the API read as `read` (its file stem: `schema` for `schema.graphql`)
    /// `name` instead: its module, tool catalog entries and executor settings go by
    /// `name`.
    pub fn api_name(&mut self, read: impl Into<String>, name: impl Into<String>) -> &mut Self {
        self.options.names.insert(read.into(), name.into());
        self
    }

    /// Compares an adapter file with an OpenAPI document that describes the same API
    /// and reports where they disagree (operations, methods, paths, parameters, their
    /// types and required-ness) as warnings (TW140). The document is not an input. An
    /// adapter's companion `{name}-adapter-openapi.yaml` next to it is compared without
    /// asking.
    pub fn pair(&mut self, adapter: impl AsRef<Path>, openapi: impl AsRef<Path>) -> &mut Self {
        self.pairs
            .push((adapter.as_ref().to_owned(), openapi.as_ref().to_owned()));
        self
    }

    /// Adds any input: adapter files, OpenAPI or Google Discovery documents, or
    /// directories holding them.
    pub fn input(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.add(path, "input")
    }

    fn add(&mut self, path: impl AsRef<Path>, noun: &'static str) -> &mut Self {
        self.inputs.push((path.as_ref().to_owned(), noun));
        self
    }

    /// Where to write; defaults to `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_owned());
        self
    }

    /// Turns every warning into an error.
    pub fn strict(&mut self, strict: bool) -> &mut Self {
        self.strict = strict;
        self
    }

    /// Generates only the operations this selector matches (repeatable; a tool matching
    /// any include is kept): `tag:NAME`, `api:NAME`, `path:/prefix`, `op:GLOB`,
    /// `method:GET`, `group:read`, `read-only`, `destructive`; `,` for alternatives, `+`
    /// for all of several (`tag:issues+read-only`).
    pub fn include(&mut self, selector: impl Into<String>) -> &mut Self {
        self.include.push(selector.into());
        self
    }

    /// Generates every operation catalog-only (`true`): a tool and a descriptor in the
    /// data tables — listed, callable by name, arguments checked against its schema —
    /// but no Rust input/output types and no client method, so that a huge API compiles
    /// fast. With [`Config::typed`], only the operations it selects are typed.
    pub fn catalog_only(&mut self, on: bool) -> &mut Self {
        self.catalog_only = on;
        self
    }

    /// Types (and client methods) only for the operations this selector matches
    /// (repeatable); every other operation is catalog-only. `typed("tag:users")`.
    pub fn typed(&mut self, selector: impl Into<String>) -> &mut Self {
        self.typed.push(selector.into());
        self
    }

    /// Gives every generated type both `Serialize` and `Deserialize` (`true`). By
    /// default a type implements what the client does with it: operation inputs and
    /// what they contain are only serialized, outputs and error bodies only
    /// deserialized — about half the serde code, which is most of what a large client
    /// costs to compile. Turn it on to store or re-send responses, or to read inputs
    /// from JSON (input structs then refuse unknown properties, like the argument check).
    pub fn full_serde(&mut self, on: bool) -> &mut Self {
        self.full_serde = on;
        self
    }

    /// Puts the methods of tagged operations, and the types only they use, behind a
    /// cargo feature per tag (`true`): `<api>-<tag>` in kebab case (`github` and
    /// `pulls` → `github-pulls`; an operation with several tags is there when any is
    /// enabled). The crate compiles only the tags it enables; it declares them in its
    /// `Cargo.toml` (`[features] github-pulls = []`; an undeclared one is rustc's
    /// `unexpected_cfgs` warning, naming it). Untagged operations, shared types, the
    /// catalog and every descriptor are always there: any tool is still callable by
    /// name. The client's rustdoc lists the features.
    pub fn features_by_tag(&mut self, on: bool) -> &mut Self {
        self.features_by_tag = on;
        self
    }

    /// Whether the typed tools' catalog entries are embedded as data too (default
    /// `false`), as catalog-only tools always are: `TOOLS` is then empty and every
    /// tool is read from `toolwright_tools.json` at the first `catalog()` call, once.
    /// The compiler no longer evaluates and checks a static table of every tool (on
    /// GitHub's 1,223: about a ninth of the crate's `cargo check`); the program decodes
    /// them once instead (GitHub's: 22 ms and ~19 MB, `benches/check_time.md`). Typed
    /// methods and `apis_only()` are the same either way.
    pub fn embed_tools(&mut self, on: bool) -> &mut Self {
        self.embed_tools = on;
        self
    }

    /// Whether generated structs and data-carrying enums derive `Clone` (default
    /// `true`). Off, a client of thousands of types checks faster; a caller that keeps
    /// a response in two places then moves it or wraps it in an `Arc`. String enums
    /// are always `Copy`.
    pub fn derive_clone(&mut self, on: bool) -> &mut Self {
        self.derives.clone = on;
        self
    }

    /// Whether generated structs and data-carrying enums derive `PartialEq` (default
    /// `true`). It is the costlier of the two switches to compile (the derive compares
    /// every field); off, compare what you need field by field. String enums always
    /// derive `PartialEq, Eq, Hash`.
    pub fn derive_partial_eq(&mut self, on: bool) -> &mut Self {
        self.derives.partial_eq = on;
        self
    }

    /// Leaves out the operations this selector matches (after the includes).
    pub fn exclude(&mut self, selector: impl Into<String>) -> &mut Self {
        self.exclude.push(selector.into());
        self
    }

    /// Also writes the collection artifact ([`contract::artifact`]: the tool graph,
    /// contracts, readiness report, source manifest) as `file_name` in the output
    /// directory, e.g. `.artifact("toolwright-artifact.json")`.
    pub fn artifact(&mut self, file_name: impl Into<String>) -> &mut Self {
        self.artifact = Some(file_name.into());
        self
    }

    /// Also writes the inspection report ([`mod@report`]: one self-contained HTML page with
    /// every tool, its schemas, contract, findings and source lines, the data-flow
    /// graph and each source's fidelity matrix) as `file_name` in the output directory,
    /// e.g. `.report("toolwright-report.html")`. Inside a build script its path is
    /// handed to the crate as the `TOOLWRIGHT_REPORT` environment variable
    /// (`env!("TOOLWRIGHT_REPORT")`) and printed to the script's output (`cargo build
    /// -vv`), not as a warning. Provider exports are made by the runtime: `toolwright
    /// report` includes them, this one does not.
    pub fn report(&mut self, file_name: impl Into<String>) -> &mut Self {
        self.report = Some(file_name.into());
        self
    }

    /// Also writes the catalog as TypeScript declarations — one namespace per API, a
    /// function per tool with its arguments and result typed, shared types declared
    /// once — as `file_name` in the output directory, e.g.
    /// `.declarations("toolwright.d.ts")`: what a model that writes a script against
    /// the API reads instead of every tool's schema. The same text as
    /// `Catalog::typescript()` of the generated catalog and `toolwright catalog
    /// --format typescript`.
    pub fn declarations(&mut self, file_name: impl Into<String>) -> &mut Self {
        self.declarations = Some(file_name.into());
        self
    }

    /// Names of inputs the service fills itself (tenant, site): classified as
    /// `context` in contracts, not as data a model or user supplies.
    pub fn context_fields<I: IntoIterator<Item = S>, S: Into<String>>(
        &mut self,
        names: I,
    ) -> &mut Self {
        self.roles.context.extend(names.into_iter().map(Into::into));
        self
    }

    /// Names of inputs that are credentials although no security scheme says so:
    /// classified as `auth` in contracts.
    pub fn auth_fields<I: IntoIterator<Item = S>, S: Into<String>>(
        &mut self,
        names: I,
    ) -> &mut Self {
        self.roles.auth.extend(names.into_iter().map(Into::into));
        self
    }

    /// Names of inputs that page, beyond the usual ones (`page`, `limit`, `cursor`…).
    pub fn paging_fields<I: IntoIterator<Item = S>, S: Into<String>>(
        &mut self,
        names: I,
    ) -> &mut Self {
        self.roles.paging.extend(names.into_iter().map(Into::into));
        self
    }

    /// Names of inputs that filter a search, beyond the usual ones (`q`, `query`…).
    pub fn search_fields<I: IntoIterator<Item = S>, S: Into<String>>(
        &mut self,
        names: I,
    ) -> &mut Self {
        self.roles.search.extend(names.into_iter().map(Into::into));
        self
    }

    /// Emits each adapter's conformance cases (`{name}-adapter-tests.yaml` next to
    /// it) as `#[test]` functions in the generated code, so `cargo test` runs them
    /// offline against the generated catalog. A case naming an unknown tool or argument
    /// fails the build at its line whether or not this is on.
    pub fn tests(&mut self, on: bool) -> &mut Self {
        self.tests = on;
        self
    }

    /// Whether to print `cargo::` directives (warnings, errors, rerun-if-changed).
    /// Defaults to on when running inside a build script.
    pub fn cargo_directives(&mut self, on: bool) -> &mut Self {
        self.cargo_directives = Some(on);
        self
    }

    /// Reads every input, checks it, and writes the generated files (only those whose
    /// content changed). Returns the files written or kept.
    ///
    /// # Errors
    /// Any error finding (all of them, rendered), or an I/O failure.
    pub fn generate(&self) -> Result<Generated, Error> {
        let mut inputs = self.inputs.clone();
        let mut recorded = Vec::new();
        for (snapshot, program, args) in &self.mcp_servers {
            let timeout = self
                .mcp_timeout
                .unwrap_or(std::time::Duration::from_secs(30));
            match source::mcp::live::record(program, args, timeout) {
                Ok(value) => {
                    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
                    text.push('\n');
                    if std::fs::read(snapshot).ok().as_deref() != Some(text.as_bytes()) {
                        std::fs::write(snapshot, text).map_err(|source| Error::Io {
                            path: snapshot.clone(),
                            source,
                        })?;
                    }
                }
                Err(why) if snapshot.is_file() => recorded.push(
                    Diagnostic::warning(
                        diagnostics::codes::IO,
                        format!(
                            "MCP server `{program}` could not be recorded ({why}); its snapshot `{}` is used",
                            snapshot.display()
                        ),
                    )
                    .help("start the server by hand to see why, or keep building from the snapshot"),
                ),
                Err(why) => {
                    return Err(Error::Diagnostics(format!(
                        "error: MCP server `{program}` could not be recorded ({why}) and there is no snapshot at `{}` to build from",
                        snapshot.display()
                    )));
                }
            }
            inputs.push((snapshot.clone(), "MCP tools/list"));
        }
        let mut analysis = analyze_described(&inputs, &self.pairs, &self.options, self.strict);
        for mut d in recorded {
            if self.strict {
                d.severity = Severity::Error;
            }
            analysis.diagnostics.push(d);
        }
        self.generate_from(analysis)
    }

    /// [`Config::generate`] from inputs already read and checked with [`analyze`](crate::analyze) (the
    /// CLI shows their findings first, coloured): a large specification is not read
    /// twice. The configured inputs and strictness are not used again; the selection,
    /// typed operations and everything else are.
    ///
    /// # Errors
    /// As [`Config::generate`].
    pub fn generate_from(&self, mut analysis: Analysis) -> Result<Generated, Error> {
        let cargo = self.cargo_directives.unwrap_or_else(cargo::in_build_script);
        let to_error = |errors: Vec<toolwright_query::select::ParseError>| {
            Error::Selectors(errors.iter().map(ToString::to_string).collect())
        };
        let selection =
            toolwright_query::Selection::parse(&self.include, &self.exclude).map_err(to_error)?;
        let typed = if !self.typed.is_empty() {
            emit::Typed::Only(
                toolwright_query::Selection::parse(&self.typed, [""; 0]).map_err(to_error)?,
            )
        } else if self.catalog_only {
            emit::Typed::None
        } else {
            emit::Typed::All
        };
        select::apply(&mut analysis.apis, &selection);
        if cargo {
            cargo::announce(&analysis, self.inputs.iter().map(|(p, _)| p));
        }
        if analysis.has_errors() {
            if cargo {
                // Reported once, through cargo: `cargo::error` fails the build by
                // itself, and a build script that exits with an error would make
                // cargo print everything again under `--- stdout` and `--- stderr`.
                return Ok(Generated {
                    out_dir: self.out_dir.clone().unwrap_or_default(),
                    files: Vec::new(),
                    written: Vec::new(),
                    warnings: String::new(),
                    errors: analysis
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == Severity::Error)
                        .count(),
                });
            }
            return Err(Error::Diagnostics(analysis.render()));
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let options = emit::Options {
            typed,
            full_serde: self.full_serde,
            features_by_tag: self.features_by_tag,
            derives: self.derives,
            embed_tools: self.embed_tools,
        };
        let mut files = emit::generate_with(&analysis.apis, &options);
        if self.tests {
            if cargo && analysis.suites.is_empty() {
                // Asked for and none found: say so rather than leave `cargo test` to
                // report 0 tests as if they had passed.
                println!(
                    "cargo::warning=tests(true): no adapter has a `{{name}}-adapter-tests.yaml` beside it, so no conformance tests were generated (docs/adapters.md says how to write them)"
                );
            }
            let tests = emit::tests::module(&analysis.suites, &analysis.apis);
            if let Some(entry) = files.get_mut(ENTRY_FILE) {
                entry.extend_from_slice(tests.as_bytes());
            }
        }
        if let Some(name) = &self.artifact {
            let options = contract::artifact::Options {
                roles: self.roles.clone(),
                previous: None,
            };
            let artifact = contract::artifact::build(&analysis.apis, &options);
            let mut text = serde_json::to_string_pretty(&artifact).unwrap_or_default();
            text.push('\n');
            files.insert(name.clone(), text.into_bytes());
        }
        if let Some(name) = &self.declarations {
            let text = emit::declarations::render(&analysis.apis);
            files.insert(name.clone(), text.into_bytes());
        }
        if let Some(name) = &self.report {
            let options = report::Options {
                roles: self.roles.clone(),
                ..report::Options::default()
            };
            // Written whole, or an error: the details are read back from a temporary
            // file, which can fail.
            let mut page = Vec::new();
            report::write(
                &analysis.apis,
                &analysis.diagnostics,
                &options,
                None,
                &mut page,
            )
            .map_err(|source| Error::Io {
                path: out_dir.join(name),
                source,
            })?;
            files.insert(name.clone(), page);
        }
        let written = output::write_all(&out_dir, &files)?;
        if let (true, Some(name)) = (cargo, &self.report) {
            cargo::report_written(&out_dir.join(name));
        }
        let warnings = analysis.render();
        let names = files.keys().cloned().collect();
        crate::memory::drop_later((analysis.apis, files));
        Ok(Generated {
            out_dir,
            files: names,
            written,
            warnings,
            errors: 0,
        })
    }
}
