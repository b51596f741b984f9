//! Findings of a run: severity, stable code, `file:line:col`, the source line with a
//! caret, and a help line. Every stage pushes into one [`Diagnostics`] so that all
//! problems of a run are reported at once (serde_derive's `Ctxt` discipline).

mod render;

use std::ops::Range;
use std::sync::Arc;

pub use render::{render, render_with};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A source file held in memory so that findings can show its lines.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user gave it (shown in `--> path:line:col`).
    pub path: String,
    pub text: String,
    /// Byte offsets of line starts, computed when a finding first needs a position
    /// (a large specification with no findings never pays for it).
    line_starts: std::sync::OnceLock<Vec<usize>>,
    /// Per line, where its characters are: on an ASCII line a column is a byte count;
    /// on any other, every [`MARK`]th character's byte offset is kept, so a column is
    /// found by walking fewer than [`MARK`] characters. Mapping the spans of a YAML
    /// document on one 873 KB line walked the line's characters once per node (11.4 s).
    lines: std::sync::OnceLock<Vec<Line>>,
    /// Of a file whose text was let go ([`SourceFile::without_text`]): the line and
    /// column of each byte offset asked for before. Empty while the text is held.
    kept: std::collections::BTreeMap<usize, (usize, usize)>,
}

/// Every how many characters of a non-ASCII line a byte offset is kept.
const MARK: usize = 64;

/// How the characters of one line sit in its bytes.
#[derive(Debug)]
enum Line {
    Ascii,
    /// Byte offsets (from the line's start) of characters 0, [`MARK`], 2 × [`MARK`], ...
    Marks(Vec<usize>),
}

impl SourceFile {
    /// A file's text; a leading UTF-8 byte order mark is dropped (editors on Windows
    /// write one, and it is no part of the JSON or YAML).
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Arc<SourceFile> {
        let mut text: String = text.into();
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        Arc::new(SourceFile {
            path: path.into(),
            text,
            line_starts: std::sync::OnceLock::new(),
            lines: std::sync::OnceLock::new(),
            kept: std::collections::BTreeMap::new(),
        })
    }

    /// How line `index` (0-based) holds its characters; computed for every line at
    /// once, in one pass over the text.
    fn line(&self, index: usize) -> Option<&Line> {
        let lines = self.lines.get_or_init(|| {
            let starts = self.line_starts();
            (0..starts.len())
                .map(|i| {
                    let end = starts.get(i + 1).copied().unwrap_or(self.text.len());
                    let text = &self.text[starts[i]..end];
                    if text.is_ascii() {
                        Line::Ascii
                    } else {
                        Line::Marks(text.char_indices().step_by(MARK).map(|(b, _)| b).collect())
                    }
                })
                .collect()
        });
        lines.get(index)
    }

    /// The byte offset of character `chars` of the line starting at byte `start`
    /// (line `index`, ending at `end`), or `end` when the line is shorter.
    fn char_to_byte(&self, index: usize, start: usize, end: usize, chars: usize) -> usize {
        let (from, rest) = match self.line(index) {
            Some(Line::Ascii) => return (start + chars).min(end),
            Some(Line::Marks(marks)) => match marks.get(chars / MARK) {
                Some(&mark) => (start + mark, chars % MARK),
                None => return end,
            },
            None => (start, chars),
        };
        let text = &self.text[from..end];
        from + text.char_indices().nth(rest).map_or(text.len(), |(i, _)| i)
    }

    /// The number of characters between the start of line `index` (at byte `start`)
    /// and byte `byte` of it.
    fn byte_to_char(&self, index: usize, start: usize, byte: usize) -> usize {
        let (mark, from) = match self.line(index) {
            Some(Line::Ascii) => return byte - start,
            Some(Line::Marks(marks)) => {
                let k = marks
                    .partition_point(|&m| start + m <= byte)
                    .saturating_sub(1);
                (k * MARK, start + marks.get(k).copied().unwrap_or(0))
            }
            None => (0, start),
        };
        mark + self
            .text
            .get(from..byte)
            .map_or(byte - from, |s| s.chars().count())
    }

    /// Byte offset of the end of the line holding `byte` (its `\n`, or the text's end).
    pub fn line_end(&self, byte: usize) -> usize {
        let starts = self.line_starts();
        let next = starts.partition_point(|&s| s <= byte);
        starts.get(next).map_or(self.text.len(), |&s| s - 1)
    }

