//! Tool retrieval: a BM25F index over each tool's texts, built once (by the generator, at
//! build time) into a flat byte table that queries read in place — no parsing, no
//! allocation beyond one score per tool.
//!
//! What goes in a tool's document ([`Document`]), and how, is a set of [`Techniques`]
//! recorded in the index, so that a query is analysed exactly as the documents were.
//! [`Techniques::DEFAULT`] is what measurably helped on held-out requests
//! (`benches/retrieval/README.md` keeps the measurements).

mod abbreviation;
mod document;
mod format;
mod grammar;
mod intent;
pub mod language;
mod reading;
mod tally;
pub mod text;
pub mod values;
mod weigh;
mod weights;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

use intent::Intent;
use language::Verb;
use reading::Reading;

pub use document::{Document, ToolTexts, contract_links};
pub use format::{FormatError, Index};
pub use language::{ENGLISH, Language};
use tally::Scoring;
pub use weigh::{Analyser, Weighed};

/// What the index does with a document and a query; a bit set stored in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Techniques(pub u32);

impl Techniques {
    /// Name, title and description in one field, words split at non-alphanumerics,
    /// stop words dropped: textbook BM25.
    pub const PLAIN: Techniques = Techniques(0);
    /// Fields weighted apart (name, summary, description, parameters, tags, path).
    pub const FIELDS: Techniques = Techniques(1);
    /// `camelCase`, `snake_case` and digits split into words.
    pub const SPLIT: Techniques = Techniques(1 << 1);
    /// Inflections reduced to one stem.
    pub const STEM: Techniques = Techniques(1 << 2);
    /// Query words also look for their lexicon synonyms.
    pub const LEXICON: Techniques = Techniques(1 << 3);
    /// The verb the method and CRUDE group imply (`GET /x/{id}` → get, `POST` → create).
    pub const VERBS: Techniques = Techniques(1 << 4);
    /// Resource nouns from the path, the last ones weighted most.
    pub const PATH: Techniques = Techniques(1 << 5);
    /// Every query word counts once (its best synonym), and a tool's score is scaled
    /// by the share of the query's words it matches.
    pub const COVERAGE: Techniques = Techniques(1 << 6);
    /// Document expansion: lexicon synonyms of the name and summary, at a low weight.
    pub const EXPAND: Techniques = Techniques(1 << 7);
    /// Neighbours along IO-contract links lend their words, at a low weight.
    pub const GRAPH: Techniques = Techniques(1 << 8);
    /// The square root of BM25's idf: rare words weigh less against common ones.
    pub const DAMP_IDF: Techniques = Techniques(1 << 9);
    /// Values in the query (`#42`, `@bob`, `owner/name`, `cus_9s6X`) stand for the kind
    /// of parameter they fill instead of being split into words ([`values`]).
    pub const VALUES: Techniques = Techniques(1 << 10);
    /// The values a parameter's `enum` allows (`draft`, `locked`, `2fa_disabled`): what
    /// a tool can set or filter by, at a parameter's weight.
    pub const ENUMS: Techniques = Techniques(1 << 11);
    /// Initials of the two-word names the API uses often (`pull request` → `pr`,
    /// `payment intent` → `pi`): the abbreviations its users write.
    pub const INITIALS: Techniques = Techniques(1 << 12);
    /// A question ("who has access…", "how many…", "is bob a member…") asks to read:
    /// it also looks for the verbs reads imply.
    pub const QUESTIONS: Techniques = Techniques(1 << 13);
    /// REST's shape over the method: a `POST` to a collection creates, to an item
    /// updates, to an item's action (`/quotes/{quote}/cancel`) runs it; and a name that
    /// opens with its HTTP method (`PostQuotesQuoteCancel`) does not say "post" (a
    /// synonym of create) for every `POST`.
    pub const REST: Techniques = Techniques(1 << 14);
    /// An update's boolean arguments (`private`, `archived`, `locked`) name the states
    /// it sets, weighted like a path noun: "make my repo private" asks for the update
    /// that has the flag, not a tool that merely mentions the word. Not in the
    /// default (it did not help on held-out requests).
    pub const FLAGS: Techniques = Techniques(1 << 15);
    /// An id's prefix read as an abbreviation of one of the API's item collections
    /// (`pi_…` → payment intent, `in_…` → invoice, `evt_…` → event) instead of the
    /// commonest word it begins.
    pub const ABBREVIATIONS: Techniques = Techniques(1 << 16);
    /// A query word written in capitals (`PR`, `PRs`, `PI`) that is the initials of a
    /// word pair the API names often ([`Techniques::INITIALS`]) stands for that pair's
    /// words in full, its letters only a little: "PR" means a pull request, not the
    /// one tool whose name happens to contain `pr`. Not in the default: it loses near
    /// ties to enum values ("files changed in PR #42" → a review tool whose `event`
    /// allows `REQUEST_CHANGES`); turn it on for an API whose users write many
    /// acronyms.
    pub const ACRONYMS: Techniques = Techniques(1 << 17);
    /// A request to read ("list…", "show…", a question) with no verb that writes ranks
    /// the tools that change something lower, and a request to delete ("remove…",
    /// "nuke…") ranks the tools that delete higher, whatever words they share with
    /// it: a verb is a common word, so BM25 weighs it little, yet it says which of
    /// the tools about one resource is meant.
    pub const AGREEMENT: Techniques = Techniques(1 << 18);
    /// A tool whose name and title the request explains only in part ranks lower:
    /// their other words (rarer ones counting more) say it does something more
    /// specific ("list teams in an org" is `teams/list`, not
    /// `teams/list-child-in-org`).
    pub const NAMES: Techniques = Techniques(1 << 19);
    /// A query word of five letters or more that the catalog never uses and the
    /// lexicon does not know stands for the catalog's term that spells it the other
    /// way, British or American ("organisation", "licence", "cancelled", "colour").
    pub const SPELLING: Techniques = Techniques(1 << 20);
    /// A value in the query (`@bob`, `#42`, `owner/name`) looks for the tools with a
    /// parameter of its kind — by the parameter's name — instead of
    /// any tool whose name or prose says "user" or "number": `users/get-by-id` is not
    /// what "ask @bob to review PR 55" wants.
    pub const PARAMS: Techniques = Techniques(1 << 21);
    /// What the tool returns, in the API's words (the description of the object or
    /// list items in its output schema), at a low weight: "top up your Stripe
    /// balance" is what a top-up is, though no tool's name or summary says so.
    pub const RESULT: Techniques = Techniques(1 << 22);
    /// A tool its source marks deprecated (`deprecated: true`, kept in
    /// `_meta.toolwright.native`) keeps 0.6 of its score: the API asks callers to use
    /// something else, and a model should meet the live tool first (GitHub's
    /// `teams/*-legacy`, Stripe's customer `cards` beside `payment_methods`).
    pub const DEPRECATED: Techniques = Techniques(1 << 23);
    /// A time gone by in a request ("last week", "today", "since Dec 1", "3 days ago")
    /// is a value, not words: it stands for a list's time filter (`created`, `since`,
    /// `until`), and its words stop matching what they name elsewhere (a plan's
    /// `interval: month`). A time to come ("next month") stays words: it is when to
    /// schedule something. Needs [`Techniques::VALUES`].
    pub const TIMES: Techniques = Techniques(1 << 24);
    /// A query word the catalog never uses and the lexicon does not know stands for
    /// the catalog's word it is derived from, one or two suffixes off ("tokenize" →
    /// token, "removal" → remove, "acceptance" → accept): English makes verbs and
    /// nouns of one root, and an API names each thing once. Agent nouns stay out: a
    /// spammer is a user, not spam.
    pub const DERIVATION: Techniques = Techniques(1 << 25);

