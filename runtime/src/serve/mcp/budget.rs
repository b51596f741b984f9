//! Results that fit a context window. Clients refuse tool results over a token budget
//! (one popular client stops at 25,000 tokens), so a result answered to a model is cut
//! to a character budget: its longest arrays keep as many leading items as fit, and the
//! result says so (`truncated: true`, and a note naming the tool's paging and filter
//! arguments). Typed callers and `Executor::call` still get everything.

use serde_json::{Value, json};

/// About 25,000 tokens at ~4 characters a token.
pub const DEFAULT_BUDGET: usize = 100_000;

/// Argument names that page or narrow a result, as APIs commonly spell them.
const NARROWING: &[&str] = &[
    "limit",
    "per_page",
    "page_size",
    "pagesize",
    "top",
    "max_results",
    "maxresults",
    "page",
    "cursor",
    "offset",
    "starting_after",
    "after",
    "before",
    "since",
    "q",
    "query",
    "search",
    "filter",
    "fields",
    "select",
];

/// Cuts `value` to `budget` characters of JSON where arrays allow it. Returns the note
/// for the model when something was cut.
pub fn fit(value: &mut Value, budget: usize, input_schema: &Value) -> Option<String> {
    let size = value.to_string().len();
    if size <= budget {
        return None;
    }
    let mut arrays = Vec::new();
    collect_arrays(value, String::new(), 0, &mut arrays);
    // Largest first: cutting them gains the most.
    arrays.sort_by_key(|(path, _)| {
        std::cmp::Reverse(
            value
                .pointer(&pointer(path))
                .map_or(0, |a| a.to_string().len()),
        )
    });
    let mut cuts = Vec::new();
    for (path, len) in arrays {
        if value.to_string().len() <= budget {
            break;
        }
        // The most items of this array that still fit (at least one, so the model
        // sees the shape), by bisection.
        let original: Vec<Value> = array_at(value, &path).cloned().unwrap_or_default();
        let (mut low, mut high) = (1usize, original.len());
        while low < high {
            let mid = (low + high).div_ceil(2);
            set_array(value, &path, original[..mid].to_vec());
            if value.to_string().len() <= budget {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        set_array(value, &path, original[..low.min(original.len())].to_vec());
        if low < len {
            cuts.push(format!(
                "`{}` to {low} of {len} items",
                if path.is_empty() { "result" } else { &path }
            ));
        }
    }
    if cuts.is_empty() {
        return None;
    }
    let narrowing: Vec<String> = input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .keys()
                .filter(|k| {
                    let lower = k.to_ascii_lowercase();
                    NARROWING
                        .iter()
                        .any(|n| lower == *n || lower.starts_with("filter"))
                })
                .map(|k| format!("`{k}`"))
                .collect()
        })
        .unwrap_or_default();
    let hint = if narrowing.is_empty() {
        String::new()
    } else {
        format!("; ask for less with {}", narrowing.join(", "))
    };
    let note = format!(
        "The result was cut to fit {budget} characters: {}{hint}.",
        cuts.join(", ")
    );
    if let Value::Object(map) = value {
        map.insert("truncated".into(), json!(true));
    }
    Some(note)
}

/// Arrays in objects (a dotted path each), down to a few levels; the root if it is one.
fn collect_arrays(value: &Value, path: String, depth: usize, out: &mut Vec<(String, usize)>) {
    match value {
        Value::Array(items) => out.push((path, items.len())),
        Value::Object(map) if depth < 4 => {
            for (key, child) in map {
                let child_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                collect_arrays(child, child_path, depth + 1, out);
            }
        }
        _ => {}
    }
}

fn pointer(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        path.split('.')
            .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
            .collect()
    }
}

fn array_at<'a>(value: &'a Value, path: &str) -> Option<&'a Vec<Value>> {
    value.pointer(&pointer(path)).and_then(Value::as_array)
}

fn set_array(value: &mut Value, path: &str, items: Vec<Value>) {
    if let Some(slot) = value.pointer_mut(&pointer(path)) {
        *slot = Value::Array(items);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_arrays_are_cut_with_a_note() {
        let mut value = json!({"total": 500, "items": (0..500).map(|i| json!({"id": i, "name": "x".repeat(50)})).collect::<Vec<_>>()});
        let schema = json!({"properties": {"per_page": {}, "page": {}, "owner": {}}});
        let note = fit(&mut value, 5_000, &schema).unwrap();
        assert!(value.to_string().len() <= 5_000);
        assert_eq!(value["truncated"], true);
        let kept = value["items"].as_array().unwrap().len();
        assert!(kept > 10 && kept < 500, "{kept}");
        assert_eq!(value["items"][0]["id"], 0, "leading items are kept");
        assert_eq!(
            note,
            format!(
                "The result was cut to fit 5000 characters: `items` to {kept} of 500 items; ask for less with `page`, `per_page`."
            )
        );
        let mut small = json!({"items": [1, 2, 3]});
        assert!(fit(&mut small, 5_000, &schema).is_none());
        assert!(small.get("truncated").is_none());
    }
}
