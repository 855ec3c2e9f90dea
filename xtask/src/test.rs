//! `cargo xtask test`: lints, native tests, the wasm determinism check, the first screen's weight
//! budget and browser e2e tests.

use std::cell::{Cell, OnceCell, RefCell};
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::Instant;

use crate::dist::{self, OUT_NAME, WASM_TARGET};
use crate::e2e;
use crate::first_screen;
use crate::layers;
use crate::server;
use crate::util::{cargo, describe, release_cli, root, run, target_dir, Result};

pub const CHROMIUM: &str = "/usr/bin/chromium";
const E2E_MOUNT: &str = "/kraftscope/";

/// Seeds every scenario runs with natively and under node; one above 2^53 checks the
/// u64 <-> BigInt path.
const DETERMINISM_SEEDS: [u64; 3] = [1, 7, 0xDEAD_BEEF_CAFE_BABE];

#[derive(Default)]
struct Counts {
    passed: usize,
    failed: usize,
    /// A step that prepares the next ones and checks nothing (it counts no test).
    set_up: bool,
}

impl Counts {
    const SET_UP: Counts = Counts { passed: 0, failed: 0, set_up: true };
}

type Step<'a> = (&'static str, &'a dyn Fn() -> Result<Counts>);

pub fn test() -> Result<()> {
    let steps: [Step; 5] = [
        ("lints", &lints),
        ("native tests", &native_tests),
        ("seed sweep", &seed_sweep),
        ("wasm determinism", &wasm_determinism),
        ("first-screen budget", &first_screen_budget),
    ];
    run_with_browser(&steps, &e2e::all_files()?)
}

/// `cargo xtask test --quick`: the inner loop. Lints, native tests, the seed sweep and the
/// weight budget as in the full run, then only the browser files that cover what changed since
/// main (`e2e::covering`); no wasm determinism check.
pub fn quick() -> Result<()> {
    let changed = e2e::changed_paths()?;
    let files = e2e::covering(&changed)?;
    println!("changed since main: {} paths; browser files covering them: {}", changed.len(), files.len());
    for file in &files {
        println!("    {file}");
    }
    let steps: [Step; 4] = [
        ("lints", &lints),
        ("native tests", &native_tests),
        ("seed sweep", &seed_sweep),
        ("first-screen budget", &first_screen_budget),
    ];
    run_with_browser(&steps, &files)
}

/// `cargo xtask lint`: the lints step alone.
pub fn lint() -> Result<()> {
    run_steps(&[("lints", &lints)])
}

/// `cargo xtask test --browser [FILE...]`: the browser e2e steps alone, for every test file or
/// for the files named; the timed ones still run alone, after the rest.
pub fn browser(named: &[&str]) -> Result<()> {
    let files: Vec<String> = if named.is_empty() {
        e2e::all_files()?
    } else {
        named.iter().map(|file| file.to_string()).collect()
    };
    run_with_browser(&[], &files)
}

/// Runs `steps`, then the browser steps that `files` need (the set-up, the concurrent files,
/// the timed ones), and prints the browser report. The browser tools start installing before
/// `steps` run.
fn run_with_browser(first: &[Step], files: &[String]) -> Result<()> {
    let browser = Browser::new(files);
    let mut steps = first.to_vec();
    let set_up = || browser.set_up();
    let concurrent = || browser.concurrent(files);
    let timed = || browser.timed(files);
    if !files.is_empty() {
        steps.push((BROWSER_SET_UP, &set_up));
    }
    if files.iter().any(|file| !e2e::is_timed(file)) {
        steps.push(("browser e2e, concurrent", &concurrent));
    }
    if files.iter().any(|file| e2e::is_timed(file)) {
        steps.push(("browser e2e, timed (one file at a time)", &timed));
    }
    let result = run_steps(&steps);
    browser.report();
    result
}

