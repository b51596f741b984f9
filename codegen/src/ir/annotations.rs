//! A tool's MCP annotations (read-only, destructive, idempotent, open-world) worked out
//! from an operation, and the reason for each in words. Selection (`read-only`,
//! `destructive`), the plan of each tool and the artifact all read them from here.

use super::{Crude, DangerLevel, Method};

/// MCP tool annotations, all explicit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// Conservative hints: under-annotate rather than mis-annotate.
pub fn annotations(op: &super::Operation) -> Annotations {
    // A workflow is what its steps are (worked out when it was read).
    if let Some(w) = &op.workflow {
        return Annotations {
            read_only: w.read_only,
            destructive: w.destructive,
            idempotent: w.idempotent,
            open_world: true,
        };
    }
    let danger = op.safety.danger_level;
    let declared_destructive = matches!(
        danger,
        Some(DangerLevel::Destructive | DangerLevel::Dangerous | DangerLevel::Forbidden)
    );
    let read_only = op
        .safety
        .read_only
        .unwrap_or(op.kind == Crude::Read && op.method.is_safe())
        && !declared_destructive;
    let destructive = !read_only
        && match danger {
            Some(DangerLevel::Safe | DangerLevel::Reversible) => false,
            Some(_) => true,
            None => op.kind == Crude::Delete || op.method == Method::Delete,
        };
    let idempotent = match op.safety.non_idempotent {
        Some(non) => !non,
        None => matches!(
            op.method,
            Method::Get | Method::Put | Method::Head | Method::Options | Method::Query
        ),
    };
    Annotations {
        read_only,
        destructive,
        idempotent,
        open_world: op.safety.open_world.unwrap_or(true),
    }
}

/// Why each annotation has its value, in words (the inspection report shows them next
/// to the hints): `(hint, value, reason)` for `readOnlyHint`, `destructiveHint`,
/// `idempotentHint` and `openWorldHint`, following the rules of [`annotations`].
/// `adapter`: the operation comes from an adapter file (its fields are named
/// differently from OpenAPI's extensions).
pub fn annotation_reasons(
    op: &super::Operation,
    adapter: bool,
) -> [(&'static str, bool, String); 4] {
    let a = annotations(op);
    if op.workflow.is_some() {
        let steps = |all: bool| {
            if all {
                "every step's tool is".to_owned()
            } else {
                "not every step's tool is".to_owned()
            }
        };
        return [
            (
                "readOnlyHint",
                a.read_only,
                format!("{} read-only", steps(a.read_only)),
            ),
            (
                "destructiveHint",
                a.destructive,
                if a.destructive {
                    "a step's tool is destructive".to_owned()
                } else {
                    "no step's tool is destructive".to_owned()
                },
            ),
            (
                "idempotentHint",
                a.idempotent,
                format!("{} idempotent", steps(a.idempotent)),
            ),
            (
                "openWorldHint",
                true,
                "always: the steps call a remote API".to_owned(),
            ),
        ];
    }
    let method = op.method.as_str();
    let group = op.kind.as_str();
    // A saved MCP `tools/list` declares the hints by their MCP names.
    let mcp = op.meta.contains_key("x-mcp-tool");
    let declared = op.safety.danger_level.map(|d| {
        if mcp {
            format!(
                "`destructiveHint: {}`",
                matches!(
                    d,
                    DangerLevel::Destructive | DangerLevel::Dangerous | DangerLevel::Forbidden
                )
            )
        } else if adapter {
            format!("`danger_level: {}`", d.as_str())
        } else {
            format!("`x-destructive` (danger level {})", d.as_str())
        }
    });
    let read_only = if let Some(declared) = op.safety.read_only {
        format!("declared `readOnlyHint: {declared}`")
    } else if a.read_only {
        format!("the `{group}` group over {method}, a safe method")
    } else if op.kind != Crude::Read {
        format!("the `{group}` group changes or runs something")
    } else if !op.method.is_safe() {
        format!("{method} is not a safe method")
    } else {
        format!("declared {}", declared.clone().unwrap_or_default())
    };
    let destructive = match &declared {
        _ if a.read_only => "read-only".to_owned(),
        Some(d) => format!("declared {d}"),
        None if op.method == Method::Delete => "the DELETE method".to_owned(),
        None if op.kind == Crude::Delete => "the `delete` group".to_owned(),
        None => "no declared danger, not a delete".to_owned(),
    };
    let idempotent = match op.safety.non_idempotent {
        Some(non) if adapter => format!("declared `non_idempotent: {non}`"),
        Some(non) if mcp => format!("declared `idempotentHint: {}`", !non),
        Some(non) => format!("declared `x-idempotent: {}`", !non),
        None if a.idempotent => format!("{method} is idempotent by definition"),
        None => {
            format!("{method}: only GET, HEAD, OPTIONS and PUT count as idempotent unless declared")
        }
    };
    [
        ("readOnlyHint", a.read_only, read_only),
        ("destructiveHint", a.destructive, destructive),
        ("idempotentHint", a.idempotent, idempotent),
        (
            "openWorldHint",
            a.open_world,
            match op.safety.open_world {
                Some(declared) => format!("declared `openWorldHint: {declared}`"),
                None => "always: the tool calls a remote API".to_owned(),
            },
        ),
    ]
}
