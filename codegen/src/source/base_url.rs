//! The one rule for base URLs read from any source (an adapter's `target.base_url`, an
//! OpenAPI `servers` entry): what may become the default address credentials go to.

/// What a base URL is, as far as sending credentials to it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `https://host...`, or `http://` to a loopback host.
    Secure,
    /// No scheme at all (`/api/v1`): relative to wherever the document was served.
    Relative,
    /// `http://` to a host that is not loopback: credentials would travel in clear.
    Cleartext,
    /// Never usable as an API's address; the text says why.
    Refused(String),
}

/// Classifies `url` (server variables already replaced).
pub fn classify(url: &str) -> Verdict {
    let Some((scheme, rest)) = url.split_once("://").filter(|(s, _)| is_scheme(s)) else {
        // `javascript:`, `data:`, `mailto:` have no `//`.
        return match url.split_once(':') {
            Some((scheme, _)) if is_scheme(scheme) && !url.starts_with('/') => {
                Verdict::Refused(format!("the `{scheme}:` scheme is not an HTTP address"))
            }
            _ => Verdict::Relative,
        };
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return Verdict::Refused(format!("the `{scheme}:` scheme is not an HTTP address"));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Verdict::Refused(
            "it carries a user name or password; credentials come from the environment".into(),
        );
    }
    if url.contains(['?', '#']) {
        return Verdict::Refused(
            "a query or fragment in a base URL would swallow every operation's path".into(),
        );
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.split(':').next().unwrap_or("")
    };
    if host.is_empty() {
        return Verdict::Refused("it names no host".into());
    }
    if scheme == "https" || matches!(host, "localhost" | "127.0.0.1" | "::1") {
        Verdict::Secure
    } else {
        Verdict::Cleartext
    }
}

/// `url` with any user name and password replaced by `***`, for messages and kept
/// metadata (a credential written into a server URL must not travel further).
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://***{}", &rest[at..]),
        None => url.to_owned(),
    }
}

fn is_scheme(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_userinfo() {
        assert_eq!(
            redact("https://u:p@h.example/x@y"),
            "https://***@h.example/x@y"
        );
        assert_eq!(redact("https://h.example/a@b"), "https://h.example/a@b");
    }

    #[test]
    fn classifies() {
        for ok in [
            "https://api.x.com/v1",
            "HTTPS://api.x.com",
            "http://localhost:8080",
            "http://127.0.0.1",
            "http://[::1]:9/a",
        ] {
            assert_eq!(classify(ok), Verdict::Secure, "{ok}");
        }
        for clear in ["http://api.x.com", "http://localhost.evil.com"] {
            assert_eq!(classify(clear), Verdict::Cleartext, "{clear}");
        }
        for relative in ["/v1", "api.x.com", "", "v1/x"] {
            assert_eq!(classify(relative), Verdict::Relative, "{relative}");
        }
        for bad in [
            "file:///etc/passwd",
            "javascript:alert(1)",
            "data:text/html,x",
            "ftp://x.example.com",
            "https://user:pw@api.x.com",
            "https://token@api.x.com",
            "https://",
            "https://api.x.com/v1?key=1",
            "https://api.x.com/#frag",
        ] {
            assert!(matches!(classify(bad), Verdict::Refused(_)), "{bad}");
        }
    }
}
