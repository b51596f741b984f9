//! What the generator and the runtime share of Arazzo workflows: runtime expressions
//! ([`expression`]) and `simple` criteria ([`condition`]), parsed the same way on both
//! sides.

pub mod condition;
pub mod expression;

pub use condition::Condition;
pub use expression::{Expression, Scope, Source, Written, pointed};
