// Start the course's headless Chromium (the binary inside the npm package @sparticuz/chromium)
// with its own network traffic off and a fresh profile; used by check_browser.mjs and
// explorers_check.mjs. Returns {child, endpoint}: the process, and a promise of its DevTools
// WebSocket address (rejected if Chromium exits or does not start within timeoutMs). Chromium's
// own temporary files go to tmpDir (default: the system's), which the caller removes.

import { spawn } from "node:child_process";

export function startChromium({ executable, userDataDir, width, height, timeoutMs, tmpDir }) {
  const args = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--no-default-browser-check", "--disable-quic", "--no-pings",
    "--disable-domain-reliability", "--disable-breakpad", "--disable-crash-reporter",
    "--metrics-recording-only", "--disable-default-apps", "--disable-extensions",
    "--mute-audio", "--hide-scrollbars", "--font-render-hinting=none",
    "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
    `--user-data-dir=${userDataDir}`, "--remote-debugging-port=0",
    `--window-size=${width},${height}`, "about:blank",
  ];
  const env = tmpDir ? { ...process.env, TMPDIR: tmpDir } : process.env;
  const child = spawn(executable, args, { stdio: ["ignore", "ignore", "pipe"], env });
  const endpoint = new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`Chromium did not start within ${timeoutMs} ms:\n${seen}`)), timeoutMs,
    );
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) { clearTimeout(timer); resolve(match[1]); }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`Chromium exited (${code}):\n${seen}`)); });
  });
  return { child, endpoint };
}
