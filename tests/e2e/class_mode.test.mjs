// Class mode: ?class=1 shows a tour step's question full screen with a QR code of a link that
// opens the same question on a phone; Space plays the moment and the verdict follows; the phone
// picks an answer and shows the same answer when asked.
// covers: src/web/class_mode.rs src/web/phone_question.rs src/page/qr.rs src/page/question.rs index.html
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "./browser.mjs";

const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true };

test("class mode shows the question and a QR code; Space plays the moment; a phone gets the same answer", async () => {
  const { page, errors, context } = await open("?class=1&tour=4", { viewport: { width: 1024, height: 768 } });
  await page.locator("#class-question").waitFor({ timeout: 60_000 });
  assert.match(await page.locator("#class-question h2").textContent(), /Which epoch will the next leader lead\?/);
  assert.deepEqual(await page.locator(".class-options li").allTextContents(), ["epoch 1", "epoch 2", "epoch 3"]);
  const modules = await page.locator(".class-code svg path").getAttribute("d");
  assert.ok((modules.match(/M/g) ?? []).length > 200, "a QR code's modules are drawn");
  const link = await page.locator(".class-code figcaption a").getAttribute("href");
  assert.match(link, /\?ask=leader-crash&seed=1$/);
  const box = await page.locator("#class-question").boundingBox();
  assert.ok(box.width >= 1000 && box.height >= 700, `full screen: ${JSON.stringify(box)}`);
  const fontSize = await page.locator(".class-options li").first().evaluate((li) => parseFloat(getComputedStyle(li).fontSize));
  assert.ok(fontSize >= 28, `options readable across a room: ${fontSize} px`);
  await screenshot(page, "class-mode-question");

  await page.keyboard.press(" ");
  await page.locator("#class-question").waitFor({ state: "detached" });
  await page.locator("#prediction-verdict").waitFor({ timeout: 60_000 });
  const told = await page.locator("#prediction-verdict").textContent();
  const answer = /^The answer: (epoch \d+)\./.exec(told)?.[1];
  assert.ok(answer, told);
  await screenshot(page, "class-mode-verdict");

  const phone = await context.browser().newContext(PHONE);
  const phonePage = await phone.newPage();
  await phonePage.goto(link);
  await phonePage.locator("#phone-question").waitFor();
  assert.equal(await phonePage.locator("header, nav").count(), 0, "the question alone");
  await phonePage.getByRole("button", { name: "epoch 1" }).click();
  assert.equal(await phonePage.getByRole("button", { name: "epoch 1" }).getAttribute("aria-pressed"), "true");
  assert.equal(await phonePage.locator("#phone-verdict").count(), 0, "no answer until asked");
  await phonePage.getByRole("button", { name: "Show the answer" }).click();
  const phoneSaid = await phonePage.locator("#phone-verdict").textContent();
  assert.ok(phoneSaid.includes(answer), `the phone's answer (${phoneSaid}) is the room's (${answer})`);
  await phonePage.screenshot({ path: `${process.env.KRAFTSCOPE_ARTIFACTS ?? "/tmp"}/class-mode-phone.png` });
  await phone.close();
  assert.deepEqual(errors, []);
  await context.close();
});