    /// The byte length of the first `chars` characters from `start` within its line
    /// (to the line's end if it has fewer), and that line's end.
    pub fn chars_in_line(&self, start: usize, chars: usize) -> (usize, usize) {
        let end = self.line_end(start).max(start);
        let line = self
            .line_starts()
            .partition_point(|&s| s <= start)
            .saturating_sub(1);
        let line_start = self.line_starts()[line];
        if !self.text.is_char_boundary(start) {
            // Not at a character: count from there as the text's own bytes say.
            let rest = self.text.get(start..end).unwrap_or_default();
            let len = rest
                .char_indices()
                .nth(chars)
                .map_or(rest.len(), |(i, _)| i);
            return (len, end);
        }
        let first = self.byte_to_char(line, line_start, start);
        let at = self.char_to_byte(line, line_start, end, first.saturating_add(chars));
        (at - start, end)
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(
                    self.text
                        .bytes()
                        .enumerate()
                        .filter(|(_, b)| *b == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect()
        })
    }

    /// This file without its text, still answering [`SourceFile::line_col`] (and so
    /// [`Location::display`]) for each of the byte offsets `kept`: what was read from a
    /// large document can say where its parts are once the text is let go (Microsoft
    /// Graph beta's is 47 MB). Everything else sees an empty text: its lines, excerpts
    /// and any other offset's position (line 1, column 1).
    pub fn without_text(&self, kept: impl IntoIterator<Item = usize>) -> Arc<SourceFile> {
        Arc::new(SourceFile {
            path: self.path.clone(),
            text: String::new(),
            line_starts: std::sync::OnceLock::new(),
            lines: std::sync::OnceLock::new(),
            kept: kept.into_iter().map(|b| (b, self.line_col(b))).collect(),
        })
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        if let Some(&kept) = self.kept.get(&byte) {
            return kept;
        }
        let byte = byte.min(self.text.len());
        let line_starts = self.line_starts();
        let line = line_starts.partition_point(|&s| s <= byte) - 1;
        let start = line_starts[line];
        let col = if self.text.is_char_boundary(byte) {
            self.byte_to_char(line, start, byte)
        } else {
            byte - start
        };
        (line + 1, col + 1)
    }

    /// The byte offset where the line holding `byte` starts.
    pub fn line_start(&self, byte: usize) -> usize {
        let starts = self.line_starts();
        starts[starts.partition_point(|&s| s <= byte.min(self.text.len())) - 1]
    }

    /// `span` clamped to the text and widened to whole characters: readers report byte
    /// positions that can fall inside a multi-byte character (`é`, an emoji), and
    /// slicing or rendering there would panic.
    pub fn char_span(&self, span: &Range<usize>) -> Range<usize> {
        let len = self.text.len();
        let mut start = span.start.min(len);
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = span.end.clamp(start, len);
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        start..end
    }

    /// Byte offset of a 1-based line and 1-based character column.
    pub fn offset(&self, line: usize, col: usize) -> usize {
        let index = line.saturating_sub(1);
        let Some(&start) = self.line_starts().get(index) else {
            return self.text.len();
        };
        // A column past the line's end (its `\n` is its last character) runs on into
        // the next lines, a character at a time, as the text goes.
        let end = self.line_end(start).max(start);
        let in_line = (end - start) + usize::from(end < self.text.len());
        let col = col.saturating_sub(1);
        let newline_chars =
            self.byte_to_char(index, start, end) + usize::from(end < self.text.len());
        if col < newline_chars {
            return self.char_to_byte(index, start, end, col);
        }
        let from = start + in_line;
        let rest = &self.text[from..];
        from + rest
            .char_indices()
            .nth(col - newline_chars)
            .map_or(rest.len(), |(i, _)| i)
    }
}

/// Where a finding points: a file and a byte range in it.
#[derive(Debug, Clone)]
pub struct Location {
    pub file: Arc<SourceFile>,
    pub span: Range<usize>,
}

impl Location {
    /// `path:line:col` of the start of the span.
    pub fn display(&self) -> String {
        let (line, col) = self.file.line_col(self.span.start);
        format!("{}:{line}:{col}", self.file.path)
    }
}

/// One finding.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code, e.g. `TW104`; see [`codes`].
    pub code: &'static str,
    pub message: String,
    pub location: Option<Location>,
    /// Short text under the caret.
    pub label: Option<String>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            location: None,
            label: None,
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub fn at(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The finding as JSON (see [`crate::Analysis::to_json`]); positions are 1-based,
    /// columns in characters.
    pub fn to_json(&self) -> serde_json::Value {
        let (file, start, end) = match &self.location {
            Some(loc) => {
                let span = loc.file.char_span(&loc.span);
                (
                    Some(loc.file.path.clone()),
                    Some(loc.file.line_col(span.start)),
                    Some(loc.file.line_col(span.end)),
                )
            }
            None => (None, None, None),
        };
        serde_json::json!({
            "code": self.code,
            "severity": match self.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            "file": file,
            "line": start.map(|p| p.0),
            "column": start.map(|p| p.1),
            "end_line": end.map(|p| p.0),
            "end_column": end.map(|p| p.1),
            "message": self.message,
            "label": self.label,
            "help": self.help,
        })
    }

    /// `(line, column)` of the finding, if it has a location.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.location
            .as_ref()
            .map(|l| l.file.line_col(l.span.start))
    }
}

