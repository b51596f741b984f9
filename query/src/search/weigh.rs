//! A document's texts turned into weighted terms: the first half of
//! [`IndexBuilder::add`](super::IndexBuilder::add), done apart so that a generator can
//! weigh its documents before the IO contracts that name their neighbours exist, on a
//! core that would otherwise wait for them.

use std::collections::{BTreeMap, HashMap};

use super::language::{Language, Verb};
use super::{
    DELETES, DEPRECATED, Document, PARAM, Techniques, WRITES, abbreviation, analyze, implied_verb,
    rest_verb, text, weights, without_method,
};

/// Analyses documents' texts into terms under a set of [`Techniques`], in a language,
/// remembering the long texts it has analysed: large APIs repeat the same parameter
/// prose on hundreds of operations (compute v1's `filter`, 2.5 KB, on every list).
#[derive(Debug)]
pub struct Analyser {
    pub(super) techniques: Techniques,
    pub(super) language: &'static Language,
    analysed: HashMap<String, Vec<String>>,
}

/// One document's weighted terms, all but its neighbours' ([`Analyser::weigh`]); the
/// builder adds those and the rest in the order [`IndexBuilder::add`] would, so the
/// sums (floating point) and the index are the same.
///
/// [`IndexBuilder::add`]: super::IndexBuilder::add
#[derive(Debug)]
pub struct Weighed {
    /// What weighed them: a builder goes on only with the same.
    pub(super) techniques: Techniques,
    /// The terms of the texts weighed before the neighbours', summed in that order.
    pub(super) terms: BTreeMap<String, f32>,
    /// What is added after the neighbours, in order; a weight of 0 only marks a term.
    pub(super) after: Vec<(String, f32)>,
    /// The terms of the name and title ([`Techniques::NAMES`]).
    pub(super) names: Option<Vec<String>>,
    /// The adjacent word pairs of the name, title and summary ([`Techniques::INITIALS`]).
    pub(super) pairs: Option<Vec<(String, String)>>,
    /// The terms of the aliases, merged in after the documents' lengths are taken.
    pub(super) aliases: BTreeMap<String, f32>,
}

/// Texts shorter than this are analysed each time; longer ones once.
const REMEMBERED: usize = 64;

impl Analyser {
    /// An analyser for documents in English.
    pub fn new(techniques: Techniques) -> Analyser {
        Analyser::in_language(techniques, &super::ENGLISH)
    }

    /// An analyser for documents written in `language`.
    pub fn in_language(techniques: Techniques, language: &'static Language) -> Analyser {
        Analyser {
            techniques,
            language,
            analysed: HashMap::new(),
        }
    }

    /// Adds `weight` to each term of `text` in `terms`.
    pub(super) fn put(&mut self, terms: &mut BTreeMap<String, f32>, text: &str, weight: f32) {
        let (t, language) = (self.techniques, self.language);
        if text.len() < REMEMBERED {
            for term in analyze(text, t, language) {
                *terms.entry(term).or_insert(0.0) += weight;
            }
            return;
        }
        // Looked up before inserting: most long texts are seen again, and a key made
        // for each lookup would copy them.
        if !self.analysed.contains_key(text) {
            self.analysed
                .insert(text.to_owned(), analyze(text, t, language));
        }
        for term in &self.analysed[text] {
            match terms.get_mut(term) {
                Some(tf) => *tf += weight,
                None => {
                    terms.insert(term.clone(), weight);
                }
            }
        }
    }

