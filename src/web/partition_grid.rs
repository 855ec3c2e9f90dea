//! A side's partition grid on the page (`page::grid_drawing`, shared with stills).

use yew::prelude::*;

use super::svg_html::html;
use crate::page::grid_drawing::grid_drawing;
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
}

#[function_component(PartitionGridView)]
pub fn partition_grid(props: &GridProps) -> Html {
    html(&grid_drawing(&props.grid, props.side, props.band_prefix, props.compact))
}
