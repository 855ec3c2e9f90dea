//! Where the cluster drawing puts things: controllers on a ring, brokers in staggered rows, and
//! the route of every link, chosen so that no two nodes overlap and no link crosses a third
//! node. Pure geometry, tested natively; the SVG view draws what this module places.

use crate::quorum::NodeId;

/// Width of a regular drawing's coordinate space (its height depends on the cluster).
pub const WIDTH: f64 = 1000.0;
/// Clearance kept between a link and a node that is not one of its ends.
const CLEARANCE: f64 = 6.0;
/// How finely the ring's turn is tried, in parts of the step between two controllers.
const TURNS: usize = 8;
/// Least room between two brokers of a compact row.
const BROKER_GAP: f64 = 8.0;
/// Below this width in user units (CSS pixels over the zoom), a drawing is compact.
const COMPACT_BELOW: f64 = 560.0;
/// The smallest type of a regular drawing, in units (CSS `.node .small`, `.epoch-mark`, ...); a
/// compact one's is a unit larger.
const SMALLEST_PX: f64 = 11.0;
/// How far a regular drawing too narrow for its cluster is widened at a time.
const WIDEN_STEP: f64 = 20.0;
/// Most controllers a compact drawing draws.
pub const COMPACT_RING: usize = 5;
/// Presenter mode draws compact drawings this much larger, for a room.
pub const STAGE_ZOOM: f64 = 1.3;

/// The sizes a drawing is made of. Every drawing is as many units wide as it has CSS pixels over
/// its zoom, so that its type keeps its size (never drawn smaller than its CSS size, larger on a
/// stage), up to 1000 units, past which it is scaled up. A regular drawing has every detail; a
/// compact one (a docs embed, a phone, one side of the race on a stage) shows fewer: a
/// controller's name, role, epoch and vote, its log without labels; a broker's name and
/// lifecycle. A regular drawing too narrow for its cluster is widened until it fits (and is then
/// scaled down to its frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    pub compact: bool,
    pub width: f64,
    /// Radius of a controller's circle.
    pub radius: f64,
    /// Width of one log cell.
    pub cell: f64,
    /// Room left of a controller's log strip for the snapshot box.
    pub snapshot_w: f64,
    /// Top of a controller's log strip, from its centre, and its height.
    pub strip_top: f64,
    pub strip_h: f64,
    /// Above a controller's centre: its timeout arc, crown and the line over it.
    pub above: f64,
    /// Below a controller's centre: its log strip and the lines under it.
    pub below: f64,
    /// Least half width of a controller's box: its lines of text (a crowded compact ring
    /// narrows them, and its texts are squeezed to fit).
    pub label_half_w: f64,
    /// Half the width and height of a broker's box.
    pub broker_half_w: f64,
    pub broker_half_h: f64,
    /// Space kept free around the drawing.
    margin: f64,
    /// Vertical distance between two brokers' lanes in the corridor under the controllers.
    lane: f64,
    /// Log cells a controller's strip shows, widest first: rings of many controllers get
    /// shorter strips rather than a taller drawing.
    strip_choices: &'static [usize],
    /// Narrower text widths a crowded ring tries, after `label_half_w`.
    narrower_labels: &'static [f64],
    /// The flattest and tallest vertical radius tried for the controllers' ring.
    ring_ry: (f64, f64),
}

impl Geometry {
    /// The drawing with every detail, 1000 units wide (a still, or before the frame is measured).
    pub const REGULAR: Geometry = Geometry {
        compact: false,
        width: WIDTH,
        radius: 40.0,
        cell: 14.0,
        snapshot_w: 34.0,
        strip_top: 54.0,
        strip_h: 16.0,
        above: 74.0,
        below: 88.0,
        label_half_w: 48.0,
        broker_half_w: 64.0,
        broker_half_h: 52.0,
        margin: 12.0,
        lane: 7.0,
        strip_choices: &[14, 12, 10, 8, 6],
        narrower_labels: &[],
        ring_ry: (40.0, 260.0),
    };

    /// The drawing with every detail, `width` units wide (at least `COMPACT_BELOW`, at most
    /// `WIDTH`).
    pub fn regular(width: f64) -> Geometry {
        Geometry { width: width.clamp(COMPACT_BELOW, WIDTH).round(), ..Geometry::REGULAR }
    }

