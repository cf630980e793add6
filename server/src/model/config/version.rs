//! `min-version`: the oldest program a memory is meant for, read as numbers and compared with this one.

/// `1.2.3` (or `1.2`, `1`; a `v` before it and a `-pre` after it allowed)
/// as numbers to compare; None for anything else.
pub fn version(text: &str) -> Option<[u64; 3]> {
    let t = text.trim().trim_start_matches('v');
    let t = t.split(['-', '+']).next()?;
    let mut out = [0u64; 3];
    let parts: Vec<&str> = t.split('.').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for (slot, p) in out.iter_mut().zip(&parts) {
        *slot = p.parse().ok()?;
    }
    Some(out)
}

/// What a program of version `current` says of a memory asking for `min`
/// (`min-version`): None when it is as new or newer.
pub fn too_old(current: &str, min: Option<&str>) -> Option<String> {
    let min = min?;
    (version(current)? < version(min)?).then(|| {
        format!(
            "this project's memory asks for memory-index-lsp {min} or later (`min-version` in memory-index.toml), and \
this is {current}: update it (https://github.com/memory-index-lsp/memory-index-lsp#install); until then it reads the \
memory as {current} does"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_as_numbers() {
        assert_eq!(version("0.10.2"), Some([0, 10, 2]));
        assert_eq!(version("v1.2"), Some([1, 2, 0]));
        assert_eq!(version("2.0.0-rc.1"), Some([2, 0, 0]));
        assert_eq!(version("latest"), None);
        assert_eq!(version("1.2.3.4"), None);
        assert!(too_old("0.9.0", Some("0.10.0"))
            .is_some_and(|m| m.contains("0.10.0 or later") && m.contains("this is 0.9.0")));
        assert_eq!(too_old("0.10.0", Some("0.10.0")), None);
        assert_eq!(too_old("0.10.0", None), None);
        assert_eq!(too_old("0.1.0", Some("nonsense")), None);
    }
}
