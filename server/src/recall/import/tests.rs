//! Tests of `import`'s plan: headings from titles, bodies that lead with the decision, status, identity.

use super::source::{clean_title, parse, Kind};
use super::*;
use crate::model::{Config, FileText};

const INDEX: &str =
    "# Index\n\nRecall with `/when <situation>`.\n\n## agents/decisions/ops.md\n\n/when deploying on fridays\n";
const OPS: &str = "# Ops\n\n## When Deploying On Fridays\n\nNever deploy on a Friday afternoon; wait for Monday.\n";

/// `text` without the fingerprints import leaves on `Source:` lines.
fn unmarked(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|l| if l.starts_with("Source: ") { format!("{}\n", mark::split(l).0) } else { l.to_string() })
        .collect()
}

fn ws(extra: &[(&str, &str)]) -> Workspace {
    let mut ws = Workspace::new(Config::default());
    ws.set_file("agents/memory-index.md", FileText::from(INDEX));
    ws.set_file("agents/decisions/ops.md", FileText::from(OPS));
    for (p, t) in extra {
        ws.set_file(p, FileText::from(*t));
    }
    ws
}

const NYGARD: &str = "# 6. Use Helm for application package management\n\nDate: 2021-09-01\n\n## Status\n\nAccepted\n\n\
## Context\n\nWe deploy many apps to Kubernetes and need templated manifests.\n\n## Decision\n\nUse Helm charts for every application.\n\
### Details\n\nOne chart per app, in the apps repository.\n\n## Consequences\n\nEveryone learns Helm.\n";

#[test]
fn headings_come_from_titles_by_one_rule() {
    assert_eq!(heading_title(Kind::Nygard, "Use Helm for packages"), "When Using Helm for packages");
    assert_eq!(heading_title(Kind::Nygard, "Split Terraform state"), "When Splitting Terraform state");
    assert_eq!(
        heading_title(Kind::Nygard, "Give Fastly CNAME records a TTL of 300"),
        "When Giving Fastly CNAME records a TTL of 300"
    );
    assert_eq!(heading_title(Kind::Madr, "Non GOV.UK domain policy"), "When Deciding Non GOV.UK domain policy");
    // A topic before a colon follows the verb (issue 51: `When Deciding Clients: Use Jest Mocks` read badly).
    assert_eq!(heading_title(Kind::Madr, "Clients: Use Jest Mocks"), "When Using Jest Mocks for Clients");
    assert_eq!(heading_title(Kind::Madr, "Decision: Use Postgres"), "When Using Postgres", "a label is dropped");
    assert_eq!(heading_title(Kind::Madr, "RFC 12: Use gRPC"), "When Using gRPC");
    assert_eq!(
        heading_title(Kind::Nygard, "Installation method: Home Assistant OS"),
        "When Deciding Installation method: Home Assistant OS",
        "no verb after the colon: as before"
    );
    assert_eq!(heading_title(Kind::Sections, "Code style"), "When Working On Code style");
    // A gerund phrase is a situation already; a gerund that qualifies a noun, or a noun in -ing, is not.
    for (kind, title, heading) in [
        (Kind::Sections, "Running Tests", "When Running Tests"),
        (Kind::Sections, "Formatting & Type Checking", "When Formatting & Type Checking"),
        (Kind::Nygard, "Using payments for non-payment operations", "When Using payments for non-payment operations"),
        (Kind::Nygard, "Webscraping", "When Webscraping"),
        (Kind::Sections, "Coding Convention", "When Working On Coding Convention"),
        (Kind::Sections, "Build and Verification Requirements", "When Working On Build and Verification Requirements"),
        (Kind::Sections, "Building and Testing", "When Building and Testing"),
        (Kind::Nygard, "Naming convention for clusters", "When Deciding Naming convention for clusters"),
        (Kind::Sections, "String handling", "When Working On String handling"),
        (Kind::Sections, "Nothing else", "When Working On Nothing else"),
        (
            Kind::Nygard,
            "Monitoring/Alerting of ECR Image Counts",
            "When Deciding Monitoring/Alerting of ECR Image Counts",
        ),
    ] {
        assert_eq!(heading_title(kind, title), heading, "{title}");
    }
    assert_eq!(heading_title(Kind::Sections, "How to release"), "How to release");
    assert_eq!(heading_title(Kind::Sections, "When tests flake"), "When tests flake");
}

