//! The recall instructions `init` keeps in an agent's instructions file (`AGENTS.md`, `GEMINI.md`, `.github/copilot-instructions.md`): one marked block, added once and updated in place.

/// The block's first and last lines; what lies between them is `init`'s.
/// (`import` reads the same markers, `recall::import::source::OWN_BLOCK_START` and `OWN_BLOCK_END`, and leaves the block out.)
pub const START: &str =
    "<!-- memory-index:start (written by `memory-index-lsp init`; it updates what lies between these lines) -->";
pub const END: &str = crate::recall::import::source::OWN_BLOCK_END;

/// The block for a memory whose index is `index`.
pub fn block(index: &str) -> String {
    format!(
        "{START}\n## Project memory\n\n\
This project records its decisions in `{index}` (one trigger per decision) and the decision files it \
indexes. Decisions that match a prompt, a command or an error are added to your context, each headed \
`[memory-index]` with how sure the match is: a decision applies to the situation its title names; follow it \
when your work is in that situation (there it overrides general habits) and set it aside when it is not. \
A line headed `[memory-index?]` names a decision that may apply without showing it: read it with the \
`memory-index-lsp resolve` command it names only if it applies to your task. \
The person's instruction of the moment wins; say so when the two conflict.\n\n\
- Before choosing how to do something (a library, a pattern, a test style, a workflow), recall what was \
decided: `memory-index-lsp resolve \"when <situation>\"` or `memory-index-lsp resolve \"how <task>\"`; \
`memory-index-lsp search <words>` lists the nearest decisions. The MCP server `memory-index` offers the \
same as tools (resolve, search, remember, check).\n\
- When the person settles something for this project (\"from now on …\", \"we decided …\", \"always\" or \
\"never …\"), record it: `memory-index-lsp remember --when \"Title\" --body-file - <<'BODY'` (`--how` for a \
procedure), then what they decided in their words (a reason only if they gave one), then `BODY`. Something \
you concluded yourself, propose to the person first. It refuses a decision the memory already holds and \
says which.\n{END}\n"
    )
}

/// `text` (None: the file is absent) with `block` in it: the marked block
/// replaced when there is one, else appended after a blank line, in the
/// file's line endings. Err when a start marker has no end marker.
pub fn upsert(text: Option<&str>, block: &str) -> Result<String, String> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else { return Ok(block.to_string()) };
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let block = block.replace('\n', nl);
    let start_marker = START.split(" (").next().unwrap_or(START);
    // The block as a whole line outside code (a mention in an example is the person's text).
    let blocks = crate::recall::import::source::own_blocks(text).map_err(|at| {
        let line = text[..at].matches('\n').count() + 1;
        format!("it has `{start_marker}` on line {line} without `{END}` after it: fix the block by hand")
    })?;
    match blocks.first() {
        Some(b) => {
            // The block's own line end is the file's: the text after it starts where it did.
            let tail = &text[b.end..];
            let block = if text[..b.end].ends_with(nl) { block } else { block.trim_end_matches(nl).to_string() };
            Ok(format!("{}{block}{tail}", &text[..b.start]))
        }
        None => {
            let sep = if text.ends_with(&format!("{nl}{nl}")) {
                String::new()
            } else if text.ends_with(nl) {
                nl.to_string()
            } else {
                format!("{nl}{nl}")
            };
            Ok(format!("{text}{sep}{block}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_leaves_the_block_out() {
        assert!(START.starts_with(crate::recall::import::source::OWN_BLOCK_START));
        let agents =
            upsert(Some("# Rules\n\n## Testing\n\nRun the tests.\n"), &block("agents/memory-index.md")).unwrap();
        let records = crate::recall::import::source::parse("AGENTS.md", &agents).unwrap();
        let titles: Vec<&str> = records.iter().map(|r| r.title.as_str()).collect();
        assert_eq!(titles, ["Testing"], "{agents}");
    }

    #[test]
    fn adds_once_then_updates_in_place() {
        let b = block("agents/memory-index.md");
        assert_eq!(upsert(None, &b).unwrap(), b);
        let mine = "# Agents\n\nRun `make test` before a commit.\n";
        let once = upsert(Some(mine), &b).unwrap();
        assert_eq!(once, format!("{mine}\n{b}"));
        assert_eq!(upsert(Some(&once), &b).unwrap(), once, "a second run changes nothing");
        // An older block is replaced; what surrounds it is kept byte for byte.
        let old = format!("{mine}\n{START}\nold words\n{END}\n\n## Later\nkept\n");
        let new = upsert(Some(&old), &b).unwrap();
        assert_eq!(new, format!("{mine}\n{b}\n## Later\nkept\n"));
    }

    #[test]
    fn keeps_crlf_and_refuses_an_unclosed_block() {
        let b = block("agents/memory-index.md");
        let crlf = upsert(Some("# A\r\nline\r\n"), &b).unwrap();
        assert!(
            crlf.starts_with("# A\r\nline\r\n\r\n<!-- memory-index:start") && !crlf.replace("\r\n", "").contains('\n')
        );
        let e = upsert(Some(&format!("x\n{START}\nhalf\n")), &b).unwrap_err();
        assert!(e.contains("on line 2 without `<!-- memory-index:end -->`"), "{e}");
    }

    /// Found by review (issue 52): the block was found by a substring search
    /// anywhere, so a file that only mentioned the marker (inline code, a
    /// fenced or indented example) lost the text after the mention. A
    /// mention is the person's text: kept byte for byte, the block added.
    #[test]
    fn a_marker_mentioned_in_code_is_the_persons_text() {
        let b = block("agents/memory-index.md");
        let inline =
            "# Agents\n\nInit writes `<!-- memory-index:start` by hand? No.\n\n## Testing\n\nKeep this line.\n";
        let fenced =
            format!("# Agents\n\n```markdown\n{START}\nexample\n{END}\n```\n\n## Testing\n\nKeep this line.\n");
        let indented = format!("# Agents\n\n    {START}\n    {END}\n\n## Testing\n\nKeep this line.\n");
        for mine in [inline.to_string(), fenced, indented] {
            let got = upsert(Some(&mine), &b).unwrap();
            assert_eq!(got, format!("{mine}\n{b}"), "{mine}");
            assert_eq!(upsert(Some(&got), &b).unwrap(), got, "a second run changes nothing");
        }
        // A fence never closed does not hide the block (found by review: one more on every run), and
        // an example in a list item's fence is the person's (found by review: it was replaced).
        let unclosed = "# Agents\n\n```bash\nmake test\n".to_string();
        let once = upsert(Some(&unclosed), &b).unwrap();
        assert_eq!(upsert(Some(&once), &b).unwrap(), once, "a second run changes nothing");
        let listed = format!("# Agents\n\n- ```md\n  {START}\n  Our custom notes.\n  {END}\n  ```\n");
        assert_eq!(upsert(Some(&listed), &b).unwrap(), format!("{listed}\n{b}"));
        // And import keeps the example's lines, leaving out only the real block.
        let example = format!("# Agents\n\n## Setup\n\nIt looks like:\n\n```\n{START}\nx\n{END}\n```\n");
        let text = upsert(Some(&example), &b).unwrap();
        let records = crate::recall::import::source::parse("AGENTS.md", &text).unwrap();
        assert_eq!(records.len(), 1, "{text}");
        assert!(records[0].decision.contains(START) && records[0].decision.contains("\nx\n"), "{:?}", records[0]);
        assert!(!records[0].decision.contains("Project memory"), "{:?}", records[0]);
    }
}
