//! Our behaviour on each weak spot W1–W23 of the reference tool that the spec covers, and the
//! equivalents of the reference validator's own tests (reference-implementation.md §12).

use crate::support;

use memory_index_lsp::ide::fix_all::fix_all;
use memory_index_lsp::rules;
use support::*;

/// The problems (errors and warnings) found in a fixture: these tests pin
/// parsing and binding; advice (info findings) is pinned by its rule's fixtures.
fn codes(fixture: &str) -> Vec<String> {
    let ws = workspace(fixture);
    let problems: Vec<rules::Finding> =
        rules::check(&ws).into_iter().filter(|f| f.severity != rules::Severity::Info).collect();
    summary(&ws, &problems)
}

fn fixed_index(fixture: &str) -> String {
    let mut ws = workspace(fixture);
    fix_all(&mut ws);
    ws.index().map(|(_, f, _)| f.text.clone()).unwrap_or_default()
}

const DRIFT: &str = "//- agents/memory-index.md\n# Index\n\npreamble\n\n## agents/decisions/b.md\n\n/when beta\n**Keep this label**\n/when alpha\n- a bullet\nLegacy — line\n/what x\n/when | y\n/when orphan entry\n\n## notes\n\nfree text\n//- agents/decisions/a.md\n## When Alpha\nx\n//- agents/decisions/b.md\n## When Beta\nx\n";

#[test]
fn w1_fix_never_deletes_lines_it_does_not_understand() {
    let out = fixed_index(DRIFT);
    for kept in [
        "preamble",
        "**Keep this label**",
        "- a bullet",
        "Legacy — line",
        "/what x",
        "/when | y",
        "/when orphan entry",
        "## notes",
        "free text",
    ] {
        assert!(out.contains(kept), "{kept:?} lost:\n{out}");
    }
    assert!(out.contains("## agents/decisions/a.md\n\n/when alpha\n"), "misplaced entry moved:\n{out}");
}

#[test]
fn w2_fix_keeps_layout_and_is_idempotent() {
    let once = fixed_index(DRIFT);
    assert!(once.starts_with("# Index\n\npreamble\n\n## agents/decisions/a.md"), "no blank line is added:\n{once}");
    let twice = fixed_index(&DRIFT.replace(
        DRIFT.split("//- agents/decisions/a.md").next().unwrap_or(""),
        &format!("//- agents/memory-index.md\n{once}"),
    ));
    assert_eq!(once, twice);
    // An empty section for a missing file is removed, not kept forever at the end.
    let out = fixed_index("//- agents/memory-index.md\n## agents/decisions/a.md\n/when alpha\n\n## agents/decisions/gone.md\n//- agents/decisions/a.md\n## When Alpha\nx\n");
    assert_eq!(out, "## agents/decisions/a.md\n/when alpha\n");
}

#[test]
fn w3_a_short_entry_never_masks_an_unindexed_heading() {
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when a b\n//- agents/decisions/a.md\n## When Adding New Bars\nx\n## When Auth Breaks\nx\n");
    assert_eq!(
        got,
        [
            "unindexed-heading agents/decisions/a.md:1:4",
            "unindexed-heading agents/decisions/a.md:3:4",
            "orphan-entry agents/memory-index.md:2:7"
        ]
    );
}

#[test]
fn w4_binding_collapses_whitespace_and_keeps_the_prefix_rule() {
    let ok = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when foo   bar\n/how Encode  Paths\n//- agents/decisions/a.md\n## When Foo Bar\nx\n## How to encode paths\nx\n");
    assert!(ok.is_empty(), "{ok:?}");
    // `/how to x` asks for `How to to x`: an orphan, not silently accepted.
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/how to x\n//- agents/decisions/a.md\n## How to X\nbody\n");
    assert!(got.contains(&"orphan-entry agents/memory-index.md:2:6".to_string()), "{got:?}");
    // A heading without the prefix is reported directly.
    assert_eq!(
        codes("//- agents/decisions/a.md\n## Inline Criteria\nx\n"),
        ["heading-prefix agents/decisions/a.md:1:4"]
    );
}

