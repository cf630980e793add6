//! Fuzz target: any text read as an import source (a rules file, an ADR) parses and plans into a small memory without panicking, and `init`'s block scanner reads it without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::model::{Config, FileText, Workspace};
use memory_index_lsp::recall::import::{plan, source, Options};

fuzz_target!(|text: &str| {
    if let Ok(blocks) = source::own_blocks(text) {
        assert!(blocks.iter().all(|b| b.start < b.end && b.end <= text.len()));
    }
    let _ = source::without_own_block(text);
    let _ = memory_index_lsp::text::lone_cr_as_lf(text);
    let mut ws = Workspace::new(Config::default());
    ws.set_file("agents/memory-index.md", FileText::from("# Memory Index\n"));
    for path in ["CLAUDE.md", "docs/adr/0001-x.md", ".cursor/rules/x.mdc"] {
        if let Ok(records) = source::parse(path, text) {
            let _ = plan(&ws, records, &Options::default());
        }
    }
});
