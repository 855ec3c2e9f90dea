// How the browser tests and the browser benchmark start Debian's Chromium: headless, without
// the background networking that this closed network refuses.
export const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
