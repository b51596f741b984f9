//! Arazzo `simple` conditions (Arazzo 1.0.1 §Criterion Object): literals (`true`,
//! `null`, numbers, `'single-quoted'` strings with `''` for a quote), runtime
//! expressions, `< <= > >= == !=`, `!`, `&&`, `||` and parentheses; string comparisons
//! ignore case. Parsed once into a tree (the generator reports one that does not
//! parse, where it is written); evaluated by the runtime against a step's scope.

use serde_json::Value;

use super::expression::{Expression, Scope};

/// A parsed condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    Literal(Value),
    Expression(Expression),
    Not(Box<Condition>),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
    Compare(Box<Condition>, Op, Box<Condition>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Value(Condition),
    Op(Op),
    Not,
    And,
    Or,
    Open,
    Close,
}

fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            ' ' | '\t' | '\n' | '\r' => i += 1,
            '(' => {
                out.push(Token::Open);
                i += 1;
            }
            ')' => {
                out.push(Token::Close);
                i += 1;
            }
            '&' if next == Some('&') => {
                out.push(Token::And);
                i += 2;
            }
            '|' if next == Some('|') => {
                out.push(Token::Or);
                i += 2;
            }
            '=' if next == Some('=') => {
                out.push(Token::Op(Op::Eq));
                i += 2;
            }
            '!' if next == Some('=') => {
                out.push(Token::Op(Op::Ne));
                i += 2;
            }
            '!' => {
                out.push(Token::Not);
                i += 1;
            }
            '<' | '>' => {
                let or_equal = next == Some('=');
                out.push(Token::Op(match (c, or_equal) {
                    ('<', false) => Op::Lt,
                    ('<', true) => Op::Le,
                    ('>', false) => Op::Gt,
                    _ => Op::Ge,
                }));
                i += if or_equal { 2 } else { 1 };
            }
            '\'' => {
                let mut text = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => return Err("a string literal has no closing `'`".into()),
                        Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                            text.push('\'');
                            i += 2;
                        }
                        Some('\'') => {
                            i += 1;
                            break;
                        }
                        Some(c) => {
                            text.push(*c);
                            i += 1;
                        }
                    }
                }
                out.push(Token::Value(Condition::Literal(Value::String(text))));
            }
            _ => {
                // A word: an expression, a number, or a keyword literal; it ends at
                // whitespace, an operator or a parenthesis.
                let start = i;
                while i < chars.len()
                    && !matches!(
                        chars[i],
                        ' ' | '\t' | '\n' | '\r' | '(' | ')' | '<' | '>' | '=' | '!' | '&' | '|'
                    )
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if word.is_empty() {
                    return Err(format!("unexpected `{c}`"));
                }
                out.push(Token::Value(word_value(&word)?));
            }
        }
    }
    Ok(out)
}

fn word_value(word: &str) -> Result<Condition, String> {
    if word.starts_with('$') {
        return Expression::parse(word).map(Condition::Expression);
    }
    match word {
        "true" => return Ok(Condition::Literal(Value::Bool(true))),
        "false" => return Ok(Condition::Literal(Value::Bool(false))),
        "null" => return Ok(Condition::Literal(Value::Null)),
        _ => {}
    }
    serde_json::from_str::<serde_json::Number>(word)
        .map(|n| Condition::Literal(Value::Number(n)))
        .map_err(|_| {
            format!("`{word}` is neither a runtime expression, a number, true, false, null nor a 'quoted' string")
        })
}

