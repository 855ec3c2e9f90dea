//! Partition state at scale as a grid of cells, each standing for some partitions: unknown,
//! loaded by the active controller, or held fresh by every broker; below it a band of the
//! share of partitions with a live leader (they serve), and one band per broker. Cells fill in
//! partition order, so each row is drawn as at most three runs.

use yew::prelude::*;

use crate::util::format;
use crate::zk::PartitionGrid;

const WIDTH: f64 = 1000.0;
const COLUMNS: u32 = 100;
const CELL_H: f64 = 9.0;
const BAND_H: f64 = 9.0;
const LABEL_W: f64 = 48.0;

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
    let g = &props.grid;
    let columns = g.cells.clamp(1, COLUMNS);
    let rows = g.cells.div_ceil(columns).max(1);
    let cell_w = (WIDTH - LABEL_W) / f64::from(columns);
    let pushed = g.pushed_to_all().min(g.loaded);
    let bands: &[(u32, u32)] = if props.compact { &[] } else { &g.pushed };
    let grid_h = f64::from(rows) * CELL_H;
    let height = grid_h + (bands.len() + 1) as f64 * (BAND_H + 3.0) + 4.0;
    let band_w = WIDTH - LABEL_W;
    let served_w = band_w * (1.0 - g.leaderless as f64 / g.partitions.max(1) as f64);
    let pattern = format!("cells-{}", props.side);
    let runs = (0..rows).flat_map(|row| {
        let first = row * columns;
        let last = (first + columns).min(g.cells);
        [(0, pushed, "pushed"), (pushed, g.loaded, "loaded"), (g.loaded, g.cells, "unknown")]
            .into_iter()
            .filter_map(move |(from, to, class)| {
                let (a, b) = (from.max(first), to.min(last));
                (a < b).then_some((row, a - first, b - a, class))
            })
    });
    let label = format!(
        "{} cells of {} partitions each: {} loaded by the controller, {} held fresh by every broker; {} without a leader",
        format::count(u64::from(g.cells)),
        format::count(g.per_cell),
        format::count(u64::from(g.loaded)),
        format::count(u64::from(pushed)),
        format::count(g.leaderless),
    );
    let lead_y = grid_h + 4.0;
    html! {
        <svg class={classes!("partition-grid", props.side)} viewBox={format!("0 0 {WIDTH} {height:.0}")} role="img" aria-label={label.clone()}
             data-cells={g.cells.to_string()} data-loaded-cells={g.loaded.to_string()} data-pushed-cells={pushed.to_string()} data-per-cell={g.per_cell.to_string()} data-partitions={g.partitions.to_string()}>
            <title>{ label }</title>
            <defs>
                <pattern id={pattern.clone()} width={format!("{cell_w:.3}")} height={CELL_H.to_string()} patternUnits="userSpaceOnUse" x={LABEL_W.to_string()}>
                    <rect class="cell-edge" width={format!("{cell_w:.3}")} height={CELL_H.to_string()} />
                </pattern>
            </defs>
            <text class="grid-label" x="0" y={(CELL_H + 1.0).to_string()}>{ "ctrl" }</text>
            { for runs.map(|(row, start, len, class)| html! {
                <rect class={classes!("run", class)} x={format!("{:.2}", LABEL_W + f64::from(start) * cell_w)} y={(f64::from(row) * CELL_H).to_string()}
                      width={format!("{:.2}", f64::from(len) * cell_w)} height={CELL_H.to_string()} />
            }) }
            <rect x={LABEL_W.to_string()} y="0" width={format!("{:.2}", f64::from(columns) * cell_w)} height={grid_h.to_string()} fill={format!("url(#{pattern})")} />
            <g class="band lead" data-leaderless={g.leaderless.to_string()}>
                <text class="grid-label" x="0" y={(lead_y + BAND_H - 1.0).to_string()}>{ "lead" }</text>
                <rect class="run served" x={LABEL_W.to_string()} y={lead_y.to_string()} width={format!("{served_w:.2}")} height={BAND_H.to_string()} />
                <rect class="run leaderless" x={format!("{:.2}", LABEL_W + served_w)} y={lead_y.to_string()} width={format!("{:.2}", band_w - served_w)} height={BAND_H.to_string()} />
            </g>
            { for bands.iter().enumerate().map(|(i, (id, cells))| {
                let y = lead_y + (i + 1) as f64 * (BAND_H + 3.0);
                let fresh = (WIDTH - LABEL_W) * f64::from(*cells) / f64::from(g.cells.max(1));
                html! {
                    <g class="band" data-broker={id.to_string()} data-fresh-cells={cells.to_string()}>
                        <text class="grid-label" x="0" y={(y + BAND_H - 1.0).to_string()}>{ format!("{}{id}", props.band_prefix) }</text>
                        <rect class="run stale" x={LABEL_W.to_string()} y={y.to_string()} width={(WIDTH - LABEL_W).to_string()} height={BAND_H.to_string()} />
                        <rect class="run pushed" x={LABEL_W.to_string()} y={y.to_string()} width={format!("{fresh:.2}")} height={BAND_H.to_string()} />
                    </g>
                }
            }) }
        </svg>
    }
}
