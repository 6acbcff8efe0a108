//! Files and the artifacts that cover them (R15): the `paths` globs of an artifact, the file
//! paths of a check, their limits, and the compiled globs. `*` stops at `/`, `**` crosses
//! directories.
//!
//! Compiling a glob builds a regex: it is the costly part of both creating an artifact and
//! checking paths, so it happens only for input that passed the cheap limits, and once per
//! artifact, not per request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

use crate::domain::{PathKind, normalize_path};
use crate::error::Result;
use crate::validate::{Fields, MAX_LIST};

/// The most globs an artifact's `paths` holds.
pub const MAX_GLOBS: usize = MAX_LIST;
/// The longest glob, in bytes.
pub const MAX_GLOB: usize = 200;
/// The most bytes an artifact's globs hold together.
pub const MAX_GLOBS_TOTAL: usize = 4096;
/// The most file paths one check asks about.
pub const MAX_CHECK_PATHS: usize = 256;
/// The most file paths a ref check asks about: a commit's, so more than a write's.
pub const MAX_REF_CHECK_PATHS: usize = 1000;
/// The longest file path in a check, in bytes: so a check of the most paths, each the longest,
/// fits the 256 KiB a request body may hold.
pub const MAX_PATH: usize = 1000;

/// An artifact's `paths` as a request sends them, checked in order of cost: the count and the
/// sizes, then each glob's spelling (normalised, R15), then, when all of that passed, the
/// compiled set. Returns the normalised globs, or 422 `invalid_field` naming each one at fault
/// (`paths[3]`).
pub fn patterns(field: &str, values: &[String]) -> Result<Vec<String>> {
    let mut fields = Fields::new();
    if values.len() > MAX_GLOBS {
        fields.add(field, format!("must have at most {MAX_GLOBS} items"));
        return fields.finish().map(|()| Vec::new());
    }
    if values.iter().map(String::len).sum::<usize>() > MAX_GLOBS_TOTAL {
        fields.add(field, format!("must hold at most {MAX_GLOBS_TOTAL} bytes in all"));
        return fields.finish().map(|()| Vec::new());
    }
    let normalised = spellings(&mut fields, field, values, MAX_GLOB, PathKind::Glob);
    for (i, glob) in normalised.iter().enumerate() {
        if normalised[..i].contains(glob) {
            fields.add(format!("{field}[{i}]"), format!("is listed twice (as '{glob}')"));
        }
    }
    fields.finish()?;
    let mut fields = Fields::new();
    for (i, glob) in normalised.iter().enumerate() {
        if let Err(e) = compile(glob) {
            fields.add(format!("{field}[{i}]"), format!("is not a valid glob: {}", e.kind()));
        }
    }
    fields.finish()?;
    let mut fields = Fields::new();
    if let Err(e) = build(&normalised) {
        fields.add(field, format!("are too complex to match together: {}", e.kind()));
    }
    fields.finish().map(|()| normalised)
}

/// A check's file paths: at most [`MAX_CHECK_PATHS`], each normalised (R15); else 422
/// `invalid_field` naming each one at fault.
pub fn files(field: &str, values: &[String]) -> Result<Vec<String>> {
    files_up_to(field, values, MAX_CHECK_PATHS)
}

/// As [`files`], at most `max` of them.
pub fn files_up_to(field: &str, values: &[String], max: usize) -> Result<Vec<String>> {
    let mut fields = Fields::new();
    if values.len() > max {
        fields.add(field, format!("must have at most {max} items"));
        return fields.finish().map(|()| Vec::new());
    }
    let normalised = spellings(&mut fields, field, values, MAX_PATH, PathKind::File);
    fields.finish().map(|()| normalised)
}

/// Each value bounded, printable and normalised; the faults go to `fields`.
fn spellings(fields: &mut Fields, field: &str, values: &[String], max: usize, kind: PathKind) -> Vec<String> {
    let mut normalised = Vec::with_capacity(values.len());
    for (i, value) in values.iter().enumerate() {
        let name = format!("{field}[{i}]");
        if value.len() > max {
            fields.add(name, format!("must be at most {max} bytes"));
        } else if value.chars().any(char::is_control) {
            fields.add(name, "must not contain control characters");
        } else {
            match normalize_path(value, kind) {
                Ok(path) => normalised.push(path),
                Err(why) => fields.add(name, why),
            }
        }
    }
    normalised
}

fn compile(glob: &str) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(glob).literal_separator(true).build()
}

fn build(globs: &[String]) -> Result<GlobSet, globset::Error> {
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        set.add(compile(glob)?);
    }
    set.build()
}

/// The globs of the artifacts a check reads, compiled once per artifact: a bounded cache that
/// evicts the entry used least recently, so a process that sees more artifacts than it holds
/// compiles again only those it had not used lately, never all of them.
pub struct Coverage {
    capacity: usize,
    inner: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    by_artifact: HashMap<i64, Entry>,
    /// Increases with every use; an entry's `used` is the clock when it was last used.
    clock: u64,
    compiled: u64,
    evicted: u64,
}

struct Entry {
    /// The globs the set was compiled from: a lookup with other globs (the artifact id of
    /// another database) compiles again.
    globs: Vec<String>,
    set: Arc<GlobSet>,
    used: u64,
}

/// What a [`Coverage`] holds and has done, for tests and operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoverageStats {
    pub entries: usize,
    pub compiled: u64,
    pub evicted: u64,
}

impl Coverage {
    /// Artifacts compiled per process by default: at most 64 globs each, a few hundred KiB of
    /// automata at worst, a few KiB for the globs a team writes.
    pub const CAPACITY: usize = 1024;

