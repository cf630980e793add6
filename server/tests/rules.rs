//! Table-driven tests of every rule over `fixtures/rules/CODE/{valid,invalid}.md`, with their fixes.

mod support;

use memory_index_lsp::rules::{self, Rule, Severity};
use support::*;

fn findings(code: &str, kind: &str) -> Vec<String> {
    let ws = workspace(&rule_fixture(code, kind));
    summary(&ws, &rules::check(&ws))
}

/// (rule, every finding of the invalid fixture as `code path:line:col`).
const TABLE: &[(&str, &[&str])] = &[
    (
        "unknown-operator",
        &[
            "unindexed-heading agents/decisions/a.md:1:4",
            "unindexed-heading agents/decisions/a.md:3:4",
            "unknown-operator agents/memory-index.md:3:1",
            "unknown-operator agents/memory-index.md:4:1",
            "unknown-operator agents/memory-index.md:5:1",
        ],
    ),
    (
        "missing-operator",
        &["missing-operator agents/memory-index.md:4:1", "missing-operator agents/memory-index.md:5:3"],
    ),
    (
        "empty-trigger",
        &[
            "empty-trigger agents/memory-index.md:3:1",
            "empty-trigger agents/memory-index.md:4:1",
            "empty-trigger agents/memory-index.md:5:1",
        ],
    ),
    (
        "empty-extra",
        &[
            "empty-extra agents/memory-index.md:2:13",
            "empty-extra agents/memory-index.md:3:12",
            "empty-extra agents/memory-index.md:4:13",
        ],
    ),
    ("duplicate-entry", &["duplicate-entry agents/memory-index.md:2:1", "duplicate-entry agents/memory-index.md:3:1"]),
    (
        "orphan-entry",
        &[
            "unindexed-heading agents/decisions/a.md:1:4",
            "orphan-entry agents/memory-index.md:2:7",
            "orphan-entry agents/memory-index.md:3:7",
        ],
    ),
    ("structural-entry", &["structural-entry agents/memory-index.md:2:1"]),
    ("misplaced-entry", &["misplaced-entry agents/memory-index.md:4:1", "misplaced-entry agents/memory-index.md:5:1"]),
    ("unordered-section", &["unordered-section agents/memory-index.md:2:1"]),
    ("collision", &["collision agents/memory-index.md:3:1", "orphan-entry agents/memory-index.md:3:7"]),
    (
        "shadowed-trigger",
        &["shadowed-trigger agents/memory-index.md:2:15", "shadowed-trigger agents/memory-index.md:3:14"],
    ),
    (
        "missing-file",
        &[
            "missing-file agents/memory-index.md:3:4",
            "orphan-entry agents/memory-index.md:4:7",
            "missing-file agents/memory-index.md:5:4",
        ],
    ),
    ("unindexed-heading", &["unindexed-heading agents/decisions/a.md:3:4"]),
    ("heading-prefix", &["heading-prefix agents/decisions/a.md:1:4"]),
    (
        "duplicate-heading",
        &[
            "duplicate-heading agents/decisions/a.md:1:4",
            "duplicate-heading agents/decisions/a.md:3:4",
            "unindexed-heading agents/decisions/a.md:3:4",
            "duplicate-heading agents/decisions/b.md:1:4",
            "unindexed-heading agents/decisions/b.md:1:4",
        ],
    ),
    ("no-direct-content", &["no-direct-content agents/decisions/a.md:1:4"]),
    ("file-too-long", &["file-too-long agents/decisions/a.md:6:1"]),
];

#[test]
fn every_rule_has_a_row_and_fixtures() {
    for r in Rule::ALL {
        if matches!(r, Rule::InvalidUtf8 | Rule::UnreadableFile | Rule::InvalidConfig) {
            continue; // file problems: tested in tests/hostile.rs and the config tests
        }
        assert!(TABLE.iter().any(|(c, _)| *c == r.code()), "no table row for {}", r.code());
    }
}

#[test]
fn valid_fixtures_have_no_findings() {
    for (code, _) in TABLE {
        assert_eq!(findings(code, "valid"), Vec::<String>::new(), "{code}/valid.md");
    }
}

#[test]
fn invalid_fixtures_have_exactly_these_findings() {
    for (code, want) in TABLE {
        let mut got = findings(code, "invalid");
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{code}/invalid.md");
    }
}

