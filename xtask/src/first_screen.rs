//! The first screen's weight: what the page loads before its first drawing, gzipped, against a
//! budget. The file list is derived from the page itself: index.html and every file it references,
//! followed through the JS (imports, `new URL(…, import.meta.url)`) and the CSS (`url()`,
//! `@import`). Every other file of dist/ must be listed below as loaded later or never, so a new
//! file cannot escape the count unnoticed. The favicon counts although nothing waits for it: the
//! browser fetches it with the page.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::util::Result;

/// The first screen's budget in gzipped bytes (issue #48: at or under 330 KiB, the later views
/// loading later).
pub const BUDGET: usize = 330 * 1024;

/// The page's entry point, the root of the first screen's references.
const ENTRY: &str = "index.html";

/// Files of dist/ that the page loads after its first drawing, and when.
const LOADED_LATER: &[(&str, &str)] = &[
    (
        "kraftscope-full.js",
        "the full page, loaded by index.html instead of kraftscope.js for a link to the race, the pains or the log \
         reader, and when the live cluster hands over to one of them (Effect::OpenFullPage)",
    ),
    ("kraftscope-full_bg.wasm", "the full page's wasm, with kraftscope-full.js"),
    (
        "log-worker.js",
        "the metadata-log reader's Web Worker, started by web/log_reader.rs when a log is first opened",
    ),
    ("kraftscope-log.js", "the log reader's glue, imported by log-worker.js"),
    ("kraftscope-log_bg.wasm", "the log reader's wasm (the decoder alone), with kraftscope-log.js"),
    ("failover.csv", "fetched by web/app.rs when the failover tab opens (Effect::FetchMeasured)"),
    ("later.css", "the later views' styles (the pains', class mode's, the migration's), linked by index.html with the full page"),
    (
        "still.js",
        "the still exporter (SVG and PNG), imported by index.html's kraftscopeStill when a picture is saved \
         (Effect::SaveStill)",
    ),
    (
        "sw.js",
        "the service worker, registered by index.html once the page has drawn; it then fetches every file \
         of dist/ once, for offline use",
    ),
];

/// Files of dist/ that the page never loads, and what they are for.
const NOT_LOADED: &[(&str, &str)] =
    &[("embed-example.html", "a page of its own, the README's example of embedding this one")];

