//! Arazzo runtime expressions (Arazzo 1.0.1 §Runtime Expressions): `$statusCode`,
//! `$response.body#/id`, `$steps.login.outputs.token`, `$inputs.username`... Parsed
//! once — by the generator, which checks the steps, outputs and inputs they name, and
//! by the runtime, which evaluates them against a step's exchange and the workflow's
//! state so far.

use serde_json::Value;

/// Where in a request or response a value is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A header (case-insensitive name).
    Header(String),
    Query(String),
    Path(String),
    /// The body, or the value a JSON pointer selects in it.
    Body(Option<String>),
}

/// One runtime expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expression {
    Url,
    Method,
    StatusCode,
    Request(Source),
    Response(Source),
    /// `$inputs.name`, with a pointer into the value (`#/0/id`).
    Inputs(String, Option<String>),
    /// `$outputs.name` of the workflow itself.
    Outputs(String, Option<String>),
    /// `$steps.<step>.outputs.<name>`.
    StepOutput {
        step: String,
        output: String,
        pointer: Option<String>,
    },
    /// `$workflows.<workflow>.outputs.<name>` or `.inputs.<name>`.
    Workflow {
        workflow: String,
        inputs: bool,
        name: String,
        pointer: Option<String>,
    },
    /// `$sourceDescriptions.<name>.<rest>` (a source's `url`, or an operation in it).
    SourceDescription(String, String),
    /// `$components.<rest>`.
    Components(String),
}

/// Splits `name#/pointer`.
fn with_pointer(text: &str) -> (String, Option<String>) {
    match text.split_once('#') {
        Some((name, pointer)) => (name.to_owned(), Some(pointer.to_owned())),
        None => (text.to_owned(), None),
    }
}

fn source(rest: &str, whole: &str) -> Result<Source, String> {
    if let Some(name) = rest.strip_prefix("header.") {
        return non_empty(name, whole).map(|n| Source::Header(n.to_owned()));
    }
    if let Some(name) = rest.strip_prefix("query.") {
        return non_empty(name, whole).map(|n| Source::Query(n.to_owned()));
    }
    if let Some(name) = rest.strip_prefix("path.") {
        return non_empty(name, whole).map(|n| Source::Path(n.to_owned()));
    }
    if rest == "body" {
        return Ok(Source::Body(None));
    }
    if let Some(pointer) = rest.strip_prefix("body#") {
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(format!("`{whole}`: a JSON pointer starts with `/`"));
        }
        return Ok(Source::Body(Some(pointer.to_owned())));
    }
    Err(format!(
        "`{whole}`: after `$request.` or `$response.` comes `header.NAME`, `query.NAME`, `path.NAME` or `body` (optionally `body#/pointer`)"
    ))
}

fn non_empty<'a>(name: &'a str, whole: &str) -> Result<&'a str, String> {
    if name.is_empty() {
        Err(format!("`{whole}` names nothing after its last `.`"))
    } else {
        Ok(name)
    }
}