    /// What the generator builds.
    pub const DEFAULT: Techniques = Techniques(
        Self::FIELDS.0
            | Self::SPLIT.0
            | Self::STEM.0
            | Self::LEXICON.0
            | Self::VERBS.0
            | Self::PATH.0
            | Self::COVERAGE.0
            | Self::DAMP_IDF.0
            | Self::VALUES.0
            | Self::ENUMS.0
            | Self::INITIALS.0
            | Self::QUESTIONS.0
            | Self::REST.0
            | Self::ABBREVIATIONS.0
            | Self::NAMES.0
            | Self::AGREEMENT.0
            | Self::SPELLING.0
            | Self::PARAMS.0
            | Self::RESULT.0
            | Self::DEPRECATED.0
            | Self::TIMES.0
            | Self::DERIVATION.0,
    );

    pub const fn has(self, other: Techniques) -> bool {
        self.0 & other.0 == other.0
    }

    #[must_use]
    pub const fn with(self, other: Techniques) -> Techniques {
        Techniques(self.0 | other.0)
    }

    #[must_use]
    pub const fn without(self, other: Techniques) -> Techniques {
        Techniques(self.0 & !other.0)
    }
}

/// One result: the tool's position in the documents given to the builder (the catalog
/// order), and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub doc: usize,
    pub score: f32,
}

/// BM25 term-frequency saturation and length normalisation (the usual values).
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// A synonym counts this much of the word it stands for.
const SYNONYM_WEIGHT: f32 = 0.3;
const AGENT_WEIGHT: f32 = 0.3;
/// A parameter word a value in the query stands for counts this much.
const VALUE_WEIGHT: f32 = 0.5;
/// How many words may stand between a phrasal verb and its particle ("hand the
/// widgets repo over").
const PHRASE_GAP: usize = 2;
/// The read verbs a question implies count this much.
const QUESTION_WEIGHT: f32 = 0.5;

/// Builds an [`Index`] from documents in catalog order.
#[derive(Debug)]
pub struct IndexBuilder {
    /// The techniques, the language the documents are written in, and the long texts
    /// already analysed.
    analyser: Analyser,
    /// Per document: term → weighted frequency.
    docs: Vec<BTreeMap<String, f32>>,
    /// Per document: the adjacent word pairs of its name, title and summary, for
    /// [`Techniques::INITIALS`].
    pairs: Vec<Vec<(String, String)>>,
    /// Per document: the terms of its name and title, for [`Techniques::NAMES`].
    names: Vec<Vec<String>>,
    /// Per document: the terms of its aliases, merged in after the documents' lengths
    /// are taken (an alias is another way to find the tool, not more text diluting its
    /// own words).
    aliases: Vec<BTreeMap<String, f32>>,
}

/// A word pair is a name of the API's, whose initials its users write, when this many
/// tools' names or summaries use it.
const INITIALS_MIN_TOOLS: usize = 3;
/// Initials weigh as much as a parameter name.
const INITIALS_WEIGHT: f32 = 0.5;
/// What marks the word pair a document's initials stand for ([`Techniques::ACRONYMS`]):
/// `\u{3}pr pull request 57` (57 tools use the pair), a term no query word can match.
const ACRONYM: char = '\u{3}';
/// The second word of the pair an acronym stands for, and its letters, count this
/// much ("request" alone is not a pull request).
const ACRONYM_REST_WEIGHT: f32 = 0.5;
/// The marker of a tool that writes ([`Techniques::AGREEMENT`]), weightless.
const WRITES: &str = "\u{4}writes";
/// What a tool that writes keeps of its score for a request to read.
const WRITE_FOR_READ: f32 = 0.7;
/// The marker of a tool that deletes ([`Techniques::AGREEMENT`]), weightless.
const DELETES: &str = "\u{4}deletes";
/// What a tool that deletes gains for a request to delete.
const DELETE_FOR_DELETE: f32 = 1.4;
/// The marker of a deprecated tool ([`Techniques::DEPRECATED`]), weightless.
const DEPRECATED: &str = "\u{4}deprecated";
/// What a deprecated tool keeps of its score: enough to lose a near tie to a live
/// tool, not to vanish where it is the only match (0.5 and 0.6 measured alike on the
/// tuning sets, 0.7 and 0.85 gained less).
const DEPRECATED_KEEPS: f32 = 0.6;
/// What marks a term of a tool's name ([`Techniques::NAMES`]): `\u{5}team`, its impact
/// the share of the name's idf the term carries.
const NAME: char = '\u{5}';
/// How much of a tool's score rides on the share of its name the request explains.
const NAME_WEIGHT: f32 = 0.5;
/// What marks a term of a tool's parameters ([`Techniques::PARAMS`]): `\u{6}login`,
/// scored like any term but left out of the document's length.
const PARAM: char = '\u{6}';

impl IndexBuilder {
    /// A builder for documents in English.
    pub fn new(techniques: Techniques) -> IndexBuilder {
        IndexBuilder::in_language(techniques, &ENGLISH)
    }

    /// A builder for documents written in `language` (recorded in the index: a query
    /// is analysed as its documents were).
    pub fn in_language(techniques: Techniques, language: &'static Language) -> IndexBuilder {
        IndexBuilder::with_analyser(Analyser::in_language(techniques, language))
    }

    /// A builder that goes on from `analyser`: its techniques and language, and the
    /// long texts it has analysed (documents weighed ahead with [`Analyser::weigh`] are
    /// added with [`IndexBuilder::add_weighed`]).
    pub fn with_analyser(analyser: Analyser) -> IndexBuilder {
        IndexBuilder {
            analyser,
            docs: Vec::new(),
            pairs: Vec::new(),
            names: Vec::new(),
            aliases: Vec::new(),
        }
    }

    /// Adds the next document (documents are numbered in the order added).
    pub fn add(&mut self, doc: &Document) {
        let weighed = self.analyser.weigh(doc);
        self.add_weighed(weighed, &doc.neighbours);
    }

    /// Adds the next document from its terms weighed ahead ([`Analyser::weigh`], by the
    /// analyser this builder was made with) and the summaries of its neighbours (which
    /// may have been filled since): the index is the one [`IndexBuilder::add`] of the
    /// document would make.
    ///
    /// # Panics
    /// When `weighed` was made under other techniques than this builder's (its terms
    /// would not be this index's): a caller's bug.
    pub fn add_weighed(&mut self, weighed: Weighed, neighbours: &[String]) {
        let Weighed {
            techniques,
            mut terms,
            after,
            names,
            pairs,
            aliases,
        } = weighed;
        assert_eq!(
            techniques, self.analyser.techniques,
            "a document weighed under other techniques than the index builder's"
        );
        if self.analyser.techniques.has(Techniques::GRAPH) {
            for neighbour in neighbours {
                self.analyser
                    .put(&mut terms, neighbour, weights::FIELDS.neighbour);
            }
        }
        for (term, weight) in after {
            *terms.entry(term).or_insert(0.0) += weight;
        }
        self.names.extend(names);
        self.pairs.extend(pairs);
        self.aliases.push(aliases);
        self.docs.push(terms);
    }

