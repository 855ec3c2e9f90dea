//! Text that stays inside its box: SVG does not wrap or clip text, so a line that could run past
//! the box it belongs to (a broker's offsets grow to seven digits in the failover race) is given
//! a `textLength`, which the browser squeezes it into.

/// How much larger the drawing's text gets than its usual size, in drawing units (CSS: a phone
/// draws a regular drawing's `.node .small`, 11 px, at 13 px; a stage zooms the whole drawing,
/// boxes with their text).
const LARGEST: f64 = 13.0 / 11.0;
/// The usual size of a node's small text (CSS `.node .small`) and of its role (`.node .role`,
/// bold and spaced, so wider than its 11 px).
pub const SMALL_PX: f64 = 11.0;
pub const ROLE_PX: f64 = 12.0;

/// A glyph's advance in ems, after DejaVu Sans (the widest of the fonts `system-ui` falls back
/// to), so the estimate errs wide.
fn advance_em(c: char) -> f64 {
    match c {
        '0'..='9' => 0.636,
        ' ' | '·' | '.' | ',' | ':' => 0.32,
        'i' | 'l' | 'j' => 0.278,
        'f' | 't' | 'r' => 0.38,
        'm' | 'w' => 0.95,
        'a'..='z' => 0.61,
        'A'..='Z' => 0.72,
        '@' => 1.0,
        _ => 0.6,
    }
}

/// The `textLength` (in drawing units) that keeps `text`, drawn at `usual_px`, within `width`,
/// or None when it fits at every size the page draws it: the width it has at the usual size, at
/// most `width`, so a larger font (a phone, a stage) squeezes it instead of running over.
pub fn text_length(text: &str, width: f64, usual_px: f64) -> Option<f64> {
    let usual = text_width(text, usual_px);
    (usual * LARGEST > width).then(|| usual.min(width))
}

/// Where to centre `text`, drawn at `px`, and its half width, erring wide: as near 0 as keeps it
/// between `lo` and `hi` (a line under a node near the drawing's edge moves inward); the middle
/// where it is wider than that (`text_length` then squeezes it to that width).
pub fn placed_within(text: &str, px: f64, (lo, hi): (f64, f64)) -> (f64, f64) {
    let half = text_width(text, px) * LARGEST / 2.0;
    if 2.0 * half >= hi - lo {
        return ((lo + hi) / 2.0, (hi - lo) / 2.0);
    }
    (0.0f64.max(lo + half).min(hi - half), half)
}

/// How wide `text` is drawn at `px`, erring wide.
pub fn text_width(text: &str, px: f64) -> f64 {
    text.chars().map(advance_em).sum::<f64>() * px
}

#[cfg(test)]
mod tests {
    use super::{ROLE_PX, SMALL_PX, text_length};

    #[test]
    fn short_text_is_left_alone_and_long_text_never_exceeds_its_box() {
        assert_eq!(text_length("RUNNING", 120.0, SMALL_PX), None, "fits at every size");
        let near = text_length("image @ 12 · lag 0", 105.0, SMALL_PX).expect("over the box at 13 px");
        assert!((90.0..110.0).contains(&near), "kept at its usual width, not stretched: {near}");
        assert_eq!(
            text_length("fetched 1001047 · applied 1001047", 120.0, SMALL_PX),
            Some(120.0),
            "squeezed to the box"
        );
        assert_eq!(text_length("LEADER", 76.0, ROLE_PX), None, "a short role fits its circle");
        assert!(text_length("prospective", 76.0, ROLE_PX).is_some(), "a long one is squeezed on a stage");
    }
}