fn run_steps(steps: &[Step]) -> Result<()> {
    let run_started = Instant::now();
    let mut total = Counts::default();
    for &(name, step) in steps {
        println!("==> xtask test: {name}");
        let started = Instant::now();
        let result = step();
        let seconds = started.elapsed().as_secs_f64();
        match result {
            Ok(counts) if counts.set_up => println!("<== {name}: ready ({seconds:.1}s)"),
            Ok(counts) if counts.failed == 0 && counts.passed > 0 => {
                println!("<== {name}: {} passed ({seconds:.1}s)", counts.passed);
                total.passed += counts.passed;
            }
            outcome => {
                let (counts, reason) = match outcome {
                    Ok(counts) if counts.failed == 0 => (counts, "no tests ran".to_string()),
                    Ok(counts) => (counts, "some tests failed".to_string()),
                    Err(err) => (Counts::default(), err.to_string()),
                };
                let failed = counts.failed.max(1);
                eprintln!("xtask test: step '{name}' failed after {seconds:.1}s: {reason}");
                println!(
                    "xtask: {} passed, {} failed in {:.1}s",
                    total.passed + counts.passed,
                    total.failed + failed,
                    run_started.elapsed().as_secs_f64()
                );
                return Err(format!("step '{name}' failed").into());
            }
        }
    }
    println!(
        "xtask: {} passed, {} failed in {:.1}s",
        total.passed,
        total.failed,
        run_started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The lint commands, each counted as one check: formatting, then clippy natively (both packages,
/// every target) and for wasm32, where the page's code (src/web) is the only part compiled.
/// wasm32 lints the library alone: the binary and the tests are native (the tests' proptest does
/// not build for wasm32), and xtask never runs in a browser.
fn lint_commands() -> Vec<Vec<&'static str>> {
    const DENY: [&str; 2] = ["-D", "warnings"];
    let clippy =
        |what: &[&'static str]| [&["clippy", "--package", "kraftscope"], what, &["--"], &DENY[..]].concat();
    let wasm = |features: &[&'static str]| clippy(&[&["--lib", "--target", WASM_TARGET], features].concat());
    vec![
        vec!["fmt", "--all", "--check"],
        [&["clippy", "--workspace", "--all-targets", "--"], &DENY[..]].concat(),
        // The full page (the determinism check's export too); `--all-features` would take the
        // worker's build, which leaves the page out.
        wasm(&["--features", "fingerprint"]),
        // The first screen's build (without the `full` feature), in the browser and in its test.
        wasm(&["--no-default-features"]),
        clippy(&["--test", "first_screen_page", "--no-default-features"]),
        // The metadata-log reader's worker.
        wasm(&["--no-default-features", "--features", "log-worker"]),
    ]
}

/// Runs every lint command, even after one fails, so one run shows all that needs fixing.
fn lints() -> Result<Counts> {
    ensure_lint_components()?;
    dist::ensure_wasm_target()?;
    let mut counts = Counts::default();
    for args in lint_commands() {
        let mut cmd = cargo();
        cmd.args(&args);
        let started = Instant::now();
        let result = run(&mut cmd);
        let seconds = started.elapsed().as_secs_f64();
        match result {
            Ok(()) => {
                println!("ok   cargo {} ({seconds:.1}s)", args.join(" "));
                counts.passed += 1;
            }
            Err(err) => {
                println!("FAIL {err} ({seconds:.1}s)");
                counts.failed += 1;
            }
        }
    }
    let upward = layers::check()?;
    if upward.is_empty() {
        println!("ok   layer check: no module of src/ imports from a layer above its own");
        counts.passed += 1;
    } else {
        for path in &upward {
            println!("FAIL layer check: {path}");
        }
        counts.failed += 1;
    }
    Ok(counts)
}

/// Installs rustfmt and clippy with rustup when the toolchain lacks them.
fn ensure_lint_components() -> Result<()> {
    let output = Command::new("rustup")
        .args(["component", "list", "--installed"])
        .current_dir(root())
        .output()
        .map_err(|err| format!("failed to run rustup: {err}"))?;
    let installed = String::from_utf8_lossy(&output.stdout);
    let missing: Vec<&str> = ["rustfmt", "clippy"]
        .into_iter()
        .filter(|name| !installed.lines().any(|line| line.split('-').next() == Some(*name)))
        .collect();
    if !output.status.success() || !missing.is_empty() {
        run(Command::new("rustup").args(["component", "add", "rustfmt", "clippy"]).current_dir(root()))?;
    }
    Ok(())
}

/// The kraftscope package's tests, then xtask's own (in the dev profile `cargo xtask` is built
/// in, so they reuse its build).
fn native_tests() -> Result<Counts> {
    let parse = |line: &str| {
        let rest = line.strip_prefix("test result: ")?;
        Some((number_before(rest, " passed")?, number_before(rest, " failed")?))
    };
    let core = run_counted(cargo().args(["test", "--release", "--package", "kraftscope"]), &parse)?;
    // The first screen's build of the page, which hands the other views to the full page.
    let first_screen = run_counted(
        cargo().args([
            "test",
            "--release",
            "--package",
            "kraftscope",
            "--no-default-features",
            "--test",
            "first_screen_page",
        ]),
        &parse,
    )?;
    let xtask = run_counted(cargo().args(["test", "--package", "xtask"]), &parse)?;
    Ok(Counts {
        passed: core.passed + first_screen.passed + xtask.passed,
        failed: core.failed + first_screen.failed + xtask.failed,
        set_up: false,
    })
}

/// Sweeps seeds through chaos with every invariant checked after every event.
fn seed_sweep() -> Result<Counts> {
    run_counted(&mut release_cli(&["check", "--seeds", "1000", "--quiet"])?, &|line| {
        let rest = line.strip_prefix("checked ")?;
        let violations = number_before(rest, " violations")?;
        Some(if violations == 0 { (1, 0) } else { (0, violations) })
    })
}

/// The page's release wasm with node's bindings and the exports node checks and times it by
/// (`fingerprint`); returns the bindings' path.
fn node_wasm() -> Result<PathBuf> {
    let wasm = dist::build_wasm(&["--features", "fingerprint"])?;
    let out_dir = target_dir().join("wasm-node");
    dist::bindgen(&wasm, &out_dir, OUT_NAME, |bindgen| {
        bindgen.nodejs(true).map_err(|err| format!("{err:#}"))?;
        Ok(())
    })?;
    Ok(out_dir.join(format!("{OUT_NAME}.js")))
}

/// Runs the release wasm under node and compares its answers with the native core.
fn wasm_determinism() -> Result<Counts> {
    let bindings = node_wasm()?;
    let cases: Vec<(&str, u64)> = kraftscope::scenario::catalog::SCENARIOS
        .iter()
        .flat_map(|(name, _)| DETERMINISM_SEEDS.iter().map(move |seed| (*name, *seed)))
        .collect();
    let mut node = Command::new("node");
    node.current_dir(root()).arg(root().join("tests/wasm/determinism.cjs")).arg(&bindings);
    for (name, seed) in &cases {
        node.arg(format!("{name}:{seed}"));
    }
    let output =
        node.stderr(Stdio::inherit()).output().map_err(|err| format!("failed to run node: {err}"))?;
    if !output.status.success() {
        return Err(format!("`{}` failed ({})", describe(&node), output.status).into());
    }
    let stdout = String::from_utf8(output.stdout)?;
    let wasm_results: Vec<&str> = stdout.lines().collect();
    let mut counts = Counts::default();
    for (i, (name, seed)) in cases.into_iter().enumerate() {
        let native = kraftscope::scenario::fingerprint(name, seed)?;
        let wasm = wasm_results.get(i).copied().unwrap_or("<missing>");
        if wasm == native {
            println!("ok   {name} seed={seed}: {native}");
            counts.passed += 1;
        } else {
            println!("FAIL {name} seed={seed}: native {native:?}, wasm {wasm:?}");
            counts.failed += 1;
        }
    }
    Ok(counts)
}

/// Builds dist/ (which prints the sizes) and fails when the first screen outweighs its budget or
/// a file of dist/ is left out of the count; before the browser steps, which serve the same
/// dist/, so an overweight page fails in seconds rather than after the browser suite.
fn first_screen_budget() -> Result<Counts> {
    let dist = built_dist()?;
    dist::weigh(&dist)?.check()?;
    Ok(Counts { passed: 1, failed: 0, set_up: false })
}

/// dist/, built once a run: the budget step builds it, the browser set-up serves the same files
/// (building it takes about 20 s even with the wasm cached: the failover chart's experiment).
fn built_dist() -> Result<PathBuf> {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    if let Some(dist) = BUILT.get() {
        return Ok(dist.clone());
    }
    let dist = dist::dist()?;
    Ok(BUILT.get_or_init(|| dist).clone())
}

/// Builds dist/ and serves it under the e2e sub-path in a background thread; returns the URL
/// and the dist/ folder.
pub fn serve_for_browser() -> Result<(String, PathBuf)> {
    ensure_browser_tools(None)?;
    let dist = built_dist()?;
    let listener = server::bind(0)?;
    let url = format!("http://{}{E2E_MOUNT}", listener.local_addr()?);
    let served = dist.clone();
    thread::spawn(move || server::serve(listener, served, E2E_MOUNT));
    Ok((url, dist))
}

/// `cargo xtask bench`: the browser benchmark, which prints figures (it is not a test). With
/// `against`, another revision's page is built and served beside this one, so the times to the
/// first drawing are measured side by side in one run.
pub fn bench(against: Option<&str>) -> Result<()> {
    wasm_speed()?;
    let (url, dist) = serve_for_browser()?;
    let mut node = Command::new("node");
    node.current_dir(root())
        .arg("tests/e2e/bench.mjs")
        .env("KRAFTSCOPE_URL", &url)
        .env("KRAFTSCOPE_WEIGHTS", dist::weigh(&dist)?.for_bench())
        .env("KRAFTSCOPE_BUDGET", first_screen::BUDGET.to_string())
        .env("CHROMIUM_PATH", CHROMIUM);
    if let Some(rev) = against {
        let listener = server::bind(0)?;
        let baseline = format!("http://{}{E2E_MOUNT}", listener.local_addr()?);
        let built = dist_of(rev)?;
        thread::spawn(move || server::serve(listener, built, E2E_MOUNT));
        node.env("KRAFTSCOPE_BASELINE_URL", baseline).env("KRAFTSCOPE_BASELINE", rev);
    }
    run(&mut node)?;
    open_big_log(&url)
}

/// The page's longest main-thread task while it opens a written 2,000,000-partition cluster's
/// metadata log, shows and plays its history and scrubs it (`tests/e2e/open_log_bench.mjs`);
/// the log (about 230 MiB, `cargo bench --bench kafka_log -- --write-cluster`) is removed after.
fn open_big_log(url: &str) -> Result<()> {
    let path = root().join("target").join("bench-2m-partitions.log");
    let path_arg = path.to_str().ok_or("the target directory's path is not UTF-8")?;
    run(cargo().args([
        "bench",
        "--quiet",
        "--bench",
        "kafka_log",
        "--",
        "--write-cluster",
        path_arg,
        "2000000",
    ]))?;
    let opened = run(Command::new("node")
        .current_dir(root())
        .arg("tests/e2e/open_log_bench.mjs")
        .arg(&path)
        .env("KRAFTSCOPE_URL", url)
        .env("CHROMIUM_PATH", CHROMIUM));
    std::fs::remove_file(&path)?;
    opened
}

/// Runs of the quorum events benchmark timed side by side: natively (`cargo bench --bench
/// quorum_events -- --once SEED`) and in the page's release wasm under node, in turn for each
/// seed; prints both rates' medians and their ratio. Both count the same events (checked).
pub fn wasm_speed() -> Result<()> {
    const RUNS: u64 = 5;
    let bindings = node_wasm()?;
    run(cargo().args(["bench", "--bench", "quorum_events", "--no-run", "--quiet"]))?;
    let timed = |cmd: &mut Command| -> Result<(u64, f64)> {
        let output = cmd.current_dir(root()).stderr(Stdio::inherit()).output()?;
        let stdout = String::from_utf8(output.stdout)?;
        let said = stdout.lines().last().and_then(|l| l.split_once(' '));
        match said.and_then(|(events, seconds)| Some((events.parse().ok()?, seconds.parse().ok()?))) {
            Some(run) if output.status.success() => Ok(run),
            _ => Err(format!("`{}` said {stdout:?} ({})", describe(cmd), output.status).into()),
        }
    };
    let (mut native, mut wasm) = (Vec::new(), Vec::new());
    for seed in 1..=RUNS {
        let seed_arg = seed.to_string();
        let n =
            timed(cargo().args(["bench", "--quiet", "--bench", "quorum_events", "--", "--once", &seed_arg]))?;
        let w =
            timed(Command::new("node").arg("tests/wasm/quorum_events.cjs").arg(&bindings).arg(&seed_arg))?;
        if n.0 != w.0 {
            return Err(
                format!("seed {seed}: {} events natively, {} in wasm: not the same run", n.0, w.0).into()
            );
        }
        println!("seed {seed}: {} events; native {:.2} s, wasm {:.2} s", n.0, n.1, w.1);
        native.push(n.0 as f64 / n.1);
        wasm.push(w.0 as f64 / w.1);
    }
    let median = |mut rates: Vec<f64>| {
        rates.sort_by(f64::total_cmp);
        rates[rates.len() / 2]
    };
    let (native, wasm) = (median(native), median(wasm));
    println!(
        "quorum events/s (static quorum, no checks; medians of {RUNS} runs in turn): native {native:.0}, wasm (the page's release build, node) {wasm:.0}; wasm / native {:.2}",
        wasm / native
    );
    Ok(())
}

/// Builds revision `rev`'s dist/ in a copy of its files under target/ (`git archive`: no
/// worktree left registered; a target dir of its own, so this run's build is left alone) and
/// returns its path.
fn dist_of(rev: &str) -> Result<PathBuf> {
    let tree = target_dir().join("bench-baseline");
    if tree.exists() {
        fs::remove_dir_all(&tree)?;
    }
    fs::create_dir_all(&tree)?;
    let archive = tree.join("rev.tar");
    run(Command::new("git").args(["archive", "--output"]).arg(&archive).arg(rev).current_dir(root()))?;
    run(Command::new("tar").arg("-xf").arg(&archive).current_dir(&tree))?;
    run(Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["xtask", "dist"])
        .current_dir(&tree)
        .env("CARGO_TARGET_DIR", target_dir().join("bench-baseline-target")))?;
    Ok(tree.join("dist"))
}

/// The step that installs what the browser tests need and serves dist/, timed on its own so
/// that the browser steps' times are the tests' alone.
const BROWSER_SET_UP: &str = "browser set-up (Chromium, playwright-core, dist/ served)";

/// Where the browser tests save their screenshots.
fn artifacts() -> PathBuf {
    target_dir().join("e2e-artifacts")
}

/// The browser steps of one run: dist/ served once for both, and the wall time of every test
/// they ran, for `report`.
struct Browser {
    /// Installing Chromium and playwright-core, started beside the build steps.
    install: RefCell<Option<thread::JoinHandle<Result<(), String>>>>,
    url: OnceCell<String>,
    durations: RefCell<Vec<(f64, String)>>,
    seconds: Cell<f64>,
}

/// A run that stops early still lets the install finish: an apt-get killed half way leaves
/// dpkg interrupted.
impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(install) = self.install.get_mut().take() {
            let _ = install.join();
        }
    }
}

/// Where the background install of the browser tools writes its output.
fn install_log() -> PathBuf {
    target_dir().join("browser-install.log")
}

impl Browser {
    /// For `files`: starts installing Chromium and playwright-core (when missing) in the
    /// background, so the download and unpacking overlap the build steps; `set_up` waits for it.
    fn new(files: &[String]) -> Browser {
        let install = (!files.is_empty()).then(|| {
            thread::spawn(|| {
                let log = install_log();
                fs::create_dir_all(target_dir()).map_err(|err| err.to_string())?;
                ensure_browser_tools(Some(&log))
                    .map_err(|err| format!("{err} (its output: {})", log.display()))
            })
        });
        Browser {
            install: RefCell::new(install),
            url: OnceCell::new(),
            durations: RefCell::new(Vec::new()),
            seconds: Cell::new(0.0),
        }
    }

    /// Waits for the install of Chromium and playwright-core, builds dist/ and serves it.
    fn set_up(&self) -> Result<Counts> {
        if let Some(install) = self.install.borrow_mut().take() {
            install.join().map_err(|_| "the install of the browser tools panicked")??;
        }
        let (url, _) = serve_for_browser()?;
        let artifacts = artifacts();
        if artifacts.exists() {
            fs::remove_dir_all(&artifacts)?;
        }
        fs::create_dir_all(&artifacts)?;
        println!("serving dist/ at {url}; screenshots go to {}", artifacts.display());
        self.url.get_or_init(|| url);
        Ok(Counts::SET_UP)
    }

    /// The files of `files` that do not measure real time, `e2e::concurrency()` at once.
    fn concurrent(&self, files: &[String]) -> Result<Counts> {
        let files: Vec<&String> = files.iter().filter(|file| !e2e::is_timed(file)).collect();
        self.run(&files, e2e::concurrency())
    }

    /// The files of `files` that measure real time, one at a time.
    fn timed(&self, files: &[String]) -> Result<Counts> {
        let files: Vec<&String> = files.iter().filter(|file| e2e::is_timed(file)).collect();
        self.run(&files, 1)
    }

    fn run(&self, files: &[&String], concurrency: usize) -> Result<Counts> {
        let started = Instant::now();
        let url = self.url.get().ok_or("the browser set-up step did not run")?;
        let durations = RefCell::new(Vec::new());
        let suites = RefCell::new(Vec::new());
        let counts = run_counted(
            Command::new("node")
                .current_dir(root())
                .args(["--test", "--test-reporter=spec", "--test-timeout=600000"])
                .arg(format!("--test-concurrency={concurrency}"))
                .args(files)
                .env("KRAFTSCOPE_URL", url)
                .env("KRAFTSCOPE_ARTIFACTS", artifacts())
                .env("CHROMIUM_PATH", CHROMIUM),
            &|line| {
                if let Some(suite) = e2e::suite(line) {
                    suites.borrow_mut().push(suite);
                } else if let Some(test) = e2e::duration(line) {
                    if !suites.borrow().contains(&test.1) {
                        durations.borrow_mut().push(test);
                    }
                }
                let line = line.trim_start_matches(['ℹ', '#', ' ']);
                if let Some(n) = line.strip_prefix("pass ") {
                    Some((n.trim().parse().ok()?, 0))
                } else {
                    Some((0, line.strip_prefix("fail ")?.trim().parse().ok()?))
                }
            },
        )?;
        self.durations.borrow_mut().extend(durations.into_inner());
        self.seconds.set(self.seconds.get() + started.elapsed().as_secs_f64());
        Ok(counts)
    }

    /// Prints the browser steps' time and their five slowest tests.
    fn report(&self) {
        let mut durations = self.durations.borrow().clone();
        if durations.is_empty() {
            return;
        }
        durations.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!("browser e2e: {:.1}s in all (set-up apart); the five slowest tests:", self.seconds.get());
        for (ms, name) in durations.iter().take(5) {
            println!("    {:7.1}s  {name}", ms / 1000.0);
        }
    }
}

/// Installs what the browser tests need when missing: Chromium and playwright-core. With `log`,
/// the installers write to that file instead of the terminal (when they run beside a build).
fn ensure_browser_tools(log: Option<&Path>) -> Result<()> {
    ensure_chromium(log)?;
    ensure_playwright(log)
}

/// `cmd` with its output sent to the end of `log`, if given.
fn logged<'a>(cmd: &'a mut Command, log: Option<&Path>) -> Result<&'a mut Command> {
    if let Some(log) = log {
        let file = fs::OpenOptions::new().create(true).append(true).open(log)?;
        cmd.stdout(file.try_clone()?).stderr(file);
    }
    Ok(cmd)
}

