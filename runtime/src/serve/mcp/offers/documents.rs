//! Resources a server offers: documents at a fixed URI (`resources/list`) and
//! templates whose URI has variables (`resources/templates/list`), both read with
//! `resources/read`.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Value, json};

use super::BoxFuture;
use super::content::ResourceContents;

/// What a read is asked for: the URI, and for a template the values of its variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub uri: String,
    pub params: BTreeMap<String, String>,
}

pub(super) type Read =
    Arc<dyn Fn(Reading) -> BoxFuture<'static, Result<Vec<ResourceContents>, String>> + Send + Sync>;

fn reader<F, Fut>(read: F) -> Read
where
    F: Fn(Reading) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Vec<ResourceContents>, String>> + Send + 'static,
{
    Arc::new(move |reading| Box::pin(read(reading)))
}

/// A resource at one URI.
///
/// ```
/// use toolwright::serve::mcp::Document;
/// let guide = Document::text("docs://tracker", "tracker", "text/markdown", "# Tracker\n")
///     .description("How the tracker API is used");
/// ```
#[derive(Clone)]
pub struct Document {
    pub(super) uri: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    size: Option<usize>,
    /// Its contents never change (clients may cache them).
    pub(super) fixed: bool,
    /// The catalog tool reading it runs: only callers who see that tool see it.
    pub(super) tool: Option<String>,
    pub(super) read: Read,
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("uri", &self.uri)
            .finish_non_exhaustive()
    }
}

impl Document {
    /// A document whose text never changes.
    pub fn text(
        uri: impl Into<String>,
        name: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Document {
        let (uri, mime_type, text) = (uri.into(), mime_type.into(), text.into());
        let size = text.len();
        let contents = ResourceContents::text(uri.clone(), mime_type.clone(), text);
        Document::fixed(uri, name.into(), mime_type, size, contents)
    }

    /// A document whose bytes never change (sent base64-encoded).
    pub fn bytes(
        uri: impl Into<String>,
        name: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> Document {
        let (uri, mime_type, bytes) = (uri.into(), mime_type.into(), bytes.into());
        let size = bytes.len();
        let contents = ResourceContents::bytes(uri.clone(), mime_type.clone(), bytes);
        Document::fixed(uri, name.into(), mime_type, size, contents)
    }

    fn fixed(
        uri: String,
        name: String,
        mime_type: String,
        size: usize,
        contents: ResourceContents,
    ) -> Document {
        Document {
            uri,
            name,
            title: None,
            description: None,
            mime_type: Some(mime_type),
            size: Some(size),
            fixed: true,
            tool: None,
            read: reader(move |_| std::future::ready(Ok(vec![contents.clone()]))),
        }
    }

    /// A document read by `read` each time a client asks (an error is the
    /// `resources/read` error's message).
    pub fn read_with<F, Fut>(uri: impl Into<String>, name: impl Into<String>, read: F) -> Document
    where
        F: Fn(Reading) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<ResourceContents>, String>> + Send + 'static,
    {
        Document {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            fixed: false,
            tool: None,
            read: reader(read),
        }
    }

    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Its `resources/list` entry.
    pub(super) fn entry(&self) -> Value {
        let mut entry = json!({"uri": self.uri, "name": self.name});
        describe(&mut entry, &self.title, &self.description, &self.mime_type);
        if let Some(size) = self.size {
            entry["size"] = json!(size);
        }
        entry
    }
}

/// Resources whose URIs follow a template with variables (RFC 6570 simple expansion,
/// `test://items/{id}`): a variable stands for one path segment's worth of text.
#[derive(Clone)]
pub struct Template {
    template: String,
    parts: Vec<Part>,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    /// Variable → the values a client may complete it with.
    pub(super) values: BTreeMap<String, Vec<String>>,
    /// The catalog tool reading it runs: only callers who see that tool see it.
    pub(super) tool: Option<String>,
    pub(super) read: Read,
}

impl std::fmt::Debug for Template {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Template")
            .field("template", &self.template)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

impl Template {
    /// Resources at `uri_template`, read by `read` with the variables' values.
    pub fn new<F, Fut>(
        uri_template: impl Into<String>,
        name: impl Into<String>,
        read: F,
    ) -> Template
    where
        F: Fn(Reading) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<ResourceContents>, String>> + Send + 'static,
    {
        let template = uri_template.into();
        Template {
            parts: parse(&template),
            template,
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            values: BTreeMap::new(),
            tool: None,
            read: reader(read),
        }
    }

    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The values `completion/complete` offers for `variable`.
    pub fn complete<I, S>(mut self, variable: impl Into<String>, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.values.insert(
            variable.into(),
            values.into_iter().map(Into::into).collect(),
        );
        self
    }

    pub(super) fn template(&self) -> &str {
        &self.template
    }

    /// Its `resources/templates/list` entry.
    pub(super) fn entry(&self) -> Value {
        let mut entry = json!({"uriTemplate": self.template, "name": self.name});
        describe(&mut entry, &self.title, &self.description, &self.mime_type);
        entry
    }

    /// The variables' values when `uri` is one of this template's URIs.
    pub(super) fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut rest = uri;
        let mut params = BTreeMap::new();
        for (i, part) in self.parts.iter().enumerate() {
            match part {
                Part::Literal(text) => rest = rest.strip_prefix(text.as_str())?,
                Part::Variable(name) => {
                    // Up to the next literal (or the end), never across a `/`.
                    let end = match self.parts.get(i + 1) {
                        Some(Part::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let value = &rest[..end];
                    if value.is_empty() || value.contains('/') {
                        return None;
                    }
                    params.insert(name.clone(), crate::percent::decode(value));
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(params)
    }
}

fn describe(
    entry: &mut Value,
    title: &Option<String>,
    description: &Option<String>,
    mime_type: &Option<String>,
) {
    for (key, value) in [
        ("title", title),
        ("description", description),
        ("mimeType", mime_type),
    ] {
        if let Some(value) = value {
            entry[key] = json!(value);
        }
    }
}

/// Literals and `{variable}`s; a `{` with no `}` is literal text.
fn parse(template: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if open > 0 {
            parts.push(Part::Literal(rest[..open].to_owned()));
        }
        parts.push(Part::Variable(rest[open + 1..open + close].to_owned()));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Literal(rest.to_owned()));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(t: &str) -> Template {
        Template::new(t, "t", |_| async { Ok(vec![]) })
    }

    #[test]
    fn a_variable_takes_one_segment_and_is_decoded() {
        let t = template("test://template/{id}/data");
        let got = t.matches("test://template/123/data").unwrap();
        assert_eq!(got["id"], "123");
        assert_eq!(
            t.matches("test://template/a%20b/data").unwrap()["id"],
            "a b"
        );
        assert!(t.matches("test://template/1/2/data").is_none());
        assert!(t.matches("test://template//data").is_none());
        assert!(t.matches("test://template/1/data/more").is_none());
        let two = template("api://{owner}/{repo}");
        let got = two.matches("api://rust-lang/rust").unwrap();
        assert_eq!(
            (got["owner"].as_str(), got["repo"].as_str()),
            ("rust-lang", "rust")
        );
    }
}
