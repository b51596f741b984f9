//! `toolwright`: the command line parsed ([`args`]), the command run ([`command`], one
//! module each: check, test, catalog, artifact, report, search, generate, serve,
//! call, mcp-snapshot) and its exit code returned. Command-line parsing is clap's
//! (help, version, per-command help, colour choice, did-you-mean for misspelt options:
//! what Rust users expect of a CLI).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Color, Command, Inputs};
use command::{
    artifact, call, catalog, check, generate, mcp_snapshot, report, search, serve, test,
};

mod args;
mod command;
mod findings;
mod memory;
mod output;
mod overview;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let styled = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    };
    match cli.command {
        Command::Check { inputs, format } => check::run(&inputs, format, styled),
        Command::Test { inputs } => test::run(&inputs, styled),
        Command::Search {
            query,
            inputs,
            k,
            json,
            compact,
            typescript,
        } => search::run(&inputs, &query, k, (json, compact, typescript), styled),
        Command::Catalog {
            inputs,
            export,
            json,
        } => catalog::run(&inputs, &export, json, styled),
        Command::Generate { inputs, out, types } => generate::run(&inputs, &out, &types, styled),
        Command::Artifact {
            paths,
            strict,
            out,
            previous,
            context_fields,
            auth_fields,
            paging_fields,
            search_fields,
            schema,
            select,
        } => {
            if schema {
                println!(
                    "{}",
                    toolwright_codegen::contract::artifact::SCHEMA.trim_end()
                );
                return ExitCode::SUCCESS;
            }
            let roles = toolwright_codegen::contract::FieldRoles {
                context: context_fields,
                auth: auth_fields,
                paging: paging_fields,
                search: search_fields,
            };
            let inputs = Inputs {
                paths,
                strict,
                api_names: Vec::new(),
                graphql_endpoints: Vec::new(),
                select,
            };
            let out = out.unwrap_or_else(|| PathBuf::from("-"));
            artifact::run(&inputs, &out, previous.as_deref(), roles, styled)
        }
        Command::Report {
            inputs,
            out,
            title,
            no_exports,
        } => report::run(&inputs, &out, title, !no_exports, styled),
        Command::McpSnapshot {
            out,
            timeout,
            command,
        } => mcp_snapshot::run(&out, timeout, &command),
        Command::Call {
            inputs,
            tool,
            args,
            pages,
            upstream,
        } => call::run(&inputs, &tool, args.as_deref(), pages, &upstream, styled),
        Command::Serve {
            inputs,
            upstream,
            http,
            options,
        } => serve::run(&inputs, &upstream, &options, http, styled),
    }
}
