//! The code toolwright generates for `tests/adapters`, `tests/openapi` and
//! `tests/discovery`, compiled as a
//! user's crate would (and `tests/adapters` once more with only `weather` typed).

pub mod adapters {
    include!(concat!(env!("OUT_DIR"), "/adapters/toolwright.rs"));
}

pub mod openapi {
    include!(concat!(env!("OUT_DIR"), "/openapi/toolwright.rs"));
}

/// `tests/openapi32`: an OpenAPI 3.2 document using what 3.2 adds.
pub mod openapi32 {
    include!(concat!(env!("OUT_DIR"), "/openapi32/toolwright.rs"));
}

/// `tests/discovery`: a Google Discovery document.
pub mod discovery {
    include!(concat!(env!("OUT_DIR"), "/discovery/toolwright.rs"));
}

/// `tests/graphql/tracker.graphql`: a GraphQL schema.
pub mod graphql {
    include!(concat!(env!("OUT_DIR"), "/graphql/toolwright.rs"));
}

/// `tests/adapters` with `Config::typed("api:weather")`: `notes` and `billing` are
/// catalog-only.
pub mod typed_weather {
    include!(concat!(env!("OUT_DIR"), "/typed_weather/toolwright.rs"));
}

/// `tests/adapters` with `Config::embed_tools(true)`: typed throughout, every tool's
/// catalog entry embedded as data.
pub mod embedded_tools {
    include!(concat!(env!("OUT_DIR"), "/embedded_tools/toolwright.rs"));
}

/// `tests/seed`: the adapter format's own example, as its specification writes it.
pub mod seed {
    include!(concat!(env!("OUT_DIR"), "/seed/toolwright.rs"));
}

/// `codegen/tests/arazzo/pet-orders.arazzo.yaml`: Arazzo workflows over the
/// specification's pet-coupons API, each a typed method.
pub mod arazzo {
    include!(concat!(env!("OUT_DIR"), "/arazzo/toolwright.rs"));
}

/// `codegen/tests/arazzo/pet-coupons.fixed.arazzo.yaml`: the Arazzo specification's
/// pet-coupons example, its workflows typed methods.
pub mod arazzo_example {
    include!(concat!(env!("OUT_DIR"), "/arazzo_example/toolwright.rs"));
}

/// `codegen/tests/arazzo/oauth.fixed.arazzo.yaml`: the Arazzo specification's OAuth
/// example (without its broken `refresh-token-flow`), its workflows typed methods.
pub mod arazzo_oauth {
    include!(concat!(env!("OUT_DIR"), "/arazzo_oauth/toolwright.rs"));
}
