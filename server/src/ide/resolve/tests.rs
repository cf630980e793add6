//! Resolver output and refusals on small in-memory workspaces.

use super::*;
use crate::model::{Config, FileText};

fn ws(files: &[(&str, &str)]) -> Workspace {
    let mut ws = Workspace::new(Config::default());
    for (p, t) in files {
        ws.set_file(p, FileText::from(*t));
    }
    ws
}

const INDEX: &str = "# Memory Index\n/when <trigger>\n\n## agents/decisions/testing.md\n\n/when writing mock tests | mock patch, test doubles\n/how split test modules\n/when mock testing old\n";
const TESTING: &str = "# Testing\n\n## .Mock Patching\n\n### When Writing Mock Tests\n\nPatch where used.\n\n```python\n# not a heading\npatch('x')\n```\n\n### How to Split Test Modules\n\nBy feature.\n";

fn demo() -> Workspace {
    ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/testing.md", TESTING)])
}

#[test]
fn trigger_mode_prints_section_navigation_and_source() {
    let r = resolve(&demo(), "when writing mock tests", true).expect("resolves");
    assert_eq!(
        r.text,
        "# When Writing Mock Tests\n\nPatch where used.\n\n```python\n# not a heading\npatch('x')\n```\n\nBroader:\n/when .Mock Patching\n/when ..testing.md\n\nRelated:\n/how split test modules\n\nSource: agents/decisions/testing.md"
    );
    let plain = resolve(&demo(), "writing mock tests", false).expect("resolves");
    assert!(!plain.text.contains("Broader:") && !plain.text.contains("Related:"));
    assert!(plain.text.ends_with("```\n\nSource: agents/decisions/testing.md"));
}

#[test]
fn extras_fuzzy_and_exact_precedence() {
    let w = demo();
    assert_eq!(
        resolve(&w, "when test doubles", false).map(|r| r.heading),
        resolve(&w, "writing mock tests", false).map(|r| r.heading)
    );
    let fuzzy = resolve(&w, "how split modules", false).expect("fuzzy");
    assert!(fuzzy.text.starts_with("# How to Split Test Modules"));
}

#[test]
fn drifted_entries_print_the_closest_heading_of_their_file() {
    let r = resolve(&demo(), "mock testing old", false);
    // `mock testing old` resembles no heading strongly enough: refused, not a wrong section.
    assert!(r.is_err() || r.as_ref().is_ok_and(|r| r.text.starts_with("# When Writing Mock Tests")));
}

#[test]
fn no_match_suggests_by_the_same_engine() {
    let err = resolve(&demo(), "kubernetes pod autoscaling", false).unwrap_err();
    assert!(err.starts_with("No match for 'kubernetes pod autoscaling'"), "{err}");
    let err = resolve(&demo(), "mock kubernetes autoscaling pods", false).unwrap_err();
    assert!(err.contains("Did you mean:\n  /when writing mock tests"), "{err}");
    // A word of one body alone, at a confidence search would not list, is no suggestion (found by
    // review: "choosing a logging library" offered the decision whose body says "log" once).
    let err = resolve(&demo(), "choosing a used car for the ledger", false).unwrap_err();
    assert!(!err.contains("Did you mean"), "{err}");
}

#[test]
fn section_mode_reaches_semantic_and_structural_headings() {
    let r = resolve(&demo(), ".Mock Patching", false).expect("structural");
    assert!(r.text.starts_with("## .Mock Patching\n\n### When Writing Mock Tests"));
    let r = resolve(&demo(), "when .how to split test modules", false).expect("semantic");
    assert!(r.text.starts_with("### How to Split Test Modules\n\nBy feature."));
    let err = resolve(&demo(), ".Mock Pathing", false).unwrap_err();
    assert!(err.starts_with("Section 'Mock Pathing' not found.\nClosest:\n  /when .Mock Patching"), "{err}");
    let dup = ws(&[("agents/decisions/a.md", "## When X\n"), ("agents/decisions/b.md", "## When X\n")]);
    let err = resolve(&dup, ".when x", false).unwrap_err();
    assert_eq!(err, "Ambiguous heading 'when x' found in: agents/decisions/a.md:1, agents/decisions/b.md:1");
}