/// The findings of one run.
#[derive(Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.items.push(diagnostic);
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    /// Strict mode: every warning becomes an error.
    pub fn promote_warnings(&mut self) {
        for d in &mut self.items {
            d.severity = Severity::Error;
        }
    }

    /// Findings in a stable order: by file, position, then code.
    pub fn sorted(mut self) -> Vec<Diagnostic> {
        self.items.sort_by(|a, b| {
            let key = |d: &Diagnostic| {
                d.location
                    .as_ref()
                    .map(|l| (l.file.path.clone(), l.span.start))
            };
            key(a).cmp(&key(b)).then(a.code.cmp(b.code))
        });
        self.items
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }
}

/// The known name `name` is most likely a misspelling of: within one edit for short
/// names, two for longer ones (`requried` → `required`, `maps_too` → `maps_to`), or
/// equal but for case.
pub fn did_you_mean<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let allowed = if name.chars().count() > 5 { 2 } else { 1 };
    known
        .iter()
        .map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance, with a swap of two neighbours counting as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// The stable codes. Each names one kind of problem; tests pin the rendered text.
pub mod codes {
    pub const YAML_SYNTAX: &str = "TW100";
    pub const FRONT_MATTER: &str = "TW101";
    pub const YAML_LIMIT: &str = "TW102";
    pub const MISSING_FIELD: &str = "TW103";
    pub const WRONG_TYPE: &str = "TW104";
    pub const UNKNOWN_FIELD: &str = "TW105";
    pub const NOT_AN_ADAPTER: &str = "TW106";
    pub const VERSION: &str = "TW107";
    pub const BASE_URL: &str = "TW108";
    pub const FILE_NAME: &str = "TW109";
    pub const NO_OPERATIONS: &str = "TW110";
    pub const UNKNOWN_GROUP: &str = "TW111";
    pub const MAPS_TO: &str = "TW112";
    pub const HTTP_METHOD: &str = "TW113";
    pub const PLACEHOLDER_WITHOUT_PARAM: &str = "TW114";
    pub const PARAM_WITHOUT_PLACEHOLDER: &str = "TW115";
    pub const DUPLICATE_OPERATION: &str = "TW116";
    pub const PARAM_TYPE: &str = "TW117";
    pub const REQUIRED_NOT_BOOL: &str = "TW118";
    pub const PAGINATION_STYLE: &str = "TW119";
    pub const LITERAL_CREDENTIAL: &str = "TW120";
    pub const AUTH: &str = "TW121";
    pub const NAME: &str = "TW122";
    pub const MISSING_DESCRIPTION: &str = "TW123";
    pub const VALUE_MISMATCH: &str = "TW124";
    pub const UNKNOWN_VALUE: &str = "TW125";
    pub const TARGET: &str = "TW126";
    pub const IO: &str = "TW128";
    pub const INPUT_SIZE: &str = "TW129";
    pub const OPENAPI_VERSION: &str = "TW130";
    pub const OPERATION_ID: &str = "TW131";
    pub const REFERENCE: &str = "TW132";
    pub const SCHEMA: &str = "TW133";
    pub const SERVER: &str = "TW134";
    pub const SECURITY: &str = "TW135";
    pub const UNSUPPORTED: &str = "TW136";
    pub const PLACEHOLDER: &str = "TW137";
    pub const DRIFT: &str = "TW140";
    pub const GRAPHQL_SYNTAX: &str = "TW141";
    pub const GRAPHQL_SCHEMA: &str = "TW142";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_on_a_long_non_ascii_line_count_characters() {
        let text: String = (0..3_000)
            .map(|i| if i % 7 == 0 { "é" } else { "ab" })
            .collect();
        let file = SourceFile::new("one.json", format!("{text}\nx"));
        for (byte, _) in file
            .text
            .char_indices()
            .step_by(97)
            .chain([(text.len(), '\n')])
        {
            let expected = file.text[..byte].chars().count() + 1;
            assert_eq!(file.line_col(byte), (1, expected), "at {byte}");
        }
        assert_eq!(file.line_col(text.len() + 1), (2, 1));
        assert_eq!(file.line_start(text.len() + 1), text.len() + 1);
        assert_eq!(file.line_start(5), 0);
    }

