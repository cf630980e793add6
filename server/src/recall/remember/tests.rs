//! Tests of `remember`'s plan: placement, heading level, line endings, refusals.

use super::*;
use crate::model::{Config, FileText};

fn ws(files: &[(&str, &str)]) -> Workspace {
    let mut ws = Workspace::new(Config::default());
    for (p, t) in files {
        ws.set_file(p, FileText::from(*t));
    }
    ws
}

/// A file's text after the plan's change.
fn after(w: &Workspace, p: &Plan, path: &str) -> String {
    let before = w.file_id(path).and_then(|id| w.file(id)).map(|f| f.text.to_string());
    p.change.text_after(path, before.as_deref()).expect("the change touches it")
}

const BODY: &str = "Pin the toolchain in rust-toolchain.toml.\nCI reads the same file.\nBump it in its own commit.\n";

fn req(op: Op, title: &str, file: Option<&str>) -> Request {
    Request { op: Some(op), title: title.into(), file: file.map(Into::into), body: BODY.into(), ..Default::default() }
}

const INDEX: &str =
    "# Index\n\n## agents/decisions/a.md\n\n/when writing mock tests\n\n## agents/decisions/c.md\n\n/how seed data\n";
const A: &str =
    "# A\n\n## .Testing\n\n### When Writing Mock Tests\n\nPatch where used.\nPrefer fakes.\nKeep them small.\n";
const C: &str = "# C\n\n## How to Seed Data\n\nFactories build rows.\nOne per table.\nNever random.\n";

#[test]
fn appends_at_the_files_semantic_level_and_places_the_entry() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let p = plan(&w, &req(Op::When, "Pinning Toolchain Versions", Some("a.md"))).expect("plan");
    assert_eq!(p.heading, "### When Pinning Toolchain Versions", "a.md uses ###");
    assert_eq!(after(&w, &p, &p.decision_path), format!("{A}\n### When Pinning Toolchain Versions\n\n{BODY}"));
    assert_eq!(p.line, 11);
    assert_eq!(
        after(&w, &p, &p.index_path),
        INDEX.replace("/when writing mock tests\n", "/when writing mock tests\n/when pinning toolchain versions\n")
    );
    let p = plan(&w, &req(Op::How, "Rotate Keys", Some("c"))).expect("plan");
    assert_eq!(p.heading, "## How to Rotate Keys", "c.md uses ##");
    // `--how "to rotate keys"` (found by review: it made `How to to rotate keys`).
    let to = plan(&w, &req(Op::How, "to Rotate Keys", Some("c"))).expect("plan");
    assert_eq!(to.heading, p.heading);
    assert!(
        after(&w, &p, &p.index_path).ends_with("/how seed data\n/how rotate keys\n"),
        "{}",
        after(&w, &p, &p.index_path)
    );
}

#[test]
fn a_new_file_gets_a_title_and_a_section_in_sorted_place() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let p = plan(&w, &req(Op::When, "Naming Branches", Some("b-rules.md"))).expect("plan");
    assert!(p.change.creates.iter().any(|c| c.path == p.decision_path), "created");
    assert_eq!(after(&w, &p, &p.decision_path), format!("# B Rules\n\n## When Naming Branches\n\n{BODY}"));
    assert!(
        after(&w, &p, &p.index_path).contains("/when writing mock tests\n\n## agents/decisions/b-rules.md\n\n/when naming branches\n\n## agents/decisions/c.md"),
        "{}",
        after(&w, &p, &p.index_path)
    );
    assert!(p.notes.iter().any(|n| n.contains("new decision file")));
}

#[test]
fn crlf_no_trailing_newline_and_non_ascii_titles() {
    let crlf = A.replace('\n', "\r\n");
    let bare = C.trim_end();
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", &crlf), ("agents/decisions/c.md", bare)]);
    let p = plan(&w, &req(Op::When, "Ändern Der Zeitzone", Some("a.md"))).expect("plan");
    assert!(after(&w, &p, &p.decision_path).starts_with(&crlf));
    assert!(after(&w, &p, &p.decision_path).ends_with("### When Ändern Der Zeitzone\r\n\r\nPin the toolchain in rust-toolchain.toml.\r\nCI reads the same file.\r\nBump it in its own commit.\r\n"));
    assert!(after(&w, &p, &p.index_path).contains("/when ändern der zeitzone\n"), "{}", after(&w, &p, &p.index_path));
    let p = plan(&w, &req(Op::How, "Rotate Keys", Some("c.md"))).expect("plan");
    assert!(
        after(&w, &p, &p.decision_path).starts_with(&format!("{bare}\n\n## How to Rotate Keys\n")),
        "{}",
        after(&w, &p, &p.decision_path)
    );
}