#[test]
fn an_adr_becomes_a_section_that_leads_with_the_decision_and_an_entry_that_resolves() {
    let w = ws(&[]);
    let records = parse("docs/adr/0006-use-helm.md", NYGARD).unwrap();
    assert_eq!(records[0].title, "Use Helm for application package management");
    let out = plan(&w, records, &Options::default()).unwrap();
    assert_eq!(out.imported, ["When Using Helm for application package management ← docs/adr/0006-use-helm.md"]);
    let path = "agents/decisions/architecture-decisions.md";
    let text = out.change.text_after(path, None).unwrap();
    assert!(text.starts_with("# Architecture Decisions\n\n## When Using Helm for application package management\n\nUse Helm charts for every application.\n**Details**\n"), "{text}");
    assert!(
        text.contains("Context: We deploy many apps")
            && unmarked(&text).ends_with("Date: 2021-09-01\nSource: docs/adr/0006-use-helm.md\n"),
        "{text}"
    );
    let index = out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap();
    let want =
        "## agents/decisions/architecture-decisions.md\n\n/when using helm for application package management | helm\n";
    assert!(index.contains(want), "{index}");
    // Applied, then imported again: nothing changes.
    let mut after = w.clone();
    after.set_file(path, FileText::from(text.as_str()));
    after.set_file("agents/memory-index.md", FileText::from(index.as_str()));
    let again = plan(&after, parse("docs/adr/0006-use-helm.md", NYGARD).unwrap(), &Options::default()).unwrap();
    assert!(again.change.is_empty(), "{:?}", again.change);
    assert_eq!(again.unchanged, 1);
    // The source changes: the section is updated in place, no second copy.
    let changed =
        NYGARD.replace("Use Helm charts for every application.", "Use Helm charts for every application, pinned.");
    let upd = plan(&after, parse("docs/adr/0006-use-helm.md", &changed).unwrap(), &Options::default()).unwrap();
    assert_eq!(upd.updated.len(), 1);
    let t = upd.change.text_after(path, Some(&text)).unwrap();
    assert_eq!(t.matches("## When Using Helm").count(), 1);
    assert!(t.contains("pinned."));
}

#[test]
fn inactive_records_are_skipped_or_marked() {
    let w = ws(&[]);
    let old = NYGARD.replace("Accepted", "Superseded by [7. Use Kustomize](0007-kustomize.md)");
    let out = plan(&w, parse("adr/0006.md", &old).unwrap(), &Options::default()).unwrap();
    assert!(out.imported.is_empty() && out.change.is_empty());
    assert!(out.skipped[0].1.starts_with("superseded"), "{:?}", out.skipped);
    let all = plan(&w, parse("adr/0006.md", &old).unwrap(), &Options { all: true, ..Default::default() }).unwrap();
    let text = all.change.text_after("agents/decisions/architecture-decisions.md", None).unwrap();
    // The link leads where it led from the source's folder.
    assert!(text.contains("**Status: Superseded by [7. Use Kustomize](../../adr/0007-kustomize.md)**"), "{text}");
}

