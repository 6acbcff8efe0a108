//! bench/sql/*.sql are pgbench scripts issuing the SQL the service issues per operation
//! (bench/run, BENCHMARKS.md). Each statement is preceded by `-- mirrors: <file> <function>`;
//! this test keeps those names true, so a renamed or removed function fails here and points at
//! the script to update. (It does not compare statement text: the scripts inline literals
//! where pgbench cannot bind what the service binds, e.g. NULL.)

use std::path::Path;

#[test]
fn every_bench_statement_names_a_function_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut scripts = 0;
    for entry in std::fs::read_dir(root.join("bench/sql")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "sql") {
            continue;
        }
        scripts += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let mut mirrors = 0;
        let mut pending = false;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("-- mirrors: ") {
                let mut words = rest.split_whitespace();
                let (file, function) = (words.next().unwrap(), words.next().unwrap());
                let source = std::fs::read_to_string(root.join(file))
                    .unwrap_or_else(|e| panic!("{}: {file}: {e}", path.display()));
                assert!(
                    source.contains(&format!("fn {function}("))
                        || source.contains(&format!("fn {function}<")),
                    "{}: {file} has no function {function}",
                    path.display()
                );
                mirrors += 1;
                pending = true;
            } else if ["select ", "insert ", "update ", "with ", "delete "]
                .iter()
                .any(|k| line.starts_with(k))
            {
                assert!(pending, "{}: statement without a `-- mirrors:` line: {line}", path.display());
                pending = false;
            }
        }
        assert!(mirrors > 0, "{} names no function", path.display());
    }
    assert_eq!(scripts, 4, "write_cycle, status_read, check, events_poll");
}
