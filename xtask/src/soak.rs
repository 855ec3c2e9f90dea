//! `cargo xtask soak --minutes N [--seed S] [--speed max|1|default]`: runs the page in headless
//! Chromium with seeded random actions and prints every minute its memory, DOM size, event log
//! and the simulated time and events it played; fails when the clock stops or when any of the
//! sizes grows past 1.5x its minute-5 value afterwards.

use std::process::Command;

use crate::test::{serve_for_browser, CHROMIUM};
use crate::util::{root, run, Result};

/// The speeds a soak can play at, as `tests/e2e/soak.mjs` names them.
const SPEEDS: [&str; 3] = ["max", "1", "default"];

/// The seed and speed from the flags after `--minutes N`.
pub fn options(flags: &[&str]) -> Result<(u32, &'static str)> {
    let (mut seed, mut speed) = (1, SPEEDS[0]);
    let mut rest = flags;
    while let [flag, value, tail @ ..] = rest {
        match *flag {
            "--seed" => seed = value.parse().map_err(|_| format!("invalid seed: {value}"))?,
            "--speed" => {
                speed = SPEEDS
                    .iter()
                    .find(|s| *s == value)
                    .ok_or_else(|| format!("invalid speed: {value} (one of {})", SPEEDS.join(", ")))?
            }
            _ => return Err(format!("unexpected argument: {flag}").into()),
        }
        rest = tail;
    }
    match rest {
        [] => Ok((seed, speed)),
        _ => Err(format!("unexpected arguments: {}", rest.join(" ")).into()),
    }
}

pub fn soak(minutes: u32, seed: u32, speed: &str) -> Result<()> {
    let (url, _) = serve_for_browser()?;
    run(Command::new("node")
        .current_dir(root())
        .arg("tests/e2e/soak.mjs")
        .env("KRAFTSCOPE_URL", &url)
        .env("SOAK_MINUTES", minutes.to_string())
        .env("SOAK_SEED", seed.to_string())
        .env("SOAK_SPEED", speed)
        .env("CHROMIUM_PATH", CHROMIUM))
}
