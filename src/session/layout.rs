//! Where the cluster drawing puts things: controllers on a ring, brokers in staggered rows, and
//! the route of every link, chosen so that no two nodes overlap and no link crosses a third
//! node. Pure geometry, tested natively; the SVG view draws what this module places.

use crate::quorum::NodeId;

/// Width of the drawing's coordinate space (its height depends on the cluster).
pub const WIDTH: f64 = 1000.0;
/// Radius of a controller's circle.
pub const RADIUS: f64 = 40.0;
/// Width of one log cell.
pub const CELL: f64 = 14.0;
/// Room left of a controller's log strip for the snapshot box.
pub const SNAPSHOT_W: f64 = 34.0;
/// Above a controller's centre: its timeout arc, crown and vote.
pub const CONTROLLER_ABOVE: f64 = RADIUS + 34.0;
/// Below a controller's centre: its log strip and the line under it.
pub const CONTROLLER_BELOW: f64 = RADIUS + 48.0;
/// Top of a controller's log strip, from its centre.
pub const STRIP_TOP: f64 = RADIUS + 14.0;
/// Half the width and height of a broker's box.
pub const BROKER_HALF_W: f64 = 64.0;
pub const BROKER_HALF_H: f64 = 52.0;
/// Where along a link (from its lower node id) its cut mark stands, and where messages lost to
/// the cut fall: off the middle, so that the marks of two crossing diagonals stay apart.
pub const CUT_AT: f64 = 0.4;
/// Clearance kept between a link and a node that is not one of its ends.
const CLEARANCE: f64 = 6.0;
/// Vertical distance between two brokers' lanes in the corridor between controllers and brokers.
const LANE: f64 = 7.0;
/// Space kept free around the drawing.
const MARGIN: f64 = 12.0;
/// Most brokers in one row.
const ROW: usize = 6;
/// Log cells a controller's strip shows, widest first: rings of many controllers get shorter
/// strips rather than a taller drawing.
const STRIP_CHOICES: [usize; 4] = [14, 12, 10, 8];
/// How finely the ring's turn is tried, in parts of the step between two controllers.
const TURNS: usize = 8;
/// The flattest and tallest vertical radius tried for the controllers' ring.
const RING_RY: (f64, f64) = (40.0, 260.0);

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
    fn around(c: Point, half_w: f64, above: f64, below: f64) -> Rect {
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
    controllers: Vec<(NodeId, Point)>,
    brokers: Vec<(NodeId, Point)>,
    /// Y of the first broker lane.
    corridor: f64,
}

impl Layout {
    /// Place `controllers` (voters) and `brokers`, each in the given order.
    pub fn new(controllers: &[NodeId], brokers: &[NodeId]) -> Layout {
        let (strip_cells, ring) = ring(controllers.len());
        let controllers: Vec<(NodeId, Point)> = controllers.iter().copied().zip(ring).collect();
        let ring_bottom = controllers.iter().map(|(_, c)| c.y + CONTROLLER_BELOW).fold(0.0, f64::max);
        let corridor = ring_bottom + 2.0 * CLEARANCE;
        let lanes = brokers.len().saturating_sub(1) as f64 * LANE;
        let first_row = corridor + lanes + CLEARANCE + 10.0 + BROKER_HALF_H;
        let brokers: Vec<(NodeId, Point)> =
            brokers.iter().copied().zip(broker_places(brokers.len(), first_row)).collect();
        let bottom = brokers.iter().map(|(_, c)| c.y + BROKER_HALF_H).fold(ring_bottom, f64::max);
        Layout { height: (bottom + MARGIN).ceil(), strip_cells, controllers, brokers, corridor }
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
        Some(if self.is_controller(id) {
            Rect::around(c, RADIUS, RADIUS, RADIUS)
        } else {
            Rect::around(c, BROKER_HALF_W, BROKER_HALF_H, BROKER_HALF_H)
        })
    }

