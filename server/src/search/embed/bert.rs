//! A BERT encoder's forward pass on the CPU (MiniLM-sized: 384 wide, 6 layers), from `safetensors` bytes: token ids → one mean-pooled, unit-length vector.
//!
//! The weights are the f32 tensors of a Hugging Face `BertModel` (names
//! with or without a `bert.` prefix). Matrix products go through
//! `matrixmultiply`; GELU is the exact (erf) one the model was trained
//! with. Nothing here reads a file: the caller hands the bytes over.

use rustc_hash::FxHashMap as HashMap;

/// The shape of the encoder, read from the tensors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub hidden: usize,
    pub heads: usize,
    pub layers: usize,
    pub intermediate: usize,
    pub positions: usize,
    pub vocab: usize,
}

/// One dense layer: `out × in` weights, as stored, and the bias.
struct Linear {
    w: Values,
    b: Values,
    inputs: usize,
    outputs: usize,
}

struct Norm {
    w: Values,
    b: Values,
}

struct Layer {
    q: Linear,
    k: Linear,
    v: Linear,
    attn_out: Linear,
    attn_norm: Norm,
    up: Linear,
    down: Linear,
    out_norm: Norm,
}

/// The encoder's weights.
pub struct Bert {
    pub dims: Dims,
    bytes: Weights,
    words: Values,
    positions: Values,
    token_type: Values,
    emb_norm: Norm,
    layers: Vec<Layer>,
}

/// Layer norm epsilon of BERT models.
const EPS: f32 = 1e-12;

/// The bytes of a `safetensors` file, shared (a memory map or a buffer).
pub type Weights = std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Where a tensor's values are: read in place from the weights (f32,
/// little-endian, aligned: the usual case) or decoded into a buffer.
enum Values {
    InPlace(std::ops::Range<usize>),
    Owned(Vec<f32>),
}

/// A tensor's shape and where its values are.
type Tensor = (Vec<usize>, Values);

/// The F32 tensors of a `safetensors` file: name (without a `bert.`
/// prefix) → shape and values. Other dtypes (an `I64` buffer such as
/// `position_ids`) are skipped.
fn tensors(bytes: &[u8]) -> Result<HashMap<String, Tensor>, String> {
    let bad = |why: &str| format!("model.safetensors: {why}");
    let n = bytes.get(..8).ok_or_else(|| bad("shorter than its header"))?;
    let n = u64::from_le_bytes(n.try_into().map_err(|_| bad("no header length"))?) as usize;
    let end = 8usize.checked_add(n).ok_or_else(|| bad("its header length is impossible"))?;
    let header = bytes.get(8..end).ok_or_else(|| bad("its header runs past the end"))?;
    let json: serde_json::Value =
        serde_json::from_slice(header).map_err(|e| bad(&format!("its header is not JSON ({e})")))?;
    let mut out = HashMap::default();
    for (name, t) in json.as_object().ok_or_else(|| bad("its header is not an object"))? {
        if name == "__metadata__" || t["dtype"].as_str() != Some("F32") {
            continue;
        }
        let shape: Vec<usize> = t["shape"]
            .as_array()
            .ok_or_else(|| bad(&format!("{name} has no shape")))?
            .iter()
            .map(|d| d.as_u64().map(|d| d as usize))
            .collect::<Option<_>>()
            .ok_or_else(|| bad(&format!("{name} has a bad shape")))?;
        let off = &t["data_offsets"];
        let (a, b) = (off[0].as_u64().unwrap_or(u64::MAX) as usize, off[1].as_u64().unwrap_or(0) as usize);
        let count = shape.iter().try_fold(1usize, |acc, d| acc.checked_mul(*d)).unwrap_or(usize::MAX);
        let range = end.checked_add(a).zip(end.checked_add(b)).map(|(a, b)| a..b);
        let raw = range
            .clone()
            .and_then(|r| bytes.get(r))
            .filter(|r| Some(r.len()) == count.checked_mul(4))
            .ok_or_else(|| bad(&format!("{name}'s data does not match its shape")))?;
        let values = match range {
            Some(r) if in_place(raw).is_some() => Values::InPlace(r),
            _ => Values::Owned(raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()),
        };
        out.insert(name.strip_prefix("bert.").unwrap_or(name).to_string(), (shape, values));
    }
    Ok(out)
}

