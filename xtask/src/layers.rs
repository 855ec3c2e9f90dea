//! The layer check of the lints step: a module of `src/` may use its own layer and the layers
//! below it, never one above. The layers are `src/lib.rs`'s blocks of `mod` lines, bottom up,
//! each named by its first comment line; the modules `src/main.rs` declares (the command line)
//! sit above them all. Every `crate::NAME` and `super::` path in a file (comment lines left out)
//! is resolved to the top-level module it names.

use std::fs;
use std::path::Path;

use crate::util::{root, Result};

/// A module and the layer it belongs to.
#[derive(Debug, PartialEq)]
struct Module {
    name: String,
    layer: usize,
}

/// The layers, bottom up: each one's name and modules.
#[derive(Debug, PartialEq)]
pub struct Layers {
    names: Vec<String>,
    modules: Vec<Module>,
}

/// A path into a higher layer.
#[derive(Debug, PartialEq)]
pub struct Upward {
    pub file: String,
    pub line: usize,
    /// The line as written.
    pub text: String,
    pub from: String,
    pub to: String,
}

impl std::fmt::Display for Upward {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} imports from {}, a layer above it: {}",
            self.file, self.line, self.from, self.to, self.text
        )
    }
}

impl Layers {
    /// The layers `lib_rs` declares, with `main_rs`'s modules above them all.
    pub fn parse(lib_rs: &str, main_rs: &str) -> Layers {
        let mut layers = Layers { names: Vec::new(), modules: Vec::new() };
        for block in lib_rs.split("\n\n") {
            let mods: Vec<&str> = block.lines().filter_map(declared_module).collect();
            if mods.is_empty() {
                continue;
            }
            let name = block.lines().find_map(|l| l.trim().strip_prefix("// ")).unwrap_or("unnamed");
            let name = name.split(" (").next().unwrap_or(name);
            layers.push(name.trim_end_matches('.'), &mods);
        }
        let front: Vec<&str> = main_rs.lines().filter_map(declared_module).collect();
        layers.push("the command line (src/main.rs)", &front);
        layers
    }

    fn push(&mut self, name: &str, mods: &[&str]) {
        let layer = self.names.len();
        self.names.push(name.to_string());
        self.modules.extend(mods.iter().map(|m| Module { name: m.to_string(), layer }));
    }

    fn layer_of(&self, module: &str) -> Option<usize> {
        self.modules.iter().find(|m| m.name == module).map(|m| m.layer)
    }

    fn describe(&self, module: &str) -> String {
        let layer = self.layer_of(module).expect("a known module");
        format!("{module} ({})", self.names[layer])
    }

    /// The paths of `text`, the file at `file` (relative to `src/`), into a layer above its own.
    pub fn upward(&self, file: &str, text: &str) -> Vec<Upward> {
        let path = module_path(file);
        let Some(own) = path.first().and_then(|top| self.layer_of(top)) else { return Vec::new() };
        let mut found = Vec::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for target in targets(&path, line) {
                if self.layer_of(&target).is_some_and(|layer| layer > own) {
                    found.push(Upward {
                        file: format!("src/{file}"),
                        line: index + 1,
                        text: line.trim().to_string(),
                        from: self.describe(&path[0]),
                        to: self.describe(&target),
                    });
                }
            }
        }
        found
    }
}

/// The module a `mod NAME;` line declares (with `pub` or `pub(crate)` before it).
fn declared_module(line: &str) -> Option<&str> {
    let line = line.trim();
    let rest = line.strip_prefix("pub ").or_else(|| line.strip_prefix("pub(crate) ")).unwrap_or(line);
    rest.strip_prefix("mod ")?.strip_suffix(';')
}

/// The module a file under `src/` is: `a/b/c.rs` is `a::b::c`, `a/mod.rs` and `a.rs` are `a`.
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    parts
}

