//! Codex's project configuration, `.codex/config.toml`, edited with a TOML syntax tree (`toml_edit`): `[mcp_servers.memory-index]` and `features.hooks = true` added where missing; comments, layout and key order kept, a byte-order mark too, and the line end most of the file's lines have (toml_edit prints LF).

use std::io::Write;

use toml_edit::{value, Array, DocumentMut, InlineTable, Item, Table};

use super::Files;

/// Where Codex reads a project's settings.
const REL: &str = ".codex/config.toml";

/// `.codex/config.toml` with `[mcp_servers.memory-index]` (unless a server
/// there runs `memory-index-lsp mcp`) and `hooks = true` in `features`
/// (unless `features.hooks` is set there): a table of its own for each when
/// the file has none, else a key in the one it has (a `[features]` table,
/// a dotted `features.x = …` or an inline `features = { … }`). A malformed
/// file is refused with its line and column; one whose `mcp_servers` or
/// `features` is not a table is said and left as it is.
pub(super) fn config(files: &mut Files) -> Result<(), String> {
    let old = files.current(REL)?.unwrap_or_default();
    match edited(&old)? {
        Some((new, what)) => files.set(REL, new, &what.join(", ")),
        None => Ok(()),
    }
}

/// The settings `old` with what [`config`] adds, and what that is; None when nothing is missing.
/// A byte-order mark and the file's line endings are kept; the result is read back before it is given.
fn edited(old: &str) -> Result<Option<(String, Vec<&'static str>)>, String> {
    let bom = if old.starts_with('\u{feff}') { "\u{feff}" } else { "" };
    let body = &old[bom.len()..];
    let mut doc: DocumentMut =
        body.parse().map_err(|e: toml_edit::TomlError| format!("{REL}: {}", toml_error(body, &e)))?;
    let comments_only = doc.as_table().is_empty() && !body.trim().is_empty();
    if comments_only {
        // toml_edit keeps a file of comments alone as the document's end, printed after new tables.
        doc = DocumentMut::new();
    }
    let what = edit(&mut doc)?;
    if what.is_empty() {
        return Ok(None);
    }
    let added = doc.to_string();
    let text = if comments_only {
        let sep = if body.ends_with("\n\n") {
            ""
        } else if body.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        format!("{body}{sep}{added}")
    } else {
        added
    };
    let new = format!("{bom}{}", with_line_ends(&text, body));
    new[bom.len()..].parse::<toml::Table>().map_err(|e| {
        format!(
            "{REL}: the edit would not read back ({}); add by hand: [mcp_servers.memory-index] command = \"memory-index-lsp\", args = [\"mcp\"], and [features] hooks = true",
            e.message().trim()
        )
    })?;
    Ok(Some((new, what)))
}

/// Adds what is missing to `doc`; what it added.
fn edit(doc: &mut DocumentMut) -> Result<Vec<&'static str>, String> {
    let mut what = Vec::new();
    if add_server(doc)? {
        what.push("the MCP server `memory-index`");
    }
    if hooks_on(doc) {
        what.push("hooks turned on");
    }
    Ok(what)
}

/// Adds our server to `mcp_servers` unless one there runs `memory-index-lsp
/// mcp`; Err when the name `memory-index` runs something else.
fn add_server(doc: &mut DocumentMut) -> Result<bool, String> {
    let servers = doc.get("mcp_servers").and_then(Item::as_table_like);
    if servers.is_some_and(|t| t.iter().any(|(_, s)| runs_ours(s))) {
        return Ok(false);
    }
    if servers.is_some_and(|t| t.contains_key("memory-index")) {
        return Err(format!("{REL}: `mcp_servers.memory-index` runs another command; rename it, then run init again"));
    }
    let first_table = doc.iter().next().is_none();
    let servers = doc.entry("mcp_servers").or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    let args = Array::from_iter(["mcp"]);
    match servers {
        Item::Table(t) => {
            let mut ours = Table::new();
            ours.insert("command", value("memory-index-lsp"));
            ours.insert("args", value(args));
            if !first_table {
                ours.decor_mut().set_prefix("\n");
            }
            t.insert("memory-index", Item::Table(ours));
        }
        Item::Value(toml_edit::Value::InlineTable(t)) => {
            let mut ours = InlineTable::new();
            ours.insert("command", "memory-index-lsp".into());
            ours.insert("args", toml_edit::Value::Array(args));
            t.insert("memory-index", toml_edit::Value::InlineTable(ours));
        }
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "{REL}: `mcp_servers` is not a table; add the server by hand: [mcp_servers.memory-index] command = \"memory-index-lsp\", args = [\"mcp\"]"
            );
            return Ok(false);
        }
    }
    Ok(true)
}

/// Sets `features.hooks = true` unless `features.hooks` is set (false is said: Codex then runs no hook).
fn hooks_on(doc: &mut DocumentMut) -> bool {
    match doc.get("features").and_then(|f| f.get("hooks")) {
        Some(v) if v.as_bool() == Some(false) => {
            let _ = writeln!(std::io::stderr(), "{REL} sets `features.hooks = false`: Codex will not run the hooks");
            return false;
        }
        Some(_) => return false,
        None => {}
    }
    let first_table = doc.iter().next().is_none();
    let features = doc.entry("features").or_insert_with(|| {
        let mut t = Table::new();
        if !first_table {
            t.decor_mut().set_prefix("\n");
        }
        Item::Table(t)
    });
    match features.as_table_like_mut() {
        Some(t) => {
            t.insert("hooks", value(true));
            true
        }
        None => {
            let _ = writeln!(std::io::stderr(), "{REL}: add `hooks = true` to its `features` so Codex runs the hooks");
            false
        }
    }
}

