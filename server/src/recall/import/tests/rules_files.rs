//! Tests of rules files as projects write them: Cursor rules, long sections, text under no rule.

use super::*;

#[test]
fn rules_files_as_written_in_the_wild() {
    let titles =
        |path: &str, text: &str| -> Vec<String> { parse(path, text).unwrap().into_iter().map(|r| r.title).collect() };
    // Several `# ` sections, some with `## ` inside: every `# ` section is a rule (none dropped).
    let agents =
        "# Coding Guidelines\n\nPrefer small functions.\n\n# Philosophy\n\nBoring code.\n\n## Examples\n\nSee src/.\n";
    assert_eq!(titles("AGENTS.md", agents), ["Coding Guidelines", "Philosophy"]);
    // One `# ` title: its `## ` sections are the rules, as before.
    let claude = "# Notes\n\nIntro.\n\n## Testing\n\nRun the tests.\n";
    assert_eq!(titles("CLAUDE.md", claude), ["Testing"]);
    // Only `### ` sections.
    assert_eq!(titles("r.mdc", "### React\n\nHooks only.\n\n### Vite\n\nNo CRA.\n"), ["React", "Vite"]);
    // A Cursor rule without headings: one rule named by its description.
    let mdc = "---\ndescription: Flutter and Riverpod rules\nglobs: lib/**\n---\nUse Riverpod for state.\n";
    let r = parse(".cursor/rules/221-flutter.mdc", mdc).unwrap();
    assert_eq!(
        (r[0].title.as_str(), r[0].decision.as_str()),
        ("Flutter and Riverpod rules", "Applies to files matching `lib/**`.\n\nUse Riverpod for state.")
    );
    // Globs as a YAML list (found by review: the scope was dropped).
    let listed = "---\nglobs:\n  - src/**/*.ts\n  - test/**\n---\nUse strict mode.\n";
    assert!(parse(".cursor/rules/b.mdc", listed).unwrap()[0]
        .decision
        .starts_with("Applies to files matching `src/**/*.ts, test/**`."));
    // Applied always: its globs say nothing of its scope.
    let always = "---\nalwaysApply: true\nglobs: lib/**\n---\nUse Riverpod.\n";
    assert_eq!(parse(".cursor/rules/a.mdc", always).unwrap()[0].decision, "Use Riverpod.");
    let bare = parse(".cursor/rules/010-style_guide.mdc", "Tabs, not spaces.\n").unwrap();
    assert_eq!(bare[0].title, "style guide");
    // A table of contents and a trailing colon.
    let toc = "# Guide\n\n## Table of Contents\n\n- [Testing](#testing)\n\n## See also:\n\nThe wiki.\n";
    assert_eq!(titles("CLAUDE.md", toc), ["See also"]);
    // A noun phrase that starts with a word that can be a verb.
    assert_eq!(heading_title(Kind::Sections, "Version Control"), "When Working On Version Control");
    assert_eq!(heading_title(Kind::Sections, "Build Commands"), "When Working On Build Commands");
    assert_eq!(heading_title(Kind::Sections, "Run tests before pushing"), "When Running tests before pushing");
    // A long section with sub-sections becomes its own text and one rule per sub-section.
    let mut long = String::from("# Repo\n\n## Development Guidelines\n\nGeneral advice.\n\n");
    for (t, n) in [("Testing", 14), ("Performance", 14)] {
        long.push_str(&format!("### {t}\n\n"));
        for i in 0..n {
            long.push_str(&format!("- {t} rule {i}\n"));
        }
        long.push('\n');
    }
    let r = parse("AGENTS.md", &long).unwrap();
    let got: Vec<(&str, Option<&str>)> = r.iter().map(|x| (x.title.as_str(), x.context.as_deref())).collect();
    assert_eq!(
        got,
        [
            ("Development Guidelines", Some("Repo")),
            ("Testing", Some("Development Guidelines")),
            ("Performance", Some("Development Guidelines"))
        ]
    );
    assert!(r[1].decision.ends_with("- Testing rule 13"), "{}", r[1].decision);
}

