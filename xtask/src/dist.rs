use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use wasm_bindgen_cli_support::Bindgen;

use crate::first_screen::Weights;
use crate::imports;
use crate::server;
use crate::util::{cargo, release_cli, root, run, target_dir, Result};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const OUT_NAME: &str = "kraftscope";

/// The page's builds of the same crate: the first screen's (the live cluster, its tour steps,
/// keyboard and host API) and the full page's (every view), which index.html loads instead for a
/// link to a view the first is without, and the first hands over to when one is opened; and the
/// metadata-log reader's worker.
pub struct Part {
    /// The glue's and wasm's name in dist/ (`NAME.js`, `NAME_bg.wasm`).
    pub name: &'static str,
    /// cargo's feature arguments.
    features: &'static [&'static str],
}

pub const FIRST_SCREEN: Part = Part { name: OUT_NAME, features: &["--no-default-features"] };
pub const FULL_PAGE: Part = Part { name: "kraftscope-full", features: &[] };
/// The metadata-log reader's Web Worker (`www/log-worker.js` loads it): the decoder alone.
pub const LOG_READER: Part =
    Part { name: "kraftscope-log", features: &["--no-default-features", "--features", "log-worker"] };

/// The cargo profile of the page's wasm (see Cargo.toml).
const WASM_PROFILE: &str = "wasm-release";

/// Partition counts of the failover chart shipped with the page.
const CHART_PARTITIONS: &str = "10,100,1000,10000,100000,1000000,2000000";

/// Builds the release wasm with the given cargo feature arguments and returns its path (the same
/// path for every feature set: use it before the next build).
pub fn build_wasm(features: &[&str]) -> Result<PathBuf> {
    ensure_wasm_target()?;
    run(cargo().args(["build", "--profile", WASM_PROFILE, "--lib", "--target", WASM_TARGET]).args(features))?;
    Ok(target_dir().join(WASM_TARGET).join(WASM_PROFILE).join("kraftscope.wasm"))
}

/// Starts the core's failover experiment natively, whose CSV is the page's chart data, beside
/// the wasm builds (each mostly one core: LTO into one codegen unit). [`failover_csv`] takes its
/// output.
fn start_failover_experiment() -> Result<Child> {
    release_cli(&["failover", "--csv", "--partitions", CHART_PARTITIONS])?
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|err| format!("failed to run the failover experiment: {err}").into())
}

/// The experiment's CSV, once it has finished.
fn failover_csv(experiment: Child) -> Result<Vec<u8>> {
    let output =
        experiment.wait_with_output().map_err(|err| format!("the failover experiment failed: {err}"))?;
    if !output.status.success() {
        return Err(format!("the failover experiment failed ({})", output.status).into());
    }
    Ok(output.stdout)
}

pub fn ensure_wasm_target() -> Result<()> {
    let output = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .current_dir(root())
        .output()
        .map_err(|err| format!("failed to run rustup: {err}"))?;
    let installed = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() || !installed.lines().any(|line| line.trim() == WASM_TARGET) {
        run(Command::new("rustup").args(["target", "add", WASM_TARGET]).current_dir(root()))?;
    }
    Ok(())
}

/// Generates wasm-bindgen JS glue for `wasm` into `out_dir`.
pub fn bindgen(
    wasm: &Path,
    out_dir: &Path,
    out_name: &str,
    configure: fn(&mut Bindgen) -> Result<()>,
) -> Result<()> {
    let mut bindgen = Bindgen::new();
    // Unlike the wasm-bindgen CLI, the library omits the default `new URL("…_bg.wasm",
    // import.meta.url)` from init() unless told otherwise.
    bindgen.input_path(wasm).out_name(out_name).typescript(false).omit_default_module_path(false);
    configure(&mut bindgen)?;
    bindgen.generate(out_dir).map_err(|err| format!("wasm-bindgen failed: {err:#}").into())
}

/// Builds the complete static site into dist/ and returns its path.
pub fn dist() -> Result<PathBuf> {
    let dist = root().join("dist");
    if dist.exists() {
        fs::remove_dir_all(&dist)?;
    }
    fs::create_dir_all(&dist)?;
    let experiment = start_failover_experiment()?;
    build_part(&FIRST_SCREEN, &dist)?;
    let full_page_bytes = build_part(&FULL_PAGE, &dist)?;
    build_part(&LOG_READER, &dist)?;
    let index = fs::read_to_string(root().join("index.html"))?;
    fs::write(dist.join("index.html"), with_later_views(&index, full_page_bytes)?)?;
    copy_dir(&root().join("www"), &dist)?;
    for css in ["style.css", "later.css"].map(|name| dist.join(name)) {
        fs::write(&css, kraftscope::util::css::minify(&fs::read_to_string(&css)?))?;
    }
    fs::write(dist.join("failover.csv"), failover_csv(experiment)?)?;
    write_service_worker(&dist)?;
    report_sizes(&dist)?;
    Ok(dist)
}

