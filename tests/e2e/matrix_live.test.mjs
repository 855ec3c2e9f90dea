// The readability matrix (#61, tests/e2e/matrix.mjs) over the live cluster, class mode and a
// tour step of each cluster chapter (with its question where it asks one).
// covers: www/style.css src/web/app.rs src/web/tour.rs src/web/cluster_view.rs src/web/node_view.rs src/web/legend.rs src/web/class_mode.rs src/web/prediction.rs src/drawing/cluster.rs src/drawing/layout.rs
import { matrix } from "./matrix.mjs";

const drawn = (page) => page.locator("svg.cluster g.node").first().waitFor({ timeout: 60_000 });
const asking = async (page) => {
  await drawn(page);
  await page.locator("#prediction-question").waitFor({ timeout: 60_000 });
};
const QUESTION = ["#prediction-question", "svg.cluster", "#tour-next"];

matrix([
  { name: "live", query: "t=8000&autoplay=0", ready: drawn, promised: ["svg.cluster"] },
  { name: "class-mode", query: "class=1&tour=4", ready: (page) => page.locator("#prediction-question").waitFor({ timeout: 60_000 }) },
  { name: "tour-4-quorum", query: "tour=4", ready: asking, promised: QUESTION },
  { name: "tour-9-stream", query: "tour=9", ready: asking, promised: QUESTION },
  { name: "tour-12-snapshots", query: "tour=12", ready: drawn, promised: ["svg.cluster", "#tour-next"] },
  { name: "tour-13-lifecycle", query: "tour=13", ready: drawn, promised: ["svg.cluster", "#tour-next"] },
  { name: "tour-19-sizing", query: "tour=19", ready: asking, promised: QUESTION },
]);
