//! How much each field of a tool's document weighs in its term frequencies (BM25F):
//! one table, so that the fields can be read against each other.

/// The weight of each field of a [`super::Document`] (with [`super::Techniques::FIELDS`];
/// without, name, title, summary and description weigh 1 each, the rest nothing).
pub(super) struct Fields {
    /// The tool's name, its method word dropped (`PostQuotes` → `Quotes`).
    pub(super) name: f32,
    pub(super) title: f32,
    /// The description's first paragraph.
    pub(super) summary: f32,
    /// The rest of the description: long prose whose rare words are mostly not what a
    /// request asks.
    pub(super) description: f32,
    pub(super) param_name: f32,
    pub(super) param_description: f32,
    /// What the tool returns ([`super::Techniques::RESULT`]): prose about the object,
    /// not the tool (0.05 to 0.2 measured alike on the tuning sets; 0.6 and above lost
    /// queries).
    pub(super) result: f32,
    /// A value an argument's `enum` allows ([`super::Techniques::ENUMS`]).
    pub(super) enum_value: f32,
    pub(super) tag: f32,
    /// An adapter's `triggers`: phrases that should bring the tool up.
    pub(super) trigger: f32,
    /// A word or phrase the API's users call the tool by (`x-toolwright-aliases`):
    /// another name for it, weighted as its name; left out of the document's length
    /// (another way to find the tool, not more text diluting its own words).
    pub(super) alias: f32,
    /// A request a usage example answers: like a title each, as no one example is the
    /// tool's name for itself.
    pub(super) example: f32,
    /// The verb the method and path imply ([`super::Techniques::VERBS`]).
    pub(super) verb: f32,
    /// An update's boolean argument ([`super::Techniques::FLAGS`]).
    pub(super) flag: f32,
    /// The last resource noun of the path, and the others ([`super::Techniques::PATH`]).
    pub(super) last_path_noun: f32,
    pub(super) path_noun: f32,
    /// A word of a neighbour along IO-contract links ([`super::Techniques::GRAPH`]).
    pub(super) neighbour: f32,
    /// A lexicon synonym of the name or summary ([`super::Techniques::EXPAND`]).
    pub(super) expansion: f32,
    /// A parameter's name under its marker ([`super::Techniques::PARAMS`]), left out of
    /// the document's length.
    pub(super) param_marker: f32,
}

pub(super) const FIELDS: Fields = Fields {
    name: 3.0,
    title: 1.0,
    summary: 2.0,
    description: 0.1,
    param_name: 0.5,
    param_description: 0.1,
    result: 0.1,
    enum_value: 0.3,
    tag: 1.5,
    trigger: 2.0,
    alias: 3.0,
    example: 1.0,
    verb: 1.5,
    flag: 1.5,
    last_path_noun: 1.5,
    path_noun: 0.5,
    neighbour: 0.2,
    expansion: 0.3,
    param_marker: 1.0,
};
