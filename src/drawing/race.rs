//! A still of the failover race: both sides at one moment, side by side, each with its title,
//! stopwatch and state over its drawing (the same drawings the page makes: the KRaft cluster,
//! ZooKeeper mode and each side's partition grid) and its caption under.

use crate::session::picture::ClusterPicture;
use crate::zk::{PartitionGrid, ZkPicture};

use super::cluster::{StillStyle, cluster};
use super::grid::grid_drawing;
use super::layout::{Geometry, Layout, WIDTH};
use super::still_sheet::{COLUMN, Column, sheet};
use super::svg::El;
use super::zk::zk_drawing;
use super::zk_layout::ZkGeometry;

/// One side of the race as its column of a still shows it.
pub struct RaceSide<'a, P> {
    pub title: &'a str,
    pub stopwatch: &'a str,
    /// Its state in a few words (the active controller, or what the brokers hold).
    pub state: &'a str,
    pub caption: &'a str,
    /// Its cluster, once drawn.
    pub picture: Option<&'a P>,
    pub grid: &'a PartitionGrid,
}

/// The race as one picture, in `style`: KRaft's side beside ZooKeeper mode's, `stage` (where the
/// race stands) in its label and `headline` (who was back first) over both.
pub fn race_still(
    kraft: RaceSide<ClusterPicture>,
    zk: RaceSide<ZkPicture>,
    stage: &str,
    headline: Option<&str>,
    style: &StillStyle,
) -> El {
    let kraft_drawing = kraft.picture.map(|picture| {
        let (controllers, brokers) = picture.ids();
        cluster(picture, &Layout::with(&controllers, &brokers, Geometry::REGULAR), false)
    });
    let zk_drawing =
        zk.picture.map(|p| zk_drawing(p, &ZkGeometry::for_width(0.0, 1.0, p.brokers.len()), false, false));
    let left =
        side("side-kraft", &kraft, kraft_drawing, grid_drawing(kraft.grid, "kraft", "n", false, WIDTH));
    let right = side("side-zk", &zk, zk_drawing, grid_drawing(zk.grid, "zk", "b", false, WIDTH));
    let label = format!("The failover race: {stage}");
    sheet("race-still", label, headline, vec![left, right], style)
}

/// A side's column: its title, stopwatch and state over its drawing and grid, its caption under.
fn side<P>(class: &'static str, side: &RaceSide<P>, drawing: Option<El>, grid: El) -> Column {
    let column = Column::new(class, COLUMN, side.title, side.stopwatch, side.state);
    let column = match drawing {
        Some(drawing) => column.drawing(drawing),
        None => column,
    };
    column.drawing(grid).lines("side-caption", side.caption)
}