/// `raw` read as f32 values in place, when that reads them right: a
/// little-endian machine and a 4-byte aligned start.
fn in_place(raw: &[u8]) -> Option<&[f32]> {
    if cfg!(target_endian = "big") {
        return None;
    }
    // SAFETY: every bit pattern is a valid f32, and `align_to` only returns a middle
    // part that is aligned for f32; an unaligned start shows as a non-empty prefix.
    let (pre, mid, post) = unsafe { raw.align_to::<f32>() };
    (pre.is_empty() && post.is_empty()).then_some(mid)
}

impl Bert {
    /// Reads the encoder from `safetensors` bytes; `heads` is the number of
    /// attention heads (`config.json`'s `num_attention_heads`).
    pub fn from_safetensors(bytes: Weights, heads: usize) -> Result<Bert, String> {
        let mut t = tensors((*bytes).as_ref())?;
        let words_shape = {
            let (s, _) = t.get("embeddings.word_embeddings.weight").ok_or("model.safetensors: no word embeddings")?;
            s.clone()
        };
        let [vocab, hidden] = words_shape[..] else {
            return Err("model.safetensors: word embeddings are not 2-D".into());
        };
        if heads == 0 || hidden % heads != 0 {
            return Err(format!("{heads} attention heads do not divide a width of {hidden}"));
        }
        let rows = |name: &str| t.get(name).and_then(|(s, _)| s.first().copied()).unwrap_or(0);
        let positions = rows("embeddings.position_embeddings.weight");
        let intermediate = rows("encoder.layer.0.intermediate.dense.weight");
        let token_types = rows("embeddings.token_type_embeddings.weight");
        let layers =
            (0..).take_while(|l| t.contains_key(&format!("encoder.layer.{l}.attention.self.query.weight"))).count();
        if [vocab, hidden, positions, intermediate, layers].contains(&0) {
            return Err(format!(
                "model.safetensors: an encoder needs every size above zero (vocabulary {vocab}, width {hidden}, \
positions {positions}, intermediate {intermediate}, layers {layers})"
            ));
        }
        let mut take = |name: &str, shape: &[usize]| -> Result<Values, String> {
            let (s, v) = t.remove(name).ok_or(format!("model.safetensors: no tensor `{name}`"))?;
            if s != shape {
                return Err(format!("model.safetensors: `{name}` has shape {s:?}, expected {shape:?}"));
            }
            Ok(v)
        };
        let dims = Dims { hidden, heads, layers, intermediate, positions, vocab };
        let words = take("embeddings.word_embeddings.weight", &[vocab, hidden])?;
        let pos = take("embeddings.position_embeddings.weight", &[positions, hidden])?;
        // One row or more (type 0 is the one read).
        let token_type = take("embeddings.token_type_embeddings.weight", &[token_types.max(1), hidden])?;
        let mut norm = |p: &str| -> Result<Norm, String> {
            Ok(Norm { w: take(&format!("{p}.weight"), &[hidden])?, b: take(&format!("{p}.bias"), &[hidden])? })
        };
        let emb_norm = norm("embeddings.LayerNorm")?;
        let mut all = Vec::with_capacity(layers);
        for l in 0..layers {
            let p = format!("encoder.layer.{l}.");
            let mut lin = |name: &str, inputs: usize, outputs: usize| -> Result<Linear, String> {
                Ok(Linear {
                    w: take(&format!("{p}{name}.weight"), &[outputs, inputs])?,
                    b: take(&format!("{p}{name}.bias"), &[outputs])?,
                    inputs,
                    outputs,
                })
            };
            let q = lin("attention.self.query", hidden, hidden)?;
            let k = lin("attention.self.key", hidden, hidden)?;
            let v = lin("attention.self.value", hidden, hidden)?;
            let attn_out = lin("attention.output.dense", hidden, hidden)?;
            let up = lin("intermediate.dense", hidden, intermediate)?;
            let down = lin("output.dense", intermediate, hidden)?;
            let mut norm = |n: &str| -> Result<Norm, String> {
                Ok(Norm {
                    w: take(&format!("{p}{n}.weight"), &[hidden])?,
                    b: take(&format!("{p}{n}.bias"), &[hidden])?,
                })
            };
            let attn_norm = norm("attention.output.LayerNorm")?;
            let out_norm = norm("output.LayerNorm")?;
            all.push(Layer { q, k, v, attn_out, attn_norm, up, down, out_norm });
        }
        Ok(Bert { dims, bytes, words, positions: pos, token_type, emb_norm, layers: all })
    }

