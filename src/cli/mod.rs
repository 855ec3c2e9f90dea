//! The `kraftscope` command line: drives the core headless.

pub mod args;
pub mod check_cmd;
pub mod elections_cmd;
pub mod failover_cmd;
pub mod history_cmd;
pub mod inspect_cmd;
pub mod migration_cmd;
pub mod quorum_cmd;
pub mod render_cmd;
pub mod run_cmd;
pub mod sizing_cmd;
