//! An ADR's words in the languages records are written in: the names of its sections, its states, the state a status history ends in, and the sections its record leaves out.

/// A status section's names.
pub(super) const STATUS: &[&str] = &["Status", "Statut", "Estado", "Stand", "ステータス", "状態", "状态"];
/// A context section's names.
pub(super) const CONTEXT: &[&str] = &[
    "Context",
    "Context and Problem Statement",
    "Kontext",
    "Contexte",
    "Contexto",
    "Hintergrund",
    "背景",
    "コンテキスト",
];
/// What a record decided: its section's names.
pub(super) const DECIDED: &[&str] = &[
    "Decision",
    "Decisions",
    "Proposal",
    "Proposed Solution",
    "Solution",
    "Outcome",
    "Entscheidung",
    "Décision",
    "Decisión",
    "Decisão",
    "決定",
    "决定",
    "决策",
];
/// A consequences section's names.
pub(super) const CONSEQUENCES: &[&str] = &[
    "Consequences",
    "Konsequenzen",
    "Folgen",
    "Conséquences",
    "Consecuencias",
    "Consequências",
    "結果",
    "影響",
    "影响",
    "后果",
];

/// Why a record with this status is not in force (None: it is): superseded,
/// rejected, deprecated, only proposed, … in English, German, French,
/// Spanish, Portuguese, Japanese or Chinese (found by review: a German
/// record "Ersetzt durch" its successor was imported as in force). The
/// status word decides, then the rest: `Deprecated (no superseding ADR)`
/// is deprecated, `Accepted (supersedes 3)` accepted.
pub fn inactive(status: &str) -> Option<&'static str> {
    let s = without_struck(status).to_lowercase();
    let first: String = s.chars().take_while(|c| c.is_alphabetic()).collect();
    const TABLE: &[(&str, &str)] = &[
        ("supersed", "superseded"),
        ("ersetzt durch", "superseded"),
        ("abgelöst", "superseded"),
        ("remplacé", "superseded"),
        ("reemplazad", "superseded"),
        ("sustituid", "superseded"),
        ("substituíd", "superseded"),
        ("置き換え", "superseded"),
        ("取代", "superseded"),
        ("revert", "reverted"),
        ("reject", "rejected"),
        ("abgelehnt", "rejected"),
        ("rejeté", "rejected"),
        ("rechazad", "rejected"),
        ("rejeitad", "rejected"),
        ("却下", "rejected"),
        ("拒绝", "rejected"),
        ("deprecat", "deprecated"),
        ("veraltet", "deprecated"),
        ("déprécié", "deprecated"),
        ("obsolet", "obsolete"),
        ("廃止", "deprecated"),
        ("废弃", "deprecated"),
        ("withdrawn", "withdrawn"),
        ("propos", "only proposed"),
        ("vorgeschlagen", "only proposed"),
        ("提案", "only proposed"),
        ("提议", "only proposed"),
        ("pending", "pending"),
        ("draft", "a draft"),
        ("entwurf", "a draft"),
        ("brouillon", "a draft"),
        ("borrador", "a draft"),
        ("rascunho", "a draft"),
    ];
    let by = |text: &str| TABLE.iter().find(|(k, _)| text.contains(k)).map(|(_, why)| *why);
    if ACCEPTED.iter().any(|a| first == *a || s.starts_with(a)) {
        return None;
    }
    by(&first).or_else(|| by(&s))
}

/// States that say a record is in force.
const ACCEPTED: &[&str] = &[
    "accepted",
    "approved",
    "adopted",
    "akzeptiert",
    "angenommen",
    "beschlossen",
    "accepté",
    "adopté",
    "aceptado",
    "aprobado",
    "aceito",
    "aprovado",
    "承認",
    "採用",
    "已接受",
    "接受",
];

/// A record's relation to another, which changes nothing of its own state
/// (`Supersedes [3]`, `Amended by [4]`): a status history lists them among
/// its states.
const RELATIONS: &[&str] = &[
    "supersedes",
    "amends",
    "amended by",
    "refines",
    "refined by",
    "clarifies",
    "clarified by",
    "extends",
    "extended by",
    "relates to",
    "related to",
    "see ",
    "ersetzt [",
    "ersetzt adr",
    "ergänzt",
    "remplace [",
    "remplace l",
    "reemplaza [",
    "substitui [",
];