    /// The terms of `doc`'s texts but its neighbours'.
    pub fn weigh(&mut self, doc: &Document) -> Weighed {
        let t = self.techniques;
        let language = self.language;
        let w = &weights::FIELDS;
        let mut terms = BTreeMap::new();
        let mut names = None;
        if t.has(Techniques::FIELDS) {
            let name = if t.has(Techniques::REST) {
                without_method(&doc.name, &doc.method)
            } else {
                &doc.name
            };
            self.put(&mut terms, name, w.name);
            if t.has(Techniques::NAMES) {
                let mut own = analyze(name, t, language);
                own.extend(analyze(&doc.title, t, language));
                own.sort();
                own.dedup();
                names = Some(own);
            }
            self.put(&mut terms, &doc.title, w.title);
            self.put(&mut terms, &doc.summary, w.summary);
            self.put(&mut terms, &doc.description, w.description);
            for (name, description) in &doc.params {
                self.put(&mut terms, name, w.param_name);
                self.put(&mut terms, description, w.param_description);
            }
            if t.has(Techniques::RESULT) {
                self.put(&mut terms, &doc.result, w.result);
            }
            if t.has(Techniques::ENUMS) {
                for value in &doc.enum_values {
                    self.put(&mut terms, value, w.enum_value);
                }
            }
            for tag in &doc.tags {
                self.put(&mut terms, tag, w.tag);
            }
            for trigger in &doc.triggers {
                self.put(&mut terms, trigger, w.trigger);
            }
            // Requests as users phrase them, written by the adapter's author.
            for example in &doc.examples {
                self.put(&mut terms, example, w.example);
            }
        } else {
            self.put(&mut terms, &doc.name, 1.0);
            self.put(&mut terms, &doc.title, 1.0);
            self.put(&mut terms, &doc.summary, 1.0);
            self.put(&mut terms, &doc.description, 1.0);
        }
        let verb = if t.has(Techniques::REST) {
            rest_verb(&doc.method, &doc.path, &doc.group)
        } else {
            implied_verb(&doc.method, &doc.path, &doc.group)
        };
        if t.has(Techniques::VERBS) {
            self.put(&mut terms, language.verbs.word(verb), w.verb);
        }
        if t.has(Techniques::FLAGS) && verb == Verb::Update {
            for flag in &doc.flags {
                self.put(&mut terms, flag, w.flag);
            }
        }
        if t.has(Techniques::PATH) {
            let nouns: Vec<&str> = doc
                .path
                .split('/')
                .filter(|s| !s.is_empty() && !s.starts_with('{'))
                .collect();
            for (i, noun) in nouns.iter().rev().enumerate() {
                let weight = if i == 0 {
                    w.last_path_noun
                } else {
                    w.path_noun
                };
                self.put(&mut terms, noun, weight);
            }
        }
        // The neighbours' summaries go here (`IndexBuilder::add_weighed`).
        let mut after = Vec::new();
        if t.has(Techniques::EXPAND) {
            let mut seen = Vec::new();
            for text in [doc.name.as_str(), doc.summary.as_str()] {
                for term in analyze(text, t, language) {
                    for synonym in language.related(&term) {
                        if !seen.contains(synonym) {
                            seen.push(synonym.clone());
                        }
                    }
                }
            }
            after.extend(seen.into_iter().map(|synonym| (synonym, w.expansion)));
        }
        if t.has(Techniques::FIELDS) && t.has(Techniques::PARAMS) {
            // Names only: descriptions say "the number of results per page" on every
            // list, and weighing them in measured no better on the tuning sets.
            for (name, _) in &doc.params {
                for term in analyze(name, t, language) {
                    after.push((format!("{PARAM}{term}"), w.param_marker));
                }
            }
        }
        if t.has(Techniques::AGREEMENT) && !matches!(verb, Verb::Get | Verb::List) {
            after.push((WRITES.to_owned(), 0.0));
        }
        if t.has(Techniques::AGREEMENT) && verb == Verb::Delete {
            after.push((DELETES.to_owned(), 0.0));
        }
        if t.has(Techniques::DEPRECATED) && doc.deprecated {
            after.push((DEPRECATED.to_owned(), 0.0));
        }
        if t.has(Techniques::ABBREVIATIONS) {
            // Weightless: they only say which item collections exist.
            for marker in abbreviation::markers(&doc.path, |s| analyze(s, t, language)) {
                after.push((marker, 0.0));
            }
        }
        let pairs = t.has(Techniques::INITIALS).then(|| {
            let mut pairs = Vec::new();
            for text in [&doc.name, &doc.title, &doc.summary] {
                let mut words = Vec::new();
                text::words(text, t.has(Techniques::SPLIT), &mut words);
                words.retain(|w| !language.is_stop_word(w));
                for pair in words.windows(2) {
                    let pair = (pair[0].clone(), pair[1].clone());
                    if pair.0.len() > 1 && pair.1.len() > 1 && !pairs.contains(&pair) {
                        pairs.push(pair);
                    }
                }
            }
            pairs
        });
        let mut aliases = BTreeMap::new();
        if t.has(Techniques::FIELDS) {
            for alias in &doc.aliases {
                for term in analyze(alias, t, language) {
                    *aliases.entry(term).or_insert(0.0) += w.alias;
                }
            }
        }
        Weighed {
            techniques: t,
            terms,
            after,
            names,
            pairs,
            aliases,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::IndexBuilder;
    use super::*;

    /// Tools whose texts overlap: long shared parameter prose (remembered), summaries
    /// that become other tools' neighbours, parameters, flags, aliases, a deprecated one.
    fn documents() -> Vec<Document> {
        let prose = "The number of results per page, at most one hundred; pages after \
                     the last one are empty and listing again starts over from the first.";
        let tool = |name: &str, method: &str, path: &str, summary: &str, links: &[&str]| Document {
            name: name.into(),
            title: name.replace('_', " "),
            summary: summary.into(),
            description: format!("{summary} Lists and creates things. {prose}"),
            params: vec![
                ("per_page".into(), prose.into()),
                ("repo".into(), "The repository's name.".into()),
            ],
            flags: vec!["private".into()],
            enum_values: vec!["open".into(), "closed".into()],
            tags: vec!["issues".into()],
            method: method.into(),
            path: path.into(),
            group: if method == "GET" { "read" } else { "update" }.into(),
            aliases: vec!["ticket".into()],
            deprecated: name.ends_with("old"),
            links: links.iter().map(|l| (*l).to_owned()).collect(),
            ..Document::default()
        };
        vec![
            tool(
                "issues_list",
                "GET",
                "/repos/{repo}/issues",
                "List issues of a repository.",
                &[],
            ),
            tool(
                "issues_get",
                "GET",
                "/repos/{repo}/issues/{number}",
                "Get one issue, its comments counted.",
                &["issues_list"],
            ),
            tool(
                "issues_update_old",
                "PATCH",
                "/repos/{repo}/issues/{number}",
                "Update an issue: close, reopen or retitle it.",
                &["issues_get", "issues_list"],
            ),
            tool(
                "repos_delete",
                "DELETE",
                "/repos/{repo}",
                "Delete a repository.",
                &["issues_list"],
            ),
        ]
    }

    /// Weighing every document before its neighbours are known, then adding it with
    /// them, makes the index `add` makes of the finished documents, byte for byte.
    #[test]
    fn weighed_ahead_is_the_same_index() {
        for techniques in [Techniques::DEFAULT, Techniques(u32::MAX), Techniques::PLAIN] {
            let mut linked = documents();
            Document::link_neighbours(&mut linked);
            assert!(linked.iter().any(|d| !d.neighbours.is_empty()));
            let mut whole = IndexBuilder::new(techniques);
            for doc in &linked {
                whole.add(doc);
            }

            let mut analyser = Analyser::new(techniques);
            let weighed: Vec<Weighed> = documents().iter().map(|d| analyser.weigh(d)).collect();
            let mut ahead = IndexBuilder::with_analyser(analyser);
            for (doc, weighed) in linked.iter().zip(weighed) {
                ahead.add_weighed(weighed, &doc.neighbours);
            }
            assert_eq!(ahead.build(), whole.build(), "{techniques:?}");
        }
    }
}