#[test]
fn madr_and_rules_files_and_bad_sources() {
    let madr = "---\nstatus: accepted\ndate: 2024-01-02\n---\n# Use PostgreSQL\n\n## Context and Problem Statement\n\nWe need a database.\n\n\
## Decision Outcome\n\nChosen option: \"PostgreSQL\", because the team knows it.\n";
    let r = parse("docs/decisions/0001-use-postgresql.md", madr).unwrap();
    assert_eq!(
        (r[0].kind, r[0].title.as_str(), r[0].status.as_deref()),
        (Kind::Madr, "Use PostgreSQL", Some("accepted"))
    );
    assert!(r[0].decision.starts_with("Chosen option"));
    // The options weighed come with the decision, a list under its label (found by review: dropped).
    let weighed = madr.replace(
        "## Decision Outcome",
        "## Considered Options <!-- optional -->\n\n* MySQL\n* PostgreSQL\n\n## Decision Outcome",
    );
    let out = plan(&ws(&[]), parse("docs/decisions/0001-use-postgresql.md", &weighed).unwrap(), &Options::default());
    let text = unmarked(&out.unwrap().change.text_after("agents/decisions/architecture-decisions.md", None).unwrap());
    assert!(
        text.contains("because the team knows it.\n\nConsidered options:\n* MySQL\n* PostgreSQL\n\nContext: We need"),
        "{text}"
    );
    let claude = "# Project notes\n\n## Testing\n\nRun `cargo test` before every commit.\n\n## Commit messages\n\nImperative mood, one line.\n";
    let r = parse("CLAUDE.md", claude).unwrap();
    assert_eq!(r.iter().map(|x| x.title.as_str()).collect::<Vec<_>>(), ["Testing", "Commit messages"]);
    let out = plan(&ws(&[]), r, &Options::default()).unwrap();
    let text = unmarked(&out.change.text_after("agents/decisions/claude.md", None).unwrap());
    assert!(
        text.contains("## When Testing\n\nRun `cargo test` before every commit.\n\nSource: CLAUDE.md § Testing\n"),
        "{text}"
    );
    assert!(parse("x.md", "just words, no heading\n").unwrap_err().why.contains("nothing to import"));
    assert!(parse("0000-TEMPLATE.md", NYGARD).unwrap_err().why.contains("template"));
}

/// Found importing ADR folders no test had seen (log4brains, arachne, the MoJ cloud platform).
#[test]
fn adr_variants_seen_in_real_folders() {
    // A `- Status:` line and a plain `## Decision` section: one ADR, not two sections.
    let listed = "# Avoid default exports\n\n- Status: accepted\n- Date: 2020-09-27\n\n## Decision\n\n\
We will use named exports.\n\n## Links <!-- optional -->\n\n- <https://example.org>\n";
    let r = parse("docs/adr/20200927-avoid-default-exports.md", listed).unwrap();
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].title.as_str(), r[0].status.as_deref()), ("Avoid default exports", Some("accepted")));
    assert_eq!(r[0].decision, "We will use named exports.");
    let old = listed.replace("accepted", "superseded by [x](x.md)");
    let out = plan(&ws(&[]), parse("docs/adr/x.md", &old).unwrap(), &Options::default()).unwrap();
    assert!(out.skipped[0].1.starts_with("superseded"), "{:?}", out.skipped);
    // A label before every title is not part of the title.
    assert_eq!(clean_title("Architecture Decision Record: Configuration"), "Configuration");
    assert_eq!(clean_title("ADR 12: Use Helm"), "Use Helm");
    assert_eq!(clean_title("<img src=\"docs/db.svg\" width=\"16\"> Database <b>rules</b>"), "Database rules");
    assert_eq!(clean_title("x < y when sorting"), "x < y when sorting");
    assert_eq!(clean_title("ADRs are kept in git"), "ADRs are kept in git");
    assert_eq!(clean_title("Architecture decisions are recorded"), "Architecture decisions are recorded");
    // A section heading's HTML comment is not part of it.
    let madr = "---\nstatus: accepted\n---\n# Use X\n\n## Decision Outcome <!-- required -->\n\nX.\n";
    assert_eq!(parse("a.md", madr).unwrap()[0].decision, "X.");
    // The folder's README or index lists the records: not a decision.
    let readme = "# Architecture Decisions\n\n## Table of contents\n\n- [1. Use X](0001-use-x.md)\n";
    assert!(parse("docs/adr/README.md", readme).unwrap_err().why.contains("not a decision"));
    assert!(parse("docs/adr/index.md", readme).unwrap_err().why.contains("not a decision"));
}

