//! Every rule over its fixtures: `fixtures/rules/CODE/valid.md` has no
//! finding, `invalid.md` has exactly the findings and fixes snapshotted in
//! `fixtures/rules/CODE/invalid.snap` (each fix as a diff of the files it
//! changes). A rule registered without fixtures fails here. After changing a
//! rule, review the new snapshots: `INSTA_UPDATE=always cargo test --test it rules::`
//! then `git diff fixtures/rules`.

use crate::support;

use memory_index_lsp::edit::{self, Applicability};
use memory_index_lsp::rules::{self, Fixes, Rule, Severity};
use support::*;

fn findings(code: &str, kind: &str) -> Vec<String> {
    let ws = workspace(&rule_fixture(code, kind));
    summary(&ws, &rules::check(&ws))
}

fn fixture_dir(code: &str) -> std::path::PathBuf {
    repo().join("fixtures/rules").join(code)
}

#[test]
fn every_rule_has_fixtures() {
    for r in Rule::ALL {
        for kind in ["valid", "invalid"] {
            let p = fixture_dir(r.code()).join(format!("{kind}.md"));
            assert!(p.is_file(), "rule `{}` is registered without fixtures: add {}", r.code(), p.display());
        }
        let snap = fixture_dir(r.code()).join("invalid.snap");
        assert!(
            snap.is_file(),
            "rule `{}` has no snapshot: run `INSTA_UPDATE=always cargo test --test it rules::` and review {}",
            r.code(),
            snap.display()
        );
    }
}

#[test]
fn valid_fixtures_have_no_findings() {
    for r in Rule::ALL {
        assert_eq!(findings(r.code(), "valid"), Vec::<String>::new(), "{}/valid.md", r.code());
    }
}

/// The findings of a fixture, each with its severity and message, and its
/// fixes as unified diffs of the files they change.
fn render(fixture: &str) -> String {
    let ws = workspace(fixture);
    let found = rules::check(&ws);
    let mut out = String::new();
    for (f, line) in found.iter().zip(summary(&ws, &found)) {
        out.push_str(&format!("{line} {}: {}\n", f.severity.as_str(), f.message(&ws)));
        for r in &f.related {
            let file = ws.file(r.file).expect("related file");
            let (l, c) = file.line_col_1(r.range.start);
            out.push_str(&format!("  related {}:{l}:{c}: {}\n", file.path, r.message));
        }
        for fix in rules::fixes(&ws, f).iter() {
            let kind = if fix.applicability == Applicability::Safe { "safe" } else { "suggestion" };
            out.push_str(&format!("  fix ({kind}): {}\n", fix.title));
            for c in &fix.change.edits {
                let before = ws.file_id(&c.path).and_then(|id| ws.file(id)).map_or("", |f| f.text.as_str());
                let (after, skipped) = edit::apply(before, &c.edits);
                assert!(skipped.is_empty(), "overlapping edits in one fix: {}", fix.title);
                let diff = similar::TextDiff::from_lines(before, &after);
                let unified = diff.unified_diff().context_radius(1).header(&c.path, &c.path).to_string();
                out.extend(unified.lines().map(|l| format!("    {l}\n")));
            }
        }
    }
    out
}

#[test]
fn invalid_fixtures_have_exactly_the_snapshotted_findings_and_fixes() {
    for r in Rule::ALL {
        let code = r.code();
        let text = render(&rule_fixture(code, "invalid"));
        assert!(text.lines().any(|l| l.starts_with(&format!("{code} "))), "{code}/invalid.md has no {code} finding");
        insta::with_settings!({
            snapshot_path => fixture_dir(code),
            prepend_module_to_snapshot => false,
            omit_expression => true,
            input_file => format!("fixtures/rules/{code}/invalid.md"),
        }, {
            insta::assert_snapshot!("invalid", text);
        });
    }
}

#[test]
fn fixes_are_what_the_registry_declares() {
    for r in Rule::ALL {
        let ws = workspace(&rule_fixture(r.code(), "invalid"));
        for f in rules::check(&ws) {
            let fixes = rules::fixes(&ws, &f);
            let safe = fixes.iter().filter(|x| x.is_safe()).count();
            match f.rule.fixes() {
                Fixes::Safe => assert!(safe <= 1, "{}: at most one safe fix", f.rule.code()),
                Fixes::Suggestions => assert_eq!(safe, 0, "{} must not have a safe fix", f.rule.code()),
                Fixes::None => assert!(fixes.is_empty(), "{} declares no fix", f.rule.code()),
            }
        }
    }
}

/// The default severities spec §5 gives its rules (rules added since
/// declare theirs in the registry).
const SPEC_SEVERITIES: &[(&str, Severity)] = &[
    ("unknown-operator", Severity::Error),
    ("missing-operator", Severity::Error),
    ("empty-trigger", Severity::Error),
    ("empty-extra", Severity::Warning),
    ("duplicate-entry", Severity::Error),
    ("orphan-entry", Severity::Error),
    ("structural-entry", Severity::Error),
    ("misplaced-entry", Severity::Error),
    ("unordered-section", Severity::Error),
    ("collision", Severity::Error),
    ("shadowed-trigger", Severity::Warning),
    ("missing-file", Severity::Error),
    ("unindexed-heading", Severity::Error),
    ("heading-prefix", Severity::Warning),
    ("duplicate-heading", Severity::Error),
    ("no-direct-content", Severity::Error),
    ("file-too-long", Severity::Warning),
];

#[test]
fn default_severities_follow_the_spec() {
    for (code, want) in SPEC_SEVERITIES {
        let r = Rule::from_code(code).unwrap_or_else(|| panic!("spec rule {code} is registered"));
        assert_eq!(r.default_severity(), *want, "{code}");
    }
    for r in Rule::ALL {
        assert!(!r.doc().is_empty(), "{} has a doc", r.code());
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
