//! The browser test files: which run concurrently and which alone, which cover a changed path
//! (for `cargo xtask test --quick`), and the slowest tests of a run.

use std::collections::BTreeSet;
use std::fs;
use std::process::Command;

use crate::util::{root, Result};

/// The browser tests that run concurrently, one node process and one Chromium a file.
pub const DIR: &str = "tests/e2e/";
/// The browser tests that measure real time (frame pacing, the clock at 1x, long runs, off-screen
/// idling, wall-clock bounds): they run one file at a time after the rest, on a quiet machine.
pub const TIMED_DIR: &str = "tests/e2e/timed/";
/// How many files of `DIR` run at once, unless `KRAFTSCOPE_E2E_CONCURRENCY` says. Measured on
/// two cores (`cargo xtask test --browser` of the 17 files, 116 tests, one run each): 3 at once
/// 247 s, 4 at once 240 s, 6 at once 232 s with a test failing under the load (since fixed). A
/// playing page costs about 40% of a core, so past 3 or 4 the cores, not the waits, set the pace.
const CONCURRENCY: usize = 4;
/// What a test file covers is named on a line of its header: `// covers: src/web/keys.rs ...`.
const COVERS: &str = "// covers:";
/// The files run when a change touches the page but no file names it: the live cluster's basics.
const SMOKE: &str = "tests/e2e/cluster.test.mjs";

/// How many files of `DIR` run at once.
pub fn concurrency() -> usize {
    std::env::var("KRAFTSCOPE_E2E_CONCURRENCY")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(CONCURRENCY)
}

/// The `*.test.mjs` files of `dir` (not of its sub-folders), sorted.
pub fn files_in(dir: &str) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(root().join(dir))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".test.mjs") {
            files.push(format!("{dir}{name}"));
        }
    }
    files.sort();
    Ok(files)
}

/// Every browser test file, the concurrent ones first.
pub fn all_files() -> Result<Vec<String>> {
    Ok([files_in(DIR)?, files_in(TIMED_DIR)?].concat())
}

/// Whether `file` runs alone (it lives in `TIMED_DIR`).
pub fn is_timed(file: &str) -> bool {
    file.starts_with(TIMED_DIR)
}

