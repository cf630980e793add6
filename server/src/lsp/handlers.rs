//! The protocol handlers, by kind; `server.rs` dispatches each `LanguageServer` method to one of them.

pub mod notification;
pub mod request;
