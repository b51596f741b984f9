use std::collections::BTreeMap;
use toolwright::ToolSchema;

/// A grid.
#[derive(ToolSchema)]
struct Grid {
    /// Cells by coordinate.
    cells: BTreeMap<(u8, u8), String>,
}

fn main() {}
