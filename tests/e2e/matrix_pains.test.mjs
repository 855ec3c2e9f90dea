// The readability matrix (#61, tests/e2e/matrix.mjs) over ZooKeeper mode's pains and their tour
// chapter.
// covers: www/style.css src/web/pains_tab.rs src/web/zk_view.rs src/page/pains.rs src/drawing/zk.rs src/drawing/zk_layout.rs
import { matrix } from "./matrix.mjs";

// Measured once the pain has unfolded a little (its events list holds three lines, where the
// view shows the list), so every run measures about the same moment.
const pained = async (page) => {
  await page.locator(".pains-tab").waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll(".pains-tab .pain-events li").length >= 3, null, { timeout: 15_000 })
    .catch(() => {});
};

// No cell is over the limits: a cell that goes over fails.
matrix([
  ...["zk-stale-cache", "zk-liveness", "zk-watch-storm", "zk-security"].map((scenario) =>
    ({ name: scenario, query: `scenario=${scenario}`, ready: pained, promised: ["#pain-play"] })),
  { name: "tour-15-pains", query: "tour=15", ready: pained, promised: ["#tour-next"] },
]);
