//! `reviewlock guard install`: git's `pre-commit` and `pre-push` hooks, each a few lines of sh
//! that run the hook that was there before (kept as `<hook>.local`), then this binary.

use std::path::{Path, PathBuf};

/// Marks a hook as this one, so that installing again updates it instead of chaining it.
const MARK: &str = "# reviewlock guard hook";

/// The hooks installed, with what each does after the previous hook.
const HOOKS: [&str; 2] = ["pre-commit", "pre-push"];

/// Installs both hooks into `dir` (created if missing), calling `binary`. What happened, one
/// line per hook.
pub fn install(dir: &Path, binary: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut done = Vec::new();
    for name in HOOKS {
        let path = dir.join(name);
        let local = dir.join(format!("{name}.local"));
        let existing = std::fs::read(&path).ok();
        let ours = existing.as_deref().is_some_and(|text| String::from_utf8_lossy(text).contains(MARK));
        if existing.is_some() && !ours {
            if local.exists() {
                return Err(format!(
                    "{} and {} both exist: merge the first into the second, then install again",
                    path.display(),
                    local.display()
                ));
            }
            std::fs::rename(&path, &local).map_err(|e| format!("cannot rename {}: {e}", path.display()))?;
            done.push(format!("kept the existing {name} hook as {}; it runs first", local.display()));
        }
        write_executable(&path, &script(name, binary))?;
        done.push(format!("{} {}", if ours { "updated" } else { "installed" }, path.display()));
    }
    Ok(done)
}

/// The hook's text. git passes pre-push its refs on stdin, which both hooks read: it is read
/// once and given to each.
fn script(name: &str, binary: &Path) -> String {
    let binary = quote(&binary.to_string_lossy());
    let head = format!(
        "#!/bin/sh\n{MARK}: written by `reviewlock guard install` (run it again to update).\n\
         # A {name} hook that was here before is kept as {name}.local and runs first.\n\
         local_hook=\"$(dirname \"$0\")/{name}.local\"\n"
    );
    let body = if name == "pre-push" {
        format!(
            "input=$(cat)\n\
             if [ -x \"$local_hook\" ]; then\n    printf '%s\\n' \"$input\" | \"$local_hook\" \"$@\" || exit $?\nfi\n\
             printf '%s\\n' \"$input\" | {binary} guard {name} \"$@\"\n"
        )
    } else {
        format!(
            "if [ -x \"$local_hook\" ]; then\n    \"$local_hook\" \"$@\" || exit $?\nfi\n\
             exec {binary} guard {name} \"$@\"\n"
        )
    };
    head + &body
}

/// `value` as one sh word.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

fn write_executable(path: &PathBuf, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("cannot make {} executable: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_one_sh_word() {
        assert_eq!(quote("/opt/review lock/it's"), r"'/opt/review lock/it'\''s'");
    }

    #[test]
    fn the_pre_push_hook_gives_git_s_lines_to_both_hooks() {
        let text = script("pre-push", Path::new("/bin/reviewlock"));
        assert!(text.starts_with("#!/bin/sh\n# reviewlock guard hook"), "{text}");
        assert!(text.contains("input=$(cat)"), "{text}");
        assert!(text.contains("| \"$local_hook\" \"$@\" || exit $?"), "{text}");
        assert!(text.ends_with("| '/bin/reviewlock' guard pre-push \"$@\"\n"), "{text}");
    }
}
