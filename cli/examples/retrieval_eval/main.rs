//! The retrieval scorer behind `benches/retrieval.sh`: for each labelled query
//! (`benches/retrieval/queries.tsv`), where its expected tool ranks in its catalog, under
//! plain BM25, each technique added in turn, the default, and the default without each
//! technique. Prints R@1, R@5 and MRR@10 per catalog and overall, then the search latency
//! over the largest catalog.
//!
//! Usage: `retrieval_eval ROOT QUERIES CATALOGS [--misses] [--dump OUT] [--request-language CODE]
//! [--texts OUT | --dense VECTORS]` (catalog paths are relative to ROOT, the checkout; a
//! catalog's optional third column names a file of `x-toolwright-aliases` inserted into
//! its document before generating, so that the scores are what a user writing that data
//! gets). `--request-language de` reads the requests as German over the catalogs'
//! English (`Index::search_in`; `toolwright-query`'s feature `languages`). `--texts` writes the texts a
//! dense model must embed and stops; `--dense` adds the fusion rows from those texts'
//! vectors (see `benches/retrieval_fusion.sh`). `--dump` writes each row's top 20 tool
//! names per query (`label<TAB>catalog<TAB>query<TAB>name,name,...`), so that two builds'
//! rankings can be compared byte for byte with `cmp`.
//!
//! Environment: `PASSES=N` repeats the latency loop N times instead of 50, for
//! profiling; `ONLY=PREFIX` scores only the rows whose label starts with PREFIX
//! (`ONLY=LABEL$`: that row alone) and skips the latency, for quick comparisons
//! (`ONLY=latency`: no rows, the latency alone); `PREC=1` prints four decimals, so
//! that one query's move shows; `MISSES=LABEL` makes `--misses` list that row's misses
//! instead of the default's, and `MISS_AT=N` counts a rank past N as a miss (5 unless
//! told).

mod aliases;
mod dense;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use toolwright::query::{Index, Techniques};