/// The paths changed since main: committed on this branch since it left `origin/main` (or
/// `main`), changed in the work tree, or new and not ignored.
pub fn changed_paths() -> Result<BTreeSet<String>> {
    let git = |args: &[&str]| -> Result<String> {
        let output = Command::new("git").args(args).current_dir(root()).output()?;
        if !output.status.success() {
            return Err(format!(
                "`git {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
        Ok(String::from_utf8(output.stdout)?)
    };
    let base = ["origin/main", "main"]
        .into_iter()
        .find_map(|name| git(&["merge-base", "HEAD", name]).ok())
        .map_or_else(|| "HEAD".to_string(), |sha| sha.trim().to_string());
    let tracked = git(&["diff", "--name-only", &base])?;
    let untracked = git(&["ls-files", "--others", "--exclude-standard"])?;
    Ok(tracked.lines().chain(untracked.lines()).map(str::to_string).collect())
}

/// The browser test files that cover `changed`: a changed test file itself; every file when a
/// shared helper of the tests changed; each file whose `// covers:` names a prefix of a changed
/// path; and the smoke file when a path of the page (src/, www/, index.html, xtask/) changed
/// that no file names.
pub fn covering(changed: &BTreeSet<String>) -> Result<Vec<String>> {
    let files = all_files()?;
    let mut covers = Vec::new();
    for file in &files {
        let text = fs::read_to_string(root().join(file))?;
        let prefixes: Vec<String> = text
            .lines()
            .take_while(|line| line.starts_with("//"))
            .filter_map(|line| line.strip_prefix(COVERS))
            .flat_map(|list| list.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .collect();
        covers.push((file.clone(), prefixes));
    }
    let mut chosen = BTreeSet::new();
    for path in changed {
        if files.contains(path) {
            chosen.insert(path.clone());
        } else if path.starts_with(DIR) && !path.starts_with("tests/e2e/node_modules/") {
            if is_shared_helper(path) {
                chosen.extend(files.iter().cloned());
            }
        } else {
            let named: Vec<&String> = covers
                .iter()
                .filter(|(_, prefixes)| prefixes.iter().any(|prefix| path.starts_with(prefix.as_str())))
                .map(|(file, _)| file)
                .collect();
            if named.is_empty() && is_page_path(path) {
                chosen.insert(SMOKE.to_string());
            }
            chosen.extend(named.into_iter().cloned());
        }
    }
    Ok(files.into_iter().filter(|file| chosen.contains(file)).collect())
}

/// A file of tests/e2e that every test file may use: the shared set-up, Chromium's flags, the
/// seeded random numbers, axe and the pinned packages (benchmarks and the soak are not tests).
fn is_shared_helper(path: &str) -> bool {
    ["browser.mjs", "chromium.mjs", "random.mjs", "axe.mjs", "package.json", "package-lock.json"]
        .iter()
        .any(|name| path == format!("{DIR}{name}"))
}

/// A path the served page is built from.
fn is_page_path(path: &str) -> bool {
    ["src/", "www/", "xtask/", "index.html", "Cargo.toml", "Cargo.lock"]
        .iter()
        .any(|prefix| path.starts_with(prefix))
}

/// A suite's name from the line of node's spec reporter that opens it (`▶ name`): its closing
/// line looks like a test's, and is not one.
pub fn suite(line: &str) -> Option<String> {
    line.trim_start().strip_prefix("▶ ").map(str::to_string)
}

/// A test's name and wall time from one line of node's spec reporter (`✔ name (1234.5ms)`).
pub fn duration(line: &str) -> Option<(f64, String)> {
    let line = line.trim_start();
    let rest = line.strip_prefix("✔ ").or_else(|| line.strip_prefix("✖ "))?;
    let (name, time) = rest.strip_suffix("ms)")?.rsplit_once(" (")?;
    Some((time.parse().ok()?, name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(paths: &[&str]) -> BTreeSet<String> {
        paths.iter().map(|path| path.to_string()).collect()
    }

    #[test]
    fn a_changed_test_file_runs_itself_alone() {
        let chosen = covering(&changed(&["tests/e2e/share.test.mjs"])).unwrap();
        assert_eq!(chosen, ["tests/e2e/share.test.mjs"]);
    }

    #[test]
    fn a_changed_helper_runs_every_file() {
        let chosen = covering(&changed(&["tests/e2e/browser.mjs"])).unwrap();
        assert_eq!(chosen, all_files().unwrap());
    }

    #[test]
    fn a_page_file_runs_the_files_that_name_it_and_an_unnamed_one_the_smoke_file() {
        let chosen = covering(&changed(&["src/web/failover_tab.rs"])).unwrap();
        assert!(chosen.contains(&"tests/e2e/failover.test.mjs".to_string()), "{chosen:?}");
        assert!(!chosen.contains(&"tests/e2e/share.test.mjs".to_string()), "{chosen:?}");
        let chosen = covering(&changed(&["src/quorum/leader.rs"])).unwrap();
        assert_eq!(chosen, [SMOKE]);
        assert!(covering(&changed(&["README.md", "tests/voter_changes.rs"])).unwrap().is_empty());
    }

    #[test]
    fn every_covered_prefix_exists() {
        for file in all_files().unwrap() {
            let text = fs::read_to_string(root().join(&file)).unwrap();
            let lists: Vec<&str> = text.lines().filter_map(|line| line.strip_prefix(COVERS)).collect();
            assert!(!lists.is_empty(), "{file} names what it covers on a `{COVERS}` line");
            for prefix in lists.iter().flat_map(|list| list.split_whitespace()) {
                assert!(root().join(prefix).exists(), "{file} covers {prefix}, which does not exist");
            }
        }
    }

    #[test]
    fn spec_lines_give_names_and_times() {
        assert_eq!(duration("✔ a test (1234.5ms)"), Some((1234.5, "a test".to_string())));
        assert_eq!(
            duration("  ✖ nested (with parens) (12ms)"),
            Some((12.0, "nested (with parens)".to_string()))
        );
        assert_eq!(duration("ℹ pass 3"), None);
        assert_eq!(suite("▶ every view"), Some("every view".to_string()));
        assert_eq!(suite("✔ every view (3ms)"), None);
    }
}