#[test]
fn a_short_key_of_a_function_word_is_not_an_extra() {
    let adr =
        NYGARD.replace("# 6. Use Helm for application package management", "# 6. Use GitHub as our identity provider");
    let other = NYGARD.replace("# 6. Use Helm for application package management", "# 7. Use GitHub as the code host");
    let w = ws(&[]);
    let mut records = parse("adr/0006.md", &adr).unwrap();
    records.extend(parse("adr/0007.md", &other).unwrap());
    let out = plan(&w, records, &Options::default()).unwrap();
    let index = out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap();
    assert!(!index.contains("| our"), "{index}");
    assert!(index.contains("/when using GitHub as our identity provider"), "{index}");
    // Two ADRs titled `Using …`: `using` after `deciding` is no key either (kordis' ADRs gave `| using`).
    let a = NYGARD.replace("# 6. Use Helm for application package management", "# 9. Using Sagas for Events");
    let b = NYGARD.replace("# 6. Use Helm for application package management", "# 10. Using Managers for Events");
    let mut records = parse("adr/0009.md", &a).unwrap();
    records.extend(parse("adr/0010.md", &b).unwrap());
    let out = plan(&w, records, &Options::default()).unwrap();
    let index = out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap();
    assert!(!index.contains("| using"), "{index}");
    // Found by review: `| code in` (a key that ends on a stop word) was an extra.
    assert!(!super::entry::short_key_helps("code in", "working on code style in agents"));
    assert!(super::entry::short_key_helps("code style", "working on code style in agents"));
    // A lone word is an extra only when it tells the decision apart (issue 51: `| app`, `| web`).
    let names = super::entry::names_something;
    assert!(!names("app", "When Deciding App Structure For The Monorepo"), "Title Case says nothing");
    assert!(!names("web", "When Working On web builds"));
    assert!(!names("single", "When Deciding Single command with subcommands"), "a sentence's first capital");
    assert!(names("docker", "When Deciding Images for Docker"), "a name past the first word");
    assert!(names("helm", "When Using Helm for packages"), "a name among lower-case words");
    assert!(names("github", "When Using GitHub As Our Identity Provider"), "cased inside");
    assert!(names("k8s", "When Running On K8s"));
    assert!(!names("guidelines", "When Working On development guidelines"), "a long common word");
}

/// Found importing real rules files (CLAUDE.md, AGENTS.md, .cursor/rules) no test had seen.
#[test]
fn a_cut_body_says_so_and_never_ends_inside_code() {
    let mut text = String::from("# T\n\n## Rules\n\nFirst paragraph.\n\n```ts\n");
    for i in 0..70 {
        text.push_str(&format!("  field{i}: string;\n"));
    }
    text.push_str("```\n\nLast words.\n");
    let out = plan(&ws(&[]), parse("CLAUDE.md", &text).unwrap(), &Options::default()).unwrap();
    let body = unmarked(&out.change.text_after("agents/decisions/claude.md", None).unwrap());
    assert!(
        body.contains("First paragraph.\n\n(73 more lines in the source)\n\nSource: CLAUDE.md § Rules\n"),
        "{body}"
    );
    assert!(!body.contains("field0"), "{body}");
    assert_eq!(out.cut.len(), 1, "{:?}", out.cut);
    // The file has room: the cut is the cap on every body, and the message says so (it said
    // "to keep claude.md under `max-lines` (400)" of a file of 12 lines).
    assert!(
        out.cut[0].starts_with(
            "When Working On Rules: 73 lines left out (an imported body of a rules section keeps at most 60 lines"
        ),
        "{:?}",
        out.cut
    );
    // A file short of room: the cut names `max-lines`.
    let mut small = ws(&[]);
    let mut config = small.config().clone();
    config.options.insert("max-lines".into(), 60);
    small.set_config(config, Vec::new());
    let plain = |n: usize| -> String { (0..30).map(|i| format!("- Rule {n}.{i}.\n")).collect() };
    let many: Vec<_> = (0..3)
        .flat_map(|i| parse(&format!("R{i}.md"), &format!("# T\n\n## Rules {i}\n\n{}", plain(i))).unwrap())
        .collect();
    let out = plan(&small, many, &Options { file: Some("rules.md".into()), ..Options::default() }).unwrap();
    assert_eq!(out.cut.len(), 3, "{:?}", out.cut);
    assert!(out.cut.iter().all(|c| c.contains("under `max-lines` (60)")), "{:?}", out.cut);
}

