//! Where the repository is, and a written file's path relative to it (R15 refuses absolute
//! paths, so the hook sends every path relative to the root).

use std::path::{Component, Path, PathBuf};

/// The repository's root: `--root` if given, else `git rev-parse --show-toplevel` run in `cwd`,
/// else `cwd` itself.
pub fn root(given: Option<&Path>, cwd: &Path) -> PathBuf {
    if let Some(root) = given {
        return cwd.join(root);
    }
    let toplevel = std::process::Command::new("git")
        .arg("-C")
        .arg(cwd)
        .args(["rev-parse", "--show-toplevel"])
        .stderr(std::process::Stdio::null())
        .output();
    match toplevel {
        Ok(out) if out.status.success() => PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end()),
        _ => cwd.to_owned(),
    }
}

/// `path` (absolute, or relative to `cwd`) relative to `root`, `/`-separated; `None` when it
/// is not inside `root` (or is `root` itself). Compared as spelled, then with symbolic links
/// resolved as far as the path exists (a file about to be created does not yet).
pub fn relative(path: &str, cwd: &Path, root: &Path) -> Option<String> {
    let absolute = normalise(&cwd.join(path));
    let root = normalise(root);
    inside(&absolute, &root).or_else(|| inside(&resolved(&absolute), &resolved(&root)))
}

fn inside(path: &Path, root: &Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rest.components().map(|c| c.as_os_str().to_str()).collect::<Option<_>>()?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// `.` and `..` taken out without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The path with symbolic links resolved in its longest existing ancestor.
fn resolved(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut tail = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return tail.iter().rev().fold(real, |p, c| p.join(c));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_root_become_relative() {
        let (root, cwd) = (Path::new("/repo"), Path::new("/repo"));
        assert_eq!(relative("/repo/src/a.rs", cwd, root).as_deref(), Some("src/a.rs"));
        assert_eq!(relative("./src/a.rs", cwd, root).as_deref(), Some("src/a.rs"));
        assert_eq!(relative("src//x/../a.rs", cwd, root).as_deref(), Some("src/a.rs"));
        assert_eq!(relative("a.rs", Path::new("/repo/src"), root).as_deref(), Some("src/a.rs"));
        assert_eq!(relative("../README.md", Path::new("/repo/src"), root).as_deref(), Some("README.md"));
        assert_eq!(relative("/repo/./src/../lib.rs", cwd, root).as_deref(), Some("lib.rs"));
    }

    #[test]
    fn paths_outside_the_root_are_none() {
        let (root, cwd) = (Path::new("/repo"), Path::new("/repo"));
        assert_eq!(relative("/etc/passwd", cwd, root), None);
        assert_eq!(relative("../other/a.rs", cwd, root), None);
        assert_eq!(relative("/repository/a.rs", cwd, root), None, "a prefix of the name is not inside");
        assert_eq!(relative("/repo", cwd, root), None, "the root itself is no file");
        assert_eq!(relative("a.rs", Path::new("/elsewhere"), root), None);
    }

    #[test]
    fn a_symbolic_link_to_the_root_is_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let file = link.join("new/file.rs");
        assert_eq!(relative(file.to_str().unwrap(), &link, &real).as_deref(), Some("new/file.rs"));
    }

    #[test]
    fn the_root_is_given_or_git_s_or_the_working_directory() {
        assert_eq!(root(Some(Path::new("/r")), Path::new("/x")), PathBuf::from("/r"));
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(root(None, dir.path()), dir.path());
    }
}
