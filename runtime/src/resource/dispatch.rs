//! Call-by-name for resources: JSON arguments → typed key / draft / patch / query
//! (serde names the offending field) → the service's verb → JSON result.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::{Query, Record, Resource, ResourceError, Verb};
use crate::validate;

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A resource with its types erased, as the executor holds it.
pub trait Handler: Send + Sync {
    fn call(
        &self,
        verb: Verb,
        args: Map<String, Value>,
    ) -> BoxFuture<'_, Result<Value, ResourceError>>;
}

/// Erases a resource's types.
pub fn handler<R: Resource>(resource: R) -> Arc<dyn Handler> {
    let schema =
        crate::schema::SchemaGenerator::root::<R::Record>(crate::schema::Direction::Output);
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    Arc::new(Bound {
        resource,
        properties,
    })
}

struct Bound<R> {
    resource: R,
    /// The record's property names (search conditions must name one), computed once.
    properties: Vec<String>,
}

impl<R: Resource> Handler for Bound<R> {
    fn call(
        &self,
        verb: Verb,
        mut args: Map<String, Value>,
    ) -> BoxFuture<'_, Result<Value, ResourceError>> {
        let spec = <R::Record as Record>::SPEC;
        let key_name = spec.key.unwrap_or("id");
        Box::pin(async move {
            let resource = &self.resource;
            match verb {
                Verb::Get => {
                    let key = take_key::<R>(&mut args, key_name, false)?;
                    no_more(&args)?;
                    record_json::<R>(&resource.get(key).await?)
                }
                Verb::Search => {
                    let query: Query = parse(Value::Object(args))?;
                    check_attributes::<R>(&query, &self.properties)?;
                    let records = resource.search(query.clone()).await?;
                    let limit = query.limit.map_or(usize::MAX, |l| l as usize);
                    let records = records
                        .iter()
                        .take(limit)
                        .map(record_json::<R>)
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(json!({ "records": records }))
                }
                Verb::Create => {
                    let draft = parse(Value::Object(args))?;
                    record_json::<R>(&resource.create(draft).await?)
                }
                Verb::Update => {
                    let key = take_key::<R>(&mut args, key_name, spec.key_in_draft)?;
                    let draft = parse(Value::Object(args))?;
                    record_json::<R>(&resource.update(key, draft).await?)
                }
                Verb::Patch => {
                    let key = take_key::<R>(&mut args, key_name, false)?;
                    let patch = parse(Value::Object(args))?;
                    record_json::<R>(&resource.patch(key, patch).await?)
                }
                Verb::Delete => {
                    let key = take_key::<R>(&mut args, key_name, false)?;
                    no_more(&args)?;
                    let shown = to_json(&key)?;
                    resource.delete(key).await?;
                    Ok(json!({ "deleted": true, key_name: shown }))
                }
            }
        })
    }
}

fn parse<T: DeserializeOwned>(value: Value) -> Result<T, ResourceError> {
    validate::deserialize(&value).map_err(|e| ResourceError::invalid(e.to_string()))
}

fn to_json<T: Serialize>(value: &T) -> Result<Value, ResourceError> {
    serde_json::to_value(value)
        .map_err(|e| ResourceError::internal(format!("cannot serialize the result: {e}")))
}

/// The primary key argument; `keep` leaves it in the arguments (it is also a draft field).
fn take_key<R: Resource>(
    args: &mut Map<String, Value>,
    name: &str,
    keep: bool,
) -> Result<<R::Record as Record>::Key, ResourceError> {
    let value = if keep {
        args.get(name).cloned()
    } else {
        args.remove(name)
    };
    let value = value.ok_or_else(|| ResourceError::invalid(format!("missing field `{name}`")))?;
    validate::deserialize(&value)
        .map_err(|e| ResourceError::invalid(format!("field `{name}`: {}", e.message)))
}

fn no_more(args: &Map<String, Value>) -> Result<(), ResourceError> {
    match args.keys().next() {
        Some(extra) => Err(ResourceError::invalid(format!("unknown field `{extra}`"))),
        None => Ok(()),
    }
}

/// A record as returned: serialized, write-only fields removed.
fn record_json<R: Resource>(record: &R::Record) -> Result<Value, ResourceError> {
    let mut value = to_json(record)?;
    if let Value::Object(map) = &mut value {
        for name in <R::Record as Record>::SPEC.write_only {
            map.remove(*name);
        }
    }
    Ok(value)
}

/// Attributes must be property names of the record; say which ones exist.
fn check_attributes<R: Resource>(query: &Query, names: &[String]) -> Result<(), ResourceError> {
    for (i, condition) in query.conditions.iter().enumerate() {
        if !names.contains(&condition.attribute) {
            return Err(ResourceError::invalid(format!(
                "field `conditions[{i}].attribute`: `{}` is not a property of {}; expected one of {}",
                condition.attribute,
                <R::Record as Record>::SPEC.name,
                names.join(", ")
            )));
        }
    }
    Ok(())
}