#[test]
fn the_same_title_in_two_files_is_told_apart_and_a_gone_section_is_reported() {
    let a = "# Meta Rules\n\n## Architecture Principles\n\nLayers point one way.\n";
    let b = "# Development Guidelines\n\n## Architecture Principles\n\nNo globals.\n";
    let mut records = parse(".cursor/rules/000-meta.mdc", a).unwrap();
    records.extend(parse(".cursor/rules/003-dev.mdc", b).unwrap());
    let out = plan(&ws(&[]), records, &Options::default()).unwrap();
    assert_eq!(
        out.imported,
        [
            "When Working On Architecture Principles ← .cursor/rules/000-meta.mdc",
            "When Working On Architecture Principles in Development Guidelines ← .cursor/rules/003-dev.mdc"
        ]
    );
    // Imported, then the source's section is renamed: the old decision is reported, not left silent.
    let path = "agents/decisions/000-meta.md";
    let text = out.change.text_after(path, None).unwrap();
    let index = out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap();
    let mut after = ws(&[(path, text.as_str())]);
    after.set_file("agents/memory-index.md", FileText::from(index.as_str()));
    // (Renamed alone, it keeps its decision: `tests/prune.rs`.)
    let renamed = a.replace("## Architecture Principles", "## Layering").replace("one way", "one way only");
    let again = plan(&after, parse(".cursor/rules/000-meta.mdc", &renamed).unwrap(), &Options::default()).unwrap();
    assert_eq!(again.stale.len(), 1, "{:?}", again.stale);
    assert!(again.stale[0].contains("no longer has a section `Architecture Principles`"), "{:?}", again.stale);
}

#[test]
fn many_records_spread_over_files_instead_of_being_cut_to_nothing() {
    let w = ws(&[]);
    let mut records = Vec::new();
    for i in 0..20 {
        let mut adr = format!("# {i}. Use tool number {i} for job {i}\n\n## Status\n\nAccepted\n\n## Decision\n\n");
        for l in 0..30 {
            adr.push_str(&format!("Rule {l} of record {i}.\n"));
        }
        records.extend(parse(&format!("adr/{i:04}.md"), &adr).unwrap());
    }
    let out = plan(&w, records.clone(), &Options::default()).unwrap();
    assert_eq!(out.imported.len(), 20);
    let first = out.change.text_after("agents/decisions/architecture-decisions.md", None).unwrap();
    let second = out.change.text_after("agents/decisions/architecture-decisions-2.md", None).unwrap();
    for text in [&first, &second] {
        assert!(text.lines().count() <= 400, "{text}");
        for section in text.split("\n## ").skip(1) {
            assert!(section.contains("Rule 19 of record"), "a body of 20 lines at least: {section}");
        }
    }
    // Applied, then imported again: every record is found where it went, nothing changes.
    let mut after = w.clone();
    after.set_file("agents/decisions/architecture-decisions.md", FileText::from(first.as_str()));
    after.set_file("agents/decisions/architecture-decisions-2.md", FileText::from(second.as_str()));
    let index = out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap();
    after.set_file("agents/memory-index.md", FileText::from(index.as_str()));
    let again = plan(&after, records, &Options::default()).unwrap();
    assert!(again.change.is_empty() && again.unchanged == 20, "{:?}", again.imported);
}

#[test]
fn relative_links_still_point_where_they_did() {
    use super::links::relink;
    let up = "../../";
    // (line, the source it is in, what it becomes in a decision file two folders down)
    let cases = [
        (
            "see [19](019-shared.md#why) and [x](../README.md)",
            "docs/adr/0018.md",
            "see [19](../../docs/adr/019-shared.md#why) and [x](../../docs/README.md)",
        ),
        (
            "[a](https://x.org/a) [b](#local) [c](/abs)",
            "docs/adr/1.md",
            "[a](https://x.org/a) [b](../../docs/adr/1.md#local) [c](/abs)",
        ),
        // A link out of the root stays.
        ("[out](../../../x.md)", "docs/adr/1.md", "[out](../../../x.md)"),
        ("[c](./CHANGELOG.md)", "AGENTS.md", "[c](../../CHANGELOG.md)"),
        // Found by review: text inside inline code is not a link; a reference definition is one,
        // when a title or nothing follows its target (else it is prose); a footnote is not.
        ("see `[not a link](x.md)` and [y](y.md)", "sub/r.md", "see `[not a link](x.md)` and [y](../../sub/y.md)"),
        ("[rb]: ops/runbook.md \"Runbook\"", "sub/r.md", "[rb]: ../../sub/ops/runbook.md \"Runbook\""),
        ("[^1]: a footnote", "sub/r.md", "[^1]: a footnote"),
        ("[BREAKING]: v2.0 drops Node 14", "sub/r.md", "[BREAKING]: v2.0 drops Node 14"),
        // An anchor of the source's own headings leads to the source (the heading is not in the decision file).
        ("see [build](#build-requirements).", "AGENTS.md", "see [build](../../AGENTS.md#build-requirements)."),
    ];
    for (line, source, want) in cases {
        assert_eq!(relink(line, source, up), want, "{line} in {source}");
    }
    // In a plan: the decision's body links to the record it names.
    let adr =
        NYGARD.replace("Use Helm charts for every application.", "Use Helm charts, as [ADR 5](0005-k8s.md) expects.");
    let out = plan(&ws(&[]), parse("docs/adr/0006-use-helm.md", &adr).unwrap(), &Options::default()).unwrap();
    let text = out.change.text_after("agents/decisions/architecture-decisions.md", None).unwrap();
    assert!(text.contains("as [ADR 5](../../docs/adr/0005-k8s.md) expects."), "{text}");
}

