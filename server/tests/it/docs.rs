//! Keeps docs/rules.md in step with the rules' own documentation (`UPDATE_DOCS=1` rewrites it).

use crate::support;

use memory_index_lsp::rules::{Fixes, Rule, Severity};

fn render() -> String {
    let mut s = String::from(
        "# Rules\n\nGenerated from the rules' own documentation by `server/tests/it/docs.rs`\n(run `UPDATE_DOCS=1 cargo test --test it docs::` after changing a rule).\nEvery code can be set to `error`, `warning`, `info` or `off` under `[rules]`\nin `memory-index.toml`.\nOptions are keys of `memory-index.toml` (or of the editor's `memoryIndex`\nsettings) that a rule reads, with their defaults.\n\n| code | default | fix-all | options |\n| --- | --- | --- | --- |\n",
    );
    for r in Rule::ALL {
        let sev = match r.default_severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let fix = if r.fixes() == Fixes::Safe { "yes" } else { "no" };
        let options: Vec<String> = r.options().iter().map(|(k, v)| format!("`{k} = {v}`")).collect();
        s.push_str(&format!("| [`{0}`](#{0}) | {sev} | {fix} | {1} |\n", r.code(), options.join(", ")));
    }
    for r in Rule::ALL {
        s.push_str(&format!("\n## {}\n\n{}\n", r.code(), r.doc()));
    }
    s.push_str(&format!("\n## Scopes\n\n{}\n", memory_index_lsp::syntax::scope::DOC));
    s
}

#[test]
fn rules_md_is_current() {
    let path = support::repo().join("docs/rules.md");
    let want = render();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/rules.md");
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(got == want, "docs/rules.md is stale: run `UPDATE_DOCS=1 cargo test --test it docs::`");
}

/// docs/guide/configuration.md: generated from the settings' definitions
/// (`model::config::reference`), so that no key goes undocumented.
fn configuration() -> String {
    format!(
        "# Configuration\n\n<!-- Generated from server/src/model/config/reference.rs by server/tests/it/docs.rs \
(`UPDATE_DOCS=1 cargo test --test it docs::`). -->\n\n{}\n{}",
        CONFIGURATION_INTRO,
        memory_index_lsp::model::config::reference::markdown()
    ) + CONFIGURATION_END
}

const CONFIGURATION_INTRO: &str = "An optional `memory-index.toml` in the project's folder (the one holding \
`agents/`) sets these keys; every one is optional, and copied as listed here a key changes nothing. An unknown key \
or a value of the wrong type is reported at its place (`invalid-config`) and left out, and every other key applies: \
a typo beside `hook = false` does not turn the hook back on. Text that is not TOML at all is reported and the \
defaults apply. The language server also takes these keys from `initializationOptions` and \
`workspace/configuration` (section `memoryIndex`).\n";

const CONFIGURATION_END: &str = "## [rules] and rule options\n\nEach rule's code can be set to `\"error\"`, \
`\"warning\"`, `\"info\"` or `\"off\"` under `[rules]` (`file-too-long = \"off\"`). A rule's options (`max-lines`, \
`token-budget`) are top-level keys; [the rules page](../rules.md) lists each rule, its default and its options.\n";

#[test]
fn configuration_md_is_current() {
    let path = support::repo().join("docs/guide/configuration.md");
    let want = configuration();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/guide/configuration.md");
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(got == want, "docs/guide/configuration.md is stale: run `UPDATE_DOCS=1 cargo test --test it docs::`");
}

/// The reference's defaults are the program's: read as a `memory-index.toml`, they change nothing.
#[test]
fn the_references_defaults_are_the_defaults() {
    let toml = memory_index_lsp::model::config::reference::defaults_toml();
    let (cfg, errors) = memory_index_lsp::rules::config_from_text(&toml);
    assert!(errors.is_empty(), "{errors:?}\n{toml}");
    let defaults = memory_index_lsp::model::Config::default();
    assert_eq!(format!("{cfg:?}"), format!("{defaults:?}"), "{toml}");
}