/// dist/'s files sorted into what the first screen loads, what loads later and what never does.
pub struct Weights {
    /// The first screen's files in the order they are reached from index.html, gzipped sizes.
    pub first_screen: Vec<(String, usize)>,
    pub later: Vec<(String, usize, &'static str)>,
    pub not_loaded: Vec<(String, usize, &'static str)>,
    /// What makes the count untrustworthy: files in no list, references to absent files, stale
    /// or contradicting list entries.
    pub problems: Vec<String>,
}

impl Weights {
    /// Sorts `files` (dist/'s relative paths with their contents and gzipped sizes).
    pub fn classify(files: &BTreeMap<String, (Vec<u8>, usize)>) -> Weights {
        let mut problems = Vec::new();
        let mut reached: Vec<String> = Vec::new();
        let mut queue = vec![ENTRY.to_string()];
        while let Some(path) = queue.pop() {
            if reached.contains(&path) {
                continue;
            }
            let Some((bytes, _)) = files.get(&path) else {
                problems.push(format!("{path} is loaded by the first screen but is not in dist/"));
                continue;
            };
            let text = String::from_utf8_lossy(bytes);
            let mut found = references(&path, &text);
            found.reverse();
            queue.extend(found);
            reached.push(path);
        }
        let gzipped = |path: &str| files.get(path).map_or(0, |(_, gzip)| *gzip);
        let first_screen: Vec<(String, usize)> = reached.iter().map(|p| (p.clone(), gzipped(p))).collect();
        let mut listed = |list: &[(&str, &'static str)], what: &str| {
            let mut out = Vec::new();
            for &(name, why) in list {
                if reached.iter().any(|p| p == name) {
                    problems.push(format!("{name} is listed as {what}, but the first screen loads it"));
                } else if !files.contains_key(name) {
                    problems.push(format!("{name} is listed as {what}, but dist/ has no such file"));
                } else {
                    out.push((name.to_string(), gzipped(name), why));
                }
            }
            out
        };
        let later = listed(LOADED_LATER, "loaded later");
        let not_loaded = listed(NOT_LOADED, "not loaded");
        let known = |name: &str| {
            reached.iter().any(|p| p == name)
                || LOADED_LATER.iter().chain(NOT_LOADED).any(|(n, _)| *n == name)
        };
        for name in files.keys().filter(|name| !known(name)) {
            problems.push(format!(
                "dist/{name} is neither loaded by the first screen nor listed in xtask/src/first_screen.rs \
                 as loaded later or never"
            ));
        }
        Weights { first_screen, later, not_loaded, problems }
    }

    pub fn total(&self) -> usize {
        self.first_screen.iter().map(|(_, size)| size).sum()
    }

    /// The first screen's files and sizes, then what loads later and what never loads.
    pub fn report(&self) -> String {
        let total = self.total();
        let margin = if total <= BUDGET {
            format!("{} B under", BUDGET - total)
        } else {
            format!("{} B OVER", total - BUDGET)
        };
        let mut out = format!(
            "first screen (index.html and what it loads before the first drawing), gzip -9: {total} B \
             ({:.1} KiB), budget {BUDGET} B ({:.1} KiB), {margin}\n",
            kib(total),
            kib(BUDGET)
        );
        let _ = writeln!(out, "  {}", sizes(self.first_screen.iter().map(|(name, size)| (name, *size))));
        for (name, size, why) in &self.later {
            let _ = writeln!(out, "loaded later: {name} {size} B, {why}");
        }
        for (name, size, why) in &self.not_loaded {
            let _ = writeln!(out, "not loaded by the page: {name} {size} B, {why}");
        }
        for problem in &self.problems {
            let _ = writeln!(out, "problem: {problem}");
        }
        out
    }

    /// Fails unless every file is accounted for and the first screen fits its budget.
    pub fn check(&self) -> Result<()> {
        if !self.problems.is_empty() {
            return Err(format!(
                "the first screen's file list cannot be trusted: {}",
                self.problems.join("; ")
            )
            .into());
        }
        let total = self.total();
        if total > BUDGET {
            return Err(format!(
                "the first screen weighs {total} B gzipped ({:.1} KiB: {}), over its budget of {BUDGET} B \
                 ({:.1} KiB) by {} B",
                kib(total),
                sizes(self.first_screen.iter().map(|(name, size)| (name, *size))),
                kib(BUDGET),
                total - BUDGET
            )
            .into());
        }
        Ok(())
    }

    /// What `cargo xtask bench` hands to tests/e2e/bench.mjs: `name=bytes` pairs of the first
    /// screen, then `;`, then those of the parts loaded later.
    pub fn for_bench(&self) -> String {
        fn pairs<'a>(files: impl Iterator<Item = (&'a String, usize)>) -> String {
            files.map(|(name, size)| format!("{name}={size}")).collect::<Vec<_>>().join(",")
        }
        let first = pairs(self.first_screen.iter().map(|(name, size)| (name, *size)));
        let later = pairs(self.later.iter().map(|(name, size, _)| (name, *size)));
        format!("{first};{later}")
    }
}

fn kib(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}

fn sizes<'a>(files: impl Iterator<Item = (&'a String, usize)>) -> String {
    files.map(|(name, size)| format!("{name} {size} B")).collect::<Vec<_>>().join(", ")
}

/// The files of dist/ that `text` (the file at `path`) makes the browser load, as dist/-relative
/// paths: in HTML, `href` and `src` attributes and the inline module scripts' imports; in JS,
/// static and dynamic imports and `new URL("…", import.meta.url)`; in CSS, `url()` and `@import`.
/// URLs with a scheme (`https:`, `data:`), protocol-relative ones and fragments are not files
/// of dist/. An `<a href>` to a page of dist/ would count too: a budget errs on the heavy side.
fn references(path: &str, text: &str) -> Vec<String> {
    const SCRIPT: [&str; 3] = ["from", "import(", "new URL("];
    let markers: &[&str] = match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "html" => &["href=", "src=", "from", "import(", "new URL("],
        "js" | "mjs" => &SCRIPT,
        "css" => &["url(", "@import"],
        _ => &[],
    };
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut found: Vec<(usize, String)> = Vec::new();
    for marker in markers {
        for (at, _) in text.match_indices(marker) {
            let Some(target) = quoted(&text[at + marker.len()..], *marker == "url(") else { continue };
            let target = target.split(['?', '#']).next().unwrap_or_default();
            let external = target.contains(':') || target.starts_with("//");
            if target.is_empty() || external {
                continue;
            }
            if *marker == "new URL("
                && !text[at..].split_once(')').is_some_and(|(call, _)| call.contains("import.meta.url"))
            {
                continue;
            }
            if let Some(resolved) = resolve(dir, target) {
                found.push((at, resolved));
            }
        }
    }
    found.sort();
    let mut paths: Vec<String> = Vec::new();
    for (_, path) in found {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}

/// The string literal that `rest` starts with (after spaces); with `bare`, also an unquoted
/// CSS `url(…)` argument.
fn quoted(rest: &str, bare: bool) -> Option<&str> {
    let rest = rest.trim_start();
    let quote = rest.chars().next()?;
    if matches!(quote, '"' | '\'' | '`') {
        let body = &rest[1..];
        return body.find(quote).map(|end| &body[..end]);
    }
    bare.then(|| rest.split(')').next().unwrap_or_default().trim())
}

