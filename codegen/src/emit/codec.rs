//! How generated types read and write JSON: `Serialize`/`Deserialize` impls written
//! out (not derived) over the runtime's `codec` helpers, and only where a type needs
//! them.
//!
//! Measured on GitHub's client (1,223 operations): derived serde code was most of a
//! clean `cargo check` — the type and borrow checkers of each derive's field enum,
//! visitors and sequence reader. A written-out impl is one line per field. And a type
//! gets only the directions it is used in: operation inputs are written (the executor
//! checks arguments against the schema, never by deserializing them), outputs and
//! error bodies are read, and the types they contain follow; `Config::full_serde`
//! gives every type both.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;

/// The directions a type is used in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Needs {
    pub serialize: bool,
    pub deserialize: bool,
}

impl Needs {
    pub const SERIALIZE: Needs = Needs {
        serialize: true,
        deserialize: false,
    };
    pub const DESERIALIZE: Needs = Needs {
        serialize: false,
        deserialize: true,
    };
    pub const BOTH: Needs = Needs {
        serialize: true,
        deserialize: true,
    };

    fn union(self, other: Needs) -> Needs {
        Needs {
            serialize: self.serialize || other.serialize,
            deserialize: self.deserialize || other.deserialize,
        }
    }
}

/// A type's JSON form.
#[derive(Debug)]
pub enum Codec {
    /// An object: named fields (optional ones left out when `None`), and the
    /// properties beyond them in `extra`.
    Struct {
        fields: Vec<FieldCodec>,
        extra: Option<Ident>,
        /// Reading refuses properties no field names (operation inputs).
        deny_unknown: bool,
    },
    /// `struct T(pub U)`, read and written as its content.
    Newtype,
    /// Untagged variants, read by trying each in order.
    Untagged(Vec<Ident>),
    /// Fieldless variants and their strings.
    Strings(Vec<(Ident, String)>),
}

#[derive(Debug)]
pub struct FieldCodec {
    pub ident: Ident,
    /// The property name on the wire.
    pub key: String,
    /// `T` (else `Option<T>`, left out when `None`).
    pub required: bool,
}

/// A generated item: its code, and its JSON form when it has one.
#[derive(Debug)]
pub struct Item {
    pub name: String,
    pub code: TokenStream,
    pub codec: Option<Codec>,
}

/// What each item needs: the roots' needs, carried to every type an item names
/// (in its fields, variants or alias), so a type written as part of an input can be
/// written too. A type nothing reaches needs nothing.
pub fn resolve(items: &[Item], graph: &Graph, roots: &[Root]) -> Vec<Needs> {
    let mut needs = vec![Needs::default(); items.len()];
    let seeds = graph.seeds(roots, |root| root.needs);
    graph.spread(&mut needs, seeds, |a, b| a.union(*b));
    needs
}

/// A type the client writes or reads directly, and the cargo features its operation
/// is behind (`None`: always compiled).
#[derive(Debug)]
pub struct Root {
    pub ty: TokenStream,
    pub needs: Needs,
    pub gate: Option<BTreeSet<String>>,
}

/// Which generated types name which.
pub struct Graph {
    index: BTreeMap<String, usize>,
    edges: Vec<BTreeSet<usize>>,
}

impl Graph {
    pub fn new(items: &[Item]) -> Self {
        // Keyed by the identifier as written in code (`Self` is written `Self_`, a
        // keyword `r#type`), which is what the token streams name.
        let index: BTreeMap<String, usize> = items
            .iter()
            .enumerate()
            .map(|(i, item)| (super::names::ident(&item.name).to_string(), i))
            .collect();
        let mut graph = Graph {
            index,
            edges: Vec::new(),
        };
        graph.edges = items.iter().map(|item| graph.named(&item.code)).collect();
        graph
    }

    /// Each item `roots` name, with what `state` says of its root.
    fn seeds<S: Clone>(&self, roots: &[Root], state: impl Fn(&Root) -> S) -> Vec<(usize, S)> {
        roots
            .iter()
            .flat_map(|root| {
                let s = state(root);
                self.named(&root.ty)
                    .into_iter()
                    .map(move |i| (i, s.clone()))
            })
            .collect()
    }

    /// Joins each seed's state into its item's, and carries every change on to the
    /// items it names, until nothing changes.
    fn spread<S: Clone + PartialEq>(
        &self,
        states: &mut [S],
        mut pending: Vec<(usize, S)>,
        join: impl Fn(&S, &S) -> S,
    ) {
        while let Some((i, state)) = pending.pop() {
            let now = join(&states[i], &state);
            if now == states[i] {
                continue;
            }
            states[i] = now.clone();
            pending.extend(self.edges[i].iter().map(|&j| (j, now.clone())));
        }
    }

