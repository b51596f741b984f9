//! What an operation without an `operationId` does, read from its method, path and
//! summary: a verb, the resource it acts on, and the parent resources that can scope
//! the name when two operations would otherwise share it.
//!
//! `GET /project/{username}/{project}/{build_num}/artifacts` lists artifacts (scoped:
//! a build's), `POST /builds/{id}/retry` retries a build, `GET /album.tracks.get`
//! lists an album's tracks.

use crate::contract::words::{SAME_IN_PLURAL, singular, snake};
use crate::ir::Method;

/// Verbs a path segment or a summary can name on top of the method's own
/// (`/builds/{id}/retry`, "Upload a file."). The create/read/update/delete words
/// are not here: the method says those better than a summary's synonym does.
const ACTIONS: &[&str] = &[
    "accept",
    "activate",
    "analyze",
    "approve",
    "archive",
    "assign",
    "attach",
    "authorize",
    "block",
    "calculate",
    "cancel",
    "check",
    "clone",
    "close",
    "complete",
    "confirm",
    "convert",
    "copy",
    "count",
    "deactivate",
    "decline",
    "deploy",
    "detach",
    "detect",
    "disable",
    "download",
    "enable",
    "execute",
    "export",
    "find",
    "follow",
    "fork",
    "generate",
    "import",
    "invite",
    "lock",
    "login",
    "logout",
    "mark",
    "merge",
    "move",
    "pause",
    "pin",
    "preview",
    "publish",
    "query",
    "rebuild",
    "redeploy",
    "refresh",
    "register",
    "reject",
    "rename",
    "reopen",
    "reset",
    "restart",
    "restore",
    "resume",
    "retry",
    "revoke",
    "rotate",
    "run",
    "scale",
    "schedule",
    "search",
    "send",
    "share",
    "start",
    "stop",
    "submit",
    "subscribe",
    "suspend",
    "sync",
    "test",
    "transfer",
    "translate",
    "trigger",
    "unarchive",
    "unassign",
    "unblock",
    "unfollow",
    "unlock",
    "unpin",
    "unpublish",
    "unsubscribe",
    "upgrade",
    "upload",
    "validate",
    "verify",
];

/// Verbs that only restate the method (`Gets …`, `Returns …`, `Removes …`): a
/// summary starting with one of these leaves the method's verb in place.
const METHOD_VERBS: &[&str] = &["get", "list", "create", "update", "delete"];

/// Path segments that name no resource: an `api` prefix, versions (`v2`, `3.1`).
fn is_noise(word: &str) -> bool {
    word == "api"
        || word == "rest"
        || word.chars().all(|c| c.is_ascii_digit() || c == '_')
        || (word.starts_with('v') && word[1..].chars().all(|c| c.is_ascii_digit() || c == '_'))
}

/// File extensions the last segment may carry (`/radiodns/spi/3.1/GI.xml`).
const EXTENSIONS: &[&str] = &[".json", ".xml", ".yaml", ".yml", ".csv", ".txt", ".html"];

/// Words that make a path parameter a key of the resource before it rather than a
/// resource of its own (`{build_num}` → build, `{commentId}` → comment).
const KEY_WORDS: &[&str] = &["id", "ids", "num", "number", "key", "uuid", "slug", "code"];

/// Whether a literal names a collection (`albums`, `releaseEventSeries`).
fn is_plural(words: &str) -> bool {
    let last = words.rsplit('_').next().unwrap_or(words);
    SAME_IN_PLURAL.contains(&last) || singular(words) != words
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    /// A literal segment's words in snake case (`album.tracks.get` → `album_tracks_get`),
    /// and the noun of a parameter written in it (`{entryType}-comments` → `entry_type`).
    Literal(String, Option<String>),
    /// A parameter's resource noun (`{build_num}` → `build`), if its name gives one.
    Param(Option<String>),
}

/// The parts of a derived name; [`Shape::candidates`] assembles them.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub verb: String,
    pub resource: String,
    /// Parent resources, nearest first (`artifacts` in a build of a project:
    /// `["build", "project"]`).
    pub parents: Vec<String>,
    /// What tells apart operations on one path (`/current?city_id={city_id}`,
    /// `/assetservers#name`): `by_city_id`.
    pub qualifier: Option<String>,
}

