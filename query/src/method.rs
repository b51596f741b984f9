//! HTTP method names beyond the seven every client knows: OpenAPI 3.2's `query` and the
//! methods its `additionalOperations` name (`LINK`, `COPY`, `PROPFIND`, ...). Both the
//! generator and the runtime carry a method as a `Copy` value naming a `&'static str`;
//! a name read at run time (an embedded catalog) or at build time (a document) is
//! interned here, so each distinct name is allocated once per process, whatever number
//! of catalogs or documents name it.

use std::collections::BTreeSet;
use std::sync::Mutex;

/// Whether `name` is an RFC 9110 method token (`tchar`s, at least one): what can go on
/// a request line.
pub fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'!' | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'-'
                        | b'.'
                        | b'^'
                        | b'_'
                        | b'`'
                        | b'|'
                        | b'~'
                )
        })
}

/// `name` as a `&'static str`: the same allocation for the same name, for the life of
/// the process. Only tokens are interned (`None` otherwise), so a hostile catalog
/// cannot grow the set with arbitrary text, and each entry is at most 64 bytes.
pub fn intern(name: &str) -> Option<&'static str> {
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    if !is_token(name) || name.len() > 64 {
        return None;
    }
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = names.get(name) {
        return Some(known);
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(leaked);
    Some(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_interning() {
        assert!(is_token("LINK"));
        assert!(is_token("M-SEARCH"));
        assert!(!is_token(""));
        assert!(!is_token("GET /"));
        assert!(!is_token("A\r\nB"));
        let a = intern("PROPFIND").unwrap();
        let b = intern(&String::from("PROPFIND")).unwrap();
        assert!(std::ptr::eq(a, b));
        assert_eq!(intern("bad name"), None);
        assert_eq!(intern(&"X".repeat(65)), None);
    }
}
