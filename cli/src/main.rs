//! `toolwright`: check adapters, print their catalog, generate code, or make one call.

use toolwright_cli::interpret;

use std::path::PathBuf;
use std::process::ExitCode;

use toolwright_codegen::{Analysis, Config};

const USAGE: &str = "\
usage:
  toolwright check [--strict] INPUT...
  toolwright catalog [--strict] INPUT...
  toolwright generate [--strict] INPUT... --out DIR
  toolwright call INPUT... --tool NAME [--args JSON] [--base-url API=URL]

INPUT is an adapter file (*-adapter.md) or a directory searched for them.
Credentials are read from the environment variables the adapters name.";

/// Parsed command line.
#[derive(Default)]
struct Args {
    inputs: Vec<PathBuf>,
    strict: bool,
    out: Option<PathBuf>,
    tool: Option<String>,
    args: Option<String>,
    base_urls: Vec<(String, String)>,
}

fn parse(mut rest: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args::default();
    while let Some(arg) = rest.next() {
        let mut value = |flag: &str| rest.next().ok_or_else(|| format!("`{flag}` needs a value"));
        match arg.as_str() {
            "--strict" => a.strict = true,
            "--out" => a.out = Some(value("--out")?.into()),
            "--tool" => a.tool = Some(value("--tool")?),
            "--args" => a.args = Some(value("--args")?),
            "--base-url" => {
                let v = value("--base-url")?;
                let (api, url) = v.split_once('=').ok_or("`--base-url` takes API=URL")?;
                a.base_urls.push((api.to_owned(), url.to_owned()));
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            input => a.inputs.push(input.into()),
        }
    }
    if a.inputs.is_empty() {
        return Err("no INPUT given".into());
    }
    Ok(a)
}

fn main() -> ExitCode {
    let mut argv = std::env::args().skip(1);
    let command = argv.next().unwrap_or_default();
    let args = match parse(argv) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}\n");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match command.as_str() {
        "check" => check(&args),
        "catalog" => catalog(&args),
        "generate" => generate(&args),
        "call" => call(&args),
        _ => {
            eprintln!("error: unknown command `{command}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Analyzes the inputs and prints findings; `None` when there are errors.
fn analyze(args: &Args) -> Option<Analysis> {
    let analysis = toolwright_codegen::analyze(&args.inputs, args.strict);
    if !analysis.diagnostics.is_empty() {
        eprintln!("{}", analysis.render());
    }
    (!analysis.has_errors()).then_some(analysis)
}

fn check(args: &Args) -> ExitCode {
    match analyze(args) {
        Some(a) => {
            let ops: usize = a.apis.iter().map(|api| api.operations.len()).sum();
            eprintln!("ok: {} API(s), {ops} operation(s)", a.apis.len());
            ExitCode::SUCCESS
        }
        None => ExitCode::FAILURE,
    }
}

fn catalog(args: &Args) -> ExitCode {
    let Some(analysis) = analyze(args) else {
        return ExitCode::FAILURE;
    };
    match interpret::catalog(&analysis.apis) {
        Ok(c) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&c.to_tools_list()).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate(args: &Args) -> ExitCode {
    let Some(out) = &args.out else {
        eprintln!("error: `generate` needs `--out DIR`\n\n{USAGE}");
        return ExitCode::from(2);
    };
    let mut config = Config::new();
    for input in &args.inputs {
        config.adapters(input);
    }
    match config
        .strict(args.strict)
        .out_dir(out)
        .cargo_directives(false)
        .generate()
    {
        Ok(g) => {
            if !g.warnings.is_empty() {
                eprintln!("{}", g.warnings);
            }
            eprintln!(
                "wrote {} of {} file(s) to {}; include `{}`",
                g.written.len(),
                g.files.len(),
                g.out_dir.display(),
                g.out_dir.join(toolwright_codegen::ENTRY_FILE).display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn call(args: &Args) -> ExitCode {
    let Some(tool) = &args.tool else {
        eprintln!("error: `call` needs `--tool NAME`\n\n{USAGE}");
        return ExitCode::from(2);
    };
    // Repeated keys are refused: a check and the server could read different values.
    let json = match args
        .args
        .as_deref()
        .map(toolwright::validate::parse_arguments)
        .transpose()
    {
        Ok(v) => v.unwrap_or(serde_json::Value::Null),
        Err(e) => {
            eprintln!("error: `--args`: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(analysis) = analyze(args) else {
        return ExitCode::FAILURE;
    };
    let result = interpret::catalog(&analysis.apis)
        .map_err(|e| e.to_string())
        .and_then(|catalog| {
            let mut builder = toolwright::Executor::builder(catalog);
            for (api, url) in &args.base_urls {
                builder = builder.base_url(api, url);
            }
            let executor = builder.build().map_err(|e| e.to_string())?;
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            runtime
                .block_on(executor.call(tool, json))
                .map_err(|e| e.to_string())
        });
    match result {
        Ok(value) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
