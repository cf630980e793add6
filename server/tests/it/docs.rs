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

/// The README's `[recall]` example shows the defaults: copied as it is, it changes nothing.
#[test]
fn the_readmes_recall_example_is_the_defaults() {
    let readme = std::fs::read_to_string(support::repo().join("README.md")).expect("README");
    let start = readme.find("[recall]              # the defaults").expect("the [recall] example");
    let block = &readme[start..start + readme[start..].find("```").expect("end of the block")];
    let (cfg, errors) = memory_index_lsp::rules::config_from_text(block);
    assert!(errors.is_empty(), "{errors:?}");
    let defaults = memory_index_lsp::model::Config::default();
    assert_eq!(format!("{:?}", cfg.recall), format!("{:?}", defaults.recall), "{block}");
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
