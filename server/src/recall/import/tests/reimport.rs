//! Tests of importing again: a person's edit kept, and text no record holds counted.

use super::*;

/// The memory after `out` is written over `w`.
pub(super) fn applied(w: &Workspace, out: &Outcome) -> Workspace {
    let mut after = w.clone();
    for p in out.change.paths() {
        let before = w.file_id(p).and_then(|id| w.file(id)).map(|f| f.text.to_string());
        if let Some(t) = out.change.text_after(p, before.as_deref()) {
            after.set_file(p, FileText::from(t.as_str()));
        }
    }
    after
}

/// Found by review: importing an unchanged AGENTS.md again deleted the line a person had added.
#[test]
fn a_person_s_edit_is_never_overwritten_by_importing_again() {
    let adr = "docs/adr/0006-use-helm.md";
    let path = "agents/decisions/architecture-decisions.md";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse(adr, NYGARD).unwrap(), &Options::default()).unwrap());
    let text = first.file(first.file_id(path).unwrap()).unwrap().text.to_string();
    assert!(text.contains(&format!("Source: {adr} <!-- import ")), "{text}");
    let edited_text = text
        .replace(
            "Use Helm charts for every application.",
            "Use Helm charts for every application.\nPin chart versions.",
        )
        .replace("## When Using Helm for application package management", "## When Using Helm Charts");
    let mut edited = first.clone();
    edited.set_file(path, FileText::from(edited_text.as_str()));
    // The source has not changed: the edit (and the renamed heading) stays, quietly.
    let again = plan(&edited, parse(adr, NYGARD).unwrap(), &Options::default()).unwrap();
    assert!(again.change.is_empty() && again.skipped.is_empty(), "{:?} {:?}", again.change, again.skipped);
    assert_eq!(again.unchanged, 1);
    // The source changed too: kept, and said.
    let changed = NYGARD.replace("Everyone learns Helm.", "Everyone learns Helm 3.");
    let both = plan(&edited, parse(adr, &changed).unwrap(), &Options::default()).unwrap();
    assert!(both.change.is_empty(), "{:?}", both.change);
    assert_eq!(both.skipped.len(), 1, "{:?}", both.skipped);
    assert!(
        both.skipped[0].1.contains("was edited since it was imported, and what import would write changed too"),
        "{:?}",
        both.skipped
    );
    // What to bring in by hand: the section as it is, and as import writes it now under its heading.
    let [(at, title, mine, theirs)] = &both.conflicts[..] else { panic!("one conflict: {:?}", both.conflicts) };
    assert_eq!((at.as_str(), title.as_str()), (path, "When Using Helm Charts"));
    assert!(mine.contains("Pin chart versions.") && !mine.contains("<!-- import"), "{mine}");
    assert!(theirs.contains("Everyone learns Helm 3.") && theirs.contains("## When Using Helm Charts"), "{theirs}");
    // Merged by hand, the mark taken away: the section is the person's, and nothing is said again.
    let merged_text = edited_text.replace("Everyone learns Helm.", "Everyone learns Helm 3.");
    let merged_text = format!("{}\n", merged_text.lines().map(|l| mark::split(l).0).collect::<Vec<_>>().join("\n"));
    let mut merged = edited.clone();
    merged.set_file(path, FileText::from(merged_text.as_str()));
    let after = plan(&merged, parse(adr, &changed).unwrap(), &Options::default()).unwrap();
    assert!(after.change.is_empty() && after.skipped.is_empty(), "{:?} {:?}", after.change, after.skipped);
    // Counted as the person's, not as unchanged (found by review: "unchanged" hid a source change).
    assert_eq!((after.yours, after.unchanged), (1, 0));
    // Not edited, source changed: updated from the source, fingerprint and all.
    let upd = plan(&first, parse(adr, &changed).unwrap(), &Options::default()).unwrap();
    assert_eq!(upd.updated.len(), 1, "{:?}", upd.skipped);
    let t = upd.change.text_after(path, Some(&text)).unwrap();
    let section = &t[t.find("## When").unwrap()..];
    assert!(t.contains("Helm 3.") && mark::held(section) == Some(mark::of(section).as_str()), "{t}");
}

