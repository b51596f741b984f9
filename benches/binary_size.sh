#!/usr/bin/env bash
# What the tool catalog adds to a service's binary: GitHub's generated code (1,223
# operations) in a program that makes three typed calls through the default (reqwest)
# transport, built in release (stripped) twice — with `catalog()`, the tools, their
# schemas and the search index linked in, and with `apis_only()`, which references
# none of them — and beside it the same program without any generated code, what
# the runtime alone costs. Prints each binary's size and the catalog's share.
#
# Usage: benches/binary_size.sh
# TOOLWRIGHT_BIN=path uses that generator binary instead of building this checkout's.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generator "$root"
bin=$BIN
gunzip -c tests/data/corpus/big/github.com_api.github.com.json.gz > "$work/github.json"
"$bin" generate "$work/github.json" --out "$work/generated" > /dev/null 2>&1
export CARGO_TARGET_DIR="$work/target"

# program NAME CATALOG: a binary crate whose executor is built over CATALOG
# (`catalog()`, `apis_only()`, or `none` for no generated code at all).
program() {
  local dir="$work/$1"
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.1.0"
edition = "2024"
[dependencies]
toolwright = { path = "$root/runtime" }
tokio = { version = "1", features = ["rt", "macros"] }
[profile.release]
strip = true
[workspace]
TOML
  if [ "$2" = none ]; then
    cat > "$dir/src/main.rs" <<'RUST'
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let catalog = toolwright::Catalog::from_tools(Vec::new(), Vec::new()).unwrap();
    let executor = toolwright::Executor::builder(catalog).build().unwrap();
    let answer = executor.call("issues_get", Default::default()).await;
    println!("{}", answer.is_ok());
}
RUST
    return
  fi
  cat > "$dir/src/main.rs" <<RUST
include!("$work/generated/toolwright.rs");

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let executor = toolwright::Executor::builder($2).build().unwrap();
    let client = github::Client::new(executor);
    let input = github::IssuesGetInput::new("octo-org".into(), "widgets".into(), 42);
    let issue = client.issues_get(&input).await;
    let mut listing = github::IssuesListForRepoInput::new("octo-org".into(), "widgets".into());
    listing.state = Some(github::IssuesListInputState::Open);
    let issues = client.issues_list_for_repo(&listing).await;
    let user = client.users_get_authenticated(&Default::default()).await;
    println!("{} {} {}", issue.is_ok(), issues.is_ok(), user.is_ok());
}
RUST
}

program runtime-only none
program with-catalog 'catalog()'
program apis-only 'apis_only()'
printf '%-14s %12s\n' binary bytes
for name in runtime-only with-catalog apis-only; do
  (cd "$work/$name" && cargo build -q --release)
  size=$(stat -c %s "$CARGO_TARGET_DIR/release/$name")
  printf '%-14s %12s\n' "$name" "$size"
  declare "size_${name//-/_}=$size"
done
echo "catalog share of the binary with catalog(): $(echo "scale=3; ($size_with_catalog - $size_apis_only) / $size_with_catalog" | bc)"
echo "generated typed code (apis_only) over the runtime alone: $(( size_apis_only - size_runtime_only )) bytes"