/// `target` relative to the folder `dir` of dist/, with `.` and `..` resolved; `None` when it
/// climbs out of dist/.
fn resolve(dir: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = if target.starts_with('/') { Vec::new() } else { dir.split('/').collect() };
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    parts.retain(|part| !part.is_empty());
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(files: &[(&str, &str)]) -> BTreeMap<String, (Vec<u8>, usize)> {
        files.iter().map(|(name, text)| (name.to_string(), (text.as_bytes().to_vec(), text.len()))).collect()
    }

    /// `files` and an empty file for each of the parts loaded later.
    fn with_later_parts(files: &[(&'static str, &'static str)]) -> BTreeMap<String, (Vec<u8>, usize)> {
        let later = LOADED_LATER.iter().map(|(name, _)| (*name, ""));
        dist(&files.iter().copied().chain(later).collect::<Vec<_>>())
    }

    #[test]
    fn follows_the_page_through_html_js_and_css() {
        let files = with_later_parts(&[
            (
                "index.html",
                r##"<link rel="icon" href="favicon.svg"><link rel="stylesheet" href="./style.css">
                   <a href="https://kafka.apache.org/">Kafka</a><a href="#top">top</a>
                   <script type="module">const FULL = { glue: "./kraftscope-full.js" };
                   (full ? import(FULL.glue) : import("./kraftscope.js")).then((m) => m.default());</script>"##,
            ),
            ("favicon.svg", "<svg/>"),
            ("style.css", "@import 'fonts/a.css'; body { background: url(img/bg.png) }"),
            ("fonts/a.css", "src: url(\"../font.woff2\") url(data:font/woff2;base64,AAAA)"),
            ("font.woff2", "ff"),
            ("img/bg.png", "png"),
            (
                "kraftscope.js",
                "x = new URL('kraftscope_bg.wasm', import.meta.url); new URL(getString(a, b));",
            ),
            ("kraftscope_bg.wasm", "\0asm"),
            ("embed-example.html", r#"<script src="kraftscope.js"></script>"#),
        ]);
        let weights = Weights::classify(&files);
        let names: Vec<&str> = weights.first_screen.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "index.html",
                "favicon.svg",
                "style.css",
                "fonts/a.css",
                "font.woff2",
                "img/bg.png",
                "kraftscope.js",
                "kraftscope_bg.wasm"
            ]
        );
        assert!(weights.problems.is_empty(), "{:?}", weights.problems);
        assert_eq!(weights.later.len(), LOADED_LATER.len());
        assert_eq!(weights.not_loaded.len(), 1);
        assert!(weights.check().is_ok());
    }

    #[test]
    fn a_file_in_no_list_or_a_missing_one_is_a_problem() {
        let files = dist(&[
            ("index.html", r#"<script type="module" src="app.js"></script>"#),
            ("worker.js", "onmessage = () => {}"),
            ("failover.csv", "a,b"),
        ]);
        let weights = Weights::classify(&files);
        assert_eq!(
            weights.problems,
            [
                "app.js is loaded by the first screen but is not in dist/",
                "kraftscope-full.js is listed as loaded later, but dist/ has no such file",
                "kraftscope-full_bg.wasm is listed as loaded later, but dist/ has no such file",
                "log-worker.js is listed as loaded later, but dist/ has no such file",
                "kraftscope-log.js is listed as loaded later, but dist/ has no such file",
                "kraftscope-log_bg.wasm is listed as loaded later, but dist/ has no such file",
                "later.css is listed as loaded later, but dist/ has no such file",
                "still.js is listed as loaded later, but dist/ has no such file",
                "sw.js is listed as loaded later, but dist/ has no such file",
                "embed-example.html is listed as not loaded, but dist/ has no such file",
                "dist/worker.js is neither loaded by the first screen nor listed in xtask/src/first_screen.rs \
                 as loaded later or never",
            ]
        );
        assert!(weights.check().is_err());
    }

    #[test]
    fn over_the_budget_names_the_files_and_sizes() {
        let wasm: &'static str = "w".repeat(BUDGET).leak();
        let files = with_later_parts(&[
            ("index.html", r#"<script type="module">import init from "./k.js";</script>"#),
            ("k.js", "new URL(\"k.wasm\", import.meta.url)"),
            ("k.wasm", wasm),
            ("embed-example.html", ""),
        ]);
        let err = Weights::classify(&files).check().unwrap_err().to_string();
        assert!(err.contains("index.html 57 B, k.js 34 B, k.wasm 337920 B"), "{err}");
        assert!(err.contains("over its budget of 337920 B (330.0 KiB) by 91 B"), "{err}");
    }
}
