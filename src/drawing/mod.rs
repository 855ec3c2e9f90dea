//! Every SVG tree the page draws and the stills save, built from the pictures of the layers
//! below (the session's [`ClusterPicture`](crate::session::picture::ClusterPicture), ZooKeeper
//! mode's [`ZkPicture`](crate::zk::ZkPicture), the migration's picture): the same trees whether
//! the page renders them or `kraftscope render` writes them. It knows nothing of the page; the
//! views of the later-loaded page (`full` feature) draw with the modules gated on it.

pub mod cluster;
#[cfg(feature = "full")]
pub mod grid;
pub mod layout;
#[cfg(feature = "full")]
pub mod log;
#[cfg(feature = "full")]
pub mod migration;
#[cfg(feature = "full")]
pub mod pains;
#[cfg(feature = "full")]
pub mod race;
#[cfg(feature = "full")]
pub mod still_sheet;
pub mod svg;
pub mod text_fit;
#[cfg(feature = "full")]
pub mod zk;
#[cfg(feature = "full")]
pub mod zk_layout;
