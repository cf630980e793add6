//! Tests of `--prune` on what reviews found: the last section removed beside an update, sources emptied or gone, a file renamed, a sub-section deleted, a record superseded.

use super::reimport::applied;
use super::*;

fn text(w: &Workspace, p: &str) -> String {
    w.file(w.file_id(p).unwrap()).unwrap().text.to_string()
}

const PRUNE: Options = Options { file: None, all: false, folders: Vec::new(), prune: true, emptied: Vec::new() };

/// Removing a file's last decision while the one before it is updated was refused as two records on the same lines.
#[test]
fn the_last_section_goes_while_the_one_before_it_is_updated() {
    let rules = "# P\n\n## Testing\n\nRun the whole suite before every commit, always.\n\n## Style\n\nFormat with ruff and never \
                 disable rules inline.\n\n## Deploying\n\nDeploy only from main after the checklist passes.\n";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse("CLAUDE.md", rules).unwrap(), &Options::default()).unwrap());
    let now = rules.replace("rules inline.", "rules inline or per file.");
    let now = &now[..now.find("## Deploying").unwrap()];
    let out = plan(&first, parse("CLAUDE.md", now).unwrap(), &PRUNE).unwrap();
    assert_eq!((out.updated.len(), out.removed.len()), (1, 1), "{:?} {:?}", out.updated, out.removed);
    let after = text(&applied(&first, &out), "agents/decisions/claude.md");
    assert!(after.ends_with("-->\n") && after.contains("or per file.") && !after.contains("Deploy"), "{after:?}");
}

/// A rules file emptied of its sections, or missing, and a rules file gone from a folder
/// imported whole: their decisions were never called stale, and `--prune` left them.
#[test]
fn a_source_emptied_missing_or_gone_from_its_folder_is_stale() {
    let w = ws(&[]);
    let agents = "# Agents\n\n## Branching\n\nBranch from main and name branches feature/x always.\n";
    let cursor = "## Use Nextest\n\nRun the tests with cargo nextest run, not with cargo test.\n";
    let mut records = parse("AGENTS.md", agents).unwrap();
    records.extend(parse(".cursor/rules/testing.mdc", cursor).unwrap());
    let first = applied(&w, &plan(&w, records, &Options::default()).unwrap());
    assert!(source::is_empty_source(&parse("AGENTS.md", "# Agents\n").unwrap_err()));
    assert!(!source::is_empty_source(&parse("0000-TEMPLATE.md", NYGARD).unwrap_err()), "a template is not emptied");
    for (why, emptied) in [("holds no decision now", "AGENTS.md"), ("is missing", "AGENTS.md")] {
        let opts = Options { emptied: vec![(emptied.into(), why)], ..Default::default() };
        let out = plan(&first, Vec::new(), &opts).unwrap();
        assert_eq!(out.stale.len(), 1, "{:?}", out.stale);
        assert!(
            out.stale[0].contains(&format!("AGENTS.md {why}")) && out.stale[0].contains("--prune"),
            "{:?}",
            out.stale
        );
    }
    let folders = vec![(".cursor/rules".to_string(), vec![".cursor/rules/other.mdc".to_string()])];
    let opts = Options { folders, emptied: vec![("AGENTS.md".into(), "is missing")], ..PRUNE };
    let out = plan(&first, Vec::new(), &opts).unwrap();
    assert_eq!(out.removed.len(), 2, "{:?} {:?}", out.removed, out.stale);
    let after = applied(&first, &out);
    let index = text(&after, "agents/memory-index.md");
    assert!(!index.contains("branching") && !index.contains("nextest"), "{index}");
    // Their groups went with them (they held nothing else), and the index still checks clean.
    assert!(!index.contains("## agents/decisions/agents.md") && !index.contains("testing.md"), "{index}");
    assert!(index.ends_with("/when deploying on fridays\n"), "{index:?}");
    let errors: Vec<_> =
        crate::rules::check(&after).into_iter().filter(|f| f.severity == crate::rules::Severity::Error).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// An ADR file renamed in its folder was removed as gone while its record was skipped as a copy of it.
#[test]
fn an_adr_file_renamed_in_its_folder_keeps_its_decision() {
    let w = ws(&[]);
    let first =
        applied(&w, &plan(&w, parse("docs/adr/0006-use-helm.md", NYGARD).unwrap(), &Options::default()).unwrap());
    let folders = vec![("docs/adr".to_string(), vec!["docs/adr/0006-helm.md".to_string()])];
    let out = plan(&first, parse("docs/adr/0006-helm.md", NYGARD).unwrap(), &Options { folders, ..PRUNE }).unwrap();
    assert!(
        out.removed.is_empty() && out.stale.is_empty() && out.skipped.is_empty(),
        "{:?} {:?}",
        out.removed,
        out.skipped
    );
    assert_eq!(out.updated.len(), 1, "{:?}", out.updated);
    let after = text(&applied(&first, &out), "agents/decisions/architecture-decisions.md");
    assert!(
        after.contains("Source: docs/adr/0006-helm.md <!-- import ") && !after.contains("0006-use-helm"),
        "{after}"
    );
}

/// A sub-section deleted took its long parent under the split length: its siblings, still in
/// the source, were called gone and removed.
#[test]
fn a_section_split_before_stays_split() {
    let sub =
        |name: &str| format!("### {name}\n\n{}\n", (0..7).map(|i| format!("- {name} rule {i}.\n")).collect::<String>());
    let rules = format!("# P\n\n## Security\n\nRead them all.\n\n{}{}{}", sub("Secrets"), sub("Auth"), sub("Deps"));
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse("CLAUDE.md", &rules).unwrap(), &Options::default()).unwrap());
    assert_eq!(split_parents(&first, "CLAUDE.md"), ["Security"]);
    let now = rules.replace(&sub("Deps"), "");
    assert_eq!(parse("CLAUDE.md", &now).unwrap().len(), 1, "short now: one record without the memory's help");
    let split = |p: &str| p == "Security";
    let out = plan(&first, source::parse_with("CLAUDE.md", &now, &split).unwrap(), &PRUNE).unwrap();
    assert_eq!(
        out.removed,
        ["When Working On Deps in agents/decisions/claude.md (its record is gone from its source)"]
    );
    assert!(out.imported.is_empty() && out.updated.is_empty(), "{:?} {:?}", out.imported, out.updated);
}

/// A superseded record is removed as no longer in force, not as gone.
#[test]
fn a_superseded_record_is_removed_as_no_longer_in_force() {
    let w = ws(&[]);
    let first =
        applied(&w, &plan(&w, parse("docs/adr/0006-use-helm.md", NYGARD).unwrap(), &Options::default()).unwrap());
    let superseded = NYGARD.replace("\nAccepted\n", "\nSuperseded by 0009\n");
    let out = plan(&first, parse("docs/adr/0006-use-helm.md", &superseded).unwrap(), &PRUNE).unwrap();
    assert_eq!(out.removed.len(), 1, "{:?}", out.stale);
    assert!(out.removed[0].ends_with("(its record is no longer in force)"), "{:?}", out.removed);
}
