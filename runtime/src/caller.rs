//! Who the call being answered is made for: an MCP client that authenticated to the HTTP
//! endpoint, by its name (a static token's name, a JWT's subject) and the access token it
//! presented. The transport knows it and runs the answer inside [`on_behalf`]; the gate's
//! policy and approver, the audit record and pass-through credentials read it here, so
//! none of them depends on the transport. Over stdio, in typed calls and in calls by
//! name from the service's own code there is no such caller.

#[cfg(feature = "mcp")]
use std::future::Future;
use std::sync::Arc;

#[cfg(feature = "mcp")]
#[derive(Clone)]
struct OnBehalf {
    name: Option<Arc<str>>,
    token: Option<Arc<str>>,
    claims: Option<Arc<Claims>>,
}

/// A token's claims (a JWT's payload, an introspection answer).
pub(crate) type Claims = serde_json::Map<String, serde_json::Value>;

#[cfg(feature = "mcp")]
tokio::task_local! {
    static CURRENT: OnBehalf;
}

/// Runs `answer` for the caller named `name` who presented `token` (with `claims`).
#[cfg(feature = "mcp")]
#[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
pub(crate) async fn on_behalf<F: Future>(
    name: Option<Arc<str>>,
    token: Option<Arc<str>>,
    claims: Option<Arc<Claims>>,
    answer: F,
) -> F::Output {
    CURRENT
        .scope(
            OnBehalf {
                name,
                token,
                claims,
            },
            answer,
        )
        .await
}

/// The name of the caller the current answer is for.
pub(crate) fn name() -> Option<Arc<str>> {
    #[cfg(feature = "mcp")]
    if let Ok(Some(name)) = CURRENT.try_with(|c| c.name.clone()) {
        return Some(name);
    }
    None
}

/// The access token of the caller the current answer is for.
pub(crate) fn token() -> Option<Arc<str>> {
    #[cfg(feature = "mcp")]
    if let Ok(Some(token)) = CURRENT.try_with(|c| c.token.clone()) {
        return Some(token);
    }
    None
}

/// The claims of the token the current caller presented (none for static tokens).
pub(crate) fn claims() -> Option<Arc<Claims>> {
    #[cfg(feature = "mcp")]
    if let Ok(Some(claims)) = CURRENT.try_with(|c| c.claims.clone()) {
        return Some(claims);
    }
    None
}

/// The caller of the current answer, carried into work that leaves the task (a script
/// run on a blocking thread makes its calls there, for the same caller).
#[derive(Clone, Default)]
#[cfg_attr(not(feature = "code"), allow(dead_code))]
pub(crate) struct Snapshot {
    #[cfg(feature = "mcp")]
    on_behalf: Option<OnBehalf>,
}

/// The current caller, to run later work for with [`Snapshot::scope`].
#[cfg_attr(not(feature = "code"), allow(dead_code))]
pub(crate) fn snapshot() -> Snapshot {
    Snapshot {
        #[cfg(feature = "mcp")]
        on_behalf: CURRENT.try_with(Clone::clone).ok(),
    }
}

#[cfg_attr(not(feature = "code"), allow(dead_code))]
impl Snapshot {
    /// The caller's name, for audit records.
    #[cfg_attr(not(feature = "tracing"), allow(dead_code))]
    pub(crate) fn name(&self) -> Option<Arc<str>> {
        #[cfg(feature = "mcp")]
        if let Some(on_behalf) = &self.on_behalf {
            return on_behalf.name.clone();
        }
        None
    }

    /// Runs `work` for this caller.
    pub(crate) async fn scope<F: std::future::Future>(self, work: F) -> F::Output {
        #[cfg(feature = "mcp")]
        if let Some(on_behalf) = self.on_behalf {
            return CURRENT.scope(on_behalf, work).await;
        }
        work.await
    }
}
