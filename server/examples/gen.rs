//! `cargo run --example gen -- --entries N --files F --seed S DIR`: writes a generated workspace to DIR.

#[path = "../tests/it/support/gen.rs"]
mod gen;

use std::fs;
use std::path::Path;

fn usage_error(message: &str) -> i32 {
    eprintln!("gen: {message}\nusage: cargo run --example gen -- [--entries N] [--files F] [--seed S] DIR");
    2
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(run(&args));
}

/// Runs `gen`; returns the exit code.
fn run(args: &[String]) -> i32 {
    let (mut entries, mut files, mut seed, mut dir) = (400usize, None, 1u64, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num =
            |what: &str| it.next().and_then(|v| v.parse::<u64>().ok()).ok_or(format!("{what} needs a number"));
        let parsed = match a.as_str() {
            "--entries" => num("--entries").map(|n| entries = n as usize),
            "--files" => num("--files").map(|n| files = Some(n as usize)),
            "--seed" => num("--seed").map(|n| seed = n),
            s if !s.starts_with('-') && dir.is_none() => {
                dir = Some(s.to_string());
                Ok(())
            }
            s => Err(format!("unexpected argument `{s}`")),
        };
        if let Err(e) = parsed {
            return usage_error(&e);
        }
    }
    let Some(dir) = dir else { return usage_error("gen needs a target DIR") };
    let files = files.unwrap_or(entries.div_ceil(20).max(1));
    for (path, text) in gen::generate(entries, files, seed) {
        let p = Path::new(&dir).join(path);
        if let Err(e) = p.parent().map_or(Ok(()), fs::create_dir_all).and_then(|_| fs::write(&p, text)) {
            return usage_error(&format!("cannot write {}: {e}", p.display()));
        }
    }
    0
}