    /// Adds to each document the initials of its word pairs that enough tools share.
    fn add_initials(&mut self) {
        let mut tools: HashMap<&(String, String), usize> = HashMap::new();
        for pairs in &self.pairs {
            for pair in pairs {
                *tools.entry(pair).or_default() += 1;
            }
        }
        let mut marked = std::collections::HashSet::new();
        for (doc, pairs) in self.pairs.iter().enumerate() {
            for pair in pairs {
                if tools[pair] < INITIALS_MIN_TOOLS {
                    continue;
                }
                let initials: String = [&pair.0, &pair.1]
                    .iter()
                    .filter_map(|w| w.chars().next())
                    .collect();
                if self.analyser.techniques.has(Techniques::ACRONYMS) && marked.insert(pair) {
                    // Weightless, on one document: it only says what the initials
                    // stand for and how many tools use the pair.
                    let (t, language) = (self.analyser.techniques, self.analyser.language);
                    let words = [&pair.0, &pair.1].map(|w| analyze(w, t, language).concat());
                    let marker = format!(
                        "{ACRONYM}{initials} {} {} {}",
                        words[0], words[1], tools[pair]
                    );
                    self.docs[doc].entry(marker).or_insert(0.0);
                }
                *self.docs[doc].entry(initials).or_insert(0.0) += INITIALS_WEIGHT;
            }
        }
    }

    /// The index, as the bytes [`Index::new`] reads.
    pub fn build(mut self) -> Vec<u8> {
        self.bytes()
    }

    /// [`IndexBuilder::build`], handing back what the builder held (every document's
    /// terms) instead of freeing it: a caller on a deadline frees it elsewhere (a catalog
    /// of 20,000 tools holds millions of small strings, ~0.2 s to free).
    pub fn build_leaving(mut self) -> (Vec<u8>, Leftovers) {
        let bytes = self.bytes();
        (bytes, Leftovers { _held: self })
    }

    fn bytes(&mut self) -> Vec<u8> {
        if self.analyser.techniques.has(Techniques::INITIALS) {
            self.add_initials();
        }
        let n = self.docs.len();
        // Parameter terms repeat words the document has already.
        let lengths: Vec<f32> = self
            .docs
            .iter()
            .map(|d| {
                d.iter()
                    .filter(|(term, _)| !term.starts_with(PARAM))
                    .map(|(_, tf)| tf)
                    .sum()
            })
            .collect();
        let average = (lengths.iter().sum::<f32>() / n.max(1) as f32).max(f32::EPSILON);
        for (terms, aliases) in self.docs.iter_mut().zip(std::mem::take(&mut self.aliases)) {
            for (term, tf) in aliases {
                *terms.entry(term).or_insert(0.0) += tf;
            }
        }
        let mut postings: BTreeMap<&str, Vec<(u32, f32)>> = BTreeMap::new();
        for (doc, terms) in self.docs.iter().enumerate() {
            for (term, tf) in terms {
                postings
                    .entry(term.as_str())
                    .or_default()
                    .push((doc as u32, *tf));
            }
        }
        let idf_of = |df: usize| {
            let df = df as f32;
            let idf = (1.0 + (n as f32 - df + 0.5) / (df + 0.5)).ln();
            if self.analyser.techniques.has(Techniques::DAMP_IDF) {
                // A query's rarest words are mostly qualifiers ("in Berlin", "about
                // machine learning"); the resource and the verb are common words.
                idf.sqrt()
            } else {
                idf
            }
        };
        // Each name term's share of its name's idf, posted under its marker.
        let mut shares: BTreeMap<String, Vec<(u32, f32)>> = BTreeMap::new();
        for (doc, name) in self.names.iter().enumerate() {
            let idfs: Vec<f32> = name
                .iter()
                .map(|t| idf_of(postings.get(t.as_str()).map_or(1, Vec::len)))
                .collect();
            let total: f32 = idfs.iter().sum();
            if total > 0.0 {
                for (term, idf) in name.iter().zip(idfs) {
                    shares
                        .entry(format!("{NAME}{term}"))
                        .or_default()
                        .push((doc as u32, idf / total));
                }
            }
        }
        for (term, list) in shares.iter_mut() {
            postings.insert(term, std::mem::take(list));
        }
        let mut impacts: Vec<(&str, Vec<(u32, f32)>)> = Vec::with_capacity(postings.len());
        let mut max = 0.0f32;
        for (term, list) in postings {
            if term.starts_with(NAME) {
                max = list.iter().fold(max, |m, (_, share)| m.max(*share));
                impacts.push((term, list));
                continue;
            }
            let idf = idf_of(list.len());
            let list: Vec<(u32, f32)> = list
                .into_iter()
                .map(|(doc, tf)| {
                    let norm = K1 * (1.0 - B + B * lengths[doc as usize] / average);
                    let impact = idf * tf * (K1 + 1.0) / (tf + norm);
                    max = max.max(impact);
                    (doc, impact)
                })
                .collect();
            impacts.push((term, list));
        }
        format::write(
            self.analyser.techniques,
            self.analyser.language,
            n,
            &impacts,
            max,
        )
    }
}

/// What an [`IndexBuilder`] held once its index is built ([`IndexBuilder::build_leaving`]):
/// dropping it frees that memory.
#[derive(Debug)]
pub struct Leftovers {
    _held: IndexBuilder,
}

/// The verb a method and path imply (the language names it in its lexicon's words).
fn implied_verb(method: &str, path: &str, group: &str) -> Verb {
    let item = path.trim_end_matches('/').ends_with('}');
    match (method, group) {
        ("GET" | "HEAD", _) if item => Verb::Get,
        ("GET" | "HEAD", _) => Verb::List,
        ("POST", "create") => Verb::Create,
        ("POST", _) => Verb::Run,
        ("PUT" | "PATCH", _) => Verb::Update,
        ("DELETE", _) => Verb::Delete,
        (_, "read") => Verb::Get,
        (_, "create") => Verb::Create,
        (_, "update") => Verb::Update,
        (_, "delete") => Verb::Delete,
        _ => Verb::Run,
    }
}

/// [`implied_verb`], with a `POST` read by REST's shape: to an item (`/x/{id}`) it
/// updates; to an item's action (`/x/{id}/cancel`, a singular word) it runs; to a
/// collection (`/x`, `/x/{id}/refunds`) it creates.
fn rest_verb(method: &str, path: &str, group: &str) -> Verb {
    if method != "POST" || group != "create" {
        return implied_verb(method, path, group);
    }
    let segments: Vec<&str> = path.trim_end_matches('/').rsplit('/').take(2).collect();
    match segments.as_slice() {
        [last, ..] if last.starts_with('{') => Verb::Update,
        [last, before] if before.starts_with('{') && !last.ends_with('s') => Verb::Run,
        _ => Verb::Create,
    }
}