type Row = (String, Techniques);
/// Each catalog's ranks of the expected tools (0-based; `None`: not in the top 20).
type Ranks<'a> = BTreeMap<&'a str, Vec<Option<usize>>>;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, queries, catalogs, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: retrieval_eval ROOT QUERIES CATALOGS [--misses] [--dump OUT] [--request-language CODE] [--texts OUT | --dense VECTORS]"
                .into(),
        );
    };
    let show_misses = rest.iter().any(|a| a == "--misses");
    let option = |name: &str| {
        rest.iter()
            .position(|a| a == name)
            .and_then(|i| rest.get(i + 1))
            .map(Path::new)
    };
    let root = Path::new(root);
    let request_language = match option("--request-language") {
        Some(code) => {
            let code = code.to_string_lossy();
            Some(
                toolwright_query::search::language::by_code(&code)
                    .ok_or_else(|| format!("no language `{code}` in this build"))?,
            )
        }
        None => None,
    };
    let queries = read_tsv(Path::new(queries))?;
    let catalogs = read_tsv(Path::new(catalogs))?;
    let work = std::env::temp_dir().join(format!("toolwright-retrieval-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;

    let mut loaded = BTreeMap::new();
    // Only the catalogs the queries ask about.
    for row in catalogs
        .iter()
        .filter(|row| queries.iter().any(|q| q[0] == row[0]))
    {
        let (key, file) = (&row[0], root.join(&row[1]));
        let mut path = plain_file(&file, &work)?;
        if let Some(aliases) = row.get(2) {
            path = aliases::insert(&path, &root.join(aliases), &work)?;
        }
        let analysis = toolwright_codegen::analyze(&[path], false);
        if analysis.has_errors() {
            return Err(format!("{}: {}", file.display(), analysis.render()));
        }
        let catalog = toolwright_cli::interpret::catalog(&analysis.apis)?;
        loaded.insert(key.clone(), catalog);
    }
    let _ = std::fs::remove_dir_all(&work);
    if let Some(out) = option("--texts") {
        return dense::texts(&loaded, &queries, out);
    }

    let mut rows: Vec<Row> = Vec::new();
    let steps = [
        ("+ fields", Techniques::FIELDS),
        ("+ identifier splitting", Techniques::SPLIT),
        ("+ stemming", Techniques::STEM),
        ("+ lexicon (query)", Techniques::LEXICON),
        ("+ implied verbs", Techniques::VERBS),
        ("+ path nouns", Techniques::PATH),
        ("+ coverage", Techniques::COVERAGE),
        ("+ damped idf", Techniques::DAMP_IDF),
        ("+ values", Techniques::VALUES),
        ("+ enum values", Techniques::ENUMS),
        ("+ initials", Techniques::INITIALS),
        ("+ questions read", Techniques::QUESTIONS),
        ("+ REST shape", Techniques::REST),
        ("+ update flags", Techniques::FLAGS),
        ("+ id abbreviations", Techniques::ABBREVIATIONS),
        ("+ acronyms", Techniques::ACRONYMS),
        ("+ read agreement", Techniques::AGREEMENT),
        ("+ name coverage", Techniques::NAMES),
        ("+ spelling", Techniques::SPELLING),
        ("+ parameter values", Techniques::PARAMS),
        ("+ result descriptions", Techniques::RESULT),
        ("+ deprecation", Techniques::DEPRECATED),
        ("+ times", Techniques::TIMES),
        ("+ derivation", Techniques::DERIVATION),
    ];
    rows.push(("plain BM25".into(), Techniques::PLAIN));
    let mut acc = Techniques::PLAIN;
    for (label, t) in steps {
        acc = acc.with(t);
        rows.push((label.into(), acc));
    }
    rows.push(("+ document expansion".into(), acc.with(Techniques::EXPAND)));
    rows.push(("+ graph neighbours".into(), acc.with(Techniques::GRAPH)));
    rows.push((
        "+ expansion + graph".into(),
        acc.with(Techniques::EXPAND).with(Techniques::GRAPH),
    ));
    rows.push(("default".into(), Techniques::DEFAULT));
    for (label, t) in steps {
        let name = label.trim_start_matches("+ ");
        if Techniques::DEFAULT.has(t) {
            rows.push((format!("default - {name}"), Techniques::DEFAULT.without(t)));
        } else {
            rows.push((format!("default + {name}"), Techniques::DEFAULT.with(t)));
        }
    }

    if let Ok(only) = std::env::var("ONLY") {
        rows.retain(|(l, _)| {
            if let Some(e) = only.strip_suffix('$') {
                l == e
            } else {
                l.starts_with(&only)
            }
        });
    }
    let keys: Vec<&String> = loaded.keys().collect();
    print!("{:<30}", "techniques");
    for key in &keys {
        print!(" {key:>27}");
    }
    println!(" {:>27}", "all");
    print!("{:<30}", "");
    for _ in 0..=keys.len() {
        print!(" {:>27}", "R@1  R@5 R@10 R@20  MRR");
    }
    println!();
    let mut misses = Vec::new();
    let mut dump = String::new();
    // Whose misses `--misses` lists: the default's, or the row `MISSES=LABEL` names.
    let missed_row = std::env::var("MISSES").unwrap_or_else(|_| "default".to_owned());
    // A miss is a rank past this (`MISS_AT=1`: anything not first).
    let miss_at: usize = std::env::var("MISS_AT")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    for (label, techniques) in &rows {
        let indexes: BTreeMap<&String, Vec<u8>> = loaded
            .iter()
            .map(|(k, c)| (k, toolwright::catalog::search::build(c, *techniques)))
            .collect();
        let mut per: Ranks = BTreeMap::new();
        for q in &queries {
            let (key, query, expected) = (&q[0], &q[1], &q[2]);
            let Some(catalog) = loaded.get(key) else {
                return Err(format!("query for unknown catalog `{key}`"));
            };
            let index = Index::new(&indexes[key]).map_err(|e| e.to_string())?;
            let hits = match request_language {
                Some(language) => index.search_in(query, 20, language),
                None => index.search(query, 20),
            };
            let expected: Vec<&str> = expected.split(',').collect();
            let rank = hits
                .iter()
                .position(|h| expected.contains(&catalog.tools()[h.doc].name.as_ref()));
            let names: Vec<&str> = hits
                .iter()
                .map(|h| catalog.tools()[h.doc].name.as_ref())
                .collect();
            dump.push_str(&format!("{label}\t{key}\t{query}\t{}\n", names.join(",")));
            if show_misses && *label == missed_row && rank.is_none_or(|r| r >= miss_at) {
                let top: Vec<&str> = hits
                    .iter()
                    .take(3)
                    .map(|h| catalog.tools()[h.doc].name.as_ref())
                    .collect();
                let at = rank.map_or("-".to_owned(), |r| (r + 1).to_string());
                misses.push(format!(
                    "{key}\t{query}\t{}\t@{at} → {}",
                    expected.join(","),
                    top.join(", ")
                ));
            }
            per.entry(key.as_str()).or_default().push(rank);
        }
        print_row(label, &keys, &per);
    }
    for m in &misses {
        println!("miss: {m}");
    }
    if let Some(out) = option("--dump") {
        std::fs::write(out, dump).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    if let Some(vectors) = option("--dense") {
        fusion(&loaded, &queries, &keys, &dense::Vectors::read(vectors)?)?;
    }
    // `ONLY=latency` matches no row: the latency alone, for profiling a search.
    if std::env::var("ONLY").map_or(true, |only| only == "latency") {
        latency(&loaded, &queries);
    }
    Ok(())
}

/// The default ranking, the sentence model's alone, and both fused by
/// [`toolwright::Catalog::search_fused`], on the same queries.
fn fusion(
    loaded: &BTreeMap<String, toolwright::Catalog>,
    queries: &[Vec<String>],
    keys: &[&String],
    vectors: &dense::Vectors,
) -> Result<(), String> {
    let indexes: BTreeMap<&String, _> = loaded.iter().map(|(k, c)| (k, vectors.index(c))).collect();
    let mut rows: [(&str, Ranks); 3] = [
        ("default (no model)", BTreeMap::new()),
        ("MiniLM-L6 alone (cosine)", BTreeMap::new()),
        ("default + MiniLM-L6 (RRF)", BTreeMap::new()),
    ];
    for q in queries {
        let (key, query) = (q[0].as_str(), q[1].as_str());
        let expected: Vec<&str> = q[2].split(',').collect();
        let catalog = &loaded[key];
        let (dense_index, tool_vectors) = &indexes[&q[0]];
        let rank_of = |hits: Vec<toolwright::catalog::SearchHit<'_>>| {
            hits.iter()
                .position(|h| expected.contains(&h.tool.name.as_ref()))
        };
        let ranks = [
            rank_of(catalog.search(query, 10)),
            vectors.dense_rank(catalog, tool_vectors, query, &expected),
            rank_of(catalog.search_fused(query, 10, vectors, dense_index)),
        ];
        for ((_, per), rank) in rows.iter_mut().zip(ranks) {
            per.entry(key).or_default().push(rank);
        }
    }
    let missing = *vectors.missing.borrow();
    if missing > 0 {
        return Err(format!(
            "{missing} texts have no vector: run `retrieval_eval … --texts` and embed.py again"
        ));
    }
    println!("fusion with a local sentence model (all-MiniLM-L6-v2, benches/retrieval/embed.py):");
    for (label, per) in &rows {
        print_row(label, keys, per);
    }
    Ok(())
}

/// One table row: each catalog's scores, then all queries'.
fn print_row(label: &str, keys: &[&String], per: &Ranks) {
    print!("{label:<30}");
    let mut all = Vec::new();
    for key in keys {
        let ranks = per.get(key.as_str()).cloned().unwrap_or_default();
        print!(" {}", scores(&ranks));
        all.extend(ranks);
    }
    println!(" {}", scores(&all));
}

/// `R@1 R@5 R@10 R@20 MRR@10` of ranks (0-based; `None`: not in the top 20).
fn scores(ranks: &[Option<usize>]) -> String {
    let n = ranks.len().max(1) as f64;
    let at = |k: usize| ranks.iter().filter(|r| r.is_some_and(|r| r < k)).count() as f64 / n;
    // MRR stays at 10: a rank past 10 counts as a miss, as before R@20 was added.
    let mrr = ranks
        .iter()
        .map(|r| {
            r.filter(|&r| r < 10)
                .map_or(0.0, |r| 1.0 / (r as f64 + 1.0))
        })
        .sum::<f64>()
        / n;
    if std::env::var_os("PREC").is_some() {
        return format!(
            "{:.4} {:.4} {:.4} {:.4} {:.4}",
            at(1),
            at(5),
            at(10),
            at(20),
            mrr
        );
    }
    format!(
        "{:.2} {:.2} {:.2} {:.2} {:.2}",
        at(1),
        at(5),
        at(10),
        at(20),
        mrr
    )
}

/// p50 and p99 of `Catalog::search` per query (k = 5), over the largest catalog.
fn latency(loaded: &BTreeMap<String, toolwright::Catalog>, queries: &[Vec<String>]) {
    let Some((key, catalog)) = loaded.iter().max_by_key(|(_, c)| c.tools().len()) else {
        return;
    };
    let own: Vec<&str> = queries
        .iter()
        .filter(|q| &q[0] == key)
        .map(|q| q[1].as_str())
        .collect();
    let _ = catalog.search("warm up", 5);
    let mut times = Vec::new();
    let passes: usize = std::env::var("PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    for _ in 0..passes {
        for q in &own {
            let start = Instant::now();
            std::hint::black_box(catalog.search(q, 5));
            times.push(start.elapsed().as_nanos());
        }
    }
    times.sort_unstable();
    let pick = |p: f64| times[((times.len() - 1) as f64 * p) as usize] as f64 / 1000.0;
    println!(
        "search latency over `{key}` ({} tools, {} queries x {passes}): p50 {:.1} µs, p99 {:.1} µs",
        catalog.tools().len(),
        own.len(),
        pick(0.5),
        pick(0.99)
    );
    let names: Vec<String> = catalog.tools().iter().map(|t| t.name.to_string()).collect();
    let rounds = 200;
    let start = Instant::now();
    for _ in 0..rounds {
        for name in &names {
            std::hint::black_box(catalog.get(std::hint::black_box(name)));
        }
    }
    let per = start.elapsed().as_nanos() as f64 / (rounds * names.len()) as f64;
    println!(
        "lookup by name over `{key}`: {per:.1} ns per lookup (mean of {} lookups)",
        rounds * names.len()
    );
    let start = Instant::now();
    let index = toolwright::catalog::search::build(catalog, Techniques::DEFAULT);
    println!(
        "index over `{key}`: {} bytes ({} terms), built from the catalog in {:.0} ms",
        index.len(),
        Index::new(&index).map_or(0, |i| i.terms()),
        start.elapsed().as_secs_f64() * 1000.0
    );
}

fn read_tsv(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_owned).collect::<Vec<_>>())
        .filter(|cols| cols.len() >= 2)
        .collect())
}

/// The document itself, or its gunzipped copy in `work`.
fn plain_file(file: &Path, work: &Path) -> Result<PathBuf, String> {
    let Some(stem) = file
        .to_str()
        .and_then(|f| f.strip_suffix(".gz"))
        .and_then(|f| Path::new(f).file_name())
    else {
        return Ok(file.to_owned());
    };
    let out = work.join(stem);
    let data = std::process::Command::new("gzip")
        .arg("-dc")
        .arg(file)
        .output()
        .map_err(|e| format!("gzip: {e}"))?;
    if !data.status.success() {
        return Err(format!("gzip -dc {} failed", file.display()));
    }
    std::fs::write(&out, data.stdout).map_err(|e| e.to_string())?;
    Ok(out)
}
