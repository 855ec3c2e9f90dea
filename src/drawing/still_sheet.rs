//! The layout the stills of the later views share (the failover race, the pains, the opened
//! log): a sheet of one or two columns, each a head (title, a figure at its right, a state line)
//! over the page's own drawings, tables and lines of text stacked down, and the caption under
//! all. SVG does not wrap or lay out text, so this does, in drawing units.

use crate::drawing::cluster::{StillStyle, caption_text};
use crate::drawing::svg::El;

/// A column's width (every drawing of the race is this wide), the gap between two columns and
/// the margin round them, in drawing units.
pub const COLUMN: f64 = 1000.0;
const GAP: f64 = 60.0;
const MARGIN: f64 = 30.0;
/// A line of text in a column (18 px type), and of a table (15 px type).
const LINE: f64 = 24.0;
const ROW: f64 = 26.0;
/// A line of a table's cell that wraps.
const TABLE_LINE: f64 = 17.0;

/// The most characters of a line of 18 px text in a column of `width` (SVG does not wrap text):
/// about what the type fits, with room to spare.
pub fn chars_for(width: f64) -> usize {
    (width / COLUMN * 95.0) as usize
}

/// One column of a sheet, built top down.
pub struct Column {
    el: El,
    width: f64,
    /// Where the next part goes.
    y: f64,
}

impl Column {
    /// A column of `width` with class `class`, headed by `title`, `figure` at its right (a
    /// stopwatch, a clock) and a `state` line under them.
    pub fn new(class: &str, width: f64, title: &str, figure: &str, state: &str) -> Column {
        let el = El::new("g")
            .attr("class", format!("still-column {class}"))
            .child(El::new("text").attr("class", "still-title").attr("x", "0").attr("y", "26").text(title))
            .child(
                El::new("text").attr("class", "still-figure").attr("x", width).attr("y", "30").text(figure),
            )
            .child(El::new("text").attr("class", "still-state").attr("x", "0").attr("y", "58").text(state));
        Column { el, width, y: 74.0 }
    }

    /// With a drawing (an `<svg>` with a `viewBox` from 0 0) as a group scaled to the column's
    /// width. A group rather than a nested `<svg>`: the page's stylesheet sizes its drawings'
    /// `<svg>` elements to their box on the page.
    pub fn drawing(mut self, drawing: El) -> Column {
        let size: Vec<f64> = drawing
            .attrs
            .iter()
            .find(|(name, _)| *name == "viewBox")
            .map(|(_, v)| v.split(' ').filter_map(crate::util::float::parse).collect())
            .unwrap_or_default();
        let (width, height) = match size.as_slice() {
            [_, _, w, h] if *w > 0.0 => (*w, *h),
            _ => (self.width, 0.0),
        };
        let scale = self.width / width;
        let mut group = El::new("g");
        group.attrs = drawing.attrs.into_iter().filter(|(name, _)| *name != "viewBox").collect();
        let y = self.y;
        let transform = if scale == 1.0 {
            format!("translate(0 {y})")
        } else {
            format!("translate(0 {y}) scale({scale})")
        };
        self.el = self.el.child(group.attr("transform", transform).with(drawing.children));
        self.y += height * scale + 12.0;
        self
    }

    /// With `text` in lines of class `class` that fit the column, broken between words.
    pub fn lines(mut self, class: &str, text: &str) -> Column {
        for line in wrapped(text, chars_for(self.width)) {
            self.y += LINE;
            self.el = self.el.child(
                El::new("text")
                    .attr("class", format!("still-line {class}"))
                    .attr("x", "0")
                    .attr("y", self.y - 8.0)
                    .text(line),
            );
        }
        self
    }

    /// With a gap of `height`.
    pub fn gap(mut self, height: f64) -> Column {
        self.y += height;
        self
    }

