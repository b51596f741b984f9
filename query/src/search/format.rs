//! The index as flat little-endian bytes, read in place (the generator embeds them with
//! `include_bytes!`, so a large catalog's index costs the compiler nothing to parse):
//!
//! ```text
//! "TWSI" version:u32 techniques:u32 docs:u32 terms:u32 scale:f32 slots:u32
//! language:[u8; 4] analysis:u64   the language's code (zero-padded) and analysis hash
//! term_ends:[u32; terms]      end of each term in `term_text`
//! posting_ends:[u32; terms]   end of each term's postings
//! term_slots:[u32; slots]     open addressing by FNV-1a: term index + 1, 0 when empty
//! postings:[(doc:u32, impact:u16); ..]   impacts quantised to scale/65535
//! term_text: sorted terms, concatenated
//! ```
//!
//! A search looks up a hundred terms or so (each word, its synonyms, their name
//! markers): by hash that is a probe or two, where a binary search over the sorted
//! terms took a fifth of the search's time. The terms stay sorted for prefix lookups.

use std::fmt;

use super::{Language, Techniques, language};

const MAGIC: &[u8; 4] = b"TWSI";
const VERSION: u32 = 3;
const HEADER: usize = 40;
const POSTING: usize = 6;

/// A view of index bytes.
#[derive(Debug, Clone, Copy)]
pub struct Index<'a> {
    bytes: &'a [u8],
    techniques: Techniques,
    language: &'static Language,
    docs: usize,
    terms: usize,
    scale: f32,
    slots: usize,
    postings_start: usize,
    text_start: usize,
}

/// Bytes that are not an index this version reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a search index: {}", self.0)
    }
}

impl std::error::Error for FormatError {}

/// The language of a header's code and analysis hash, when this build has it and
/// analyses as the index was built.
fn language_of(header: &[u8]) -> Result<&'static Language, FormatError> {
    let code = std::str::from_utf8(&header[..4])
        .map(|c| c.trim_end_matches('\0'))
        .map_err(|_| FormatError("the language code is not UTF-8".to_owned()))?;
    let mut hash = [0; 8];
    hash.copy_from_slice(&header[4..12]);
    let hash = u64::from_le_bytes(hash);
    let Some(language) = language::by_code(code) else {
        return Err(FormatError(format!(
            "built for language `{code}`, which this build does not have (the feature \
             `languages` of toolwright-query adds the Snowball languages)"
        )));
    };
    if language.analysis_hash() != hash {
        return Err(FormatError(format!(
            "built with another analysis of `{code}` (hash {hash:016x}; this build's is \
             {:016x}): build the index again",
            language.analysis_hash()
        )));
    }
    Ok(language)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

