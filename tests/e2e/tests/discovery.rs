//! A Google Discovery document (`tests/discovery/library.v1.json`) through build.rs:
//! typed and by-name calls against a loopback server described by it, asserting the
//! exact requests — paths under `servicePath`, `{+name}` reserved expansion, repeated
//! query parameters, the OAuth 2 token, the media upload, pages by `pageToken`.

use base64::Engine as _;
use serde_json::json;
use toolwright::{CredentialSource, Executor};
use toolwright_e2e::discovery::{self, library_v1};
use toolwright_loopback::{Response, Server};

fn library() -> Server {
    Server::start(|req| match (req.method.as_str(), req.path()) {
        ("GET", "/library/v1/shelves") => match req.query() {
            Some(q) if q.contains("pageToken=p2") => Response::json(
                200,
                &json!({"shelves": [{"name": "shelves/s2", "theme": "poetry", "bookCount": "0"}]}),
            ),
            _ => Response::json(
                200,
                &json!({"shelves": [{"name": "shelves/s1", "theme": "fiction", "bookCount": "12345678901"}], "nextPageToken": "p2"}),
            ),
        },
        ("POST", "/library/v1/shelves") => Response::json(
            200,
            &json!({"name": "shelves/s9", "theme": req.json()["theme"], "bookCount": "0"}),
        ),
        ("GET", "/library/v1/shelves/s1/books") => Response::json(
            200,
            &json!({"books": [{"name": "shelves/s1/books/b1", "title": "Dune", "state": "AVAILABLE", "tags": ["sf"]}]}),
        ),
        ("GET", "/library/v1/shelves/s1/books/b%201") => Response::json(
            200,
            &json!({"name": "shelves/s1/books/b 1", "title": "Emma", "state": "LOANED", "shelf": {"name": "shelves/s1", "theme": "fiction"}}),
        ),
        ("POST", "/library/v1/shelves/s1/books") => {
            let mut book = req.json();
            book["name"] = json!("shelves/s1/books/new");
            Response::json(200, &book)
        }
        ("POST", "/upload/library/v1/shelves/s1/books") => Response::json(
            200,
            &json!({"name": "shelves/s1/books/up", "title": String::from_utf8_lossy(&req.body)}),
        ),
        ("DELETE", "/library/v1/shelves/s1/books/b1") => Response::json(200, &json!({})),
        _ => Response::text(404, "no such route"),
    })
}

fn executor(server: &Server) -> Executor {
    Executor::builder(discovery::catalog())
        .base_url("library_v1", server.url())
        .credentials(CredentialSource::from_fn(|name| {
            (name == "LIBRARY_V1_OAUTH2").then(|| "ya29.token".to_owned())
        }))
        .build()
        .unwrap()
}

#[tokio::test]
async fn typed_calls_send_what_the_document_describes() {
    let server = library();
    let client = library_v1::Client::new(executor(&server));

    // A `{+parent}` path parameter keeps its `/`; `repeated` sends the key per value;
    // enums are typed; query order is the document's parameter order.
    let mut input = library_v1::LibraryShelvesBooksListInput::new("shelves/s1");
    input.tags = Some(vec!["sf".into(), "classic novel".into()]);
    // Identical enums share one type (the parameter's and `Book.state`).
    input.state = Some(library_v1::BookState::Available);
    let books = client.library_shelves_books_list(&input).await.unwrap();
    let book = &books.books.as_ref().unwrap()[0];
    assert_eq!(book.title.as_deref(), Some("Dune"));
    assert_eq!(book.state, Some(library_v1::BookState::Available));
    let sent = server.take_requests();
    assert_eq!(
        sent[0].target,
        "/library/v1/shelves/s1/books?state=AVAILABLE&tags=sf&tags=classic%20novel"
    );
    assert_eq!(sent[0].header("authorization"), Some("Bearer ya29.token"));

    // A reserved name with a space: its segments are encoded, its `/` kept.
    let got = client
        .library_shelves_books_get(&library_v1::LibraryShelvesBooksGetInput::new(
            "shelves/s1/books/b 1",
        ))
        .await
        .unwrap();
    assert_eq!(got.shelf.unwrap().theme, "fiction");
    // int64 travels as a string, as Discovery says (`format: int64`, `type: string`).
    let created = client
        .library_shelves_create(&library_v1::LibraryShelvesCreateInput::new("poetry"))
        .await
        .unwrap();
    assert_eq!(created.book_count.as_deref(), Some("0"));
    let sent = server.take_requests();
    assert_eq!(sent[0].target, "/library/v1/shelves/s1/books/b%201");
    assert_eq!(sent[1].target, "/library/v1/shelves");
    assert_eq!(sent[1].json(), json!({"theme": "poetry"}));

    // Pages follow `nextPageToken` → `pageToken`.
    let mut pages = client
        .library_shelves_list_pages(&library_v1::LibraryShelvesListInput::default())
        .unwrap();
    let mut themes = Vec::new();
    while let Some(page) = pages.next_page().await {
        for shelf in page.unwrap().value.shelves.unwrap_or_default() {
            themes.push(shelf.theme);
        }
    }
    assert_eq!(themes, ["fiction", "poetry"]);
    let sent = server.take_requests();
    assert_eq!(sent[0].target, "/library/v1/shelves");
    assert_eq!(sent[1].target, "/library/v1/shelves?pageToken=p2");
}

