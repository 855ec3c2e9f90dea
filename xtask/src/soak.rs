//! `cargo xtask soak --minutes N [--seed S]`: runs the page at maximum speed in headless
//! Chromium with seeded random actions and prints its memory, DOM size and event log every
//! minute; fails when any of them grows past 1.5x its minute-5 value afterwards.

use std::process::Command;

use crate::test::{serve_for_browser, CHROMIUM};
use crate::util::{root, run, Result};

pub fn soak(minutes: u32, seed: u32) -> Result<()> {
    let (url, _) = serve_for_browser()?;
    run(Command::new("node")
        .current_dir(root())
        .arg("tests/e2e/soak.mjs")
        .env("KRAFTSCOPE_URL", &url)
        .env("SOAK_MINUTES", minutes.to_string())
        .env("SOAK_SEED", seed.to_string())
        .env("CHROMIUM_PATH", CHROMIUM))
}