    /// A compact drawing `width` units wide (at least 330).
    pub fn compact(width: f64) -> Geometry {
        let radius = 22.0;
        Geometry {
            compact: true,
            width: width.max(330.0).round(),
            radius,
            cell: 8.0,
            snapshot_w: 12.0,
            strip_top: radius + 31.0,
            strip_h: 8.0,
            above: radius + 14.0,
            below: radius + 42.0,
            label_half_w: 54.0,
            broker_half_w: 40.0,
            broker_half_h: 19.0,
            margin: 6.0,
            lane: 5.0,
            strip_choices: &[10, 8, 6],
            narrower_labels: &[46.0, 38.0],
            ring_ry: (10.0, 220.0),
        }
    }

    /// The geometry for a drawing of `controllers` `px` CSS pixels wide, at `zoom` (1, or
    /// `STAGE_ZOOM` in presenter mode): compact below `COMPACT_BELOW` units, else regular, as
    /// many units wide as it has pixels over its zoom. Before the drawing is measured (`px` 0),
    /// regular at `WIDTH`; and regular for rings of more than `COMPACT_RING` controllers, which a
    /// compact drawing cannot keep clear of each other's links.
    pub fn for_width(px: f64, zoom: f64, controllers: usize) -> Geometry {
        let units = px / zoom;
        if px <= 0.0 {
            Geometry::REGULAR
        } else if units < COMPACT_BELOW && controllers <= COMPACT_RING {
            Geometry::compact(units)
        } else {
            Geometry::regular(units)
        }
    }

    /// Horizontal radius of the controllers' ring for controllers `half_w` wide at the given
    /// angles: a regular ring is 370 units (200 for two) where the drawing has room, narrower
    /// where it has not.
    fn ring_rx(&self, n: usize, half_w: f64, angles: &[f64]) -> f64 {
        let room = self.width / 2.0 - self.margin - self.label_half_w;
        match (self.compact, n) {
            (false, _) => {
                let widest = angles.iter().map(|a| a.cos().abs()).fold(0.0, f64::max).max(0.01);
                let fits = (self.width / 2.0 - self.margin - half_w) / widest;
                fits.min(if n == 2 { 200.0 } else { 370.0 })
            }
            (true, 2) => room.min(120.0),
            (true, _) => room,
        }
    }

    /// Most brokers in one row, and the widest a row's pitch gets.
    fn row(&self) -> (usize, f64) {
        if self.compact {
            let fits = ((self.width - 2.0 * self.margin) / (2.0 * self.broker_half_w + BROKER_GAP)) as usize;
            (fits.max(1), 2.0 * self.broker_half_w + 40.0)
        } else {
            let fits = ((self.width - 2.0 * self.margin) / (2.0 * self.broker_half_w + 34.0)) as usize;
            (fits.clamp(1, 6), 180.0)
        }
    }
}

