use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T, E = Box<dyn Error>> = std::result::Result<T, E>;

/// The workspace root (the directory holding the top-level Cargo.toml).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives one level below the workspace root")
}

pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// The cargo that is running us, so nested builds use the same toolchain.
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// The kraftscope command line's release binary with `args`, built first if it must be. Run
/// directly rather than by `cargo run`, it never waits for a build's lock on the target
/// directory, so it can run beside one.
pub fn release_cli(args: &[&str]) -> Result<Command> {
    run(cargo().args(["build", "--release", "--quiet", "--bin", "kraftscope"]))?;
    let mut cmd = Command::new(target_dir().join("release").join("kraftscope"));
    cmd.current_dir(root()).args(args);
    Ok(cmd)
}

/// Runs a command with inherited stdio and fails unless it exits successfully.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().map_err(|err| format!("failed to start {}: {err}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", describe(cmd)).into())
    }
}

pub fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|part| part.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}