    /// With `table`: its caption, its head row and its rows, the first column `first` wide and
    /// the others sharing the rest.
    pub fn table(mut self, table: Table, first: f64) -> Column {
        let columns = table.head.len().max(1);
        let other = (self.width - first) / (columns - 1).max(1) as f64;
        let x = |i: usize| if i == 0 { 0.0 } else { first + (i - 1) as f64 * other };
        let w = |i: usize| if i == 0 { first } else { other };
        let mut group = El::new("g")
            .attr("class", format!("still-table {}", table.class))
            .attr("transform", format!("translate(0 {})", self.y))
            .child(
                El::new("text")
                    .attr("class", "still-table-caption")
                    .attr("x", "0")
                    .attr("y", "18")
                    .text(table.caption),
            );
        // A row's cells, each in lines that fit its width (a head's words wrap; 15 px type
        // averages under 8.6 units a character), the row as tall as its most lines.
        let row = |y: f64, class: Option<&str>, cells: Vec<Cell>| {
            let lines: Vec<Vec<String>> =
                cells.iter().enumerate().map(|(i, c)| wrapped(&c.text, (w(i) / 8.6) as usize)).collect();
            let height = ROW + TABLE_LINE * (lines.iter().map(Vec::len).max().unwrap_or(1).max(1) - 1) as f64;
            let group = El::new("g").attr_if("class", class).attr("transform", format!("translate(0 {y})"));
            let cells = cells.into_iter().zip(lines).enumerate().map(|(i, (cell, lines))| {
                let rect = El::new("rect")
                    .attr_if("class", cell.marked.then_some("marked"))
                    .attr("x", x(i))
                    .attr("width", w(i))
                    .attr("height", height);
                let texts = lines.into_iter().enumerate().map(|(n, line)| {
                    El::new("text")
                        .attr("x", if i == 0 { x(i) + 6.0 } else { x(i) + w(i) / 2.0 })
                        .attr("y", ROW - 8.0 + TABLE_LINE * n as f64)
                        .attr_if("class", (i > 0).then_some("centred"))
                        .text(line)
                });
                El::new("g").child(rect).children(texts)
            });
            (group.children(cells), height)
        };
        let (head, mut y) = row(28.0, Some("head"), table.head);
        y += 28.0;
        group = group.child(head);
        for (class, cells) in table.rows {
            let (el, height) = row(y, class, cells);
            group = group.child(el);
            y += height;
        }
        self.el = self.el.child(group);
        self.y += y + 12.0;
        self
    }

    /// The column and the height it takes.
    fn finish(self) -> (El, f64) {
        (self.el, self.y + 10.0)
    }
}

/// A table as a still draws it.
pub struct Table {
    pub class: &'static str,
    pub caption: String,
    pub head: Vec<Cell>,
    /// Each row's class (if any) and cells.
    pub rows: Vec<(Option<&'static str>, Vec<Cell>)>,
}

/// A table's cell: its text, and whether it is marked (outlined, as the page marks it).
pub struct Cell {
    pub text: String,
    pub marked: bool,
}

impl Cell {
    pub fn plain(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), marked: false }
    }
}

/// The sheet: `columns` side by side, classed `class`,
/// labelled `label` for a screen reader, `headline` over them and the caption of `style` under
/// them, in its theme.
pub fn sheet(
    class: &str,
    label: String,
    headline: Option<&str>,
    columns: Vec<Column>,
    style: &StillStyle,
) -> El {
    let width =
        columns.iter().map(|c| c.width).sum::<f64>() + GAP * (columns.len().max(1) - 1) as f64 + 2.0 * MARGIN;
    let headline_h = if headline.is_some() { 50.0 } else { 0.0 };
    let top = MARGIN + headline_h;
    let dark = if style.dark { " still-dark" } else { "" };
    let mut still = El::new("svg")
        .attr("class", format!("still-sheet {class}{dark}"))
        .attr("viewBox", "")
        .attr("role", "img")
        .attr("aria-label", label)
        .child(El::new("rect").attr("class", "still-panel").attr("width", width).attr("height", "100%"));
    if let Some(headline) = headline {
        still = still.child(centred("still-headline", width / 2.0, MARGIN + 28.0, headline));
    }
    let (mut x, mut tallest) = (MARGIN, 0.0_f64);
    for column in columns {
        let column_width = column.width;
        let (el, height) = column.finish();
        still = still.child(el.attr("transform", format!("translate({x} {top})")));
        tallest = tallest.max(height);
        x += column_width + GAP;
    }
    let mut height = top + tallest + MARGIN;
    let caption = caption_text(&style.caption);
    if !caption.is_empty() {
        still = still.child(centred("still-caption", width / 2.0, height + 6.0, &caption));
        height += 40.0;
    }
    still.set("viewBox", |_| format!("0 0 {width} {height}"))
}

