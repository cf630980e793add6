//! Table-driven tests of every rule.

#[test]
fn suggested_triggers_lowercase_words_and_keep_names() {
    use crate::rules::placement::trigger_from_title;
    let t = |title: &str| trigger_from_title(title).map(|(_, t)| t).unwrap_or_default();
    assert_eq!(t("When CLI Commands Are LLM-Native"), "CLI commands are LLM-native");
    assert_eq!(t("When classifyHandoffIfNeeded Bug Occurs"), "classifyHandoffIfNeeded bug occurs");
    assert_eq!(t("How to Handle I/O Errors On macOS"), "handle I/O errors on macOS");
    assert_eq!(t("When Using A Read-Only Mount"), "using a read-only mount");
}
