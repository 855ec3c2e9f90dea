//! The chart of unavailability against partition count for both modes, drawn from the core's
//! failover experiment (the `failover.csv` that `cargo xtask dist` writes next to the page), with
//! the same figures as a table behind it.

use yew::prelude::*;

use super::frame_size::use_frame_size;
use crate::page::race::Point;

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub points: Vec<Point>,
    /// The partition count the race is set to, marked on the chart.
    pub marker: u64,
    /// How many times the window was resized: when it changes, the chart measures its frame again.
    pub resizes: u32,
}

/// The chart's width in units where its frame is at least as wide; a narrower frame (a phone)
/// gets as many units as it has pixels, down to `NARROWEST`, so the type keeps its CSS size.
const W: f64 = 640.0;
const NARROWEST: f64 = 280.0;
/// Under this many units per decade of partitions the axis names its ticks short (1k, 1M).
const SHORT_TICKS_BELOW: f64 = 70.0;
const H: f64 = 308.0;
const LEFT: f64 = 60.0;
const BOTTOM: f64 = 46.0;
const TOP: f64 = 16.0;
const RIGHT: f64 = 20.0;

/// The chart in its panel, with where its figures come from.
pub fn measured_panel(points: &[Point], marker: u64, resizes: u32) -> Html {
    html! {
        <section class="panel" aria-label="Measured unavailability">
            <h2>{ "Unavailability against partitions" }</h2>
            <Chart points={points.to_vec()} {marker} {resizes} />
            <p class="hint">{ "Measured by the same core (kraftscope failover --csv), on the race's cluster: topics of up to 1,000 partitions, 5 brokers. ZooKeeper mode follows Kafka 2.4. Its read latency is fitted to Kafka PR #3765's ~59 s at 100,000 single-partition topics (2017, synchronous reads); its cold load and push to an estimate of ~37 s and ~40 s at 1,000,000 partitions (attributed to Tencent Cloud; we found no published measurement). A race's ZooKeeper time adds what those leave out: the session expiry before a new controller, and the ZooKeeper writes that move the killed broker's leaders (the result names each part). Write and network latencies are estimates (README: Sources); it models costs per request and per partition, not a real ZooKeeper." }</p>
        </section>
    }
}

#[function_component(Chart)]
pub fn chart(props: &ChartProps) -> Html {
    let (frame, (width, _)) = use_frame_size(props.resizes);
    let w = if width > 0.0 { width.clamp(NARROWEST, W) } else { W };
    let max_s = props.points.iter().map(|p| p.2.max(p.1)).fold(1.0, f64::max);
    let (min_x, max_x) =
        (1.0, 2_000_000f64.log10().max(props.points.last().map_or(1.0, |p| (p.0 as f64).log10())));
    let decade = (w - LEFT - RIGHT) / (max_x - min_x);
    let x = |partitions: f64| LEFT + (partitions.max(1.0).log10() - min_x) * decade;
    let y = |seconds: f64| H - BOTTOM - seconds / max_s * (H - BOTTOM - TOP);
    let line = |pick: fn(&Point) -> f64| {
        props
            .points
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.0 as f64), y(pick(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let ticks_x =
        [(10u64, "10"), (100, "100"), (1_000, "1k"), (10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")];
    let short = decade < SHORT_TICKS_BELOW;
    let step = if max_s > 100.0 {
        50.0
    } else if max_s > 20.0 {
        10.0
    } else {
        2.0
    };
    let ticks_y: Vec<f64> = (0..).map(|i| i as f64 * step).take_while(|s| *s <= max_s).collect();
    html! {
        <>
        if props.points.is_empty() {
            <p class="hint" ref={frame}>{ "Loading the measured curve (failover.csv)…" }</p>
        } else {
        <svg class="chart" ref={frame} data-fitted={(width > 0.0).to_string()} viewBox={format!("0 0 {w} {H}")} role="img"
             aria-label="Metadata unavailability after a controller failover against partition count: KRaft stays flat, ZooKeeper mode grows with partitions">
            { for ticks_y.iter().map(|s| html! {
                <>
                    <line class="grid" x1={LEFT.to_string()} x2={(w - RIGHT).to_string()} y1={y(*s).to_string()} y2={y(*s).to_string()} />
                    <text class="axis" x={(LEFT - 6.0).to_string()} y={(y(*s) + 4.0).to_string()} text-anchor="end">{ format!("{s:.0} s") }</text>
                </>
            }) }
            { for ticks_x.iter().map(|(p, name)| html! {
                <text class="axis" x={x(*p as f64).to_string()} y={(H - BOTTOM + 21.0).to_string()} text-anchor="middle">
                    { if short { name.to_string() } else { crate::util::format::count(*p) } }
                </text>
            }) }
            <text class="axis" x={((w + LEFT) / 2.0).to_string()} y={(H - 4.0).to_string()} text-anchor="middle">{ "partitions (log scale)" }</text>
            <line class="marker" x1={x(props.marker as f64).to_string()} x2={x(props.marker as f64).to_string()} y1={TOP.to_string()} y2={(H - BOTTOM).to_string()} />
            <polyline class="series zk" points={line(|p| p.2)} />
            <polyline class="series kraft" points={line(|p| p.1)} />
            { for props.points.iter().map(|p| html! {
                <>
                    <rect class="dot zk" x={(x(p.0 as f64) - 4.0).to_string()} y={(y(p.2) - 4.0).to_string()} width="8" height="8">
                        <title>{ format!("ZooKeeper mode, {} partitions: {:.1} s", crate::util::format::count(p.0), p.2) }</title>
                    </rect>
                    <circle class="dot kraft" cx={x(p.0 as f64).to_string()} cy={y(p.1).to_string()} r="4">
                        <title>{ format!("KRaft, {} partitions: {:.1} s", crate::util::format::count(p.0), p.1) }</title>
                    </circle>
                </>
            }) }
            <g class="chart-legend" transform={format!("translate({} {})", LEFT + 12.0, TOP + 8.0)}>
                <rect class="dot zk" x="0" y="0" width="8" height="8" />
                <text x="14" y="8">{ if short { "ZooKeeper mode: all brokers updated" } else { "ZooKeeper mode (async reads): until every broker has the new state" } }</text>
                <circle class="dot kraft" cx="4" cy="22" r="4" />
                <text x="14" y="26">{ if short { "KRaft: a new controller commits" } else { "KRaft: until a new controller commits a change" } }</text>
            </g>
        </svg>
        { table(&props.points) }
        }
        </>
    }
}

/// The chart's figures as a table, for screen readers and anyone who wants the numbers.
fn table(points: &[Point]) -> Html {
    html! {
        <details class="chart-table">
            <summary>{ "The measured figures as a table" }</summary>
            <table>
                <caption>{ "Metadata unavailability after a controller failover, in seconds" }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ "Partitions" }</th>
                        <th scope="col">{ "KRaft, p50" }</th>
                        <th scope="col">{ "KRaft, p99" }</th>
                        <th scope="col">{ "ZooKeeper mode" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for points.iter().map(|p| html! {
                        <tr>
                            <th scope="row">{ crate::util::format::count(p.0) }</th>
                            <td>{ format!("{:.2}", p.1) }</td>
                            <td>{ format!("{:.2}", p.3) }</td>
                            <td>{ format!("{:.1}", p.2) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </details>
    }
}