/// Builds `part` into `dist`: its wasm, glue with short import names and minified; returns the
/// wasm's size in bytes.
fn build_part(part: &Part, dist: &Path) -> Result<usize> {
    let wasm = build_wasm(part.features)?;
    bindgen(&wasm, dist, part.name, |bindgen| {
        // The name section (function names for stack traces) is ~40% of the wasm.
        bindgen
            .web(true)
            .map_err(|err| format!("{err:#}"))?
            .remove_name_section(true)
            .remove_producers_section(true);
        Ok(())
    })?;
    let (wasm, js) = (dist.join(format!("{}_bg.wasm", part.name)), dist.join(format!("{}.js", part.name)));
    let (short_wasm, short_js) = imports::shorten(&fs::read(&wasm)?, &fs::read_to_string(&js)?)?;
    fs::write(&wasm, &short_wasm)?;
    fs::write(&js, minify_glue(&short_js)?)?;
    Ok(short_wasm.len())
}

/// The line of index.html that `with_later_views` writes.
const LATER_VIEWS_LINE: &str = "const LATER = ";

/// index.html with its list of the links the first screen's build does not draw (scenarios,
/// the migration's among them, tour steps and tabs of views it is without, from the Rust that decides it) and the full
/// page's wasm size (its loading progress), so such a link loads the full page at once.
fn with_later_views(index: &str, full_page_bytes: usize) -> Result<String> {
    use kraftscope::page::Tab;
    use kraftscope::teaching::stories::TOUR;
    let later = |tab: Tab| !tab.on_first_screen();
    let quoted =
        |items: Vec<String>| items.iter().map(|item| format!("\"{item}\"")).collect::<Vec<_>>().join(",");
    let migrations = kraftscope::migration::scenarios::IDS.iter().filter(|_| later(Tab::Migration));
    let scenarios = TOUR
        .iter()
        .filter(|s| later(Tab::showing(s.view)))
        .map(|s| s.id)
        .chain(migrations.copied())
        .map(str::to_string)
        .collect();
    let steps =
        (1..=TOUR.len()).filter(|step| later(Tab::showing(TOUR[step - 1].view))).map(|step| step.to_string());
    let tabs = Tab::ALL.into_iter().filter(|tab| later(*tab)).map(|tab| tab.name().to_string()).collect();
    let line = format!(
        "{LATER_VIEWS_LINE}{{ scenario: [{}], tour: [{}], tab: [{}], bytes: {full_page_bytes} }};",
        quoted(scenarios),
        quoted(steps.collect()),
        quoted(tabs)
    );
    let mut lines: Vec<String> = index.lines().map(str::to_string).collect();
    let at = lines.iter().position(|l| l.trim_start().starts_with(LATER_VIEWS_LINE)).ok_or_else(|| {
        format!("index.html has no line starting `{LATER_VIEWS_LINE}` to write the later views into")
    })?;
    let indent = &lines[at][..lines[at].len() - lines[at].trim_start().len()];
    lines[at] = format!("{indent}{line}");
    Ok(lines.join("\n") + "\n")
}

/// wasm-bindgen's glue without its comment lines (JSDoc blocks and `//` lines) and without
/// indentation (about 1.2 KiB of the first screen gzipped). Works line by line, so it refuses
/// glue where that could cut into a string: a template literal spanning lines, or a block
/// comment opened after code on its line and left open.
fn minify_glue(js: &str) -> Result<String> {
    if js.split('`').skip(1).step_by(2).any(|literal| literal.contains('\n')) {
        return Err("the JS glue has a template literal spanning lines: not minified line by line".into());
    }
    let mut out = Vec::new();
    let mut in_comment = false;
    for line in js.lines().map(str::trim) {
        let closes = line.find("*/").map(|at| &line[at + 2..]);
        if in_comment || line.starts_with("/*") {
            match closes {
                Some("") => in_comment = false,
                Some(_) => return Err(format!("the JS glue has code after a block comment: {line}").into()),
                None => in_comment = true,
            }
        } else if !line.starts_with("//") && !line.is_empty() {
            if line.rfind("/*").is_some_and(|open| !line[open..].contains("*/")) {
                return Err(format!("the JS glue opens a block comment after code: {line}").into());
            }
            out.push(line);
        }
    }
    Ok(out.join("\n") + "\n")
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            fs::create_dir_all(&dest)?;
            copy_dir(&entry.path(), &dest)?;
        } else {
            fs::copy(entry.path(), dest)?;
        }
    }
    Ok(())
}

/// The service worker's file in dist/ (from www/), whose placeholders `write_service_worker`
/// fills in.
const SERVICE_WORKER: &str = "sw.js";
const VERSION_PLACEHOLDER: &str = "\"BUILD_VERSION\"";
const FILES_PLACEHOLDER: &str = "[\"BUILD_FILES\"]";

