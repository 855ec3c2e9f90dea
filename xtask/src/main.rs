//! Build tool for kraftscope: `cargo xtask dist | serve [--port P] | test | lint | bench | soak`.

mod dist;
mod first_screen;
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
  test --browser     only the browser e2e tests (builds and serves dist/ for them)
  lint               only the lints: cargo fmt --check, clippy -D warnings natively and for wasm32
  bench              browser benchmark: frame work, long tasks, idle timers, first render, and
                     the first screen's weight
  soak --minutes N [--seed S]
                     run the page at maximum speed with random actions for N minutes, printing
                     its memory, DOM size and event log every minute";

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
        ["test", "--browser"] => test::browser(),
        ["lint"] => test::lint(),
        ["bench"] => test::bench(),
        ["soak", "--minutes", minutes, rest @ ..] => match (minutes.parse(), rest) {
            (Ok(minutes), []) => soak::soak(minutes, 1),
            (Ok(minutes), ["--seed", seed]) => match seed.parse() {
                Ok(seed) => soak::soak(minutes, seed),
                Err(_) => Err(format!("invalid seed: {seed}").into()),
            },
            (Err(_), _) => Err(format!("invalid minute count: {minutes}").into()),
            (Ok(_), _) => Err(format!("unexpected arguments: {}", rest.join(" ")).into()),
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
