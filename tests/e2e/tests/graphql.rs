//! A GraphQL schema (`tests/graphql/tracker.graphql`) through build.rs: typed and
//! by-name calls against graphql-js (the reference implementation) serving the same
//! schema on loopback, which parses and validates every document it gets. Asserts the
//! exact document and variables each call sent, that `selection` reaches nested
//! fields and cannot reach anything else, and that `errors` are a tool error.

use serde_json::{Value, json};
use toolwright::{CredentialSource, Error, Executor};
use toolwright_e2e::graphql::{self, tracker};
use toolwright_loopback::graphql::Graphql;

fn server() -> Graphql {
    let schema =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../graphql/tracker.graphql");
    Graphql::start(&schema).expect("the GraphQL server starts")
}

fn executor(server: &Graphql, token: Option<&'static str>) -> Executor {
    Executor::builder(graphql::catalog())
        .base_url("tracker", server.url())
        .credentials(CredentialSource::from_fn(move |name| {
            (name == "TRACKER_BEARER")
                .then(|| token.map(str::to_owned))
                .flatten()
        }))
        .build()
        .unwrap()
}

/// The output schema of `tool` checks `value`.
fn conforms(executor: &Executor, tool: &str, value: &Value) {
    let catalog = executor.catalog();
    let schema = catalog
        .output_schema_value(catalog.get(tool).unwrap())
        .unwrap();
    toolwright::validate::SchemaCheck::compile(&schema, &|_| None)
        .check(value)
        .unwrap_or_else(|e| {
            panic!("`{tool}`'s result does not fit its output schema: {e}\n{value:#}")
        });
}

const REPOSITORY: &str = "query query_repository($owner: String!, $name: String!, $followRenames: Boolean) { repository(owner: $owner, name: $name, followRenames: $followRenames) { id name stars createdAt head owner { id login name } } }";

#[tokio::test]
async fn typed_calls_send_one_document_with_the_arguments_as_variables() {
    let server = server();
    let client = tracker::Client::new(executor(&server, Some("ghp_secret")));

    let repo = client
        .query_repository(&tracker::QueryRepositoryInput::new("tracker", "octocat"))
        .await
        .unwrap()
        .expect("found");
    assert_eq!(repo.name, "tracker");
    assert_eq!(repo.stars, Some(42));
    assert_eq!(repo.owner.login, "octocat");
    // A custom scalar mapped by the build (`GitObjectID` → a string with a pattern).
    let head: &String = repo.head.as_ref().unwrap();
    assert_eq!(head.len(), 40);
    let sent = server.take_requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["query"], REPOSITORY);
    // Optional arguments left out are not sent: the schema's default applies.
    assert_eq!(
        sent[0]["variables"],
        json!({"name": "tracker", "owner": "octocat"})
    );
    assert_eq!(sent[0]["authorization"], "Bearer ghp_secret");
    assert_eq!(sent[0]["contentType"], "application/json");

    // Input objects, enums and lists as variables; a mutation returning an object.
    let mut input = tracker::CreateIssueInput {
        repository_id: "R_1".into(),
        title: "Flaky test".into(),
        body: None,
        labels: Some(vec!["ci".into(), "bug".into()]),
    };
    let created = client
        .mutation_create_issue(&tracker::MutationCreateIssueInput::new(input.clone()))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(created.issue.title, "Flaky test");
    assert_eq!(created.issue.state, tracker::IssueState::Open);
    let sent = server.take_requests();
    assert_eq!(
        sent[0]["query"],
        "mutation mutation_createIssue($input: CreateIssueInput!) { createIssue(input: $input) { issue { id number title state labels } } }"
    );
    assert_eq!(
        sent[0]["variables"],
        json!({"input": {"labels": ["ci", "bug"], "repositoryId": "R_1", "title": "Flaky test"}})
    );
    input.labels = None;

    // A scalar field: no selection set; an enum list argument with a default.
    let mut count = tracker::QueryIssueCountInput::default();
    assert_eq!(client.query_issue_count(&count).await.unwrap(), 1);
    count.states = Some(vec![tracker::IssueState::Open, tracker::IssueState::Closed]);
    assert_eq!(client.query_issue_count(&count).await.unwrap(), 2);
    let sent = server.take_requests();
    assert_eq!(
        sent[0]["query"],
        "query query_issueCount($states: [IssueState!]) { issueCount(states: $states) }"
    );
    assert_eq!(sent[0]["variables"], json!({}));
    assert_eq!(sent[1]["variables"], json!({"states": ["OPEN", "CLOSED"]}));

    // A mutation with a non-null argument that has a default (`reason`).
    let closed = client
        .mutation_close_issue(&tracker::MutationCloseIssueInput::new("I_1"))
        .await
        .unwrap();
    assert!(closed);
    assert_eq!(
        server.take_requests()[0]["query"],
        "mutation mutation_closeIssue($id: ID!, $reason: CloseReason) { closeIssue(id: $id, reason: $reason) }"
    );
}

