//! R15: paths mean files, however spelled. A file path in a check and a glob in an artifact's
//! `paths` are repository-relative with `/` separators; the spellings of one file (`./a`, `a//b`,
//! `x/../a`, a trailing `/`) are brought to one before anything is matched, and what cannot be
//! placed inside the repository is refused, so a hook learns to send a relative path rather
//! than being told "allowed" for a file it did not name the way an artifact does.

/// What a path or glob is: a file's name (every character literal) or a glob (`*`, `?`, `[`,
/// `{` are wildcards).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    File,
    Glob,
}

/// The characters that make a glob segment match more than one name.
const WILDCARDS: [char; 4] = ['*', '?', '[', '{'];

/// The one spelling of `path` inside the repository: `.` and empty segments dropped (so `./`,
/// `//` and a trailing `/` go), `..` taking back the segment before it. Refused, with the
/// reason: an absolute path, a `..` above the root, a `..` after a wildcard segment of a glob
/// (it cannot be resolved before matching), a NUL, a backslash (not a separator here; in a glob
/// use `[*]` for a literal wildcard), and a path that names the root itself.
pub fn normalize_path(path: &str, kind: PathKind) -> Result<String, &'static str> {
    if path.contains('\0') {
        return Err("must not contain NUL");
    }
    if path.contains('\\') {
        return Err("must use '/' as the separator, not '\\'");
    }
    if path.starts_with('/') {
        return Err("is absolute; send it relative to the repository root");
    }
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => match segments.pop() {
                Some(last) if kind == PathKind::Glob && last.contains(WILDCARDS) => {
                    return Err(
                        "has '..' after a wildcard, which cannot be resolved; spell the directory out",
                    );
                }
                Some(_) => {}
                None => {
                    return Err(
                        "leaves the repository through '..'; send it relative to the repository root",
                    );
                }
            },
            segment => segments.push(segment),
        }
    }
    if segments.is_empty() {
        return Err("names the repository root, not a file");
    }
    Ok(segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::PathKind::{File, Glob};
    use super::*;

    #[test]
    fn every_spelling_of_a_file_is_one_path() {
        for spelling in [
            "src/web/a.rs",
            "./src/web/a.rs",
            "src//web/a.rs",
            "src/x/../web/a.rs",
            "src/./web/a.rs",
            "././src/web//a.rs",
            "src/web/a.rs/",
            "src/web/deep/../../web/a.rs",
            "x/../src/web/a.rs",
        ] {
            assert_eq!(normalize_path(spelling, File).as_deref(), Ok("src/web/a.rs"), "{spelling}");
        }
        assert_eq!(normalize_path("README.md", File).as_deref(), Ok("README.md"));
        // Only whole segments are special: dots inside names stay.
        assert_eq!(normalize_path("a/..b/c../.d/...", File).as_deref(), Ok("a/..b/c../.d/..."));
    }

    #[test]
    fn what_is_outside_the_repository_is_refused() {
        for outside in [
            "/abs/src/web/a.rs",
            "/",
            "//src/a.rs",
            "../src/web/a.rs",
            "src/../../a.rs",
            "./..",
            "a\0b",
            "src\\web\\a.rs",
            ".",
            "./",
            "src/..",
            "",
        ] {
            assert!(normalize_path(outside, File).is_err(), "{outside:?}");
            assert!(normalize_path(outside, Glob).is_err(), "{outside:?}");
        }
    }

    #[test]
    fn globs_are_normalised_the_same_way() {
        assert_eq!(normalize_path("./src/web/**", Glob).as_deref(), Ok("src/web/**"));
        assert_eq!(normalize_path("src//web/*.rs", Glob).as_deref(), Ok("src/web/*.rs"));
        assert_eq!(normalize_path("src/x/../web/**", Glob).as_deref(), Ok("src/web/**"));
        assert_eq!(normalize_path("**/*.toml", Glob).as_deref(), Ok("**/*.toml"));
        // A `..` cannot take back a segment that matches many directories.
        for unresolvable in ["src/**/../a", "src/*/../a", "src/[ab]/../a", "src/{a,b}/../c", "src/a?/../b"] {
            assert!(normalize_path(unresolvable, Glob).is_err(), "{unresolvable}");
        }
        // In a file's name the same characters are letters.
        assert_eq!(normalize_path("src/*/../a", File).as_deref(), Ok("src/a"));
    }
}