    pub fn new(capacity: usize) -> Self {
        Self { capacity: capacity.max(1), inner: Mutex::default() }
    }

    /// The compiled globs of the artifact `id`, whose stored `globs` are these. A stored glob is
    /// matched as its normalised spelling (R15); one that cannot be placed in the repository or
    /// does not compile (stored before either was checked) matches nothing.
    pub fn set(&self, id: i64, globs: &[String]) -> Arc<GlobSet> {
        if let Some(set) = self.entries().hit(id, globs) {
            return set;
        }
        let usable: Vec<String> = globs
            .iter()
            .filter_map(|g| normalize_path(g, PathKind::Glob).ok())
            .filter(|g| compile(g).is_ok())
            .collect();
        let set = Arc::new(build(&usable).unwrap_or_else(|e| {
            tracing::error!(artifact = id, error = %e, "an artifact's stored globs do not compile together");
            GlobSet::empty()
        }));
        self.entries().insert(id, globs, set.clone(), self.capacity);
        set
    }

    pub fn stats(&self) -> CoverageStats {
        let entries = self.entries();
        CoverageStats {
            entries: entries.by_artifact.len(),
            compiled: entries.compiled,
            evicted: entries.evicted,
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for Coverage {
    fn default() -> Self {
        Self::new(Self::CAPACITY)
    }
}

impl Entries {
    fn hit(&mut self, id: i64, globs: &[String]) -> Option<Arc<GlobSet>> {
        self.clock += 1;
        let clock = self.clock;
        let entry = self.by_artifact.get_mut(&id).filter(|e| e.globs == globs)?;
        entry.used = clock;
        Some(entry.set.clone())
    }

    fn insert(&mut self, id: i64, globs: &[String], set: Arc<GlobSet>, capacity: usize) {
        self.compiled += 1;
        if !self.by_artifact.contains_key(&id) && self.by_artifact.len() >= capacity {
            // A scan, but only on a miss, which compiled a set: far the larger cost.
            let oldest = self.by_artifact.iter().min_by_key(|(_, e)| e.used).map(|(id, _)| *id);
            if let Some(oldest) = oldest {
                self.by_artifact.remove(&oldest);
                self.evicted += 1;
            }
        }
        self.by_artifact.insert(id, Entry { globs: globs.to_vec(), set, used: self.clock });
    }
}

/// A file path prepared once for matching against many artifacts' sets.
pub fn candidate(path: &str) -> Candidate<'_> {
    Candidate::new(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn fields(result: Result<Vec<String>>) -> Vec<String> {
        match result {
            Err(crate::error::Error::InvalidFields(errors)) => errors.into_iter().map(|e| e.field).collect(),
            other => panic!("expected invalid_field, got {other:?}"),
        }
    }

    #[test]
    fn patterns_are_normalised_and_checked_cheapest_first() {
        let ok = patterns("paths", &list(&["./src/web/**", "config//*.toml"])).unwrap();
        assert_eq!(ok, ["src/web/**", "config/*.toml"]);
        assert_eq!(
            fields(patterns("paths", &list(&["a/**", "/abs/**", "a/[", "../x"]))),
            ["paths[1]", "paths[3]"]
        );
        // Compiled only once every spelling is good.
        assert_eq!(fields(patterns("paths", &list(&["a/**", "a/["]))), ["paths[1]"]);
        assert_eq!(fields(patterns("paths", &list(&["src/a", "./src/a"]))), ["paths[1]"]);
        assert_eq!(fields(patterns("paths", &vec!["a".to_owned(); 65])), ["paths"]);
        assert_eq!(fields(patterns("paths", &vec!["a".repeat(100); 41])), ["paths"]);
        assert_eq!(fields(patterns("paths", &list(&[&"a".repeat(201)]))), ["paths[0]"]);
        // A glob far longer than allowed is refused by its length, never compiled.
        assert_eq!(fields(patterns("paths", &list(&[&"{a,".repeat(50_000)]))), ["paths"]);
    }

    #[test]
    fn files_are_normalised_and_bounded() {
        assert_eq!(files("paths", &list(&["./src//web/x/../a.rs"])).unwrap(), ["src/web/a.rs"]);
        assert_eq!(
            fields(files("paths", &list(&["ok", "/abs", "a\\b", &"a".repeat(1001)]))),
            ["paths[1]", "paths[2]", "paths[3]"]
        );
        assert_eq!(fields(files("paths", &vec!["a".to_owned(); 257])), ["paths"]);
    }

    #[test]
    fn coverage_compiles_each_artifact_once_and_evicts_the_least_recently_used() {
        let coverage = Coverage::new(2);
        let (a, b, c) = (list(&["src/a/**"]), list(&["src/b/**"]), list(&["./src/c/*.rs", "/abs/**"]));
        assert!(coverage.set(1, &a).is_match("src/a/x.rs"));
        coverage.set(2, &b);
        coverage.set(1, &a);
        assert_eq!(coverage.stats(), CoverageStats { entries: 2, compiled: 2, evicted: 0 });
        // 2 was used least recently: it goes, 1 stays.
        let set = coverage.set(3, &c);
        assert!(set.is_match("src/c/x.rs") && !set.is_match("abs/x"), "stored globs match as normalised");
        assert_eq!(coverage.stats(), CoverageStats { entries: 2, compiled: 3, evicted: 1 });
        coverage.set(1, &a);
        assert_eq!(coverage.stats().compiled, 3);
        // The same id with other globs (another database's artifact) is compiled afresh.
        assert!(coverage.set(1, &b).is_match("src/b/y"));
        assert_eq!(coverage.stats(), CoverageStats { entries: 2, compiled: 4, evicted: 1 });
    }
}
