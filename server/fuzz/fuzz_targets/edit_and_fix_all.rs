//! Fuzz target: random line edits to an index, then fix-all: lossless and idempotent.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::ide::fix_all::fix_all;
use memory_index_lsp::model::{FileText, Workspace};

const LINES: &[&str] = &[
    "## agents/decisions/a.md",
    "## agents/decisions/b.md",
    "## agents/decisions/gone.md",
    "/when alpha",
    "/when beta | x,,y",
    "/how gamma |",
    "/When alpha",
    "/when mock patching",
    "Key — description",
    "**Label**",
    "```",
    "<!--",
    "-->",
    "",
];
const DECISION_A: &str = "# A\n## When Alpha\nx\n## .Mock Patching\n### How to Gamma\ny\n";
const DECISION_B: &str = "## When Beta\nz\n";

fn non_blank(text: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for l in text.split(['\n', '\r']).filter(|l| !l.trim().is_empty()) {
        *m.entry(l.to_string()).or_default() += 1;
    }
    m
}

fn workspace(index: &str) -> Workspace {
    let mut ws = Workspace::default();
    ws.set_file("agents/memory-index.md", FileText::from(index));
    ws.set_file("agents/decisions/a.md", FileText::from(DECISION_A));
    ws.set_file("agents/decisions/b.md", FileText::from(DECISION_B));
    ws
}

fuzz_target!(|ops: Vec<(u8, u8, bool)>| {
    let mut lines: Vec<String> = Vec::new();
    for (pick, at, remove) in ops.into_iter().take(64) {
        let at = at as usize % (lines.len() + 1);
        if remove && at < lines.len() {
            lines.remove(at);
        } else {
            lines.insert(at, LINES[pick as usize % LINES.len()].to_string());
        }
    }
    let index = lines.join("\n");
    let mut ws = workspace(&index);
    fix_all(&mut ws);
    let after = ws.index().map(|(_, f, _)| f.text.clone()).unwrap_or_default();
    let kept = non_blank(&after);
    for (line, n) in non_blank(&index) {
        let t = line.trim();
        let entry = t.starts_with("/when") || t.starts_with("/how");
        let allowed = kept.get(&line).copied().unwrap_or(0) >= n
            || (entry && kept.contains_key(&line))
            || ["/when mock patching", "/When alpha", "/when beta | x,,y", "/how gamma |"].contains(&t)
            || (t.starts_with("##") && t != "## agents/decisions/a.md" && t != "## agents/decisions/b.md");
        assert!(allowed, "lost {line:?}");
    }
    let mut again = workspace(&after);
    assert!(fix_all(&mut again).change.is_empty(), "fix-all is not idempotent");
});