/// The state a status section ends in: its last line that states one (a
/// history `Proposed`, `Accepted`, `Superseded by [11]` ends superseded;
/// `Accepted`, `Supersedes [3]` accepted), without struck-out words
/// (`~~Proposed~~ Accepted`); else its first line (found by review: the
/// first line alone read an accepted record as proposed, and a superseded
/// one as accepted).
pub(super) fn last_state(section: &str) -> Option<String> {
    let lines: Vec<String> = section
        .lines()
        .map(|l| without_struck(l.trim().trim_start_matches(['*', '-', '+']).trim()).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let states = |l: &&String| {
        let lower = l.to_lowercase().replace("**", "");
        !RELATIONS.iter().any(|r| lower.starts_with(r))
            && (inactive(l).is_some() || ACCEPTED.iter().any(|a| lower.starts_with(a)))
    };
    lines.iter().rfind(states).or(lines.first()).cloned()
}

/// The sections of an ADR (`## ` level) that its record does not carry
/// (Nygard's `Implementation notes`, MADR's `Decision Drivers`, `Pros and
/// Cons of the Options`, `Links`), each with its count of lines that say
/// something: `import` names them, never drops them in silence (found by
/// review). None for a rules file, or a record read whole.
pub fn left_out_sections(path: &str, text: &str) -> Vec<(String, usize)> {
    let Some(kind) = super::parse(path, text).ok().and_then(|r| r.first().map(|r| r.kind)) else { return Vec::new() };
    let own = super::without_own_block(text);
    let sections = super::split(super::front_matter(&own).1);
    let named = |s: &super::Section, names: &[&str]| names.iter().any(|n| s.title.eq_ignore_ascii_case(n));
    let madr: &[&str] = &["Decision Outcome", "Considered Options", "Context and Problem Statement"];
    let carried = match kind {
        super::Kind::Sections => return Vec::new(),
        // No Decision section: every other section is the decision.
        super::Kind::Nygard if !sections.iter().any(|s| s.level == 2 && named(s, DECIDED)) => return Vec::new(),
        super::Kind::Nygard => [STATUS, CONTEXT, DECIDED, CONSEQUENCES].concat(),
        super::Kind::Madr => [STATUS, CONTEXT, DECIDED, CONSEQUENCES, madr].concat(),
    };
    sections
        .iter()
        .filter(|s| s.level == 2 && !named(s, &carried))
        .map(|s| (s.title.clone(), s.text.lines().filter(|l| !l.trim().is_empty()).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// `text` without what `~~` strikes out.
fn without_struck(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("~~") {
        return text.into();
    }
    text.split("~~").step_by(2).collect::<String>().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by review: a history was read by its first line.
    #[test]
    fn a_status_history_ends_in_its_last_state() {
        let last = |s: &str| last_state(s).unwrap_or_default();
        assert_eq!(
            last("Accepted\n\nAmended by [10. X](0010-x.md)\n\nSuperseded by [11. Y](0011-y.md)\n"),
            "Superseded by [11. Y](0011-y.md)"
        );
        assert_eq!(last("Proposed\n\nAccepted\n\nSupersedes [3. Z](0003-z.md)\n"), "Accepted");
        assert_eq!(last("~~Proposed~~ Accepted\n"), "Accepted");
        assert_eq!(
            last("Accepted\n\nSuperseded by [16](0016-e.md) on 2024-05-01\n"),
            "Superseded by [16](0016-e.md) on 2024-05-01"
        );
        assert_eq!(last("In review by the platform team\n"), "In review by the platform team");
        assert_eq!(inactive(&last("Accepted\nSupersedes [3]\n")), None);
    }

    #[test]
    fn sections_a_record_leaves_out_are_named() {
        let nygard = "# 3. Use Vault\n\n## Status\n\nAccepted\n\n## Context\n\nSecrets.\n\n## Decision\n\nUse Vault.\n\n\
                      ## Implementation notes\n\nNever commit a `.env` file.\nRotate monthly.\n\n## Consequences\n\nOps.\n";
        assert_eq!(left_out_sections("adr/0003.md", nygard), [("Implementation notes".to_string(), 2)]);
        let madr =
            "# Use flags\n\n## Context and Problem Statement\n\nWe ship often.\n\n## Decision Drivers\n\n* speed\n\n\
                    ## Considered Options\n\n* A\n\n## Decision Outcome\n\nChosen option: A.\n\n## More Information\n\n\
                    Flags are named team.flag.\n";
        let left: Vec<String> = left_out_sections("docs/decisions/0003.md", madr).into_iter().map(|x| x.0).collect();
        assert_eq!(left, ["Decision Drivers", "More Information"]);
        assert!(left_out_sections("CLAUDE.md", "# T\n\n## A\n\nx\n").is_empty());
    }

    #[test]
    fn states_in_other_languages() {
        for (status, why) in [
            ("Ersetzt durch [3. GitLab CI verwenden](0003-gitlab-ci.md)", Some("superseded")),
            ("Remplacé par [4](0004.md)", Some("superseded")),
            ("Rechazado", Some("rejected")),
            ("Obsoleto", Some("obsolete")),
            ("Vorgeschlagen", Some("only proposed")),
            ("Akzeptiert", None),
            ("Accepté", None),
            ("Aceptado", None),
            ("承認", None),
            ("廃止", Some("deprecated")),
            ("Deprecated (no superseding ADR)", Some("deprecated")),
            ("Accepted (supersedes ADR 3)", None),
        ] {
            assert_eq!(inactive(status), why, "{status}");
        }
    }
}