    /// The items `tokens` names.
    fn named(&self, tokens: &TokenStream) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        idents(tokens.clone(), &mut |ident| {
            if let Some(&i) = self.index.get(ident.to_string().as_str()) {
                out.insert(i);
            }
        });
        out
    }
}

/// The features each item is compiled under: `None` when some always-compiled
/// operation reaches it (or nothing does), else the features of every operation that
/// reaches it — a type used by two tags' operations is there when either is enabled.
pub fn gates(items: &[Item], graph: &Graph, roots: &[Root]) -> Vec<Option<BTreeSet<String>>> {
    #[derive(Clone, PartialEq)]
    enum Gate {
        Unreached,
        Always,
        Features(BTreeSet<String>),
    }
    let join = |a: &Gate, b: &Gate| match (a, b) {
        (Gate::Always, _) | (_, Gate::Always) => Gate::Always,
        (Gate::Unreached, g) | (g, Gate::Unreached) => g.clone(),
        (Gate::Features(x), Gate::Features(y)) => Gate::Features(x.union(y).cloned().collect()),
    };
    let mut gates = vec![Gate::Unreached; items.len()];
    let seeds = graph.seeds(roots, |root| {
        root.gate.clone().map_or(Gate::Always, Gate::Features)
    });
    graph.spread(&mut gates, seeds, join);
    // A type no operation reaches (a definition only an untyped value refers to) is
    // always compiled, and so must be every type it names.
    let unreached: Vec<(usize, Gate)> = (0..items.len())
        .filter(|&i| gates[i] == Gate::Unreached)
        .map(|i| (i, Gate::Always))
        .collect();
    graph.spread(&mut gates, unreached, join);
    gates
        .into_iter()
        .map(|g| match g {
            Gate::Features(features) => Some(features),
            Gate::Always | Gate::Unreached => None,
        })
        .collect()
}

/// `#[cfg(any(feature = "a", ...))]`.
pub fn cfg(features: &BTreeSet<String>) -> TokenStream {
    let features = features.iter();
    quote!(#[cfg(any(#(feature = #features),*))])
}

fn idents(tokens: TokenStream, found: &mut impl FnMut(&Ident)) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(ident) => found(&ident),
            TokenTree::Group(group) => idents(group.stream(), found),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

/// The `Serialize` and `Deserialize` impls `needs` asks for.
pub fn impls(name: &str, codec: &Codec, needs: Needs) -> TokenStream {
    let ident = super::names::ident(name);
    let serialize = needs.serialize.then(|| {
        let body = serialize_body(codec);
        quote! {
            impl ::toolwright::__private::serde::Serialize for #ident {
                fn serialize<S: ::toolwright::__private::serde::Serializer>(
                    &self,
                    serializer: S,
                ) -> ::std::result::Result<S::Ok, S::Error> {
                    #body
                }
            }
        }
    });
    let deserialize = needs.deserialize.then(|| {
        let body = deserialize_body(name, codec);
        quote! {
            impl<'de> ::toolwright::__private::serde::Deserialize<'de> for #ident {
                fn deserialize<D: ::toolwright::__private::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::std::result::Result<Self, D::Error> {
                    #body
                }
            }
        }
    });
    quote!(#serialize #deserialize)
}

