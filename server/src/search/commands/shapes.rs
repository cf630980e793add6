//! A command's shape (its program, sub-command and flags) as a `cmd:` term: what a decision's code span runs, and every shape a command runs, so a decision that names `git branch -m` meets `git branch -m old new`.

use rustc_hash::FxHashSet as HashSet;

use super::segments;

/// Most flags of one command whose combinations [`run_shapes`] tries.
pub const SHAPE_FLAGS: usize = 6;

/// The shape of each command a decision's code span runs, as a `cmd:` term:
/// its program, its sub-command and all its flags (`git -C <submodule> log
/// --oneline` is `cmd:git log --oneline -C`). A span without a flag names a
/// program, not a way of running it (`git show`); one with more than
/// [`SHAPE_FLAGS`] flags, a script no command is matched against.
pub fn span_shapes(text: &str, out: &mut HashSet<String>) {
    for seg in segments(text) {
        let Some(program) = seg.program else { continue };
        let flags = shape_flags(&seg.flags);
        if !flags.is_empty() && flags.len() <= SHAPE_FLAGS {
            out.insert(shape(program, seg.sub, &flags));
        }
    }
}

/// The shapes a command runs (see [`span_shapes`]): its program with every
/// combination of its flags, with and without its sub-command, so a
/// decision that names `git branch -m` meets `git branch -m old new`, and
/// one that names `git -C <submodule> log --oneline` does not meet `git log
/// --oneline -5`. Only flags some decision names count (`named(program,
/// flag)`), the first [`SHAPE_FLAGS`] of them as typed; at most `budget`
/// shapes are added, and the budget is lowered by as many.
pub fn run_shapes(text: &str, named: &dyn Fn(&str, &str) -> bool, budget: &mut usize, out: &mut HashSet<String>) {
    for seg in segments(text) {
        let Some(program) = seg.program else { continue };
        let mut typed: Vec<&str> = Vec::new();
        for f in seg.flags.iter().filter(|f| **f != "--") {
            if typed.len() < SHAPE_FLAGS && !typed.contains(f) && named(program, f) {
                typed.push(f);
            }
        }
        for mask in 1u32..(1 << typed.len()) {
            let some: Vec<&str> =
                typed.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, f)| *f).collect();
            let some = shape_flags(&some);
            let subs: &[Option<&str>] = if seg.sub.is_some() { &[None, seg.sub] } else { &[None] };
            for &sub in subs {
                if *budget == 0 {
                    return;
                }
                if out.insert(shape(program, sub, &some)) {
                    *budget -= 1;
                }
            }
        }
    }
}

/// A command's flags as a shape has them: sorted, each once, without the end of options (`--`).
fn shape_flags<'a>(flags: &[&'a str]) -> Vec<&'a str> {
    let mut f: Vec<&str> = flags.iter().copied().filter(|f| *f != "--").collect();
    f.sort_unstable();
    f.dedup();
    f
}

/// `cmd:` + the program, the sub-command if any, and the (sorted) flags.
fn shape(program: &str, sub: Option<&str>, flags: &[&str]) -> String {
    let mut s = format!("cmd:{program}");
    for w in sub.iter().chain(flags) {
        s.push(' ');
        s.push_str(w);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::commands::MAX_SHAPES;

    fn sorted(set: HashSet<String>) -> Vec<String> {
        let mut v: Vec<String> = set.into_iter().collect();
        v.sort();
        v
    }

    fn span(s: &str) -> Vec<String> {
        let mut set = HashSet::default();
        span_shapes(s, &mut set);
        sorted(set)
    }

    /// The shapes `s` runs when every flag is one some decision names, or only `known` ones.
    fn runs(s: &str, known: Option<&[&str]>) -> Vec<String> {
        let (mut set, mut budget) = (HashSet::default(), MAX_SHAPES);
        run_shapes(s, &|_, f| known.is_none_or(|k| k.contains(&f)), &mut budget, &mut set);
        sorted(set)
    }

    #[test]
    fn a_span_gives_its_shape_and_a_command_every_shape_it_runs() {
        assert_eq!(span("git -C <submodule> log --oneline"), ["cmd:git log --oneline -C"]);
        assert_eq!(span("git clean -fd -- <dirs>"), ["cmd:git clean -fd"]);
        assert!(span("git show <branch>:<path>").is_empty(), "no flag, no shape");
        assert!(span("git log -a -b -c -d -e -f -g").is_empty(), "more flags than a command is matched on");
        assert_eq!(runs("git branch -m a b && test -f x.md", None), ["cmd:git -m", "cmd:git branch -m", "cmd:test -f"]);
        let many = runs("git log --oneline -5 --since=x", None);
        assert!(many.contains(&"cmd:git log --oneline --since".into()) && many.len() == 14, "{many:?}");
        // Only flags a decision names count, the first six of them as typed.
        let wide = runs("pytest -q -s -v -k foo -p no:cov --tb=short --lf -x", Some(&["-x", "--lf"]));
        let without_sub: Vec<&String> = wide.iter().filter(|s| !s.contains("foo")).collect();
        assert_eq!(without_sub, ["cmd:pytest --lf", "cmd:pytest --lf -x", "cmd:pytest -x"], "{wide:?}");
        let typed = runs("ls -j -i -h -g -f -e -d -c -b -a", None);
        assert_eq!(typed.len(), (1 << SHAPE_FLAGS) - 1, "bounded");
        assert!(typed.contains(&"cmd:ls -e -f -g -h -i -j".into()), "the first six typed: {typed:?}");
        // The budget holds over every command of a text.
        let line = (0..400).map(|i| format!("a{i} -b -c -d -e -f -g")).collect::<Vec<_>>().join("; ");
        let (mut set, mut budget) = (HashSet::default(), MAX_SHAPES);
        run_shapes(&line, &|_, _| true, &mut budget, &mut set);
        assert_eq!((set.len(), budget), (MAX_SHAPES, 0));
    }
}
