//! Tests of the settings merge: byte-for-byte elsewhere, idempotent, refusals with the line.

use super::*;

fn wanted() -> Map<String, Value> {
    let v: Value = serde_json::from_str(
        r#"{"SessionStart": [{"hooks": [{"type": "command", "command": "memory-index-lsp hook"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "memory-index-lsp hook"}]}]}"#,
    )
    .unwrap();
    v.as_object().unwrap().clone()
}

fn merged(text: Option<&str>) -> (String, Vec<String>) {
    let (out, added) = merge(text, &wanted()).unwrap();
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    for event in ["SessionStart", "PreToolUse"] {
        assert!(runs_ours(v["hooks"][event].as_array().unwrap()), "{event}\n{out}");
    }
    let (again, none) = merge(Some(&out), &wanted()).unwrap();
    assert_eq!((again.as_str(), none.len()), (out.as_str(), 0), "a second run changes nothing");
    (out, added)
}

#[test]
fn a_missing_or_empty_file_gets_the_hooks() {
    for text in [None, Some(""), Some("  \n")] {
        let (out, added) = merged(text);
        assert!(out.starts_with("{\n  \"hooks\": {\n    \"PreToolUse\": ["), "{out}");
        assert_eq!(added.len(), 2);
    }
    let (out, _) = merged(Some("{}"));
    assert!(out.starts_with("{\n  \"hooks\": {"), "{out}");
}

#[test]
fn other_keys_hooks_and_permissions_are_kept_byte_for_byte() {
    let text = r#"{
    "permissions": {
        "allow": ["Bash(npm test)", "Read(./src/**)"],
        "deny": []
    },
    "hooks": {
        "PreToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "./lint.sh"}]}
        ],
        "Stop": [ ]
    },
    "model": "opus"   
}
"#;
    let (out, added) = merged(Some(text));
    assert_eq!(added, ["PreToolUse", "SessionStart"]);
    // Everything that was there is still there, in order, byte for byte.
    let mut rest = out.as_str();
    for piece in [
        "{\n    \"permissions\": {\n        \"allow\": [\"Bash(npm test)\", \"Read(./src/**)\"],\n        \"deny\": []\n    },\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}",
        "\n        ],\n        \"Stop\": [ ]",
        "\n    },\n    \"model\": \"opus\"   \n}\n",
    ] {
        let at = rest.find(piece).unwrap_or_else(|| panic!("lost {piece:?} in\n{out}"));
        rest = &rest[at + piece.len()..];
    }
    assert!(
        out.contains("]},\n            {\n                \"hooks\": [\n                    {\n"),
        "indented like the file:\n{out}"
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./lint.sh");
}

#[test]
fn crlf_stays_crlf_and_empty_hooks_fill_in() {
    let text = "{\r\n  \"hooks\": {}\r\n}\r\n";
    let (out, _) = merged(Some(text));
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    // A one-line object is opened onto lines to take a multi-line member; its members stay as they were.
    let (out, _) = merged(Some("{\"env\": {\"A\": \"}\\\"{\"}}"));
    assert!(out.starts_with("{\n  \"env\": {\"A\": \"}\\\"{\"},\n  \"hooks\": {"), "{out}");
}

/// Found by review: a file an editor saved with a byte-order mark was refused as not JSON.
#[test]
fn a_byte_order_mark_is_read_past_and_kept() {
    let (out, added) = merge(Some("\u{feff}{\"env\": {}}\n"), &wanted()).unwrap();
    assert!(out.starts_with("\u{feff}{\n  \"env\": {},\n  \"hooks\": {"), "{out:?}");
    assert_eq!(added.len(), 2);
    let (again, none) = merge(Some(&out), &wanted()).unwrap();
    assert_eq!((again, none.len()), (out, 0));
    let (mcp, added) =
        merge_mcp(Some("\u{feff}{}"), &serde_json::json!({"command": "memory-index-lsp", "args": ["mcp"]})).unwrap();
    assert!(added && mcp.starts_with("\u{feff}{"), "{mcp:?}");
}

#[test]
fn an_event_that_already_runs_the_hook_is_left_alone() {
    let text =
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "memory-index-lsp hook --x"}]}]}}"#;
    let (out, added) = merged(Some(text));
    assert_eq!(added, ["PreToolUse"]);
    assert!(
        out.contains(r#""SessionStart": [{"hooks": [{"type": "command", "command": "memory-index-lsp hook --x"}]}],"#),
        "{out}"
    );
}