/// `name` without a leading HTTP method word that is its own method (`PostQuotes` →
/// `Quotes`, `get_user` stays when the method is not `GET`).
fn without_method<'a>(name: &'a str, method: &str) -> &'a str {
    let lower = method.to_ascii_lowercase();
    let Some(rest) = name
        .get(..lower.len())
        .filter(|head| head.eq_ignore_ascii_case(&lower))
        .map(|_| &name[lower.len()..])
    else {
        return name;
    };
    // Only at a word boundary: `PostQuotes`, `post_quotes`, not `Postage`.
    match rest.chars().next() {
        Some(c) if c.is_uppercase() => rest,
        Some('_' | '-') => &rest[1..],
        _ => name,
    }
}

/// The terms of `text` under `techniques`, in `language`.
pub fn analyze(text: &str, techniques: Techniques, language: &Language) -> Vec<String> {
    let mut words = Vec::new();
    text::words(text, techniques.has(Techniques::SPLIT), &mut words);
    words.retain(|w| !language.is_stop_word(w));
    if techniques.has(Techniques::STEM) {
        for w in &mut words {
            *w = language.stem(w);
        }
    }
    words
}

/// Records that `term` is in slot `at`: a later slot takes it over, as a map insert
/// would (a borrowed term stays borrowed).
fn set_owner<'a>(owner: &mut HashMap<Cow<'a, str>, usize>, term: Cow<'a, str>, at: usize) {
    owner.insert(term, at);
}

/// A term of a slot and its weight: a word of the query, or one of the lexicon's or
/// the index's own (borrowed, not copied: a request has dozens).
type Term<'a> = (Cow<'a, str>, f32);

/// A query as the index reads it: slots of terms, each the terms that stand for one
/// thing it asks for, with their weights.
struct Slots<'a> {
    terms: Vec<Vec<Term<'a>>>,
    /// What the request asks to do ([`Techniques::AGREEMENT`]).
    intent: Option<Intent>,
    /// The slots that find tools (the rest only rank them).
    core: usize,
}

/// A query's words, each with the terms that stand for it and their weights. Words
/// of one lexicon group ("make a new") are one slot: they ask for one thing. The slots
/// at the end past [`Slots::core`] are auxiliary: they rank the tools the others found
/// but find none themselves.
fn query_terms<'a>(query: &str, index: &Index<'a>, request: &Language) -> Slots<'a> {
    let techniques = index.techniques();
    // Room for a long request's words, terms and values from the start: growing these
    // lists a step at a time was a tenth of reading a request.
    let mut out: Vec<Vec<Term<'a>>> = Vec::with_capacity(16);
    // Sets, not lists: a request may have thousands of distinct words, and scanning
    // a list per word made reading it quadratic (100,000 words took 70 s).
    let mut seen: HashSet<String> = HashSet::with_capacity(16);
    // Term → the slot it is in.
    let mut owner: HashMap<Cow<'a, str>, usize> = HashMap::with_capacity(64);
    let slot_of = |owner: &HashMap<Cow<'a, str>, usize>, term: &str| owner.get(term).copied();
    let language = index.language();
    let Reading {
        values: kinds,
        acronyms,
        question,
        speaker,
        mut words,
        alternates,
        intent,
    } = Reading::of(query, index, request);
    let mut i = 0;
    while i < words.len() {
        let word = words[i].clone();
        i += 1;
        // A phrase split by its object ("kick bob out"): its second word moves up.
        if techniques.has(Techniques::LEXICON)
            && let Some(gap) = (0..=PHRASE_GAP).find(|gap| {
                words
                    .get(i + gap)
                    .is_some_and(|w| language.phrase(&word, w).is_some())
            })
            && gap > 0
        {
            // Moved up by a rotation of the few words between (a remove and an insert
            // would shift the whole rest of a long request).
            words[i..=i + gap].rotate_right(1);
        }
        if acronyms.contains(&word)
            && !seen.contains(&word)
            && let Some(pair) = index.acronym(&word)
        {
            seen.insert(word.clone());
            let terms = vec![
                (Cow::Borrowed(pair.0), 1.0),
                (Cow::Borrowed(pair.1), ACRONYM_REST_WEIGHT),
                (Cow::Owned(word.clone()), SYNONYM_WEIGHT),
            ];
            for (term, _) in &terms {
                set_owner(&mut owner, term.clone(), out.len());
            }
            out.push(terms);
            continue;
        }
        if techniques.has(Techniques::LEXICON)
            && let Some(next) = words.get(i)
            && let Some(meaning) = language.phrase(&word, next)
        {
            // The pair is one slot: what it means in full, its own words a little.
            let mut terms: Vec<Term<'a>> = meaning
                .iter()
                .map(|w| (Cow::Borrowed(w.as_str()), 1.0))
                .collect();
            for own in [&word, next] {
                if !terms.iter().any(|(t, _)| t == own) {
                    terms.push((Cow::Owned(own.clone()), SYNONYM_WEIGHT));
                }
            }
            for own in [&word, next] {
                if !seen.contains(own) {
                    seen.insert(own.clone());
                }
            }
            i += 1;
            for (term, _) in &terms {
                set_owner(&mut owner, term.clone(), out.len());
            }
            out.push(terms);
            continue;
        }
        if !seen.insert(word.clone()) {
            continue;
        }
        let mut terms: Vec<Term<'a>> = Vec::with_capacity(8);
        terms.push((Cow::Owned(word.clone()), 1.0));
        // A request in another language: its own stem too, where the catalog has it
        // (a word both languages share, inflected the other language's way).
        if let Some(theirs) = alternates.get(&word)
            && index.postings(theirs).is_some()
        {
            terms.push((Cow::Owned(theirs.clone()), 1.0));
        }
        if techniques.has(Techniques::LEXICON) {
            // A word the catalog never uses ("bug" where it says "issue") is carried
            // by its synonyms in full: bridging vocabularies is all it can do.
            let weight = if index.postings(&word).is_some() {
                SYNONYM_WEIGHT
            } else {
                1.0
            };
            for synonym in language.related(&word) {
                terms.push((Cow::Borrowed(synonym.as_str()), weight));
            }
            // "who is watching" asks for the watchers: in a question, the agent noun
            // of a verb, where the catalog has it ("watch widgets" still watches).
            let agents = if question {
                language.questions.agent_suffixes
            } else {
                &[]
            };
            for suffix in agents {
                let agent = format!("{word}{suffix}");
                if index.postings(&agent).is_some() && !terms.iter().any(|(t, _)| *t == agent) {
                    terms.push((Cow::Owned(agent), AGENT_WEIGHT));
                }
            }
            if techniques.has(Techniques::SPELLING)
                && terms.len() == 1
                && weight == 1.0
                && let Some(near) = index.spelled(&word)
            {
                terms.push((Cow::Borrowed(near), 1.0));
            }
            if techniques.has(Techniques::DERIVATION)
                && terms.len() == 1
                && weight == 1.0
                && let Some(root) = index.root(&word)
            {
                terms.push((Cow::Borrowed(root), 1.0));
            }
            // Which slot already holds one of these terms (one lookup per term).
            if let Some(at) = terms.iter().find_map(|(t, _)| slot_of(&owner, t)) {
                let slot: &mut Vec<Term<'a>> = &mut out[at];
                for (term, weight) in terms {
                    match slot.iter_mut().find(|(t, _)| *t == term) {
                        Some(existing) => existing.1 = existing.1.max(weight),
                        None => {
                            set_owner(&mut owner, term.clone(), at);
                            slot.push((term, weight));
                        }
                    }
                }
                continue;
            }
        }
        for (term, _) in &terms {
            set_owner(&mut owner, term.clone(), out.len());
        }
        out.push(terms);
    }
    // Each kind of value once: the parameter it fills is one thing the query asks for.
    let mut done: Vec<&values::ValueKind> = Vec::new();
    for kind in &kinds {
        if done.contains(&kind) {
            continue;
        }
        done.push(kind);
        let mut terms: Vec<Term<'a>> = Vec::new();
        let push = |term: String, weight: f32, terms: &mut Vec<Term<'a>>| {
            if !terms.iter().any(|(t, _)| *t == term) {
                terms.push((Cow::Owned(term), weight));
            }
        };
        // The resource an id's prefix names (`cus_…` → customer), in words.
        let resource: Vec<String> = match kind {
            values::ValueKind::PrefixedId(prefix) => {
                let abbreviated = techniques
                    .has(Techniques::ABBREVIATIONS)
                    .then(|| abbreviation::resource(index, prefix, &words))
                    .flatten();
                match abbreviated {
                    Some(words) => words.into_iter().map(str::to_owned).collect(),
                    // `cus_…` is a customer's id: the commonest word the prefix begins.
                    None => index
                        .commonest_with_prefix(prefix)
                        .map(str::to_owned)
                        .into_iter()
                        .collect(),
                }
            }
            _ => Vec::new(),
        };
        let params = techniques.has(Techniques::PARAMS);
        if params && !resource.is_empty() {
            // The parameter an id fills is named for its resource (`{customer}`,
            // `customer_id`), not "id" alone (a sub-item's `{id}`).
            for word in &resource {
                push(format!("{PARAM}{word}"), 1.0, &mut terms);
            }
        } else {
            for word in (language.value_words)(kind) {
                let term = analyze(word, techniques, language).concat();
                if params {
                    push(format!("{PARAM}{term}"), 1.0, &mut terms);
                } else {
                    push(term, VALUE_WEIGHT, &mut terms);
                }
            }
        }
        // A resource the query names in words already counts there.
        for word in resource.iter().filter(|w| !seen.contains(w.as_str())) {
            push(word.clone(), 1.0, &mut terms);
        }
        out.push(terms);
    }
    // Last, as it only ranks what the query's own words found (a question alone
    // finds no tool: "do I need an umbrella" is no request to list everything).
    let mut auxiliary = 0;
    if techniques.has(Techniques::QUESTIONS) && question && !out.is_empty() {
        let terms: Vec<Term<'a>> = [Verb::Get, Verb::List]
            .iter()
            .map(|v| language.verbs.word(*v))
            .map(|w| {
                let term = analyze(w, techniques, language).concat();
                (Cow::Owned(term), QUESTION_WEIGHT)
            })
            .collect();
        out.push(terms);
        auxiliary += 1;
    }
    // "I" is the caller, whom APIs name the authenticated user, `me` or `self`; the
    // stop word it is finds nothing, and it is only a hint among the tools found.
    if techniques.has(Techniques::LEXICON) && speaker && !out.is_empty() {
        let me = analyze(language.questions.caller, techniques, language).concat();
        let related = language.related(&me);
        let mut terms: Vec<Term<'a>> = vec![(Cow::Owned(me), QUESTION_WEIGHT)];
        terms.extend(
            related
                .iter()
                .map(|t| (Cow::Borrowed(t.as_str()), QUESTION_WEIGHT)),
        );
        out.push(terms);
        auxiliary += 1;
    }
    Slots {
        core: out.len() - auxiliary,
        terms: out,
        intent,
    }
}