impl Shape {
    pub fn of(method: Method, path: &str, summary: Option<&str>) -> Shape {
        let (route, qualifier) = split_route(path);
        let segments = segments(route);
        let (mut verb, resource, before) = verb_and_resource(method, &segments);
        if let Some(said) = summary.and_then(summary_verb)
            && said != verb
        {
            verb = said;
        }
        let mut parents: Vec<String> = Vec::new();
        let mut taken: Vec<&str> = resource.split('_').collect();
        taken.push(&verb);
        let add = |noun: String, parents: &mut Vec<String>| {
            if !noun.split('_').all(|w| taken.contains(&w)) && !parents.contains(&noun) {
                parents.push(noun);
            }
        };
        // `/{entryType}-comments/{commentId}`: the comment is an entry type's.
        if let Some(Segment::Literal(_, Some(owner))) = segments.get(before) {
            add(owner.clone(), &mut parents);
        }
        for (i, segment) in segments[..before].iter().enumerate().rev() {
            match segment {
                Segment::Literal(words, owner) => {
                    add(singular(words), &mut parents);
                    if let Some(owner) = owner {
                        add(owner.clone(), &mut parents);
                    }
                }
                // `/albums/{id}`: the literal before already names it.
                Segment::Param(_) if i > 0 && matches!(segments[i - 1], Segment::Literal(..)) => {}
                Segment::Param(Some(noun)) => add(noun.clone(), &mut parents),
                Segment::Param(None) => {}
            }
        }
        // `GET /` gets the root; `GET /search` just searches.
        let resource = if resource.is_empty() && METHOD_VERBS.contains(&verb.as_str()) {
            "root".to_owned()
        } else {
            resource
        };
        Shape {
            verb,
            resource,
            parents,
            qualifier,
        }
    }

    /// The names to try, plainest first: verb and resource, then scoped by one more
    /// parent at a time, then with the qualifier. Each fits `limit` characters.
    pub fn candidates(&self, limit: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut push = |words: Vec<&str>| {
            let name = fit(&words, limit);
            if !out.contains(&name) {
                out.push(name);
            }
        };
        for depth in 0..=self.parents.len() {
            let mut words = vec![self.verb.as_str()];
            words.extend(self.parents[..depth].iter().rev().map(String::as_str));
            words.push(&self.resource);
            push(words);
        }
        if let Some(q) = &self.qualifier {
            for depth in 0..=self.parents.len() {
                let mut words = vec![self.verb.as_str()];
                words.extend(self.parents[..depth].iter().rev().map(String::as_str));
                words.push(&self.resource);
                words.push(q);
                push(words);
            }
        }
        out
    }
}

/// Words joined by `_`, dropping the outermost scope (the word after the verb) until
/// the name fits; a single word longer than the limit is cut.
fn fit(words: &[&str], limit: usize) -> String {
    let mut words: Vec<&str> = words.iter().copied().filter(|w| !w.is_empty()).collect();
    let mut name = words.join("_");
    while name.len() > limit && words.len() > 2 {
        words.remove(1);
        name = words.join("_");
    }
    if name.len() > limit {
        name.truncate(limit);
        name = name.trim_end_matches('_').to_owned();
    }
    name
}

/// The path without its query or fragment, and what those say (`?city_id={city_id}`
/// → `by_city_id`; `#name` → `by_name`).
fn split_route(path: &str) -> (&str, Option<String>) {
    let cut = path.find(['?', '#']).unwrap_or(path.len());
    let (route, rest) = path.split_at(cut);
    let keys: Vec<String> = rest
        .trim_start_matches(['?', '#'])
        .split('&')
        .map(|pair| snake(pair.split('=').next().unwrap_or("")))
        .filter(|k| !k.is_empty())
        .collect();
    let qualifier = (!keys.is_empty()).then(|| format!("by_{}", keys.join("_")));
    (route, qualifier)
}