#[tokio::test]
async fn by_name_calls_return_the_field_and_fit_the_output_schema() {
    let server = server();
    let executor = executor(&server, None);

    // A connection of a union: `totalCount`, `pageInfo`, each member's fields.
    let found = executor
        .call("query_search", json!({"query": "crash", "first": 5}))
        .await
        .unwrap();
    assert_eq!(found["totalCount"], 2);
    assert_eq!(found["nodes"][0]["__typename"], "Issue");
    assert_eq!(found["nodes"][0]["title"], "Crash on start");
    assert_eq!(found["nodes"][1]["__typename"], "User");
    assert_eq!(found["nodes"][1]["login"], "octocat");
    conforms(&executor, "query_search", &found);
    let sent = server.take_requests();
    assert_eq!(
        sent[0]["query"],
        "query query_search($query: String!, $first: Int, $after: String) { search(query: $query, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { __typename ... on Issue { id number title state labels } ... on User { id login name } } } }"
    );
    assert_eq!(sent[0]["variables"], json!({"query": "crash", "first": 5}));
    // No token set: the call goes anonymous (the schema cannot say it needs one).
    assert_eq!(sent[0]["authorization"], Value::Null);

    // An interface: `__typename` and its own fields.
    let node = executor
        .call("query_node", json!({"id": "I_2"}))
        .await
        .unwrap();
    assert_eq!(
        node,
        json!({"result": {"__typename": "Issue", "id": "I_2"}})
    );
    conforms(&executor, "query_node", &node);

    let viewer = executor.call("query_viewer", json!({})).await.unwrap();
    assert_eq!(
        viewer,
        json!({"id": "U_1", "login": "octocat", "name": "The Octocat"})
    );
    conforms(&executor, "query_viewer", &viewer);
}

#[tokio::test]
async fn connections_page_by_their_end_cursor() {
    let server = server();
    let executor = executor(&server, None);
    let all = executor
        .call_all(
            "query_search",
            json!({"query": "", "first": 1}),
            toolwright::PageLimits::pages(10),
        )
        .await
        .unwrap();
    assert_eq!(all["pages"], 3);
    assert_eq!(all["complete"], true);
    let kinds: Vec<&Value> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["__typename"])
        .collect();
    assert_eq!(kinds, [&json!("Issue"), &json!("Issue"), &json!("User")]);
    let sent = server.take_requests();
    let afters: Vec<&Value> = sent.iter().map(|r| &r["variables"]["after"]).collect();
    assert_eq!(afters, [&Value::Null, &json!("c1"), &json!("c2")]);
}

#[tokio::test]
async fn selection_adds_checked_fields_and_nothing_else() {
    let server = server();
    let executor = executor(&server, None);

    // Nested connections the default leaves out, with their own arguments.
    let repo = executor
        .call(
            "query_repository",
            json!({
                "owner": "octocat", "name": "tracker",
                "selection": "issues(first: 1, states: [OPEN]) { totalCount nodes { title author { login } } }, readme(path: \"docs/a \\\"b\\\".md\")",
            }),
        )
        .await
        .unwrap();
    let repo = &repo["result"];
    assert_eq!(repo["issues"]["nodes"][0]["author"]["login"], "octocat");
    assert_eq!(repo["readme"], "# docs/a \"b\".md");
    // The default fields still come: the output schema holds.
    assert_eq!(repo["stars"], 42);
    conforms(&executor, "query_repository", &json!({"result": repo}));
    let sent = server.take_requests();
    assert_eq!(
        sent[0]["query"],
        REPOSITORY.replace(
            "owner { id login name } }",
            "owner { id login name } issues(first: 1, states: [OPEN]) { totalCount nodes { title author { login } } } readme(path: \"docs/a \\\"b\\\".md\") }"
        )
    );
    assert_eq!(
        sent[0]["variables"],
        json!({"name": "tracker", "owner": "octocat"})
    );

    // Refused before anything is sent, each with its reason.
    for (selection, reason) in [
        ("isues(first: 1) { totalCount }", "did you mean `issues`"),
        ("issues { totalCount }", "needs the argument `first`"),
        ("owner", "select its fields"),
        (
            "name } } mutation { closeIssue(id: \"I_1\") }",
            "closes nothing",
        ),
        (
            "issues(first: $n) { totalCount }",
            "variables are not taken",
        ),
        ("owner { ... on Issue { title } }", "can never apply"),
    ] {
        let err = executor
            .call(
                "query_repository",
                json!({"owner": "octocat", "name": "tracker", "selection": selection}),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(err, Error::InvalidArguments { .. }),
            "{selection}: {err}"
        );
        assert!(err.to_string().contains(reason), "{selection}: {err}");
    }
    assert!(server.take_requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn errors_in_the_answer_are_a_tool_error() {
    let server = server();
    let executor = executor(&server, None);
    let err = executor
        .call(
            "query_repository",
            json!({"owner": "nobody", "name": "nothing"}),
        )
        .await
        .unwrap_err();
    assert_eq!(err.code(), "UPSTREAM_GRAPHQL");
    assert_eq!(
        err.to_string(),
        "`query_repository` failed: GraphQL errors: Could not resolve to a Repository with the name 'nobody/nothing'. (at repository)"
    );
    let Error::Graphql { errors, data, .. } = err else {
        unreachable!()
    };
    assert_eq!(errors[0]["path"], json!(["repository"]));
    assert_eq!(data, json!({"repository": null}));
    assert_eq!(server.take_requests().len(), 1);

    // Arguments the schema does not take never reach the server.
    let err = executor
        .call("query_repository", json!({"owner": "octocat"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("name"), "{err}");
    let err = executor
        .call("query_issueCount", json!({"states": ["WHATEVER"]}))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidArguments { .. }), "{err}");
    assert!(server.take_requests().is_empty());
}