/// The VS Code extension's README documents every command the extension contributes.
#[test]
fn the_vscode_readme_names_every_command() {
    let repo = support::repo();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo.join("editors/vscode/package.json")).expect("package.json"))
            .expect("package.json is JSON");
    let readme = std::fs::read_to_string(repo.join("editors/vscode/README.md")).expect("README");
    let commands = manifest["contributes"]["commands"].as_array().expect("contributes.commands");
    assert!(commands.len() >= 3);
    for c in commands {
        let shown = format!("**Memory Index: {}**", c["title"].as_str().expect("title"));
        assert!(readme.contains(&shown), "editors/vscode/README.md does not document {shown}");
    }
}

/// A user without Rust is offered the release (package or installer) when the
/// server is missing, never only `cargo install`; an empty `server.path` is
/// documented as the bundled server first.
#[test]
fn the_vscode_missing_server_path_needs_no_rust() {
    let repo = support::repo();
    let ext = std::fs::read_to_string(repo.join("editors/vscode/src/extension.ts")).expect("extension.ts");
    assert!(!ext.contains("cargo install"), "the missing-server prompt must not send users to cargo");
    assert!(ext.contains("releases/latest") && ext.contains("installer.sh"), "offers the release and its installer");
    let readme = std::fs::read_to_string(repo.join("editors/vscode/README.md")).expect("README");
    let req =
        &readme[readme.find("## Requirements").expect("Requirements")..readme.find("## Settings").expect("Settings")];
    let (release, cargo) = (req.find("release page").expect("names the release page"), req.find("cargo install"));
    assert!(cargo.is_none_or(|c| c > release), "the release comes before cargo:\n{req}");
    assert!(readme.contains("the server inside the package, else `memory-index-lsp` on `PATH`"));
}

/// GitHub's and mdBook's anchor for a heading: lowercase, letters, digits,
/// `-` and `_` kept, spaces as `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let (mut out, mut current, mut inside) = (Vec::new(), String::new(), false);
    for e in Parser::new(text) {
        match e {
            Event::Start(Tag::Heading { .. }) => (inside, current) = (true, String::new()),
            Event::End(TagEnd::Heading(_)) => {
                inside = false;
                out.push(slug(&current));
            }
            Event::Text(t) | Event::Code(t) if inside => current.push_str(&t),
            _ => {}
        }
    }
    out
}

/// Every Markdown page a newcomer reads: the README, the docs (the mdBook's
/// sources) and the editors' READMEs.
fn pages() -> Vec<std::path::PathBuf> {
    let repo = support::repo();
    let mut out = vec![repo.join("README.md")];
    let mut todo = vec![repo.join("docs")];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("docs").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    for e in std::fs::read_dir(repo.join("editors")).expect("editors").flatten() {
        let readme = e.path().join("README.md");
        if readme.is_file() {
            out.push(readme);
        }
    }
    out.sort();
    out
}

/// Every link of the README, the docs and the editors' READMEs resolves: a
/// file of the repository (never `../shared/`, outside it), and a heading of
/// it when the link names one; other links go to public sites (https).
#[test]
fn every_link_resolves() {
    use pulldown_cmark::{Event, Parser, Tag};
    let repo = std::fs::canonicalize(support::repo()).expect("repo");
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        let here = page.parent().expect("folder");
        let rel = page.strip_prefix(&repo).unwrap_or(&page).display().to_string();
        for e in Parser::new(&text) {
            let dest = match e {
                Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => dest_url,
                _ => continue,
            };
            let dest = dest.to_string();
            if dest.starts_with("https://") || dest.starts_with("mailto:") {
                continue;
            }
            if dest.starts_with("http://") {
                broken.push(format!("{rel}: {dest} (use https)"));
                continue;
            }
            let (path, anchor) = dest.split_once('#').map_or((dest.as_str(), None), |(p, a)| (p, Some(a)));
            let target = if path.is_empty() { page.clone() } else { here.join(path) };
            let Ok(real) = std::fs::canonicalize(&target) else {
                broken.push(format!("{rel}: {dest} (no such file)"));
                continue;
            };
            if !real.starts_with(&repo) {
                broken.push(format!("{rel}: {dest} (outside the repository)"));
                continue;
            }
            if let (Some(a), true) = (anchor, real.extension().is_some_and(|x| x == "md")) {
                let text = std::fs::read_to_string(&real).expect("target");
                if !anchors(&text).iter().any(|h| h == a) {
                    broken.push(format!("{rel}: {dest} (no heading #{a})"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