/// Found in review (session 23).
#[test]
fn review_cases() {
    // A dot-folder source's links are rewritten too; `.cursorrules` has a title.
    assert_eq!(
        super::links::relink("[x](docs/a.md)", ".github/copilot-instructions.md", "../../"),
        "[x](../../.github/docs/a.md)"
    );
    assert_eq!(parse(".cursorrules", "Tabs, not spaces.\n").unwrap()[0].title, "cursorrules");
    // A record told apart from another on its first import stays so when imported again alone.
    let a = "# Meta Rules\n\n## Architecture Principles\n\nLayers point one way.\n";
    let b = "# Development Guidelines\n\n## Architecture Principles\n\nNo globals.\n";
    let mut records = parse("r/000-meta.mdc", a).unwrap();
    records.extend(parse("r/003-dev.mdc", b).unwrap());
    let out = plan(&ws(&[]), records, &Options::default()).unwrap();
    let mut after = ws(&[]);
    for p in ["agents/decisions/000-meta.md", "agents/decisions/003-dev.md"] {
        after.set_file(p, FileText::from(out.change.text_after(p, None).unwrap().as_str()));
    }
    after.set_file(
        "agents/memory-index.md",
        FileText::from(out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap().as_str()),
    );
    let changed = b.replace("No globals.", "No globals, ever.");
    let again = plan(&after, parse("r/003-dev.mdc", &changed).unwrap(), &Options::default()).unwrap();
    assert_eq!(
        again.updated,
        ["When Working On Architecture Principles in Development Guidelines ← r/003-dev.mdc"],
        "{:?}",
        again.skipped
    );
    // One record of a folder imported again alone is cut as it was with the folder.
    let mut recs = Vec::new();
    for i in 0..14 {
        // A shell comment in a code block is not a heading (it once made the budget differ on re-import).
        let code = if i % 2 == 0 { format!("```sh\n# install it\nmake tool-{i}\n```\n\n") } else { String::new() };
        let mut adr = format!("# {i}. Use tool {i}\n\n## Status\n\nAccepted\n\n## Decision\n\n{code}");
        for l in 0..40 {
            adr.push_str(&format!("Rule {l} of {i}.\n\n"));
        }
        recs.push((format!("adr/{i:02}.md"), adr));
    }
    let all: Vec<_> = recs.iter().flat_map(|(p, t)| parse(p, t).unwrap()).collect();
    let first = plan(&ws(&[]), all, &Options::default()).unwrap();
    let mut w = ws(&[]);
    for p in ["agents/decisions/architecture-decisions.md", "agents/decisions/architecture-decisions-2.md"] {
        if let Some(t) = first.change.text_after(p, None) {
            w.set_file(p, FileText::from(t.as_str()));
        }
    }
    w.set_file(
        "agents/memory-index.md",
        FileText::from(first.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap().as_str()),
    );
    let one = plan(&w, parse(&recs[3].0, &recs[3].1).unwrap(), &Options::default()).unwrap();
    assert!(one.change.is_empty() && one.unchanged == 1, "{:?} {:?}", one.updated, one.cut);
    let every: Vec<_> = recs.iter().flat_map(|(p, t)| parse(p, t).unwrap()).collect();
    let again = plan(&w, every, &Options::default()).unwrap();
    assert!(again.change.is_empty() && again.unchanged == 14, "{:?}", again.updated);
}

