//! Lookup by name in constant time: an open-addressing table of FNV-1a hashes over the
//! sorted tools, built on the first lookup (1,223 names: tens of microseconds), shared
//! by clones. A binary search over long names with shared prefixes (`activity_…`)
//! costs about 100 ns; a hash and one comparison, about 20.

use std::sync::{Arc, OnceLock};

use super::Tool;

#[derive(Debug, Clone, Default)]
pub(super) struct Names {
    table: OnceLock<Arc<[u32]>>,
}

impl Names {
    pub(super) const fn new() -> Names {
        Names {
            table: OnceLock::new(),
        }
    }

    /// The position of the tool named `name`.
    pub(super) fn find(&self, tools: &[Tool], name: &str) -> Option<usize> {
        let table = self.table.get_or_init(|| build(tools));
        let mask = table.len() - 1;
        let mut slot = hash(name) as usize & mask;
        loop {
            match table[slot] {
                0 => return None,
                entry => {
                    let i = entry as usize - 1;
                    if tools.get(i).is_some_and(|t| t.name == name) {
                        return Some(i);
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// Slots for `tools`: a power of two at least twice their number (short probes), each
/// the tool's position + 1 (0: empty).
fn build(tools: &[Tool]) -> Arc<[u32]> {
    let size = (tools.len() * 2).next_power_of_two().max(2);
    let mut table = vec![0u32; size];
    for (i, tool) in tools.iter().enumerate() {
        let mut slot = hash(&tool.name) as usize & (size - 1);
        while table[slot] != 0 {
            slot = (slot + 1) & (size - 1);
        }
        table[slot] = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    table.into()
}

/// FNV-1a, 64 bits: fast on short keys, no dependency, and good enough for names.
fn hash(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