impl Expression {
    /// Parses one expression (the whole text, starting with `$`).
    ///
    /// # Errors
    /// What is wrong, quoting the expression.
    pub fn parse(text: &str) -> Result<Expression, String> {
        let whole = text;
        match text {
            "$url" => return Ok(Expression::Url),
            "$method" => return Ok(Expression::Method),
            "$statusCode" => return Ok(Expression::StatusCode),
            _ => {}
        }
        if let Some(rest) = text.strip_prefix("$request.") {
            return source(rest, whole).map(Expression::Request);
        }
        if let Some(rest) = text.strip_prefix("$response.") {
            return source(rest, whole).map(Expression::Response);
        }
        if let Some(rest) = text.strip_prefix("$inputs.") {
            let (name, pointer) = with_pointer(rest);
            non_empty(&name, whole)?;
            return Ok(Expression::Inputs(name, pointer));
        }
        if let Some(rest) = text.strip_prefix("$outputs.") {
            let (name, pointer) = with_pointer(rest);
            non_empty(&name, whole)?;
            return Ok(Expression::Outputs(name, pointer));
        }
        if let Some(rest) = text.strip_prefix("$steps.") {
            let (path, pointer) = with_pointer(rest);
            return match path.split_once(".outputs.") {
                Some((step, output)) if !step.is_empty() && !output.is_empty() => {
                    Ok(Expression::StepOutput {
                        step: step.to_owned(),
                        output: output.to_owned(),
                        pointer,
                    })
                }
                _ => Err(format!(
                    "`{whole}`: a step's value is `$steps.<stepId>.outputs.<name>`"
                )),
            };
        }
        if let Some(rest) = text.strip_prefix("$workflows.") {
            let (path, pointer) = with_pointer(rest);
            let found = [(".outputs.", false), (".inputs.", true)]
                .into_iter()
                .find_map(|(infix, inputs)| {
                    let (workflow, name) = path.split_once(infix)?;
                    (!workflow.is_empty() && !name.is_empty()).then(|| Expression::Workflow {
                        workflow: workflow.to_owned(),
                        inputs,
                        name: name.to_owned(),
                        pointer: pointer.clone(),
                    })
                });
            return found.ok_or_else(|| {
                format!("`{whole}`: a workflow's value is `$workflows.<workflowId>.outputs.<name>` or `.inputs.<name>`")
            });
        }
        if let Some(rest) = text.strip_prefix("$sourceDescriptions.") {
            return match rest.split_once('.') {
                Some((name, rest)) if !name.is_empty() && !rest.is_empty() => Ok(
                    Expression::SourceDescription(name.to_owned(), rest.to_owned()),
                ),
                _ => Err(format!(
                    "`{whole}`: a source's value is `$sourceDescriptions.<name>.<field or operationId>`"
                )),
            };
        }
        if let Some(rest) = text.strip_prefix("$components.") {
            non_empty(rest, whole)?;
            return Ok(Expression::Components(rest.to_owned()));
        }
        Err(format!(
            "`{whole}` is no runtime expression: one of $url, $method, $statusCode, $request., $response., $inputs., $outputs., $steps., $workflows., $sourceDescriptions., $components."
        ))
    }
}

/// A value written in an Arazzo document: a runtime expression, a string with
/// expressions embedded in `{}` (`Bearer {$steps.login.outputs.token}`), or a constant.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    Expression(Expression),
    Template(Vec<Piece>),
    Constant(Value),
}

/// A part of a template string.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Expression(Expression),
}

impl Written {
    /// Reads a value as written: a string starting with `$` is an expression, one
    /// holding `{$...}` a template; anything else (objects and arrays too, whose
    /// strings are read the same way by [`Written::expressions_in`]) a constant.
    ///
    /// # Errors
    /// An expression that does not parse.
    pub fn parse(value: &Value) -> Result<Written, String> {
        let Value::String(text) = value else {
            return Ok(Written::Constant(value.clone()));
        };
        if text.starts_with('$') {
            return Expression::parse(text).map(Written::Expression);
        }
        if !text.contains("{$") {
            return Ok(Written::Constant(value.clone()));
        }
        let mut pieces = Vec::new();
        let mut rest = text.as_str();
        while let Some(open) = rest.find("{$") {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_owned()));
            }
            let close = rest[open..]
                .find('}')
                .map(|c| open + c)
                .ok_or_else(|| format!("`{text}`: an embedded expression has no closing `}}`"))?;
            pieces.push(Piece::Expression(Expression::parse(
                &rest[open + 1..close],
            )?));
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_owned()));
        }
        Ok(Written::Template(pieces))
    }

    /// Every expression in a value, however deep (a request body's payload).
    ///
    /// # Errors
    /// The first expression that does not parse.
    pub fn expressions_in(value: &Value) -> Result<Vec<Expression>, String> {
        let mut out = Vec::new();
        match value {
            Value::Array(items) => {
                for item in items {
                    out.extend(Written::expressions_in(item)?);
                }
            }
            Value::Object(map) => {
                for item in map.values() {
                    out.extend(Written::expressions_in(item)?);
                }
            }
            other => match Written::parse(other)? {
                Written::Expression(e) => out.push(e),
                Written::Template(pieces) => {
                    out.extend(pieces.into_iter().filter_map(|p| match p {
                        Piece::Expression(e) => Some(e),
                        Piece::Text(_) => None,
                    }));
                }
                Written::Constant(_) => {}
            },
        }
        Ok(out)
    }
}

