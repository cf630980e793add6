//! Server-side file watching for clients that cannot watch files for us (the `notify` crate).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use notify::{RecursiveMode, Watcher};
use tokio::sync::Notify;

use super::state::lock;
use super::state::State;

/// Watches every root's index folder, decisions folder and the root itself
/// (for the config file); changes are applied like `didChangeWatchedFiles`.
pub fn start(state: Arc<Mutex<State>>, wake: Arc<Notify>) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Vec<PathBuf>>();
    let watcher = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        // Reads are not changes: every refresh reads the file it refreshes, so
        // forwarding access events would re-read and re-check forever.
        if let Some(ev) = ev.ok().filter(|ev| !ev.kind.is_access()) {
            let _ = tx.send(ev.paths);
        }
    });
    let mut watcher = match watcher {
        Ok(w) => w,
        Err(e) => {
            tracing::warn!("cannot watch files ({e}); changes on disk show up when files are opened");
            return;
        }
    };
    {
        let st = lock(&state);
        for r in &st.roots {
            let cfg = r.ws.config();
            let index_dir = r.path.join(&cfg.index).parent().map(PathBuf::from);
            for dir in [Some(r.path.clone()), index_dir, Some(r.path.join(&cfg.decisions))].into_iter().flatten() {
                if let Err(e) = watcher.watch(&dir, RecursiveMode::NonRecursive) {
                    tracing::debug!("not watching {}: {e}", dir.display());
                }
            }
        }
    }
    tokio::spawn(async move {
        let _keep = watcher;
        while let Some(mut paths) = rx.recv().await {
            // Coalesce a burst (an editor or git writing many files).
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            while let Ok(more) = rx.try_recv() {
                paths.extend(more);
            }
            paths.sort();
            paths.dedup();
            tracing::debug!("changed on disk: {paths:?}");
            lock(&state).disk_changes(&paths);
            wake.notify_one();
        }
    });
}