/// Whether the server `s` runs `memory-index-lsp mcp` (by name or path).
fn runs_ours(s: &Item) -> bool {
    let program = s.get("command").and_then(Item::as_str).unwrap_or("");
    let first = s.get("args").and_then(Item::as_array).and_then(|a| a.get(0)).and_then(toml_edit::Value::as_str);
    (program == "memory-index-lsp" || program.ends_with("/memory-index-lsp")) && first == Some("mcp")
}

/// `new` with the line end most lines of `old` have: toml_edit writes every
/// line it prints with LF, so a CRLF file is given CRLF throughout (and a
/// file of mixed line ends the one most of its lines have).
fn with_line_ends(new: &str, old: &str) -> String {
    let crlf = old.matches("\r\n").count() * 2 > old.matches('\n').count();
    if !crlf {
        return new.to_string();
    }
    let mut out = String::with_capacity(new.len() + new.len() / 20);
    let mut prev = '\0';
    for c in new.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// A TOML error as `line L, column C: message`.
fn toml_error(text: &str, e: &toml_edit::TomlError) -> String {
    let message = e.message().trim().to_string();
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: not valid TOML ({message})")
        }
        None => format!("not valid TOML ({message})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new(old: &str) -> String {
        edited(old).unwrap().unwrap().0
    }

    #[test]
    fn an_empty_file_gets_both_tables() {
        assert_eq!(
            new(""),
            "[mcp_servers.memory-index]\ncommand = \"memory-index-lsp\"\nargs = [\"mcp\"]\n\n[features]\nhooks = true\n"
        );
        // Then nothing is missing: a second run changes nothing.
        assert_eq!(edited(&new("")).unwrap(), None);
    }

    #[test]
    fn every_byte_of_the_file_is_kept_crlf_and_comments_included() {
        let old = "# team settings\r\nmodel = \"o4\"  # pinned\r\n\r\n[features] # ours\r\nweb_search = true\r\n\r\n[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\n";
        let out = new(old);
        assert!(out.starts_with("# team settings\r\nmodel = \"o4\"  # pinned\r\n\r\n[features] # ours\r\nweb_search = true\r\nhooks = true\r\n"), "{out}");
        assert!(out.contains("[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\n"), "{out}");
        assert!(
            out.ends_with("\r\n[mcp_servers.memory-index]\r\ncommand = \"memory-index-lsp\"\r\nargs = [\"mcp\"]\r\n"),
            "{out}"
        );
        assert!(!out.replace("\r\n", "").contains('\n'), "only CRLF line ends: {out:?}");
        let t: toml::Table = out.parse().unwrap();
        assert_eq!(t["features"]["hooks"].as_bool(), Some(true));
    }

    #[test]
    fn inline_and_dotted_tables_get_their_key_where_they_are() {
        let out = new("features.web_search = true\nmcp_servers = { docs = { command = \"docs-mcp\" } }\n");
        let t: toml::Table = out.parse().unwrap();
        assert_eq!(t["features"]["hooks"].as_bool(), Some(true), "{out}");
        assert_eq!(t["mcp_servers"]["memory-index"]["command"].as_str(), Some("memory-index-lsp"), "{out}");
        assert_eq!(t["mcp_servers"]["docs"]["command"].as_str(), Some("docs-mcp"), "{out}");
        assert!(out.starts_with("features.web_search = true\nfeatures.hooks = true\n"), "{out}");
    }

    /// Found by review: a byte-order mark was dropped, and a file of comments alone printed them after our tables.
    #[test]
    fn a_byte_order_mark_and_a_file_of_comments_alone_stay_first() {
        let out = new("\u{feff}model = \"o4\"\n");
        assert!(out.starts_with("\u{feff}model = \"o4\"\n\n[mcp_servers.memory-index]"), "{out:?}");
        let out = new("# team settings\n");
        assert!(out.starts_with("# team settings\n\n[mcp_servers.memory-index]\n"), "{out:?}");
        assert!(out.ends_with("[features]\nhooks = true\n"), "{out:?}");
        // Mixed line ends: the one most lines have.
        assert!(new("a = 1\r\nb = 2\n\nc = 3\n").starts_with("a = 1\nb = 2\n\nc = 3\n\n["));
        assert!(new("a = 1\r\nb = 2\r\nc = 3\n").starts_with("a = 1\r\nb = 2\r\nc = 3\r\n\r\n["));
    }

    #[test]
    fn hooks_turned_off_and_a_server_of_ours_are_left_alone() {
        let old = "[features]\nhooks = false\n\n[mcp_servers.mine]\ncommand = \"/opt/bin/memory-index-lsp\"\nargs = [\"mcp\"]\n";
        assert_eq!(edited(old).unwrap(), None);
        let taken = "[mcp_servers.memory-index]\ncommand = \"other\"\n";
        assert!(edited(taken).unwrap_err().contains("runs another command"));
        assert!(edited("model = \"o4\"\n[mcp_servers\n").unwrap_err().contains("line 2, column"));
    }
}