#[test]
fn malformed_files_are_refused_with_the_line() {
    let e = merge(Some("{\n  \"hooks\": {,\n}"), &wanted()).unwrap_err();
    assert!(e.starts_with("line 2, column"), "{e}");
    assert!(merge(Some("[]"), &wanted()).unwrap_err().contains("not a JSON object"));
    assert!(merge(Some(r#"{"hooks": []}"#), &wanted()).unwrap_err().contains("`hooks` is not an object"));
    let e = merge(Some(r#"{"hooks": {"PreToolUse": {}}}"#), &wanted()).unwrap_err();
    assert!(e.contains("`hooks.PreToolUse` is not an array"), "{e}");
}

/// Found by review: Gemini CLI reads its settings with comments; a commented file was refused.
#[test]
fn comments_are_read_past_and_kept() {
    let text = "{\n  // team settings: keep the theme\n  \"theme\": \"GitHub\", /* \"hooks\": {} */\n  \"url\": \"http://x//y\"\n}\n";
    let (out, added) = merge(Some(text), &wanted()).unwrap();
    assert_eq!(added.len(), 2);
    assert!(out.contains("// team settings: keep the theme\n") && out.contains("/* \"hooks\": {} */"), "{out}");
    assert!(out.contains("\"url\": \"http://x//y\""), "a `//` inside a string is no comment: {out}");
    assert!(out.contains("\n  \"hooks\": {\n    \""), "indented like the file, not like a blanked comment: {out}");
    let (again, none) = merge(Some(&out), &wanted()).unwrap();
    assert_eq!((again.as_str(), none.len()), (out.as_str(), 0), "a second run changes nothing");
    let (mcp, added) = merge_mcp(
        Some("{ // servers\n  \"mcpServers\": {}\n}\n"),
        &serde_json::json!({"command": "memory-index-lsp", "args": ["mcp"]}),
    )
    .unwrap();
    assert!(added && mcp.contains("// servers") && mcp.contains("\"memory-index\""), "{mcp}");
}

/// A memory set up when the pre-tool hook matched `Bash` only: a second
/// `init` adds the file tools' group beside it, and nothing else; a group of
/// ours that matches every tool already covers them.
#[test]
fn an_older_setup_gets_the_file_tools_group_added() {
    let ours = r#"{"type": "command", "command": "memory-index-lsp hook"}"#;
    let want: Value = serde_json::from_str(&format!(
        r#"{{"PreToolUse": [{{"matcher": "Bash", "hooks": [{ours}]}}, {{"matcher": "Read|Edit", "hooks": [{ours}]}}]}}"#
    ))
    .unwrap();
    let want = want.as_object().unwrap();
    let old = format!("{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{\"matcher\": \"Bash\", \"hooks\": [{ours}]}}\n    ]\n  }}\n}}\n");
    let (out, added) = merge(Some(&old), want).unwrap();
    assert_eq!(added, ["PreToolUse"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let matchers: Vec<&str> =
        v["hooks"]["PreToolUse"].as_array().unwrap().iter().filter_map(|g| g["matcher"].as_str()).collect();
    assert_eq!(matchers, ["Bash", "Read|Edit"]);
    assert!(out.starts_with(&old[..old.find("]}\n").unwrap() + 2]), "the old group is kept byte for byte:\n{out}");
    assert_eq!(merge(Some(&out), want).unwrap().1.len(), 0, "a third run changes nothing");
    for every in ["*", ".*", "Edit|Bash|Read"] {
        let text = format!("{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"{every}\", \"hooks\": [{ours}]}}]}}}}");
        assert_eq!(merge(Some(&text), want).unwrap().1.len(), 0, "{every} covers Bash and Read|Edit");
    }
}

/// Found by review: a name given twice was checked at its last occurrence and edited at its first,
/// so the hooks went where no agent reads them, again at every run.
#[test]
fn a_name_given_twice_is_read_and_edited_at_its_last() {
    let text = "{\n  \"hooks\": {\"Stop\": []},\n  \"hooks\": {}\n}\n";
    let (out, added) = merged(Some(text));
    assert_eq!(added.len(), 2);
    assert!(out.starts_with("{\n  \"hooks\": {\"Stop\": []},\n  \"hooks\": {\n"), "{out}");
}
