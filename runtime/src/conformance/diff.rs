//! Comparing a sent request with an expected one, shown as a line diff of both in one
//! canonical form (method and path, decoded query pairs, the named headers, the body).

use serde_json::Value;

use super::ExpectedRequest;

/// `Ok` when `actual` is what `expected` describes, else the diff.
pub(super) fn compare(
    expected: &ExpectedRequest,
    actual: &http::Request<Vec<u8>>,
) -> Result<(), String> {
    let want = render_expected(expected, is_json(actual));
    let got = render_actual(expected, actual);
    if want == got {
        return Ok(());
    }
    Err(format!(
        "the request differs (- expected, + sent)\n{}",
        lines(&want, &got)
    ))
}

fn is_json(request: &http::Request<Vec<u8>>) -> bool {
    request
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"))
}

fn render_expected(expected: &ExpectedRequest, json_body: bool) -> String {
    let mut out = format!("{} {}\n", expected.method.to_uppercase(), expected.path);
    for (name, values) in &expected.query {
        for value in values.values() {
            out.push_str(&format!("query {name}={value}\n"));
        }
    }
    for (name, value) in &expected.headers {
        let shown = value.as_deref().unwrap_or("(not sent)");
        out.push_str(&format!("header {}: {shown}\n", name.to_ascii_lowercase()));
    }
    match &expected.body {
        None => {}
        Some(Value::String(text)) if !json_body => body_lines(&mut out, text),
        Some(value) => body_lines(&mut out, &pretty(value)),
    }
    out
}

fn render_actual(expected: &ExpectedRequest, actual: &http::Request<Vec<u8>>) -> String {
    let uri = actual.uri();
    let mut out = format!("{} {}\n", actual.method(), uri.path());
    let mut pairs: Vec<(String, String)> = uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        })
        .collect();
    // By name, each name's values in the order sent (as the expectation lists them).
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, value) in pairs {
        out.push_str(&format!("query {name}={value}\n"));
    }
    for name in expected.headers.keys() {
        let values: Vec<&str> = actual
            .headers()
            .get_all(name.as_str())
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        let shown = if values.is_empty() {
            "(not sent)".to_owned()
        } else {
            values.join(", ")
        };
        out.push_str(&format!("header {}: {shown}\n", name.to_ascii_lowercase()));
    }
    let body = actual.body();
    if !body.is_empty() {
        let text = String::from_utf8_lossy(body);
        match serde_json::from_slice::<Value>(body) {
            Ok(value) if is_json(actual) => body_lines(&mut out, &pretty(&value)),
            _ => body_lines(&mut out, &text),
        }
    }
    out
}

fn body_lines(out: &mut String, text: &str) {
    for line in text.lines() {
        out.push_str("body ");
        out.push_str(line);
        out.push('\n');
    }
}

fn decode(text: &str) -> String {
    percent_encoding::percent_decode_str(&text.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// A line diff of two texts: common lines indented, `-` expected only, `+` actual
/// only. Longest common subsequence over lines; requests are a few dozen lines.
pub(super) fn lines(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    // common[i][j]: length of the LCS of a[i..] and b[j..].
    let mut common = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if a[i] == b[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || common[i + 1][j] >= common[i][j + 1]) {
            out.push_str(&format!("- {}\n", a[i]));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_shows_as_removed_then_added() {
        let diff = lines("GET /a\nquery x=1\n", "GET /a\nquery x=2\n");
        assert_eq!(diff, "  GET /a\n- query x=1\n+ query x=2\n");
    }

    #[test]
    fn the_same_request_compares_equal_whatever_the_header_case() {
        let expected: ExpectedRequest = serde_json::from_value(serde_json::json!({
            "method": "post", "path": "/issues", "query": {"tag": ["a", "b"]},
            "headers": {"Authorization": "Bearer ${T}", "x-absent": null},
            "body": {"title": "t"}
        }))
        .unwrap();
        let request = http::Request::builder()
            .method("POST")
            .uri("http://adapter.test/issues?tag=a&tag=b")
            .header("authorization", "Bearer ${T}")
            .header("content-type", "application/json")
            .body(br#"{"title":"t"}"#.to_vec())
            .unwrap();
        assert_eq!(compare(&expected, &request), Ok(()));
        let other = http::Request::builder()
            .method("POST")
            .uri("http://adapter.test/issues?tag=a")
            .header("x-absent", "1")
            .body(Vec::new())
            .unwrap();
        let diff = compare(&expected, &other).unwrap_err();
        assert!(diff.contains("- query tag=b"), "{diff}");
        assert!(diff.contains("+ header x-absent: 1"), "{diff}");
        assert!(
            diff.contains("+ header authorization: (not sent)"),
            "{diff}"
        );
        assert!(diff.contains("- body   \"title\": \"t\""), "{diff}");
    }
}