#[test]
fn default_severities_follow_the_spec() {
    let warnings = ["empty-extra", "shadowed-trigger", "heading-prefix", "file-too-long"];
    for r in Rule::ALL {
        let want = if warnings.contains(&r.code()) { Severity::Warning } else { Severity::Error };
        assert_eq!(r.default_severity(), want, "{}", r.code());
        assert!(!r.doc().is_empty());
    }
    // An empty missing-file section is a warning, a section with entries an error.
    let ws = workspace(&rule_fixture("missing-file", "invalid"));
    let sev: Vec<Severity> =
        rules::check(&ws).iter().filter(|f| f.rule == Rule::MissingFile).map(|f| f.severity).collect();
    assert_eq!(sev, [Severity::Error, Severity::Warning]);
}

#[test]
fn config_changes_severity_and_turns_rules_off() {
    let fixture = rule_fixture("file-too-long", "invalid")
        .replace("max-lines = 5", "max-lines = 5\n[rules]\nfile-too-long = \"error\"\nno-direct-content = \"off\"");
    let ws = workspace(&fixture);
    let f = rules::check(&ws);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Error);
    let off = rule_fixture("unordered-section", "invalid").replace(
        "//- agents/memory-index.md",
        "//- memory-index.toml\n[rules]\nunordered-section = \"off\"\n//- agents/memory-index.md",
    );
    assert!(rules::check(&workspace(&off)).is_empty());
}

#[test]
fn malformed_config_is_a_finding_on_that_file_and_defaults_apply() {
    let fixture = rule_fixture("file-too-long", "invalid").replace("max-lines = 5", "max-lines = \"five\"");
    let ws = workspace(&fixture);
    let s = summary(&ws, &rules::check(&ws));
    assert_eq!(s, ["invalid-config memory-index.toml:1:13"], "defaults (400 lines) apply");
}

fn fixed_index(code: &str, title: &str) -> String {
    let ws = workspace(&rule_fixture(code, "invalid"));
    let changes = apply_fix(&ws, code, title);
    changes.into_iter().find(|(p, _)| p == "agents/memory-index.md").map(|(_, t)| t).expect("fix changes the index")
}

#[test]
fn safe_fixes_produce_exactly_this_text() {
    let cases: &[(&str, &str, &str)] = &[
        ("unknown-operator", "Replace", "## agents/decisions/a.md\n/when alpha rises\n"),
        ("empty-extra", "Remove", "/when alpha | one, two\n/when beta |\n"),
        ("duplicate-entry", "Delete", "## agents/decisions/a.md\n/when  Alpha\n/when alpha | extra, more, beta\n"),
        ("structural-entry", "Delete", "## agents/decisions/a.md\n/when patching mocks\n"),
        ("misplaced-entry", "Move", "/when alpha\n/when gamma\n\n## agents/decisions/b.md\n\n/when beta\n"),
        ("unordered-section", "Sort", "/when alpha\n**A label stays put**\n/when beta\n/when gamma\n"),
        ("missing-file", "Delete", "## agents/decisions/gone.md\n/when beta\n"),
    ];
    for (code, title, contains) in cases {
        let text = fixed_index(code, title);
        assert!(text.contains(contains), "{code}: {contains:?} not in\n{text}");
    }
    // The empty section goes with its blank line, and the file still ends with one newline.
    assert!(fixed_index("missing-file", "Delete").ends_with("/when beta\n"));
}

#[test]
fn suggestion_fixes_for_drift() {
    let ws = workspace(&rule_fixture("orphan-entry", "invalid"));
    let rename = apply_fix(&ws, "orphan-entry", "Rename heading");
    assert_eq!(rename, [("agents/decisions/a.md".to_string(), "## When Review Flags Unused Code\nbody\n".to_string())]);
    let retrigger = apply_fix(&ws, "orphan-entry", "Change trigger");
    assert!(retrigger[0].1.contains("/when vet flags unused code\n"));
    let ws = workspace(&rule_fixture("unindexed-heading", "invalid"));
    let add = apply_fix(&ws, "unindexed-heading", "Add");
    assert_eq!(add[0].1, "## agents/decisions/a.md\n/when alpha\n/how use the CLI\n");
    let mark = apply_fix(&ws, "unindexed-heading", "Mark");
    assert!(mark[0].1.contains("## .How to Use the CLI\n"));
}

#[test]
fn only_choice_free_fixes_are_safe() {
    for (code, _) in TABLE {
        let ws = workspace(&rule_fixture(code, "invalid"));
        for f in rules::check(&ws) {
            let safe = f.safe_fix().is_some();
            let may_be_safe = matches!(
                f.rule,
                Rule::UnknownOperator
                    | Rule::EmptyExtra
                    | Rule::DuplicateEntry
                    | Rule::StructuralEntry
                    | Rule::MisplacedEntry
                    | Rule::UnorderedSection
                    | Rule::MissingFile
            );
            assert!(!safe || may_be_safe, "{} must not have a safe fix", f.rule.code());
        }
    }
}
