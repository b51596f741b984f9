//! Which field of an item a path parameter takes. `{containerUuid}` takes a
//! container's `id` when containers have no `uuid`; `{tag}` under `/tags` a tag's
//! `name`; `{digest}` an image's `digest`. The field is chosen by its name first (the
//! parameter's own name, or its key word: `uuid` of `containerUuid`), then — when no
//! field has that name — among the usual keys by format and pattern, then in a fixed
//! order (`id` before `name`). A field whose type, format or pattern cannot be the
//! parameter's value is never chosen, and a parameter that names no key and not the
//! collection either (`{format}` under `/reports`) takes none.

use super::fields::{Consumed, Produced};
use super::words;
use crate::ir::{Schema, SchemaType};

/// Keys in the order they are tried when the parameter's name does not say which.
const KEY_ORDER: &[&str] = &[
    "id",
    "uuid",
    "guid",
    "key",
    "name",
    "slug",
    "digest",
    "sha",
    "hash",
    "number",
    "code",
    "sid",
    "identifier",
];
/// Keys an opaque-id parameter (`{containerUuid}`, `{id}`) may take under another name:
/// another opaque id, never a name or a number.
const OPAQUE: &[&str] = &["id", "uuid", "guid", "key", "identifier"];
/// Formats no key has.
const NOT_KEYS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "binary",
    "byte",
    "password",
    "float",
    "double",
];

/// What a value looks like beyond its type — its format and pattern, hashed (they are
/// only compared) — and whether a key can look like that at all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Shape {
    format: u32,
    pattern: u32,
    keyable: bool,
}

impl Shape {
    pub fn of(schema: &Schema) -> Shape {
        let format = schema.format.as_deref().map(str::to_ascii_lowercase);
        Shape {
            format: format.as_deref().map_or(0, fnv),
            pattern: schema.pattern.as_deref().map_or(0, fnv),
            keyable: matches!(
                schema.ty,
                SchemaType::String | SchemaType::Integer | SchemaType::Number
            ) && schema.enum_values.is_empty()
                && format.is_none_or(|f| !NOT_KEYS.contains(&f.as_str())),
        }
    }

    /// Formats or patterns both given and different: not the same kind of value.
    fn clashes(self, other: Shape) -> bool {
        (self.format != 0 && other.format != 0 && self.format != other.format)
            || (self.pattern != 0 && other.pattern != 0 && self.pattern != other.pattern)
    }

    /// How many of format and pattern are given on both and equal (0 to 2).
    fn agreement(self, other: Shape) -> u8 {
        u8::from(self.format != 0 && self.format == other.format)
            + u8::from(self.pattern != 0 && self.pattern == other.pattern)
    }
}

/// FNV-1a: a stable hash (the same in every build) of a short string.
fn fnv(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    }) | 1
}

/// The key word a parameter names: `uuid` of `containerUuid`, `name` of `username`
/// (on users), `id` of `id`; `None` for `{tag}` or `{customer}`.
fn key_word<'a>(parameter: &'a str, noun: &str) -> Option<&'a str> {
    let last = parameter.rsplit('_').next().unwrap_or(parameter);
    if KEY_ORDER.contains(&last) {
        return Some(last);
    }
    let noun = noun.rsplit('_').next().unwrap_or(noun);
    parameter
        .strip_prefix(noun)
        .filter(|rest| KEY_ORDER.contains(rest))
}

/// The field of an item of collection `noun` (`container`) that `input` takes, among
/// `leaves` (the item's own fields); `None` when no field fits.
pub fn key_field<'p>(
    input: &Consumed,
    noun: &str,
    leaves: impl Iterator<Item = &'p Produced>,
) -> Option<&'p Produced> {
    if !input.shape.keyable {
        return None;
    }
    let parameter = words::snake(&input.name);
    let key = key_word(&parameter, noun);
    // A parameter that names no key must name the collection's item (`{tag}` of
    // `/tags`): `{format}` under `/reports` is no report's key.
    if key.is_none() && !names_the_noun(&parameter, noun) {
        return None;
    }
    leaves
        .filter_map(|leaf| Some((fit(input, &parameter, key, noun, leaf)?, leaf)))
        .min_by_key(|(fit, _)| *fit)
        .map(|(_, leaf)| leaf)
}

/// `tag` of `tag`, `repo` of `repository`, `image_name`... of `image`.
fn names_the_noun(parameter: &str, noun: &str) -> bool {
    let last = noun.rsplit('_').next().unwrap_or(noun);
    parameter == noun
        || parameter == last
        || (parameter.len() >= 3 && last.starts_with(parameter))
        || parameter.ends_with(&format!("_{last}"))
}