/// Precedence climbing over the tokens: `||` < `&&` < comparison < `!`.
struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn or(&mut self) -> Result<Condition, String> {
        let mut left = self.and()?;
        while self.peek() == Some(&Token::Or) {
            self.at += 1;
            left = Condition::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Condition, String> {
        let mut left = self.comparison()?;
        while self.peek() == Some(&Token::And) {
            self.at += 1;
            left = Condition::And(Box::new(left), Box::new(self.comparison()?));
        }
        Ok(left)
    }

    fn comparison(&mut self) -> Result<Condition, String> {
        let left = self.unary()?;
        if let Some(Token::Op(op)) = self.peek().cloned() {
            self.at += 1;
            let right = self.unary()?;
            return Ok(Condition::Compare(Box::new(left), op, Box::new(right)));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Condition, String> {
        match self.tokens.get(self.at).cloned() {
            Some(Token::Not) => {
                self.at += 1;
                Ok(Condition::Not(Box::new(self.unary()?)))
            }
            Some(Token::Open) => {
                self.at += 1;
                let inner = self.or()?;
                if self.peek() != Some(&Token::Close) {
                    return Err("a `(` has no matching `)`".into());
                }
                self.at += 1;
                Ok(inner)
            }
            Some(Token::Value(v)) => {
                self.at += 1;
                Ok(v)
            }
            Some(other) => Err(format!("expected a value, found {other:?}")),
            None => Err("the condition ends where a value was expected".into()),
        }
    }
}

impl Condition {
    /// Parses a `simple` condition.
    ///
    /// # Errors
    /// What does not parse.
    pub fn parse(text: &str) -> Result<Condition, String> {
        let mut parser = Parser {
            tokens: tokens(text)?,
            at: 0,
        };
        let condition = parser.or()?;
        if parser.at != parser.tokens.len() {
            return Err(format!(
                "`{text}`: unexpected text after a complete condition"
            ));
        }
        Ok(condition)
    }

    /// A `jsonpath` criterion of the one form the specification's examples use, a
    /// filter on the context value itself (`$[?@.access_token != null]` with context
    /// `$response.body`): `@.a.b` reads `/a/b` of the context, and the filter is the
    /// `simple` condition that makes. Other JSONPath is refused (reported by the
    /// generator, a failing criterion at run time).
    ///
    /// # Errors
    /// A condition of another form, or one that does not parse.
    pub fn jsonpath_filter(condition: &str, context: &str) -> Result<Condition, String> {
        let refused = || {
            format!(
                "JSONPath `{condition}` is not evaluated: only a filter on the context value (`$[?@.field != null]`) is"
            )
        };
        let inner = condition
            .trim()
            .strip_prefix("$[?")
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(refused)?;
        let (base, pointer) = match context.split_once('#') {
            Some((base, pointer)) => (base, pointer.to_owned()),
            None => (context, String::new()),
        };
        let chars: Vec<char> = inner.chars().collect();
        let mut text = String::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '@' {
                text.push(chars[i]);
                i += 1;
                continue;
            }
            i += 1;
            let mut path = pointer.clone();
            while chars.get(i) == Some(&'.') {
                i += 1;
                let start = i;
                while chars
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
                {
                    i += 1;
                }
                if start == i {
                    return Err(refused());
                }
                let name: String = chars[start..i].iter().collect();
                path.push('/');
                path.push_str(&name);
            }
            if matches!(chars.get(i), Some('[')) {
                return Err(refused());
            }
            text.push_str(base);
            if !path.is_empty() {
                text.push('#');
                text.push_str(&path);
            }
        }
        Condition::parse(&text).map_err(|e| format!("JSONPath `{condition}`: {e}"))
    }

    /// Every runtime expression the condition reads.
    pub fn expressions(&self) -> Vec<&Expression> {
        match self {
            Condition::Literal(_) => Vec::new(),
            Condition::Expression(e) => vec![e],
            Condition::Not(c) => c.expressions(),
            Condition::And(a, b) | Condition::Or(a, b) | Condition::Compare(a, _, b) => {
                let mut out = a.expressions();
                out.extend(b.expressions());
                out
            }
        }
    }

    fn value(&self, scope: &dyn Scope) -> Value {
        match self {
            Condition::Literal(v) => v.clone(),
            Condition::Expression(e) => scope.value(e).unwrap_or(Value::Null),
            other => Value::Bool(other.holds(scope)),
        }
    }

    /// Whether the condition holds. A value on its own holds when it is truthy (not
    /// `false`, `null`, `0` or `''`); an expression with no value is `null`.
    pub fn holds(&self, scope: &dyn Scope) -> bool {
        match self {
            Condition::Not(c) => !c.holds(scope),
            Condition::And(a, b) => a.holds(scope) && b.holds(scope),
            Condition::Or(a, b) => a.holds(scope) || b.holds(scope),
            Condition::Compare(a, op, b) => compare(&a.value(scope), *op, &b.value(scope)),
            single => truthy(&single.value(scope)),
        }
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// Loose comparison: numbers (a numeric string counts as its number), strings
/// ignoring case, everything else by equality only.
fn compare(a: &Value, op: Op, b: &Value) -> bool {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    let ordering = match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x.to_lowercase().cmp(&y.to_lowercase())),
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => x.partial_cmp(&y),
            _ => None,
        },
    };
    match (op, ordering) {
        (Op::Eq, Some(o)) => o.is_eq(),
        (Op::Ne, Some(o)) => o.is_ne(),
        (Op::Eq, None) => a == b,
        (Op::Ne, None) => a != b,
        (Op::Lt, Some(o)) => o.is_lt(),
        (Op::Le, Some(o)) => o.is_le(),
        (Op::Gt, Some(o)) => o.is_gt(),
        (Op::Ge, Some(o)) => o.is_ge(),
        (_, None) => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_examples_jsonpath_filter_reads_the_context() {
        let c = Condition::jsonpath_filter("$[?@.access_token != null]", "$response.body").unwrap();
        assert_eq!(
            c.expressions(),
            [&Expression::parse("$response.body#/access_token").unwrap()]
        );
        assert!(Condition::jsonpath_filter("$.pets[0]", "$response.body").is_err());
        assert!(Condition::jsonpath_filter("$[?@.pets[0]]", "$response.body").is_err());
    }

    use super::*;
    use serde_json::json;

    struct Exchange;
    impl Scope for Exchange {
        fn value(&self, e: &Expression) -> Option<Value> {
            match e {
                Expression::StatusCode => Some(json!(201)),
                Expression::Response(super::super::expression::Source::Body(Some(p)))
                    if p == "/status" =>
                {
                    Some(json!("Available"))
                }
                Expression::Response(super::super::expression::Source::Header(h))
                    if h == "X-Rate-Limit" =>
                {
                    Some(json!("7"))
                }
                _ => None,
            }
        }
    }

    fn holds(text: &str) -> bool {
        Condition::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .holds(&Exchange)
    }

    #[test]
    fn simple_conditions_as_the_specification_writes_them() {
        assert!(holds("$statusCode == 201"));
        assert!(!holds("$statusCode == 200"));
        assert!(holds("$statusCode >= 200 && $statusCode < 300"));
        assert!(holds("$statusCode == 404 || $statusCode == 201"));
        assert!(holds("!($statusCode == 500)"));
        // Strings compare ignoring case; quotes doubled inside.
        assert!(holds("$response.body#/status == 'available'"));
        assert!(
            Condition::parse("'it''s' == 'IT''S'")
                .unwrap()
                .holds(&Exchange)
        );
        // A numeric header compares as its number.
        assert!(holds("$response.header.X-Rate-Limit > 5"));
        // A missing value is null.
        assert!(holds("$response.body#/missing == null"));
        assert!(!holds("$response.body#/missing"));
        let condition =
            Condition::parse("$statusCode == 200 && $steps.a.outputs.b != null").unwrap();
        assert_eq!(condition.expressions().len(), 2);
    }

    #[test]
    fn bad_conditions_say_what_is_wrong() {
        for (text, needle) in [
            ("$statusCode ==", "ends where a value was expected"),
            ("($statusCode == 200", "no matching `)`"),
            ("$statusCode == 'open", "no closing `'`"),
            ("$statusCode == two", "`two` is neither"),
            ("$statuscode == 200", "no runtime expression"),
            ("$statusCode == 200 200", "unexpected text"),
        ] {
            let e = Condition::parse(text).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }
}