/// Sections before a file's first rule-level heading are named as left out
/// (a map of packages is not a rule), and a long section's one sub-section
/// is a rule of its own.
#[test]
fn a_rules_file_loses_no_section() {
    let mut text =
        String::from("### Packages\n\n- `core`: the engine.\n\n## Build\n\nRun `npm run build`.\n\n## Commits\n\n");
    for i in 0..25 {
        text.push_str(&format!("- Commit rule {i}.\n"));
    }
    text.push_str("\n### No attribution\n\nNever add a `Co-Authored-By:` trailer.\n");
    let r = parse("CLAUDE.md", &text).unwrap();
    let titles: Vec<_> = r.iter().map(|x| x.title.as_str()).collect();
    assert_eq!(titles, ["Build", "Commits", "No attribution"]);
    assert_eq!(r[2].parent.as_deref(), Some("Commits"));
    assert!(!r[1].decision.contains("Co-Authored-By"), "{}", r[1].decision);
    assert_eq!(crate::recall::import::source::unheaded("CLAUDE.md", &text), 2);
    // A deeper heading before the first sub-section stays in its section's own text (found by review).
    let mut skipped = String::from("# T\n\n## A\n\n");
    for i in 0..25 {
        skipped.push_str(&format!("- A rule {i}.\n"));
    }
    skipped.push_str("\n#### Note\n\nKeep this note.\n\n### Sub\n\nSub rule.\n");
    let r = parse("CLAUDE.md", &skipped).unwrap();
    assert_eq!(r.iter().map(|x| x.title.as_str()).collect::<Vec<_>>(), ["A", "Sub"]);
    assert!(r[0].decision.contains("Keep this note."), "{}", r[0].decision);
    // An HTML comment above the first section is not text left out (found by review).
    let commented = "# Project\n<!-- markdownlint-disable -->\n## Testing\n\nRun it.\n";
    assert_eq!(crate::recall::import::source::unheaded("CLAUDE.md", commented), 0);
    // A block that init's marker opens and nothing closes hides nothing.
    let open = "# P\n\n<!-- memory-index:start by init -->\n\n## Testing\n\nRun it.\n";
    assert_eq!(parse("CLAUDE.md", open).unwrap().len(), 1);
}

/// A setext heading is a section, as the decision file reads it (found by
/// review: the section above it was skipped whole, its structure would
/// change); a section still skipped for its structure is named.
#[test]
fn a_setext_heading_is_a_rule_and_a_skipped_section_is_named() {
    let text = "Project rules\n=============\n\nIntro.\n\nTesting\n-------\n\nUse pytest.\n\nPackaging\n---------\n\n\
                Use uv.\n\n## Quoting\n\n> ## A quoted heading\n\n## Style\n\nBlack.\n";
    let r = parse("CLAUDE.md", text).unwrap();
    let titles: Vec<_> = r.iter().map(|x| x.title.as_str()).collect();
    assert_eq!(titles, ["Testing", "Packaging", "Quoting", "Style"]);
    assert_eq!(r[0].decision, "Use pytest.");
    assert_eq!(crate::recall::import::source::unheaded("CLAUDE.md", text), 1, "the intro, under the title");
    let out = plan(&ws(&[]), r, &Options::default()).unwrap();
    assert_eq!(out.imported.len(), 3, "{:?}", out.imported);
    assert_eq!(
        out.skipped,
        [("CLAUDE.md § Quoting".to_string(), "its text would change the decision file's structure".to_string())]
    );
}

