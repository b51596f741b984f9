# Shared by the compile-time benches (`source benches/lib.sh`): a user's crate around
# generated code, and the non-incremental `cargo check` timing every bench reports.

# median VALUE...: the middle value (the lower middle of an even count).
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

# generator CHECKOUT: sets BIN to the toolwright binary to measure — TOOLWRIGHT_BIN when
# set, otherwise CHECKOUT's release build (built now).
generator() {
  BIN=${TOOLWRIGHT_BIN:-}
  if [ -z "$BIN" ]; then
    (cd "$1" && cargo build -q --release -p toolwright-cli)
    BIN=$1/target/release/toolwright
  fi
}

# user_crate DIR NAME RUNTIME [DEPENDENCY_LINES]: a crate depending on the runtime at
# RUNTIME (no default features) and on what DEPENDENCY_LINES add, its own workspace;
# the caller writes src/.
user_crate() {
  mkdir -p "$1/src"
  cat > "$1/Cargo.toml" <<TOML
[package]
name = "$2"
version = "0.1.0"
edition = "2024"
[dependencies]
toolwright = { path = "$3", default-features = false }
${4:-}
[workspace]
TOML
}

# time_check DIR PACKAGE RUNS: RUNS times, the package cleaned and checked again
# non-incrementally (the caller exports CARGO_INCREMENTAL=0 and has built the
# dependencies). Sets CHECK_TIMES (seconds per run) and CHECK_PEAK_MB (the largest max
# RSS of cargo and rustc).
time_check() {
  CHECK_TIMES=()
  CHECK_PEAK_MB=0
  local rss_file start rss
  rss_file=$(mktemp)
  for _ in $(seq "$3"); do
    (cd "$1" && cargo clean -q -p "$2")
    start=$(date +%s.%N)
    (cd "$1" && /usr/bin/time -f '%M' -o "$rss_file" cargo check -q)
    CHECK_TIMES+=("$(echo "$(date +%s.%N) - $start" | bc)")
    rss=$(( $(tail -1 "$rss_file") / 1024 ))
    (( rss > CHECK_PEAK_MB )) && CHECK_PEAK_MB=$rss
  done
  rm -f "$rss_file"
}