#[test]
fn w6_code_fences_are_respected() {
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when alpha\n/when beta\n//- agents/decisions/a.md\n```\n## When In Fence\n# comment\n```\n## When Alpha\n```python\n# comment\n```\n### When Beta\nx\n");
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn w9_preamble_lines_are_never_entries() {
    let got = codes("//- agents/memory-index.md\n# Memory Index\n/when <trigger>  # behavioral\n/when .Section Title\n/what\n## agents/decisions/a.md\n/when alpha\n//- agents/decisions/a.md\n## When Alpha\nx\n");
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn w11_duplicates_need_the_same_operator_and_same_file_repeats_count() {
    assert!(codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when x\n/how x\n//- agents/decisions/a.md\n## When X\ny\n## How to X\ny\n").is_empty());
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when x\n//- agents/decisions/a.md\n## When X\ny\n## When X\ny\n");
    assert_eq!(
        got,
        [
            "duplicate-heading agents/decisions/a.md:1:4",
            "unindexed-heading agents/decisions/a.md:3:4",
            "duplicate-heading agents/decisions/a.md:3:4"
        ]
    );
}

#[test]
fn w12_empty_triggers_and_extras_are_reported_and_never_deleted() {
    let fixture = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when | x\n/when a |\n//- agents/decisions/a.md\n## When A\ny\n";
    assert_eq!(codes(fixture), ["empty-trigger agents/memory-index.md:2:1", "empty-extra agents/memory-index.md:3:9"]);
    assert_eq!(fixed_index(fixture), "## agents/decisions/a.md\n/when | x\n/when a\n");
}

#[test]
fn w13_every_finding_has_a_line_in_the_file_it_is_about() {
    let ws = workspace(DRIFT);
    for f in rules::check(&ws) {
        assert!(ws.file(f.file).is_some(), "{:?}", f.rule);
        assert!(f.range.end <= ws.file(f.file).map_or(0, |x| x.text.len()));
    }
    // Ordering is anchored on the first entry out of order, not on nothing.
    assert_eq!(codes(&rule_fixture("unordered-section", "invalid")), ["unordered-section agents/memory-index.md:2:1"]);
}

#[test]
fn w17_ordering_ignores_misplaced_entries() {
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when a1\n/when b9\n/when a2\n//- agents/decisions/a.md\n## When A1\nx\n## When A2\nx\n//- agents/decisions/b.md\n## When B0\nx\n## When B9\nx\n");
    assert_eq!(got, ["unindexed-heading agents/decisions/b.md:1:4", "misplaced-entry agents/memory-index.md:3:1"]);
}

#[test]
fn w18_nested_headings_are_analysed_and_comments_are_not_content() {
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when outer\n/when inner\n/when leaf\n//- agents/decisions/a.md\n## When Outer\n1\n2\n3\n### When Inner\n<!--\n1\n2\n3\n-->\n#### When Leaf\nx\n");
    assert_eq!(got, ["no-direct-content agents/decisions/a.md:5:5"]);
}

#[test]
fn w19_crlf_unicode_and_line_separators() {
    let got = codes("//- agents/memory-index.md\r\n## agents/decisions/a.md\r\n/when ünïcode\r\n/when sep\u{2028}arated\r\n//- agents/decisions/a.md\r\n## When Ünïcode\r\nx\r\n## When sep\u{2028}arated\r\nx\r\n");
    assert!(got.is_empty(), "{got:?}");
    let got = codes("//- agents/memory-index.md\r\n## agents/decisions/a.md\r\n/when unicode\r\n/when ok\r\n//- agents/decisions/a.md\r\n## When Ünïcode\r\nx\r\n## When OK\r\nx\r\n");
    assert_eq!(
        got,
        ["unindexed-heading agents/decisions/a.md:1:4", "orphan-entry agents/memory-index.md:2:7"],
        "no accent folding: exact means exact"
    );
}

#[test]
fn w20_setext_closing_hashes_and_spacing() {
    let got = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/when setext\n/when closed\n/when spaced\n//- agents/decisions/a.md\nWhen Setext\n-----------\nx\n## When Closed ##\nx\n##   When Spaced\nx\n##When Not A Heading\n");
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn w21_messages_name_the_configured_paths() {
    let ws = workspace("//- memory-index.toml\nindex = \"kb/index.md\"\ndecisions = \"kb/d\"\n//- kb/index.md\n## kb/d/a.md\n/when x\n//- kb/d/a.md\n## When Y\nz\n");
    let f = rules::check(&ws);
    assert!(f.iter().any(|f| f.message(&ws).contains("`kb/index.md`")), "{f:?}");
    assert_eq!(summary(&ws, &f), ["unindexed-heading kb/d/a.md:1:4", "orphan-entry kb/index.md:2:7"]);
}

// Equivalents of the reference validator's tests (§12).

#[test]
fn reference_suite_equivalents() {
    let valid = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when one thing\n/how do another\n//- agents/decisions/a.md\n# A\nintro mentions ## When Fake and # When Fake\n## When One Thing\nx\n## How to Do Another\nx\n";
    assert!(codes(valid).is_empty(), "valid index, intro text not scanned");
    assert!(codes("//- agents/memory-index.md\n").is_empty(), "empty index");
    assert!(
        codes("//- agents/memory-index.md\n## agents/decisions/a.md\n").len() == 1,
        "a section naming a missing file is reported"
    );
    let formats = codes("//- agents/memory-index.md\n## agents/decisions/a.md\n/what x\n/when\nkey — description\n//- agents/decisions/a.md\n");
    assert_eq!(
        formats,
        [
            "unknown-operator agents/memory-index.md:2:1",
            "empty-trigger agents/memory-index.md:3:1",
            "missing-operator agents/memory-index.md:4:1"
        ]
    );
    let long = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when a b\n/when one two three four five six seven eight nine ten eleven\n//- agents/decisions/a.md\n## When A B\nx\n## When One Two Three Four Five Six Seven Eight Nine Ten Eleven\nx\n";
    assert!(codes(long).is_empty(), "no word-count rule");
    let collision = codes("//- agents/memory-index.md\n# I\n\n## agents/decisions/a.md\n/when mock test\n/when mock testing\n//- agents/decisions/a.md\n## When Mock Testing\nx\n");
    assert!(
        collision.contains(&"collision agents/memory-index.md:6:1".to_string())
            || collision.contains(&"collision agents/memory-index.md:5:1".to_string()),
        "{collision:?}"
    );
    let ws = workspace("//- agents/memory-index.md\n## agents/decisions/a.md\n/when mock test\n/when mock testing\n//- agents/decisions/a.md\n## When Mock Testing\nx\n");
    let msg = rules::check(&ws)
        .into_iter()
        .find(|f| f.rule.code() == "collision")
        .map(|f| f.message(&ws).into_owned())
        .unwrap_or_default();
    assert!(
        msg.contains("/when mock test") && msg.contains("/when mock testing") && msg.contains("When Mock Testing"),
        "{msg}"
    );
    // Autofix: placement, ordering and structural removal in one pass, then nothing to do.
    let multi = "//- agents/memory-index.md\n## agents/decisions/a.md\n/when two\n/when one\n/when b thing\n/when group\n//- agents/decisions/a.md\n## When One\nx\n## When Two\nx\n## .Group\n//- agents/decisions/b.md\n## When B Thing\nx\n";
    let out = fixed_index(multi);
    assert_eq!(out, "## agents/decisions/a.md\n/when one\n/when two\n\n## agents/decisions/b.md\n\n/when b thing\n");
}
