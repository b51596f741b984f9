//! Static bearer tokens, each with a name for logs — the simple case of a team sharing
//! a server.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// Named bearer tokens (cheap to clone). Tokens are compared in time that does not
/// depend on where they differ, and never appear in `Debug` output or logs.
#[derive(Clone, Default)]
pub struct BearerTokens {
    tokens: Arc<Vec<(String, Vec<u8>)>>,
}

impl fmt::Debug for BearerTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.tokens.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("BearerTokens")
            .field("names", &names)
            .finish_non_exhaustive()
    }
}

/// Why tokens could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenError(String);

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokenError {}

/// Shorter tokens are refused: a bearer token is a password for every tool.
pub const MIN_TOKEN_LEN: usize = 16;

impl BearerTokens {
    pub fn new() -> Self {
        BearerTokens::default()
    }

    /// Accepts `token`, naming its holder `name` in logs.
    ///
    /// # Errors
    /// A token shorter than [`MIN_TOKEN_LEN`], with whitespace in it, or a name used
    /// twice.
    pub fn token(mut self, name: &str, token: &str) -> Result<Self, TokenError> {
        let token = token.trim();
        if token.len() < MIN_TOKEN_LEN || token.chars().any(char::is_whitespace) {
            return Err(TokenError(format!(
                "the token of `{name}` must be at least {MIN_TOKEN_LEN} characters without spaces (e.g. `openssl rand -hex 32`)"
            )));
        }
        if self.tokens.iter().any(|(n, _)| n == name) {
            return Err(TokenError(format!("two tokens are named `{name}`")));
        }
        Arc::make_mut(&mut self.tokens).push((name.to_owned(), token.as_bytes().to_vec()));
        Ok(self)
    }

    /// Accepts the token in environment variable `var`, named `name`.
    ///
    /// # Errors
    /// The variable is unset or empty, or as [`BearerTokens::token`].
    pub fn from_env(self, name: &str, var: &str) -> Result<Self, TokenError> {
        let token = std::env::var(var)
            .ok()
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| {
                TokenError(format!(
                    "environment variable `{var}` (the token of `{name}`) is not set"
                ))
            })?;
        self.token(name, &token)
    }

    /// Accepts the tokens of a file: one `NAME TOKEN` per line; blank lines and lines
    /// starting with `#` are skipped.
    ///
    /// # Errors
    /// The file cannot be read, a line is not `NAME TOKEN` (said by line number, never
    /// with its text), or as [`BearerTokens::token`].
    pub fn from_file(mut self, path: &Path) -> Result<Self, TokenError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| TokenError(format!("cannot read `{}`: {e}", path.display())))?;
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((name, token)) = line.split_once(char::is_whitespace) else {
                return Err(TokenError(format!(
                    "{}:{}: expected `NAME TOKEN`",
                    path.display(),
                    number + 1
                )));
            };
            self = self
                .token(name, token)
                .map_err(|e| TokenError(format!("{}:{}: {e}", path.display(), number + 1)))?;
        }
        Ok(self)
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The name of the holder of `presented` (the token after `Bearer `).
    pub(super) fn holder(&self, presented: &[u8]) -> Option<&str> {
        // Every token is compared, whatever matched: the time says nothing of which.
        let mut found = None;
        for (name, token) in self.tokens.iter() {
            if same(token, presented) {
                found = Some(name.as_str());
            }
        }
        found
    }
}

/// Equal bytes, in time that depends only on the lengths.
fn same(expected: &[u8], presented: &[u8]) -> bool {
    let mut diff = u8::from(expected.len() != presented.len());
    for (i, byte) in expected.iter().enumerate() {
        diff |= byte ^ presented.get(i).copied().unwrap_or(0);
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "a-token-of-32-characters-0123456";
    const B: &str = "another-token-of-enough-length!!";

    #[test]
    fn a_known_token_names_its_caller() {
        let tokens = BearerTokens::new()
            .token("alice", A)
            .unwrap()
            .token("bob", B)
            .unwrap();
        assert_eq!(tokens.holder(A.as_bytes()), Some("alice"));
        assert_eq!(tokens.holder(B.as_bytes()), Some("bob"));
        assert_eq!(tokens.holder(&A.as_bytes()[..20]), None);
        assert_eq!(tokens.holder(format!("{A}x").as_bytes()), None);
        assert!(!format!("{tokens:?}").contains(A));
    }

    #[test]
    fn weak_tokens_and_bad_lines_are_refused_without_echoing_them() {
        assert!(BearerTokens::new().token("x", "short").is_err());
        let path = std::env::temp_dir().join(format!("toolwright-tokens-{}", std::process::id()));
        std::fs::write(&path, format!("# team\nalice {A}\n\nbob{B}\n")).unwrap();
        let err = BearerTokens::new()
            .from_file(&path)
            .unwrap_err()
            .to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(err.ends_with(":4: expected `NAME TOKEN`"), "{err}");
        assert!(!err.contains(B));
    }
}
