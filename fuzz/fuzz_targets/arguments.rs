//! Call-argument handling: JSON arguments as a model might send them (any bytes),
//! for each tool of a catalog with every wire construct (`tests/openapi/wire.yaml`
//! and `constraints.yaml`): parsed, validated and built into a request, which a
//! transport that answers at once receives. Nothing may panic, and no request may
//! leave the API's origin.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolwright::Executor;
use toolwright::transport::{ResponseFuture, Transport};

struct Answer;

impl Transport for Answer {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        let authority = request.uri().authority().map(|a| a.as_str().to_owned());
        assert_eq!(
            authority.as_deref(),
            Some("api.example.com"),
            "{}",
            request.uri()
        );
        Box::pin(async {
            Ok(http::Response::builder()
                .status(200)
                .header("content-type", "application/json")
                .body(b"{}".to_vec())
                .unwrap())
        })
    }
}

fn executor() -> &'static (Executor, tokio::runtime::Runtime) {
    static EXECUTOR: OnceLock<(Executor, tokio::runtime::Runtime)> = OnceLock::new();
    EXECUTOR.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/openapi");
        let inputs = [root.join("wire.yaml"), root.join("constraints.yaml")];
        let analysis = toolwright_codegen::analyze(&inputs, false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
        let mut builder = Executor::builder(catalog.clone())
            .transport(Answer)
            .credentials(toolwright::CredentialSource::from_fn(|_| {
                Some("secret".into())
            }));
        for api in catalog.apis() {
            builder = builder.base_url(api.name.as_ref(), "https://api.example.com/base");
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        (builder.build().unwrap(), runtime)
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (executor, runtime) = executor();
    let tools = executor.catalog().tools();
    let tool = &tools[usize::from(pick) % tools.len()];
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(args) = toolwright::validate::parse_arguments(text) else {
        return;
    };
    let _ = runtime.block_on(executor.call(&tool.name, args));
});
