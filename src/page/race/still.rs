//! A still of the failover race: both sides as the page shows them at one moment, side by side,
//! each with its title, stopwatch and state over its drawing (the same drawings the page makes:
//! `session::cluster_drawing`, `page::zk_drawing`, `page::grid_drawing`) and its caption under.

use crate::session::cluster_drawing::{StillStyle, caption_text, cluster};
use crate::session::layout::{Geometry, Layout};
use crate::session::svg::El;

use super::super::grid_drawing::grid_drawing;
use super::super::zk_drawing::zk_drawing;
use super::super::zk_layout::ZkGeometry;
use super::screen::RaceScreen;

/// A side's column width (every drawing of the race is this wide), the gap between the columns
/// and the margin round them, in drawing units.
const COLUMN: f64 = 1000.0;
const GAP: f64 = 60.0;
const MARGIN: f64 = 30.0;

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
    let kraft_head = [kraft.title.to_string(), kraft.stopwatch.clone(), kraft.leader.clone()];
    let zk_head = ["ZooKeeper mode".to_string(), zk.stopwatch.clone(), zk.summary.clone()];
    let (left, left_h) = column(
        "side-kraft",
        &kraft_head,
        [kraft_drawing, Some(grid_drawing(&kraft.grid, "kraft", "n", false))],
        &kraft.caption,
    );
    let (right, right_h) = column(
        "side-zk",
        &zk_head,
        [zk_drawing, Some(grid_drawing(&zk.grid, "zk", "b", false))],
        &zk.caption,
    );
    let width = 2.0 * COLUMN + GAP + 2.0 * MARGIN;
    let headline_h = if screen.headline.is_some() { 50.0 } else { 0.0 };
    let caption = caption_text(&style.caption);
    let mut height = MARGIN + headline_h + left_h.max(right_h) + MARGIN;
    let mut still = El::new("svg")
        .attr("class", if style.dark { "race-still still-dark" } else { "race-still" })
        .attr("viewBox", "")
        .attr("role", "img")
        .attr("aria-label", format!("The failover race: {}", screen.stage))
        .child(El::new("rect").attr("class", "race-still-panel").attr("width", width).attr("height", "100%"));
    if let Some(headline) = &screen.headline {
        still = still.child(centred("race-still-headline", width / 2.0, MARGIN + 28.0, headline));
    }
    let top = MARGIN + headline_h;
    still = still
        .child(left.attr("transform", format!("translate({MARGIN} {top})")))
        .child(right.attr("transform", format!("translate({} {top})", MARGIN + COLUMN + GAP)));
    if !caption.is_empty() {
        still = still.child(centred("still-caption", width / 2.0, height + 6.0, &caption));
        height += 40.0;
    }
    Some(still.set("viewBox", |_| format!("0 0 {width} {height}")))
}

/// A line of text at (`x`, `y`), centred there by its class's stylesheet.
fn centred(class: &'static str, x: f64, y: f64, text: &str) -> El {
    El::new("text").attr("class", class).attr("x", x).attr("y", y).text(text)
}

/// One side: its head lines, its drawings stacked (each placed as a group, at its own size),
/// its caption; and the height it takes.
fn column(class: &'static str, head: &[String; 3], drawings: [Option<El>; 2], caption: &str) -> (El, f64) {
    let [title, stopwatch, state] = head;
    let mut side = El::new("g")
        .attr("class", format!("race-still-side {class}"))
        .child(El::new("text").attr("class", "race-still-title").attr("x", "0").attr("y", "26").text(title))
        .child(
            El::new("text")
                .attr("class", "race-still-stopwatch")
                .attr("x", COLUMN)
                .attr("y", "30")
                .text(stopwatch),
        )
        .child(El::new("text").attr("class", "race-still-state").attr("x", "0").attr("y", "58").text(state));
    let mut y = 74.0;
    for drawing in drawings.into_iter().flatten() {
        let (placed, height) = placed(drawing, y);
        side = side.child(placed);
        y += height + 12.0;
    }
    for line in wrapped(caption, CAPTION_CHARS) {
        y += 24.0;
        side = side.child(
            El::new("text").attr("class", "race-still-caption").attr("x", "0").attr("y", y - 8.0).text(line),
        );
    }
    (side, y + 10.0)
}

/// The most characters of a side's caption on one line (SVG does not wrap text): about what
/// 18 px type fits in a column, with room to spare.
const CAPTION_CHARS: usize = 95;

/// `text` in lines of at most `chars` characters, broken between words (a longer word gets a
/// line of its own).
fn wrapped(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= chars => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A drawing (an `<svg>` with a `viewBox` from 0 0) as a group at height `y` of its column, scaled
/// to the column's width, and its height there. A group rather than a nested `<svg>`: the
/// page's stylesheet sizes its drawings' `<svg>` elements to their box on the page.
fn placed(drawing: El, y: f64) -> (El, f64) {
    let size: Vec<f64> = drawing
        .attrs
        .iter()
        .find(|(name, _)| *name == "viewBox")
        .map(|(_, v)| v.split(' ').filter_map(crate::util::float::parse).collect())
        .unwrap_or_default();
    let (width, height) = match size.as_slice() {
        [_, _, w, h] if *w > 0.0 => (*w, *h),
        _ => (COLUMN, 0.0),
    };
    let scale = COLUMN / width;
    let attrs = drawing.attrs.into_iter().filter(|(name, _)| *name != "viewBox");
    let mut group = El::new("g");
    group.attrs = attrs.collect();
    let transform =
        if scale == 1.0 { format!("translate(0 {y})") } else { format!("translate(0 {y}) scale({scale})") };
    (group.attr("transform", transform).with(drawing.children), height * scale)
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn captions_wrap_between_words() {
        assert_eq!(wrapped("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrapped("  one   two ", 20), ["one two"]);
        assert_eq!(wrapped("", 10), Vec::<String>::new());
        assert_eq!(wrapped("abcdefgh ij", 4), ["abcdefgh", "ij"]);
    }
}