/// Found by review: the text under a CLAUDE.md's title, before its first section, was dropped in silence.
#[test]
fn text_no_section_holds_is_counted_for_the_report() {
    let claude = "# Notes\n\nAlways answer in English.\nKeep replies short.\n\n## Testing\n\nRun the suite.\n";
    assert_eq!(source::unheaded("CLAUDE.md", claude), 2);
    assert_eq!(source::unheaded("CLAUDE.md", "Loose line.\n\n## Testing\n\nRun the suite.\n"), 1);
    assert_eq!(source::unheaded("CLAUDE.md", "# Notes\n\n## Testing\n\nRun the suite.\n"), 0);
    assert_eq!(source::unheaded("CLAUDE.md", "# Notes\n\nOnly a title and its text.\n"), 0, "the title is the rule");
    assert_eq!(source::unheaded("docs/adr/0006-use-helm.md", NYGARD), 0, "an ADR");
}

/// Found by review: importing one more record (`--all`, a deprecated ADR)
/// cut five others shorter to make room in a file that was nearly full,
/// while the next file had room.
#[test]
fn a_record_added_later_goes_where_it_fits_and_cuts_no_other() {
    let adr = |n: usize| {
        let lines: String = (0..if n < 4 { 12 } else { 24 }).map(|i| format!("- Point {i} of record {n}.\n")).collect();
        (
            format!("docs/adr/{n:04}-r.md"),
            format!("# {n}. Use tool {n}\n\n## Status\n\nAccepted\n\n## Decision\n\n{lines}"),
        )
    };
    let mut w = ws(&[]);
    let mut config = w.config().clone();
    config.options.insert("max-lines".into(), 80);
    w.set_config(config, Vec::new());
    let records = |k: usize| {
        (1..=k)
            .flat_map(|n| {
                let (p, t) = adr(n);
                parse(&p, &t).unwrap()
            })
            .collect::<Vec<_>>()
    };
    let first = plan(&w, records(3), &Options::default()).unwrap();
    assert!(first.cut.is_empty(), "{:?}", first.cut);
    let w = applied(&w, &first);
    let more = plan(&w, records(4), &Options::default()).unwrap();
    assert_eq!((more.imported.len(), more.updated.len(), more.unchanged), (1, 0, 3), "{:?}", more.updated);
    assert!(more.cut.is_empty(), "{:?}", more.cut);
    assert!(more.change.paths().any(|p| p.ends_with("architecture-decisions-2.md")), "{:?}", more.change);
}

/// Found by review: a section an earlier build imported under the heading its
/// rules then made (`When Working On Running Tests`) was reported as retitled
/// on every run once the rules made `When Running Tests`, and never updated.
#[test]
fn a_heading_an_earlier_build_made_is_kept_and_the_section_still_updates() {
    let claude = "# Notes\n\n## Running Tests\n\nRun `cargo test`.\n";
    let w = ws(&[]);
    let out = plan(&w, parse("CLAUDE.md", claude).unwrap(), &Options::default()).unwrap();
    let mut earlier = applied(&w, &out);
    // As the earlier build wrote it: its heading, its entry, its fingerprint.
    let path = "agents/decisions/claude.md";
    let text = earlier.file(earlier.file_id(path).unwrap()).unwrap().text.to_string();
    let unmarked = crate::syntax::source_mark::without_marks(&text)
        .replace("## When Running Tests", "## When Working On Running Tests");
    let section = &unmarked[unmarked.find("## When").unwrap()..];
    let old_text = format!("{}{}", &unmarked[..unmarked.find("## When").unwrap()], super::super::mark::marked(section));
    earlier.set_file(path, FileText::from(old_text.as_str()));
    let index = earlier.file(earlier.file_id("agents/memory-index.md").unwrap()).unwrap().text.to_string();
    earlier.set_file(
        "agents/memory-index.md",
        FileText::from(index.replace("/when running tests", "/when working on running tests").as_str()),
    );
    let again = plan(&earlier, parse("CLAUDE.md", claude).unwrap(), &Options::default()).unwrap();
    assert!(again.skipped.is_empty() && again.change.is_empty(), "{:?} {:?}", again.skipped, again.updated);
    // The source changes: the section is updated under the heading it has.
    let changed = claude.replace("Run `cargo test`.", "Run `cargo nextest run`.");
    let upd = plan(&earlier, parse("CLAUDE.md", &changed).unwrap(), &Options::default()).unwrap();
    assert_eq!(upd.updated, ["When Working On Running Tests ← CLAUDE.md"], "{:?}", upd.skipped);
}

