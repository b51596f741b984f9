//! Splits an adapter file into its YAML front matter and its Markdown body.

use std::ops::Range;

/// The parts of an adapter file, as byte ranges of the file text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parts {
    /// The YAML between the `---` fences.
    pub yaml: Range<usize>,
    /// 1-based line of the first YAML line in the file.
    pub yaml_first_line: usize,
    /// The Markdown after the closing fence.
    pub body: Range<usize>,
}

/// Why the file has no usable front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontMatterError {
    /// The file does not start with a `---` line.
    Missing,
    /// The opening `---` (at this byte range) has no closing fence.
    Unclosed(Range<usize>),
}

/// Finds the front matter: a `---` line at the very top (after an optional BOM), closed
/// by a line that is `---` or `...`.
pub fn split(text: &str) -> Result<Parts, FrontMatterError> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lines = LineIter { text, pos: start };
    let Some(first) = lines.next() else {
        return Err(FrontMatterError::Missing);
    };
    if text[first.range()].trim_end() != "---" {
        return Err(FrontMatterError::Missing);
    }
    let yaml_start = first.end_with_newline;
    for line in lines.by_ref() {
        let content = text[line.range()].trim_end();
        if content == "---" || content == "..." {
            return Ok(Parts {
                yaml: yaml_start..line.start,
                yaml_first_line: 2,
                body: line.end_with_newline..text.len(),
            });
        }
    }
    Err(FrontMatterError::Unclosed(first.start..first.end))
}

struct Line {
    start: usize,
    end: usize,
    end_with_newline: usize,
}

impl Line {
    fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

struct LineIter<'a> {
    text: &'a str,
    pos: usize,
}

impl Iterator for LineIter<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let (end, next) = match self.text[start..].find('\n') {
            Some(i) => (start + i, start + i + 1),
            None => (self.text.len(), self.text.len()),
        };
        self.pos = next;
        Some(Line {
            start,
            end,
            end_with_newline: next,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_yaml_and_body() {
        let text = "---\nname: a\n---\n# Title\n";
        let parts = split(text).unwrap();
        assert_eq!(&text[parts.yaml], "name: a\n");
        assert_eq!(&text[parts.body], "# Title\n");
    }

    #[test]
    fn reports_missing_and_unclosed() {
        assert_eq!(split("# just markdown"), Err(FrontMatterError::Missing));
        assert_eq!(
            split("---\nname: a\n"),
            Err(FrontMatterError::Unclosed(0..3))
        );
    }
}
