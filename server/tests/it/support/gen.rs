//! A realistic generated workspace for tests and benchmarks (dev-only: not in the shipped binary).
//!
//! Included by path where needed: the library's unit tests (`testkit`),
//! the integration tests (`support::gen`), the benchmarks and the `gen`
//! example (`cargo run --example gen -- --entries N --files F --seed S DIR`
//! writes one to disk).
//!
//! Decision files with an H1, an intro, structural groups (`## .Group`) of
//! semantic `### When …`/`### How to …` headings with bodies and fenced code
//! (including `# comment` lines), and an index with one entry per heading,
//! most with extras. About one entry in a hundred carries a problem (typo
//! orphan, misplaced, swapped order, duplicate, empty extra, legacy line), so
//! every rule has work. Deterministic for a given seed; [`generate`] is pure
//! so benchmarks build workspaces in memory.

use std::collections::HashSet;

const WORDS: &[&str] = &[
    "writing",
    "mock",
    "tests",
    "encode",
    "paths",
    "review",
    "gates",
    "merge",
    "worktree",
    "session",
    "cache",
    "index",
    "parser",
    "schema",
    "migration",
    "deploy",
    "rollback",
    "queue",
    "retry",
    "budget",
    "latency",
    "token",
    "prompt",
    "agent",
    "skill",
    "hook",
    "commit",
    "branch",
    "rebase",
    "conflict",
    "fixture",
    "factory",
    "snapshot",
    "golden",
    "config",
    "secret",
    "credential",
    "logging",
    "tracing",
    "metric",
    "alert",
    "incident",
    "runbook",
    "release",
    "version",
    "changelog",
    "license",
    "vendor",
    "dependency",
    "upgrade",
    "lockfile",
    "build",
    "compile",
    "link",
    "format",
    "lint",
    "style",
    "naming",
    "module",
    "package",
    "import",
    "export",
    "boundary",
    "layer",
    "adapter",
    "port",
    "handler",
    "request",
    "response",
    "header",
    "cookie",
    "session",
    "timeout",
    "deadline",
    "cancel",
    "stream",
    "buffer",
    "chunk",
    "encoding",
    "unicode",
    "newline",
    "escape",
    "quote",
    "template",
    "render",
    "output",
    "error",
    "warning",
    "exit",
    "code",
    "signal",
    "process",
    "thread",
    "async",
    "await",
    "lock",
    "mutex",
    "channel",
    "batch",
    "scheduler",
    "cron",
    "window",
    "shard",
    "replica",
    "backup",
    "restore",
    "archive",
    "purge",
    "expire",
    "hold",
    "price",
    "currency",
    "rounding",
    "timezone",
    "calendar",
    "locale",
    "translation",
    "search",
    "ranking",
    "fuzzy",
    "stemming",
    "query",
    "filter",
    "sort",
    "page",
    "cursor",
    "offset",
    "limit",
    "quota",
    "throttle",
    "partner",
    "client",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
}

/// Generates `(relative path, text)` pairs: the index and `files` decision files.
pub fn generate(entries: usize, files: usize, seed: u64) -> Vec<(String, String)> {
    let files = files.max(1);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut seen = HashSet::new();
    let mut triggers: Vec<(bool, String)> = Vec::with_capacity(entries);
    while triggers.len() < entries {
        let n = 3 + rng.below(4);
        let words: Vec<&str> = (0..n).map(|_| rng.word()).collect();
        let t = format!("{} {}", words.join(" "), triggers.len() % 997);
        if seen.insert(t.clone()) {
            triggers.push((rng.below(3) == 0, t));
        }
    }
    let per_file = entries.div_ceil(files);
    let mut out = Vec::with_capacity(files + 1);
    let mut index = String::from("# Memory Index\n\nGenerated workspace. Invoke `/when` or `/how` to recall.\n\n**Invocation:**\n/when <trigger>\n");
    for f in 0..files {
        let path = format!("agents/decisions/topic-{f:04}.md");
        let chunk = &triggers[(f * per_file).min(entries)..((f + 1) * per_file).min(entries)];
        let mut doc = format!("# Topic {f}\n\nDecisions about topic {f}.\n");
        let mut lines: Vec<String> = Vec::new();
        for (i, (how, t)) in chunk.iter().enumerate() {
            if i % 8 == 0 {
                doc.push_str(&format!("\n## .Group {}\n", i / 8));
            }
            let title = if *how { format!("How to {}", title_case(t)) } else { format!("When {}", title_case(t)) };
            doc.push_str(&format!(
                "\n### {title}\n\n**Decision:** {} {} {}, so that {} {} {} stays {}.\n\n",
                rng.word(),
                rng.word(),
                rng.word(),
                rng.word(),
                rng.word(),
                rng.word(),
                rng.word()
            ));
            if i % 5 == 0 {
                doc.push_str("```python\n# a comment that is not a heading\nvalue = compute()\n```\n");
            } else {
                doc.push_str(&format!("Rationale: {} before {}.\n", rng.word(), rng.word()));
            }
            let op = if *how { "/how" } else { "/when" };
            let extras = if rng.below(2) == 0 {
                format!(" | {} {} {f}x{i}, {} {} {f}y{i}", rng.word(), rng.word(), rng.word(), rng.word())
            } else {
                String::new()
            };
            let mut line = format!("{op} {t}{extras}");
            match rng.below(100) {
                0 => line = format!("{op} {}x{extras}", t), // typo: orphan entry
                1 => line.push_str(",,"),                   // empty extra
                2 => lines.push(line.clone()),              // duplicate entry
                3 => lines.push(format!("{} — legacy description", t)),
                _ => {}
            }
            lines.push(line);
        }
        if lines.len() > 3 && rng.below(10) == 0 {
            lines.swap(1, 2); // unordered section
        }
        index.push_str(&format!("\n## {path}\n\n{}\n", lines.join("\n")));
        out.push((path, doc));
    }
    out.insert(0, ("agents/memory-index.md".to_string(), index));
    out
}

fn title_case(t: &str) -> String {
    t.split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        })
        .collect::<Vec<String>>()
        .join(" ")
}
