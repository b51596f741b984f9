//! Pagination against a real loopback server, in every style the corpus uses: a
//! cursor field, Stripe's last-item cursor with `has_more`, offset, page, the `Link`
//! header (GitHub), a next-URL body field (`x-ms-pageable`, Microsoft Graph) and a
//! cursor header. Each walk returns every item once and in order, with one request per
//! page; limits stop it and say where to resume; a next page on another origin is
//! refused before anything reaches it; a server that never stops is stopped. The
//! styles are recognised from `tests/pagination/catalog.yaml` (no hand-written plans).

use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::{CredentialSource, Executor, PageLimits};
use toolwright_loopback::{Request, Response, Server};

const TOTAL: usize = 23;

fn product(i: usize) -> Value {
    json!({"id": format!("p{:02}", i + 1), "n": i + 1})
}

fn query(request: &Request, key: &str) -> Option<String> {
    request.query()?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| v.to_owned())
    })
}

fn number(request: &Request, key: &str, default: usize) -> usize {
    query(request, key)
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn handle(request: &Request, elsewhere: &str) -> Response {
    if query(request, "api_key").as_deref() != Some("k3y") {
        return Response::json(401, &json!({"message": "api_key missing"}));
    }
    let host = request.header("host").unwrap_or_default().to_owned();
    let window = |start: usize, size: usize| -> Vec<Value> {
        (start..(start + size).min(TOTAL)).map(product).collect()
    };
    match request.path() {
        "/v1/cursor/products" => {
            let start = query(request, "cursor").map_or(0, |c| c[1..].parse().unwrap());
            let size = number(request, "limit", 5);
            let end = (start + size).min(TOTAL);
            let next = (end < TOTAL).then(|| format!("c{end}"));
            Response::json(
                200,
                &json!({"data": window(start, size), "meta": {"next_cursor": next}}),
            )
        }
        "/v1/stripe/products" => {
            let start =
                query(request, "starting_after").map_or(0, |id| id[1..].parse::<usize>().unwrap());
            let size = number(request, "limit", 5);
            let data = window(start, size);
            Response::json(
                200,
                &json!({"object": "list", "data": data, "has_more": start + size < TOTAL}),
            )
        }
        "/v1/offset/products" => Response::json(
            200,
            &Value::Array(window(
                number(request, "offset", 0),
                number(request, "limit", 5),
            )),
        ),
        "/v1/page/products" => {
            let size = number(request, "per_page", 5);
            let page = number(request, "page", 1);
            Response::json(200, &json!({"results": window((page - 1) * size, size)}))
        }
        "/v1/linked/products" => {
            let size = number(request, "per_page", 5);
            let page = number(request, "page", 1);
            let mut response = Response::json(200, &Value::Array(window((page - 1) * size, size)));
            let mut links = vec![format!(
                "<http://{host}/v1/linked/products?per_page={size}&page=1>; rel=\"first\""
            )];
            if page * size < TOTAL {
                links.push(format!(
                    "<http://{host}/v1/linked/products?per_page={size}&page={}>; rel=\"next\"",
                    page + 1
                ));
            }
            response = response.header("Link", &links.join(", "));
            response
        }
        "/v1/odata/products" => {
            let start = number(request, "$skiptoken", 0);
            let mut body = json!({"value": window(start, 5)});
            if start + 5 < TOTAL {
                body["@odata.nextLink"] = json!(format!(
                    "http://{host}/v1/odata/products?$skiptoken={}",
                    start + 5
                ));
            }
            Response::json(200, &body)
        }
        "/v1/header/products" => {
            let start = number(request, "after", 0);
            let response = Response::json(200, &Value::Array(window(start, 5)));
            if start + 5 < TOTAL {
                response.header("X-Next-Cursor", &(start + 5).to_string())
            } else {
                response
            }
        }
        "/v1/hostile/elsewhere" => Response::json(200, &json!([product(0)])).header(
            "Link",
            &format!("<{elsewhere}/v1/hostile/elsewhere?page=2>; rel=\"next\""),
        ),
        "/v1/hostile/forever" if query(request, "cursor").as_deref() == Some("stuck") => {
            Response::json(200, &json!({"data": [product(0)], "next_cursor": "stuck"}))
        }
        "/v1/hostile/forever" => {
            let n = query(request, "cursor").map_or(0, |c| c[1..].parse::<usize>().unwrap());
            Response::json(
                200,
                &json!({"data": [product(n % TOTAL)], "next_cursor": format!("c{}", n + 1)}),
            )
        }
        "/v1/single/product" => Response::json(200, &product(0)),
        _ => Response::json(404, &json!({"message": "no route"})),
    }
}

struct Setup {
    server: Server,
    elsewhere: Server,
    executor: Executor,
    rt: tokio::runtime::Runtime,
}

fn setup() -> Setup {
    let elsewhere = Server::start(|_| Response::json(200, &json!([])));
    let other = elsewhere.url();
    let server = Server::start(move |r| handle(r, &other));
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pagination/catalog.yaml");
    let analysis = toolwright_codegen::analyze(&[spec], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let executor = Executor::builder(catalog)
        .base_url("catalog", format!("{}/v1", server.url()))
        .credentials(CredentialSource::from_fn(|_| Some("k3y".into())))
        .build()
        .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    Setup {
        server,
        elsewhere,
        executor,
        rt,
    }
}

fn ids(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect()
}

fn all_ids() -> Vec<String> {
    (0..TOTAL).map(|i| format!("p{:02}", i + 1)).collect()
}

#[test]
fn every_style_walks_every_item_once_in_order() {
    let s = setup();
    let cases = [
        ("list_by_cursor", json!({"limit": 5})),
        ("list_after", json!({"limit": 5})),
        ("list_by_offset", json!({"limit": 5})),
        ("list_by_page", json!({"per_page": 5})),
        ("list_linked", json!({"per_page": 5})),
        ("list_odata", json!({})),
        ("list_by_header", json!({})),
    ];
    for (tool, args) in cases {
        let tool_meta = s.executor.catalog().get(tool).unwrap().meta.clone();
        let out =
            s.rt.block_on(s.executor.call_all(tool, args, PageLimits::pages(100)))
                .unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_eq!(
            ids(&out["items"]),
            all_ids(),
            "{tool}: {out} ({tool_meta:?})"
        );
        assert_eq!(out["complete"], true, "{tool}");
        assert_eq!(out["next"], Value::Null, "{tool}");
        let requests = s.server.take_requests();
        // 23 items, 5 a page: 5 pages, one request each (Stripe asks once more only if
        // `has_more` said so; it did not).
        assert_eq!(out["pages"], 5, "{tool}: {requests:#?}");
        assert_eq!(requests.len(), 5, "{tool}");
        // The credential is on every page, next-page URLs included (added once).
        for r in &requests {
            assert_eq!(
                r.target.matches("api_key=k3y").count(),
                1,
                "{tool}: {}",
                r.target
            );
        }
    }
}

#[test]
fn limits_stop_the_walk_and_say_where_to_resume() {
    let s = setup();
    let out = s
        .rt
        .block_on(
            s.executor
                .call_all("list_by_cursor", json!({"limit": 5}), PageLimits::pages(2)),
        )
        .unwrap();
    assert_eq!(ids(&out["items"]).len(), 10);
    assert_eq!(out["pages"], 2);
    assert_eq!(out["complete"], false);
    assert_eq!(out["next"], json!({"limit": 5, "cursor": "c10"}));
    // Resuming from `next` goes on where it stopped.
    let rest =
        s.rt.block_on(s.executor.call_all(
            "list_by_cursor",
            out["next"].clone(),
            PageLimits::pages(100),
        ))
        .unwrap();
    assert_eq!(ids(&rest["items"]), all_ids()[10..].to_vec());

    s.server.take_requests();
    let out =
        s.rt.block_on(s.executor.call_all(
            "list_by_offset",
            json!({"limit": 5}),
            PageLimits::pages(100).items(7),
        ))
        .unwrap();
    assert_eq!(
        ids(&out["items"]),
        all_ids()[..7].to_vec(),
        "the page past the limit is cut"
    );
    assert_eq!(s.server.take_requests().len(), 2);
}

#[derive(Debug, Deserialize, PartialEq)]
struct Product {
    id: String,
    n: u32,
}

#[test]
fn pages_and_items_stream_typed() {
    let s = setup();
    s.rt.block_on(async {
        let mut pages = s
            .executor
            .pages("list_by_page", json!({"per_page": 10}))
            .unwrap();
        let mut sizes = Vec::new();
        while let Some(page) = pages.next_page().await {
            let page = page.unwrap();
            sizes.push((page.number, page.value["results"].as_array().unwrap().len()));
        }
        assert_eq!(sizes, [(1, 10), (2, 10), (3, 3)]);
        assert!(pages.complete());

        let mut items = s
            .executor
            .pages("list_linked", json!({"per_page": 4}))
            .unwrap()
            .items::<Product>();
        let mut got = Vec::new();
        while let Some(item) = items.next_item().await {
            got.push(item.unwrap());
        }
        assert_eq!(got.len(), TOTAL);
        assert_eq!(
            got[22],
            Product {
                id: "p23".into(),
                n: 23
            }
        );
    });
}

#[test]
fn misbehaving_servers_cannot_redirect_or_loop_a_walk() {
    let s = setup();
    // A next page on another origin: refused, and nothing reaches that server.
    let err =
        s.rt.block_on(
            s.executor
                .call_all("list_elsewhere", json!({}), PageLimits::pages(5)),
        )
        .unwrap_err();
    assert_eq!(err.code(), "VALIDATION_REQUEST", "{err}");
    assert!(err.to_string().contains("another origin"), "{err}");
    assert!(s.elsewhere.requests().is_empty());
    assert!(!err.to_string().contains("k3y"), "{err}");

    // A cursor that never ends: the page limit ends it.
    s.server.take_requests();
    let out =
        s.rt.block_on(
            s.executor
                .call_all("list_forever", json!({}), PageLimits::default()),
        )
        .unwrap();
    assert_eq!(out["pages"], 10);
    assert_eq!(out["complete"], false);
    assert_eq!(s.server.take_requests().len(), 10);

    // The same cursor handed back: the end, not a loop.
    let out =
        s.rt.block_on(s.executor.call_all(
            "list_forever",
            json!({"cursor": "stuck"}),
            PageLimits::default(),
        ))
        .unwrap();
    assert_eq!(out["pages"], 1);
}

#[test]
fn tools_that_do_not_page_say_so() {
    let s = setup();
    let err = s.executor.pages("get_one", json!({})).unwrap_err();
    assert!(err.to_string().contains("not paginated"), "{err}");
    let err = s
        .executor
        .pages("list_by_cursor", json!({"limit": 500}))
        .unwrap_err();
    assert_eq!(err.code(), "VALIDATION_ARGUMENTS", "{err}");
}
