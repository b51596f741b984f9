//! Media types both sides read the same way: which answers are JSON lines (the
//! generator types them as a stream of items; the runtime collects them for a call by
//! name).

/// The media types of JSON lines (one JSON value per line), in lower case.
pub const JSON_LINES: [&str; 6] = [
    "application/x-ndjson",
    "application/ndjson",
    "application/jsonl",
    "application/x-jsonlines",
    "application/jsonlines",
    "application/json-seq",
];

/// Whether `media` (a media type, in any case, with or without parameters) is JSON
/// lines.
pub fn is_json_lines(media: &str) -> bool {
    let essence = media.split(';').next().unwrap_or("").trim();
    JSON_LINES.iter().any(|m| m.eq_ignore_ascii_case(essence))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_whatever_the_case_and_parameters() {
        assert!(is_json_lines("application/x-ndjson"));
        assert!(is_json_lines("Application/JSONL; charset=utf-8"));
        assert!(!is_json_lines("application/json"));
        assert!(!is_json_lines("text/event-stream"));
    }
}
