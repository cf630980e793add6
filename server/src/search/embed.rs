//! Sentence embeddings for recall's semantic tier (pure): a text → a unit vector whose dot product with another says how alike their meanings are.
//!
//! The model is sentence-transformers' `all-MiniLM-L6-v2` (Apache-2.0) or
//! any uncased BERT encoder of its kind: [`wordpiece`] cuts the text into
//! the model's tokens, [`bert`] runs the encoder and mean-pools. The caller
//! reads the three files (`tokenizer.json`, `config.json`,
//! `model.safetensors`) and hands their bytes over; the service layer
//! finds them and keeps the decisions' vectors between processes.

pub mod bert;
pub mod wordpiece;

#[cfg(test)]
mod tests;

/// Most tokens read of a text (the model's training length; a decision's
/// opening, where it states what it decides, fits).
pub const MAX_TOKENS: usize = 256;

/// A loaded model.
#[derive(Debug)]
pub struct Embedder {
    pub tokenizer: wordpiece::WordPiece,
    pub bert: bert::Bert,
}

impl Embedder {
    /// The model from its files' contents; an error names what is wrong with which file.
    pub fn new(tokenizer_json: &str, config_json: &str, weights: bert::Weights) -> Result<Embedder, String> {
        let config: serde_json::Value =
            serde_json::from_str(config_json).map_err(|e| format!("config.json is not JSON: {e}"))?;
        let heads = config["num_attention_heads"].as_u64().ok_or("config.json: no `num_attention_heads`")? as usize;
        let tokenizer = wordpiece::WordPiece::from_json(tokenizer_json)?;
        let bert = bert::Bert::from_safetensors(weights, heads)?;
        if tokenizer.vocab_size() > bert.dims.vocab {
            return Err(format!(
                "tokenizer.json has {} tokens, the model's embeddings {}: not the same model",
                tokenizer.vocab_size(),
                bert.dims.vocab
            ));
        }
        Ok(Embedder { tokenizer, bert })
    }

    /// The text's unit vector (its first [`MAX_TOKENS`] tokens).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let ids = self.tokenizer.encode(text, MAX_TOKENS.min(self.bert.dims.positions));
        self.bert.embed(&ids, self.tokenizer.unk)
    }
}

/// The dot product of two vectors (their cosine when both are unit vectors); 0 for different lengths.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
