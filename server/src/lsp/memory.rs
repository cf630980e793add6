//! Giving memory back to the system after a large document arrives: the allocator would otherwise keep it for reuse.
//!
//! Reading a 20 MB `didOpen` holds its bytes, the JSON decoder's buffer and
//! the decoded text at once, then frees all but the text. mimalloc (the
//! binary's allocator) keeps freed pages for reuse, and on an idle server it
//! kept them indefinitely: 100 MB more resident after opening a 20 MB index.
//! So after a document of at least [`LARGE`] bytes is applied, the freed
//! pages are returned at once.

/// A document this large (or larger) is followed by a collection.
pub const LARGE: usize = 1 << 20;

/// Returns the memory freed so far to the system when `bytes` (a document
/// just applied) is [`LARGE`]; costs about a millisecond on a large heap.
pub fn after_document(bytes: usize) {
    if bytes >= LARGE {
        // SAFETY: mi_collect takes no arguments that could dangle, may be
        // called from any thread at any time, and only returns unused pages
        // to the system. With another global allocator (tests, benches) it
        // collects mimalloc's own, empty, heaps.
        unsafe { libmimalloc_sys::mi_collect(true) }
    }
}
