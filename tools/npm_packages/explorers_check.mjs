// The interactive explorers (tools/explorers_web.py) in a real browser: drawn, and redrawn when a
// slider moves, without console errors.
//
// As a module: `import { checkExplorers } from "./explorers_check.mjs"`, then
// `await checkExplorers(page)` on a puppeteer page that has loaded a site page or a deck; it
// returns {count, moved, problems: [...]} and changes nothing but the sliders it moves.
//
// From the command line (a check of its own, and screenshots for a person to look at):
//   node explorers_check.mjs [--browser PATH] [--screenshots DIR] [--size 1280x720] PAGE.html ...
// --browser: the Chromium binary to run (tools/chromium.py unpacks it once into
// node_modules/.chromium/; without it, @sparticuz/chromium unpacks its own into the temporary folder).
// opens each page in headless Chromium (the binary inside @sparticuz/chromium, network off,
// fresh profile), runs checkExplorers, prints JSON {pages: {path: result}} and exits 1 on any
// problem, console error or non-local request. With --screenshots it saves, per explorer, a PNG
// before and after its first slider moves (on a deck: the whole slide showing the explorer).

import { startChromium } from "./chromium.mjs";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

// Runs in the page, after its load event (so its scripts have run). For every explorer: wait until
// it is drawn, then move each of its sliders once (to the far end of its range from the current
// value) and each radio group to another choice, and check the chart's SVG changed. Leaves the
// last values in place. Waits on Vega's own promises, never on a timer but the overall time limit.
async function inPage(timeoutMs) {
  const problems = [];
  const figures = Array.from(document.querySelectorAll("figure.pe-explorer"));
  if (!figures.length) return { count: 0, moved: 0, problems };  // nothing to wait for
  // The loader (tools/explorers_web.py) starts every explorer when the document is parsed.
  if (!window.peExplorers) return { count: figures.length, moved: 0, problems: ["explorers never started (scripts not loaded?)"] };
  let timer;
  const late = new Promise((done) => { timer = setTimeout(() => done(new Error(`not drawn within ${timeoutMs} ms`)), timeoutMs); });
  const views = await Promise.all(window.peExplorers.map((p) => Promise.race([p.catch((error) => error), late])));
  clearTimeout(timer);
  let moved = 0;
  for (let index = 0; index < figures.length; index++) {
    const figure = figures[index];
    const view = views[index];
    const name = `explorer ${index + 1}`;
    if (!view || view instanceof Error || typeof view.runAsync !== "function") {
      problems.push(`${name}: not drawn (${view})`);
      continue;
    }
    const svg = () => (figure.querySelector(".pe-explorer-view svg") || {}).outerHTML || "";
    const label = figure.getAttribute("aria-label") || "";
    if (!svg()) problems.push(`${name}: no SVG drawn`);
    if (label.trim().split(/\s+/).length < 6) problems.push(`${name}: no description (aria-label)`);
    const sliders = Array.from(figure.querySelectorAll('input[type="range"]'));
    const radios = Array.from(figure.querySelectorAll('input[type="radio"]')).filter((radio) => !radio.checked);
    if (!sliders.length) problems.push(`${name}: no slider`);
    const controls = [
      ...sliders.map((input) => () => {
        const far = Math.abs(+input.value - +input.min) < Math.abs(+input.max - +input.value) ? input.max : input.min;
        input.value = far;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        return `slider ${input.name || "?"} to ${far}`;
      }),
      ...radios.slice(0, 1).map((input) => () => {
        input.checked = true;
        input.dispatchEvent(new Event("change", { bubbles: true }));
        return `radio ${input.value}`;
      }),
    ];
    for (const move of controls) {
      const before = svg();
      const what = move();
      // The slider's own handler runs the view; this run waits for it and for the drawing.
      await view.runAsync();
      if (svg() === before) {  // one frame more, in case the chart is drawn on the next one
        await new Promise((done) => requestAnimationFrame(done));
        await view.runAsync();
      }
      if (svg() === before) problems.push(`${name}: ${what} did not change the chart`);
      else moved += 1;
    }
  }
  return { count: figures.length, moved, problems };
}

export async function checkExplorers(page, timeoutMs = 20000) {
  return page.evaluate(inPage, timeoutMs);
}

// ---- command line ------------------------------------------------------------------------------


async function screenshotExplorers(page, directory, stem, suffix) {
  const isDeck = await page.evaluate(() => typeof Reveal !== "undefined");
  const figures = await page.$$("figure.pe-explorer");
  for (let index = 0; index < figures.length; index++) {
    const file = join(directory, `${stem}.explorer${index + 1}.${suffix}.png`);
    if (isDeck) {
      await page.evaluate((i) => {
        const figure = document.querySelectorAll("figure.pe-explorer")[i];
        const indices = Reveal.getIndices(figure.closest("section"));
        Reveal.slide(indices.h, indices.v);
      }, index);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.screenshot({ path: file });
    } else {
      await figures[index].screenshot({ path: file });
    }
  }
}

async function main(argv) {
  let screenshots = null;
  let executable = null;
  let [width, height] = [1280, 720];
  const pages = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--screenshots") screenshots = resolve(argv[++i]);
    else if (argv[i] === "--browser") executable = resolve(argv[++i]);
    else if (argv[i] === "--size") [width, height] = argv[++i].split("x").map(Number);
    else pages.push(resolve(argv[i]));
  }
  const puppeteer = (await import("puppeteer-core")).default;
  executable ??= await (await import("@sparticuz/chromium")).default.executablePath();
  const scratch = mkdtempSync(join(tmpdir(), "explorers-check-"));
  const { child, endpoint } = startChromium({
    executable, userDataDir: join(scratch, "profile"), tmpDir: scratch, width, height, timeoutMs: 30000,
  });
  const report = { pages: {} };
  let failed = false;
  try {
    const browser = await puppeteer.connect({ browserWSEndpoint: await endpoint, defaultViewport: { width, height } });
    for (const path of pages) {
      const page = await browser.newPage();
      const errors = [];
      page.on("console", (message) => { if (message.type() === "error") errors.push(`console: ${message.text()}`); });
      page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        if (/^(file|data|blob|about):/i.test(request.url())) request.continue();
        else { errors.push(`network request: ${request.url()}`); request.abort(); }
      });
      await page.goto(pathToFileURL(path).href, { waitUntil: "load", timeout: 30000 });
      if (screenshots) {
        mkdirSync(screenshots, { recursive: true });
        await page.evaluate(() => Promise.all(window.peExplorers || []));
        await screenshotExplorers(page, screenshots, basename(path, ".html"), "before");
      }
      const result = await checkExplorers(page);
      if (screenshots) await screenshotExplorers(page, screenshots, basename(path, ".html"), "after");
      result.problems.push(...errors);
      report.pages[path] = result;
      failed ||= result.problems.length > 0;
      await page.close();
    }
    await browser.disconnect();
  } finally {
    child.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(report, null, 1) + "\n");
  return failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