    #[test]
    fn near_misses_are_recognised() {
        let known = ["required", "maps_to", "description", "type", "tags"];
        assert_eq!(did_you_mean("requried", &known), Some("required"));
        assert_eq!(did_you_mean("maps_too", &known), Some("maps_to"));
        assert_eq!(did_you_mean("descripton", &known), Some("description"));
        assert_eq!(did_you_mean("Type", &known), Some("type"));
        assert_eq!(did_you_mean("author", &known), None);
        assert_eq!(did_you_mean("x-internal", &known), None);
    }

    /// Positions on lines of every kind (ASCII, multi-byte, longer than many marks,
    /// empty, the last without a newline) agree with walking the characters, which
    /// is what these did for every node before (F10 of issue #58).
    #[test]
    fn positions_agree_with_walking_the_characters() {
        let long: String = (0..500)
            .map(|i| if i % 3 == 0 { 'é' } else { 'a' })
            .collect();
        let text = format!("plain line\n{long}\n\nünï\n😀x{long}y");
        let file = SourceFile::new("t.yaml", text.clone());
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        for (index, &start) in starts.iter().enumerate() {
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let line_chars = text[start..end].chars().count();
            for col in 1..=line_chars + 3 {
                let walked = start
                    + text[start..]
                        .char_indices()
                        .nth(col - 1)
                        .map_or(text.len() - start, |(i, _)| i);
                assert_eq!(
                    file.offset(index + 1, col),
                    walked,
                    "line {index}, col {col}"
                );
            }
            for (at, _) in text[start..end].char_indices().map(|(i, c)| (start + i, c)) {
                let col = text[start..at].chars().count() + 1;
                assert_eq!(file.line_col(at), (index + 1, col), "byte {at}");
                for chars in [0, 1, 63, 64, 65, 700] {
                    let rest = &text[at..end];
                    let len = rest
                        .char_indices()
                        .nth(chars)
                        .map_or(rest.len(), |(i, _)| i);
                    assert_eq!(
                        file.chars_in_line(at, chars),
                        (len, end),
                        "byte {at} + {chars}"
                    );
                }
            }
        }
    }

    #[test]
    fn byte_order_marks_are_dropped() {
        let file = SourceFile::new("a.json", "\u{feff}{}");
        assert_eq!(file.text, "{}");
    }

    #[test]
    fn spans_inside_multibyte_characters_render() {
        // `é` is two bytes, the emoji four, U+2028 three: a reader's one-byte span
        // at any of their starts (or inside) must widen to the whole character.
        for text in ["é: x\n", "x: \"😀\"\n", "a\u{2028}b\n"] {
            let file = SourceFile::new("f.yaml", text);
            for start in 0..text.len() {
                let span = file.char_span(&(start..start + 1));
                assert!(
                    file.text.is_char_boundary(span.start) && file.text.is_char_boundary(span.end)
                );
                let d = Diagnostic::warning(codes::SCHEMA, "m").at(Location {
                    file: Arc::clone(&file),
                    span: start..start + 1,
                });
                assert!(render(&d).contains("f.yaml:1:"), "{text:?} at {start}");
            }
        }
    }

    #[test]
    fn findings_on_a_long_line_show_a_window_at_the_right_column() {
        // A minified document: one line of 200,000 characters, a multi-byte one
        // before the finding (columns count characters, not bytes).
        let text = format!("{{\"a\":\"é{}\",\"bad\":1}}", "x".repeat(200_000));
        let file = SourceFile::new("min.json", text.as_str());
        let at = text.find("\"bad\"").unwrap();
        let d = Diagnostic::warning(codes::SCHEMA, "m").at(Location {
            file: Arc::clone(&file),
            span: at..at + 5,
        });
        let shown = render(&d);
        assert!(shown.len() < 1_000, "{} bytes", shown.len());
        let column = text[..at].chars().count() + 1;
        assert!(shown.contains(&format!("min.json:1:{column}")), "{shown}");
        assert!(
            shown.contains("...") && shown.contains("\"bad\":1"),
            "{shown}"
        );
        let caret = shown.lines().find(|l| l.contains('^')).unwrap();
        let source = shown.lines().find(|l| l.contains("\"bad\"")).unwrap();
        assert_eq!(caret.find('^'), source.find("\"bad\""), "{shown}");
        // A window that starts a byte or two into the line (before its `...` would).
        let text = format!("{}{}", "y".repeat(62), "z".repeat(5_000));
        let file = SourceFile::new("near.json", text.as_str());
        for at in 58..66 {
            let d = Diagnostic::warning(codes::SCHEMA, "m").at(Location {
                file: Arc::clone(&file),
                span: at..at + 1,
            });
            assert!(render(&d).contains(&format!("near.json:1:{}", at + 1)));
        }
    }
}
