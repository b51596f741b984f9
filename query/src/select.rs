//! The selector syntax: which tools of a catalog to generate, serve or export.
//!
//! ```text
//! api:NAME        the API (adapter name, OpenAPI-derived name); globs allowed
//! tag:NAME        an OpenAPI tag or adapter tag (case-insensitive); globs allowed;
//!                 with OpenAPI 3.2's nested tags, `tag:parent/child` names a tag by its
//!                 place, and `tag:parent` also selects everything tagged under it
//! path:/prefix    the path template starts with these segments (`path:/repos` matches
//!                 `/repos/{owner}/{repo}`, not `/repositories`)
//! op:GLOB         the tool name or the source's operation id (`*` and `?`)
//! method:GET      the HTTP method
//! group:read      the CRUDE group: create, read, update, delete, execute
//! read-only       tools annotated read-only (`readOnlyHint`)
//! destructive     tools annotated destructive
//! ```
//!
//! A value may list alternatives with `,` (`method:PUT,PATCH`); `+` joins selectors that
//! must all match (`tag:issues+read-only`). In a [`Selection`], a tool is kept when it
//! matches one of the includes (or there are none) and none of the excludes.

use std::fmt;

/// What a selector needs to know about one tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts<'a> {
    pub name: &'a str,
    pub api: &'a str,
    /// The source's operation id, when it has one distinct from the name.
    pub operation_id: Option<&'a str>,
    pub tags: &'a [&'a str],
    /// Each tag's place in an OpenAPI 3.2 tag hierarchy, `parent/child` (empty without
    /// one): what `tag:parent` and `tag:parent/child` match besides the tags.
    pub tag_paths: &'a [&'a str],
    pub path: &'a str,
    /// Upper-case HTTP method.
    pub method: &'a str,
    /// CRUDE group, lower-case.
    pub group: &'a str,
    pub read_only: bool,
    pub destructive: bool,
}

/// One parsed selector: alternatives of one kind, or a conjunction of selectors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Api(Vec<String>),
    Tag(Vec<String>),
    Path(Vec<String>),
    Op(Vec<String>),
    Method(Vec<String>),
    Group(Vec<String>),
    ReadOnly,
    Destructive,
    /// Every part must match (`a+b`).
    All(Vec<Selector>),
}

/// A selector that does not parse: what is wrong and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub selector: String,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "selector `{}`: {}", self.selector, self.message)
    }
}

impl std::error::Error for ParseError {}

/// The kinds a selector may name, for error messages.
pub const KINDS: &str =
    "api:NAME, tag:NAME, path:/prefix, op:GLOB, method:GET, group:read, read-only, destructive";

const GROUPS: [&str; 5] = ["create", "read", "update", "delete", "execute"];
const METHODS: [&str; 8] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "QUERY",
];