impl<'a> Index<'a> {
    /// The commonest term that is `word` in its other spelling
    /// ([`Techniques::SPELLING`]).
    fn spelled(&self, word: &str) -> Option<&'a str> {
        if word.chars().count() < 5 || !word.is_ascii() {
            return None;
        }
        let best = self
            .with_prefix(&word.as_bytes()[..2])
            .filter(|(term, _)| (self.language().other_spelling)(word.as_bytes(), term))
            .fold(
                None,
                |best: Option<(&[u8], usize)>, (term, df)| match best {
                    Some((_, d)) if d >= df => best,
                    _ => Some((term, df)),
                },
            )?;
        std::str::from_utf8(best.0).ok()
    }
}

impl<'a> Index<'a> {
    /// The catalog's term `word` is derived from by one or two of its language's derivational
    /// suffixes ([`Techniques::DERIVATION`]): the root as it is, with a doubled last
    /// consonant undone ("controllable" → control) or as the index stems it; a root of
    /// at least four letters, so that "usual" is not "us".
    fn root(&self, word: &str) -> Option<&'a str> {
        let mut stem = word;
        for _ in 0..2 {
            let base = self
                .language()
                .derived
                .iter()
                .find_map(|suffix| stem.strip_suffix(suffix))
                .filter(|base| base.len() >= 4 && base.is_ascii())?;
            let b = base.as_bytes();
            let undoubled = (b[b.len() - 1] == b[b.len() - 2]).then(|| &base[..base.len() - 1]);
            // "chargeable" leaves `charge`, which the index holds as its stem, `charg`.
            let stemmed = self.language().stem(base);
            for candidate in [Some(base), undoubled, Some(stemmed.as_str())]
                .into_iter()
                .flatten()
            {
                if let Some(found) = self.find(candidate) {
                    return self.term_text(found);
                }
            }
            stem = base;
        }
        None
    }
}

impl<'a> Index<'a> {
    /// The word pair `initials` abbreviates in this index ([`Techniques::ACRONYMS`]),
    /// as analysed terms: the one the most tools use.
    fn acronym(&self, initials: &str) -> Option<(&'a str, &'a str)> {
        let prefix = format!("{ACRONYM}{initials} ");
        self.with_prefix(prefix.as_bytes())
            .filter_map(|(term, _)| {
                let text = std::str::from_utf8(&term[prefix.len()..]).ok()?;
                let mut parts = text.split(' ');
                let (first, second) = (parts.next()?, parts.next()?);
                let tools: usize = parts.next()?.parse().ok()?;
                Some((tools, first, second))
            })
            // The most used pair; ties: the first in order.
            .fold(None, |best: Option<(usize, &str, &str)>, next| match best {
                Some(b) if b.0 >= next.0 => Some(b),
                _ => Some(next),
            })
            .map(|(_, first, second)| (first, second))
    }
}

/// The longest request read, in bytes: what follows is left out (a task described in
/// words is far shorter). Reading is linear in a request's words (10,000 distinct
/// words, 93 KB, take about 50 ms: `benches/input_limits.sh`), and 4 KiB bounds it.
pub const MAX_QUERY: usize = 4096;

/// `query` within [`MAX_QUERY`], cut at a character boundary, and whether it was cut.
pub fn bounded(query: &str) -> (&str, bool) {
    if query.len() <= MAX_QUERY {
        return (query, false);
    }
    let mut end = MAX_QUERY;
    while !query.is_char_boundary(end) {
        end -= 1;
    }
    (&query[..end], true)
}

