//! A still of the failover race: both sides as the page shows them at one moment, side by side,
//! each with its title, stopwatch and state over its drawing (the same drawings the page makes:
//! `drawing::cluster`, `drawing::zk`, `drawing::grid`) and its caption under.

use crate::drawing::cluster::{StillStyle, cluster};
use crate::drawing::layout::{Geometry, Layout, WIDTH};
use crate::drawing::svg::El;

use super::screen::RaceScreen;
use crate::drawing::grid::grid_drawing;
use crate::drawing::still_sheet::{COLUMN, Column, sheet};
use crate::drawing::zk::zk_drawing;
use crate::drawing::zk_layout::ZkGeometry;

/// The race on `screen` as one picture, in `style` (its caption under both sides); `None` before
/// the race is prepared (nothing to draw yet).
pub fn race_still(screen: &RaceScreen, style: &StillStyle) -> Option<El> {
    let (kraft, zk) = (screen.kraft.as_ref()?, screen.zk.as_ref()?);
    let kraft_drawing = kraft.picture.as_ref().map(|picture| {
        let (controllers, brokers) = picture.ids();
        cluster(picture, &Layout::with(&controllers, &brokers, Geometry::REGULAR), false)
    });
    let zk_drawing = zk
        .picture
        .as_ref()
        .map(|p| zk_drawing(p, &ZkGeometry::for_width(0.0, 1.0, p.brokers.len()), false, false));
    let side = |class, title: &str, stopwatch, state, drawing: Option<El>, grid, caption| {
        let column = Column::new(class, COLUMN, title, stopwatch, state);
        let column = match drawing {
            Some(drawing) => column.drawing(drawing),
            None => column,
        };
        column.drawing(grid).lines("side-caption", caption)
    };
    let left = side(
        "side-kraft",
        kraft.title,
        &kraft.stopwatch,
        &kraft.leader,
        kraft_drawing,
        grid_drawing(&kraft.grid, "kraft", "n", false, WIDTH),
        &kraft.caption,
    );
    let right = side(
        "side-zk",
        "ZooKeeper mode",
        &zk.stopwatch,
        &zk.summary,
        zk_drawing,
        grid_drawing(&zk.grid, "zk", "b", false, WIDTH),
        &zk.caption,
    );
    let label = format!("The failover race: {}", screen.stage);
    Some(sheet("race-still", label, screen.headline.as_deref(), vec![left, right], style))
}