/// dist/sw.js with this build's version, a hash of every other file's name and bytes (so any
/// change makes a new version, and the same build the same one), and the files it keeps for
/// offline use: the page's address and every file of dist/ but itself.
fn write_service_worker(dist: &Path) -> Result<()> {
    let path = dist.join(SERVICE_WORKER);
    let template = fs::read_to_string(&path)?;
    if !template.contains(VERSION_PLACEHOLDER) || !template.contains(FILES_PLACEHOLDER) {
        return Err(format!("www/{SERVICE_WORKER} lacks {VERSION_PLACEHOLDER} or {FILES_PLACEHOLDER}").into());
    }
    let files = list_files(dist)?;
    let kept: Vec<&String> = files.keys().filter(|name| *name != SERVICE_WORKER).collect();
    // FNV-1a, 64 bits: a version, not a defence.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for name in &kept {
        let bytes = &files[*name];
        for byte in
            name.bytes().chain([0]).chain((bytes.len() as u64).to_le_bytes()).chain(bytes.iter().copied())
        {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let list = std::iter::once("./").chain(kept.iter().map(|name| name.as_str()));
    let list = format!("[{}]", list.map(|name| format!("\"{name}\"")).collect::<Vec<_>>().join(", "));
    let worker =
        template.replace(VERSION_PLACEHOLDER, &format!("\"{hash:016x}\"")).replace(FILES_PLACEHOLDER, &list);
    fs::write(path, worker)?;
    Ok(())
}

/// dist/'s files (paths relative to it, `/`-separated) with their contents.
fn list_files(dist: &Path) -> Result<BTreeMap<String, Vec<u8>>> {
    fn walk(dir: &Path, prefix: &str, files: &mut BTreeMap<String, Vec<u8>>) -> Result<()> {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if entry.file_type()?.is_dir() {
                walk(&entry.path(), &format!("{name}/"), files)?;
            } else {
                files.insert(name, fs::read(entry.path())?);
            }
        }
        Ok(())
    }
    let mut files = BTreeMap::new();
    walk(dist, "", &mut files)?;
    Ok(files)
}

/// dist/'s files with their contents and gzipped sizes.
fn read_files(dist: &Path) -> Result<BTreeMap<String, (Vec<u8>, usize)>> {
    list_files(dist)?
        .into_iter()
        .map(|(name, bytes)| {
            let gzipped = gzip_len(&bytes)?;
            Ok((name, (bytes, gzipped)))
        })
        .collect()
}

/// Sorts dist/'s files into the first screen, what loads later and what never loads.
pub fn weigh(dist: &Path) -> Result<Weights> {
    Ok(Weights::classify(&read_files(dist)?))
}

/// Prints each file's size, raw and gzipped (what a compressing server transfers), then the first
/// screen's weight against its budget.
fn report_sizes(dist: &Path) -> Result<()> {
    let files = read_files(dist)?;
    let (mut raw_total, mut gzip_total) = (0, 0);
    println!("dist/ written to {}:", dist.display());
    for (name, (bytes, gzipped)) in &files {
        raw_total += bytes.len();
        gzip_total += gzipped;
        println!("  {name:<24} {:>9} B  {gzipped:>9} B gzip -9", bytes.len());
    }
    println!("  {:<24} {raw_total:>9} B  {gzip_total:>9} B gzip -9", "total");
    print!("{}", Weights::classify(&files).report());
    Ok(())
}

fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut child = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|err| format!("failed to run gzip to measure sizes: {err}"))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output()?;
    writer.join().expect("gzip writer thread panicked")?;
    Ok(output.stdout.len())
}

/// `cargo xtask serve`: builds dist/ and serves it until interrupted.
pub fn serve(port: u16) -> Result<()> {
    let dist = dist()?;
    let listener = server::bind(port)?;
    println!("Serving {} at http://{}/ (Ctrl-C to stop)", dist.display(), listener.local_addr()?);
    server::serve(listener, dist, "/");
}

#[cfg(test)]
mod tests {
    use super::minify_glue;

    #[test]
    fn minified_glue_keeps_code_and_drops_comment_lines_and_indentation() {
        let js = "/**\n * Docs.\n * @param {any} x\n */\nexport function f(x) {\n    // why\n    const s = `a // b`;\n    return x; /* inline */\n}\n";
        assert_eq!(
            minify_glue(js).unwrap(),
            "export function f(x) {\nconst s = `a // b`;\nreturn x; /* inline */\n}\n"
        );
        assert!(minify_glue("const s = `a\n  b`;\n").is_err(), "a literal spanning lines");
        assert!(minify_glue("f(); /* open\nstill comment */\n").is_err(), "a comment opened after code");
        assert!(minify_glue("/* a */ f();\n").is_err(), "code after a comment on its line");
    }
}