fn segments(route: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    for raw in route.split('/').filter(|s| !s.is_empty()) {
        let mut raw = raw;
        for ext in EXTENSIONS {
            if raw.len() > ext.len() && raw.to_ascii_lowercase().ends_with(ext) {
                raw = &raw[..raw.len() - ext.len()];
            }
        }
        // `{entryType}-comments`: the literal part names the segment; `:id` is a
        // parameter written the Express way.
        let mut literal = String::new();
        let mut param = None;
        let mut rest = raw;
        while let Some(open) = rest.find('{') {
            literal.push_str(&rest[..open]);
            literal.push(' ');
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c);
            param.get_or_insert_with(|| rest[open + 1..close].to_owned());
            rest = rest.get(close + 1..).unwrap_or("");
        }
        literal.push_str(rest);
        if let Some(express) = literal.trim().strip_prefix(':') {
            param.get_or_insert_with(|| express.to_owned());
            literal.clear();
        }
        let words = snake(&literal.replace('.', "_"));
        if !words.is_empty() {
            if !is_noise(&words) {
                out.push(Segment::Literal(
                    words,
                    param.as_deref().and_then(param_noun),
                ));
            }
        } else if let Some(name) = param {
            out.push(Segment::Param(param_noun(&name)));
        }
    }
    out
}

/// `build_num` → `build`, `commentId` → `comment`, `id` → none, `address` → `address`.
fn param_noun(name: &str) -> Option<String> {
    let mut words: Vec<String> = snake(name).split('_').map(str::to_owned).collect();
    while words
        .last()
        .is_some_and(|w| KEY_WORDS.contains(&w.as_str()))
    {
        words.pop();
    }
    (!words.is_empty()).then(|| words.join("_"))
}

/// The noun a segment names as the resource acted on: a collection made singular
/// (`albums` → `album`), a parameter's noun or else the literal before it.
fn noun_at(segments: &[Segment], i: usize) -> (String, usize) {
    match &segments[i] {
        Segment::Literal(words, _) => (singular(words), i),
        Segment::Param(noun) => match i.checked_sub(1).map(|p| &segments[p]) {
            Some(Segment::Literal(words, _)) => (singular(words), i - 1),
            _ => match noun {
                Some(noun) => (noun.clone(), i),
                // `/emailhooks/{ownerId}/:id`: an emailhook, whoever owns it.
                None => segments[..i]
                    .iter()
                    .rposition(|s| matches!(s, Segment::Literal(..)))
                    .map_or((String::new(), i), |p| noun_at(segments, p)),
            },
        },
    }
}

/// The verb, the resource, and where the segments before the resource end.
fn verb_and_resource(method: Method, segments: &[Segment]) -> (String, String, usize) {
    let Some(last) = segments.len().checked_sub(1) else {
        return (
            method_verb(method, false, false).to_owned(),
            String::new(),
            0,
        );
    };
    match &segments[last] {
        Segment::Param(_) => {
            let (mut noun, mut start) = noun_at(segments, last);
            // `/tags/byName/{name}` gets a tag by name.
            if noun.starts_with("by_")
                && let Some(before) = start.checked_sub(1)
            {
                let (owner, at) = noun_at(segments, before);
                noun = join(&owner, &noun);
                start = at;
            }
            (method_verb(method, true, false).to_owned(), noun, start)
        }
        Segment::Literal(words, _) => {
            let parts: Vec<&str> = words.split('_').collect();
            let first = parts[0];
            let final_word = *parts.last().unwrap_or(&"");
            // `album.tracks.get`, `artist.search`: the verb comes last.
            if parts.len() > 1
                && (ACTIONS.contains(&final_word) || METHOD_VERBS.contains(&final_word))
            {
                let verb = normal_verb(method, final_word, &parts[..parts.len() - 1]);
                return (verb, parts[..parts.len() - 1].join("_"), last);
            }
            // `/builds/{id}/retry`, `/programs/search`, `/pet/findByStatus`.
            if ACTIONS.contains(&first) || (parts.len() == 1 && METHOD_VERBS.contains(&first)) {
                let rest = &parts[1..];
                let (noun, start) = match last.checked_sub(1) {
                    Some(p) => match &segments[p] {
                        // `/programs/search` searches programs: the collection as written.
                        Segment::Literal(w, _) => (w.clone(), p),
                        Segment::Param(_) => noun_at(segments, p),
                    },
                    None => (String::new(), last),
                };
                let resource = match rest.first() {
                    None => noun,
                    Some(&"by") => join(&noun, &rest.join("_")),
                    Some(_) => rest.join("_"),
                };
                return (first.to_owned(), resource, start);
            }
            let plural = is_plural(words);
            let verb = method_verb(method, false, plural);
            if plural {
                let resource = if verb == "create" {
                    singular(words)
                } else {
                    words.clone()
                };
                return (verb.to_owned(), resource, last);
            }
            // A singular segment belongs to what comes before it:
            // `/files/{id}/content` → `file_content`, `/forecast/daily` → `forecast_daily`.
            match last.checked_sub(1) {
                Some(p) => {
                    let (noun, start) = noun_at(segments, p);
                    (verb.to_owned(), join(&noun, words), start)
                }
                None => (verb.to_owned(), words.clone(), last),
            }
        }
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_owned(),
        (_, true) => a.to_owned(),
        _ if a == b || b.starts_with(&format!("{a}_")) => b.to_owned(),
        _ => format!("{a}_{b}"),
    }
}

