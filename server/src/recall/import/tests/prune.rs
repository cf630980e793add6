//! Tests of `--prune` on what reviews found: the last section removed beside an update, sources emptied or gone, a file renamed, a sub-section deleted, a record superseded.

use super::reimport::applied;
use super::*;

fn text(w: &Workspace, p: &str) -> String {
    w.file(w.file_id(p).unwrap()).unwrap().text.to_string()
}

const PRUNE: Options =
    Options { file: None, all: false, folders: Vec::new(), prune: true, emptied: Vec::new(), unread: Vec::new() };

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
    assert!(parse("AGENTS.md", "# Agents\n").unwrap_err().empty);
    assert!(!parse("0000-TEMPLATE.md", NYGARD).unwrap_err().empty, "a template is not emptied");
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
    // Each file left with nothing but the title import gave it is named (import deletes no file).
    assert_eq!(out.bare_files, ["agents/decisions/agents.md", "agents/decisions/testing.md"]);
    assert_eq!(text(&after, "agents/decisions/agents.md").trim(), "# Agents");
    let first_only = plan(&first, Vec::new(), &Options { emptied: vec![("AGENTS.md".into(), "is missing")], ..PRUNE });
    assert!(first_only.unwrap().bare_files == ["agents/decisions/agents.md"]);
    // Its rule replaced by another in the same run: the file holds the new one, nothing is said
    // (found by review: the note told to delete the file the new decision went into).
    let replaced = "# Agents\n\n## Deploying\n\nDeploy from main only, after the release checklist passes.\n";
    let out = plan(&first, parse("AGENTS.md", replaced).unwrap(), &PRUNE).unwrap();
    assert_eq!((out.imported.len(), out.removed.len()), (1, 1), "{:?} {:?}", out.imported, out.removed);
    assert!(out.bare_files.is_empty(), "{:?}", out.bare_files);
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
    assert_eq!(split_parents(&first), [("CLAUDE.md".to_string(), "Security".to_string())]);
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

/// An ADR file renamed and edited in one change was removed as gone and its record skipped for
/// its heading (then imported by the next run): its decision takes the change, in one run.
#[test]
fn an_adr_file_renamed_and_edited_keeps_its_decision() {
    let w = ws(&[]);
    let first =
        applied(&w, &plan(&w, parse("docs/adr/0006-use-helm.md", NYGARD).unwrap(), &Options::default()).unwrap());
    let edited = NYGARD.replace("for every application.", "for every application, pinned.");
    let folders = vec![("docs/adr".to_string(), vec!["docs/adr/0006-helm.md".to_string()])];
    let out =
        plan(&first, parse("docs/adr/0006-helm.md", &edited).unwrap(), &Options { folders: folders.clone(), ..PRUNE });
    let out = out.unwrap();
    assert!(
        out.removed.is_empty() && out.skipped.is_empty() && out.imported.is_empty(),
        "{:?} {:?}",
        out.removed,
        out.skipped
    );
    let after = applied(&first, &out);
    let t = text(&after, "agents/decisions/architecture-decisions.md");
    assert!(
        t.contains("pinned.") && t.contains("Source: docs/adr/0006-helm.md <!-- import ") && !t.contains("use-helm"),
        "{t}"
    );
    let again = plan(&after, parse("docs/adr/0006-helm.md", &edited).unwrap(), &Options { folders, ..PRUNE }).unwrap();
    assert!(again.change.is_empty(), "{:?} {:?}", again.updated, again.imported);
}