impl<'a> Index<'a> {
    /// Reads the header and checks every table: that they fit the bytes, that their
    /// ends never decrease, that every posting names a document in range, that terms
    /// are UTF-8 (linear in the index's size; [`Index::open`] is the constant-time
    /// check for bytes already checked once).
    ///
    /// # Errors
    /// Another format or version, or truncated or inconsistent tables.
    pub fn new(bytes: &'a [u8]) -> Result<Index<'a>, FormatError> {
        let index = Index::open(bytes)?;
        let fail = |why: &str| Err(FormatError(why.to_owned()));
        // Ends never decrease and documents are in range: reads below cannot fail.
        let mut last = (0, 0);
        for i in 1..=index.terms {
            let now = (index.term_end(i), index.posting_end(i));
            if now.0 < last.0 || now.1 < last.1 {
                return fail("table ends decrease");
            }
            last = now;
        }
        for slot in 0..index.slots {
            if index.slot(slot) > index.terms {
                return fail("a term slot names a term out of range");
            }
        }
        for p in 0..index.posting_end(index.terms) {
            if u32_at(bytes, index.postings_start + p * POSTING) as usize >= index.docs {
                return fail("a posting names a document out of range");
            }
        }
        if std::str::from_utf8(&bytes[index.text_start..]).is_err() {
            return fail("terms are not UTF-8");
        }
        Ok(index)
    }

    /// The header and the tables' total sizes only, in constant time: for bytes that
    /// [`Index::new`] accepted before (a catalog checks its index once). Reads stay
    /// bounds-checked either way; unchecked bytes can only give wrong results.
    ///
    /// # Errors
    /// Another format or version, a language this build does not have or analyses
    /// otherwise than the index was built (its analysis hash differs: the index must
    /// be built again), or tables that do not add up to the bytes.
    pub fn open(bytes: &'a [u8]) -> Result<Index<'a>, FormatError> {
        let fail = |why: &str| Err(FormatError(why.to_owned()));
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return fail("no TWSI header");
        }
        if u32_at(bytes, 4) != VERSION {
            return fail("written by another version");
        }
        let techniques = Techniques(u32_at(bytes, 8));
        let docs = u32_at(bytes, 12) as usize;
        let terms = u32_at(bytes, 16) as usize;
        let scale = f32::from_bits(u32_at(bytes, 20));
        let slots = u32_at(bytes, 24) as usize;
        let language = language_of(&bytes[28..40])?;
        if !slots.is_power_of_two() {
            return fail("the term slots are not a power of two");
        }
        let tables = terms
            .checked_mul(8)
            .zip(slots.checked_mul(4))
            .and_then(|(ends, slots)| ends.checked_add(slots))
            .and_then(|t| t.checked_add(HEADER));
        let Some(postings_start) = tables.filter(|end| *end <= bytes.len()) else {
            return fail("truncated term tables");
        };
        let index = Index {
            bytes,
            techniques,
            language,
            docs,
            terms,
            scale,
            slots,
            postings_start,
            text_start: 0,
        };
        let postings = index.posting_end(terms);
        let Some(text_start) = postings
            .checked_mul(POSTING)
            .and_then(|p| p.checked_add(postings_start))
        else {
            return fail("posting table overflows");
        };
        let index = Index {
            text_start,
            ..index
        };
        if text_start > bytes.len() || text_start + index.term_end(terms) != bytes.len() {
            return fail("tables do not add up to the bytes");
        }
        Ok(index)
    }

    /// How the documents were analysed (queries are analysed the same way).
    pub fn techniques(&self) -> Techniques {
        self.techniques
    }

    /// The language the documents were analysed in.
    pub fn language(&self) -> &'static Language {
        self.language
    }

    /// Documents (tools) indexed.
    pub fn len(&self) -> usize {
        self.docs
    }

    pub fn is_empty(&self) -> bool {
        self.docs == 0
    }

    /// Distinct terms.
    pub fn terms(&self) -> usize {
        self.terms
    }

    /// End of term `i - 1`'s text (0 for `i == 0`).
    fn term_end(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            u32_at(self.bytes, HEADER + (i - 1) * 4) as usize
        }
    }

    fn posting_end(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            u32_at(self.bytes, HEADER + self.terms * 4 + (i - 1) * 4) as usize
        }
    }

    fn term(&self, i: usize) -> &'a [u8] {
        let (start, end) = (self.term_end(i), self.term_end(i + 1));
        self.bytes
            .get(self.text_start + start..self.text_start + end)
            .unwrap_or_default()
    }

    /// The text of the term at position `i` ([`Index::find`]).
    pub(super) fn term_text(&self, i: usize) -> Option<&'a str> {
        std::str::from_utf8(self.term(i)).ok()
    }

    /// How many documents hold `term` (0 when none).
    pub fn document_frequency(&self, term: &str) -> usize {
        self.find(term)
            .map_or(0, |i| self.posting_end(i + 1) - self.posting_end(i))
    }

    /// The entry of term slot `i`: a term's position + 1, or 0.
    fn slot(&self, i: usize) -> usize {
        u32_at(self.bytes, HEADER + self.terms * 8 + i * 4) as usize
    }

    /// The position of `term` in the sorted terms, by its hash (the same for the same
    /// term: a number to tell terms apart by). Ends after at most one look at every
    /// slot, whatever the bytes hold.
    pub(super) fn find(&self, term: &str) -> Option<usize> {
        let needle = term.as_bytes();
        for at in probes(needle, self.slots) {
            // An entry past the terms (only in bytes `Index::new` refused) is no term.
            let i = self.slot(at).checked_sub(1).filter(|i| *i < self.terms)?;
            if self.term(i) == needle {
                return Some(i);
            }
        }
        None
    }

    /// The term, longer than `prefix` and beginning with it, that the most documents
    /// hold (ties: the first in order); `None` for a prefix under two letters.
    pub(super) fn commonest_with_prefix(&self, prefix: &str) -> Option<&'a str> {
        if prefix.len() < 2 {
            return None;
        }
        let mut best: Option<(&'a [u8], usize)> = None;
        for (term, df) in self.with_prefix(prefix.as_bytes()) {
            if term.len() > prefix.len() && best.is_none_or(|(_, d)| df > d) {
                best = Some((term, df));
            }
        }
        best.and_then(|(term, _)| std::str::from_utf8(term).ok())
    }

    /// Every term beginning with `prefix`, in order, with how many documents hold it.
    pub(super) fn with_prefix(&self, prefix: &[u8]) -> impl Iterator<Item = (&'a [u8], usize)> {
        let (mut lo, mut hi) = (0, self.terms);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.term(mid) < prefix {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.terms)
            .map(|i| (self.term(i), self.posting_end(i + 1) - self.posting_end(i)))
            .take_while(move |(term, _)| term.starts_with(prefix))
    }

    /// A term's postings as (document, impact).
    pub(super) fn postings(&self, term: &str) -> Option<impl Iterator<Item = (u32, f32)> + 'a> {
        Some(self.postings_of(self.find(term)?))
    }

    /// The postings of the term at position `i` ([`Index::find`]) as (document,
    /// impact).
    pub(super) fn postings_of(&self, i: usize) -> impl Iterator<Item = (u32, f32)> + 'a {
        let list = self.list_at(i);
        list.records.chunks_exact(POSTING).map(move |p| {
            let doc = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            (doc, f32::from(u16::from_le_bytes([p[4], p[5]])) * list.unit)
        })
    }

    /// A term's postings for random access ([`PostingList::impact`]).
    pub(super) fn posting_list(&self, term: &str) -> Option<PostingList<'a>> {
        Some(self.list_at(self.find(term)?))
    }

    fn list_at(&self, i: usize) -> PostingList<'a> {
        let (start, end) = (self.posting_end(i), self.posting_end(i + 1));
        let base = self.postings_start;
        // One bounds check for the whole list (checked in `new`), then fixed-size records.
        let records = self
            .bytes
            .get(base + start * POSTING..base + end * POSTING)
            .unwrap_or_default();
        PostingList {
            records,
            unit: self.scale / f32::from(u16::MAX),
        }
    }
}

