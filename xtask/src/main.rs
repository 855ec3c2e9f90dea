//! Build tool for kraftscope: `cargo xtask dist | serve [--port P] | test | lint | bench | soak`.

mod dist;
mod e2e;
mod first_screen;
mod imports;
mod layers;
mod server;
mod soak;
mod test;
mod util;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  dist               build the static site into dist/
  serve [--port P]   build dist/ and serve it on http://127.0.0.1:P/ (default 8080)
  test               lints, native tests, a seed sweep, wasm determinism check, the first
                     screen's weight budget and browser e2e tests
  test --quick       the inner loop: lints, native tests, the seed sweep, the weight budget and
                     only the browser files that cover what changed since main
  test --browser [FILE...]
                     only the browser e2e tests, or those of the files named (builds and serves
                     dist/ for them)
  lint               only the lints: cargo fmt --check, clippy -D warnings natively and for wasm32,
                     and the layer check (no module of src/ imports from a layer above its own)
  bench [--against REV]
                     browser benchmark: frame work, long tasks, idle timers, first render, the
                     first screen's weight, and the longest main-thread task while a written
                     2,000,000-partition log opens, plays and scrubs; with --against, the time to the first drawing of
                     the live view and the race embed measured side by side with REV's page
                     (built from `git archive REV` under target/); first, as --wasm does
  bench --wasm       the quorum events benchmark natively and in the page's release wasm under
                     node, runs in turn: both rates and their ratio
  soak --minutes N [--seed S] [--speed max|1|default]
                     run the page (at maximum speed unless told) with random actions for N
                     minutes, printing every minute its memory, DOM size, event log, and the
                     simulated time and events it played; fails if the clock stops";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["dist"] => dist::dist().map(|_| ()),
        ["serve"] => dist::serve(8080),
        ["serve", "--port", port] => match port.parse() {
            Ok(port) => dist::serve(port),
            Err(_) => Err(format!("invalid port: {port}").into()),
        },
        ["test"] => test::test(),
        ["test", "--quick"] => test::quick(),
        ["test", "--browser", files @ ..] => test::browser(files),
        ["lint"] => test::lint(),
        ["bench"] => test::bench(None),
        ["bench", "--against", rev] => test::bench(Some(rev)),
        ["bench", "--wasm"] => test::wasm_speed(),
        ["soak", "--minutes", minutes, rest @ ..] => match minutes.parse() {
            Ok(minutes) => soak::options(rest).and_then(|(seed, speed)| soak::soak(minutes, seed, speed)),
            Err(_) => Err(format!("invalid minute count: {minutes}").into()),
        },
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err}");
            ExitCode::FAILURE
        }
    }
}