/// What an expression is evaluated against: the runtime gives the values of the step
/// in hand and of the workflow so far. `None`: no such value (yet).
pub trait Scope {
    fn value(&self, expression: &Expression) -> Option<Value>;
}

/// Applies a JSON pointer (`None`: the whole value).
pub fn pointed(value: Value, pointer: Option<&str>) -> Option<Value> {
    match pointer {
        None | Some("") => Some(value),
        Some(p) => value.pointer(p).cloned(),
    }
}

impl Written {
    /// The value: an expression's (keeping its type), a template's text, a constant.
    /// An expression with no value gives `None`; in a template, the empty string.
    pub fn evaluate(&self, scope: &dyn Scope) -> Option<Value> {
        match self {
            Written::Expression(e) => scope.value(e),
            Written::Constant(v) => Some(v.clone()),
            Written::Template(pieces) => {
                let mut text = String::new();
                for piece in pieces {
                    match piece {
                        Piece::Text(t) => text.push_str(t),
                        Piece::Expression(e) => match scope.value(e) {
                            Some(Value::String(s)) => text.push_str(&s),
                            Some(Value::Null) | None => {}
                            Some(other) => text.push_str(&other.to_string()),
                        },
                    }
                }
                Some(Value::String(text))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_specifications_examples_parse() {
        assert_eq!(Expression::parse("$statusCode"), Ok(Expression::StatusCode));
        assert_eq!(
            Expression::parse("$request.header.accept"),
            Ok(Expression::Request(Source::Header("accept".into())))
        );
        assert_eq!(
            Expression::parse("$request.body#/user/uuid"),
            Ok(Expression::Request(Source::Body(Some("/user/uuid".into()))))
        );
        assert_eq!(
            Expression::parse("$response.body"),
            Ok(Expression::Response(Source::Body(None)))
        );
        assert_eq!(
            Expression::parse("$steps.someStepId.outputs.pets#/0/id"),
            Ok(Expression::StepOutput {
                step: "someStepId".into(),
                output: "pets".into(),
                pointer: Some("/0/id".into()),
            })
        );
        assert_eq!(
            Expression::parse("$workflows.foo.inputs.username"),
            Ok(Expression::Workflow {
                workflow: "foo".into(),
                inputs: true,
                name: "username".into(),
                pointer: None,
            })
        );
        assert_eq!(
            Expression::parse("$sourceDescriptions.petStore.loginUser"),
            Ok(Expression::SourceDescription(
                "petStore".into(),
                "loginUser".into()
            ))
        );
        assert_eq!(
            Expression::parse("$inputs.x-api-key"),
            Ok(Expression::Inputs("x-api-key".into(), None))
        );
        for bad in [
            "$status",
            "$steps.login.token",
            "$response.bod",
            "$response.body#id",
            "$inputs.",
        ] {
            assert!(Expression::parse(bad).is_err(), "{bad}");
        }
    }

    struct Fixed;
    impl Scope for Fixed {
        fn value(&self, e: &Expression) -> Option<Value> {
            match e {
                Expression::StatusCode => Some(json!(200)),
                Expression::StepOutput { output, .. } if output == "token" => Some(json!("t0k")),
                _ => None,
            }
        }
    }

    #[test]
    fn values_templates_and_constants() {
        let token = Written::parse(&json!("$steps.login.outputs.token")).unwrap();
        assert_eq!(token.evaluate(&Fixed), Some(json!("t0k")));
        let header = Written::parse(&json!("Bearer {$steps.login.outputs.token}")).unwrap();
        assert_eq!(header.evaluate(&Fixed), Some(json!("Bearer t0k")));
        let status = Written::parse(&json!("$statusCode")).unwrap();
        assert_eq!(status.evaluate(&Fixed), Some(json!(200)));
        assert_eq!(
            Written::parse(&json!("available")).unwrap(),
            Written::Constant(json!("available"))
        );
        let body = json!({"pet": {"id": "$steps.find.outputs.id", "tag": "cute"}, "n": 3});
        assert_eq!(
            Written::expressions_in(&body).unwrap(),
            [Expression::StepOutput {
                step: "find".into(),
                output: "id".into(),
                pointer: None
            }]
        );
        assert!(Written::parse(&json!("x {$statusCode")).is_err());
    }
}