#[test]
fn refusals_say_why_and_plan_nothing() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let refuse = |r: Request| plan(&w, &r).unwrap_err();
    assert!(refuse(Request { op: None, ..req(Op::When, "X Y", Some("a.md")) }).contains("--when"));
    assert!(refuse(req(Op::When, "  ", Some("a.md"))).contains("title is empty"));
    assert!(refuse(req(Op::When, "a | b", Some("a.md"))).contains("cannot be a heading title"));
    assert!(refuse(req(Op::When, "a\nb", Some("a.md"))).contains("cannot be a heading title"));
    // Found by review: a trailing `#` was refused as "would not be read as a heading".
    assert!(refuse(req(Op::When, "Tagging Issues #", Some("a.md"))).contains("closing marks"));
    assert!(plan(&w, &req(Op::When, "Using C# Records", Some("a.md"))).is_ok(), "`#` inside a word is the title's");
    assert!(
        refuse(req(Op::When, "Writing Mock Tests", Some("c.md"))).contains("exists already at agents/decisions/a.md:5")
    );
    assert!(
        refuse(req(Op::When, "Pinning", Some("../x.md"))).contains("not a file name inside the decisions directory")
    );
    let r =
        Request { trigger: Some("pin toolchains".into()), ..req(Op::When, "Pinning Toolchain Versions", Some("a.md")) };
    assert!(refuse(r).contains("the trigger must be the title's words"));
    let empty = Request { body: " \n".into(), ..req(Op::When, "Pinning Toolchain Versions", Some("a.md")) };
    assert!(refuse(empty).contains("the body is empty"));
}

#[test]
fn a_file_that_would_pass_max_lines_is_refused() {
    let mut w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let (config, errors) = crate::rules::config_from_text("max-lines = 13\n");
    w.set_config(config, errors);
    let e = plan(&w, &req(Op::When, "Pinning Toolchain Versions", Some("a.md"))).unwrap_err();
    assert!(e.contains("warning[file-too-long]") && e.contains("nothing was written"), "{e}");
    assert!(plan(&w, &req(Op::How, "Rotate Keys", Some("c.md"))).is_ok(), "c.md stays within 13 lines");
    // The refusal names where the same decision fits: a ranked file with room, else a new file.
    assert!(e.contains("start a new decision file for it: pass --file pinning-toolchain.md"), "{e}");
    let seeding = Request {
        body: "Factories build the rows of every table seeded for tests.\nNever random data.\n".into(),
        force: true,
        ..req(Op::When, "Seeding Rows For Tests", Some("a.md"))
    };
    let e = plan(&w, &seeding).unwrap_err();
    assert!(e.contains("it fits in c.md, the next file for this decision: pass --file c.md"), "{e}");
    let (config, errors) = crate::rules::config_from_text(
        "max-lines = 11
",
    );
    w.set_config(config, errors);
    let e = plan(&w, &req(Op::When, "Pinning Toolchain Versions", Some("a.md"))).unwrap_err();
    assert!(e.contains("start a new decision file for it: pass --file pinning-toolchain.md"), "{e}");
    assert!(plan(&w, &req(Op::When, "Pinning Toolchain Versions", Some("pinning-toolchain.md"))).is_ok());
}

#[test]
fn an_extra_that_another_entry_owns_is_refused() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let r = Request {
        extras: vec!["writing mock tests".into()],
        ..req(Op::When, "Pinning Toolchain Versions", Some("a.md"))
    };
    let e = plan(&w, &r).unwrap_err();
    assert!(e.contains("`/when writing mock tests` would resolve to When Writing Mock Tests"), "{e}");
}

#[test]
fn the_same_subject_is_reported_unless_forced() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let dup = Request {
        body: "Patch where used.\nPrefer fakes.\n".into(),
        ..req(Op::When, "Writing Mock Test", Some("a.md"))
    };
    let e = plan(&w, &dup).unwrap_err();
    assert!(
        e.contains("an existing decision may cover this: /when writing mock tests (agents/decisions/a.md:5"),
        "{e}"
    );
    assert!(plan(&w, &Request { force: true, ..dup }).is_ok());
}

