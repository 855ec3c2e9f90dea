//! Partition state at scale as a grid of cells, each standing for some partitions: unknown,
//! loaded by the active controller, or held fresh by every broker; below it a band of the
//! share of partitions with a live leader (they serve), and one band per broker. Cells fill in
//! partition order, so each row is drawn as at most three runs. The race draws it under each
//! side (`web::partition_grid`), and a still of the race writes it out.

use crate::drawing::svg::El;
use crate::util::format;
use crate::zk::PartitionGrid;

use crate::drawing::layout::WIDTH;

/// The narrowest grid, in units.
const NARROWEST: f64 = 200.0;
const COLUMNS: u32 = 100;
/// A row of cells' height in a grid `WIDTH` units wide; a narrower grid's rows are lower in
/// proportion (cells have no text), so the grid keeps its shape.
const CELL_H: f64 = 9.0;
const BAND_H: f64 = 9.0;
const LABEL_W: f64 = 48.0;

/// The grid of one side, `width` units wide (from 300 to `WIDTH`: as many as its frame has CSS
/// pixels, so its labels keep their size; a still's is `WIDTH`): `side` is "kraft" or "zk" (it
/// keeps the cell pattern's id unique), `band_prefix` names each band's owner ("n" for n101, "b"
/// for b2), and a `compact` grid has no per-broker bands.
pub fn grid_drawing(
    g: &PartitionGrid,
    side: &'static str,
    band_prefix: &str,
    compact: bool,
    width: f64,
) -> El {
    let width = width.clamp(NARROWEST, WIDTH).round();
    let columns = g.cells.clamp(1, COLUMNS);
    let rows = g.cells.div_ceil(columns).max(1);
    // Never lower in all than one row at `WIDTH`: room for the label beside it.
    let cell_h = (CELL_H * width / WIDTH).max(CELL_H / f64::from(rows));
    let cell_w = (width - LABEL_W) / f64::from(columns);
    let pushed = g.pushed_to_all().min(g.loaded);
    let bands: &[(u32, u32)] = if compact { &[] } else { &g.pushed };
    let grid_h = f64::from(rows) * cell_h;
    let height = grid_h + (bands.len() + 1) as f64 * (BAND_H + 3.0) + 4.0;
    let band_w = width - LABEL_W;
    let served_w = band_w * (1.0 - g.leaderless as f64 / g.partitions.max(1) as f64);
    let pattern = format!("cells-{side}");
    let runs = (0..rows).flat_map(|row| {
        let first = row * columns;
        let last = (first + columns).min(g.cells);
        [(0, pushed, "run pushed"), (pushed, g.loaded, "run loaded"), (g.loaded, g.cells, "run unknown")]
            .into_iter()
            .filter_map(move |(from, to, class)| {
                let (a, b) = (from.max(first), to.min(last));
                (a < b).then(|| (row, a - first, b - a, class))
            })
    });
    let label = described(g, pushed);
    let lead_y = grid_h + 4.0;
    let cells = runs.map(|(row, start, len, class)| {
        El::new("rect")
            .attr("class", class)
            .attr("x", format!("{:.2}", LABEL_W + f64::from(start) * cell_w))
            .attr("y", format!("{:.2}", f64::from(row) * cell_h))
            .attr("width", format!("{:.2}", f64::from(len) * cell_w))
            .attr("height", format!("{cell_h:.2}"))
    });
    let band_rows = bands.iter().enumerate().map(|(i, (id, cells))| {
        let y = lead_y + (i + 1) as f64 * (BAND_H + 3.0);
        let fresh = (width - LABEL_W) * f64::from(*cells) / f64::from(g.cells.max(1));
        El::new("g")
            .attr("class", "band")
            .attr("data-broker", id)
            .attr("data-fresh-cells", cells)
            .child(label_text(y + BAND_H - 1.0, format!("{band_prefix}{id}")))
            .child(run("run stale", LABEL_W.to_string(), y, (width - LABEL_W).to_string()))
            .child(run("run pushed", LABEL_W.to_string(), y, format!("{fresh:.2}")))
    });
    let lead = El::new("g")
        .attr("class", "band lead")
        .attr("data-leaderless", g.leaderless)
        .child(label_text(lead_y + BAND_H - 1.0, "lead".into()))
        .child(run("run served", LABEL_W.to_string(), lead_y, format!("{served_w:.2}")))
        .child(run(
            "run leaderless",
            format!("{:.2}", LABEL_W + served_w),
            lead_y,
            format!("{:.2}", band_w - served_w),
        ));
    El::new("svg")
        .attr("class", format!("partition-grid {side}"))
        .attr("viewBox", format!("0 0 {width} {height:.0}"))
        .attr("role", "img")
        .attr("aria-label", &label)
        .attr("data-cells", g.cells)
        .attr("data-loaded-cells", g.loaded)
        .attr("data-pushed-cells", pushed)
        .attr("data-per-cell", g.per_cell)
        .attr("data-partitions", g.partitions)
        .title(label)
        .child(cell_pattern(&pattern, cell_w, cell_h))
        .child(label_text(grid_h.min(CELL_H) + 1.0, "ctrl".into()))
        .children(cells)
        .child(
            El::new("rect")
                .attr("x", LABEL_W)
                .attr("y", "0")
                .attr("width", format!("{:.2}", f64::from(columns) * cell_w))
                .attr("height", grid_h)
                .attr("fill", format!("url(#{pattern})")),
        )
        .child(lead)
        .children(band_rows)
}