/// A point of the drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Rect {
    /// The area this box shares with `other` (0 when they are apart).
    pub fn overlap(&self, other: &Rect) -> f64 {
        let w = self.right.min(other.right) - self.left.max(other.left);
        let h = self.bottom.min(other.bottom) - self.top.max(other.top);
        if w > 0.0 && h > 0.0 { w * h } else { 0.0 }
    }

    pub(crate) fn around(c: Point, half_w: f64, above: f64, below: f64) -> Rect {
        Rect { left: c.x - half_w, top: c.y - above, right: c.x + half_w, bottom: c.y + below }
    }

    /// This box grown by `m` on every side.
    pub fn grow(&self, m: f64) -> Rect {
        Rect { left: self.left - m, top: self.top - m, right: self.right + m, bottom: self.bottom + m }
    }

    /// Whether the two boxes share any area.
    pub fn intersects(&self, other: &Rect) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    /// Whether `p` lies inside or on the edge of this box.
    pub fn contains(&self, p: Point) -> bool {
        (self.left..=self.right).contains(&p.x) && (self.top..=self.bottom).contains(&p.y)
    }

    /// Whether the segment from `a` to `b` passes through the inside of this box (Liang-Barsky).
    pub fn crossed_by(&self, a: Point, b: Point) -> bool {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in
            [(-dx, a.x - self.left), (dx, self.right - a.x), (-dy, a.y - self.top), (dy, self.bottom - a.y)]
        {
            if p == 0.0 {
                if q <= 0.0 {
                    return false;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
        t1 - t0 > 1e-9
    }
}

/// The route a link takes, from one node's edge to the other's.
pub type Route = Vec<Point>;

/// The point at fraction `t` (0 to 1) of a route's length.
pub fn point_along(route: &[Point], t: f64) -> Point {
    if t >= 1.0 {
        return route.last().copied().unwrap_or(Point { x: 0.0, y: 0.0 });
    }
    let lengths: Vec<f64> = route.windows(2).map(|w| (w[1].x - w[0].x).hypot(w[1].y - w[0].y)).collect();
    let mut left = lengths.iter().sum::<f64>() * t.clamp(0.0, 1.0);
    for (w, length) in route.windows(2).zip(&lengths) {
        if left <= *length && *length > 0.0 {
            let f = left / length;
            return Point { x: w[0].x + (w[1].x - w[0].x) * f, y: w[0].y + (w[1].y - w[0].y) * f };
        }
        left -= length;
    }
    route.last().copied().unwrap_or(Point { x: 0.0, y: 0.0 })
}

/// Where every node of one cluster is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub height: f64,
    /// Log cells each controller's strip shows.
    pub strip_cells: usize,
    /// The sizes drawn at; a compact row of many brokers narrows their boxes.
    pub geometry: Geometry,
    controllers: Vec<(NodeId, Point)>,
    brokers: Vec<(NodeId, Point)>,
    /// Y of the first broker lane.
    corridor: f64,
}

impl Layout {
    /// Place `controllers` (voters) and `brokers`, each in the given order, at `geometry`.
    pub fn with(controllers: &[NodeId], brokers: &[NodeId], geometry: Geometry) -> Layout {
        let (geometry, (strip_cells, label_half_w, ring)) =
            fitted(controllers.len(), brokers.len(), geometry);
        let geometry = Geometry { label_half_w, ..geometry };
        let g = &geometry;
        let controllers: Vec<(NodeId, Point)> = controllers.iter().copied().zip(ring).collect();
        let ring_bottom = controllers.iter().map(|(_, c)| c.y + g.below).fold(0.0, f64::max);
        let corridor = ring_bottom + 2.0 * CLEARANCE;
        let lanes = brokers.len().saturating_sub(1) as f64 * g.lane;
        let first_row = corridor + lanes + CLEARANCE + 10.0 + g.broker_half_h;
        let (places, broker_half_w) = broker_places(brokers.len(), first_row, g);
        let geometry = Geometry { broker_half_w, ..geometry };
        let g = &geometry;
        let brokers: Vec<(NodeId, Point)> = brokers.iter().copied().zip(places).collect();
        let bottom = brokers.iter().map(|(_, c)| c.y + g.broker_half_h).fold(ring_bottom, f64::max);
        Layout { height: (bottom + g.margin).ceil(), strip_cells, geometry, controllers, brokers, corridor }
    }

    /// The layout for a frame `width` CSS pixels wide that shows at most `height` (0: not
    /// measured yet; infinite: no limit), at `zoom`: as [`Geometry::for_width`] has it, unless a
    /// regular drawing would be shrunk to fit and a compact one of the same width keeps its type
    /// larger (a ring of four or five on a laptop: compact type is never shrunk as far).
    pub fn for_frame(
        controllers: &[NodeId],
        brokers: &[NodeId],
        width: f64,
        height: f64,
        zoom: f64,
    ) -> Layout {
        let layout = Layout::with(controllers, brokers, Geometry::for_width(width, zoom, controllers.len()));
        if layout.geometry.compact || width <= 0.0 || height <= 0.0 || controllers.len() > COMPACT_RING {
            return layout;
        }
        // A shrink of a few per cent goes unseen: a stage's regular drawing keeps its details.
        let regular = layout.smallest_px(width, height);
        if regular >= 0.97 * SMALLEST_PX * zoom {
            return layout;
        }
        let compact = Layout::with(controllers, brokers, Geometry::compact(width / zoom));
        if compact.smallest_px(width, height) > regular { compact } else { layout }
    }

    /// The drawing's smallest type in CSS pixels (CSS: 11 units in a regular drawing, 12 in a
    /// compact one) once it is scaled to fit its `width` x `height` frame.
    fn smallest_px(&self, width: f64, height: f64) -> f64 {
        let fit = (width / self.geometry.width).min(height / self.height);
        if self.geometry.compact { (SMALLEST_PX + 1.0) * fit } else { SMALLEST_PX * fit }
    }

    /// The centre of node `id`.
    pub fn centre(&self, id: NodeId) -> Option<Point> {
        self.controllers.iter().chain(&self.brokers).find(|(n, _)| *n == id).map(|(_, c)| *c)
    }

    fn is_controller(&self, id: NodeId) -> bool {
        self.controllers.iter().any(|(n, _)| *n == id)
    }

    /// The box of a node's shape: a controller's circle, a broker's rectangle.
    pub fn shape_box(&self, id: NodeId) -> Option<Rect> {
        let c = self.centre(id)?;
        let g = &self.geometry;
        Some(if self.is_controller(id) {
            Rect::around(c, g.radius, g.radius, g.radius)
        } else {
            Rect::around(c, g.broker_half_w, g.broker_half_h, g.broker_half_h)
        })
    }

    /// The box of everything drawn for a node (a controller's crown, vote and log strip too).
    pub fn node_box(&self, id: NodeId) -> Option<Rect> {
        let c = self.centre(id)?;
        let g = &self.geometry;
        Some(if self.is_controller(id) {
            Rect::around(c, controller_half_width(self.strip_cells, g), g.above, g.below)
        } else {
            Rect::around(c, g.broker_half_w, g.broker_half_h, g.broker_half_h)
        })
    }

    /// What a node draws that a message's label must not cover: its shape, and a controller's
    /// vote line over it and log strip with the line under it (a compact drawing writes its role
    /// and epoch lines between the circle and the strip).
    pub fn covered(&self, id: NodeId) -> Vec<Rect> {
        let (Some(c), Some(shape)) = (self.centre(id), self.shape_box(id)) else { return Vec::new() };
        if !self.is_controller(id) {
            return vec![shape];
        }
        let g = &self.geometry;
        let half_w = controller_half_width(self.strip_cells, g);
        vec![
            shape,
            Rect {
                left: c.x - g.label_half_w,
                top: c.y - g.above,
                right: c.x + g.label_half_w,
                bottom: c.y - g.radius,
            },
            Rect {
                left: c.x - half_w.max(g.label_half_w),
                top: c.y + if g.compact { g.radius } else { g.strip_top },
                right: c.x + half_w.max(g.label_half_w),
                bottom: c.y + g.below,
            },
        ]
    }

    /// Every node, controllers first.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.controllers.iter().chain(&self.brokers).map(|(n, _)| *n)
    }

    /// The route of the link from `from` to `to`: a straight chord between controllers; from a
    /// broker, up through the gaps of the rows above into its own lane of the corridor, along it,
    /// and up to its own point under the controller's log strip (where a fetch reads), so that
    /// the strip and its line of offsets stay clear of the links. Between two brokers (which
    /// never talk) a straight line.
    pub fn route(&self, from: NodeId, to: NodeId) -> Route {
        let (Some(a), Some(b)) = (self.centre(from), self.centre(to)) else { return Vec::new() };
        match (self.is_controller(from), self.is_controller(to)) {
            (true, true) => chord(a, b, self.geometry.radius),
            (false, true) => self.broker_route(from, a, b),
            (true, false) => {
                let mut route = self.broker_route(to, b, a);
                route.reverse();
                route
            }
            (false, false) => vec![a, b],
        }
    }

    fn broker_route(&self, broker: NodeId, at: Point, controller: Point) -> Route {
        let g = &self.geometry;
        let index = self.brokers.iter().position(|(n, _)| *n == broker).unwrap_or(0);
        let count = self.brokers.len();
        let spread = if count > 1 { (2.0 * (g.radius - 10.0) / (count - 1) as f64).min(g.lane) } else { 0.0 };
        let offset = (index as f64 - (count - 1) as f64 / 2.0) * spread;
        let lane = self.corridor + index as f64 * g.lane;
        let top = Point { x: at.x, y: at.y - g.broker_half_h };
        let entry = Point { x: controller.x + offset, y: controller.y + g.below };
        vec![top, Point { x: at.x, y: lane }, Point { x: entry.x, y: lane }, entry]
    }
}

