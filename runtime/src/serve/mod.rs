//! Serving the catalog to model clients. [`mcp`]: the Model Context Protocol.

pub mod mcp;