/// A line of text at (`x`, `y`), centred there by its class's stylesheet.
fn centred(class: &'static str, x: f64, y: f64, text: &str) -> El {
    El::new("text").attr("class", class).attr("x", x).attr("y", y).text(text)
}

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

#[cfg(test)]
mod tests {
    use super::{COLUMN, Cell, Column, Table, sheet, wrapped};
    use crate::drawing::cluster::StillStyle;
    use crate::drawing::svg::El;

    #[test]
    fn captions_wrap_between_words() {
        assert_eq!(wrapped("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrapped("  one   two ", 20), ["one two"]);
        assert_eq!(wrapped("", 10), Vec::<String>::new());
        assert_eq!(wrapped("abcdefgh ij", 4), ["abcdefgh", "ij"]);
    }

    /// A column as wide as two and the gap between them.
    const WIDE: f64 = 2.0 * COLUMN + 60.0;

    fn view_box(el: &El) -> String {
        el.attrs.iter().find(|(n, _)| *n == "viewBox").map(|(_, v)| v.clone()).unwrap_or_default()
    }

    #[test]
    fn a_sheet_is_as_wide_as_its_columns_and_as_tall_as_the_tallest() {
        let drawing = El::new("svg").attr("class", "d").attr("viewBox", "0 0 500 100");
        let short = Column::new("a", COLUMN, "A", "", "");
        let tall = Column::new("b", COLUMN, "B", "1 s", "state").drawing(drawing);
        let two = sheet("s", "two".into(), None, vec![short, tall], &StillStyle::default());
        // 30 + 1000 + 60 + 1000 + 30 wide; under the head (74), the drawing doubled to 200 high and a
        // gap of 12.
        assert_eq!(view_box(&two), "0 0 2120 356");
        let one = sheet(
            "s",
            "one".into(),
            Some("headline"),
            vec![Column::new("c", WIDE, "C", "", "")],
            &StillStyle::default(),
        );
        assert_eq!(view_box(&one), "0 0 2120 194");
        let captioned = StillStyle { dark: true, caption: "words".into() };
        let one = sheet("s", "one".into(), None, vec![Column::new("c", WIDE, "C", "", "")], &captioned);
        assert_eq!(view_box(&one), "0 0 2120 184");
        assert!(one.markup().contains("class=\"still-sheet s still-dark\""));
    }

    #[test]
    fn a_table_draws_a_cell_per_value_and_outlines_the_marked_ones() {
        let table = Table {
            class: "t",
            caption: "caption".into(),
            head: vec![Cell::plain("who"), Cell::plain("p0"), Cell::plain("p1")],
            rows: vec![
                (None, vec![Cell::plain("zk"), Cell::plain("b1"), Cell::plain("b2")]),
                (
                    Some("stale-row"),
                    vec![Cell::plain("b0"), Cell { text: "≠b3".into(), marked: true }, Cell::plain("b2")],
                ),
            ],
        };
        let markup = Column::new("c", COLUMN, "T", "", "").table(table, 200.0).finish().0.markup();
        assert_eq!(markup.matches("<rect").count(), 9, "{markup}");
        assert_eq!(markup.matches("class=\"marked\"").count(), 1);
        assert!(
            markup.contains("<rect class=\"marked\" x=\"200\" width=\"400\" height=\"26\"/><text x=\"400\""),
            "{markup}"
        );
        let narrow = Table {
            class: "t",
            caption: String::new(),
            head: vec![Cell::plain("who"), Cell::plain("a head of many words")],
            rows: vec![(None, vec![Cell::plain("zk"), Cell::plain("yes")])],
        };
        let (column, height) = Column::new("c", COLUMN, "T", "", "").table(narrow, 900.0).finish();
        let wraps = column.markup();
        assert!(
            wraps.contains(">a head of<") && wraps.contains(">many words<"),
            "a head wraps in its cell: {wraps}"
        );
        assert!(wraps.contains("height=\"43\""), "its row two lines tall: {wraps}");
        // Head (28 + 43) and a row (26) under the caption's 28, a gap of 12, under the head (74).
        assert_eq!(height, 74.0 + 28.0 + 43.0 + 26.0 + 12.0 + 10.0);
        assert!(markup.contains("class=\"stale-row\""));
    }
}