/// 32-bit FNV-1a: small, fixed (the index is written once and read everywhere), and
/// spreads the short terms of a catalog well enough for probes of one or two.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash: u32, b| {
        (hash ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

/// The slots a term may sit in, in the order the writer fills them and the reader
/// looks (linear probing from its hash): each of the `slots` (a power of two) once.
fn probes(term: &[u8], slots: usize) -> impl Iterator<Item = usize> {
    let first = fnv1a(term) as usize;
    (0..slots).map(move |step| (first + step) & (slots - 1))
}

/// Term slots for `terms` terms: a power of two, at most half full.
fn slots_for(terms: usize) -> usize {
    (terms * 2).next_power_of_two()
}

/// One term's postings, in document order as the builder writes them.
#[derive(Clone, Copy)]
pub(super) struct PostingList<'a> {
    records: &'a [u8],
    unit: f32,
}

impl PostingList<'_> {
    /// How many documents hold the term.
    pub(super) fn len(&self) -> usize {
        self.records.len() / POSTING
    }

    /// The term's impact in `doc`, by binary search (`None`: not there). An index
    /// whose lists are out of order (never one the builder wrote) answers wrongly,
    /// never by panicking.
    pub(super) fn impact(&self, doc: u32) -> Option<f32> {
        let record = |i: usize| &self.records[i * POSTING..(i + 1) * POSTING];
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let p = record(mid);
            let at = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            match at.cmp(&doc) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    return Some(f32::from(u16::from_le_bytes([p[4], p[5]])) * self.unit);
                }
            }
        }
        None
    }
}