impl Selector {
    /// Parses one selector.
    ///
    /// # Errors
    /// An unknown kind, an empty value, an unknown method or group, a path without a
    /// leading `/`.
    pub fn parse(text: &str) -> Result<Selector, ParseError> {
        let fail = |message: String| ParseError {
            selector: text.to_owned(),
            message,
        };
        let text = text.trim();
        if text.contains('+') {
            let parts = text
                .split('+')
                .map(|p| {
                    if p.trim().is_empty() {
                        Err(fail("an empty part around `+`".into()))
                    } else {
                        Selector::parse(p).map_err(|e| fail(e.message))
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Selector::All(parts));
        }
        match text {
            "read-only" | "readonly" | "read_only" => return Ok(Selector::ReadOnly),
            "destructive" => return Ok(Selector::Destructive),
            _ => {}
        }
        let Some((kind, value)) = text.split_once(':') else {
            return Err(fail(format!("expected KIND:VALUE, one of {KINDS}")));
        };
        let values: Vec<String> = value
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect();
        if values.is_empty() {
            return Err(fail(format!("`{kind}:` needs a value")));
        }
        Ok(match kind.trim() {
            "api" => Selector::Api(values),
            "tag" => Selector::Tag(values),
            "op" | "name" | "tool" => Selector::Op(values),
            "path" => {
                if let Some(bad) = values.iter().find(|v| !v.starts_with('/')) {
                    return Err(fail(format!(
                        "a path prefix starts with `/` (`path:/{bad}`?)"
                    )));
                }
                Selector::Path(values)
            }
            "method" => {
                let upper: Vec<String> = values.iter().map(|v| v.to_ascii_uppercase()).collect();
                // Besides the usual ones, an OpenAPI 3.2 `additionalOperations` method
                // (`LINK`, `COPY`): any name that can go on a request line.
                if let Some(bad) = upper
                    .iter()
                    .find(|v| !METHODS.contains(&v.as_str()) && !crate::method::is_token(v))
                {
                    return Err(fail(format!(
                        "`{bad}` is no HTTP method; one of {} or another method token",
                        METHODS.join(", ")
                    )));
                }
                Selector::Method(upper)
            }
            "group" | "crude" => {
                let lower: Vec<String> = values.iter().map(|v| v.to_ascii_lowercase()).collect();
                if let Some(bad) = lower.iter().find(|v| !GROUPS.contains(&v.as_str())) {
                    return Err(fail(format!(
                        "unknown group `{bad}`; one of {}",
                        GROUPS.join(", ")
                    )));
                }
                Selector::Group(lower)
            }
            other => {
                return Err(fail(format!("unknown kind `{other}`; one of {KINDS}")));
            }
        })
    }

    /// Whether the tool these facts describe matches.
    pub fn matches(&self, facts: &Facts<'_>) -> bool {
        match self {
            Selector::Api(globs) => globs.iter().any(|g| glob(g, facts.api, false)),
            Selector::Tag(globs) => globs.iter().any(|g| {
                facts.tags.iter().any(|t| glob(g, t, true))
                    || facts.tag_paths.iter().any(|p| under(g, p))
            }),
            Selector::Path(prefixes) => prefixes.iter().any(|p| path_prefix(p, facts.path)),
            Selector::Op(globs) => globs.iter().any(|g| {
                glob(g, facts.name, false)
                    || facts.operation_id.is_some_and(|id| glob(g, id, false))
            }),
            Selector::Method(methods) => methods.iter().any(|m| m == facts.method),
            Selector::Group(groups) => groups.iter().any(|g| g == facts.group),
            Selector::ReadOnly => facts.read_only,
            Selector::Destructive => facts.destructive,
            Selector::All(parts) => parts.iter().all(|p| p.matches(facts)),
        }
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, values) = match self {
            Selector::Api(v) => ("api", v),
            Selector::Tag(v) => ("tag", v),
            Selector::Path(v) => ("path", v),
            Selector::Op(v) => ("op", v),
            Selector::Method(v) => ("method", v),
            Selector::Group(v) => ("group", v),
            Selector::ReadOnly => return f.write_str("read-only"),
            Selector::Destructive => return f.write_str("destructive"),
            Selector::All(parts) => {
                let parts: Vec<String> = parts.iter().map(ToString::to_string).collect();
                return f.write_str(&parts.join("+"));
            }
        };
        write!(f, "{kind}:{}", values.join(","))
    }
}

impl std::str::FromStr for Selector {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Selector::parse(text)
    }
}

/// Includes and excludes: the tools to keep.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub include: Vec<Selector>,
    pub exclude: Vec<Selector>,
}

impl Selection {
    /// Everything.
    pub fn all() -> Selection {
        Selection::default()
    }

    /// Parses includes and excludes at once, reporting every bad selector.
    ///
    /// # Errors
    /// Every selector that does not parse.
    pub fn parse<I, E>(include: I, exclude: E) -> Result<Selection, Vec<ParseError>>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
        E: IntoIterator,
        E::Item: AsRef<str>,
    {
        let mut errors = Vec::new();
        let mut parse_all = |items: Vec<String>| -> Vec<Selector> {
            items
                .iter()
                .filter_map(|s| Selector::parse(s).map_err(|e| errors.push(e)).ok())
                .collect()
        };
        let include = parse_all(include.into_iter().map(|s| s.as_ref().to_owned()).collect());
        let exclude = parse_all(exclude.into_iter().map(|s| s.as_ref().to_owned()).collect());
        if errors.is_empty() {
            Ok(Selection { include, exclude })
        } else {
            Err(errors)
        }
    }

    /// Adds an include.
    pub fn include(mut self, selector: Selector) -> Selection {
        self.include.push(selector);
        self
    }

    /// Adds an exclude.
    pub fn exclude(mut self, selector: Selector) -> Selection {
        self.exclude.push(selector);
        self
    }

    /// No includes and no excludes: every tool is kept.
    pub fn is_all(&self) -> bool {
        self.include.is_empty() && self.exclude.is_empty()
    }