/// Found by review: CLAUDE.md and an AGENTS.md copied from it made every rule
/// two decisions, and recall split between them went silent; a renamed
/// section did the same beside its stale self.
#[test]
fn the_same_text_is_imported_once() {
    let claude =
        "# Claude\n\n## Git Workflow\n\nNever `git push --force` to main; open a pull request instead.\n\n## Testing\n\nRun `cargo test`.\n";
    let agents = "# Agents\n\n## Git Workflow\n\nNever `git push --force` to main; open a pull request instead.\n\n## Style\n\nTabs.\n";
    let mut records = parse("CLAUDE.md", claude).unwrap();
    records.extend(parse("AGENTS.md", agents).unwrap());
    let w = ws(&[]);
    let out = plan(&w, records, &Options::default()).unwrap();
    let mut names = out.imported.clone();
    names.sort();
    assert_eq!(
        names,
        ["When Testing ← CLAUDE.md", "When Working On Git Workflow ← CLAUDE.md", "When Working On Style ← AGENTS.md"],
        "{:?}",
        out.skipped
    );
    assert_eq!(out.skipped.len(), 1, "{:?}", out.skipped);
    assert!(
        out.skipped[0].1.starts_with("AGENTS.md § Git Workflow has the same text as `When Working On Git Workflow`, which this run imports from CLAUDE.md"),
        "{:?}",
        out.skipped
    );
    // Later, the section is renamed in its source: the new name's text is the old decision's.
    let after = super::reimport::applied(&w, &out);
    let renamed = claude.replace("## Git Workflow", "## Git Conventions");
    let again = plan(&after, parse("CLAUDE.md", &renamed).unwrap(), &Options::default()).unwrap();
    assert!(again.imported.is_empty() && again.skipped.is_empty(), "{:?} {:?}", again.imported, again.skipped);
    // Found by review: it was listed stale, to delete, and its next edit imported a second copy.
    // The decision is the renamed section's: its `Source:` line names the new title.
    assert_eq!(
        again.updated,
        ["When Working On Git Workflow ← CLAUDE.md (renamed from `Source: CLAUDE.md § Git Workflow`)"]
    );
    assert!(again.stale.is_empty(), "{:?}", again.stale);
    let renamed_memory = super::reimport::applied(&after, &again);
    let third = plan(&renamed_memory, parse("CLAUDE.md", &renamed).unwrap(), &Options::default()).unwrap();
    assert!(third.change.is_empty() && third.stale.is_empty(), "{:?} {:?}", third.updated, third.stale);
    let edited = renamed.replace("open a pull request instead", "open a pull request and ask for review");
    let fourth = plan(&renamed_memory, parse("CLAUDE.md", &edited).unwrap(), &Options::default()).unwrap();
    assert_eq!(fourth.updated, ["When Working On Git Workflow ← CLAUDE.md"], "{:?}", fourth.imported);
    // Two rules that say only `TODO` are two rules (found by review).
    let todo = "# T\n\n## Deployment\n\nTODO\n\n## Monitoring\n\nTODO\n";
    let both = plan(&w, parse("CLAUDE.md", todo).unwrap(), &Options::default()).unwrap();
    assert_eq!(both.imported.len(), 2, "{:?}", both.skipped);
    // A section that says something else is a decision of its own.
    let other = claude.replace("to main;", "to main or release branches;");
    let other =
        plan(&after, parse("AGENTS.md", &other.replace("# Claude", "# Agents")).unwrap(), &Options::default()).unwrap();
    assert!(other.imported.iter().any(|h| h.starts_with("When Working On Git Workflow")), "{:?}", other.skipped);
}

/// Found by review: past a hundred files, every other record went to the
/// hundredth, cut to four lines, which grew to 11,463 lines while each cut
/// said it kept the file under `max-lines`.
#[test]
fn a_huge_source_fills_as_many_files_as_it_needs_each_under_max_lines() {
    let mut w = ws(&[]);
    let mut config = w.config().clone();
    config.options.insert("max-lines".into(), 60);
    w.set_config(config, Vec::new());
    let mut text = String::from("# Huge\n\n");
    for i in 0..150 {
        text.push_str(&format!("## Rule {i}\n\n"));
        for l in 0..30 {
            text.push_str(&format!("- Line {l} of rule {i}.\n"));
        }
        text.push('\n');
    }
    let out = plan(&w, parse("huge.md", &text).unwrap(), &Options::default()).unwrap();
    assert_eq!(out.imported.len(), 150, "{:?}", out.skipped);
    let paths: Vec<&str> = out.change.paths().filter(|p| p.starts_with("agents/decisions/")).collect();
    assert!(paths.len() > 100, "{}", paths.len());
    for p in paths {
        let t = out.change.text_after(p, None).unwrap();
        assert!(t.lines().count() <= 60, "{p}: {} lines", t.lines().count());
    }
}

