//! Where the ZooKeeper-mode drawing puts things. Regular: 1000 units wide with every detail (the
//! ensemble's servers and session timeout, the znode panel, each broker's session and cache in
//! words), in a frame wide enough to keep its type at 11 px. Compact (a phone, one side of the
//! race, the pains' scenes in a narrower frame): as many units wide as the frame has CSS pixels over its zoom, so that its type keeps
//! its size, with the names and states only, the brokers in as many rows as they need.
//! Pure geometry, tested natively; `web/zk_view.rs` draws what this module places.

use crate::drawing::layout::WIDTH;

/// A box by its centre and half sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub x: f64,
    pub y: f64,
    pub half_w: f64,
    pub half_h: f64,
}

/// The sizes and places of one ZooKeeper-mode drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ZkGeometry {
    pub compact: bool,
    pub width: f64,
    pub height: f64,
    /// The ensemble's dashed box.
    pub ensemble: Frame,
    /// The middle server's centre, and the distance between two servers' centres.
    pub server: (f64, f64),
    pub server_dx: f64,
    /// Half the width and height of a server's box.
    pub server_half: (f64, f64),
    /// Half the width and height of a broker's box.
    pub broker_half: (f64, f64),
    /// Where the znode panel's top left corner is (regular), or the `/controller` line's
    /// baseline, inside the ensemble's box under its servers (compact).
    pub znodes: (f64, f64),
    brokers: usize,
    per_row: usize,
    /// The first row's centre line and the distance between rows.
    first_row: f64,
    row_pitch: f64,
}

/// Space kept free around a compact drawing, and between two compact brokers.
const MARGIN: f64 = 6.0;
const GAP: f64 = 8.0;
/// Narrowest compact drawing.
const COMPACT_MIN: f64 = 300.0;
/// The narrowest frame, in units, that draws the regular drawing: its 1000 units scaled to it
/// keep 14-unit type at 11 px.
const REGULAR_FROM: f64 = WIDTH * 11.0 / 14.0;

impl ZkGeometry {
    /// The drawing with every detail, 1000 units wide, the brokers in one row.
    pub fn regular(brokers: usize) -> ZkGeometry {
        ZkGeometry {
            compact: false,
            width: WIDTH,
            height: 540.0,
            ensemble: Frame { x: 330.0, y: 98.0, half_w: 185.0, half_h: 73.0 },
            server: (330.0, 95.0),
            server_dx: 120.0,
            server_half: (48.0, 28.0),
            broker_half: (92.0, 60.0),
            znodes: (560.0, 20.0),
            brokers,
            per_row: brokers.max(1),
            first_row: 410.0,
            row_pitch: 0.0,
        }
    }

    /// A compact drawing `width` units wide (at least 300): the ensemble centred at the top
    /// with the `/controller` znode in its box, then rows of brokers.
    pub fn compact(width: f64, brokers: usize) -> ZkGeometry {
        let width = width.max(COMPACT_MIN).floor();
        let broker_half = (42.0, 36.0);
        let per_row =
            (((width - 2.0 * MARGIN + GAP) / (2.0 * broker_half.0 + GAP)) as usize).clamp(1, brokers.max(1));
        let rows = brokers.div_ceil(per_row).max(1);
        let ensemble_half_w = ((width - 2.0 * MARGIN) / 2.0).min(130.0);
        let first_row = 104.0 + broker_half.1;
        let row_pitch = 2.0 * broker_half.1 + 10.0;
        ZkGeometry {
            compact: true,
            width,
            height: first_row + (rows - 1) as f64 * row_pitch + broker_half.1 + MARGIN,
            ensemble: Frame { x: width / 2.0, y: 48.0, half_w: ensemble_half_w, half_h: 42.0 },
            server: (width / 2.0, 45.0),
            server_dx: 76.0,
            server_half: (32.0, 14.0),
            broker_half,
            znodes: (width / 2.0, 81.0),
            brokers,
            per_row,
            first_row,
            row_pitch,
        }
    }

    /// The geometry for `brokers` in a frame `px` CSS pixels wide at `zoom`: regular where its
    /// smallest type (14 units, CSS `.tiny-note`, `.zk-server .small`) scaled to the frame stays
    /// at 11 px or more (`REGULAR_FROM` units), compact in a narrower frame (and regular until
    /// the frame is measured).
    pub fn for_width(px: f64, zoom: f64, brokers: usize) -> ZkGeometry {
        let units = px / zoom;
        if px > 0.0 && units < REGULAR_FROM {
            ZkGeometry::compact(units, brokers)
        } else {
            ZkGeometry::regular(brokers)
        }
    }

    /// Broker `index`'s box: one row spread over the width (regular), or rows filled left to
    /// right, each centred (compact).
    pub fn broker(&self, index: usize) -> Frame {
        let (half_w, half_h) = self.broker_half;
        if !self.compact {
            let x = self.width * (index as f64 + 0.5) / self.brokers.max(1) as f64;
            return Frame { x, y: self.first_row, half_w, half_h };
        }
        let (row, column) = (index / self.per_row, index % self.per_row);
        let in_row = (self.brokers - row * self.per_row).min(self.per_row);
        let pitch = 2.0 * half_w + GAP;
        let left = (self.width - in_row as f64 * pitch + GAP) / 2.0 + half_w;
        Frame {
            x: left + column as f64 * pitch,
            y: self.first_row + row as f64 * self.row_pitch,
            half_w,
            half_h,
        }
    }

    /// Where a broker's link to the ensemble starts (the top of its box) and where every link
    /// ends (the bottom of the ensemble's box).
    pub fn broker_anchor(&self, index: usize) -> (f64, f64) {
        let b = self.broker(index);
        (b.x, b.y - b.half_h)
    }

