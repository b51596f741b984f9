//! The output types of a GraphQL API, read from the compact table the generator
//! writes ([`Api::graphql`](crate::descriptor::Api::graphql)): enough to check a selection set
//! (which fields each type has, which arguments each field takes, what it returns,
//! which types a fragment may name) without the whole schema.

use std::collections::{BTreeSet, HashMap};

/// What a composite type is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Composite {
    Object,
    Interface,
    Union,
}

/// One field: its arguments (with whether each is required) and its named type.
#[derive(Debug, Clone)]
pub struct FieldType {
    pub args: Vec<(String, bool)>,
    pub returns: String,
}

#[derive(Debug, Clone)]
pub struct TypeEntry {
    pub kind: Composite,
    pub fields: HashMap<String, FieldType>,
    /// Objects of a union or implementing an interface.
    pub possible: BTreeSet<String>,
}

/// The composite types by name; any other name is a scalar or enum.
#[derive(Debug, Clone, Default)]
pub struct TypeTable {
    pub types: HashMap<String, TypeEntry>,
}

impl TypeTable {
    /// Reads the table; lines it does not understand are skipped (a table from a
    /// newer generator still checks what it can).
    pub fn parse(text: &str) -> TypeTable {
        let mut table = TypeTable::default();
        let mut possible: Vec<(String, Vec<String>)> = Vec::new();
        for line in text.lines() {
            let mut words = line.split(' ');
            let tag = words.next().unwrap_or("");
            let Some(name) = words.next() else { continue };
            let kind = match tag {
                "O" => Composite::Object,
                "I" => Composite::Interface,
                "U" => Composite::Union,
                "P" => {
                    possible.push((name.to_owned(), words.map(str::to_owned).collect()));
                    continue;
                }
                _ => continue,
            };
            let fields = words.filter_map(field).collect();
            table.types.insert(
                name.to_owned(),
                TypeEntry {
                    kind,
                    fields,
                    possible: BTreeSet::new(),
                },
            );
        }
        for (name, members) in possible {
            if let Some(t) = table.types.get_mut(&name) {
                t.possible.extend(members);
            }
        }
        table
    }

    pub fn get(&self, name: &str) -> Option<&TypeEntry> {
        self.types.get(name)
    }

    /// Whether a fragment on `condition` may appear where a `parent` is selected:
    /// the two can be the same object.
    pub fn overlaps(&self, parent: &str, condition: &str) -> bool {
        if parent == condition {
            return true;
        }
        let objects = |name: &str| -> BTreeSet<String> {
            match self.types.get(name) {
                Some(t) if t.kind == Composite::Object => BTreeSet::from([name.to_owned()]),
                Some(t) => t.possible.clone(),
                None => BTreeSet::new(),
            }
        };
        !objects(parent).is_disjoint(&objects(condition))
    }
}

/// `name(arg,required!):Type`.
fn field(word: &str) -> Option<(String, FieldType)> {
    let (head, returns) = word.rsplit_once(':')?;
    let (name, args) = match head.split_once('(') {
        Some((name, rest)) => {
            let args = rest
                .trim_end_matches(')')
                .split(',')
                .filter(|a| !a.is_empty())
                .map(|a| match a.strip_suffix('!') {
                    Some(a) => (a.to_owned(), true),
                    None => (a.to_owned(), false),
                })
                .collect();
            (name, args)
        }
        None => (head, Vec::new()),
    };
    Some((
        name.to_owned(),
        FieldType {
            args,
            returns: returns.to_owned(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_generator_table() {
        let t = TypeTable::parse(
            "O Query a(x!,y):A\nO A id:ID owner:N\nI N id:ID\nU U\nP N A\nP U A\nX whatever\n",
        );
        let a = &t.get("Query").unwrap().fields["a"];
        assert_eq!(a.args, [("x".to_owned(), true), ("y".to_owned(), false)]);
        assert_eq!(a.returns, "A");
        assert!(t.overlaps("N", "A"));
        assert!(t.overlaps("U", "N"));
        assert!(!t.overlaps("Query", "A"));
    }
}
