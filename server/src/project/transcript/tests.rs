//! Tests of reading Claude Code transcript lines.

use super::*;

#[test]
fn prompts_are_typed_text_and_slash_commands() {
    let p = |s: &str| prompt_of(&serde_json::from_str(s).unwrap());
    assert_eq!(p(r#"{"type":"user","message":{"role":"user","content":"fix it"}}"#).as_deref(), Some("fix it"));
    assert_eq!(
        p(r#"{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}"#)
            .as_deref(),
        Some("a\nb")
    );
    assert_eq!(p(r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"x"}]}}"#), None);
    assert_eq!(p(r#"{"type":"user","isMeta":true,"message":{"content":"x"}}"#), None);
    assert_eq!(
        p(r#"{"type":"user","message":{"content":"<command-message>when</command-message>\n<command-name>/when</command-name>\n<command-args>writing mock tests</command-args>"}}"#)
            .as_deref(),
        Some("/when writing mock tests")
    );
    assert_eq!(p(r#"{"type":"assistant","message":{"content":"x"}}"#), None);
}
