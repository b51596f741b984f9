use serde::Deserialize;
use toolwright::ToolSchema;

/// A shape.
#[derive(ToolSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Shape {
    /// Width in px.
    width_px: u32,
    /// Also width.
    #[serde(rename = "widthPx")]
    width: u32,
}

fn main() {}