// Bodies say `Self`, never the type's name: a schema named `S` or `D` would be the
// generic parameter there.
fn serialize_body(codec: &Codec) -> TokenStream {
    match codec {
        Codec::Struct { fields, extra, .. } => {
            if fields.is_empty() && extra.is_none() {
                return quote! {
                    ::toolwright::__private::serde::ser::SerializeMap::end(
                        serializer.serialize_map(::std::option::Option::Some(0))?,
                    )
                };
            }
            let entries = fields.iter().map(|f| {
                let FieldCodec {
                    ident: field, key, ..
                } = f;
                if f.required {
                    quote!(map.serialize_entry(#key, &self.#field)?;)
                } else {
                    quote! {
                        if let ::std::option::Option::Some(value) = &self.#field {
                            map.serialize_entry(#key, value)?;
                        }
                    }
                }
            });
            let extra = extra.iter().map(|field| {
                quote! {
                    for (key, value) in &self.#field {
                        map.serialize_entry(key, value)?;
                    }
                }
            });
            quote! {
                use ::toolwright::__private::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                #(#entries)*
                #(#extra)*
                map.end()
            }
        }
        Codec::Newtype => {
            quote!(::toolwright::__private::serde::Serialize::serialize(
                &self.0, serializer
            ))
        }
        Codec::Untagged(variants) => {
            let arms = variants.iter().map(|v| {
                quote!(Self::#v(value) => ::toolwright::__private::serde::Serialize::serialize(value, serializer),)
            });
            quote!(match self { #(#arms)* })
        }
        Codec::Strings(variants) => {
            let texts = variants.iter().map(|(_, text)| text);
            quote!(serializer.serialize_str([#(#texts),*][*self as usize]))
        }
    }
}

fn deserialize_body(name: &str, codec: &Codec) -> TokenStream {
    match codec {
        Codec::Struct {
            fields,
            extra,
            deny_unknown,
        } => {
            let expected = format!("struct {name}");
            let reads = fields.iter().map(|f| {
                let FieldCodec {
                    ident: field, key, ..
                } = f;
                if f.required {
                    quote!(#field: object.req(#key)?,)
                } else {
                    quote!(#field: object.opt(#key)?,)
                }
            });
            let rest = extra.iter().map(|field| quote!(#field: object.rest()?,));
            let binding = if fields.is_empty() && extra.is_none() {
                quote!(object)
            } else {
                quote!(mut object)
            };
            let value = quote!(Self { #(#reads)* #(#rest)* });
            let finish = if *deny_unknown && extra.is_none() {
                let known = fields.iter().map(|f| &f.key);
                quote! {
                    let value = #value;
                    object.deny_unknown(&[#(#known),*])?;
                    ::std::result::Result::Ok(value)
                }
            } else if fields.is_empty() && extra.is_none() {
                quote! {
                    let _ = object;
                    ::std::result::Result::Ok(#value)
                }
            } else {
                quote!(::std::result::Result::Ok(#value))
            };
            quote! {
                let #binding = ::toolwright::__private::codec::Object::new(deserializer, #expected)?;
                #finish
            }
        }
        Codec::Newtype => quote! {
            ::toolwright::__private::serde::Deserialize::deserialize(deserializer).map(Self)
        },
        Codec::Untagged(variants) => {
            let attempts = variants.iter().map(|v| {
                quote! {
                    if let ::std::option::Option::Some(value) = ::toolwright::__private::codec::attempt(&content) {
                        return ::std::result::Result::Ok(Self::#v(value));
                    }
                }
            });
            quote! {
                let content = ::toolwright::__private::codec::content(deserializer)?;
                #(#attempts)*
                ::std::result::Result::Err(::toolwright::__private::codec::no_variant(#name))
            }
        }
        Codec::Strings(variants) => {
            let all = variants.iter().map(|(v, _)| quote!(Self::#v));
            let texts = variants.iter().map(|(_, text)| text);
            quote! {
                ::toolwright::__private::codec::variant(deserializer, &[#(#texts),*])
                    .map(|i| [#(#all),*][i])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, code: TokenStream) -> Item {
        Item {
            name: name.to_owned(),
            code,
            codec: None,
        }
    }

    fn features(names: &[&str]) -> Option<BTreeSet<String>> {
        Some(names.iter().map(|n| (*n).to_owned()).collect())
    }

    #[test]
    fn needs_and_gates_follow_the_types_an_item_names() {
        // Input -> Shared; Output -> Shared, Only; Loose (reached by nothing) -> Only.
        let items = vec![
            item(
                "Input",
                quote!(
                    pub struct Input {
                        s: Shared,
                    }
                ),
            ),
            item(
                "Output",
                quote!(
                    pub struct Output {
                        s: Shared,
                        o: Vec<Only>,
                    }
                ),
            ),
            item(
                "Shared",
                quote!(
                    pub struct Shared;
                ),
            ),
            item(
                "Only",
                quote!(
                    pub struct Only;
                ),
            ),
            item(
                "Loose",
                quote!(
                    pub struct Loose {
                        o: Only,
                    }
                ),
            ),
        ];
        let graph = Graph::new(&items);
        let roots = [
            Root {
                ty: quote!(Input),
                needs: Needs::SERIALIZE,
                gate: features(&["api-a"]),
            },
            Root {
                ty: quote!(::std::vec::Vec<Output>),
                needs: Needs::DESERIALIZE,
                gate: features(&["api-b"]),
            },
        ];
        let needs = resolve(&items, &graph, &roots);
        assert_eq!(needs[0], Needs::SERIALIZE);
        assert_eq!(needs[1], Needs::DESERIALIZE);
        assert_eq!(needs[2], Needs::BOTH, "written in one, read in the other");
        assert_eq!(needs[4], Needs::default(), "reached by nothing");
        let gates = gates(&items, &graph, &roots);
        assert_eq!(gates[0], features(&["api-a"]));
        assert_eq!(gates[2], features(&["api-a", "api-b"]));
        // `Loose` is always compiled, so `Only`, which it names, must be too.
        assert_eq!(gates[4], None);
        assert_eq!(gates[3], None);
    }
}