    /// The mean of the last layer's token vectors, scaled to unit length
    /// (sentence-transformers' mean pooling). Ids past the vocabulary are
    /// read as `unk`; tokens past the position table are dropped.
    pub fn embed(&self, ids: &[u32], unk: u32) -> Vec<f32> {
        let d = self.dims;
        let (words, positions, token_type) =
            (self.get(&self.words), self.get(&self.positions), self.get(&self.token_type));
        let h = d.hidden;
        let n = ids.len().min(d.positions).max(1);
        let mut x = vec![0f32; n * h];
        for (i, row) in x.chunks_exact_mut(h).enumerate() {
            let id = ids.get(i).copied().filter(|&id| (id as usize) < d.vocab).unwrap_or(unk) as usize;
            let id = id.min(d.vocab.saturating_sub(1));
            let w = &words[id * h..(id + 1) * h];
            let p = &positions[i * h..(i + 1) * h];
            for j in 0..h {
                row[j] = w[j] + p[j] + token_type[j];
            }
        }
        self.layer_norm(&mut x, &self.emb_norm, h);
        let dh = h / d.heads;
        let scale = 1.0 / (dh as f32).sqrt();
        let (mut q, mut k, mut v) = (vec![0f32; n * h], vec![0f32; n * h], vec![0f32; n * h]);
        let mut ctx = vec![0f32; n * h];
        let mut scores = vec![0f32; n * n];
        let mut tmp = vec![0f32; n * h];
        let mut up = vec![0f32; n * d.intermediate];
        for l in &self.layers {
            self.linear(&x, n, &l.q, &mut q);
            self.linear(&x, n, &l.k, &mut k);
            self.linear(&x, n, &l.v, &mut v);
            for head in 0..d.heads {
                let o = head * dh;
                // scores = q_h · k_hᵀ (rows of q and k strided by h)
                gemm(n, dh, n, &q[o..], h, 1, &k[o..], 1, h, &mut scores, n);
                for row in scores.chunks_exact_mut(n) {
                    let max = row.iter().fold(f32::NEG_INFINITY, |m, s| m.max(*s * scale));
                    let mut sum = 0.0;
                    for s in row.iter_mut() {
                        *s = (*s * scale - max).exp();
                        sum += *s;
                    }
                    row.iter_mut().for_each(|s| *s /= sum);
                }
                // ctx_h = scores · v_h
                gemm(n, n, dh, &scores, n, 1, &v[o..], h, 1, &mut ctx[o..], h);
            }
            self.linear(&ctx, n, &l.attn_out, &mut tmp);
            tmp.iter_mut().zip(&x).for_each(|(t, x)| *t += x);
            self.layer_norm(&mut tmp, &l.attn_norm, h);
            std::mem::swap(&mut x, &mut tmp);
            self.linear(&x, n, &l.up, &mut up);
            up.iter_mut().for_each(|u| *u = gelu(*u));
            self.linear(&up, n, &l.down, &mut tmp);
            tmp.iter_mut().zip(&x).for_each(|(t, x)| *t += x);
            self.layer_norm(&mut tmp, &l.out_norm, h);
            std::mem::swap(&mut x, &mut tmp);
        }
        let mut mean = vec![0f32; h];
        for row in x.chunks_exact(h) {
            mean.iter_mut().zip(row).for_each(|(m, r)| *m += r);
        }
        let norm = mean.iter().map(|m| m * m).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
        mean.iter_mut().for_each(|m| *m /= norm);
        mean
    }

