//! A catalog's bench aliases (`benches/retrieval/aliases/*.tsv`) written into its OpenAPI
//! document as `x-toolwright-aliases`, as the API's owner would: on an operation (by its
//! `operationId`) or on a top-level tag (`tag:NAME`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A copy of the JSON document `path` in `work` with the aliases of `file` inserted.
pub fn insert(path: &Path, file: &Path, work: &Path) -> Result<PathBuf, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let document = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut document: Value = serde_json::from_slice(&document)
        .map_err(|e| format!("{}: not JSON ({e})", path.display()))?;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let Some((target, words)) = line.split_once('\t') else {
            return Err(format!("{}: no tab in `{line}`", file.display()));
        };
        let words: Vec<&str> = words.split(',').map(str::trim).collect();
        let place = match target.strip_prefix("tag:") {
            Some(tag) => tag_of(&mut document, tag),
            None => operation(&mut document, target),
        };
        let Some(Value::Object(place)) = place else {
            return Err(format!("{}: `{target}` is in no document", file.display()));
        };
        place.insert("x-toolwright-aliases".into(), json!(words));
    }
    let out = work.join(format!(
        "aliased-{}",
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("openapi.json")
    ));
    let bytes = serde_json::to_vec(&document).map_err(|e| e.to_string())?;
    std::fs::write(&out, bytes).map_err(|e| e.to_string())?;
    Ok(out)
}

fn tag_of<'a>(document: &'a mut Value, name: &str) -> Option<&'a mut Value> {
    document
        .get_mut("tags")?
        .as_array_mut()?
        .iter_mut()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
}

fn operation<'a>(document: &'a mut Value, id: &str) -> Option<&'a mut Value> {
    document
        .get_mut("paths")?
        .as_object_mut()?
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .find(|op| op.get("operationId").and_then(Value::as_str) == Some(id))
}
