//! Search on any request a model or a person may send: it never panics, returns at most
//! k hits, best first (ties in catalog order) with finite positive scores, keeps the
//! same best k whichever way it collects them (a few of many, or all then select), and
//! leaves nothing behind in the thread's scratch space (a fixed request ranks the same
//! before and after).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolwright_query::{Document, Hit, Index, IndexBuilder, Techniques};

/// A small catalog with what the search reads: names, summaries, parameters, enums,
/// flags, a deprecated tool, paths with ids.
fn index() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let tools: &[(&str, &str, &str, &str, &[&str])] = &[
            (
                "issues_list",
                "List issues in a repository",
                "GET",
                "/repos/{owner}/{repo}/issues",
                &["owner", "repo", "since", "state"],
            ),
            (
                "issues_create",
                "Create an issue",
                "POST",
                "/repos/{owner}/{repo}/issues",
                &["owner", "repo", "title"],
            ),
            (
                "issues_get",
                "Get an issue",
                "GET",
                "/repos/{owner}/{repo}/issues/{issue_number}",
                &["owner", "repo", "issue_number"],
            ),
            (
                "issues_lock",
                "Lock an issue",
                "PUT",
                "/repos/{owner}/{repo}/issues/{issue_number}/lock",
                &["issue_number"],
            ),
            (
                "pulls_merge",
                "Merge a pull request",
                "PUT",
                "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
                &["pull_number", "sha"],
            ),
            (
                "repos_update",
                "Update a repository",
                "PATCH",
                "/repos/{owner}/{repo}",
                &["private", "archived"],
            ),
            (
                "repos_delete",
                "Delete a repository",
                "DELETE",
                "/repos/{owner}/{repo}",
                &["owner", "repo"],
            ),
            (
                "users_unblock",
                "Unblock a user",
                "DELETE",
                "/user/blocks/{username}",
                &["username"],
            ),
            (
                "GetCustomersCustomer",
                "Retrieve a customer",
                "GET",
                "/v1/customers/{customer}",
                &["customer"],
            ),
            (
                "PostRefunds",
                "Create a refund",
                "POST",
                "/v1/refunds",
                &["charge", "amount", "currency"],
            ),
            (
                "GetCharges",
                "List all charges",
                "GET",
                "/v1/charges",
                &["created", "customer"],
            ),
            (
                "teams_list_legacy",
                "List teams (legacy)",
                "GET",
                "/teams",
                &["per_page"],
            ),
        ];
        let mut builder = IndexBuilder::new(Techniques::DEFAULT);
        for (i, (name, summary, method, path, params)) in tools.iter().enumerate() {
            builder.add(&Document {
                name: (*name).into(),
                title: summary.to_string(),
                summary: summary.to_string(),
                method: (*method).into(),
                path: (*path).into(),
                group: match *method {
                    "GET" => "read",
                    "POST" => "create",
                    "DELETE" => "delete",
                    _ => "update",
                }
                .into(),
                params: params
                    .iter()
                    .map(|p| (p.to_string(), format!("The {p}.")))
                    .collect(),
                flags: params
                    .iter()
                    .filter(|p| ["private", "archived"].contains(p))
                    .map(|p| p.to_string())
                    .collect(),
                enum_values: if params.contains(&"state") {
                    vec!["open".into(), "closed".into()]
                } else {
                    Vec::new()
                },
                deprecated: i == tools.len() - 1,
                ..Document::default()
            });
        }
        builder.build()
    })
}

fn well_ranked(hits: &[Hit], k: usize, docs: usize, query: &str) {
    assert!(
        hits.len() <= k,
        "{query:?}: {} hits for k = {k}",
        hits.len()
    );
    for hit in hits {
        assert!(hit.doc < docs, "{query:?}: {hit:?}");
        assert!(
            hit.score.is_finite() && hit.score > 0.0,
            "{query:?}: {hit:?}"
        );
    }
    for pair in hits.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            a.score > b.score || (a.score == b.score && a.doc < b.doc),
            "{query:?}: {hits:?}"
        );
    }
}

const FIXED: &str = "list the open issues of octo/widgets since last week";

fuzz_target!(|data: &[u8]| {
    let index = Index::new(index()).expect("the builder writes what the reader reads");
    let fixed = index.search(FIXED, 5);
    let query = String::from_utf8_lossy(data);
    let few = index.search(&query, 3);
    well_ranked(&few, 3, index.len(), &query);
    // Every hit at once, then the best 3 of them: the same 3.
    let all = index.search(&query, 1000);
    well_ranked(&all, 1000, index.len(), &query);
    assert_eq!(&few[..], &all[..few.len().min(all.len())], "{query:?}");
    assert_eq!(few.len(), all.len().min(3), "{query:?}");
    assert_eq!(
        index.search(FIXED, 5),
        fixed,
        "scratch left behind by {query:?}"
    );
});
