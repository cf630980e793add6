//! Navigation in the engine: definition, references, hover, symbols; `$0` marks the cursor.

use crate::support;

use memory_index_lsp::ide::{hover, navigate, symbols};
use memory_index_lsp::model::{FileId, Workspace};
use support::*;

/// The workspace, the file holding `$0`, and the cursor offset (marker removed).
fn cursor(fixture: &str) -> (Workspace, FileId, usize) {
    let mut at = None;
    let mut clean = String::new();
    for (path, text) in files(fixture) {
        if let Some(i) = text.find("$0") {
            at = Some((path.clone(), i));
        }
        clean.push_str(&format!("//- {path}\n{}", text.replace("$0", "")));
    }
    let (path, offset) = at.expect("a $0 marker");
    let ws = workspace(&clean);
    let id = ws.file_id(&path).expect("file");
    (ws, id, offset)
}

const WS: &str = "//- agents/memory-index.md
# Index
/when writing $0mock tests
## agents/decisions/testing.md
/when writing mock tests | mock patch
/how split test modules
//- agents/decisions/testing.md
# Testing
## .Mock Patching
### When Writing Mock Tests
Patch where used.
```
### When In Code
```
### How to Split Test Modules
Same principle as `/when writing mock tests`.
//- CLAUDE.md
Recall with `/when mock patch` before testing.
```sh
/when writing mock tests
```
";

fn loc(ws: &Workspace, r: &memory_index_lsp::model::FileRange) -> String {
    let f = ws.file(r.file).expect("file");
    format!("{}:{}", f.path, f.line_col_1(r.range.start).0)
}

/// `WS` with the cursor placed where `marker` (a piece of WS with `$0` in it) says.
fn at(marker: &str) -> (Workspace, FileId, usize) {
    let plain = marker.replace("$0", "");
    let ws = WS.replace("$0", "");
    let start = ws.find(&plain).unwrap_or_else(|| panic!("{plain:?} not in the fixture"));
    let cut = start + marker.find("$0").expect("marker has $0");
    cursor(&format!("{}$0{}", &ws[..cut], &ws[cut..]))
}

#[test]
fn definition_from_entries_invocations_and_section_names() {
    let (ws, f, o) = at("/how split $0test modules");
    assert_eq!(navigate::definition(&ws, f, o).map(|r| loc(&ws, &r)).as_deref(), Some("agents/decisions/testing.md:8"));
    let (ws, f, o) = at("/when writing mo$0ck tests | mock patch");
    assert_eq!(navigate::definition(&ws, f, o).map(|r| loc(&ws, &r)).as_deref(), Some("agents/decisions/testing.md:3"));
    let (ws, f, o) = at("Recall with `/when mock pa$0tch`");
    assert_eq!(
        navigate::definition(&ws, f, o).map(|r| loc(&ws, &r)).as_deref(),
        Some("agents/decisions/testing.md:3"),
        "an extra in inline code"
    );
    let (ws, f, o) = at("```sh\n/when writ$0ing");
    assert_eq!(
        navigate::definition(&ws, f, o).map(|r| loc(&ws, &r)).as_deref(),
        Some("agents/decisions/testing.md:3"),
        "inside a code block"
    );
    let (ws, f, o) = at("## agents/decisions/te$0sting.md");
    assert_eq!(navigate::definition(&ws, f, o).map(|r| loc(&ws, &r)).as_deref(), Some("agents/decisions/testing.md:1"));
}

#[test]
fn preamble_lines_and_code_headings_are_not_navigable() {
    let (ws, f, o) = cursor(WS);
    // `/when writing mock tests` in the preamble is an example, not an entry: not navigable.
    assert!(navigate::definition(&ws, f, o).is_none());
    assert!(hover::hover(&ws, f, o).is_none());
    let (ws, f, o) = at("### When In $0Code");
    assert!(navigate::definition(&ws, f, o).is_none());
    assert!(navigate::references(&ws, f, o).is_empty(), "a heading inside a code block is never a target");
}

#[test]
fn references_from_a_heading_include_entries_and_invocations_everywhere() {
    let (ws, f, o) = at("### When Writing $0Mock Tests");
    let mut refs: Vec<String> = navigate::references(&ws, f, o).iter().map(|r| loc(&ws, r)).collect();
    refs.sort();
    assert_eq!(
        refs,
        [
            "CLAUDE.md:1",
            "CLAUDE.md:3",
            "agents/decisions/testing.md:3",
            "agents/decisions/testing.md:9",
            "agents/memory-index.md:4",
        ]
    );
}