/// A section an older build imported (its `Source:` line then kept a title's `:`, and named a
/// sub-section without its parent) is updated in place by a new import: never a second copy,
/// never listed as stale.
#[test]
fn a_decision_an_older_build_imported_is_updated_not_doubled() {
    // A long section with two sub-sections: one decision per sub-section, named `Development › Style`.
    let mut claude =
        String::from("# Project\n\n## Testing:\n\nRun the fast suite first.\n\n## Development\n\nIntro.\n");
    for sub in ["Style", "Reviews"] {
        claude.push_str(&format!("\n### {sub}\n\n"));
        for i in 0..15 {
            claude.push_str(&format!("- {sub} rule {i}.\n"));
        }
    }
    let claude = claude.as_str();
    let out = plan(&ws(&[]), parse("CLAUDE.md", claude).unwrap(), &Options::default()).unwrap();
    let path = "agents/decisions/claude.md";
    let text = out.change.text_after(path, None).unwrap();
    let index = out.change.text_after("agents/memory-index.md", Some(INDEX)).unwrap();
    let text = unmarked(&text);
    let now: Vec<&str> = text.lines().filter(|l| l.starts_with("Source: ")).collect();
    assert!(now.contains(&"Source: CLAUDE.md § Testing"), "{text}");
    // As an older build wrote it: older identities, no fingerprints.
    let mut old = text.replace("Source: CLAUDE.md § Testing\n", "Source: CLAUDE.md § Testing:\n");
    let sub = now.iter().find(|l| l.contains('›')).map(|l| l.to_string());
    if let Some(sub) = &sub {
        let title = sub.rsplit_once("› ").unwrap().1;
        old = old.replace(&format!("{sub}\n"), &format!("Source: CLAUDE.md § {title}\n"));
    }
    let mut before = ws(&[(path, old.as_str())]);
    before.set_file("agents/memory-index.md", FileText::from(index.as_str()));
    let again = plan(&before, parse("CLAUDE.md", claude).unwrap(), &Options::default()).unwrap();
    assert!(again.imported.is_empty(), "{:?}", again.imported);
    assert!(again.stale.is_empty(), "{:?}", again.stale);
    assert!(again.updated.iter().any(|u| u.contains("Testing")), "{:?}", again.updated);
    let after = again.change.text_after(path, Some(&old)).unwrap();
    assert!(unmarked(&after).contains("Source: CLAUDE.md § Testing\n") && !after.contains("Testing:\n"), "{after}");
    let sub = sub.expect("the long section was split");
    assert!(unmarked(&after).contains(&format!("{sub}\n")), "{after}");
    // Now fingerprinted: a change in the source comes in.
    before.set_file(path, FileText::from(after.as_str()));
    let next =
        plan(&before, parse("CLAUDE.md", &claude.replace("fast suite", "quick suite")).unwrap(), &Options::default())
            .unwrap();
    let last = next.change.text_after(path, Some(&after)).unwrap();
    assert!(last.contains("quick suite") && !last.contains("fast suite"), "{last}");
}

mod prune;
mod reimport;
mod rules_files;

/// Found by review: MADR's `### Consequences` under `## Decision Outcome` was copied twice.
#[test]
fn consequences_inside_the_decision_are_not_copied_again() {
    let madr =
        "---\nstatus: accepted\n---\n# Use PostgreSQL\n\n## Context and Problem Statement\n\nWe need a database.\n\n\
## Decision Outcome\n\nChosen option: \"PostgreSQL\".\n\n### Consequences\n\n* Good, because the team knows it.\n";
    let r = parse("docs/decisions/0001-use-postgresql.md", madr).unwrap();
    assert!(r[0].decision.contains("Good, because the team knows it."), "{}", r[0].decision);
    assert_eq!(r[0].more.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), ["Context"], "{:?}", r[0].more);
}