/// Found by review: a rule deleted from CLAUDE.md stayed in the memory, and the hook kept injecting it.
#[test]
fn prune_removes_a_decision_whose_section_is_gone_unless_it_was_edited() {
    let src = "CLAUDE.md";
    let rules = "# Project\n\n## Testing\n\nRun the suite with `uv run pytest -q`.\n\n## Commits\n\n\
                 Never amend a pushed commit.\n\n## Releases\n\nTag releases from main only.\n";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse(src, rules).unwrap(), &Options::default()).unwrap());
    let path = "agents/decisions/claude.md";
    let text = |w: &Workspace, p: &str| w.file(w.file_id(p).unwrap()).unwrap().text.to_string();
    assert!(text(&first, "agents/memory-index.md").contains("/when working on commits"));
    // Commits and Releases deleted from the source; a person edited Releases since.
    let now = "# Project\n\n## Testing\n\nRun the suite with `uv run pytest -q`.\n";
    let mut edited = first.clone();
    edited.set_file(
        path,
        FileText::from(text(&first, path).replace("from main only.", "from main only, signed.").as_str()),
    );
    let listed = plan(&edited, parse(src, now).unwrap(), &Options::default()).unwrap();
    assert!(listed.change.is_empty() && listed.removed.is_empty(), "{:?}", listed.removed);
    assert_eq!(listed.stale.len(), 2, "{:?}", listed.stale);
    assert!(
        listed.stale.iter().any(|m| m.contains("`Commits`") && m.contains("--prune to remove it")),
        "{:?}",
        listed.stale
    );
    assert!(listed.stale.iter().any(|m| m.contains("`Releases`") && !m.contains("--prune")), "{:?}", listed.stale);
    // With --prune: Commits goes, section and entry; the edited Releases stays, listed.
    let prune = Options { prune: true, ..Default::default() };
    let out = plan(&edited, parse(src, now).unwrap(), &prune).unwrap();
    assert_eq!(
        out.removed,
        ["When Working On Commits in agents/decisions/claude.md (its record is gone from its source)"]
    );
    assert_eq!(out.stale.len(), 1, "{:?}", out.stale);
    assert!(out.stale[0].contains("`Releases`") && out.stale[0].contains("--prune keeps it"), "{:?}", out.stale);
    let after = applied(&edited, &out);
    let (decisions, index) = (text(&after, path), text(&after, "agents/memory-index.md"));
    assert!(!decisions.contains("Commits") && decisions.contains("## When Working On Releases"), "{decisions}");
    assert!(decisions.contains("## When Testing\n") && !decisions.contains("\n\n\n"), "{decisions}");
    assert!(!index.contains("commits") && index.contains("/when working on releases"), "{index}");
    let errors: Vec<_> =
        crate::rules::check(&after).into_iter().filter(|f| f.severity == crate::rules::Severity::Error).collect();
    assert!(errors.is_empty(), "{errors:?}\n{index}\n{decisions}");
    // Again: nothing left to remove, nothing changes.
    let again = plan(&after, parse(src, now).unwrap(), &prune).unwrap();
    assert!(again.change.is_empty() && again.removed.is_empty(), "{:?}", again.removed);
}

/// Found by review: a heading renamed by hand (its entry too) made every later change of the
/// source be refused as an edit; it comes in under the person's heading.
#[test]
fn a_heading_renamed_by_hand_still_takes_the_source_s_changes() {
    let rules = "# P\n\n## Testing\n\nRun the whole suite before every commit, always and everywhere.\n";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse("CLAUDE.md", rules).unwrap(), &Options::default()).unwrap());
    let (path, index) = ("agents/decisions/claude.md", "agents/memory-index.md");
    let text = |w: &Workspace, p: &str| w.file(w.file_id(p).unwrap()).unwrap().text.to_string();
    let mut renamed = first.clone();
    renamed.set_file(
        path,
        FileText::from(text(&first, path).replace("## When Testing", "## When Running The Suite").as_str()),
    );
    renamed.set_file(
        index,
        FileText::from(text(&first, index).replace("/when testing", "/when running the suite").as_str()),
    );
    let same = plan(&renamed, parse("CLAUDE.md", rules).unwrap(), &Options::default()).unwrap();
    assert!(same.change.is_empty() && same.skipped.is_empty(), "{:?}", same.skipped);
    let changed = rules.replace("always and everywhere", "always, and on CI");
    let out = plan(&renamed, parse("CLAUDE.md", &changed).unwrap(), &Options::default()).unwrap();
    assert_eq!(out.updated, ["When Running The Suite ← CLAUDE.md"], "{:?}", out.skipped);
    let after = applied(&renamed, &out);
    let t = text(&after, path);
    assert!(
        t.contains("## When Running The Suite\n\nRun the whole suite before every commit, always, and on CI."),
        "{t}"
    );
    let again = plan(&after, parse("CLAUDE.md", &changed).unwrap(), &Options::default()).unwrap();
    assert!(again.change.is_empty(), "{:?}", again.updated);
}