/// The top-level modules `line`'s `crate::` and `super::` paths name, from the module at `path`.
fn targets(path: &[String], line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (start, _) in line.match_indices("crate::") {
        let preceded_by_ident =
            line[..start].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        if !preceded_by_ident {
            found.extend(names_after(&line[start + "crate::".len()..]));
        }
    }
    let mut rest = line;
    while let Some(at) = rest.find("super::") {
        let preceded = rest[..at].ends_with("super::")
            || rest[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut tail = &rest[at..];
        let mut ups = 0;
        while let Some(after) = tail.strip_prefix("super::") {
            ups += 1;
            tail = after;
        }
        if !preceded {
            match path.len().checked_sub(ups) {
                Some(0) => found.extend(names_after(tail)),
                Some(_) => found.push(path[0].clone()),
                None => {}
            }
        }
        rest = tail;
    }
    found
}

/// The first segment of a path (`quorum` of `quorum::Node`), or each first segment in a
/// `{a::b, c}` group.
fn names_after(tail: &str) -> Vec<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    match tail.strip_prefix('{') {
        Some(group) => {
            let group = group.split('}').next().unwrap_or_default();
            group.split(',').map(|item| ident(item.trim())).filter(|name| !name.is_empty()).collect()
        }
        None => vec![ident(tail)].into_iter().filter(|name| !name.is_empty()).collect(),
    }
}

/// Every `.rs` file under `dir`, relative to `src/`, in a fixed order.
fn rust_files(src: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<std::io::Result<_>>()?;
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            rust_files(src, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(src)?.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// The paths of `src/` into a higher layer.
pub fn check() -> Result<Vec<Upward>> {
    let src = root().join("src");
    let layers =
        Layers::parse(&fs::read_to_string(src.join("lib.rs"))?, &fs::read_to_string(src.join("main.rs"))?);
    let mut files = Vec::new();
    rust_files(&src, &src, &mut files)?;
    let mut found = Vec::new();
    for file in files {
        found.extend(layers.upward(&file, &fs::read_to_string(src.join(&file))?));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::Layers;

    const LIB: &str = "//! docs\n\n// Utilities.\npub mod util;\n\n// The models.\n// One line.\npub mod quorum;\npub mod zk;\n\n// The page.\n#[cfg(x)]\nmod web;\n";
    const MAIN: &str = "mod cli;\n";

    fn upward(file: &str, text: &str) -> Vec<String> {
        Layers::parse(LIB, MAIN).upward(file, text).iter().map(|u| u.to_string()).collect()
    }

    #[test]
    fn blocks_of_lib_rs_are_the_layers_and_main_rs_sits_above() {
        let layers = Layers::parse(LIB, MAIN);
        assert_eq!(layers.names, ["Utilities", "The models", "The page", "the command line (src/main.rs)"]);
        let layer = |m: &str| layers.layer_of(m);
        assert_eq!(
            [layer("util"), layer("quorum"), layer("zk"), layer("web"), layer("cli")],
            [Some(0), Some(1), Some(1), Some(2), Some(3)]
        );
    }

    #[test]
    fn a_use_of_a_higher_layer_is_reported_with_its_line() {
        assert_eq!(
            upward("zk/pains.rs", "//! x\nuse crate::web::View;\n"),
            ["src/zk/pains.rs:2: zk (The models) imports from web (The page), a layer above it: use crate::web::View;"]
        );
        assert_eq!(
            upward("util/rng.rs", "    let x = crate::quorum::mix(1);").len(),
            1,
            "a path in code counts"
        );
        assert_eq!(upward("util/rng.rs", "use crate::{util::x, zk::Pain};").len(), 1, "a group counts");
    }

    #[test]
    fn the_same_layer_lower_layers_and_comments_pass() {
        assert!(upward(
            "zk/a.rs",
            "use crate::quorum::Node;\nuse crate::util::rng;\n// crate::web::View\n/// [`crate::web`]\n"
        )
        .is_empty());
        assert!(upward("web/app.rs", "use crate::zk::Pain;\nuse super::chips;\n").is_empty());
    }

    #[test]
    fn super_paths_resolve_from_the_files_module() {
        assert_eq!(
            upward("zk.rs", "use super::web::X;").len(),
            1,
            "super of a top-level module is the crate"
        );
        assert!(upward("zk/mod.rs", "use super::util::X;").is_empty());
        assert!(upward("zk/a/b.rs", "use super::super::web;").is_empty(), "still inside zk");
        assert_eq!(upward("zk/a.rs", "use super::super::web::X;").len(), 1);
    }
}
