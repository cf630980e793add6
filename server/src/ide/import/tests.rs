//! Tests of `import`'s plan: headings from titles, bodies that lead with the decision, status, identity.

use super::source::{clean_title, parse, Kind};
use super::*;
use crate::model::{Config, FileText};

const INDEX: &str =
    "# Index\n\nRecall with `/when <situation>`.\n\n## agents/decisions/ops.md\n\n/when deploying on fridays\n";
const OPS: &str = "# Ops\n\n## When Deploying On Fridays\n\nNever deploy on a Friday afternoon; wait for Monday.\n";

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
    assert_eq!(heading_title(Kind::Sections, "Code style"), "When Working On Code style");
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
            && text.ends_with("Date: 2021-09-01\nSource: docs/adr/0006-use-helm.md\n"),
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
    assert!(text.contains("Status: Superseded by"), "{text}");
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
    let claude = "# Project notes\n\n## Testing\n\nRun `cargo test` before every commit.\n\n## Commit messages\n\nImperative mood, one line.\n";
    let r = parse("CLAUDE.md", claude).unwrap();
    assert_eq!(r.iter().map(|x| x.title.as_str()).collect::<Vec<_>>(), ["Testing", "Commit messages"]);
    let out = plan(&ws(&[]), r, &Options::default()).unwrap();
    let text = out.change.text_after("agents/decisions/claude.md", None).unwrap();
    assert!(
        text.contains(
            "## When Working On Testing\n\nRun `cargo test` before every commit.\n\nSource: CLAUDE.md § Testing\n"
        ),
        "{text}"
    );
    assert!(parse("x.md", "just words, no heading\n").unwrap_err().contains("nothing to import"));
    assert!(parse("0000-TEMPLATE.md", NYGARD).unwrap_err().contains("template"));
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
    assert_eq!(clean_title("ADRs are kept in git"), "ADRs are kept in git");
    assert_eq!(clean_title("Architecture decisions are recorded"), "Architecture decisions are recorded");
    // A section heading's HTML comment is not part of it.
    let madr = "---\nstatus: accepted\n---\n# Use X\n\n## Decision Outcome <!-- required -->\n\nX.\n";
    assert_eq!(parse("a.md", madr).unwrap()[0].decision, "X.");
    // The folder's README or index lists the records: not a decision.
    let readme = "# Architecture Decisions\n\n## Table of contents\n\n- [1. Use X](0001-use-x.md)\n";
    assert!(parse("docs/adr/README.md", readme).unwrap_err().contains("not a decision"));
    assert!(parse("docs/adr/index.md", readme).unwrap_err().contains("not a decision"));
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
}
