//! Artifact path patterns: `*` stops at `/`, `**` crosses directories.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use globset::{GlobBuilder, GlobMatcher};

/// Compiles a pattern; the error says why it is not a valid glob.
pub fn compile(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    Ok(GlobBuilder::new(pattern).literal_separator(true).build()?.compile_matcher())
}

/// Patterns compiled by this process. Compiling one builds a regex, most of a path check's
/// work, and a team's patterns are few and rarely change; the cache is emptied when full.
static COMPILED: LazyLock<Mutex<HashMap<String, Arc<GlobMatcher>>>> = LazyLock::new(Default::default);

const COMPILED_LIMIT: usize = 4096;

/// The matcher of a stored pattern (validated when it was stored), compiled once.
pub fn matcher(pattern: &str) -> Option<Arc<GlobMatcher>> {
    let cached = COMPILED.lock().unwrap_or_else(PoisonError::into_inner).get(pattern).cloned();
    if cached.is_some() {
        return cached;
    }
    let compiled = Arc::new(compile(pattern).ok()?);
    let mut cache = COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= COMPILED_LIMIT {
        cache.clear();
    }
    cache.insert(pattern.to_owned(), compiled.clone());
    Some(compiled)
}