fn controller_half_width(strip_cells: usize, g: &Geometry) -> f64 {
    (strip_cells as f64 * g.cell / 2.0 + g.snapshot_w).max(g.label_half_w)
}

/// From the edge of the circle of `radius` at `a` to the edge of the one at `b`.
fn chord(a: Point, b: Point, radius: f64) -> Route {
    let length = (b.x - a.x).hypot(b.y - a.y).max(1.0);
    let (ux, uy) = ((b.x - a.x) / length, (b.y - a.y) / length);
    vec![
        Point { x: a.x + ux * radius, y: a.y + uy * radius },
        Point { x: b.x - ux * radius, y: b.y - uy * radius },
    ]
}

/// The flattest ring of `n` controllers (and, at that height, the widest labels and longest log
/// strips) at which their boxes stay apart, no chord crosses a third controller's circle, strip or
/// labels, and the way down from each circle to the brokers' corridor passes no other controller's strip; the
/// ring is turned as needed. Rings of six or more (four or more in a compact drawing) that cannot
/// keep the way down clear of every strip keep it clear of the circles.
fn ring(n: usize, g: &Geometry) -> Ring {
    clear_ring(n, g, true).or_else(|| clear_ring(n, g, false)).unwrap_or_else(|| {
        let narrowest = g.narrower_labels.last().copied().unwrap_or(g.label_half_w);
        let g = Geometry { label_half_w: narrowest, ..*g };
        let cells = g.strip_choices[g.strip_choices.len() - 1];
        (cells, narrowest, ring_at(n, g.ring_ry.1, 0, controller_half_width(cells, &g), &g))
    })
}

