// The readability matrix (#61, tests/e2e/matrix.mjs) over the failover race before, during and
// after, and its two tour steps.
// covers: www/style.css src/web/failover_tab.rs src/web/zk_view.rs src/web/partition_grid.rs src/web/chart.rs src/web/race_question.rs src/page/race src/page/zk_drawing.rs src/page/zk_layout.rs src/page/grid_drawing.rs
import { matrix } from "./matrix.mjs";

const raced = (page) => page.locator("#zk-stopwatch").waitFor({ timeout: 60_000 });
const over = async (page) => {
  await raced(page);
  await page.locator("#race-headline").waitFor({ timeout: 90_000 });
};
const STOPWATCHES = ["#kraft-stopwatch", "#zk-stopwatch"];

// Cells over the limits today, each with the item of #61 that fixes it.
const KNOWN = {
  "race-before @ 375x667": "#61 item 6: the chart's axis 5.8 px on a phone; item 5/8: the ZooKeeper stopwatch below the first screen",
  "race-during @ 375x667": "#61 item 6: the chart's axis 5.8 px on a phone; item 5/8: the ZooKeeper stopwatch below the first screen",
  "race-after @ 375x667": "#61 item 6: the chart's axis 5.8 px on a phone; item 5/8: the stopwatches and headline below the first screen",
  "tour-1-zk-era @ 375x667": "#61 item 6: the chart's axis 5.8 px on a phone",
  "tour-10-race @ 375x667": "#61 item 6: the chart's axis 5.8 px on a phone",
  "race-after @ 768x1024": "#61 item 5/8: the ZooKeeper stopwatch below the first screen",
  "race-before @ 480x320-embed": "#61 item 9: embed text 10.5 px, the caption cut",
  "race-during @ 480x320-embed": "#61 item 9: embed text 10.5 px, the caption cut",
  "race-after @ 480x320-embed": "#61 item 9: embed text 10.5 px",
  "tour-1-zk-era @ 480x320-embed": "#61 item 9: embed text 10.5 px",
  "tour-10-race @ 480x320-embed": "#61 item 9: embed text 10.5 px, the caption cut",
  "race-before @ 1024x768-presenter": "#61 item 8: the race's panels under 14 px on a stage",
  "race-during @ 1024x768-presenter": "#61 item 8: the race's panels under 14 px on a stage",
  "race-after @ 1024x768-presenter": "#61 item 8: the race's panels under 14 px on a stage",
  "tour-1-zk-era @ 1024x768-presenter": "#61 item 8: the race's panels under 14 px on a stage",
  "tour-10-race @ 1024x768-presenter": "#61 item 8: the race's panels under 14 px on a stage",
};

matrix([
  { name: "race-before", query: "scenario=failover&autoplay=0", ready: raced, promised: STOPWATCHES },
  { name: "race-during", query: "scenario=failover&t=4000", ready: raced, promised: STOPWATCHES },
  { name: "race-after", query: "scenario=failover&partitions=100000&t=60000", ready: over, promised: [...STOPWATCHES, "#race-headline"] },
  { name: "tour-1-zk-era", query: "tour=1", ready: raced, promised: ["#tour-next"] },
  { name: "tour-10-race", query: "tour=10", ready: (page) => page.locator("#race-guess").waitFor({ timeout: 60_000 }), promised: ["#race-guess", "#tour-next"] },
], KNOWN);