    /// The box of everything drawn for a node (a controller's crown, vote and log strip too).
    pub fn node_box(&self, id: NodeId) -> Option<Rect> {
        let c = self.centre(id)?;
        Some(if self.is_controller(id) {
            Rect::around(c, controller_half_width(self.strip_cells), CONTROLLER_ABOVE, CONTROLLER_BELOW)
        } else {
            Rect::around(c, BROKER_HALF_W, BROKER_HALF_H, BROKER_HALF_H)
        })
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
            (true, true) => chord(a, b),
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
        let index = self.brokers.iter().position(|(n, _)| *n == broker).unwrap_or(0);
        let count = self.brokers.len();
        let spread = if count > 1 { (2.0 * (RADIUS - 10.0) / (count - 1) as f64).min(LANE) } else { 0.0 };
        let offset = (index as f64 - (count - 1) as f64 / 2.0) * spread;
        let lane = self.corridor + index as f64 * LANE;
        let top = Point { x: at.x, y: at.y - BROKER_HALF_H };
        let entry = Point { x: controller.x + offset, y: controller.y + CONTROLLER_BELOW };
        vec![top, Point { x: at.x, y: lane }, Point { x: entry.x, y: lane }, entry]
    }
}

fn controller_half_width(strip_cells: usize) -> f64 {
    (strip_cells as f64 * CELL / 2.0 + SNAPSHOT_W).max(RADIUS + 8.0)
}

/// From the edge of the circle at `a` to the edge of the circle at `b`.
fn chord(a: Point, b: Point) -> Route {
    let length = (b.x - a.x).hypot(b.y - a.y).max(1.0);
    let (ux, uy) = ((b.x - a.x) / length, (b.y - a.y) / length);
    vec![
        Point { x: a.x + ux * RADIUS, y: a.y + uy * RADIUS },
        Point { x: b.x - ux * RADIUS, y: b.y - uy * RADIUS },
    ]
}

/// The flattest ring of `n` controllers (and, at that height, the longest log strips) at which
/// their boxes stay apart, no chord crosses a third controller's circle, strip or labels, and the
/// way down from each circle to the brokers' corridor passes no other controller's strip; the
/// ring is turned as needed. Rings of six or more that cannot keep the way down clear of every
/// strip keep it clear of the circles.
fn ring(n: usize) -> (usize, Vec<Point>) {
    for stems_avoid_strips in [true, false] {
        let mut ry = RING_RY.0;
        while ry <= RING_RY.1 {
            for cells in STRIP_CHOICES {
                for turn in 0..TURNS {
                    let places = ring_at(n, ry, turn);
                    if ring_is_clear(&places, cells, stems_avoid_strips) {
                        return (cells, places);
                    }
                }
            }
            ry += 5.0;
        }
    }
    (STRIP_CHOICES[STRIP_CHOICES.len() - 1], ring_at(n, RING_RY.1, 0))
}

fn ring_is_clear(places: &[Point], cells: usize, stems_avoid_strips: bool) -> bool {
    let n = places.len();
    let half_w = controller_half_width(cells);
    let boxes: Vec<Rect> =
        places.iter().map(|c| Rect::around(*c, half_w, CONTROLLER_ABOVE, CONTROLLER_BELOW)).collect();
    let circles: Vec<Rect> =
        places.iter().map(|c| Rect::around(*c, RADIUS, RADIUS, RADIUS).grow(CLEARANCE)).collect();
    let in_the_way = if stems_avoid_strips { &boxes } else { &circles };
    let fits = boxes.iter().all(|b| b.left >= MARGIN && b.right <= WIDTH - MARGIN);
    let apart = (0..n).all(|i| (i + 1..n).all(|j| !boxes[i].grow(CLEARANCE / 2.0).intersects(&boxes[j])));
    let chords_clear = (0..n).all(|i| {
        (i + 1..n).all(|j| {
            let route = chord(places[i], places[j]);
            (0..n).filter(|k| *k != i && *k != j).all(|k| !boxes[k].crossed_by(route[0], route[1]))
        })
    });
    let bottom = places.iter().map(|c| c.y + CONTROLLER_BELOW).fold(0.0, f64::max) + 2.0 * CLEARANCE;
    let stems_clear = (0..n).all(|i| {
        [-(RADIUS - 10.0), RADIUS - 10.0].iter().all(|dx| {
            let top = Point { x: places[i].x + dx, y: places[i].y + RADIUS / 2.0 };
            let foot = Point { x: top.x, y: bottom };
            (0..n).filter(|k| *k != i).all(|k| !in_the_way[k].crossed_by(top, foot))
        })
    });
    fits && apart && chords_clear && stems_clear
}