/// A ring's strip cells, label half width and controller centres.
type Ring = (usize, f64, Vec<Point>);

/// The flattest clear ring, if there is one at `g`; `stems_avoid_strips` as in [`ring`].
fn clear_ring(n: usize, g: &Geometry, stems_avoid_strips: bool) -> Option<Ring> {
    let labels = || std::iter::once(g.label_half_w).chain(g.narrower_labels.iter().copied());
    let mut ry = g.ring_ry.0;
    while ry <= g.ring_ry.1 {
        for label_half_w in labels() {
            let g = Geometry { label_half_w, ..*g };
            for &cells in g.strip_choices {
                for turn in 0..TURNS {
                    let places = ring_at(n, ry, turn, controller_half_width(cells, &g), &g);
                    if ring_is_clear(&places, cells, stems_avoid_strips, &g) {
                        return Some((cells, label_half_w, places));
                    }
                }
            }
        }
        ry += 5.0;
    }
    None
}

/// The geometry `n` controllers and `m` brokers are drawn at, and their ring. A compact drawing
/// keeps its width; a regular one narrower than `WIDTH` is widened until its ring is clear of
/// every strip and its brokers keep room between them for the links that rise between them.
fn fitted(n: usize, m: usize, mut g: Geometry) -> (Geometry, Ring) {
    if !g.compact {
        while g.width < WIDTH {
            if let Some(ring) = clear_ring(n, &g, true).filter(|_| brokers_fit(m, &g)) {
                return (g, ring);
            }
            g.width = (g.width + WIDEN_STEP).min(WIDTH);
        }
    }
    (g, ring(n, &g))
}

/// Whether `m` brokers stand apart in a regular drawing at `g`: one row, or a first row with
/// room for a link between two boxes.
fn brokers_fit(m: usize, g: &Geometry) -> bool {
    let (row, _) = g.row();
    if m <= row {
        return true;
    }
    let first = m.div_ceil(2) as f64;
    let pitch = (g.width - 2.0 * (g.broker_half_w + g.margin)) / first;
    pitch >= 2.0 * g.broker_half_w + 12.0
}

fn ring_is_clear(places: &[Point], cells: usize, stems_avoid_strips: bool, g: &Geometry) -> bool {
    let n = places.len();
    let half_w = controller_half_width(cells, g);
    let boxes: Vec<Rect> = places.iter().map(|c| Rect::around(*c, half_w, g.above, g.below)).collect();
    let circles: Vec<Rect> =
        places.iter().map(|c| Rect::around(*c, g.radius, g.radius, g.radius).grow(CLEARANCE)).collect();
    let in_the_way = if stems_avoid_strips { &boxes } else { &circles };
    let fits = boxes.iter().all(|b| b.left >= g.margin && b.right <= g.width - g.margin);
    let apart = (0..n).all(|i| (i + 1..n).all(|j| !boxes[i].grow(CLEARANCE / 2.0).intersects(&boxes[j])));
    let chords_clear = (0..n).all(|i| {
        (i + 1..n).all(|j| {
            let route = chord(places[i], places[j], g.radius);
            (0..n).filter(|k| *k != i && *k != j).all(|k| !boxes[k].crossed_by(route[0], route[1]))
        })
    });
    let bottom = places.iter().map(|c| c.y + g.below).fold(0.0, f64::max) + 2.0 * CLEARANCE;
    let stems_clear = (0..n).all(|i| {
        [-(g.radius - 10.0), g.radius - 10.0].iter().all(|dx| {
            let top = Point { x: places[i].x + dx, y: places[i].y + g.radius / 2.0 };
            let foot = Point { x: top.x, y: bottom };
            (0..n).filter(|k| *k != i).all(|k| !in_the_way[k].crossed_by(top, foot))
        })
    });
    fits && apart && chords_clear && stems_clear
}