/// A section was skipped as a copy of the decision the same run rewrote (then imported by the
/// next run): a decision a record read now was imported as is nobody's twin.
#[test]
fn a_decision_rewritten_by_this_run_is_not_a_copy_s_twin() {
    let body = "Run the whole suite before every commit, always and everywhere.";
    let claude = format!("# P\n\n## Testing\n\n{body}\n");
    let w = ws(&[]);
    let mut records = parse("CLAUDE.md", &claude).unwrap();
    records.extend(parse("AGENTS.md", &claude.replace("# P", "# A")).unwrap());
    let first = plan(&w, records, &Options::default()).unwrap();
    assert_eq!((first.imported.len(), first.skipped.len()), (1, 1), "the copy imported once");
    let first = applied(&w, &first);
    let changed = claude.replace("everywhere", "on CI");
    let mut records = parse("CLAUDE.md", &changed).unwrap();
    records.extend(parse("AGENTS.md", &claude.replace("# P", "# A")).unwrap());
    let out = plan(&first, records.clone(), &PRUNE).unwrap();
    assert!(out.skipped.is_empty(), "{:?}", out.skipped);
    assert_eq!((out.updated.len(), out.imported.len()), (1, 1), "{:?} {:?}", out.updated, out.imported);
    let after = applied(&first, &out);
    assert!(plan(&after, records, &PRUNE).unwrap().change.is_empty());
}

/// A rules section quoting another's identity line took its updates, and hid it from --prune.
#[test]
fn a_quoted_identity_line_names_nothing() {
    let rules =
        "# P\n\n## Imported decisions\n\nThey end with a line like this one:\n\nSource: CLAUDE.md § Beta rule\n\n\
                 ## Beta rule\n\nNever merge on a Friday afternoon, whatever the reason.\n";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse("CLAUDE.md", rules).unwrap(), &Options::default()).unwrap());
    let edited = rules.replace("whatever the reason", "whatever the reason given");
    let out = plan(&first, parse("CLAUDE.md", &edited).unwrap(), &Options::default()).unwrap();
    assert_eq!(out.updated, ["When Working On Beta rule ← CLAUDE.md"], "{:?}", out.skipped);
    let gone = &rules[..rules.find("## Beta rule").unwrap()];
    let out = plan(&first, parse("CLAUDE.md", gone).unwrap(), &PRUNE).unwrap();
    assert_eq!(out.removed.len(), 1, "{:?} {:?}", out.removed, out.stale);
    assert!(out.removed[0].starts_with("When Working On Beta rule in "), "{:?}", out.removed);
}

/// A CLAUDE.md with a `## Status` section was read as one ADR.
#[test]
fn an_instructions_file_is_rules_whatever_its_sections_are_called() {
    let claude = "# Guide\n\n## Testing\n\nRun the suite.\n\n## Status\n\nThe project is in beta.\n";
    for name in ["CLAUDE.md", "AGENTS.md", ".github/copilot-instructions.md", ".cursor/rules/x.mdc"] {
        let r = parse(name, claude).unwrap();
        assert_eq!(
            r.iter().map(|r| (r.kind, r.title.as_str())).collect::<Vec<_>>(),
            [(Kind::Sections, "Testing"), (Kind::Sections, "Status")],
            "{name}"
        );
    }
    assert_eq!(parse("docs/adr/0001-x.md", claude).unwrap()[0].kind, Kind::Nygard, "an ADR folder's file still is one");
}

/// Found by review: after --prune removed a decision, the next run grew the bodies cut for room
/// into the room it left (not idempotent); and a section appended where the last one was
/// removed came after two blank lines.
#[test]
fn the_room_a_removed_decision_leaves_is_used_in_the_same_run() {
    let mut small = ws(&[]);
    let mut config = small.config().clone();
    config.options.insert("max-lines".into(), 70);
    small.set_config(config, Vec::new());
    let rules = |n: usize| -> String { (0..30).map(|i| format!("- Rule {n}.{i} holds.\n")).collect() };
    let source =
        |ns: &[usize]| -> String { ns.iter().map(|&n| format!("## Rules {n}\n\n{}\n", rules(n))).collect::<String>() };
    let opts = Options { file: Some("rules.md".into()), ..PRUNE };
    let first = plan(&small, parse("R.md", &source(&[0, 1, 2])).unwrap(), &opts).unwrap();
    assert_eq!(first.cut.len(), 3, "{:?}", first.cut);
    let first = applied(&small, &first);
    let out = plan(&first, parse("R.md", &source(&[0, 1])).unwrap(), &opts).unwrap();
    assert_eq!(out.removed.len(), 1, "{:?}", out.removed);
    let after = applied(&first, &out);
    let again = plan(&after, parse("R.md", &source(&[0, 1])).unwrap(), &opts).unwrap();
    assert!(again.change.is_empty(), "{:?}", again.updated);
    // The last removed and a new one appended: one blank line between sections.
    let out = plan(&after, parse("R.md", &source(&[0, 3])).unwrap(), &opts).unwrap();
    assert_eq!((out.removed.len(), out.imported.len()), (1, 1), "{:?} {:?}", out.removed, out.imported);
    let t = text(&applied(&after, &out), "agents/decisions/rules.md");
    assert!(!t.contains("\n\n\n") && t.contains("## When Working On Rules 3"), "{t}");
}

