//! Agents' JSON settings (comments allowed: Gemini CLI and VS Code read them) edited through a JSONC syntax tree (`jsonc-parser`'s CST): members and array elements added where they belong, indented and ended like the file.
//!
//! Every other byte is kept, with two exceptions the tree makes: an object
//! written on one line is opened onto lines to take a multi-line member,
//! and a blank line before the closing brace of a container that gets a
//! member goes. A name given twice is read, and edited, at its last
//! occurrence, as the agents' JSON readers read it.

use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode};
use jsonc_parser::ParseOptions;
use serde_json::Value;

/// What is read: JSON with `//` and `/* */` comments, nothing looser (a
/// trailing comma, a bare key or a single-quoted string is refused, as the
/// agents' own JSON readers refuse them).
const STRICT_BUT_COMMENTS: ParseOptions = ParseOptions {
    allow_comments: true,
    allow_loose_object_property_names: false,
    allow_trailing_commas: false,
    allow_missing_commas: false,
    allow_single_quoted_strings: false,
    allow_hexadecimal_numbers: false,
    allow_unary_plus_numbers: false,
    allow_bare_decimal_point_numbers: false,
    allow_extended_string_escapes: false,
    allow_non_finite_numbers: false,
};

/// The syntax tree of `text`; Err says where it is not JSON (with comments).
pub(super) fn parse(text: &str) -> Result<CstRootNode, String> {
    CstRootNode::parse(text, &STRICT_BUT_COMMENTS).map_err(|e| {
        let at = e.range().start.min(text.len());
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("line {line}, column {column}: not valid JSON ({})", e.kind())
    })
}

/// The file's top-level object.
pub(super) fn top(root: &CstRootNode) -> Result<CstObject, String> {
    root.object_value().ok_or_else(|| "the file is not a JSON object".to_string())
}

/// The member `name` of `obj`: the last one when the name is given twice,
/// as the agents' JSON readers (and `value`) read it.
pub(super) fn member(obj: &CstObject, name: &str) -> Option<CstObjectProp> {
    obj.properties().into_iter().rev().find(|p| p.name().and_then(|n| n.decoded_value().ok()).as_deref() == Some(name))
}

/// The object member `name` of `obj`: None when absent, Err when it is not an object.
pub(super) fn object(obj: &CstObject, name: &str, path: &str) -> Result<Option<CstObject>, String> {
    match member(obj, name) {
        None => Ok(None),
        Some(p) => p.value().and_then(|v| v.as_object()).map(Some).ok_or_else(|| format!("`{path}` is not an object")),
    }
}

/// The array member `name` of `obj`: None when absent, Err when it is not an array.
pub(super) fn array(obj: &CstObject, name: &str, path: &str) -> Result<Option<CstArray>, String> {
    match member(obj, name) {
        None => Ok(None),
        Some(p) => p.value().and_then(|v| v.as_array()).map(Some).ok_or_else(|| format!("`{path}` is not an array")),
    }
}

/// `v` as the tree takes it (keys in `v`'s order).
pub(super) fn input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(o) => CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}

/// Replaces every string `old` (a whole string) inside `array` by `new`; how many.
pub(super) fn replace_strings(array: &CstArray, old: &str, new: &str) -> usize {
    let mut n = 0;
    let mut stack: Vec<CstNode> = array.children();
    while let Some(node) = stack.pop() {
        if let Some(lit) = node.as_string_lit() {
            if lit.decoded_value().is_ok_and(|v| v == old) {
                lit.replace_with(CstInputValue::String(new.to_string()));
                n += 1;
            }
        } else {
            stack.extend(node.children());
        }
    }
    n
}

/// `node` as a JSON value (Null for what is no value).
pub(super) fn value(node: &CstNode) -> Value {
    node.to_serde_value().unwrap_or(Value::Null)
}
