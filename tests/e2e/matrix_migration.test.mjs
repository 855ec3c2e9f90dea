// The readability matrix (#61, tests/e2e/matrix.mjs) over the migration view (#64): the whole
// migration paused in dual-write, and the stranded one at its end (its longest words).
// covers: www/later.css src/web/migration_tab.rs src/page/migration.rs src/drawing/migration.rs src/page/chips.rs
import { matrix } from "./matrix.mjs";

// Measured once the view is recorded and drawn (as chips where the drawing would be too small).
const drawn = async (page) => {
  await page.locator("#mig-standing").waitFor({ timeout: 60_000 });
};

// No cell is over the limits: a cell that goes over fails.
matrix([
  { name: "migration-dual-write", query: "scenario=migration&t=30000", ready: drawn, promised: ["#mig-play", ".mig-figure"] },
  { name: "migration-stranded", query: "scenario=migration-stranded&t=52000", ready: drawn, promised: ["#mig-play", ".mig-figure"] },
]);
