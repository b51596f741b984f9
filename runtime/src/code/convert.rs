//! Script values to JSON, walked by hand so the walk can stop at a byte budget: a
//! script's `Array(1e6).fill("x".repeat(1000))` is 16 MB of engine memory but 1 GB of
//! JSON, and `JSON.stringify` would build all of it before anyone could say no.
//!
//! What the walk reads is what `JSON.stringify` would: own enumerable string keys
//! (nothing inherited, so a polluted `Object.prototype` adds nothing), `undefined` and
//! functions left out of objects and `null` in arrays, non-finite numbers as `null`;
//! and what it cannot, a BigInt, as a decimal string with every digit.
//!
//! Every step is charged, the ones that write nothing included (a key whose value is
//! `undefined` costs a byte): the walk runs in Rust, where the interrupt handler is
//! not polled, so the budget is what bounds its time.

use rquickjs::{Array, Coerced, FromJs, Object, Type, Value as JsValue};
use serde_json::{Map, Number, Value};

/// Nesting a value may have (a cycle reaches it too).
pub(super) const MAX_DEPTH: usize = 64;

/// Why a value did not become JSON.
#[derive(Debug)]
pub(super) enum Unfit {
    /// More bytes than the budget allowed.
    TooLarge,
    /// Not data: what it is.
    NotData(String),
    /// A getter, proxy trap or `toJSON` threw: the exception is pending in the engine.
    Thrown,
}

/// `value` as JSON, charging its approximate JSON length against `budget`.
pub(super) fn to_json(value: &JsValue<'_>, budget: &mut usize) -> Result<Value, Unfit> {
    walk(value, budget, 0)
}

fn charge(budget: &mut usize, bytes: usize) -> Result<(), Unfit> {
    *budget = budget.checked_sub(bytes).ok_or(Unfit::TooLarge)?;
    Ok(())
}

fn walk(value: &JsValue<'_>, budget: &mut usize, depth: usize) -> Result<Value, Unfit> {
    if depth > MAX_DEPTH {
        return Err(Unfit::NotData(format!(
            "nested deeper than {MAX_DEPTH} levels (a cycle?)"
        )));
    }
    let engine = |e: rquickjs::Error| match e {
        rquickjs::Error::Exception => Unfit::Thrown,
        other => Unfit::NotData(other.to_string()),
    };
    match value.type_of() {
        Type::Uninitialized | Type::Undefined | Type::Null => {
            charge(budget, 4)?;
            Ok(Value::Null)
        }
        Type::Bool => {
            charge(budget, 5)?;
            Ok(Value::Bool(value.as_bool().unwrap_or_default()))
        }
        Type::Int => {
            charge(budget, 11)?;
            Ok(Value::from(value.as_int().unwrap_or_default()))
        }
        Type::Float => {
            charge(budget, 24)?;
            let float = value.as_float().unwrap_or(f64::NAN);
            // The engine keeps some integers as doubles; JSON.stringify writes `2`, not `2.0`.
            if float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0 {
                return Ok(Value::from(float as i64));
            }
            Ok(Number::from_f64(float).map_or(Value::Null, Value::Number))
        }
        Type::String => {
            let text = value
                .as_string()
                .map(|s| s.to_string())
                .transpose()
                .map_err(engine)?
                .unwrap_or_default();
            charge(budget, text.len() + 2)?;
            Ok(Value::String(text))
        }
        Type::BigInt => {
            // As JSON.stringify cannot; a decimal string keeps every digit (the
            // engine's own `toString`: no detour through a 64-bit integer).
            let text = Coerced::<String>::from_js(value.ctx(), value.clone())
                .map_err(engine)?
                .0;
            charge(budget, text.len() + 2)?;
            Ok(Value::String(text))
        }
        Type::Array => {
            let array: &Array<'_> = value
                .as_array()
                .ok_or_else(|| Unfit::NotData("an array that is not".into()))?;
            charge(budget, 2)?;
            // Read as a number: a length of 2^31 or more is not an engine integer
            // (rquickjs's `len` asserts it is). Each element writes at least `null,`.
            let length: f64 = array.as_object().get("length").map_err(engine)?;
            if length * 5.0 > *budget as f64 {
                return Err(Unfit::TooLarge);
            }
            let mut items = Vec::new();
            for index in 0..length as usize {
                let item: JsValue<'_> = array.get(index).map_err(engine)?;
                let item = if item.is_function() || item.is_symbol() {
                    charge(budget, 4)?;
                    Value::Null
                } else {
                    walk(&item, budget, depth + 1)?
                };
                charge(budget, 1)?;
                items.push(item);
            }
            Ok(Value::Array(items))
        }
        Type::Object | Type::Exception | Type::Proxy => {
            let object: &Object<'_> = value
                .as_object()
                .ok_or_else(|| Unfit::NotData("an object that is not".into()))?;
            charge(budget, 2)?;
            let mut map = Map::new();
            for entry in object.props::<String, JsValue<'_>>() {
                let (key, item) = entry.map_err(engine)?;
                if item.is_undefined() || item.is_function() || item.is_symbol() {
                    charge(budget, 1)?;
                    continue;
                }
                charge(budget, key.len() + 4)?;
                let item = walk(&item, budget, depth + 1)?;
                map.insert(key, item);
            }
            Ok(Value::Object(map))
        }
        Type::Promise => Err(Unfit::NotData(
            "a promise (`await` it before returning)".into(),
        )),
        Type::Function | Type::Constructor => Err(Unfit::NotData("a function".into())),
        Type::Symbol => Err(Unfit::NotData("a symbol".into())),
        Type::Module | Type::Unknown => Err(Unfit::NotData("not a JavaScript value".into())),
    }
}
