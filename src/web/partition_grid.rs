//! A side's partition grid on the page (`page::grid_drawing`, shared with stills).

use yew::prelude::*;

use super::frame_size::use_frame_size;
use super::svg_html::html_ref;
use crate::drawing::grid::grid_drawing;
use crate::drawing::layout::WIDTH;
use crate::zk::PartitionGrid;

#[derive(Properties, PartialEq)]
pub struct GridProps {
    pub grid: PartitionGrid,
    /// Which side: "kraft" or "zk" (also keeps the cell pattern's id unique).
    pub side: &'static str,
    /// Name of each band's owner, e.g. "n101" or "b2".
    pub band_prefix: &'static str,
    /// One line: no per-broker bands.
    pub compact: bool,
    /// How much larger than its CSS pixels the grid's labels are: 1, or more on a stage.
    pub zoom: f64,
    /// How many times the window was resized: when it changes, the grid measures its frame again.
    pub resizes: u32,
}

/// The grid as many units wide as its frame has pixels over the zoom (1000 until measured).
#[function_component(PartitionGridView)]
pub fn partition_grid(props: &GridProps) -> Html {
    let (frame, (width, _)) = use_frame_size(props.resizes);
    let units = if width > 0.0 { width / props.zoom } else { WIDTH };
    let drawing = grid_drawing(&props.grid, props.side, props.band_prefix, props.compact, units);
    html_ref(&drawing.attr("data-fitted", width > 0.0), frame)
}
