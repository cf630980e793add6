//! Output conventions of `init` and `import`: results on stdout, notes and what needs the person on stderr, `--quiet`.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::support::{bin_in, run_with_stdin};

fn run(root: &Path, args: &[&str]) -> Output {
    let mut c = bin_in(root);
    c.args(args);
    run_with_stdin(c, b"")
}

/// Output conventions: what was done goes to stdout (a script can read it),
/// notes and what needs the person to stderr; `--quiet` drops the notes and
/// keeps what needs the person.
#[test]
fn results_go_to_stdout_notes_to_stderr_and_quiet_keeps_only_what_needs_you() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    let o = run(root, &["init"]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("created agents/memory-index.md") && !err.contains("created agents/"), "{out}\n--\n{err}");
    let o = run(root, &["init", "--quiet"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("already set up")
            && !String::from_utf8_lossy(&o.stderr).contains("note:")
    );
    fs::create_dir_all(root.join("docs/adr")).expect("adr");
    fs::write(root.join("docs/adr/0001-use-postgres.md"), "# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use Postgres.\n\n## Implementation notes\n\nSee the wiki.\n").expect("adr");
    fs::write(
        root.join("docs/adr/0002-use-mysql.md"),
        "# 2. Use MySQL\n\n## Status\n\nSuperseded by 1\n\n## Decision\n\nMySQL.\n",
    )
    .expect("adr");
    let o = run(root, &["import", "docs/adr", "--dry-run"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("--- a/")
            || String::from_utf8_lossy(&o.stdout).contains("+++ b/"),
        "a dry run's stdout is the diff"
    );
    let o = run(root, &["import", "docs/adr"]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("imported: When Using Postgres") && out.contains("1 new, 0 updated"), "{out}\n--\n{err}");
    assert!(err.contains("skipped") && err.contains("left out") && !err.contains("imported:"), "{out}\n--\n{err}");
    fs::write(root.join("docs/adr/0001-use-postgres.md"), "# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use Postgres 16.\n\n## Implementation notes\n\nSee the wiki.\n").expect("adr");
    let o = run(root, &["import", "docs/adr", "--quiet"]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("updated: When Using Postgres"), "{out}");
    assert!(!err.contains("left out") && err.contains("skipped"), "quiet keeps what needs you: {err}");
}
