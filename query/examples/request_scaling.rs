//! How the time to read a search request grows with its distinct words (run by
//! `benches/search_request.sh`, release build): an index of 1,200 synthetic tools
//! (verbs × nouns × qualifiers, the shape of a large REST catalog), then requests of
//! N distinct words for doubling N, each read whole (`Index::read_unbounded`, past the
//! 4 KiB cap `search` applies). Prints the median of `RUNS` (default 3) per N and the
//! ratio to the N before it: about 2 when the reading is linear, 4 when quadratic.
//!
//! usage: request_scaling [MAX_WORDS]   (default 40000)

use std::time::{Duration, Instant};

use toolwright_query::{Document, Index, IndexBuilder, Techniques};

const VERBS: [&str; 8] = [
    "list", "get", "create", "update", "delete", "close", "merge", "archive",
];
const NOUNS: [&str; 30] = [
    "issue",
    "repository",
    "pull",
    "comment",
    "label",
    "milestone",
    "team",
    "member",
    "project",
    "branch",
    "commit",
    "release",
    "asset",
    "hook",
    "key",
    "secret",
    "runner",
    "workflow",
    "job",
    "artifact",
    "package",
    "invitation",
    "gist",
    "deployment",
    "status",
    "check",
    "review",
    "reaction",
    "discussion",
    "codespace",
];
const QUALIFIERS: [&str; 5] = ["", "org", "user", "repo", "enterprise"];

fn index() -> Vec<u8> {
    let mut builder = IndexBuilder::new(Techniques::DEFAULT);
    for verb in VERBS {
        for noun in NOUNS {
            for qualifier in QUALIFIERS {
                let name = if qualifier.is_empty() {
                    format!("{noun}s_{verb}")
                } else {
                    format!("{noun}s_{verb}_for_{qualifier}")
                };
                builder.add(&Document {
                    title: format!("{verb} a {noun} {qualifier}"),
                    summary: format!("{verb} the {noun} of a {qualifier} by its id"),
                    method: if verb == "list" || verb == "get" {
                        "GET"
                    } else {
                        "POST"
                    }
                    .into(),
                    path: format!("/{qualifier}/{{owner}}/{noun}s"),
                    group: verb.into(),
                    name,
                    ..Document::default()
                });
            }
        }
    }
    builder.build()
}

/// `n` distinct words: catalog words, lexicon words and unknown ones, each made
/// distinct by a number (the report's requests: `close1 close2 ...`), with a few
/// plain words among them.
fn request(n: usize) -> String {
    let mut out = String::from("close the open issue ");
    for i in 0..n {
        let stem = match i % 4 {
            0 => NOUNS[i % NOUNS.len()],
            1 => VERBS[i % VERBS.len()],
            2 => "make",
            _ => "zq",
        };
        out.push_str(&format!("{stem}{i} "));
        if i % 50 == 0 {
            out.push_str("and please make a new one ");
        }
    }
    out
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40_000);
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let bytes = index();
    let index = Index::new(&bytes).expect("the index reads back");
    println!("words\tbytes\tslots\tmedian_ms\tratio");
    let mut n = 1250;
    let mut before: Option<Duration> = None;
    while n <= max {
        let text = request(n);
        let mut times = Vec::new();
        let mut slots = 0;
        for _ in 0..runs {
            let started = Instant::now();
            slots = std::hint::black_box(index.read_unbounded(&text));
            times.push(started.elapsed());
        }
        let took = median(times);
        let ratio = before.map_or(String::from("-"), |b| {
            format!("{:.2}", took.as_secs_f64() / b.as_secs_f64())
        });
        println!(
            "{n}\t{}\t{slots}\t{:.1}\t{ratio}",
            text.len(),
            took.as_secs_f64() * 1000.0
        );
        before = Some(took);
        n *= 2;
    }
}