/// `n` controllers evenly spaced on an ellipse of vertical radius `ry`, the first at the top,
/// turned by `turn` / `TURNS` of a step (so that no controller need stand right above another:
/// the way down to the brokers stays free).
fn ring_at(n: usize, ry: f64, turn: usize) -> Vec<Point> {
    let top = MARGIN + CONTROLLER_ABOVE;
    if n <= 1 {
        return vec![Point { x: WIDTH / 2.0, y: top }; n];
    }
    let rx = if n == 2 { 200.0 } else { 370.0 };
    let step = std::f64::consts::TAU / n as f64;
    let start = -std::f64::consts::FRAC_PI_2 + step * turn as f64 / TURNS as f64;
    let angles: Vec<f64> = (0..n).map(|k| start + k as f64 * step).collect();
    let highest = angles.iter().map(|a| a.sin()).fold(f64::INFINITY, f64::min);
    angles
        .iter()
        .map(|a| Point { x: WIDTH / 2.0 + rx * a.cos(), y: top + ry * (a.sin() - highest) })
        .collect()
}

/// Broker centres: one row of up to six; more wrap into a second row set in the gaps of the
/// first, so that the way up from the second row passes between the brokers of the first.
fn broker_places(m: usize, first_row: f64) -> Vec<Point> {
    let second_row = first_row + 2.0 * BROKER_HALF_H + 22.0;
    if m <= ROW {
        let pitch = ((WIDTH - 2.0 * MARGIN) / m.max(1) as f64).min(180.0);
        let left = WIDTH / 2.0 - pitch * m as f64 / 2.0;
        return (0..m).map(|i| Point { x: left + pitch * (i as f64 + 0.5), y: first_row }).collect();
    }
    let first = m.div_ceil(2);
    let second = m - first;
    let side = BROKER_HALF_W + MARGIN;
    let pitch = ((WIDTH - 2.0 * side) / first as f64).min(200.0);
    let left = WIDTH / 2.0 - pitch * first as f64 / 2.0;
    // The second row stands in the `first + 1` gaps (counting both outer sides), centred.
    let skip = (first + 1 - second) / 2;
    (0..first)
        .map(|i| Point { x: left + pitch * (i as f64 + 0.5), y: first_row })
        .chain((0..second).map(|i| Point { x: left + pitch * (i + skip) as f64, y: second_row }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(voters: usize, brokers: usize) -> Layout {
        let controllers: Vec<NodeId> = (1..=voters as NodeId).collect();
        let brokers: Vec<NodeId> = (101..101 + brokers as NodeId).collect();
        Layout::new(&controllers, &brokers)
    }

    fn every_size() -> impl Iterator<Item = (usize, usize, Layout)> {
        (1..=7).flat_map(|v| (0..=12).map(move |b| (v, b, cluster(v, b))))
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
                        && boxed.right <= WIDTH
                        && boxed.top >= 0.0
                        && boxed.bottom <= layout.height,
                    "{v} voters, {b} brokers: n{a} at {boxed:?} leaves the drawing (height {})",
                    layout.height
                );
                for other in &ids[i + 1..] {
                    assert!(
                        !boxed.intersects(&layout.node_box(*other).unwrap()),
                        "{v} voters, {b} brokers: n{a} overlaps n{other}"
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
                        // controllers up to six of them, from a broker up to five.
                        let strict = if *from < 100 { v <= 6 } else { v <= 5 };
                        let avoided =
                            if strict { layout.node_box(*third) } else { layout.shape_box(*third) }.unwrap();
                        assert!(
                            !route.windows(2).any(|w| avoided.crossed_by(w[0], w[1])),
                            "{v} voters, {b} brokers: the link n{from}-n{to} crosses n{third}"
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
                        "{v}x{b}: n{from}-n{to} does not join its nodes"
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
                        "{v}x{b}: links n{a1}-n{a2} and n{b1}-n{b2} run on top of each other"
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
                        "{v}x{b}: the link n{broker}-n{controller} crosses n{controller}'s log strip"
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
        let layout = cluster(3, 4);
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