/// `get` in `album.get`: a list when the resource is a collection.
fn normal_verb(method: Method, verb: &str, resource: &[&str]) -> String {
    match verb {
        "get" | "list" => {
            let plural = resource.last().is_some_and(|w| is_plural(w));
            if verb == "list" || (plural && method == Method::Get) {
                "list".to_owned()
            } else {
                "get".to_owned()
            }
        }
        other => other.to_owned(),
    }
}

fn method_verb(method: Method, item: bool, plural: bool) -> String {
    let verb = match method {
        Method::Get if !item && plural => "list",
        Method::Get => "get",
        Method::Post if item => "update",
        Method::Post => "create",
        Method::Put | Method::Patch => "update",
        Method::Delete => "delete",
        Method::Head => "check",
        Method::Options => "options",
        // `QUERY /cakes` searches; `LINK /cakes/{id}` links: the method is the verb.
        Method::Query => "query",
        Method::Other(name) => {
            return name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '_'
                    }
                })
                .collect();
        }
    };
    verb.to_owned()
}

/// The action a summary opens with ("Upload a file." → `upload`), after a prefix
/// such as `UNDER DEVELOPMENT -`. Words that restate the method give none.
fn summary_verb(summary: &str) -> Option<String> {
    summary
        .split([':', '-', '–'])
        .take(2)
        .find_map(|part| {
            let word = part.split_whitespace().next()?.to_ascii_lowercase();
            let word = word.trim_matches(|c: char| !c.is_ascii_alphabetic());
            [
                word,
                word.strip_suffix("es").unwrap_or(""),
                word.strip_suffix('s').unwrap_or(""),
            ]
            .into_iter()
            .find(|w| !w.is_empty() && ACTIONS.contains(w))
            .map(str::to_owned)
        })
        .filter(|w| !METHOD_VERBS.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(method: Method, path: &str, summary: Option<&str>) -> String {
        Shape::of(method, path, summary).candidates(64).remove(0)
    }

    fn all(method: Method, path: &str) -> Vec<String> {
        Shape::of(method, path, None).candidates(64)
    }

    #[test]
    fn names_say_the_verb_and_the_resource() {
        let cases = [
            (
                Method::Get,
                "/project/{username}/{project}/{build_num}/artifacts",
                "list_artifacts",
            ),
            (
                Method::Delete,
                "/project/{username}/{project}/checkout-key/{fingerprint}",
                "delete_checkout_key",
            ),
            (
                Method::Post,
                "/project/{username}/{project}/{build_num}/retry",
                "retry_build",
            ),
            (Method::Get, "/api/albums/{id}", "get_album"),
            (Method::Get, "/api/albums", "list_albums"),
            (Method::Post, "/api/albums", "create_album"),
            (
                Method::Post,
                "/api/albums/comments/{commentId}",
                "update_comment",
            ),
            (Method::Get, "/album.tracks.get", "list_album_tracks"),
            (Method::Get, "/track.get", "get_track"),
            (Method::Get, "/artist.search", "search_artist"),
            (Method::Get, "/chart.artists.get", "list_chart_artists"),
            (Method::Get, "/api/v2/programs/search", "search_programs"),
            (
                Method::Get,
                "/forecast/daily?city_id={city_id}",
                "get_forecast_daily",
            ),
            (Method::Get, "/uv", "get_uv"),
            (Method::Get, "/{address}", "get_address"),
            (Method::Get, "/", "get_root"),
            (Method::Get, "/search", "search"),
            (Method::Get, "/radiodns/spi/3.1/GI.xml", "get_spi_gi"),
            (
                Method::Put,
                "/application/{appId}/environment",
                "update_application_environment",
            ),
            (
                Method::Delete,
                "/logs/{appId}/drains/:idOrUrl",
                "delete_drain",
            ),
            (Method::Get, "/pet/findByStatus", "find_pet_by_status"),
            (
                Method::Post,
                "/api/comments/{entryType}-comments",
                "create_comment",
            ),
            (
                Method::Get,
                "/api/releaseEventSeries/{id}",
                "get_release_event_series",
            ),
            (
                Method::Get,
                "/api/releaseEventSeries",
                "list_release_event_series",
            ),
            (Method::Get, "/api/tags/byName/{name}", "get_tag_by_name"),
            (
                Method::Delete,
                "/notifications/emailhooks/{ownerId}/:id",
                "delete_emailhook",
            ),
            (
                Method::Get,
                "/users/{id}/album-collection-statuses/{albumId}",
                "get_album_collection_status",
            ),
        ];
        for (method, path, want) in cases {
            assert_eq!(first(method, path, None), want, "{path}");
        }
    }

    #[test]
    fn a_summary_can_name_the_action() {
        assert_eq!(
            first(
                Method::Post,
                "/api/v2/cddrive/files/content",
                Some("Upload a file.")
            ),
            "upload_file_content"
        );
        assert_eq!(
            first(
                Method::Get,
                "/api/v2/cddrive/files/{file-id}/content",
                Some("UNDER DEVELOPMENT - Download a file.")
            ),
            "download_file_content"
        );
        // Restating the method changes nothing.
        assert_eq!(
            first(
                Method::Get,
                "/api/v2/episodes",
                Some("Gets episodes matching the criteria.")
            ),
            "list_episodes"
        );
        assert_eq!(
            first(
                Method::Delete,
                "/orgs/{id}/providers/{pid}",
                Some("Remove a provider")
            ),
            "delete_provider"
        );
    }

    #[test]
    fn scopes_come_one_parent_at_a_time_then_the_query() {
        assert_eq!(
            all(
                Method::Get,
                "/project/{username}/{project}/{build_num}/artifacts"
            ),
            [
                "list_artifacts",
                "list_build_artifacts",
                "list_project_build_artifacts"
            ]
        );
        assert_eq!(
            all(
                Method::Get,
                "/current/airquality?city={city}&country={country}"
            ),
            [
                "get_current_airquality",
                "get_current_airquality_by_city_country"
            ]
        );
        assert_eq!(
            all(Method::Delete, "/api/albums/comments/{commentId}"),
            ["delete_comment", "delete_album_comment"]
        );
        assert_eq!(
            all(
                Method::Post,
                "/api/comments/{entryType}-comments/{commentId}"
            ),
            ["update_comment", "update_entry_type_comment"]
        );
    }

    #[test]
    fn every_candidate_fits_the_limit() {
        let path = format!("/{}/{{id}}/things", "very_long_resource_name_".repeat(5));
        for name in Shape::of(Method::Get, &path, None).candidates(64) {
            assert!(name.len() <= 64, "{name}");
            assert!(name.starts_with("list_"), "{name}");
        }
        assert_eq!(fit(&["get", &"x".repeat(80)], 10), "get_xxxxxx");
    }
}