#[test]
fn hover_previews_and_heading_status() {
    let (ws, f, o) = at("/when writing mo$0ck tests | mock patch");
    let (_, text) = hover::hover(&ws, f, o).expect("hover");
    assert!(text.starts_with("**When Writing Mock Tests**\n\nPatch where used."), "{text}");
    assert!(text.ends_with("Source: agents/decisions/testing.md:3"), "{text}");
    let (ws, f, o) = at("### How to Split $0Test Modules");
    assert_eq!(
        hover::hover(&ws, f, o).map(|h| h.1).as_deref(),
        Some("Indexed by `/how split test modules` (agents/memory-index.md:5)")
    );
    let unindexed = "//- agents/memory-index.md\n## agents/decisions/a.md\n//- agents/decisions/a.md\n## When Caching $0Sailing Searches\nx\n";
    let (ws, f, o) = cursor(unindexed);
    let text = hover::hover(&ws, f, o).map(|h| h.1).unwrap_or_default();
    assert!(text.starts_with("Not indexed in agents/memory-index.md. Suggested trigger: `/when "), "{text}");
}

#[test]
fn a_section_hover_says_what_it_costs_of_the_index() {
    let (ws, f, o) = at("## agents/decisions/tes$0ting.md");
    let text = hover::hover(&ws, f, o).map(|h| h.1).unwrap_or_default();
    // The section's three lines (heading, two entries) of the index's five, in cl100k tokens.
    let tokens = memory_index_lsp::text::tokens::count;
    let index = ws.file(f).expect("index").text.clone();
    let section: usize = index.lines().skip(2).map(|l| tokens(&format!("{l}\n"))).sum();
    let total: usize = index.split_inclusive('\n').map(tokens).sum();
    assert_eq!(
        text,
        format!("**Testing** (agents/decisions/testing.md): 2 entries in this section; about {section} of the index's {total} tokens")
    );
    assert!(section > 10 && total > section, "{text}");
}

#[test]
fn utf16_and_utf8_clients_get_the_same_targets() {
    let fixture = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when 😀 émoji $0trigger\n//- agents/decisions/a.md\n## When 😀 Émoji Trigger\nx\n";
    let (ws, f, o) = cursor(fixture);
    let file = ws.file(f).expect("file");
    let idx = &file.line_index;
    for enc in [memory_index_lsp::text::Encoding::Utf8, memory_index_lsp::text::Encoding::Utf16] {
        let p = idx.position(&file.text, o, enc);
        let back = idx.offset(&file.text, p, enc);
        assert_eq!(
            navigate::definition(&ws, f, back).map(|r| loc(&ws, &r)).as_deref(),
            Some("agents/decisions/a.md:1")
        );
    }
}

#[test]
fn symbols_and_folding() {
    let (ws, _, _) = cursor(WS);
    let index = ws.file_id("agents/memory-index.md").expect("index");
    let syms = symbols::document_symbols(&ws, index);
    assert_eq!(syms.len(), 1);
    assert_eq!(syms[0].name, "agents/decisions/testing.md");
    assert_eq!(syms[0].children.len(), 2);
    let d = ws.file_id("agents/decisions/testing.md").expect("decision");
    let tree = symbols::document_symbols(&ws, d);
    assert_eq!(tree[0].name, "Testing");
    assert_eq!(tree[0].children[0].kind, symbols::SymbolKind::Namespace);
    assert_eq!(
        tree[0].children[0].children.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["When Writing Mock Tests", "How to Split Test Modules"]
    );
    assert!(!symbols::folding_ranges(&ws, index).is_empty());
}

/// A 117,000-line index: the outline lists every section and entries up to
/// the cap (the sections whose entries are cut say so), and every section
/// still folds.
#[test]
fn symbols_of_a_huge_index_are_capped_and_sections_all_fold() {
    let mut text = String::from("# Index\n\n");
    for s in 0..20 {
        text.push_str(&format!("## agents/decisions/f{s}.md\n\n"));
        for e in 0..5_848 {
            text.push_str(&format!("/when doing thing {s} {e} | extra {e}\n"));
        }
        text.push('\n');
    }
    assert!(text.lines().count() > 117_000);
    let mut ws = memory_index_lsp::model::Workspace::new(memory_index_lsp::model::Config::default());
    ws.set_file("agents/memory-index.md", memory_index_lsp::model::FileText::from(text));
    let index = ws.file_id("agents/memory-index.md").expect("index");
    let syms = symbols::document_symbols(&ws, index);
    assert_eq!(syms.len(), 20, "every section");
    let listed: usize = syms.iter().map(|s| 1 + s.children.len()).sum();
    assert_eq!(listed, symbols::MAX_INDEX_SYMBOLS);
    assert_eq!(syms[0].detail.as_deref(), Some("5848 entries, 1980 listed (outline capped at 2000)"));
    assert_eq!(syms[19].detail.as_deref(), Some("5848 entries, 0 listed (outline capped at 2000)"));
    assert_eq!(symbols::folding_ranges(&ws, index).len(), 20);
}

