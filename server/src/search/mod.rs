//! Ranking text for people and agents: the fuzzy engine and the resolver's trigger-mode matching.
//!
//! This sits in the model layer (after `model`, before `rules`) because two
//! rules, `collision` and `shadowed-trigger`, are defined by what the resolver
//! would return. Binding never uses it: binding is exact (see `model::bind`).

pub mod bm25;
pub mod commands;
pub mod embed;
pub mod fuzzy;
pub mod index;
pub mod le;
pub mod names;
pub mod query;
pub mod recall;
pub mod semantic;
pub mod similar;
pub mod snapshot;
pub mod triggers;
pub mod words;

pub use query::{Hit, HitKind, TriggerQuery};
