// Open the course's slide decks and site pages in headless Chromium and report what a person
// would see wrong. Driven by tools/check_slides.py, which reads the JSON printed on stdout.
//
//   node check_browser.mjs JOB.json
//
// JOB.json: {"decks": [path, ...], "pages": [path, ...], "width": 1280, "height": 720,
//            "userDataDir": path, "timeoutMs": 30000}
//
// The browser is the Chromium binary shipped inside the npm package @sparticuz/chromium, started
// here as a child of this process (same process group, so the caller can end both at once) with
// its own network traffic turned off; puppeteer-core drives it over the DevTools protocol. Every
// request a page makes that is not for a file:, data: or blob: URL is blocked and reported.

import chromium from "@sparticuz/chromium";
import puppeteer from "puppeteer-core";
import { startChromium } from "./chromium.mjs";
import { checkExplorers } from "./explorers_check.mjs";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const job = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const TIMEOUT = job.timeoutMs ?? 30000;
const LOCAL = /^(file|data|blob|about):/i;



// Runs inside a deck: every slide, horizontal and vertical, with every fragment shown.
function inspectDeck() {
  const problems = [];
  // Every fragment shown, no transitions; no URL updates and few slides kept laid out, for speed.
  Reveal.configure({ transition: "none", backgroundTransition: "none", fragments: false, history: false,
    hash: false, autoAnimate: false, viewDistance: 1 });
  const slidesElement = document.querySelector(".reveal .slides");
  const config = Reveal.getConfig();
  const describe = (el) => {
    const text = (el.innerText || el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 50);
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/)[0] : "";
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const label = (slide) => {
    const heading = slide.querySelector("h1, h2, h3, h4");
    const source = heading || slide;
    return (source.innerText || source.textContent || "").replace(/¶/g, "").replace(/\s+/g, " ").trim().slice(0, 60);
  };
  const RAW_MATH = /\$\$|\\\(|\\\[|\\begin\{|\$[^$\s][^$]*[\\^_{}][^$]*\$/;
  // Alt texts that say nothing: nbconvert's stand-in for a missing one, and pe_utils' for a
  // figure shown without show_figure(description).
  const NO_ALT = /^\s*$|^No description has been provided for this image$|^FIGURE WITHOUT A DESCRIPTION/;
  const RAW_SUBSCRIPT = /(?<![\w$\\])[A-Za-z\u0370-\u03ff]_[A-Za-z0-9\u0370-\u03ff{]/u;
  const slides = [];
  const horizontal = Reveal.getHorizontalSlides();
  for (let h = 0; h < horizontal.length; h++) {
    const stack = horizontal[h].querySelectorAll(":scope > section");
    const count = Math.max(stack.length, 1);
    for (let v = 0; v < count; v++) {
      Reveal.slide(h, v);
      const slide = Reveal.getCurrentSlide();
      const where = { h, v, label: label(slide) };
      const box = slidesElement.getBoundingClientRect();
      const scale = box.width / config.width;
      let clipped = false;
      const add = (kind, detail) => problems.push({ ...where, kind, detail });
      // 1. Nothing beyond the slide's box at the bottom or the right (or top, left).
      let reported = 0;
      for (const el of slide.querySelectorAll("*")) {
        // A formula is measured as a whole: MathJax's own parts (stretchy glyphs) clip on purpose.
        if (el.closest("aside.notes") || el.parentElement.closest("mjx-container")) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const over = {
          bottom: (r.bottom - box.bottom) / scale, right: (r.right - box.right) / scale,
          top: (box.top - r.top) / scale, left: (box.left - r.left) / scale,
        };
        const side = Object.keys(over).find((k) => over[k] > 1.5);
        if (side) {
          clipped = true;
          if (reported++ < 2) add("clipped", `${describe(el)} exceeds the slide at the ${side} by ${Math.round(over[side])} px`);
        }
        // 2. Nothing cut or scrolled inside its own box (code, outputs, math, tables).
        if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 || el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0) {
          const style = getComputedStyle(el);
          const wide = el.scrollWidth > el.clientWidth + 1 && style.overflowX !== "visible";
          const tall = el.scrollHeight > el.clientHeight + 1 && style.overflowY !== "visible";
          if (wide || tall) {
            clipped = true;
            if (reported++ < 4) add("clipped", `${describe(el)} cuts or scrolls its content (${wide ? `${el.scrollWidth} > ${el.clientWidth} px wide` : `${el.scrollHeight} > ${el.clientHeight} px tall`})`);
          }
        }
      }
      // 3. Math typeset: no MathJax error, no TeX left as text.
      for (const error of slide.querySelectorAll("mjx-merror, [data-mjx-error], .MathJax_Error")) {
        add("math", `MathJax error: ${error.getAttribute("data-mjx-error") || error.textContent.trim().slice(0, 60)}`);
      }
      const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest("pre, code, script, style, mjx-container, .jp-OutputArea")) continue;
        if (RAW_MATH.test(node.textContent) || RAW_SUBSCRIPT.test(node.textContent)) {
          add("math", `TeX not typeset: "${node.textContent.trim().slice(0, 60)}"`);
          break;
        }
      }
      // 4. Slide number shown and right.
      const number = document.querySelector(".reveal .slide-number");
      const expected = `${Reveal.getSlidePastCount() + 1}/${Reveal.getTotalSlides()}`;
      const shown = number && getComputedStyle(number).display !== "none" ? number.textContent.replace(/\s+/g, "") : "";
      if (shown !== expected) add("number", `slide number shows "${shown}", expected "${expected}"`);
      // 5. A title or section (# or ##) carries its teacher notes.
      const heading = slide.querySelector(".jp-MarkdownCell h1, .jp-MarkdownCell h2");
      if (heading && !slide.querySelector("aside.notes")) {
        add("notes", `"${label(slide)}" (${heading.tagName.toLowerCase() === "h1" ? "#" : "##"}) has no notes cell`);
      }
      // 6. Every image fits and says what it shows.
      for (const img of slide.querySelectorAll("img")) {
        if (!img.complete || img.naturalWidth === 0) add("image", `image not loaded: ${img.src.slice(0, 60)}`);
        if (NO_ALT.test(img.getAttribute("alt") || "")) add("image", `image without alt text: ${img.src.slice(0, 60)}`);
      }
      slides.push({ ...where, clipped });
    }
  }
  const notes = document.querySelectorAll(".reveal aside.notes").length;
  if (notes === 0) problems.push({ h: 0, v: 0, label: "", kind: "notes", detail: "the deck has no notes" });
  return { slides, problems, notes };
}

// Runs inside a site page: math typeset, images described, teacher notes collapsed.
function inspectPage() {
  const problems = [];
  const add = (kind, detail) => problems.push({ kind, detail });
  for (const error of document.querySelectorAll("mjx-merror, [data-mjx-error], .MathJax_Error")) {
    add("math", `MathJax error: ${error.getAttribute("data-mjx-error") || error.textContent.trim().slice(0, 60)}`);
  }
  const RAW_MATH = /\$\$|\\\(|\\\[|\\begin\{|\$[^$\s][^$]*[\\^_{}][^$]*\$/;
  // Alt texts that say nothing: nbconvert's stand-in for a missing one, and pe_utils' for a
  // figure shown without show_figure(description).
  const NO_ALT = /^\s*$|^No description has been provided for this image$|^FIGURE WITHOUT A DESCRIPTION/;
  const RAW_SUBSCRIPT = /(?<![\w$\\])[A-Za-z\u0370-\u03ff]_[A-Za-z0-9\u0370-\u03ff{]/u;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("pre, code, script, style, mjx-container, .jp-OutputArea")) continue;
    if (RAW_MATH.test(node.textContent) || RAW_SUBSCRIPT.test(node.textContent)) add("math", `TeX not typeset: "${node.textContent.trim().slice(0, 60)}"`);
  }
  for (const img of document.querySelectorAll("img")) {
    if (!img.complete || img.naturalWidth === 0) add("image", `image not loaded: ${img.src.slice(0, 60)}`);
    if (NO_ALT.test(img.getAttribute("alt") || "")) add("image", `image without alt text: ${img.src.slice(0, 60)}`);
  }
  for (const note of document.querySelectorAll("details.teacher-note")) {
    if (note.open) add("notes", "a teacher note is open on the page (it should start collapsed)");
  }
  const width = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  if (width > 1) add("clipped", `the page scrolls sideways by ${width} px`);
  return { problems, notes: document.querySelectorAll("details.teacher-note").length };
}

async function visit(browser, path, kind) {
  const page = await browser.newPage();
  const faults = [];
  const times = { start: Date.now() };
  try {
    await page.setViewport({ width: job.width, height: job.height });
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      if (LOCAL.test(request.url())) return request.continue();
      faults.push({ kind: "network", detail: `request for a non-local URL: ${request.url().slice(0, 100)}` });
      return request.abort();
    });
    page.on("requestfailed", (request) => {
      if (LOCAL.test(request.url())) faults.push({ kind: "network", detail: `failed to load ${request.url().slice(0, 100)}` });
    });
    page.on("console", (message) => {
      if (message.type() === "error") faults.push({ kind: "console", detail: message.text().slice(0, 200) });
    });
    page.on("pageerror", (error) => faults.push({ kind: "console", detail: String(error).slice(0, 200) }));
    await page.goto(pathToFileURL(path).href, { waitUntil: "load", timeout: TIMEOUT });
    await page.waitForFunction(
      () => window.MathJax && MathJax.startup && MathJax.startup.promise && (!window.Reveal || Reveal.isReady()),
      { timeout: TIMEOUT },
    );
    times.loaded = Date.now() - times.start;
    await page.evaluate(() => MathJax.startup.promise);
    await page.evaluate(() => document.fonts.ready);
    times.typeset = Date.now() - times.start;
    const result = await page.evaluate(kind === "deck" ? inspectDeck : inspectPage);
    if (kind === "page") {
      // Each interactive explorer: drawn, and redrawn when each of its sliders moves once.
      const explorers = await checkExplorers(page, TIMEOUT);
      result.explorers = explorers.count;
      for (const detail of explorers.problems) result.problems.push({ kind: "explorer", detail });
    }
    times.inspected = Date.now() - times.start;
    result.times = times;
    result.problems = faults.concat(result.problems);
    if (kind === "deck" && job.screenshotDir) {
      const stem = path.split("/").pop().replace(/\.slides\.html$/, "");
      for (const { h, v } of result.slides) {
        await page.evaluate((h, v) => Reveal.slide(h, v), h, v);
        await page.screenshot({ path: `${job.screenshotDir}/${stem}-${h}-${v}.png` });
      }
    } else if (job.screenshotDir) {
      const stem = path.split("/").pop().replace(/\.html$/, "");
      await page.screenshot({ path: `${job.screenshotDir}/site-${stem}.png` });
    }
    return result;
  } catch (error) {
    return { slides: [], notes: 0, problems: faults.concat([{ kind: "load", detail: String(error).slice(0, 300) }]) };
  } finally {
    await page.close().catch(() => {});
  }
}

const { child, endpoint } = startChromium({
  executable: await chromium.executablePath(), userDataDir: job.userDataDir,
  width: job.width, height: job.height, timeoutMs: TIMEOUT,
});
const killer = setTimeout(() => { child.kill("SIGKILL"); process.exit(3); }, job.totalTimeoutMs ?? 300000);
let browser;
try {
  browser = await puppeteer.connect({ browserWSEndpoint: await endpoint, defaultViewport: null });
  const report = { browser: await browser.version(), decks: {}, pages: {} };
  // A few tabs at once: most of the time goes to MathJax typesetting each page.
  const queue = [...job.decks.map((path) => [path, "deck"]), ...job.pages.map((path) => [path, "page"])];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [path, kind] = next;
      (kind === "deck" ? report.decks : report.pages)[path] = await visit(browser, path, kind);
    }
  };
  await Promise.all(Array.from({ length: job.tabs ?? 3 }, worker));
  process.stdout.write(JSON.stringify(report));
} finally {
  if (browser) await browser.close().catch(() => {});
  child.kill("SIGKILL");
  clearTimeout(killer);
}
