//! An optional `fields` argument on tools whose result is an object (or a list of
//! objects, served as `{"result": [...]}`): the model names the fields it needs and
//! gets only those (of each item), which keeps long results inside its context.
//! Fields the output schema requires always come back, so the result still validates.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

/// The argument's name; a tool that already takes `fields` gets no projection.
pub(super) const ARGUMENT: &str = "fields";

/// Results with fewer fields than this are not worth projecting.
const FEWEST: usize = 3;

/// What a tool's results can be cut down to.
#[derive(Debug, Clone)]
pub(super) struct Projection {
    /// Items of this key are projected (`result` for lists); else the root.
    items_of: Option<String>,
    /// Always kept.
    required: BTreeSet<String>,
}

impl Projection {
    /// The projection for a tool with `output` (exported) schema, adding the
    /// argument to its `input` schema. `None` when the result has too few fields or
    /// the tool has an argument of that name.
    pub(super) fn offer(input: &mut Value, output: &Value) -> Option<Projection> {
        let root = output.get("properties")?.as_object()?;
        let (items_of, shape) = match root.iter().collect::<Vec<_>>().as_slice() {
            [(key, list)] if list.get("type") == Some(&json!("array")) => {
                (Some((*key).clone()), list.get("items")?)
            }
            _ => (None, output),
        };
        let fields: Vec<&String> = shape.get("properties")?.as_object()?.keys().collect();
        if fields.len() < FEWEST {
            return None;
        }
        let properties = input.get_mut("properties")?.as_object_mut()?;
        if properties.contains_key(ARGUMENT) {
            return None;
        }
        let required: BTreeSet<String> = shape
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let each = if items_of.is_some() {
            " of each item"
        } else {
            ""
        };
        properties.insert(
            ARGUMENT.into(),
            json!({
                "type": "array",
                "items": {"type": "string", "enum": fields},
                "description": format!(
                    "Return only these fields{each} (required ones always come back); leave out for all of them."
                ),
            }),
        );
        Some(Projection { items_of, required })
    }

    /// Removes the argument from `args`, returning the fields asked for.
    pub(super) fn take(args: &mut Value) -> Option<BTreeSet<String>> {
        let asked = args.as_object_mut()?.remove(ARGUMENT)?;
        Some(
            asked
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        )
    }

    /// `result` with only `fields` (and the required ones) kept.
    pub(super) fn apply(&self, result: &mut Value, fields: &BTreeSet<String>) {
        let keep = |object: &mut Map<String, Value>| {
            object.retain(|k, _| fields.contains(k) || self.required.contains(k));
        };
        match &self.items_of {
            Some(key) => {
                if let Some(Value::Array(items)) = result.get_mut(key) {
                    for item in items.iter_mut().filter_map(Value::as_object_mut) {
                        keep(item);
                    }
                }
            }
            None => {
                if let Value::Object(object) = result {
                    keep(object);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_projected_per_item_keeping_required_fields() {
        let output = json!({"type": "object", "properties": {"result": {"type": "array", "items": {
            "type": "object", "required": ["id"],
            "properties": {"id": {}, "title": {}, "body": {}, "state": {}}}}}});
        let mut input = json!({"type": "object", "properties": {"project": {"type": "string"}}});
        let projection = Projection::offer(&mut input, &output).unwrap();
        assert_eq!(
            input["properties"]["fields"]["items"]["enum"],
            json!(["body", "id", "state", "title"])
        );
        let mut args = json!({"project": "web", "fields": ["title"]});
        let fields = Projection::take(&mut args).unwrap();
        assert_eq!(args, json!({"project": "web"}));
        let mut result = json!({"result": [{"id": 1, "title": "t", "body": "long"}]});
        projection.apply(&mut result, &fields);
        assert_eq!(result, json!({"result": [{"id": 1, "title": "t"}]}));
    }

    #[test]
    fn small_results_and_taken_names_get_none() {
        let small = json!({"properties": {"a": {}, "b": {}}});
        assert!(Projection::offer(&mut json!({"properties": {}}), &small).is_none());
        let big = json!({"properties": {"a": {}, "b": {}, "c": {}}});
        let mut taken = json!({"properties": {"fields": {}}});
        assert!(Projection::offer(&mut taken, &big).is_none());
    }
}