#[test]
fn completion_in_the_index_and_in_any_markdown() {
    use memory_index_lsp::ide::completion::complete;
    let labels = |fixture: &str| {
        let (ws, f, o) = cursor(fixture);
        complete(&ws, f, o).into_iter().map(|i| i.label).collect::<Vec<_>>()
    };
    let base = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when alpha\n$0\n//- agents/decisions/a.md\n## When Alpha\nx\n## How to Beta Things\ny\n//- agents/decisions/b.md\n## .Group\n";
    assert_eq!(labels(&base.replace("$0", "/$0")), ["/when", "/how"]);
    assert_eq!(
        labels(&base.replace("$0", "/when $0")),
        ["beta things"],
        "in the index, only unindexed headings: an existing trigger would be a duplicate"
    );
    let skill = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when alpha\n/how beta things | alpha beta\n//- agents/decisions/a.md\n## When Alpha\nx\n## How to Beta Things\ny\n";
    assert_eq!(labels(&format!("{skill}//- CLAUDE.md\n/when al$0\n")), ["alpha"], "only /when triggers after /when");
    assert_eq!(
        labels(&format!("{skill}//- CLAUDE.md\n/how al$0\n")),
        ["alpha beta"],
        "an extra of a /how entry after /how"
    );
    let (ws, f, o) = cursor(&base.replace("$0", "/when $0"));
    let first = complete(&ws, f, o).remove(0);
    assert_eq!(first.insert, "/how beta things", "the operator follows the heading");
    assert!(first.documentation.unwrap_or_default().contains("How to Beta Things"));
    assert_eq!(
        labels(&base.replace("$0", "## $0")),
        ["agents/decisions/b.md", "agents/decisions/a.md"],
        "files without a section first"
    );
    let skill = format!("{base}//- CLAUDE.md\nsee `/when .Gr$0`\nand /when ..$0\n");
    let (ws, f, o) = cursor(&skill.replacen("$0", "", 1).replacen("\n$0\n", "\n\n", 1));
    let _ = (ws, f, o);
    assert_eq!(labels(&format!("{}//- CLAUDE.md\nsee `/when .Gr$0`\n", base.replace("$0", ""))), [".Group"]);
    assert_eq!(labels(&format!("{}//- CLAUDE.md\nand /when ..$0\n", base.replace("$0", ""))), ["..a.md", "..b.md"]);
    assert_eq!(labels(&format!("{}//- CLAUDE.md\nrecall /when alp$0\n", base.replace("$0", ""))), ["alpha"]);
}

#[test]
fn completion_offers_decisions_whose_section_matches_the_words() {
    use memory_index_lsp::ide::completion::complete;
    let fixture = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when alpha\n/how seed data\n//- agents/decisions/a.md\n## When Alpha\nRetry flaky network fixtures with a backoff.\n## How to Seed Data\nFactories build rows.\n//- CLAUDE.md\nrecall /when flaky network fixtures$0\n";
    let (ws, f, o) = cursor(fixture);
    let items = complete(&ws, f, o);
    let first = items.first().expect("an item");
    assert_eq!(first.label, "alpha", "{items:?}");
    assert_eq!(first.detail.as_deref(), Some("When Alpha (matches its section)"));
}

#[test]
fn inlay_hints_and_links() {
    use memory_index_lsp::ide::hints;
    let (ws, _, _) = cursor(WS);
    let index = ws.file_id("agents/memory-index.md").expect("index");
    let all = memory_index_lsp::text::TextRange::new(0, usize::MAX);
    let h: Vec<(usize, String)> = hints::inlay_hints(&ws, index, all);
    let labels: Vec<&str> = h.iter().map(|x| x.1.as_str()).collect();
    assert_eq!(labels, [" → testing.md:3", " → testing.md:8"]);
    // Only the lines asked for (an editor asks for what it shows).
    let second = memory_index_lsp::text::TextRange::new(h[0].0 + 1, h[1].0);
    let shown: Vec<String> = hints::inlay_hints(&ws, index, second).into_iter().map(|x| x.1).collect();
    assert_eq!(shown, [" → testing.md:8"]);
    let links: Vec<String> = hints::document_links(&ws, index).into_iter().map(|x| x.1).collect();
    assert_eq!(links, ["agents/decisions/testing.md"]);
}

#[test]
fn semantic_tokens_and_workspace_symbols() {
    use memory_index_lsp::ide::tokens::{self, TokenType};
    let (ws, _, _) = cursor(WS);
    let index = ws.file_id("agents/memory-index.md").expect("index");
    let file = ws.file(index).expect("file");
    let findings = memory_index_lsp::rules::check(&ws);
    let toks: Vec<(String, TokenType)> = tokens::tokens(&ws, index, &findings)
        .into_iter()
        .map(|(r, t, _)| (r.slice(&file.text).to_string(), t))
        .collect();
    assert_eq!(
        toks[..5],
        [
            ("agents/decisions/testing.md".to_string(), TokenType::SectionPath),
            ("/when".into(), TokenType::Operator),
            ("writing mock tests".into(), TokenType::Trigger),
            ("|".into(), TokenType::Separator),
            ("mock patch".into(), TokenType::Extra),
        ]
    );
    let claude = ws.file_id("CLAUDE.md").expect("claude");
    assert_eq!(tokens::tokens(&ws, claude, &findings).len(), 4, "two invocations: operator and query each");
    let syms = symbols::workspace_symbols(&ws, "mock patch", 5);
    assert_eq!(syms[0].name, "/when mock patch");
}