/// Writes the index: `terms` sorted, each with its (document, impact) postings.
pub(super) fn write(
    techniques: Techniques,
    language: &Language,
    docs: usize,
    terms: &[(&str, Vec<(u32, f32)>)],
    max_impact: f32,
) -> Vec<u8> {
    let scale = if max_impact > 0.0 { max_impact } else { 1.0 };
    let postings: usize = terms.iter().map(|(_, p)| p.len()).sum();
    let text: usize = terms.iter().map(|(t, _)| t.len()).sum();
    let slots = slots_for(terms.len());
    let mut out =
        Vec::with_capacity(HEADER + terms.len() * 8 + slots * 4 + postings * POSTING + text);
    out.extend_from_slice(MAGIC);
    for word in [
        VERSION,
        techniques.0,
        docs as u32,
        terms.len() as u32,
        scale.to_bits(),
        slots as u32,
    ] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    let mut code = [0u8; 4];
    code[..language.code().len()].copy_from_slice(language.code().as_bytes());
    out.extend_from_slice(&code);
    out.extend_from_slice(&language.analysis_hash().to_le_bytes());
    let mut end = 0u32;
    for (term, _) in terms {
        end += term.len() as u32;
        out.extend_from_slice(&end.to_le_bytes());
    }
    let mut end = 0u32;
    for (_, list) in terms {
        end += list.len() as u32;
        out.extend_from_slice(&end.to_le_bytes());
    }
    let mut table = vec![0u32; slots];
    for (i, (term, _)) in terms.iter().enumerate() {
        // At most half full: a free slot is always there.
        if let Some(at) = probes(term.as_bytes(), slots).find(|at| table[*at] == 0) {
            table[at] = i as u32 + 1;
        }
    }
    for entry in table {
        out.extend_from_slice(&entry.to_le_bytes());
    }
    for (_, list) in terms {
        for (doc, impact) in list {
            out.extend_from_slice(&doc.to_le_bytes());
            // At least 1: a posting that exists always counts.
            let q = ((impact / scale) * f32::from(u16::MAX))
                .round()
                .clamp(1.0, 65535.0) as u16;
            out.extend_from_slice(&q.to_le_bytes());
        }
    }
    for (term, _) in terms {
        out.extend_from_slice(term.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_are_refused_not_misread() {
        assert!(Index::new(b"").is_err());
        assert!(Index::new(b"TWSI\x02\0\0\0").is_err());
        let good = write(
            Techniques::DEFAULT,
            &crate::search::ENGLISH,
            2,
            &[("a", vec![(0, 1.0)]), ("b", vec![(1, 0.5)])],
            1.0,
        );
        assert!(Index::new(&good).is_ok());
        for cut in 0..good.len() {
            assert!(Index::new(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut out_of_range = good.clone();
        let posting = HEADER + 2 * 8 + slots_for(2) * 4;
        out_of_range[posting] = 9;
        assert!(Index::new(&out_of_range).is_err());
        let mut bad_slot = good.clone();
        bad_slot[HEADER + 2 * 8] = 7;
        assert!(Index::new(&bad_slot).is_err());
    }

    #[test]
    fn an_index_of_another_analysis_is_refused_with_a_reason() {
        let good = write(
            Techniques::DEFAULT,
            &crate::search::ENGLISH,
            1,
            &[("a", vec![(0, 1.0)])],
            1.0,
        );
        let index = Index::new(&good).unwrap();
        assert_eq!(index.language().code(), "en");
        // Another analysis hash: built with other tables, not to be read with these.
        let mut other_hash = good.clone();
        other_hash[32] ^= 1;
        let error = Index::open(&other_hash).unwrap_err().to_string();
        assert!(
            error.contains("another analysis of `en`") && error.contains("build the index again"),
            "{error}"
        );
        // A language this build does not have.
        let mut other_language = good.clone();
        other_language[28..30].copy_from_slice(b"xx");
        let error = Index::new(&other_language).unwrap_err().to_string();
        assert!(error.contains("language `xx`"), "{error}");
        // The version before the language was recorded is another version.
        let mut old = good;
        old[4] = 2;
        assert!(Index::open(&old).is_err());
    }

    #[test]
    fn every_term_is_found_by_its_hash_and_no_other() {
        let names: Vec<String> = (0..300).map(|i| format!("term{i}")).collect();
        let mut sorted: Vec<&str> = names.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        let terms: Vec<(&str, Vec<(u32, f32)>)> =
            sorted.iter().map(|t| (*t, vec![(0, 1.0)])).collect();
        let bytes = write(Techniques::DEFAULT, &crate::search::ENGLISH, 1, &terms, 1.0);
        let index = Index::new(&bytes).unwrap();
        for (i, term) in sorted.iter().enumerate() {
            assert_eq!(index.find(term), Some(i), "{term}");
        }
        for absent in ["term", "term300", "", "x"] {
            assert_eq!(index.find(absent), None, "{absent}");
        }
        let empty = write(Techniques::DEFAULT, &crate::search::ENGLISH, 0, &[], 1.0);
        assert_eq!(Index::new(&empty).unwrap().find("a"), None);
    }
}
