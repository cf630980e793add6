//! Diagnostics out of the server: one task checks what changed and publishes, in order.
//!
//! Handlers only apply their change and mark the root dirty ([`State::mark_dirty`])
//! and wake this task. So a burst of edits costs one check once the burst
//! has been applied, not one per edit, and every set of diagnostics leaves in
//! the order it was computed: handlers publishing on their own could
//! overtake each other and leave the editor showing an older text's
//! diagnostics. Open documents' versions go with their diagnostics, so a
//! client can drop a set that no longer matches its text.
//!
//! Which file's diagnostics go which way, by client (README "Diagnostics"):
//! - a client that does not pull gets every file pushed;
//! - a client that pulls per document (Neovim 0.11, Emacs eglot 1.17+) pulls
//!   its open documents and gets every other file pushed; opening a file
//!   clears its pushed set (the pull takes over), closing it pushes it again;
//! - a client that pulls workspace diagnostics (it sent `workspace/diagnostic`)
//!   gets nothing pushed and its pushed sets cleared.
//!
//! So no file is ever reported both ways, and no file goes unreported.
//! Pushes to a pulling client happen holding `pushing`, after reading
//! whether it pulls the workspace; `workspace/diagnostic` sets that before it
//! waits for `pushing`, so a push it would not want never follows its answer
//! (the transport writes a message the server queued before a reply,
//! `transport.rs`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::Client;

use super::capabilities::ClientCaps;
use super::state::lock;
use super::state::{Batch, State};

/// Runs until the runtime stops: waits to be woken, then publishes what changed.
pub async fn run(
    client: Client,
    state: Arc<Mutex<State>>,
    caps: Arc<Mutex<ClientCaps>>,
    wake: Arc<Notify>,
    pushing: Arc<tokio::sync::Mutex<()>>,
) {
    // Files whose last pushed set (to a puller) was not empty.
    let mut pushed: HashSet<Uri> = HashSet::new();
    loop {
        wake.notified().await;
        // Let notifications already queued behind the one that woke us apply first.
        tokio::task::yield_now().await;
        // A full check (after anything but an index splice: at 100,000
        // entries a tenth of a second or more) runs off the lock, on the
        // blocking pool, so edits and requests go on meanwhile; an edit that
        // lands during it leaves its root dirty and the next round checks
        // the new state. An incremental re-check runs under the lock: an
        // edit typed during it would copy the index the check still holds.
        // (A check that panicked leaves its root dirty and is logged; the
        // next edit tries again.)
        let full = lock(&state).full_checks();
        if !super::backend::check_off_lock(full).await {
            return; // the runtime is shutting down
        }
        let (batches, open) = {
            let mut st = lock(&state);
            let batches = st.take_changed();
            (batches, st.docs.keys().cloned().collect::<HashSet<Uri>>())
        };
        let caps = lock(&caps).clone();
        if caps.pull_diagnostics {
            if caps.diagnostic_refresh && !batches.is_empty() {
                let _ = client.workspace_diagnostic_refresh().await;
            }
            let _pushing = pushing.lock().await;
            let workspace_pull = lock(&state).workspace_pull;
            to_puller(&client, batches, &open, workspace_pull, &mut pushed).await;
        } else {
            for (uri, diags, version) in batches {
                client.publish_diagnostics(uri, diags, version).await;
            }
        }
    }
}

/// A pulling client (asked to pull again already): pushes what it will not
/// pull (files it has not opened), per the module's matrix.
async fn to_puller(
    client: &Client,
    batches: Vec<Batch>,
    open: &HashSet<Uri>,
    workspace_pull: bool,
    pushed: &mut HashSet<Uri>,
) {
    let taken_over: Vec<Uri> = pushed.iter().filter(|u| workspace_pull || open.contains(*u)).cloned().collect();
    for uri in taken_over {
        pushed.remove(&uri);
        client.publish_diagnostics(uri, Vec::new(), None).await;
    }
    if workspace_pull {
        return;
    }
    for (uri, diags, _) in batches {
        if open.contains(&uri) {
            continue;
        }
        if diags.is_empty() {
            if pushed.remove(&uri) {
                client.publish_diagnostics(uri, diags, None).await;
            }
        } else {
            pushed.insert(uri.clone());
            client.publish_diagnostics(uri, diags, None).await;
        }
    }
}