#[test]
fn without_a_file_the_best_ranked_file_is_chosen() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let r = Request {
        body: "Lookup tables (countries, currencies) are seed data loaded from CSV files.\nLoad them before the factories build rows.\n".into(),
        ..req(Op::How, "Seed Lookup Tables", None)
    };
    // Title and body together rank `How to Seed Data` as the same subject: refused unless forced.
    let e = plan(&w, &r).unwrap_err();
    assert!(e.contains("an existing decision may cover this: /how seed data") && e.contains("--force"), "{e}");
    let r = Request { force: true, ..r };
    let p = plan(&w, &r).expect("plan");
    assert_eq!(p.decision_path, "agents/decisions/c.md");
    assert!(p.notes[0].starts_with("file: c.md"), "{:?}", p.notes);
    let e = plan(&w, &Request { body: BODY.into(), ..req(Op::How, "Bake Sourdough", None) }).unwrap_err();
    assert!(e.contains("pass --file NAME"), "{e}");
    // One shared lead word is not a subject (found by review: `Writing` chose the mock tests' file).
    let commits = Request {
        body: "Commit subjects are imperative and under 72 characters.\n".into(),
        ..req(Op::When, "Writing Commit Messages", None)
    };
    let e = plan(&w, &commits).unwrap_err();
    assert!(e.contains("no decision file is clearly about this yet: pass --file NAME"), "{e}");
    assert!(e.contains("writing-commit.md"), "{e}");
    let e = plan(&w, &Request { body: BODY.into(), ..req(Op::When, "Choosing a Queue", None) }).unwrap_err();
    assert!(e.contains("`choosing-queue.md`"), "no stop word in the name: {e}");
}

