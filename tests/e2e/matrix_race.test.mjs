// The readability matrix (#61, tests/e2e/matrix.mjs) over the failover race before, during and
// after, and its two tour steps.
// covers: www/style.css src/web/failover_tab.rs src/web/zk_view.rs src/web/partition_grid.rs src/web/chart.rs src/web/race_question.rs src/page/race src/drawing/zk.rs src/drawing/zk_layout.rs src/drawing/grid.rs
import { matrix } from "./matrix.mjs";

const raced = (page) => page.locator("#zk-stopwatch").waitFor({ timeout: 60_000 });
const over = async (page) => {
  await raced(page);
  await page.locator("#race-headline").waitFor({ timeout: 90_000 });
};
// Built: both clusters drawn (tour step 1 builds its race, then plays it).
const built = async (page) => {
  await raced(page);
  await page.waitForFunction(() => !/^Building/.test(document.querySelector(".race-stage")?.textContent ?? "Building"), null, { timeout: 60_000 });
};
// During: the stopwatches run (a 1,000,000-partition race would still be building its clusters).
const killed = async (page) => {
  await raced(page);
  await page.waitForFunction(() => !/^0\.000/.test(document.querySelector("#zk-stopwatch")?.textContent ?? "0.000"), null, { timeout: 60_000 });
};
const STOPWATCHES = ["#kraft-stopwatch", "#zk-stopwatch"];

matrix([
  { name: "race-before", query: "scenario=failover&autoplay=0", ready: raced, promised: STOPWATCHES },
  { name: "race-during", query: "scenario=failover&partitions=100000&t=4000", ready: killed, promised: STOPWATCHES },
  { name: "race-after", query: "scenario=failover&partitions=100000&t=60000", ready: over, promised: [...STOPWATCHES, "#race-headline"] },
  { name: "tour-1-zk-era", query: "tour=1", ready: built, promised: ["#tour-next"] },
  { name: "tour-11-race", query: "tour=11", ready: (page) => page.locator("#race-guess").waitFor({ timeout: 60_000 }), promised: ["#race-guess", "#tour-next"] },
]);
