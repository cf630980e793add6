//! An ADR's words in the languages records are written in: the names of its sections, its states, and the state a status history ends in.

/// A status section's names.
pub(super) const STATUS: &[&str] = &["Status", "Statut", "Estado", "Stand", "ステータス", "状態", "状态"];
/// A context section's names.
pub(super) const CONTEXT: &[&str] =
    &["Context", "Kontext", "Contexte", "Contexto", "Hintergrund", "背景", "コンテキスト"];
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
