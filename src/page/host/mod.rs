//! The host-page API: what a page embedding kraftscope (an iframe, through `postMessage`) or
//! loading it (the JS export) can send it, what it hears back, and which origins may talk to it.
//! Plain Rust with serde; the browser glue is `src/web/host.rs`.

pub mod command;
pub mod event;
pub mod origins;

pub use command::{Command, Message};
pub use event::{API_VERSION, HostEvent, Observation};
pub use origins::Origins;