/// Found by review: `--file ../../evil.md` was refused with a message about headings.
#[test]
fn file_names_a_file_of_the_decisions_directory() {
    let r = parse("CLAUDE.md", "# C\n\n## Testing\n\nRun it.\n").unwrap();
    let err = plan(&ws(&[]), r, &Options { file: Some("../../evil.md".into()), ..Options::default() }).unwrap_err();
    assert!(err.contains("is not a file name inside the decisions directory"), "{err}");
}

/// Found by review: a German record was read as rules (its sections each a decision), and one whose
/// status history ended superseded was imported as in force.
#[test]
fn records_in_other_languages_and_status_histories() {
    let de = "# 2. Jenkins als CI-Server verwenden\n\n## Status\n\nErsetzt durch [3. GitLab CI](0003-gitlab.md)\n\n\
              ## Kontext\n\nWir brauchen einen CI-Server.\n\n## Entscheidung\n\nWir verwenden Jenkins.\n\n\
              ## Konsequenzen\n\nWir betreiben ihn selbst.\n";
    let r = parse("doc/adr/0002-jenkins.md", de).unwrap();
    assert_eq!((r.len(), r[0].kind, r[0].decision.as_str()), (1, Kind::Nygard, "Wir verwenden Jenkins."));
    assert_eq!(r[0].status.as_deref().and_then(inactive), Some("superseded"));
    assert_eq!(r[0].more[0], ("Context".to_string(), "Wir brauchen einen CI-Server.".to_string()));
    let history = "# 9. Run migrations at deploy\n\n## Status\n\nAccepted\n\nAmended by [10](0010.md)\n\n\
                   Superseded by [11](0011.md)\n\n## Decision\n\nThe deploy runs them.\n";
    let r = parse("doc/adr/0009.md", history).unwrap();
    assert_eq!(r[0].status.as_deref(), Some("Superseded by [11](0011.md)"));
    let fr = "# 5. Utiliser Postgres\n\n## Statut\n\n~~Proposé~~ Accepté\n\n## Contexte\n\nIl faut une base.\n\n\
              ## Décision\n\nNous utilisons Postgres.\n";
    let r = parse("docs/adr/0005.md", fr).unwrap();
    assert_eq!(
        (r.len(), r[0].decision.as_str(), r[0].status.as_deref()),
        (1, "Nous utilisons Postgres.", Some("Accepté"))
    );
}

/// Found by review: a title made of markup (an `<img>`, an entity) made a heading the decision
/// file reads back as other words, and the whole run stopped; an inline tag is dropped from the
/// title now, and a title that still does not read back is skipped, named, the rest imported.
#[test]
fn a_title_of_markup_never_stops_the_run() {
    let text = "# CLAUDE.md\n\n## <img src=\"db.svg\" width=\"16\"> Database\n\nUse Postgres 16.\n\n\
                ## Build &amp; Test\n\nRun make.\n\n## Money\n\nStore cents as integers.\n";
    let out = plan(&ws(&[]), parse("CLAUDE.md", text).unwrap(), &Options::default()).unwrap();
    assert_eq!(out.imported, ["When Working On Database ← CLAUDE.md", "When Working On Money ← CLAUDE.md"]);
    assert_eq!(out.skipped.len(), 1, "{:?}", out.skipped);
    assert!(out.skipped[0].1.contains("would not be read back as written"), "{:?}", out.skipped);
}

