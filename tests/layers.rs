//! Imports point down the layers of docs/architecture.md, never back up: a module may use only
//! modules of lower layers, and no two files import each other, even through others. Read from
//! the `crate::` and `super::` paths of src/ (no compiler needed), so a back edge fails here
//! with the file and the line that made it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The crate's top-level modules, highest layer first; a module may import those below its
/// own layer only. `lib.rs` declares and re-exports them and imports none.
const LAYERS: &[&[&str]] = &[
    // Git's hooks and CI's check, which speak as the runtime hooks do.
    &["guard"],
    // The process: serving, and the hook runtimes' entry point.
    &["server", "hook"],
    // The command line's subcommands (a hook asks the server through its client).
    &["cli"],
    // MCP's tools are the REST API's operations; startup connects and migrates.
    &["mcp", "startup"],
    &["http"],
    &["app"],
    &["metrics"],
    &["store"],
    // The API's bodies and the events' data: built by `app`, served by `http`, logged by `store`.
    &["resources"],
    &["auth", "config", "outbound", "seal", "validate"],
    &["error", "rate_limit", "telemetry"],
    &["domain"],
];

/// A file's module path (`["store", "listener"]` for src/store/listener/mod.rs) and its text.
fn sources() -> Vec<(Vec<String>, String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(Vec<String>, String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix("src").unwrap().with_extension("");
                let mut module: Vec<String> =
                    relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    module.pop();
                }
                let name = path.display().to_string();
                if name != "src/main.rs" {
                    out.push((module, name, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new("src"), &mut out);
    out
}

/// The paths a `use` tree (or a path in code) names, from just after `crate::` or `super::`.
fn paths(text: &str) -> Vec<Vec<String>> {
    fn tree(s: &[u8], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        loop {
            while *i < s.len() && s[*i].is_ascii_whitespace() {
                *i += 1;
            }
            if s.get(*i) == Some(&b'{') {
                *i += 1;
                loop {
                    tree(s, i, &path, out);
                    while *i < s.len() && s[*i].is_ascii_whitespace() {
                        *i += 1;
                    }
                    match s.get(*i) {
                        Some(b',') => *i += 1,
                        _ => {
                            *i += 1;
                            return;
                        }
                    }
                    while *i < s.len() && s[*i].is_ascii_whitespace() {
                        *i += 1;
                    }
                    if s.get(*i) == Some(&b'}') {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_') {
                *i += 1;
            }
            if start == *i {
                break;
            }
            path.push(String::from_utf8_lossy(&s[start..*i]).into_owned());
            if s[*i..].starts_with(b"::") {
                *i += 2;
            } else {
                break;
            }
        }
        out.push(path);
    }
    let mut out = Vec::new();
    tree(text.as_bytes(), &mut 0, &[], &mut out);
    out
}

/// Each file's imports of other files: (from, to, line).
fn edges() -> Vec<(Vec<String>, Vec<String>, String)> {
    let sources = sources();
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|(m, _, _)| m.clone()).collect();
    // The file that defines a path: its longest prefix that is a file's module.
    let file_of = |path: &[String]| {
        (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p)).unwrap_or_default()
    };
    let mut edges = Vec::new();
    for (module, name, text) in &sources {
        let is_mod_rs = name.ends_with("mod.rs") || name.ends_with("lib.rs");
        let mut in_tests = false;
        for (n, line) in text.lines().enumerate() {
            in_tests |= line.starts_with("mod tests {");
            let code = line.split("//").next().unwrap();
            for (at, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
                let is_super = code[at..].starts_with("super::");
                if is_super && (in_tests || at >= 2 && &code[at - 2..at] == "::") {
                    continue;
                }
                let base: Vec<String> = match (is_super, is_mod_rs) {
                    (false, _) => Vec::new(),
                    (true, true) => module[..module.len().saturating_sub(1)].to_vec(),
                    (true, false) => module[..module.len() - 1].to_vec(),
                };
                let skip = if is_super { "super::".len() } else { "crate::".len() };
                for path in paths(&code[at + skip..]) {
                    let target = file_of(&[base.clone(), path].concat());
                    if &target != module {
                        edges.push((module.clone(), target, format!("{name}:{}: {}", n + 1, line.trim())));
                    }
                }
            }
        }
    }
    edges
}

fn layer(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&module))
        .unwrap_or_else(|| panic!("src/{module} is in no layer of tests/layers.rs: add it where it belongs"))
}

#[test]
fn imports_point_down_the_layers() {
    let back: Vec<String> = edges()
        .into_iter()
        .filter_map(|(from, to, line)| {
            let (from, to) = (from.first()?, to.first()?);
            (from != to && layer(to) <= layer(from)).then(|| format!("{from} -> {to} at {line}"))
        })
        .collect();
    assert!(back.is_empty(), "imports that run back up the layers:\n{}", back.join("\n"));
}

#[test]
fn no_files_import_each_other() {
    // A module's own submodules are part of it: a parent and its children may use each other.
    let related = |a: &[String], b: &[String]| a.starts_with(b) || b.starts_with(a);
    let mut graph: BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>> = BTreeMap::new();
    for (from, to, line) in edges() {
        if !related(&from, &to) {
            graph.entry(from).or_default().entry(to).or_insert(line);
        }
    }
    // A depth-first search from every file; a path back to a file on the stack is a circle.
    fn visit(
        graph: &BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>>,
        file: &Vec<String>,
        stack: &mut Vec<(Vec<String>, String)>,
        done: &mut BTreeSet<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|(f, _)| f == file) {
            circles.push(stack[at..].iter().map(|(_, line)| line.as_str()).collect::<Vec<_>>().join("\n  "));
            return;
        }
        if !done.insert(file.clone()) {
            return;
        }
        for (to, line) in graph.get(file).into_iter().flatten() {
            stack.push((file.clone(), line.clone()));
            visit(graph, to, stack, done, circles);
            stack.pop();
        }
    }
    let (mut done, mut circles) = (BTreeSet::new(), Vec::new());
    for file in graph.keys() {
        visit(&graph, file, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(circles.is_empty(), "files that import each other:\n  {}", circles.join("\n\n  "));
}