    /// Whether the tool is kept.
    pub fn keeps(&self, facts: &Facts<'_>) -> bool {
        (self.include.is_empty() || self.include.iter().any(|s| s.matches(facts)))
            && !self.exclude.iter().any(|s| s.matches(facts))
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self
            .include
            .iter()
            .map(|s| format!("--include {s}"))
            .collect();
        parts.extend(self.exclude.iter().map(|s| format!("--exclude {s}")));
        f.write_str(&parts.join(" "))
    }
}

/// `prefix` as whole leading segments of `path` (`/repos` matches `/repos` and
/// `/repos/{owner}`, not `/repositories`).
fn path_prefix(prefix: &str, path: &str) -> bool {
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() {
        return true;
    }
    path.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether the tag path `path` (`products/cakes`) is `pattern` or lies under it
/// (`products`, `products/*`, `prod*`): a parent selects its whole subtree.
fn under(pattern: &str, path: &str) -> bool {
    let mut end = path.len();
    loop {
        if glob(pattern, &path[..end], true) {
            return true;
        }
        match path[..end].rfind('/') {
            Some(slash) => end = slash,
            None => return false,
        }
    }
}

/// Shell-style glob: `*` any run of characters, `?` one character.
fn glob(pattern: &str, text: &str, fold_case: bool) -> bool {
    let fold = |s: &str| -> Vec<char> {
        if fold_case {
            s.to_lowercase().chars().collect()
        } else {
            s.chars().collect()
        }
    };
    let (p, t) = (fold(pattern), fold(text));
    // Iterative matching with one backtrack point: linear in practice, never exponential.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts<'static> {
        Facts {
            name: "issues_create",
            api: "github",
            operation_id: Some("issues/create"),
            tags: &["issues"],
            tag_paths: &["tracker/issues"],
            path: "/repos/{owner}/{repo}/issues",
            method: "POST",
            group: "create",
            read_only: false,
            destructive: false,
        }
    }

    #[test]
    fn each_kind_matches_its_fact() {
        let f = facts();
        for (text, expected) in [
            ("api:github", true),
            ("api:git*", true),
            ("api:stripe", false),
            ("tag:Issues", true),
            ("tag:pulls", false),
            ("tag:tracker/issues", true),
            ("tag:tracker", true),
            ("tag:Tracker/*", true),
            ("tag:track", false),
            ("tag:tracker/pulls", false),
            ("tag:issues/tracker", false),
            ("path:/repos", true),
            ("path:/repos/", true),
            ("path:/rep", false),
            ("path:/", true),
            ("op:issues_*", true),
            ("op:issues/create", true),
            ("op:*delete*", false),
            ("method:post", true),
            ("method:GET,POST", true),
            ("method:GET", false),
            ("method:QUERY,LINK", false),
            ("group:create", true),
            ("group:read", false),
            ("read-only", false),
            ("destructive", false),
            ("tag:issues+method:POST", true),
            ("tag:issues+read-only", false),
        ] {
            let selector = Selector::parse(text).unwrap();
            assert_eq!(selector.matches(&f), expected, "{text}");
        }
    }

    #[test]
    fn bad_selectors_say_what_is_accepted() {
        for (text, needle) in [
            ("color:red", "unknown kind `color`"),
            ("tag:", "needs a value"),
            ("method:GET /", "`GET /` is no HTTP method"),
            ("group:list", "unknown group `list`"),
            ("path:repos", "starts with `/`"),
            ("issues", "expected KIND:VALUE"),
            ("tag:a+", "empty part"),
        ] {
            let e = Selector::parse(text).unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn selection_keeps_includes_minus_excludes() {
        let f = facts();
        let s = Selection::parse(["tag:issues"], ["method:POST"]).unwrap();
        assert!(!s.keeps(&f));
        let s = Selection::parse(["tag:pulls", "op:issues_*"], Vec::<String>::new()).unwrap();
        assert!(s.keeps(&f));
        assert!(Selection::all().keeps(&f));
        let errors = Selection::parse(["x:y", "tag:ok"], ["method:NO PE"]).unwrap_err();
        assert_eq!(errors.len(), 2);
    }

    #[test]
    fn selectors_print_as_parsed() {
        for text in ["tag:a,b", "read-only", "path:/x+method:GET"] {
            assert_eq!(Selector::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn glob_backtracks_without_blowing_up() {
        assert!(glob("*a*b*c", "xxaxxbxxc", false));
        assert!(!glob("*a*b*c", "xxaxxbxx", false));
        let long = "a".repeat(10_000);
        assert!(!glob("*a*a*a*a*b", &long, false));
    }
}