/// `n` controllers `half_w` wide evenly spaced on an ellipse of vertical radius `ry`, the first at the top,
/// turned by `turn` / `TURNS` of a step (so that no controller need stand right above another:
/// the way down to the brokers stays free).
fn ring_at(n: usize, ry: f64, turn: usize, half_w: f64, g: &Geometry) -> Vec<Point> {
    let top = g.margin + g.above;
    let middle = g.width / 2.0;
    if n <= 1 {
        return vec![Point { x: middle, y: top }; n];
    }
    let step = std::f64::consts::TAU / n as f64;
    let start = -std::f64::consts::FRAC_PI_2 + step * turn as f64 / TURNS as f64;
    let angles: Vec<f64> = (0..n).map(|k| start + k as f64 * step).collect();
    let rx = g.ring_rx(n, half_w, &angles);
    let highest = angles.iter().map(|a| a.sin()).fold(f64::INFINITY, f64::min);
    angles.iter().map(|a| Point { x: middle + rx * a.cos(), y: top + ry * (a.sin() - highest) }).collect()
}

/// Broker centres and the half width of their boxes: one row while they fit; more wrap into a
/// second row set in the gaps of the first, so that the way up from the second row passes
/// between the brokers of the first. A compact drawing narrows the boxes of a full row.
fn broker_places(m: usize, first_row: f64, g: &Geometry) -> (Vec<Point>, f64) {
    let second_row = first_row + 2.0 * g.broker_half_h + 22.0;
    let middle = g.width / 2.0;
    let (row, widest) = g.row();
    if m <= row {
        let pitch = ((g.width - 2.0 * g.margin) / m.max(1) as f64).min(widest);
        let left = middle - pitch * m as f64 / 2.0;
        let places = (0..m).map(|i| Point { x: left + pitch * (i as f64 + 0.5), y: first_row }).collect();
        return (places, g.broker_half_w);
    }
    let first = m.div_ceil(2);
    let second = m - first;
    // A compact row narrows its boxes until the first row and the gaps of the second fit.
    let half_w = if g.compact {
        let fits = (g.width - 2.0 * g.margin - BROKER_GAP * first as f64) / (2.0 * first as f64 + 2.0);
        g.broker_half_w.min(fits.floor())
    } else {
        g.broker_half_w
    };
    let side = half_w + g.margin;
    let pitch = ((g.width - 2.0 * side) / first as f64).min(widest + 20.0);
    let left = middle - pitch * first as f64 / 2.0;
    // The second row stands in the `first + 1` gaps (counting both outer sides), centred.
    let skip = (first + 1 - second) / 2;
    let places = (0..first)
        .map(|i| Point { x: left + pitch * (i as f64 + 0.5), y: first_row })
        .chain((0..second).map(|i| Point { x: left + pitch * (i + skip) as f64, y: second_row }))
        .collect();
    (places, half_w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(voters: usize, brokers: usize, geometry: Geometry) -> Layout {
        let controllers: Vec<NodeId> = (1..=voters as NodeId).collect();
        let brokers: Vec<NodeId> = (101..101 + brokers as NodeId).collect();
        Layout::with(&controllers, &brokers, geometry)
    }

    /// Every cluster size, regular and compact: a laptop's frame (560 to 1000 units), a phone or
    /// one side of the race in presenter mode (about 360 units), a docs embed (470) and the
    /// narrowest compact drawing.
    fn every_size() -> impl Iterator<Item = (usize, usize, Layout)> {
        let geometries = [
            Geometry::REGULAR,
            Geometry::regular(560.0),
            Geometry::regular(650.0),
            Geometry::regular(780.0),
            Geometry::regular(900.0),
            Geometry::compact(900.0),
            Geometry::compact(330.0),
            Geometry::compact(360.0),
            Geometry::compact(470.0),
            Geometry::compact(550.0),
        ];
        geometries.into_iter().flat_map(|g| {
            let most = if g.compact { COMPACT_RING } else { 7 };
            (1..=most).flat_map(move |v| (0..=12).map(move |b| (v, b, cluster(v, b, g))))
        })
    }

    #[test]
    fn a_drawing_is_compact_when_narrow_and_regular_before_it_is_measured() {
        assert_eq!(Geometry::REGULAR.width, WIDTH);
        assert_eq!(Geometry::for_width(0.0, 1.0, 3), Geometry::REGULAR);
        assert_eq!(Geometry::for_width(900.0, 1.0, 3), Geometry::regular(900.0), "as wide as its frame");
        assert_eq!(Geometry::for_width(1800.0, 1.0, 3), Geometry::REGULAR, "at most 1000 units, scaled up");
        assert_eq!(Geometry::for_width(470.0, 1.0, 3), Geometry::compact(470.0));
        assert_eq!(Geometry::for_width(650.0, STAGE_ZOOM, 5), Geometry::compact(500.0));
        assert_eq!(
            Geometry::for_width(1040.0, STAGE_ZOOM, 5),
            Geometry::regular(800.0),
            "type 1.3 times larger on a stage"
        );
        assert_eq!(Geometry::for_width(470.0, 1.0, 6), Geometry::regular(560.0), "six controllers: regular");
        assert_eq!(Geometry::compact(200.0).width, 330.0, "never narrower than 330 units");
    }

    #[test]
    fn a_drawing_keeps_its_type_at_its_css_size_where_its_frame_lets_it() {
        let ids = |n: NodeId, from: NodeId| (from..from + n).collect::<Vec<NodeId>>();
        // The live cluster at 1280 x 720: a 905 px frame, 480 px high.
        let three = Layout::for_frame(&ids(3, 1), &ids(3, 101), 905.0, 480.0, 1.0);
        assert_eq!(three.geometry, Geometry::regular(905.0), "as many units as pixels");
        assert!(three.height <= 480.0, "and no taller than its frame: {}", three.height);
        // Four voters at 1024 x 768 (a 650 px frame, 528 high): regular would shrink to fit.
        let regular = Layout::with(&ids(4, 1), &ids(3, 101), Geometry::regular(650.0));
        assert!(regular.height > 528.0, "regular is {} high", regular.height);
        let four = Layout::for_frame(&ids(4, 1), &ids(3, 101), 650.0, 528.0, 1.0);
        assert!(four.geometry.compact && four.height <= 528.0, "compact instead: {:?}", four.geometry);
        // Seven have no compact drawing; no limit on the height (the race) keeps it regular.
        assert!(!Layout::for_frame(&ids(7, 1), &ids(3, 101), 650.0, 300.0, 1.0).geometry.compact);
        assert!(!Layout::for_frame(&ids(4, 1), &ids(3, 101), 650.0, f64::INFINITY, 1.0).geometry.compact);
        assert_eq!(Layout::for_frame(&ids(4, 1), &ids(3, 101), 0.0, 0.0, 1.0).geometry, Geometry::REGULAR);
    }

    #[test]
    fn no_two_nodes_overlap_and_all_lie_inside_the_drawing() {
        for (v, b, layout) in every_size() {
            let ids: Vec<NodeId> = layout.nodes().collect();
            assert_eq!(ids.len(), v + b);
            for (i, a) in ids.iter().enumerate() {
                let boxed = layout.node_box(*a).unwrap();
                assert!(
                    boxed.left >= 0.0
                        && boxed.right <= layout.geometry.width
                        && boxed.top >= 0.0
                        && boxed.bottom <= layout.height,
                    "{v} voters, {b} brokers, {} wide: n{a} at {boxed:?} leaves the drawing (height {})",
                    layout.geometry.width,
                    layout.height
                );
                for other in &ids[i + 1..] {
                    assert!(
                        !boxed.intersects(&layout.node_box(*other).unwrap()),
                        "{v} voters, {b} brokers, {} wide: n{a} overlaps n{other}",
                        layout.geometry.width
                    );
                }
            }
        }
    }

    #[test]
    fn no_link_passes_through_a_third_node() {
        for (v, b, layout) in every_size() {
            let ids: Vec<NodeId> = layout.nodes().collect();
            let controllers: Vec<NodeId> = ids.iter().copied().filter(|n| *n < 100).collect();
            for from in &ids {
                for to in controllers.iter().filter(|c| *c != from) {
                    let route = layout.route(*from, *to);
                    assert!(route.len() >= 2);
                    for third in ids.iter().filter(|n| *n != from && *n != to) {
                        // A link also keeps off a third controller's log strip and labels: between
                        // controllers up to six of them, from a broker up to five (three in a
                        // compact drawing).
                        let brokers_strict = if layout.geometry.compact { 3 } else { 5 };
                        let strict = if *from < 100 { v <= 6 } else { v <= brokers_strict };
                        let avoided =
                            if strict { layout.node_box(*third) } else { layout.shape_box(*third) }.unwrap();
                        assert!(
                            !route.windows(2).any(|w| avoided.crossed_by(w[0], w[1])),
                            "{v} voters, {b} brokers, {} wide: the link n{from}-n{to} crosses n{third}",
                            layout.geometry.width
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn links_start_and_end_at_their_own_nodes_and_no_two_share_a_stretch() {
        for (v, b, layout) in every_size() {
            let ids: Vec<NodeId> = layout.nodes().collect();
            let mut segments = Vec::new();
            for from in &ids {
                for to in ids.iter().filter(|t| **t < 100 && *t > from) {
                    let route = layout.route(*from, *to);
                    let (start, end) = (route[0], route[route.len() - 1]);
                    let near = |p: Point, id: NodeId| layout.node_box(id).unwrap().grow(0.5).contains(p);
                    assert!(
                        near(start, *from) && near(end, *to),
                        "{v}x{b}, {} wide: n{from}-n{to} does not join its nodes",
                        layout.geometry.width
                    );
                    segments.extend(route.windows(2).map(|w| (*from, *to, w[0], w[1])));
                }
            }
            for (i, (a1, a2, p, q)) in segments.iter().enumerate() {
                for (b1, b2, r, s) in &segments[i + 1..] {
                    if (a1, a2) == (b1, b2) {
                        continue;
                    }
                    assert!(
                        !overlapping(*p, *q, *r, *s),
                        "{v}x{b}, {} wide: links n{a1}-n{a2} and n{b1}-n{b2} run on top of each other",
                        layout.geometry.width
                    );
                }
            }
        }
    }

    #[test]
    fn a_broker_link_keeps_off_its_controllers_log_strip() {
        for (v, b, layout) in every_size() {
            for broker in (101..101 + b as NodeId).collect::<Vec<_>>() {
                for controller in 1..=v as NodeId {
                    let route = layout.route(broker, controller);
                    let strip = layout.node_box(controller).unwrap();
                    assert!(
                        !route.windows(2).any(|w| strip.crossed_by(w[0], w[1])),
                        "{v}x{b}, {} wide: the link n{broker}-n{controller} crosses n{controller}'s log strip",
                        layout.geometry.width
                    );
                }
            }
        }
    }

    /// Whether two segments are collinear and share a stretch longer than a few units.
    fn overlapping(p: Point, q: Point, r: Point, s: Point) -> bool {
        let cross = |o: Point, a: Point, b: Point| (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
        let length = (q.x - p.x).hypot(q.y - p.y);
        if length < 1e-9 || cross(p, q, r).abs() / length > 0.5 || cross(p, q, s).abs() / length > 0.5 {
            return false;
        }
        let along = |a: Point| ((a.x - p.x) * (q.x - p.x) + (a.y - p.y) * (q.y - p.y)) / length;
        let (lo, hi) = (along(r).min(along(s)), along(r).max(along(s)));
        hi.min(length) - lo.max(0.0) > 3.0
    }

    #[test]
    fn a_message_moves_along_its_route_from_end_to_end() {
        let layout = cluster(3, 4, Geometry::REGULAR);
        let route = layout.route(102, 2);
        assert_eq!(point_along(&route, 0.0), route[0]);
        assert_eq!(point_along(&route, 1.0), route[route.len() - 1]);
        let middle = point_along(&route, 0.5);
        let on_segment = |a: Point, b: Point| {
            Rect { left: a.x.min(b.x), top: a.y.min(b.y), right: a.x.max(b.x), bottom: a.y.max(b.y) }
                .grow(0.01)
                .contains(middle)
        };
        assert!(route.windows(2).any(|w| on_segment(w[0], w[1])), "{middle:?} is not on {route:?}");
    }

    #[test]
    fn a_segment_crosses_a_box_only_through_its_inside() {
        let r = Rect { left: 0.0, top: 0.0, right: 10.0, bottom: 10.0 };
        assert!(r.crossed_by(Point { x: -5.0, y: 5.0 }, Point { x: 15.0, y: 5.0 }));
        assert!(!r.crossed_by(Point { x: -5.0, y: 12.0 }, Point { x: 15.0, y: 12.0 }));
        assert!(
            !r.crossed_by(Point { x: -5.0, y: 0.0 }, Point { x: 15.0, y: 0.0 }),
            "along an edge is outside"
        );
        assert!(!r.crossed_by(Point { x: -5.0, y: 30.0 }, Point { x: 30.0, y: -5.0 }), "past a corner");
        assert!(r.crossed_by(Point { x: -5.0, y: 20.0 }, Point { x: 20.0, y: -5.0 }), "across a corner");
    }
}