/// Found by review: a section renamed in its source, whose decision a person had edited, got a
/// second decision beside the edited one (listed stale): the edited one is the record's.
#[test]
fn a_section_renamed_in_its_source_keeps_the_decision_a_person_edited() {
    let rules = "# P\n\n## Testing\n\nRun the whole suite before every commit, always and everywhere.\n";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse("CLAUDE.md", rules).unwrap(), &Options::default()).unwrap());
    let path = "agents/decisions/claude.md";
    let mut edited = first.clone();
    edited
        .set_file(path, FileText::from(text(&first, path).replace("everywhere.", "everywhere.\nEven on CI.").as_str()));
    let renamed = rules.replace("## Testing", "## Running Tests");
    let out = plan(&edited, parse("CLAUDE.md", &renamed).unwrap(), &PRUNE).unwrap();
    assert!(
        out.imported.is_empty() && out.removed.is_empty() && out.stale.is_empty(),
        "{:?} {:?}",
        out.imported,
        out.stale
    );
    assert_eq!(out.updated.len(), 1, "{:?}", out.updated);
    assert!(out.updated[0].contains("renamed from `Source: CLAUDE.md § Testing`"), "{:?}", out.updated);
    let after = applied(&edited, &out);
    let t = text(&after, path);
    assert!(t.contains("Even on CI.") && t.contains("Source: CLAUDE.md § Running Tests <!-- import "), "{t}");
    let again = plan(&after, parse("CLAUDE.md", &renamed).unwrap(), &PRUNE).unwrap();
    assert!(again.change.is_empty() && again.skipped.is_empty(), "{:?} {:?}", again.updated, again.skipped);
}

/// Found by review: a section renamed in its source whose heading a person had renamed kept its
/// old fingerprint, and the next run rewrote it again (not idempotent).
#[test]
fn a_section_renamed_twice_settles_in_one_run() {
    let rules = "# P\n\n## Running Tests\n\nRun the whole suite before every commit, always and everywhere.\n";
    let w = ws(&[]);
    let first = applied(&w, &plan(&w, parse("CLAUDE.md", rules).unwrap(), &Options::default()).unwrap());
    let (path, index) = ("agents/decisions/claude.md", "agents/memory-index.md");
    let mut mine = first.clone();
    mine.set_file(
        path,
        FileText::from(text(&first, path).replace("## When Running Tests", "## When Verifying Changes").as_str()),
    );
    mine.set_file(
        index,
        FileText::from(text(&first, index).replace("/when running tests", "/when verifying changes").as_str()),
    );
    let renamed = rules.replace("## Running Tests", "## Testing");
    let out = plan(&mine, parse("CLAUDE.md", &renamed).unwrap(), &PRUNE).unwrap();
    assert_eq!(out.updated.len(), 1, "{:?} {:?}", out.updated, out.imported);
    let after = applied(&mine, &out);
    let t = text(&after, path);
    assert!(t.contains("## When Verifying Changes") && t.contains("Source: CLAUDE.md § Testing <!-- import "), "{t}");
    let again = plan(&after, parse("CLAUDE.md", &renamed).unwrap(), &PRUNE).unwrap();
    assert!(again.change.is_empty(), "{:?}", again.updated);
}
