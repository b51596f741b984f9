//! Resources: service-side types whose verbs (get, search, create, update, patch,
//! delete) become tools next to the generated ones.
//!
//! `#[derive(ToolSchema)]` with `#[tool(resource(...))]` implements [`Record`] (the
//! schema side: key, server-assigned fields, declared verbs, draft and patch types); the
//! service implements [`Resource`] (the behaviour) and registers it with
//! [`ExecutorBuilder::resource`](crate::ExecutorBuilder::resource). Call-by-name then
//! dispatches to it, validating arguments against the same types the schemas describe.

mod dispatch;
mod openapi;
mod query;
mod tools;

use std::fmt;
use std::future::{Future, ready};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::schema::ToolSchema;

pub use dispatch::{Handler, handler};
pub use openapi::OpenApi;
pub use query::{Condition, Operator, Query};
pub(crate) use tools::verb_tools;
pub use tools::{LOCAL_API, tools};

/// A verb of a resource; each becomes a tool named `<verb>_<Type>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verb {
    Get,
    Search,
    Create,
    Update,
    Patch,
    Delete,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::Search => "search",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
        }
    }

    /// Whether the verb addresses one record by its primary key.
    pub fn needs_key(self) -> bool {
        matches!(self, Verb::Get | Verb::Update | Verb::Patch | Verb::Delete)
    }
}

/// A declared verb and its per-verb overrides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerbSpec {
    pub verb: Verb,
    /// `#[tool(resource(create(idempotent)))]`: repeating the call has no further effect.
    pub idempotent: bool,
}

/// What the derive knows of a resource type.
#[derive(Debug, Clone, Copy)]
pub struct ResourceSpec {
    /// The type's name, used in tool names (`get_Product`).
    pub name: &'static str,
    /// The type's description (doc comment).
    pub description: Option<&'static str>,
    /// Serialized name of the `#[tool(primary_key)]` field.
    pub key: Option<&'static str>,
    /// The key is one of the draft's fields (set by the client, not the server).
    pub key_in_draft: bool,
    /// Serialized names of fields the server sets (`created_time`, `updated_time`,
    /// `read_only`): left out of create/update inputs, always present in outputs.
    pub server_assigned: &'static [&'static str],
    /// Serialized names of `write_only` fields: accepted, never returned.
    pub write_only: &'static [&'static str],
    pub verbs: &'static [VerbSpec],
}

/// The schema side of a resource, implemented by `#[derive(ToolSchema)]` with
/// `#[tool(resource(...))]`.
pub trait Record: ToolSchema + Serialize + DeserializeOwned + Send + 'static {
    /// The primary key's type (`()` for resources without one).
    type Key: ToolSchema + Serialize + DeserializeOwned + Send + 'static;
    /// The fields a client provides to create or replace a record (the record minus
    /// server-assigned fields): `<Type>Draft`, generated.
    type Draft: ToolSchema + DeserializeOwned + Send + 'static;
    /// The fields a patch may change, each optional: `<Type>Patch`, generated.
    type Patch: ToolSchema + DeserializeOwned + Send + 'static;

    const SPEC: ResourceSpec;
}

/// The primary key type of a resource.
pub type KeyOf<R> = <<R as Resource>::Record as Record>::Key;
/// The draft type of a resource.
pub type DraftOf<R> = <<R as Resource>::Record as Record>::Draft;
/// The patch type of a resource.
pub type PatchOf<R> = <<R as Resource>::Record as Record>::Patch;

type Answer<T> = Result<T, ResourceError>;

/// A service's implementation of a resource's verbs. Each verb is optional: only the
/// ones declared in `#[tool(resource(...))]` become tools, and a declared verb left
/// unimplemented answers "unsupported".
pub trait Resource: Send + Sync + 'static {
    type Record: Record;

    fn get(&self, key: KeyOf<Self>) -> impl Future<Output = Answer<Self::Record>> + Send {
        let _ = key;
        ready(Err(ResourceError::unsupported(Verb::Get)))
    }

    fn search(&self, query: Query) -> impl Future<Output = Answer<Vec<Self::Record>>> + Send {
        let _ = query;
        ready(Err(ResourceError::unsupported(Verb::Search)))
    }

    fn create(&self, draft: DraftOf<Self>) -> impl Future<Output = Answer<Self::Record>> + Send {
        let _ = draft;
        ready(Err(ResourceError::unsupported(Verb::Create)))
    }

    fn update(
        &self,
        key: KeyOf<Self>,
        draft: DraftOf<Self>,
    ) -> impl Future<Output = Answer<Self::Record>> + Send {
        let _ = (key, draft);
        ready(Err(ResourceError::unsupported(Verb::Update)))
    }

    fn patch(
        &self,
        key: KeyOf<Self>,
        patch: PatchOf<Self>,
    ) -> impl Future<Output = Answer<Self::Record>> + Send {
        let _ = (key, patch);
        ready(Err(ResourceError::unsupported(Verb::Patch)))
    }

    fn delete(&self, key: KeyOf<Self>) -> impl Future<Output = Answer<()>> + Send {
        let _ = key;
        ready(Err(ResourceError::unsupported(Verb::Delete)))
    }
}

/// What kind of failure a resource reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    NotFound,
    Conflict,
    Invalid,
    Unsupported,
    Internal,
}

/// A resource verb's failure, returned to the caller (and the model) as is: keep
/// secrets out of the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceError {
    pub kind: ErrorKind,
    pub message: String,
}

impl ResourceError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ResourceError {
            kind,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ResourceError::new(ErrorKind::NotFound, message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        ResourceError::new(ErrorKind::Conflict, message)
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        ResourceError::new(ErrorKind::Invalid, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        ResourceError::new(ErrorKind::Internal, message)
    }

    pub fn unsupported(verb: Verb) -> Self {
        ResourceError::new(
            ErrorKind::Unsupported,
            format!(
                "`{}` is declared but not implemented by this service",
                verb.as_str()
            ),
        )
    }
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ResourceError {}
