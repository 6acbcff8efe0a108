//! The files a patch writes, for the runtimes whose edit tool takes a patch (Codex's and
//! Copilot's `apply_patch`).

/// Every file a patch writes, in order, once each: the headers of the `*** Begin Patch` format
/// (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`), else the
/// `---`/`+++` lines of a unified diff (`a/`, `b/` taken off, `/dev/null` skipped).
pub fn files(patch: &str) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    let mut add = |file: &str| {
        let file = file.trim();
        if !file.is_empty() && file != "/dev/null" && !files.iter().any(|f| f == file) {
            files.push(file.to_owned());
        }
    };
    let headers = envelope_files(patch);
    if !headers.is_empty() {
        headers.iter().for_each(|f| add(f));
    } else {
        for line in patch.lines() {
            if let Some(file) = line.strip_prefix("+++ ").or_else(|| line.strip_prefix("--- ")) {
                // A timestamp may follow a tab.
                let file = file.split('\t').next().unwrap_or_default();
                add(file.strip_prefix("a/").or_else(|| file.strip_prefix("b/")).unwrap_or(file));
            }
        }
    }
    files
}

/// The files named by the `*** Begin Patch` format's headers only. Codex's parser trims each
/// line before reading a header, so an indented header still writes its file.
pub fn envelope_files(patch: &str) -> Vec<&str> {
    const HEADERS: [&str; 4] = ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "];
    patch
        .lines()
        .filter_map(|line| HEADERS.iter().find_map(|h| line.trim_start().strip_prefix(h)))
        .map(str::trim)
        .filter(|file| !file.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_writes_every_file_it_names_once() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: src/b.rs\n+new\n\
                     *** Delete File: old.rs\n*** Update File: src/a.rs\n*** Move to: src/c.rs\n*** End Patch\n";
        assert_eq!(files(patch), vec!["src/a.rs", "src/b.rs", "old.rs", "src/c.rs"]);
    }

    #[test]
    fn an_indented_header_still_names_its_file() {
        assert_eq!(files("*** Begin Patch\n  *** Add File: a.rs\n+x\n*** End Patch"), vec!["a.rs"]);
    }

    #[test]
    fn a_unified_diff_names_its_files() {
        let diff =
            "--- a/src/a.rs\t2026-01-01\n+++ b/src/a.rs\n@@ -1 +1 @@\n-x\n+y\n--- /dev/null\n+++ b/new.rs\n";
        assert_eq!(files(diff), vec!["src/a.rs", "new.rs"]);
        assert!(envelope_files(diff).is_empty(), "no envelope headers in a unified diff");
    }
}