/// How well `leaf` fits as the value of `input` (lower is better): by name, then by
/// agreeing format and pattern, then by the order of [`KEY_ORDER`].
fn fit(
    input: &Consumed,
    parameter: &str,
    key: Option<&str>,
    noun: &str,
    leaf: &Produced,
) -> Option<(u8, u8, usize)> {
    if !leaf.shape.keyable || leaf.enum_values.is_some() || input.shape.clashes(leaf.shape) {
        return None;
    }
    let field = words::snake(&leaf.name);
    let typed = super::graph::compatible(leaf.field_type, input.field_type);
    // A path segment is text: a numeric key written into it is the same value.
    let as_text = input.location == "path"
        && input.field_type == "string"
        && matches!(leaf.field_type, "integer" | "number");
    let agreement = 2 - input.shape.agreement(leaf.shape);
    let last = noun.rsplit('_').next().unwrap_or(noun);
    // A bare `name` is often a display name: only a parameter that says `name` as a
    // word (`name`, `tag_name`) takes it, not `username` (GitHub's users have a `name`,
    // but `{username}` takes their `login`).
    let bare = |k: &str| k != "name" || parameter == "name" || parameter.ends_with("_name");
    let named = field == parameter
        || key.is_some_and(|k| {
            field == k && bare(k)
                || field == format!("{noun}_{k}")
                || field == format!("{last}_{k}")
        });
    if named {
        return (typed || as_text).then_some((0, agreement, 0));
    }
    if !typed {
        return None;
    }
    let order = KEY_ORDER.iter().position(|k| *k == field)?;
    let allowed = match key {
        None => true,
        Some(k) => OPAQUE.contains(&k) && OPAQUE.contains(&field.as_str()),
    };
    allowed.then_some((1, agreement, order))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(ty: SchemaType, format: Option<&str>) -> Schema {
        let mut s = Schema::of(ty);
        s.format = format.map(str::to_owned);
        s
    }

    fn input(name: &str, ty: SchemaType, format: Option<&str>) -> Consumed {
        let s = schema(ty, format);
        Consumed {
            name: name.to_owned(),
            path: format!("/{name}"),
            location: "path",
            required: true,
            kind: "data",
            field_type: ty.as_str().unwrap(),
            enum_values: None,
            semantic_tag: Some("identifier"),
            identifies: None,
            shape: Shape::of(&s),
        }
    }

    fn leaf(name: &str, ty: SchemaType, format: Option<&str>) -> Produced {
        let s = schema(ty, format);
        Produced {
            name: name.into(),
            path: format!("/*/{name}").into(),
            field_type: ty.as_str().unwrap(),
            enum_values: None,
            semantic_tag: None,
            resource: None,
            identifies: None,
            reference: false,
            direct: true,
            shape: Shape::of(&s),
        }
    }

    fn chosen<'a>(input: &Consumed, noun: &str, leaves: &'a [Produced]) -> Option<&'a str> {
        key_field(input, noun, leaves.iter()).map(|l| &*l.name)
    }

    #[test]
    fn the_key_is_chosen_by_name_then_format_then_order() {
        use SchemaType::{Integer, String};
        let vault = [
            leaf("name", String, None),
            leaf("createdAt", String, Some("date-time")),
            leaf("id", String, Some("uuid")),
        ];
        let uuid = input("containerUuid", String, Some("uuid"));
        assert_eq!(chosen(&uuid, "container", &vault), Some("id"));
        // A uuid parameter never takes a name, whatever the order says.
        assert_eq!(chosen(&uuid, "container", &vault[..2]), None);
        let tags = [
            leaf("digest", String, None),
            leaf("name", String, None),
            leaf("size", Integer, None),
        ];
        assert_eq!(
            chosen(&input("tag", String, None), "tag", &tags),
            Some("name")
        );
        assert_eq!(
            chosen(&input("digest", String, None), "tag", &tags),
            Some("digest")
        );
        assert_eq!(
            chosen(&input("format", String, None), "report", &tags),
            None,
            "names neither a key nor the collection"
        );
        let users = [leaf("id", Integer, None), leaf("login", String, None)];
        assert_eq!(
            chosen(&input("userId", String, None), "user", &users),
            Some("id"),
            "an integer key written into a path"
        );
        assert_eq!(
            chosen(&input("username", String, None), "user", &users),
            None
        );
        let github = [
            leaf("id", Integer, None),
            leaf("login", String, None),
            leaf("name", String, None),
        ];
        assert_eq!(
            chosen(&input("username", String, None), "user", &github),
            None,
            "a display name is no username"
        );
        assert_eq!(
            chosen(&input("tag_name", String, None), "tag", &github),
            Some("name")
        );
        let named = [leaf("id", Integer, None), leaf("name", String, None)];
        assert_eq!(
            chosen(&input("name", String, None), "resource_type", &named),
            Some("name")
        );
        assert_eq!(
            chosen(&input("repository", String, None), "repository", &named),
            Some("name"),
            "a string parameter does not take an integer id unless named so"
        );
    }
}
