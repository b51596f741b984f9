//! A GraphQL schema as both readers leave it (SDL and introspection JSON say the same
//! things): types by name, root operation types, directives. Each definition keeps
//! where it was written, as a byte range of the file.

use std::collections::BTreeMap;

use serde_json::Value;

pub use crate::source::openapi::locate::Place;

/// A whole schema.
#[derive(Debug, Default)]
pub struct Schema {
    pub description: Option<String>,
    /// Root operation types (`Query`, `Mutation`, `Subscription` unless renamed).
    pub query: Option<String>,
    pub mutation: Option<String>,
    pub subscription: Option<String>,
    /// Sorted by name: output is the same whatever order the file uses.
    pub types: BTreeMap<String, TypeDef>,
    /// Directive definitions, as metadata (`{name, description, locations, args}`).
    pub directives: Vec<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    Object,
    Interface,
    Union,
    Enum,
    InputObject,
}

impl Kind {
    /// Scalars and enums: values with no selection set.
    pub fn is_leaf(self) -> bool {
        matches!(self, Kind::Scalar | Kind::Enum)
    }

    /// Objects, interfaces and unions: what a selection set selects from.
    pub fn is_composite(self) -> bool {
        matches!(self, Kind::Object | Kind::Interface | Kind::Union)
    }
}

/// One named type.
#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    pub kind: Kind,
    pub description: Option<String>,
    /// Objects and interfaces.
    pub fields: Vec<Field>,
    /// Input objects.
    pub inputs: Vec<InputValue>,
    /// Enums.
    pub values: Vec<EnumValue>,
    /// Unions: member types; interfaces: the types that implement them.
    pub possible: Vec<String>,
    /// Objects and interfaces: the interfaces they implement.
    pub interfaces: Vec<String>,
    /// Directives applied to the definition other than `@deprecated` (metadata).
    pub directives: Vec<Value>,
    pub at: Place,
}

impl TypeDef {
    pub fn new(name: String, kind: Kind, at: Place) -> TypeDef {
        TypeDef {
            name,
            kind,
            description: None,
            fields: Vec::new(),
            inputs: Vec::new(),
            values: Vec::new(),
            possible: Vec::new(),
            interfaces: Vec::new(),
            directives: Vec::new(),
            at,
        }
    }

    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// A field of an object or interface.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub description: Option<String>,
    pub args: Vec<InputValue>,
    pub ty: TypeRef,
    /// `@deprecated(reason:)`: the reason (`No longer supported` when none is given).
    pub deprecated: Option<String>,
    pub directives: Vec<Value>,
    pub at: Place,
}

/// An argument or an input object's field.
#[derive(Debug, Clone)]
pub struct InputValue {
    pub name: String,
    pub description: Option<String>,
    pub ty: TypeRef,
    /// The default value, as JSON (enum values as their names).
    pub default: Option<Value>,
    pub deprecated: Option<String>,
    pub at: Place,
}

impl InputValue {
    /// Must be given: non-null and without a default.
    pub fn is_required(&self) -> bool {
        matches!(self.ty, TypeRef::NonNull(_)) && self.default.is_none()
    }
}

#[derive(Debug, Clone)]
pub struct EnumValue {
    pub name: String,
    pub description: Option<String>,
    pub deprecated: Option<String>,
}

/// A type reference: `T`, `[T]`, `T!`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeRef {
    Named(String),
    List(Box<TypeRef>),
    NonNull(Box<TypeRef>),
}

impl TypeRef {
    /// The named type at the bottom.
    pub fn named(&self) -> &str {
        match self {
            TypeRef::Named(n) => n,
            TypeRef::List(t) | TypeRef::NonNull(t) => t.named(),
        }
    }

    pub fn is_list(&self) -> bool {
        match self {
            TypeRef::List(_) => true,
            TypeRef::NonNull(t) => t.is_list(),
            TypeRef::Named(_) => false,
        }
    }
}

impl std::fmt::Display for TypeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeRef::Named(n) => f.write_str(n),
            TypeRef::List(t) => write!(f, "[{t}]"),
            TypeRef::NonNull(t) => write!(f, "{t}!"),
        }
    }
}

/// The reason `@deprecated` gives when it names none.
pub const DEFAULT_DEPRECATION: &str = "No longer supported";

/// The built-in scalars.
pub const BUILT_IN_SCALARS: [&str; 5] = ["String", "Int", "Float", "Boolean", "ID"];
