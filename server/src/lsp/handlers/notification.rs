//! Notification handlers: each applies its change to the state synchronously, marks the root dirty and wakes the publisher.

use std::path::PathBuf;

use ropey::Rope;
use tower_lsp_server::ls_types::*;

use crate::lsp::backend::*;
use crate::lsp::convert;
use crate::model::FileText;

pub(in crate::lsp) async fn did_open(b: &Backend, params: DidOpenTextDocumentParams) {
    let doc = params.text_document;
    let bytes = doc.text.len();
    {
        let mut st = lock(&b.state);
        let own = match Backend::locate_or_adopt(&mut st, &doc.uri) {
            Some((i, rel)) => {
                // Opened as it is on disk (the usual case): the engine's copy
                // stays, and a snapshot a request reads is not copied for it.
                let text = FileText::from(doc.text);
                if st.roots[i].ws.unchanged(&rel, &text).is_none() {
                    st.roots[i].ws_mut().set_file(&rel, text);
                }
                st.mark_dirty(i);
                None
            }
            None => Some(Rope::from_str(&doc.text)),
        };
        st.docs.insert(doc.uri, crate::lsp::state::Doc { version: doc.version, own });
    }
    b.wake.notify_one();
    crate::lsp::memory::after_document(bytes);
}

pub(in crate::lsp) async fn did_change(b: &Backend, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let version = params.text_document.version;
    let t = std::time::Instant::now();
    // The size of a change that replaces the whole document (0 without one).
    let whole = params.content_changes.iter().filter(|c| c.range.is_none()).map(|c| c.text.len()).max().unwrap_or(0);
    {
        let mut st = lock(&b.state);
        let Some(doc) = st.docs.get_mut(&uri) else {
            tracing::warn!("didChange for a document that is not open: {}", uri.as_str());
            return;
        };
        if version <= doc.version {
            tracing::warn!("ignoring stale didChange (version {version} <= {})", doc.version);
            return;
        }
        doc.version = version;
        st.apply_changes(&uri, params.content_changes);
        if let Some((i, _)) = st.locate_uri(&uri) {
            st.mark_dirty(i);
        }
    }
    tracing::debug!("didChange v{version} applied in {:.2} ms", t.elapsed().as_secs_f64() * 1e3);
    b.wake.notify_one();
    crate::lsp::memory::after_document(whole);
}

pub(in crate::lsp) async fn did_close(b: &Backend, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    {
        let mut st = lock(&b.state);
        st.docs.remove(&uri);
        if let Some((i, rel)) = st.locate_uri(&uri) {
            st.refresh_from_disk(i, &rel);
            st.forget_published(i, &rel);
        }
    }
    b.wake.notify_one();
}

pub(in crate::lsp) async fn did_change_watched_files(b: &Backend, params: DidChangeWatchedFilesParams) {
    {
        let mut st = lock(&b.state);
        let paths: Vec<PathBuf> = params.changes.iter().filter_map(|c| convert::path_of(&c.uri)).collect();
        let _ = guarded("watch", || st.disk_changes(&paths));
    }
    b.wake.notify_one();
}

pub(in crate::lsp) async fn did_change_workspace_folders(b: &Backend, params: DidChangeWorkspaceFoldersParams) {
    {
        let mut st = lock(&b.state);
        let removed: Vec<PathBuf> = params.event.removed.iter().filter_map(|f| convert::path_of(&f.uri)).collect();
        for p in b.remove_folders(&removed) {
            st.remove_root(&p);
        }
    }
    b.wake.notify_one();
    let added: Vec<PathBuf> = params.event.added.iter().filter_map(|f| convert::path_of(&f.uri)).collect();
    if !added.is_empty() {
        b.reload_all(b.add_folders(&added)).await;
    }
}

pub(in crate::lsp) async fn did_change_configuration(b: &Backend, params: DidChangeConfigurationParams) {
    if params.settings.is_object() && params.settings.get("memoryIndex").is_some() {
        match client_patch(&params.settings) {
            Ok((p, warning)) => {
                lock(&b.state).client_config = Some(p);
                if let Some(w) = warning {
                    b.client.show_message(MessageType::WARNING, w).await;
                }
            }
            Err(e) => b.client.show_message(MessageType::WARNING, e).await,
        }
    } else {
        b.pull_config().await;
    }
    b.reload_all(Vec::new()).await;
}

pub(in crate::lsp) async fn did_rename_files(b: &Backend, params: RenameFilesParams) {
    let paths: Vec<PathBuf> = params
        .files
        .iter()
        .flat_map(|f| [f.old_uri.parse::<Uri>().ok(), f.new_uri.parse::<Uri>().ok()])
        .flatten()
        .filter_map(|u| convert::path_of(&u))
        .collect();
    b.files_changed(paths).await;
}

pub(in crate::lsp) async fn did_create_files(b: &Backend, params: CreateFilesParams) {
    let paths = params.files.iter().filter_map(|f| convert::path_of(&f.uri.parse::<Uri>().ok()?)).collect();
    b.files_changed(paths).await;
}

pub(in crate::lsp) async fn did_delete_files(b: &Backend, params: DeleteFilesParams) {
    let paths = params.files.iter().filter_map(|f| convert::path_of(&f.uri.parse::<Uri>().ok()?)).collect();
    b.files_changed(paths).await;
}