    pub fn ensemble_anchor(&self) -> (f64, f64) {
        (self.ensemble.x, self.ensemble.y + self.ensemble.half_h)
    }

    /// The box of a client writing to ZooKeeper directly: in the regular drawing, left, halfway
    /// down between the ensemble and the brokers, clear of the first broker's link; a compact
    /// drawing has no room for it.
    pub fn client(&self) -> Option<Frame> {
        let (half_w, half_h) = (62.0, 50.0);
        let y = (self.ensemble.y + self.ensemble.half_h + self.first_row - self.broker_half.1) / 2.0;
        (!self.compact).then_some(Frame { x: 2.0 * MARGIN + half_w, y, half_w, half_h })
    }

    /// The client's link: from its box's right edge to where the brokers' links end.
    pub fn client_link(&self) -> Option<((f64, f64), (f64, f64))> {
        let c = self.client()?;
        Some(((c.x + c.half_w, c.y), self.ensemble_anchor()))
    }
}

#[cfg(test)]
mod tests {
    use super::{Frame, ZkGeometry};

    fn overlap(a: &Frame, b: &Frame) -> bool {
        (a.x - b.x).abs() < a.half_w + b.half_w && (a.y - b.y).abs() < a.half_h + b.half_h
    }

    fn inside(g: &ZkGeometry, f: &Frame) -> bool {
        f.x - f.half_w >= 0.0
            && f.x + f.half_w <= g.width
            && f.y - f.half_h >= 0.0
            && f.y + f.half_h <= g.height
    }

    #[test]
    fn compact_brokers_fit_the_width_in_rows_without_overlapping_each_other_or_the_ensemble() {
        for width in [300.0, 339.0, 377.0, 460.0, 559.0, 700.0, 785.0] {
            for brokers in 1..=8 {
                let g = ZkGeometry::for_width(width, 1.0, brokers);
                assert!(g.compact && g.width == width.floor());
                let boxes: Vec<Frame> = (0..brokers).map(|i| g.broker(i)).collect();
                for (i, b) in boxes.iter().enumerate() {
                    assert!(inside(&g, b), "{width} units, {brokers} brokers: b{i} {b:?} outside {g:?}");
                    assert!(!overlap(b, &g.ensemble), "b{i} under the ensemble");
                    assert!(b.y - b.half_h > g.znodes.1, "b{i} over the /controller line");
                    assert!(
                        g.compact && g.znodes.1 < g.ensemble.y + g.ensemble.half_h,
                        "the line is in the box"
                    );
                    for (j, other) in boxes.iter().enumerate().skip(i + 1) {
                        assert!(!overlap(b, other), "{width} units: b{i} and b{j} overlap");
                    }
                }
                assert!(inside(&g, &g.ensemble));
            }
        }
    }

    /// The client's box sits between the ensemble and the brokers, inside the drawing, clear of
    /// every broker, of the ensemble and of the first broker's link; its own link is long enough
    /// for its write to be seen travelling. A compact drawing has no room for it.
    #[test]
    fn the_client_fits_between_the_ensemble_and_the_brokers() {
        for brokers in [3, 4, 5] {
            let g = ZkGeometry::regular(brokers);
            let c = g.client().expect("room for the client");
            assert!(inside(&g, &c) && !overlap(&c, &g.ensemble), "{c:?} in {g:?}");
            assert!((0..brokers).all(|i| !overlap(&c, &g.broker(i))));
            let ((bx, by), (ex, ey)) = (g.broker_anchor(0), g.ensemble_anchor());
            let link_x_at = |y: f64| bx + (ex - bx) * (by - y) / (by - ey);
            let right = c.x + c.half_w;
            assert!(
                right < link_x_at(c.y - c.half_h) && right < link_x_at(c.y + c.half_h),
                "{brokers}: b0's link"
            );
            let ((x1, y1), (x2, y2)) = g.client_link().expect("a link");
            assert!((x2 - x1).hypot(y2 - y1) > 150.0 && (x2, y2) == (ex, ey));
        }
        assert_eq!(ZkGeometry::compact(460.0, 4).client(), None, "no room in a compact drawing");
    }

    #[test]
    fn three_servers_fit_the_ensemble_box() {
        for g in [ZkGeometry::regular(5), ZkGeometry::compact(300.0, 5)] {
            let (x, _) = g.server;
            let outer = g.server_dx + g.server_half.0;
            assert!(
                x - outer >= g.ensemble.x - g.ensemble.half_w
                    && x + outer <= g.ensemble.x + g.ensemble.half_w
            );
        }
    }

    #[test]
    fn wide_or_unmeasured_frames_get_the_regular_drawing() {
        assert!(!ZkGeometry::for_width(0.0, 1.0, 5).compact, "not measured yet");
        assert!(!ZkGeometry::for_width(1200.0, 1.0, 5).compact);
        assert!(ZkGeometry::for_width(700.0, 1.3, 5).compact, "a stage zooms a 700 px frame to 538 units");
        assert!(
            ZkGeometry::for_width(700.0, 1.0, 5).compact,
            "700 units would shrink 14-unit type to 9.8 px"
        );
        assert!(!ZkGeometry::for_width(800.0, 1.0, 5).compact, "800 units keep it at 11.2 px");
        let regular = ZkGeometry::regular(5);
        assert_eq!(regular.broker(0).x, 100.0, "five brokers spread over 1000 units");
        assert_eq!(regular.broker_anchor(2), (500.0, 350.0));
    }
}
