// axe-core, the usual automated accessibility checker, run inside a page: every WCAG 2.0, 2.1
// and 2.2 rule of levels A and AA plus axe's best practices, failing on the first violation.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The rule sets checked: WCAG A and AA of every version, and best practices. */
export const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Every violation axe finds in the page as it is now: { rule, impact, help, targets }. */
export async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ content: source });
  return page.evaluate(async (tags) => {
    const results = await window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => ({ target: n.target.join(" "), why: n.failureSummary })),
    }));
  }, TAGS);
}

/** Fails on the first violation in the page, naming its rule, impact and elements. */
export async function assertNoViolations(page, where) {
  const found = await violations(page);
  if (found.length === 0) return;
  const [first] = found;
  const others = found.slice(1).map((v) => v.rule).join(", ");
  assert.fail(`${where}: axe rule "${first.rule}" (${first.impact}): ${first.help}\n`
    + first.targets.map((t) => `  at ${t.target}\n    ${t.why?.replace(/\n/g, "\n    ")}`).join("\n")
    + (others ? `\n(also violated: ${others})` : ""));
}
