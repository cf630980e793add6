//! `memory-index-lsp embed [--root DIR] [--quiet]`: the decisions' vectors for semantic recall, computed and kept (`project::semantic`).
//!
//! Fetches the model first when it is not there (`project::semantic::fetch`).
//! Exit 0 when every section has a vector (or another `embed` is already
//! computing them); 1 when the model cannot be fetched or loaded, with what to do.

use super::args::EmbedArgs;
use crate::project::semantic::{embed_lock, fetch, fetches_into, model_missing, Tier, MODEL_ENV};

/// Runs `embed`; returns the exit code.
pub fn run(a: EmbedArgs) -> i32 {
    let (root, ws) = match super::load_project(a.root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let say = |s: &str| {
        if !a.quiet {
            println!("{s}");
        }
    };
    let fail = |s: &str| {
        if !a.quiet {
            eprintln!("memory-index-lsp embed: {s}");
        }
        1
    };
    let start = std::time::Instant::now();
    // One `embed` at a time (the hook may start several): the others have nothing to do.
    let Some(_lock) = embed_lock() else {
        say("another `memory-index-lsp embed` is fetching the model or computing vectors; nothing to do");
        return 0;
    };
    if let Some(dir) = model_missing(&ws, &root) {
        if !fetches_into(&dir) {
            return fail(&format!(
                "no semantic model in {} (the folder [recall] model or ${MODEL_ENV} names; only the default folder \
is fetched into): put all-MiniLM-L6-v2's config.json, tokenizer.json and model.safetensors there",
                dir.display()
            ));
        }
        say(&format!("fetching all-MiniLM-L6-v2 (87 MB) into {} ...", dir.display()));
        if let Err(e) = fetch::fetch(&dir) {
            return fail(&e);
        }
    }
    let tier = match Tier::open(&ws, &root, true) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let n = tier.embed_all(&ws);
    tier.save(&ws);
    say(&format!("embedded {n} decision sections in {:.1} s (the others had vectors)", start.elapsed().as_secs_f64()));
    0
}
