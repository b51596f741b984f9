//! `toolwright generate`: exactly what build.rs writes.

use std::process::ExitCode;

use toolwright_codegen::Config;

use super::analyze;
use crate::args::{Inputs, TypeOptions};

pub(crate) fn run(
    inputs: &Inputs,
    out: &std::path::Path,
    types: &TypeOptions,
    styled: bool,
) -> ExitCode {
    // Read and checked once: the findings are shown here (coloured), and generation
    // goes on from the same analysis.
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let mut config = Config::new();
    for input in &inputs.paths {
        config.input(input);
    }
    for selector in &inputs.select.include {
        config.include(selector);
    }
    for selector in &inputs.select.exclude {
        config.exclude(selector);
    }
    for selector in &types.typed {
        config.typed(selector);
    }
    config
        .catalog_only(types.catalog_only)
        .full_serde(types.full_serde)
        .features_by_tag(types.features_by_tag)
        .derive_clone(!types.no_derive_clone)
        .derive_partial_eq(!types.no_derive_partial_eq)
        .embed_tools(types.embed_tools);
    match config
        .strict(inputs.strict)
        .out_dir(out)
        .cargo_directives(false)
        .generate_from(analysis)
    {
        Ok(g) => {
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
