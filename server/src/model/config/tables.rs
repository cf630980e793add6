//! The `[recall]` and `[capture]` tables of the configuration: what the agent hook says, and when it asks for a decision to be written down.

use serde::Deserialize;

/// The `[recall]` table: confidence thresholds (see `search::recall`) per
/// consumer, and the agent hook's limits. A threshold is a confidence in
/// [0, 1]; a higher one speaks less often and is wrong less often. The
/// defaults come from `eval` on the development sets (docs/resolver.md):
/// `resolve` 0.1 answers 98% of the resolver set right and every off-topic
/// query with "No match" (an agent that asked can judge a near miss);
/// `prompt` 0.5 answers three quarters of the prompts a decision applies to,
/// all of them right, and none of the off-topic or generic ones (a wrong
/// injection costs more than a missing one); `command` and `error` are
/// stricter still, as commands and error logs share words with many
/// decisions: at them, no everyday command or failure of the labelled sets
/// is answered and no governed one wrongly (docs/resolver.md); `duplicate` 0.9
/// refuses 5 of 6 restated decisions and none of 6 new ones
/// (`server/tests/data/duplicates-head.tsv`; at 0.8 one new one was).
#[derive(Clone, Debug, PartialEq)]
pub struct Recall {
    /// The hook speaks on a prompt (UserPromptSubmit) at or above this.
    pub prompt: f64,
    /// The hook speaks before a Bash command (PreToolUse) at or above this.
    pub command: f64,
    /// The hook speaks after a failed tool call (PostToolUseFailure) at or above this.
    pub error: f64,
    /// `resolve` and `search` answer "No match" below this.
    pub resolve: f64,
    /// `remember` reports an existing decision on the same subject at or above this.
    pub duplicate: f64,
    /// Below `prompt`, the hook points at a decision (one line: its entry,
    /// heading, file and confidence, for the agent's model to read only if
    /// it applies; `recall::inject::pointer`) at or above this; a floor at or
    /// above `prompt` turns pointers off. 0.2 reaches 86% of head's
    /// answerable prompts (80% by bodies alone) with a line on 2% of its
    /// everyday ones; every corpus's figures are in docs/resolver.md
    /// ("Pointer tier").
    pub prompt_pointer: f64,
    /// As `prompt-pointer`, before a Bash command. 1 (off): every floor
    /// below `command` put a line on an everyday command of head's sets.
    pub command_pointer: f64,
    /// As `prompt-pointer`, after a failed tool call: 0.65 reaches one more
    /// governed failure of head's and no everyday one.
    pub error_pointer: f64,
    /// Most decisions one hook call points at (0: never a pointer).
    pub max_pointers: u32,
    /// When the agent reads or edits a file, the words of its path (`src/booking/prices.py`:
    /// `booking prices`) inject a decision at or above this; 1 (off, the default): at 0.5, 7% of
    /// 300 files of a project head's memory was not written for got a wrong decision, and 3% of
    /// this repository's (docs/resolver.md, "File-context recall"). A decision whose scope holds
    /// the file comes whatever this says.
    pub file_words: f64,
    /// With the semantic tier, a prompt's pointers also go to the decisions
    /// nearest it in meaning at this cosine or more (1: never), those that
    /// share no word with it included.
    pub meaning_pointer: f64,
    /// False turns the agent hook off (it prints nothing).
    pub hook: bool,
    /// Most decisions the hook injects at once.
    pub max_decisions: u32,
    /// Most characters the hook injects at once.
    pub max_chars: u32,
    /// Whether the prompt hook, `search` (CLI and MCP) and `eval` also
    /// measure how alike in meaning a prompt and each candidate decision are,
    /// with a sentence-embedding model (`search::semantic`). Unset (the
    /// default): yes when the model's files are there (`memory-index-lsp
    /// embed` fetches them, 87 MB; `init` says so), words only otherwise,
    /// never a wait (`project::semantic::enabled`); it lifted the body tier
    /// from 22 to 27 of 32 held-out prompts with no noise, and costs about
    /// 23 ms a prompt on head (release build). `true`: the hook fetches the
    /// model in the background when it is missing; `false`: never. `eval`
    /// uses it only when `--semantic` or `true` asks (its tables stay
    /// comparable).
    pub semantic: Option<bool>,
    /// The model's folder, relative to the project root or absolute (`config.json`, `tokenizer.json`,
    /// `model.safetensors`); unset: `$MEMORY_INDEX_LSP_MODEL`, else
    /// `<cache>/memory-index-lsp/models/all-MiniLM-L6-v2`.
    pub model: Option<String>,
}

impl Default for Recall {
    fn default() -> Self {
        Self {
            prompt: 0.5,
            command: 0.6,
            error: 0.7,
            resolve: 0.1,
            duplicate: 0.9,
            prompt_pointer: 0.2,
            command_pointer: 1.0,
            error_pointer: 0.65,
            max_pointers: 2,
            file_words: 1.0,
            meaning_pointer: 0.5,
            hook: true,
            max_decisions: 2,
            max_chars: 6000,
            semantic: None,
            model: None,
        }
    }
}

// Thresholds are checked to be finite when applied, so equality is total.
impl Eq for Recall {}

/// The `[recall]` keys one source sets.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RecallPatch {
    pub prompt: Option<f64>,
    pub command: Option<f64>,
    pub error: Option<f64>,
    pub resolve: Option<f64>,
    pub duplicate: Option<f64>,
    #[serde(alias = "promptPointer")]
    pub prompt_pointer: Option<f64>,
    #[serde(alias = "commandPointer")]
    pub command_pointer: Option<f64>,
    #[serde(alias = "errorPointer")]
    pub error_pointer: Option<f64>,
    #[serde(alias = "maxPointers")]
    pub max_pointers: Option<u32>,
    #[serde(alias = "fileWords")]
    pub file_words: Option<f64>,
    #[serde(alias = "meaningPointer")]
    pub meaning_pointer: Option<f64>,
    pub hook: Option<bool>,
    #[serde(alias = "maxDecisions")]
    pub max_decisions: Option<u32>,
    #[serde(alias = "maxChars")]
    pub max_chars: Option<u32>,
    pub semantic: Option<bool>,
    pub model: Option<String>,
}

impl Eq for RecallPatch {}

/// The `[capture]` table: whether the hook, when a session ends (Claude
/// Code's `Stop`), asks the agent to write down what the person settled in
/// it (see `recall::capture`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    /// False: the hook never blocks a stop.
    pub stop: bool,
}

impl Default for Capture {
    fn default() -> Self {
        Self { stop: true }
    }
}

/// The `[capture]` keys one source sets.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CapturePatch {
    pub stop: Option<bool>,
}