#[test]
fn a_trigger_that_would_shadow_another_entry_is_refused() {
    let index = INDEX.replace("/when writing mock tests\n", "/when writing mock tests | mock patch\n");
    let w = ws(&[("agents/memory-index.md", &index), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let r = Request { force: true, ..req(Op::When, "Mock Patch", Some("a.md")) };
    let e = plan(&w, &r).unwrap_err();
    assert!(e.contains("shadowed-trigger") && e.contains("nothing was written"), "{e}");
}

#[test]
fn advice_is_not_a_reason_to_refuse() {
    // A one-line decision costs about what its entry costs: `promote-to-fragment` advises, it does not refuse.
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let r = Request { body: "Tabs.\n".into(), ..req(Op::When, "Indenting Go Code", Some("c.md")) };
    let p = plan(&w, &r).expect("planned despite the advice");
    let mut next = w.clone();
    next.set_file("agents/decisions/c.md", FileText::from(after(&w, &p, "agents/decisions/c.md").as_str()));
    next.set_file("agents/memory-index.md", FileText::from(after(&w, &p, "agents/memory-index.md").as_str()));
    assert!(
        crate::rules::check(&next).iter().any(|f| f.rule.code() == "promote-to-fragment"),
        "the advice is there, and did not refuse"
    );
}

/// Found by review: in a file that groups its decisions, a decision about unit tests went under
/// the last group (`.End To End`), and `resolve` named that group as broader.
#[test]
fn a_grouped_file_takes_the_decision_into_its_closest_group() {
    let index = "# Index\n\n## agents/decisions/t.md\n\n/when writing mock tests\n/when running browser tests\n";
    let t = "# T\n\n## .Unit Tests\n\n### When Writing Mock Tests\n\nPatch where the name is used in unit tests.\n\
             Prefer fakes over mocks.\n\n## .End To End\n\n### When Running Browser Tests\n\nRun playwright against \
             staging.\n";
    let w = ws(&[("agents/memory-index.md", index), ("agents/decisions/t.md", t)]);
    let body = "Unit test names say which behaviour of the unit they check, and mocks are named fake_x.\n";
    let r = Request { body: body.into(), ..req(Op::When, "Naming Unit Tests", Some("t.md")) };
    let p = plan(&w, &r).expect("plan");
    let text = after(&w, &p, "agents/decisions/t.md");
    let section = format!("### When Naming Unit Tests\n\n{body}\n");
    assert_eq!(text, t.replace("## .End To End", &format!("{section}## .End To End")), "{text}");
    assert_eq!(p.line, 10);
    assert!(p.notes.iter().any(|n| n.starts_with("group: .Unit Tests")), "{:?}", p.notes);
    // The structure check reads the new section only, not the groups after it.
    let heading = Request { body: "Names.\n\n## Not a group\n\nx\n".into(), ..r.clone() };
    let e = plan(&w, &heading).unwrap_err();
    assert!(e.contains("line 3 of the body would be read as a heading of level 2 (`Not a group`)"), "{e}");
    // Nothing of the file ranks for it: at the end, as before.
    let other = Request {
        body: "Invoices are numbered per year.\n".into(),
        ..req(Op::When, "Numbering Invoices", Some("t.md"))
    };
    let p = plan(&w, &other).expect("plan");
    assert!(after(&w, &p, "agents/decisions/t.md")
        .ends_with("### When Numbering Invoices\n\nInvoices are numbered per year.\n"));
}

/// Found by review: a sibling decision (one word of the title swapped for one neither decision
/// uses) was refused as a duplicate, more surely the smaller the memory.
#[test]
fn a_sibling_is_no_duplicate_and_a_reworded_decision_still_is() {
    let index = "# Index\n\n## agents/decisions/ops.md\n\n/when configuring helm clusters\n/when rotating keys\n";
    let ops = "# Ops\n\n## When Configuring Helm Clusters\n\nClusters of Helm use the shared values file; each \
               environment overrides replicas only.\n\n## When Rotating Keys\n\nRotate the signing keys every \
               quarter.\nOld keys stay valid for a week.\n";
    let w = ws(&[("agents/memory-index.md", index), ("agents/decisions/ops.md", ops)]);
    let kafka = Request {
        body: "Clusters of Kafka use the shared values file; each environment overrides replicas only.\n".into(),
        ..req(Op::When, "Configuring Kafka Clusters", Some("ops.md"))
    };
    let p = plan(&w, &kafka).expect("a sibling is written");
    assert!(after(&w, &p, "agents/decisions/ops.md").contains("## When Configuring Kafka Clusters"));
    let helm = w.bindings().headings_titled("when configuring helm clusters")[0];
    let body = "Clusters of Helm use the shared values file.";
    assert!(checks::another_subject(&w, helm, "Configuring Kafka Clusters", &kafka.body));
    assert!(!checks::another_subject(&w, helm, "Setting Up Helm Clusters", body), "reworded, not a sibling");
    assert!(!checks::another_subject(&w, helm, "Configuring Helm Charts", "Use charts of Helm clusters."), "uses it");
}

#[test]
fn refusals_and_notes_name_the_callers_arguments() {
    let w = ws(&[("agents/memory-index.md", INDEX), ("agents/decisions/a.md", A), ("agents/decisions/c.md", C)]);
    let tool = |r: Request| Request { words: Words::Arguments, ..r };
    let seed = Request {
        body: "Lookup tables (countries, currencies) are seed data loaded from CSV files.\nLoad them before the factories build rows.\n".into(),
        ..req(Op::How, "Seed Lookup Tables", None)
    };
    let said = [
        plan(&w, &tool(seed.clone())).unwrap_err(),
        plan(&w, &tool(Request { force: true, ..seed })).expect("plan").notes.join("\n"),
        plan(&w, &tool(Request { body: BODY.into(), ..req(Op::How, "Bake Sourdough", None) })).unwrap_err(),
        plan(&w, &tool(Request { op: None, ..req(Op::How, "Bake Sourdough", None) })).unwrap_err(),
        plan(&w, &tool(Request { body: " ".into(), ..req(Op::How, "Bake Sourdough", Some("a.md")) })).unwrap_err(),
        plan(&w, &tool(req(Op::How, "Run `cargo`", Some("a.md")))).unwrap_err(),
        plan(&w, &tool(req(Op::How, " ", Some("a.md")))).unwrap_err(),
    ];
    for (s, want) in
        said.iter().zip(["`force: true`", "`file`", "`file` NAME", "`operator`", "`body`", "`extras`", "`title`"])
    {
        assert!(s.contains(want) && !s.contains("--"), "{want} in {s}");
    }
}

/// Found by review: a decision on a subject the memory has decided, in other words, went in unsaid.
#[test]
fn the_closest_decision_is_named_when_it_is_close() {
    let index =
        "# I\n\n## agents/decisions/data.md\n\n/when choosing a database | postgres, sql\n/how run migrations\n";
    let data = "# Data\n\n## When Choosing A Database\n\nUse PostgreSQL 16 for every service; SQLite only for local \
                prototypes.\n\n## How to Run Migrations\n\nRun alembic upgrade head in CI before deploy.\n";
    let w = ws(&[("agents/memory-index.md", index), ("agents/decisions/data.md", data)]);
    let r =
        Request { body: "Use Postgres for everything.\n".into(), ..req(Op::When, "Picking A Database Engine", None) };
    let p = plan(&w, &r).expect("written: a note, not a refusal");
    assert!(
        p.notes
            .iter()
            .any(|n| n.starts_with("closest decision: /when choosing a database (agents/decisions/data.md:3")),
        "{:?}",
        p.notes
    );
    let far =
        Request { body: "Bake at 250 degrees with steam.\n".into(), ..req(Op::How, "Bake Sourdough", Some("data.md")) };
    let p = plan(&w, &far).expect("written");
    assert!(!p.notes.iter().any(|n| n.starts_with("closest")), "{:?}", p.notes);
}