/// What the grid shows, in words (its label and title).
fn described(g: &PartitionGrid, pushed: u32) -> String {
    format!(
        "{} cells of {} partitions each: {} loaded by the controller, {} held fresh by every broker; {} without a leader",
        format::count(u64::from(g.cells)),
        format::count(g.per_cell),
        format::count(u64::from(g.loaded)),
        format::count(u64::from(pushed)),
        format::count(g.leaderless),
    )
}

/// A row's label, its baseline at `y`.
fn label_text(y: f64, text: String) -> El {
    El::new("text").attr("class", "grid-label").attr("x", "0").attr("y", y).text(text)
}

/// A run of a band, of `class`, at `x` and `y`, `width` units wide.
fn run(class: &'static str, x: String, y: f64, width: String) -> El {
    El::new("rect").attr("class", class).attr("x", x).attr("y", y).attr("width", width).attr("height", BAND_H)
}

/// The pattern `id` that edges every cell of `cell_w` by `cell_h`.
fn cell_pattern(id: &str, cell_w: f64, cell_h: f64) -> El {
    let edge = El::new("rect")
        .attr("class", "cell-edge")
        .attr("width", format!("{cell_w:.3}"))
        .attr("height", format!("{cell_h:.2}"));
    El::new("defs").child(
        El::new("pattern")
            .attr("id", id)
            .attr("width", format!("{cell_w:.3}"))
            .attr("height", format!("{cell_h:.2}"))
            .attr("patternUnits", "userSpaceOnUse")
            .attr("x", LABEL_W)
            .child(edge),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The width of the drawing and the right edge of its lead band.
    fn edges(drawing: &El) -> (String, f64) {
        let xml = drawing.markup();
        let view_box =
            xml.split("viewBox=\"").nth(1).and_then(|v| v.split('"').next()).unwrap_or("").to_string();
        let leaderless = xml.split("class=\"run leaderless\"").nth(1).unwrap_or("");
        let number = |name: &str| -> f64 {
            leaderless
                .split(&format!("{name}=\""))
                .nth(1)
                .and_then(|v| v.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN)
        };
        (view_box, number("x") + number("width"))
    }

    #[test]
    fn a_grid_is_as_many_units_wide_as_it_is_asked_and_fills_them() {
        let grid = PartitionGrid::empty(100_000, 200);
        for (asked, drawn) in [(600.0, "600"), (1000.0, "1000"), (1800.0, "1000"), (120.0, "200")] {
            let (view_box, right) = edges(&grid_drawing(&grid, "kraft", "n", false, asked));
            assert!(view_box.starts_with(&format!("0 0 {drawn} ")), "asked {asked}: {view_box}");
            assert!(
                (right - drawn.parse::<f64>().unwrap()).abs() < 0.01,
                "asked {asked}: the band ends at {right}"
            );
        }
    }
}
