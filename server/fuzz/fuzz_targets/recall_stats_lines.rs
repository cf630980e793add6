//! Fuzz target: any transcript bytes, read line by line with a line limit, count without a panic and never hand over a longer line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::model::{config::Config, Workspace};
use memory_index_lsp::project::read::{lines, Line};
use memory_index_lsp::project::transcript::Session;

fuzz_target!(|data: &[u8]| {
    let max_line = 64;
    let mut session = Session::new("fuzz");
    let mut handed = 0usize;
    let whole = lines(data, max_line, 1 << 20, |l| match l {
        Line::Text(t) => {
            assert!(t.len() <= max_line * 3, "a line over the limit was handed over");
            assert!(!t.contains('\n'));
            handed += 1;
            session.line(t);
        }
        Line::TooLong(n) => {
            assert!(n > max_line);
            handed += 1;
            session.skipped_line();
        }
    })
    .expect("reading a slice never fails");
    assert!(whole);
    assert!(handed <= data.iter().filter(|&&b| b == b'\n').count() + 1);
    let stats = session.finish(&Workspace::new(Config::default()), 0.5);
    assert!(stats.reached <= stats.opportunities && stats.opportunities <= stats.prompts);
});