    /// True when every tensor is read where it lies in the weights (nothing was copied).
    pub fn reads_in_place(&self) -> bool {
        let all = [&self.words, &self.positions, &self.token_type, &self.emb_norm.w, &self.emb_norm.b];
        let layers = self.layers.iter().flat_map(|l| {
            [&l.q, &l.k, &l.v, &l.attn_out, &l.up, &l.down].into_iter().flat_map(|x| [&x.w, &x.b]).chain([
                &l.attn_norm.w,
                &l.attn_norm.b,
                &l.out_norm.w,
                &l.out_norm.b,
            ])
        });
        all.into_iter().chain(layers).all(|v| matches!(v, Values::InPlace(_)))
    }

    /// A tensor's values.
    fn get<'a>(&'a self, v: &'a Values) -> &'a [f32] {
        match v {
            Values::Owned(v) => v,
            // `tensors` checked the range and that it reads in place.
            Values::InPlace(r) => (*self.bytes).as_ref().get(r.clone()).and_then(in_place).unwrap_or(&[]),
        }
    }

    /// `out = x · Wᵀ + b` for `n` rows.
    fn linear(&self, x: &[f32], n: usize, l: &Linear, out: &mut [f32]) {
        let (w, b) = (self.get(&l.w), self.get(&l.b));
        for row in out[..n * l.outputs].chunks_exact_mut(l.outputs) {
            row.copy_from_slice(b);
        }
        // outᵀ (outputs × n) = W (outputs × inputs, row-major as stored) · xᵀ (inputs × n), each
        // transpose read through the strides: W is packed in its own row order (contiguous
        // reads; packing it as the right-hand side, column by column, cost as much as the product).
        // SAFETY: the slices hold n×inputs, outputs×inputs and n×outputs values, the extents the strides address.
        assert!(x.len() >= n * l.inputs && w.len() >= l.outputs * l.inputs && out.len() >= n * l.outputs);
        unsafe {
            matrixmultiply::sgemm(
                l.outputs,
                l.inputs,
                n,
                1.0,
                w.as_ptr(),
                l.inputs as isize,
                1,
                x.as_ptr(),
                1,
                l.inputs as isize,
                1.0,
                out.as_mut_ptr(),
                1,
                l.outputs as isize,
            );
        }
    }

    fn layer_norm(&self, x: &mut [f32], norm: &Norm, h: usize) {
        let (nw, nb) = (self.get(&norm.w), self.get(&norm.b));
        for row in x.chunks_exact_mut(h) {
            let mean = row.iter().sum::<f32>() / h as f32;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / h as f32;
            let inv = 1.0 / (var + EPS).sqrt();
            for ((v, w), b) in row.iter_mut().zip(nw).zip(nb) {
                *v = (*v - mean) * inv * w + b;
            }
        }
    }
}

/// `c (m×n block, row stride rc) = a (m×k) · b (k×n)`, `a` and `b` given by their strides.
#[allow(clippy::too_many_arguments)]
fn gemm(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    ra: usize,
    ca: usize,
    b: &[f32],
    rb: usize,
    cb: usize,
    c: &mut [f32],
    rc: usize,
) {
    let last = |rows: usize, cols: usize, r: usize, cc: usize| (rows - 1) * r + (cols - 1) * cc;
    assert!(m > 0 && k > 0 && n > 0);
    assert!(last(m, k, ra, ca) < a.len() && last(k, n, rb, cb) < b.len() && last(m, n, rc, 1) < c.len());
    // SAFETY: the asserts above bound every element the strides address inside its slice.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            ra as isize,
            ca as isize,
            b.as_ptr(),
            rb as isize,
            cb as isize,
            0.0,
            c.as_mut_ptr(),
            rc as isize,
            1,
        );
    }
}

/// GELU with the error function: x · Φ(x).
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x / std::f32::consts::SQRT_2))
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
fn erf(x: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_4 * t - 1.453_152_1) * t) + 1.421_413_8) * t - 0.284_496_74) * t + 0.254_829_6)
            * t
            * (-x * x).exp();
    y.copysign(x)
}

impl std::fmt::Debug for Bert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bert").field("dims", &self.dims).finish_non_exhaustive()
    }
}
