//! Text cut to a length for an error message (an upstream body, a GraphQL error): a
//! leaf module, so that the executor and the GraphQL layer need not import each other.

/// The first `max` characters of `text`, saying how much was cut.
pub(crate) fn prefix(text: &str, max: usize) -> String {
    match toolwright_query::cut::chars(text, max) {
        (head, "") => head.to_owned(),
        (head, rest) => format!("{head}… ({} more characters)", rest.chars().count()),
    }
}