#[tokio::test]
async fn by_name_calls_upload_and_refuse_what_the_document_refuses() {
    let server = library();
    let executor = executor(&server);

    // The media upload: the content itself, to the upload path, `uploadType=media`.
    let content = base64::engine::general_purpose::STANDARD.encode("Chapter one.");
    let up = executor
        .call_as(
            "library_shelves_books_insert_upload",
            json!({"parent": "shelves/s1", "uploadType": "media", "body": content}),
            "text/plain",
        )
        .await
        .unwrap();
    assert_eq!(up["title"], "Chapter one.");
    // The metadata: a JSON body of the Book's fields.
    let inserted = executor
        .call(
            "library_shelves_books_insert",
            json!({"parent": "shelves/s1", "title": "Ulysses", "tags": ["modern"], "notify": true}),
        )
        .await
        .unwrap();
    assert_eq!(inserted["name"], "shelves/s1/books/new");
    let deleted = executor
        .call(
            "library_shelves_books_delete",
            json!({"name": "shelves/s1/books/b1"}),
        )
        .await
        .unwrap();
    assert_eq!(deleted, json!({}));
    let sent = server.take_requests();
    assert_eq!(sent[0].method, "POST");
    assert_eq!(
        sent[0].target,
        "/upload/library/v1/shelves/s1/books?uploadType=media"
    );
    assert_eq!(sent[0].header("content-type"), Some("text/plain"));
    assert_eq!(sent[0].body, b"Chapter one.");
    assert_eq!(sent[1].target, "/library/v1/shelves/s1/books?notify=true");
    assert_eq!(
        sent[1].json(),
        json!({"title": "Ulysses", "tags": ["modern"]})
    );
    assert_eq!(sent[2].method, "DELETE");
    assert_eq!(sent[2].target, "/library/v1/shelves/s1/books/b1");

    // The document's `pattern` and bounds are checked; a traversal never leaves the
    // API's path; nothing is sent for any of them.
    for (tool, args) in [
        (
            "library_shelves_books_get",
            json!({"name": "shelves/s1/books/../../x"}),
        ),
        ("library_shelves_books_get", json!({"name": "books/b1"})),
        ("library_shelves_list", json!({"pageSize": 500})),
        (
            "library_shelves_books_list",
            json!({"parent": "shelves/s1", "state": "LOST"}),
        ),
    ] {
        let err = executor.call(tool, args.clone()).await.unwrap_err();
        assert_eq!(err.code(), "VALIDATION_ARGUMENTS", "{tool} {args}: {err}");
    }
    assert!(server.requests().is_empty());
}

#[test]
fn the_catalog_keeps_what_discovery_says() {
    let catalog = discovery::catalog();
    let names: Vec<&str> = catalog.tools().iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "library_shelves_books_delete",
            "library_shelves_books_get",
            "library_shelves_books_insert",
            "library_shelves_books_insert_upload",
            "library_shelves_books_list",
            "library_shelves_create",
            "library_shelves_list",
        ]
    );
    let list = catalog.get("library_shelves_books_list").unwrap();
    let input: serde_json::Value = serde_json::from_str(&list.input_schema).unwrap();
    // Enum meanings reach the model in the description.
    assert!(
        input["properties"]["state"]["description"]
            .as_str()
            .unwrap()
            .contains("`LOANED`: Out on loan.")
    );
    let meta: serde_json::Value = serde_json::from_str(list.meta.as_deref().unwrap()).unwrap();
    let native = &meta["toolwright"]["native"];
    assert_eq!(
        native["x-discovery-method"]["id"],
        "library.shelves.books.list"
    );
    assert_eq!(
        native["security"][0]["oauth2"],
        json!(["https://www.googleapis.com/auth/library.readonly"])
    );
    assert_eq!(
        meta["toolwright"]["pagination"]["cursor_param"],
        "pageToken"
    );
    // The API: its scopes with what each grants, its service metadata.
    let api = &catalog.apis()[0];
    let api_meta: serde_json::Value = serde_json::from_str(api.meta.as_deref().unwrap()).unwrap();
    assert_eq!(
        api_meta["securityScopes"]["oauth2"]["https://www.googleapis.com/auth/library.readonly"],
        "See your shelves and books"
    );
    assert_eq!(api_meta["x-discovery"]["batchPath"], "batch/library/v1");
    assert_eq!(api_meta["x-discovery"]["servicePath"], "library/v1/");
    assert_eq!(api.base_url, "https://library.example.com");
    // `etagRequired` is said where a model reads.
    let delete = catalog.get("library_shelves_books_delete").unwrap();
    assert!(delete.description.contains("etag"));
}