/// Found by review: Copilot's `*.instructions.md` without a heading was refused, its `applyTo`
/// dropped; Windsurf's and Cline's rules files were read like any Markdown.
#[test]
fn copilot_windsurf_and_cline_rules_without_headings() {
    let ts = "---\napplyTo: \"**/*.ts\"\n---\nUse strict null checks.\n";
    let r = parse(".github/instructions/typescript.instructions.md", ts).unwrap();
    assert_eq!(
        (r[0].title.as_str(), r[0].decision.as_str()),
        ("typescript", "Applies to files matching `**/*.ts`.\n\nUse strict null checks.")
    );
    let all = "---\napplyTo: \"**\"\n---\nWrite commit messages in English.\n";
    assert_eq!(
        parse(".github/instructions/general.instructions.md", all).unwrap()[0].decision,
        "Write commit messages in English."
    );
    assert_eq!(parse(".windsurfrules", "Always lint first.\n").unwrap()[0].title, "windsurfrules");
    assert_eq!(parse(".clinerules/tooling.md", "Use pnpm, never npm.\n").unwrap()[0].title, "tooling");
}

/// Found by review: MADR 2's `* Date:` bullet was dropped, and log4brains' `<!-- optional -->`
/// stayed in a sub-heading turned bold.
#[test]
fn a_madr_date_bullet_and_an_optional_mark() {
    let text = "# Use Prettier\n\n* Status: accepted\n* Date: 2020-09-25\n\n## Decision Outcome\n\nChosen option: Prettier.\n\n\
                ### Positive Consequences <!-- optional -->\n\n* One style.\n";
    let r = parse("docs/adr/20200925-use-prettier.md", text).unwrap();
    assert_eq!(r[0].date.as_deref(), Some("2020-09-25"));
    let out = plan(&ws(&[]), r, &Options::default()).unwrap();
    let written = out.change.text_after("agents/decisions/architecture-decisions.md", None).expect("written");
    assert!(written.contains("**Positive Consequences**\n") && !written.contains("optional"), "{written}");
}

/// Found by review: a heading without a word (`## 🚀`) made `/when working on 🚀`, which no prompt
/// finds; it is named by its text's first words.
#[test]
fn a_heading_without_a_word_is_named_by_its_text() {
    let text = "# Guide\n\n## 🚀\n\n- Deploy with `kubectl apply -k overlays/prod`, never by hand.\n\n## 🧪 Tests\n\nRun pytest.\n";
    let records = parse("AGENTS.md", text).unwrap();
    let titles: Vec<&str> = records.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(titles, ["🚀", "🧪 Tests"], "the identity stays the heading's own");
    let out = plan(&ws(&[]), records, &Options::default()).unwrap();
    assert_eq!(
        out.imported,
        ["When Deploying with kubectl apply -k overlays/prod ← AGENTS.md", "When Working On 🧪 Tests ← AGENTS.md"]
    );
}

/// Found by review: a 90-row table cut the one rule that followed it; the table gives its rows first.
#[test]
fn a_long_table_gives_its_rows_before_the_rules_after_it() {
    let rows: String = (1..=90).map(|i| format!("| svc-{i} | internal |\n")).collect();
    let text = format!("# Guide\n\n## Services\n\n| service | exposure |\n| --- | --- |\n{rows}\nThe payments service must never be exposed publicly.\n");
    let out = plan(&ws(&[]), parse("AGENTS.md", &text).unwrap(), &Options::default()).unwrap();
    let written = out.change.text_after("agents/decisions/agents.md", None).expect("written");
    assert!(written.contains("| … (3"), "{written}");
    assert!(written.contains("The payments service must never be exposed publicly."), "{written}");
    assert!(!written.contains("more lines in the source"), "only rows were left out: {written}");
    assert_eq!(out.cut.len(), 1, "the cut is listed: {:?}", out.cut);
}