#[test]
fn file_mode_stays_inside_the_decisions_directory() {
    let r = resolve(&demo(), "..testing.md", false).expect("file");
    assert!(r.text.starts_with("# Testing\n") && r.text.ends_with("Source: agents/decisions/testing.md"));
    for bad in ["..../etc/passwd", "../x.md", "../../memory-index.md", "../sub/../../x.md", "../", ".."] {
        let err = resolve(&demo(), bad, false).unwrap_err();
        assert!(err.starts_with("Refused:") || err.starts_with("File '"), "{bad}: {err}");
        assert!(!err.contains("Patch where used"), "nothing of a file is printed");
    }
    let err = resolve(&demo(), "..nope.md", false).unwrap_err();
    assert_eq!(err, "File 'nope.md' not found in agents/decisions/.\nAvailable:\n  ..testing.md");
}

#[test]
fn preamble_examples_are_never_targets() {
    let err = resolve(&demo(), "<trigger>", false).unwrap_err();
    assert!(err.starts_with("No match"), "{err}");
}

#[test]
fn w7_the_section_starts_at_the_heading_itself() {
    // An H1 and a paragraph with the same text as the heading are not where the section starts.
    let w = ws(&[
        ("agents/memory-index.md", "## agents/decisions/a.md\n/when foo\n"),
        ("agents/decisions/a.md", "# When Foo\n\nWhen Foo\n\nintro\n\n## When Foo\n\nthe body\n"),
    ]);
    assert_eq!(
        resolve(&w, "foo", false).map(|r| r.text).as_deref(),
        Ok("# When Foo\n\nthe body\n\nSource: agents/decisions/a.md")
    );
}

#[test]
fn w22_empty_bodies_and_file_mode_have_no_stray_blank_lines() {
    let w = ws(&[
        ("agents/memory-index.md", "## agents/decisions/a.md\n/when foo\n"),
        ("agents/decisions/a.md", "## When Foo\n## When Bar\nx\n\n\n"),
    ]);
    assert_eq!(resolve(&w, "foo", false).map(|r| r.text).as_deref(), Ok("# When Foo\n\nSource: agents/decisions/a.md"));
    assert_eq!(
        resolve(&w, "..a.md", false).map(|r| r.text).as_deref(),
        Ok("## When Foo\n## When Bar\nx\n\nSource: agents/decisions/a.md")
    );
}

#[test]
fn exact_triggers_sections_and_files_never_build_bm25() {
    for query in [
        "when writing mock tests",
        "when mock patch",
        "how split test modules",
        "when .Mock Patching",
        "when ..testing.md",
    ] {
        let w = demo();
        assert!(resolve(&w, query, true).is_ok(), "{query}");
        assert!(!search_index::of(&w).bm25_built(), "{query} built BM25");
    }
    // A worded query needs the ranking, and builds it.
    let w = demo();
    assert!(resolve(&w, "when writing mocks for tests", false).is_ok());
    assert!(search_index::of(&w).bm25_built());
}

/// Found by review: an entry whose heading was renamed printed another
/// section (exit 0), and "Did you mean" offered the entry that had just failed.
#[test]
fn an_entry_without_its_heading_says_so_and_is_never_suggested() {
    let index = "# Memory Index\n\n## agents/decisions/testing.md\n\n/when working on test structure\n/when working on fixtures\n\n## agents/decisions/ops.md\n\n/when scaling workers\n";
    let testing = "# Testing\n\n## When Working On Test Structure\n\nMirror the source tree.\n\n## When Building Test Fixtures\n\nOne factory per model.\n";
    let w = ws(&[("agents/memory-index.md", index), ("agents/decisions/testing.md", testing)]);
    let err = resolve(&w, "when working on fixtures", false).unwrap_err();
    assert!(err.contains("`/when working on fixtures`") && err.contains("has no heading to print"), "{err}");
    let err = resolve(&w, "when scaling worker", false).unwrap_err();
    assert!(!err.contains("/when scaling workers"), "{err}");
}

/// Found by review: `.Title` showed import's fingerprint, which `/when` leaves out.
#[test]
fn section_mode_leaves_out_import_fingerprints() {
    let index = "# Memory Index\n\n## agents/decisions/a.md\n\n/when testing\n";
    let a = "# A\n\n## When Testing\n\nRun it.\n\nSource: CLAUDE.md § Testing <!-- import 1f2e3d4c -->\n";
    let w = ws(&[("agents/memory-index.md", index), ("agents/decisions/a.md", a)]);
    let r = resolve(&w, ".When Testing", false).expect("section");
    assert!(r.text.contains("Source: CLAUDE.md § Testing\n") && !r.text.contains("<!--"), "{}", r.text);
}