fn ensure_chromium(log: Option<&Path>) -> Result<()> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    println!("{CHROMIUM} not found; installing Debian's chromium package with apt-get");
    let install = || {
        run(logged(
            Command::new("apt-get")
                .args(["install", "-y", "chromium"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
            log,
        )?)
    };
    let installed = install()
        .or_else(|_| run(logged(Command::new("apt-get").arg("update"), log)?).and_then(|()| install()));
    match installed {
        Ok(()) if Path::new(CHROMIUM).exists() => Ok(()),
        _ => Err(format!(
            "the browser e2e tests need Chromium at {CHROMIUM}, and `apt-get install -y chromium` \
             did not provide it; install Debian's `chromium` package (as root) and re-run"
        )
        .into()),
    }
}

/// Installs the pinned playwright-core from tests/e2e/package-lock.json when missing or stale.
fn ensure_playwright(log: Option<&Path>) -> Result<()> {
    let e2e = root().join("tests/e2e");
    let modified = |path: PathBuf| fs::metadata(path).and_then(|meta| meta.modified()).ok();
    let lock = modified(e2e.join("package-lock.json"));
    let installed = modified(e2e.join("node_modules/.package-lock.json"));
    if installed.is_some() && installed >= lock {
        return Ok(());
    }
    run(logged(Command::new("npm").current_dir(&e2e).args(["ci", "--no-audit", "--no-fund"]), log)?)
        .map_err(|err| format!("installing playwright-core with npm failed: {err}").into())
}

/// Runs `cmd`, echoing its stdout, and sums the (passed, failed) counts that `parse` finds.
fn run_counted(cmd: &mut Command, parse: &dyn Fn(&str) -> Option<(usize, usize)>) -> Result<Counts> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|err| format!("failed to start {}: {err}", describe(cmd)))?;
    let mut counts = Counts::default();
    for line in BufReader::new(child.stdout.take().expect("stdout is piped")).lines() {
        let line = line?;
        println!("{line}");
        if let Some((passed, failed)) = parse(&line) {
            counts.passed += passed;
            counts.failed += failed;
        }
    }
    let status = child.wait()?;
    if !status.success() {
        counts.failed = counts.failed.max(1);
    }
    Ok(counts)
}

fn number_before(text: &str, label: &str) -> Option<usize> {
    let end = text.find(label)?;
    text[..end].rsplit([' ', ';', '.']).next()?.parse().ok()
}
