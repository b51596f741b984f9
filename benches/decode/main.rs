//! Decode cost of written-out (`codec`) serde impls against the derive; run by
//! `benches/decode.sh` (not part of the workspace).

use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::__private::codec::{FieldError, Fields, object};

#[derive(Deserialize)]
#[allow(dead_code)]
struct DOwner {
    login: String,
    id: i64,
    site_admin: Option<bool>,
}
#[derive(Deserialize)]
#[allow(dead_code)]
struct DLabel {
    name: String,
    color: Option<String>,
    owner: DOwner,
}
#[derive(Deserialize)]
#[allow(dead_code)]
struct DIssue {
    number: i64,
    title: String,
    body: Option<String>,
    labels: Vec<DLabel>,
    user: DOwner,
}

#[allow(dead_code)]
struct LOwner {
    login: String,
    id: i64,
    site_admin: Option<bool>,
}
#[allow(dead_code)]
struct LLabel {
    name: String,
    color: Option<String>,
    owner: LOwner,
}
#[allow(dead_code)]
struct LIssue {
    number: i64,
    title: String,
    body: Option<String>,
    labels: Vec<LLabel>,
    user: LOwner,
}
impl<'de> Deserialize<'de> for LOwner {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        fn fields(o: &mut Fields) -> Result<LOwner, FieldError> {
            Ok(LOwner {
                login: o.req("login")?,
                id: o.req("id")?,
                site_admin: o.opt("site_admin")?,
            })
        }
        object(d, "struct LOwner", fields)
    }
}
impl<'de> Deserialize<'de> for LLabel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        fn fields(o: &mut Fields) -> Result<LLabel, FieldError> {
            Ok(LLabel {
                name: o.req("name")?,
                color: o.opt("color")?,
                owner: o.req("owner")?,
            })
        }
        object(d, "struct LLabel", fields)
    }
}
impl<'de> Deserialize<'de> for LIssue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        fn fields(o: &mut Fields) -> Result<LIssue, FieldError> {
            Ok(LIssue {
                number: o.req("number")?,
                title: o.req("title")?,
                body: o.opt("body")?,
                labels: o.req("labels")?,
                user: o.req("user")?,
            })
        }
        object(d, "struct LIssue", fields)
    }
}

fn main() {
    let owner = json!({"login": "octocat", "id": 1, "site_admin": false, "avatar_url": "https://x/y.png", "type": "User"});
    let issues: Vec<Value> = (0..500).map(|i| json!({"number": i, "title": "A title of an issue", "body": "Some longer body text here.", "state": "open",
        "labels": [{"name": "bug", "color": "f00", "owner": owner}, {"name": "ui", "color": "0f0", "owner": owner}], "user": owner, "extra": {"a": [1,2,3]}})).collect();
    let doc = Value::Array(issues);
    for round in 0..3 {
        let n = 50;
        let t = std::time::Instant::now();
        for _ in 0..n {
            let v: Vec<DIssue> = toolwright::validate::deserialize_owned(doc.clone()).unwrap();
            assert_eq!(v.len(), 500);
        }
        let derived = t.elapsed() / n;
        let t = std::time::Instant::now();
        for _ in 0..n {
            let v: Vec<LIssue> = toolwright::validate::deserialize_owned(doc.clone()).unwrap();
            assert_eq!(v.len(), 500);
        }
        let lean = t.elapsed() / n;
        let t = std::time::Instant::now();
        for _ in 0..n {
            let v = doc.clone();
            assert!(v.is_array());
        }
        let clone = t.elapsed() / n;
        println!(
            "round {round}: derived {derived:?}, lean {lean:?} (clone of the document {clone:?}, included in both)"
        );
    }
}
