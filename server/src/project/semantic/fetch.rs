//! The semantic model fetched on first use: its three files from the model hub (or `$MEMORY_INDEX_LSP_MODEL_URL`) with `curl`, checked to be all-MiniLM-L6-v2 before they are kept.
//!
//! Only `embed` fetches (the hook starts it in the background, so no
//! prompt ever waits on a download). The files go to a temporary folder
//! beside the model's, are loaded and checked (the tokenizer's ids and the
//! vectors of two fixed sentences against the reference), then renamed
//! into place; anything else is deleted and the failure remembered for an
//! hour ([`recently_failed`]), so an offline machine does not try at every
//! prompt. One fetch at a time (a lock file in the model's folder). Only
//! the default folder is fetched into (`default_model_dir`): a folder the
//! person named holds their files, never overwritten.

use std::path::Path;
use std::time::Duration;

use crate::search::embed::{cosine, Embedder};

/// Where the files are fetched from (`<URL>/config.json`, …).
pub const HUB: &str = "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main";
/// Environment variable naming another place to fetch them from (a mirror).
pub const URL_ENV: &str = "MEMORY_INDEX_LSP_MODEL_URL";
/// The files, the weights last (a folder with them is complete).
pub const FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];
/// How long after a failed fetch the hook does not start another.
pub const RETRY_AFTER: Duration = Duration::from_secs(3600);
const FAILED: &str = ".fetch-failed";

/// Fetches the model into `dir` (see the module docs); Ok when `dir` holds it afterwards.
pub fn fetch(dir: &Path) -> Result<(), String> {
    let url = std::env::var(URL_ENV).ok().filter(|u| !u.is_empty()).unwrap_or_else(|| HUB.to_string());
    crate::project::session::create_private_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let _lock = crate::project::lock::try_lock_file(&dir.join(".fetch.lock"))
        .ok_or_else(|| format!("another process is fetching the model into {}", dir.display()))?;
    if complete(dir) {
        return Ok(());
    }
    let tmp = dir.join(format!(".fetch-{}", std::process::id()));
    let result = (|| {
        std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        for f in FILES {
            let out = std::process::Command::new("curl")
                .args(["-fsSL", "--retry", "2", "--connect-timeout", "20", "--max-time", "1800", "-o"])
                .arg(tmp.join(f))
                .arg(format!("{}/{f}", url.trim_end_matches('/')))
                .stdin(std::process::Stdio::null())
                .output()
                .map_err(|e| {
                    format!("cannot run curl ({e}); fetch {FILES:?} from {url} into {} by hand", dir.display())
                })?;
            if !out.status.success() {
                return Err(format!(
                    "cannot fetch {url}/{f}: {}",
                    String::from_utf8_lossy(&out.stderr).trim().lines().last().unwrap_or("curl failed")
                ));
            }
        }
        let (embedder, _) = super::load_model(&tmp)?;
        check(&embedder).map_err(|e| format!("what {url} served is not all-MiniLM-L6-v2 ({e}); nothing was kept"))?;
        for f in FILES {
            std::fs::rename(tmp.join(f), dir.join(f))
                .map_err(|e| format!("cannot keep {f} in {}: {e}", dir.display()))?;
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    match &result {
        Ok(()) => {
            let _ = std::fs::remove_file(dir.join(FAILED));
        }
        Err(e) => {
            let _ = std::fs::write(dir.join(FAILED), e);
        }
    }
    result
}

/// True when `dir` has every file of the model. Present is enough: a file
/// that is there but wrong (a FIFO, garbage) is named when it is loaded,
/// never fetched over.
pub fn complete(dir: &Path) -> bool {
    FILES.iter().all(|f| std::fs::symlink_metadata(dir.join(f)).is_ok())
}

/// True when a fetch into `dir` failed less than [`RETRY_AFTER`] ago.
pub fn recently_failed(dir: &Path) -> bool {
    std::fs::metadata(dir.join(FAILED))
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age < RETRY_AFTER))
}

/// The reference's token ids and the cosines of fixed sentences: the model is all-MiniLM-L6-v2.
pub fn check(e: &Embedder) -> Result<(), String> {
    let ids = e.tokenizer.encode("How do I deploy to production?", 64);
    if ids != [101, 2129, 2079, 1045, 21296, 2000, 2537, 1029, 102] {
        return Err(format!("its tokenizer gives {ids:?}"));
    }
    let a = e.embed("how do I deploy to production");
    let (b, c) = (e.embed("shipping a release to the live servers"), e.embed("the cat sat on the mat"));
    let (ab, ac) = (cosine(&a, &b), cosine(&a, &c));
    if a.len() != 384 || (ab - 0.474).abs() > 0.01 || ac.abs() > 0.03 {
        return Err(format!("its vectors differ from the reference ({} wide, cosines {ab:.3} and {ac:.3})", a.len()));
    }
    Ok(())
}