impl Index<'_> {
    /// How many things `query` asks for (slots of terms), the whole of it read, past
    /// [`MAX_QUERY`]: what `benches/search_request.sh` times, to show the reading is
    /// linear in the request.
    #[doc(hidden)]
    pub fn read_unbounded(&self, query: &str) -> usize {
        query_terms(query, self, self.language()).terms.len()
    }

    /// The `k` best tools for `query` (its first [`MAX_QUERY`] bytes), best first
    /// (ties: catalog order).
    pub fn search(&self, query: &str, k: usize) -> Vec<Hit> {
        self.search_in(query, k, self.language())
    }

    /// [`Index::search`] for a request written in `request`, which may be another
    /// language than the catalog's ([`Index::language`]). Nothing is translated: the
    /// request's stop words are dropped as well as the catalog's, and each word is looked
    /// up as the catalog's language stems it and, where the index has that too, as the
    /// request's language stems it — so the words the two languages share (loanwords
    /// such as "Repository", "Webhook", "Token", names, values) meet the catalog. The
    /// catalog language's lexicon, grammar and intent apply as to any request.
    pub fn search_in(&self, query: &str, k: usize, request: &Language) -> Vec<Hit> {
        let (query, _) = bounded(query);
        let techniques = self.techniques();
        let slots = query_terms(query, self, request);
        let n = self.len();
        if slots.terms.is_empty() || n == 0 || k == 0 {
            return Vec::new();
        }
        let scoring = Scoring {
            coverage: techniques.has(Techniques::COVERAGE),
            names: techniques.has(Techniques::NAMES),
            scale: [
                match slots.intent {
                    Some(Intent::Read) => Some((WRITES, WRITE_FOR_READ)),
                    Some(Intent::Delete) => Some((DELETES, DELETE_FOR_DELETE)),
                    Some(Intent::Other) | None => None,
                },
                techniques
                    .has(Techniques::DEPRECATED)
                    .then_some((DEPRECATED, DEPRECATED_KEEPS)),
            ],
        };
        self.tally(&slots, &scoring, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, summary: &str, method: &str, path: &str) -> Document {
        Document {
            name: name.into(),
            title: name.replace('_', " "),
            summary: summary.into(),
            method: method.into(),
            path: path.into(),
            group: match method {
                "GET" => "read",
                "POST" => "create",
                "DELETE" => "delete",
                _ => "update",
            }
            .into(),
            ..Document::default()
        }
    }

    /// The index of `docs` under `techniques`.
    fn built(techniques: Techniques, docs: &[Document]) -> Vec<u8> {
        let mut builder = IndexBuilder::new(techniques);
        for d in docs {
            builder.add(d);
        }
        builder.build()
    }

    fn index(techniques: Techniques) -> Vec<u8> {
        built(
            techniques,
            &[
                doc(
                    "issues_create",
                    "Create an issue",
                    "POST",
                    "/repos/{owner}/{repo}/issues",
                ),
                doc(
                    "issues_list_for_repo",
                    "List repository issues",
                    "GET",
                    "/repos/{owner}/{repo}/issues",
                ),
                doc(
                    "repos_delete",
                    "Delete a repository",
                    "DELETE",
                    "/repos/{owner}/{repo}",
                ),
                doc(
                    "pulls_create",
                    "Create a pull request",
                    "POST",
                    "/repos/{owner}/{repo}/pulls",
                ),
            ],
        )
    }

    #[test]
    fn intent_words_find_the_tool() {
        let bytes = index(Techniques::DEFAULT);
        let index = Index::new(&bytes).unwrap();
        let hits = index.search("open a new bug report", 2);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
        let hits = index.search("remove the project", 1);
        assert_eq!(hits[0].doc, 2, "{hits:?}");
        let hits = index.search("show all tickets of a repo", 1);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        assert!(index.search("", 3).is_empty());
        assert!(index.search("zebra", 3).is_empty());
        // Plain BM25 has no way from "bug" to an issue.
        let plain = index_plain();
        assert!(Index::new(&plain).unwrap().search("bug", 3).is_empty());
    }

    #[test]
    fn a_question_reads_but_finds_nothing_alone() {
        let bytes = index(Techniques::DEFAULT);
        let index = Index::new(&bytes).unwrap();
        // "who … issues" prefers the list over the create that shares the noun.
        let hits = index.search("which issues are there", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        assert!(index.search("do I need an umbrella?", 3).is_empty());
    }

    /// The tools of one resource GitHub has: a listing, a more specific listing whose
    /// path repeats the resource, and a write that names it.
    fn teams(techniques: Techniques) -> Vec<u8> {
        built(
            techniques,
            &[
                doc(
                    "teams_list_child_in_org",
                    "List child teams",
                    "GET",
                    "/orgs/{org}/teams/{team_slug}/teams",
                ),
                doc("teams_list", "List teams", "GET", "/orgs/{org}/teams"),
                doc(
                    "teams_update_in_org",
                    "Update a team list",
                    "PATCH",
                    "/orgs/{org}/teams/{team_slug}",
                ),
            ],
        )
    }

    #[test]
    fn a_name_the_request_explains_in_full_ranks_first() {
        let without = teams(Techniques::DEFAULT.without(Techniques::NAMES));
        let hits = Index::new(&without)
            .unwrap()
            .search("list the teams in the org", 1);
        // The path says "teams" twice: alone, BM25 prefers the more specific tool.
        assert_eq!(hits[0].doc, 0, "{hits:?}");
        let with = teams(Techniques::DEFAULT);
        let hits = Index::new(&with)
            .unwrap()
            .search("list the teams in the org", 3);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        // What matched still decides: a request for child teams finds them.
        let hits = Index::new(&with).unwrap().search("child teams", 1);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
    }

    #[test]
    fn british_and_american_spellings_meet() {
        let stemmed = |w: &str| analyze(w, Techniques::DEFAULT, &ENGLISH).concat();
        for (a, b) in [
            ("organisation", "organization"),
            ("authorise", "authorize"),
            ("licence", "license"),
            ("cancelled", "canceled"),
            ("colour", "color"),
        ] {
            let (a, b) = (stemmed(a), stemmed(b));
            assert!(
                (ENGLISH.other_spelling)(a.as_bytes(), b.as_bytes()),
                "{a} {b}"
            );
            assert!(
                (ENGLISH.other_spelling)(b.as_bytes(), a.as_bytes()),
                "{b} {a}"
            );
        }
        for (a, b) in [
            ("basic", "basis"),
            ("shirt", "short"),
            ("black", "back"),
            ("stuck", "stack"),
            ("same", "same"),
        ] {
            assert!(
                !(ENGLISH.other_spelling)(a.as_bytes(), b.as_bytes()),
                "{a} {b}"
            );
        }
        let mut builder = IndexBuilder::new(Techniques::DEFAULT);
        builder.add(&doc(
            "orgs_list",
            "List organizations",
            "GET",
            "/organizations",
        ));
        let bytes = builder.build();
        let index = Index::new(&bytes).unwrap();
        assert_eq!(index.search("every organisation", 1).len(), 1);
    }

    #[test]
    fn i_is_the_caller() {
        let bytes = built(
            Techniques::DEFAULT,
            &[
                doc("orgs_list", "List organizations", "GET", "/organizations"),
                doc(
                    "orgs_list_for_authenticated_user",
                    "List organizations for the authenticated user",
                    "GET",
                    "/user/orgs",
                ),
            ],
        );
        let index = Index::new(&bytes).unwrap();
        assert_eq!(index.search("which orgs am I in", 1)[0].doc, 1);
        assert_eq!(index.search("which orgs are there", 1)[0].doc, 0);
    }

    /// A request in German over an English catalog: its stop words are not read as
    /// the catalog's words ("hat" is "has", not a hat), the words both languages share
    /// still meet the catalog.
    #[cfg(feature = "languages")]
    #[test]
    fn a_request_in_another_language_drops_its_stop_words() {
        let bytes = built(
            Techniques::DEFAULT,
            &[
                doc("hats_get", "Get a hat", "GET", "/hats/{hat}"),
                doc("teams_list", "List teams", "GET", "/teams"),
            ],
        );
        let index = Index::new(&bytes).unwrap();
        let german = language::by_code("de").unwrap();
        let query = "welches Team hat die meisten Mitglieder";
        assert!(index.search(query, 2).iter().any(|h| h.doc == 0));
        let hits = index.search_in(query, 2, german);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].doc, 1);
        // In the catalog's own language, the same search.
        assert_eq!(
            index.search_in("list teams", 2, &ENGLISH),
            index.search("list teams", 2)
        );
    }

    #[test]
    fn a_request_to_read_ranks_writes_lower() {
        let plain = Techniques::DEFAULT.without(Techniques::AGREEMENT);
        let scores = |t: Techniques, query: &str| {
            let bytes = teams(t);
            let hits = Index::new(&bytes).unwrap().search(query, 3);
            let of = |doc| hits.iter().find(|h| h.doc == doc).map_or(0.0, |h| h.score);
            (of(1), of(2))
        };
        // The update keeps less of its score when the request reads, the listing all.
        let (list, update) = scores(plain, "show the team list");
        let (list_agreeing, update_agreeing) = scores(Techniques::DEFAULT, "show the team list");
        assert_eq!(list, list_agreeing);
        assert!(
            update_agreeing < update * 0.8,
            "{update_agreeing} vs {update}"
        );
        // A request that writes leaves both alone.
        assert_eq!(
            scores(plain, "update the team list"),
            scores(Techniques::DEFAULT, "update the team list")
        );
    }

    #[test]
    fn values_stand_for_their_parameters_not_their_words() {
        let mut builder = IndexBuilder::new(Techniques::DEFAULT);
        let mut get_issue = doc(
            "issues_get",
            "Get an issue",
            "GET",
            "/repos/{owner}/{repo}/issues/{issue_number}",
        );
        get_issue.params = vec![
            ("owner".into(), String::new()),
            ("repo".into(), String::new()),
            ("issue_number".into(), String::new()),
        ];
        let org = doc("orgs_get", "Get an organization", "GET", "/orgs/{org}");
        builder.add(&get_issue);
        builder.add(&org);
        let bytes = builder.build();
        let index = Index::new(&bytes).unwrap();
        // `octo-org/widgets` split into words would ask for an org.
        let hits = index.search("show octo-org/widgets #42", 2);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
        let without = Techniques::DEFAULT.without(Techniques::VALUES);
        let mut plain = IndexBuilder::new(without);
        plain.add(&get_issue);
        plain.add(&org);
        let bytes = plain.build();
        let hits = Index::new(&bytes)
            .unwrap()
            .search("show octo-org/widgets #42", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
    }

    #[test]
    fn a_value_finds_the_tools_with_a_parameter_of_its_kind() {
        let mut request = doc(
            "pulls_request_reviewers",
            "Request reviewers for a pull request",
            "POST",
            "/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
        );
        request.params = vec![
            ("pull_number".into(), String::new()),
            ("reviewers".into(), "An array of user logins".into()),
        ];
        let mut by_id = doc(
            "users_get_by_id",
            "Get a user using their ID",
            "GET",
            "/user/{account_id}",
        );
        by_id.params = vec![("account_id".into(), String::new())];
        let docs = [request, by_id];
        let query = "ask @bob to look over PR 55";
        // How close the user lookup comes to the request, in score.
        let closeness = |techniques: Techniques| {
            let bytes = built(techniques, &docs);
            let hits = Index::new(&bytes).unwrap().search(query, 2);
            assert_eq!(hits[0].doc, 0, "{hits:?}");
            hits.get(1).map_or(0.0, |h| h.score / hits[0].score)
        };
        // By their words, `@bob` and `55` ask for a user by id.
        let with = closeness(Techniques::DEFAULT);
        let without = closeness(Techniques::DEFAULT.without(Techniques::PARAMS));
        assert!(with < without * 0.8, "{with} vs {without}");
    }

    #[test]
    fn an_id_fills_the_parameter_named_for_its_resource() {
        let mut customer = doc(
            "DeleteCustomersCustomer",
            "Deletes a customer",
            "DELETE",
            "/v1/customers/{customer}",
        );
        customer.params = vec![("customer".into(), String::new())];
        let mut source = doc(
            "DeleteCustomersCustomerSourcesId",
            "Delete a source for a customer",
            "DELETE",
            "/v1/customers/{customer}/sources/{id}",
        );
        source.params = vec![
            ("customer".into(), String::new()),
            ("id".into(), String::new()),
        ];
        let bytes = built(Techniques::DEFAULT, &[source, customer]);
        let hits = Index::new(&bytes)
            .unwrap()
            .search("delete customer cus_77", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
    }

    #[test]
    fn an_id_prefix_reads_as_the_collection_the_request_names() {
        let mut reader = doc(
            "PostTerminalReadersReader",
            "Update a reader",
            "POST",
            "/v1/terminal/readers/{reader}",
        );
        reader.params = vec![("reader".into(), String::new())];
        let mut transfer = doc(
            "PostTransfersTransfer",
            "Update a transfer",
            "POST",
            "/v1/transfers/{transfer}",
        );
        transfer.params = vec![("transfer".into(), String::new())];
        let bytes = built(Techniques::DEFAULT, &[reader, transfer]);
        let index = Index::new(&bytes).unwrap();
        // `tr` is a terminal reader's initials before it is a transfer's first letters…
        assert_eq!(index.search("update tr_9", 2)[0].doc, 0);
        // …unless the request names the transfer.
        let hits = index.search("update the metadata of transfer tr_9", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
    }

    #[test]
    fn a_phrasal_verb_holds_across_its_object() {
        let docs = [
            doc(
                "repos_transfer",
                "Transfer a repository",
                "POST",
                "/repos/{owner}/{repo}/transfer",
            ),
            doc(
                "repos_get",
                "Get a repository",
                "GET",
                "/repos/{owner}/{repo}",
            ),
        ];
        let bytes = built(Techniques::DEFAULT, &docs);
        let hits = Index::new(&bytes)
            .unwrap()
            .search("hand the widgets repo over to erin", 2);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
        assert_eq!(hits.len(), 2, "{hits:?}");
    }

    #[test]
    fn a_phrase_ending_in_a_stop_word_still_means_it() {
        let docs = [
            doc(
                "users_get_authenticated",
                "Get the authenticated user",
                "GET",
                "/user",
            ),
            doc(
                "account_list_log_entries",
                "List the account's log entries",
                "GET",
                "/account/logs",
            ),
        ];
        let bytes = built(Techniques::DEFAULT, &docs);
        let index = Index::new(&bytes).unwrap();
        // "in" is a stop word, yet "logged … in" is one phrase: authentication, not logs.
        let hits = index.search("who is logged in", 2);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
        // Alone, "in" still finds nothing.
        assert!(index.search("in", 2).is_empty());
    }

    #[test]
    fn a_posting_looked_up_equals_the_one_scanned() {
        let bytes = index(Techniques::DEFAULT);
        let index = Index::new(&bytes).unwrap();
        for term in ["issu", "creat", "repo", "pull"] {
            let list = index.posting_list(term).unwrap();
            let scanned: Vec<(u32, f32)> = index.postings(term).unwrap().collect();
            assert_eq!(list.len(), scanned.len(), "{term}");
            for doc in 0..5 {
                let expected = scanned.iter().find(|(d, _)| *d == doc).map(|(_, i)| *i);
                assert_eq!(list.impact(doc), expected, "{term} in {doc}");
            }
        }
        assert!(index.posting_list("zebra").is_none());
    }

    #[test]
    fn stop_doing_asks_for_the_opposite_verb() {
        let docs = [
            doc(
                "users_follow",
                "Follow a user",
                "PUT",
                "/user/following/{username}",
            ),
            doc(
                "users_unfollow",
                "Unfollow a user",
                "DELETE",
                "/user/following/{username}",
            ),
        ];
        let bytes = built(Techniques::DEFAULT, &docs);
        let hits = Index::new(&bytes)
            .unwrap()
            .search("stop following @spammer", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
    }

    #[test]
    fn taking_back_a_verb_asks_for_the_tool_named_for_its_opposite() {
        let docs = [
            doc(
                "users_block",
                "Block a user",
                "PUT",
                "/user/blocks/{username}",
            ),
            doc(
                "users_unblock",
                "Unblock a user",
                "DELETE",
                "/user/blocks/{username}",
            ),
        ];
        let bytes = built(Techniques::DEFAULT, &docs);
        let index = Index::new(&bytes).unwrap();
        for request in [
            "I blocked @troll by mistake, undo it",
            "I don't want @troll blocked anymore",
        ] {
            assert_eq!(index.search(request, 2)[0].doc, 1, "{request}");
        }
        // Only a verb after the negation is taken back: here it is "take", not "block".
        assert_eq!(
            index.search("block @troll, I can't take it anymore", 2)[0].doc,
            0
        );
    }

    #[test]
    fn a_derived_word_finds_its_root() {
        let docs = [
            doc("tokens_create", "Create a token", "POST", "/v1/tokens"),
            doc("charges_create", "Create a charge", "POST", "/v1/charges"),
            doc("controls_list", "List the controls", "GET", "/v1/controls"),
        ];
        let bytes = built(Techniques::DEFAULT, &docs);
        let index = Index::new(&bytes).unwrap();
        assert_eq!(index.root("tokeniz"), Some("token"));
        assert_eq!(index.root("tokenizat"), Some("token"));
        assert_eq!(index.root("chargeabl"), Some("charg"));
        // Roots under four letters are too short to tell.
        assert_eq!(index.root("usual"), None);
        assert_eq!(index.root("controllabl"), Some("control"));
        let hits = index.search("tokenize a card number", 2);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
        let without = built(Techniques::DEFAULT.without(Techniques::DERIVATION), &docs);
        assert!(
            Index::new(&without)
                .unwrap()
                .search("tokenize", 2)
                .is_empty()
        );
    }

    #[test]
    fn a_question_about_doers_finds_the_agent_noun() {
        let docs = [
            doc(
                "activity_watch_repo",
                "Watch a repository",
                "PUT",
                "/repos/{owner}/{repo}/subscription",
            ),
            doc(
                "activity_list_watchers",
                "List watchers",
                "GET",
                "/repos/{owner}/{repo}/subscribers",
            ),
        ];
        let bytes = built(Techniques::DEFAULT, &docs);
        let index = Index::new(&bytes).unwrap();
        let hits = index.search("who is watching widgets", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        // Not a question: to watch.
        let hits = index.search("watch widgets", 2);
        assert_eq!(hits[0].doc, 0, "{hits:?}");
    }

    #[test]
    fn an_acronym_stands_for_the_pair_it_abbreviates() {
        let techniques = Techniques::DEFAULT.with(Techniques::ACRONYMS);
        let mut builder = IndexBuilder::new(techniques);
        for (name, summary) in [
            ("pulls_get", "Get a pull request"),
            ("pulls_list", "List pull requests"),
            ("pulls_merge", "Merge a pull request"),
            ("pulls_update", "Update a pull request"),
            ("codespaces_create_with_pr", "Create a codespace"),
            ("issues_list", "List issues"),
            ("repos_list", "List repositories"),
            ("teams_list", "List teams"),
            ("gists_list", "List gists"),
            ("orgs_list", "List organizations"),
            ("users_list", "List users"),
        ] {
            builder.add(&doc(name, summary, "GET", "/x"));
        }
        let bytes = builder.build();
        let index = Index::new(&bytes).unwrap();
        // In capitals, "PRs" means pull requests, not the one name holding `pr`
        // (three tools' summaries say "pull request": an API's name for a thing).
        assert_eq!(index.acronym("pr"), Some(("pull", "request")));
        let hits = index.search("list PRs", 2);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        assert_eq!(index.acronym("zz"), None);
    }

    #[test]
    fn a_deprecated_tool_loses_a_tie_to_a_live_one_and_is_still_found_alone() {
        // Two tools that read alike, the first deprecated (as Stripe's customer cards
        // beside its payment methods), and a deprecated tool no other matches.
        let mut legacy = doc(
            "teams_list_members_legacy",
            "List team members",
            "GET",
            "/teams/{team_id}/members",
        );
        legacy.deprecated = true;
        let live = doc(
            "teams_list_members_in_org",
            "List team members",
            "GET",
            "/orgs/{org}/teams/{team_slug}/members",
        );
        let mut import = doc(
            "migrations_get_large_files",
            "Get large files",
            "GET",
            "/repos/{owner}/{repo}/import/large_files",
        );
        import.deprecated = true;
        let docs = [legacy, live, import];
        let top = |techniques: Techniques, query: &str| {
            let bytes = built(techniques, &docs);
            Index::new(&bytes).unwrap().search(query, 3)[0].doc
        };
        let without = Techniques::DEFAULT.without(Techniques::DEPRECATED);
        assert_eq!(top(without, "list the members of the team"), 0);
        assert_eq!(top(Techniques::DEFAULT, "list the members of the team"), 1);
        assert_eq!(top(Techniques::DEFAULT, "large files in the import"), 2);
    }

    fn index_plain() -> Vec<u8> {
        index(Techniques::PLAIN)
    }

    #[test]
    fn the_index_is_deterministic() {
        assert_eq!(index(Techniques::DEFAULT), index(Techniques::DEFAULT));
    }

    #[test]
    fn scores_rank_best_first_and_k_bounds() {
        let bytes = index(Techniques::DEFAULT);
        let index = Index::new(&bytes).unwrap();
        let hits = index.search("create", 10);
        assert!(hits.len() >= 2);
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(index.search("create", 1).len(), 1);
    }
}
