//! Credentials: read from the environment at call time, applied to the request.
//!
//! Only variable *names* live in descriptors and generated code; values are read when a
//! call is made and never appear in errors or `Debug` output.

use std::fmt;
use std::sync::Arc;

use crate::descriptor::{Api, Auth, KeyPlacement};
use crate::error::Error;

/// Where credential values come from. The default reads process environment variables;
/// services and tests can supply their own lookup.
#[derive(Clone)]
pub struct CredentialSource(Arc<Lookup>);

type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

impl CredentialSource {
    /// Reads `std::env::var`.
    pub fn env() -> Self {
        CredentialSource(Arc::new(|name| std::env::var(name).ok()))
    }

    /// Uses a custom lookup from variable name to value.
    pub fn from_fn(f: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Self {
        CredentialSource(Arc::new(f))
    }

    fn get(&self, api: &Api, name: &str) -> Result<String, Error> {
        (self.0)(name)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| Error::MissingCredential {
                api: api.name.to_string(),
                env: name.to_owned(),
            })
    }
}

impl Default for CredentialSource {
    fn default() -> Self {
        CredentialSource::env()
    }
}

impl fmt::Debug for CredentialSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CredentialSource(..)")
    }
}

/// A credential ready to put on a request.
pub(crate) enum Applied {
    None,
    Header(String, Secret),
    Query(String, Secret),
}

/// A credential value that never prints itself.
pub(crate) struct Secret(pub(crate) String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

pub(crate) fn resolve(api: &Api, source: &CredentialSource) -> Result<Applied, Error> {
    Ok(match &api.auth {
        Auth::None => Applied::None,
        Auth::Bearer { token_env } => Applied::Header(
            "authorization".into(),
            Secret(format!("Bearer {}", source.get(api, token_env)?)),
        ),
        Auth::ApiKey { key_env, placement } => {
            let key = Secret(source.get(api, key_env)?);
            match placement {
                KeyPlacement::Header(name) => Applied::Header(name.to_ascii_lowercase(), key),
                KeyPlacement::Query(name) => Applied::Query(name.to_string(), key),
            }
        }
        Auth::Basic {
            username_env,
            password_env,
        } => {
            let user = source.get(api, username_env)?;
            let password = source.get(api, password_env)?;
            Applied::Header(
                "authorization".into(),
                Secret(format!(
                    "Basic {}",
                    base64(format!("{user}:{password}").as_bytes())
                )),
            )
        }
    })
}

/// Standard base64 with padding (RFC 4648), enough for Basic auth.
fn base64(input: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(input.len().div_ceil(3) * 4);
    for chunk in input.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected);
        }
    }
}
