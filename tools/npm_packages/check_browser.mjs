// Open the course's slide decks and site pages in headless Chromium and report what a person
// would see wrong. Driven by tools/browser_check.py, which reads the JSON printed on stdout.
//
//   node check_browser.mjs JOB.json < PAGES
//
// JOB.json: {"width": 1280, "height": 720, "tabs": 3, "userDataDir": path, "executable": path,
//            "tmpDir": path, "timeoutMs": 30000, "totalTimeoutMs": 240000, "screenshotDir": null,
//            "sidebar": [the notebooks' page names every site page's sidebar must link] or null}
// PAGES, one JSON line per page, as tools/browser_check.py builds them: {"path": ..., "kind": "deck"}
// or {"kind": "page"} for a site page, or {"path": search.html, "kind": "search", "query": ..., "expect":
// page name} for the site's search (reported under "path?q=query"). The browser starts at once; each page is opened as soon as
// its line arrives, in one of `tabs` tabs; the report is printed when the input has ended and
// every page is checked: {"browser": ..., "decks": {path: ...}, "pages": {path: ...}}.
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
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const job = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const TIMEOUT = job.timeoutMs ?? 30000;
const LOCAL = /^(file|data|blob|about):/i;

// Runs inside a deck: every slide, horizontal and vertical, with every fragment shown.
//
// Two passes instead of one navigation and one layout per slide. First every slide is laid out at
// once, where reveal.js draws the present one: with transition "none" and top-aligned slides
// (center: false) every slide sits in the same box, so one layout measures them all (checks 1-3,
// 5, 6). Then reveal.js visits every slide, for what it draws around the slides: the slide number
// (check 4). Both passes report what the old one-slide-at-a-time check reported, fault for fault
// (tests/tools/test_browser_checker.py injects each kind). A deck that centers its slides (reveal.js moves each
// one down as it is shown) is refused rather than measured wrongly: the course's are top-aligned.
function inspectDeck(linkedSheets) {
  const problems = [];
  // Every fragment shown, no transitions; no URL updates and few slides kept laid out, for speed.
  Reveal.configure({ transition: "none", backgroundTransition: "none", fragments: false, history: false,
    hash: false, autoAnimate: false, viewDistance: 1 });
  const slidesElement = document.querySelector(".reveal .slides");
  const config = Reveal.getConfig();
  if (config.center || slidesElement.querySelector("section.center")) {
    return { slides: [], notes: 0, problems: [{ h: 0, v: 0, label: "", kind: "layout",
      detail: "the deck centers its slides (reveal.js center); the check measures top-aligned decks" }] };
  }
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
  // Every slide in deck order, as (h, v) and its element (Reveal.getSlide: what Reveal.slide(h, v) shows).
  const order = [];
  const horizontal = Reveal.getHorizontalSlides();
  for (let h = 0; h < horizontal.length; h++) {
    const count = Math.max(horizontal[h].querySelectorAll(":scope > section").length, 1);
    for (let v = 0; v < count; v++) order.push({ h, v, slide: Reveal.getSlide(h, v) });
  }
  // Pass 1: every slide laid out at once, in the box the present slide has.
  const showAll = document.createElement("style");
  showAll.textContent = ".reveal .slides > section, .reveal .slides > section > section { display: block !important; }";
  document.head.append(showAll);
  Reveal.layout();
  const box = slidesElement.getBoundingClientRect();
  const scale = box.width / config.width;
  // The slide number is drawn over the slide's bottom left corner: what lies under it is hidden.
  const numberShown = document.querySelector(".reveal .slide-number");
  const badge = numberShown && getComputedStyle(numberShown).display !== "none"
    ? numberShown.getBoundingClientRect() : null;
  const overlaps = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1.5;
  // An element's own characters (each one's box, spaces left out) or, for an image or a formula,
  // the element itself: the box of a code cell or an indented line may reach under the number,
  // while no character does.
  const underBadge = (el) => {
    if (el.matches("img, canvas, mjx-container")) return true;
    const range = document.createRange();
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      range.selectNodeContents(node);
      if (![...range.getClientRects()].some((rect) => overlaps(rect, badge))) continue;
      for (let i = 0; i < node.length; i++) {
        if (/\s/.test(node.data[i])) continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        if ([...range.getClientRects()].some((rect) => overlaps(rect, badge))) return true;
      }
    }
    return false;
  };
  const slides = [];
  for (const { h, v, slide } of order) {
    const where = { h, v, label: label(slide) };
    let clipped = false;
    let covered = false;  // one report per slide of text under the slide number
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
      // 1b. Nothing readable under the slide number (in the slide, but hidden by the number).
      if (badge && !side && !covered && overlaps(r, badge) && underBadge(el)) {
        clipped = covered = true;
        add("clipped", `${describe(el)} lies under the slide number (bottom left)`);
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
    // 5. A title or section (# or ##) carries its teacher notes.
    const heading = slide.querySelector(".jp-MarkdownCell h1, .jp-MarkdownCell h2");
    if (heading && !slide.querySelector("aside.notes")) {
      add("notes", `"${where.label}" (${heading.tagName.toLowerCase() === "h1" ? "#" : "##"}) has no notes cell`);
    }
    // 6. Every image fits and says what it shows.
    for (const img of slide.querySelectorAll("img")) {
      if (!img.complete || img.naturalWidth === 0) add("image", `image not loaded: ${img.src.slice(0, 60)}`);
      if (NO_ALT.test(img.getAttribute("alt") || "")) add("image", `image without alt text: ${img.src.slice(0, 60)}`);
    }
    slides.push({ ...where, clipped });
  }
  showAll.remove();
  // Pass 2: reveal.js visits every slide, for what is drawn around the slides: the slide number.
  // The slides, their backgrounds and the controls are not drawn meanwhile (measured above). On every step reveal.js searches the
  // whole deck, and most of a deck is the markup MathJax, Pygments and Vega generate inside a
  // formula, a code cell or an explorer: that inner markup is set aside meanwhile (the formula,
  // code and explorer elements themselves stay). It holds no style sheet, and a style can only
  // depend on it through a :has() selector; if any style rule with :has() could apply to the slide
  // number, everything stays in place.
  // 4. Slide number shown and right.
  const number = document.querySelector(".reveal .slide-number");
  const UNKNOWN = { selectorText: ":has(*)" };  // a sheet that cannot be read: assume the worst
  const rulesOf = (sheet) => {
    let list;
    try { list = sheet.cssRules; } catch { return null; }  // a linked sheet: read from its file below
    const walk = (rules) => [...rules].flatMap((rule) => [
      ...(rule.selectorText ? [rule] : []),
      ...(rule.cssRules ? walk(rule.cssRules) : []),  // @media, @supports, @layer, nested rules
      ...(rule.styleSheet ? rulesOf(rule.styleSheet) ?? [UNKNOWN] : []),  // @import
    ]);
    return walk(list);
  };
  const readable = [...document.styleSheets].map(rulesOf).filter(Boolean).flat();
  const linked = linkedSheets.flatMap((text) => { const sheet = new CSSStyleSheet(); sheet.replaceSync(text); return rulesOf(sheet); });
  // A selector with each :has(…) taken as true, or as false: can it select the number?
  const assume = (selector, value) => {
    let out = "";
    for (let i = 0; i < selector.length;) {
      if (!selector.startsWith(":has(", i)) { out += selector[i++]; continue; }
      let depth = 0, j = i + 4;
      do { if (selector[j] === "(") depth++; else if (selector[j] === ")") depth--; j++; } while (depth > 0 && j < selector.length);
      out += value ? ":is(*)" : ":not(*)";
      i = j;
    }
    return out;
  };
  const mayMatch = (rule) => rule.selectorText.includes(":has(") && [true, false].some((value) => {
    try { return number.matches(assume(rule.selectorText, value)); } catch { return true; }
  });
  const generated = [...slidesElement.querySelectorAll("mjx-container, .highlight, .pe-explorer-view")];
  const contentMatters = !number || [...readable, ...linked].some(mayMatch)
    || generated.some((el) => el.querySelector("style, link"));
  const setAside = contentMatters ? [] : generated.map((el) => {
    const inner = document.createDocumentFragment();
    inner.append(...el.childNodes);
    return [el, inner];
  });
  // Nothing but the number is drawn meanwhile: hiding an element changes no selector's match,
  // so the number's text and its own display are what they would be (reveal.js reads the
  // viewport's size on every step, which lays out whatever is shown).
  const hideSlides = document.createElement("style");
  hideSlides.textContent = ".reveal > :not(.slide-number), body > :not(.reveal) { display: none !important; }";
  document.head.append(hideSlides);
  for (const where of slides) {
    Reveal.slide(where.h, where.v);
    const expected = `${Reveal.getSlidePastCount() + 1}/${Reveal.getTotalSlides()}`;
    const shown = number && getComputedStyle(number).display !== "none" ? number.textContent.replace(/\s+/g, "") : "";
    if (shown !== expected) problems.push({ ...where, kind: "number", detail: `slide number shows "${shown}", expected "${expected}"` });
  }
  hideSlides.remove();
  for (const [el, inner] of setAside) el.append(inner);
  Reveal.slide(0, 0);
  // Problems slide by slide, in the order of the checks above, as a person would meet them.
  const slideRank = new Map(slides.map((slide, index) => [`${slide.h}/${slide.v}`, index]));
  const kindRank = { clipped: 0, math: 1, number: 2, notes: 3, image: 4 };
  const rank = (problem) => slideRank.get(`${problem.h}/${problem.v}`) * 10 + kindRank[problem.kind];
  problems.sort((a, b) => rank(a) - rank(b));
  const notes = document.querySelectorAll(".reveal aside.notes").length;
  if (notes === 0) problems.push({ h: 0, v: 0, label: "", kind: "notes", detail: "the deck has no notes" });
  // How pass 2 ran: with the inner markup of formulas, code and explorers "set aside" or "in place".
  const markup = contentMatters ? "in place" : "set aside";
  return { slides: slides.map(({ h, v, label, clipped }) => ({ h, v, label, clipped })), problems, notes, markup };
}

// Runs inside a site page: math typeset, images described, teacher notes collapsed, and (when
// `sidebar` names the notebooks' pages) a sidebar that links every one of them.
function inspectPage(sidebar) {
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
    if (node.parentElement.closest("pre, code, script, style, mjx-container, .jp-OutputArea, .cell_output")) continue;
    if (RAW_MATH.test(node.textContent) || RAW_SUBSCRIPT.test(node.textContent)) add("math", `TeX not typeset: "${node.textContent.trim().slice(0, 60)}"`);
  }
  if (sidebar && sidebar.length) {
    const here = decodeURIComponent(location.pathname.split("/").pop());
    const nav = document.querySelector("nav.bd-docs-nav");
    const linked = new Set(nav ? [...nav.querySelectorAll("a[href]")].map((a) => {
      const href = a.getAttribute("href").split("#")[0];
      return href === "" ? here : decodeURIComponent(href.split("/").pop());
    }) : []);
    const missing = sidebar.filter((name) => !linked.has(name));
    if (!nav) add("sidebar", "the page has no sidebar (nav.bd-docs-nav)");
    else if (missing.length) add("sidebar", `the sidebar does not link ${missing.join(", ").slice(0, 150)}`);
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

// Runs inside a deck or a site page, after the checks above: which fonts its text is set in.
// Reported: a text whose first font family is not one the page declares (@font-face: the course's
// fonts, MathJax's), as another machine could have that family installed and measure it
// differently; and a character that the face of the course's font it is set in lacks
// (``coverage``: family -> "700 italic" -> code point ranges, from tools/course_fonts.py), as the
// browser would draw it from whatever font the machine has. One element is marked
// (data-font-probe) for each new (font, character) pair, for fontsUsed() to ask the browser which
// font drew it; the probes are returned in document order, the order of the marked elements. A
// deck's slides are all laid out meanwhile, a site page's teacher notes opened;
// restoreAfterFonts() puts everything back.
function markFontProbes(kind, coverage) {
  const declared = new Set([...document.fonts].map((face) => face.family.replace(/^["']|["']$/g, "")));
  const faces = new Map();  // "family|700 italic" -> its code points
  for (const [family, byFace] of Object.entries(coverage)) {
    for (const [face, ranges] of Object.entries(byFace)) {
      const points = new Set();
      for (const [first, last] of ranges) for (let point = first; point <= last; point++) points.add(point);
      faces.set(`${family}|${face}`, points);
    }
  }
  const state = { shown: null, opened: [] };
  if (kind === "deck") {
    state.shown = document.createElement("style");
    state.shown.textContent = ".reveal .slides > section, .reveal .slides > section > section { display: block !important; }";
    document.head.append(state.shown);
  } else {
    state.opened = [...document.querySelectorAll("details:not([open])")];
    for (const details of state.opened) details.open = true;
  }
  window.__fontProbeState = state;
  const describe = (el) => {
    const text = (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 50);
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/)[0] : "";
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const where = (el) => {
    const slide = kind === "deck" && el.closest(".reveal .slides section");
    if (!slide) return { what: describe(el) };
    const { h, v } = Reveal.getIndices(slide);
    const heading = slide.querySelector("h1, h2, h3, h4") || slide;
    const label = (heading.innerText || heading.textContent || "").replace(/¶/g, "").replace(/\s+/g, " ").trim().slice(0, 60);
    return { h, v: v || 0, label, what: describe(el) };
  };
  // Not drawn as text a reader sees: scripts, styles, the notes (speaker view), MathJax's copy of a
  // formula for screen readers (clipped to 1 px; it uses the browser's math font). Skipped whole.
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "MJX-ASSISTIVE-MML"]);
  const skipped = (el) => SKIP.has(el.tagName.toUpperCase()) || el.matches("aside.notes");
  // The face CSS picks among 400 and 700, normal and italic (obliques serve as italics).
  const faceOf = (family, style) => `${family}|${Number(style.fontWeight) >= 600 ? 700 : 400} `
    + `${style.fontStyle === "normal" ? "normal" : "italic"}`;
  const NO_GLYPH_NEEDED = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
  const unshipped = new Map();  // family -> { count, first element }
  const lacking = new Map();  // face -> { characters, first element }
  const seen = new Set();  // font + character
  const marked = new Map();  // element -> where it is
  const scope = (kind === "deck" && document.querySelector(".reveal")) || document.body;
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => node.nodeType === Node.ELEMENT_NODE
      ? (skipped(node) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP)
      : NodeFilter.FILTER_ACCEPT,
  });
  let el = null, style = null, family = "", font = "", face = "";  // of the last text's element
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const chars = node.data.replace(/\s+/g, "");
    if (!chars) continue;
    if (node.parentElement !== el) {
      el = node.parentElement;
      style = el.getClientRects().length ? getComputedStyle(el) : null;  // null: not laid out
      if (style) {
        family = style.fontFamily.split(",")[0].trim().replace(/^["']|["']$/g, "");
        font = `${style.fontFamily}|${style.fontWeight}|${style.fontStyle}|${style.fontStretch}|`;
        face = faceOf(family, style);
        if (!declared.has(family)) {
          const entry = unshipped.get(family) || { count: 0, first: where(el) };
          entry.count++;
          unshipped.set(family, entry);
        }
      }
    }
    if (!style) continue;
    let fresh = false;
    for (const ch of chars) {
      if (seen.has(font + ch)) continue;
      seen.add(font + ch);
      fresh = true;
      if (!faces.has(face) || faces.get(face).has(ch.codePointAt(0)) || NO_GLYPH_NEEDED.test(ch)) continue;
      const entry = lacking.get(face) || { characters: [], first: where(el) };
      entry.characters.push(ch);
      lacking.set(face, entry);
    }
    if (fresh && !marked.has(el)) {
      el.setAttribute("data-font-probe", "");
      marked.set(el, where(el));
    }
  }
  const probes = [...document.querySelectorAll("[data-font-probe]")].map((el) => marked.get(el));
  return { probes, unshipped: [...unshipped].map(([family, { count, first }]) => ({ family, count, first })),
    lacking: [...lacking].map(([face, { characters, first }]) => ({ face: face.replace("|", " "), characters, first })) };
}

function restoreAfterFonts() {
  for (const el of document.querySelectorAll("[data-font-probe]")) el.removeAttribute("data-font-probe");
  const state = window.__fontProbeState || { shown: null, opened: [] };
  if (state.shown) state.shown.remove();
  for (const details of state.opened) details.open = false;
  delete window.__fontProbeState;
}

// Which fonts drew a page's text, as the browser reports them (DevTools' CSS.getPlatformFontsForNode,
// for the elements markFontProbes marked, over the tab's DevTools session): a problem for every
// text set in a family the page does not declare, every character its face lacks, and every font
// that is not one of the page's own (a system font: a character the page's fonts lack, or a font
// that did not load). A page without any draws no text with the machine's fonts, so its layout is
// the same on every machine.
async function fontsUsed(tab, kind) {
  const { page, devtools } = tab;
  const { probes, unshipped, lacking } = await page.evaluate(markFontProbes, kind, job.fonts ?? {});
  const problems = unshipped.map(({ family, count, first }) => ({ ...first, kind: "font",
    detail: `${count} text(s) set in "${family}", a font the page does not ship, first ${first.what}` }));
  for (const { face, characters, first } of lacking) {
    const named = characters.slice(0, 8).map((ch) => `${ch} (U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")})`);
    problems.push({ ...first, kind: "font", detail: `${face} has no glyph for ${named.join(", ")}`
      + `${characters.length > 8 ? ` and ${characters.length - 8} more` : ""}, first ${first.what}` });
  }
  try {
    const { root } = await devtools.send("DOM.getDocument", { depth: 0 });
    const { nodeIds } = await devtools.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector: "[data-font-probe]" });
    const found = await Promise.all(nodeIds.map((nodeId) => devtools.send("CSS.getPlatformFontsForNode", { nodeId })));
    const system = new Map();  // font -> { glyphs, first probe }
    found.forEach(({ fonts }, index) => {
      for (const font of fonts.filter((font) => !font.isCustomFont)) {
        const entry = system.get(font.familyName) || { glyphs: 0, first: probes[index] };
        entry.glyphs += font.glyphCount;
        system.set(font.familyName, entry);
      }
    });
    for (const [name, { glyphs, first }] of system) {
      problems.push({ ...first, kind: "font", detail: `${glyphs} glyph(s) drawn with the system font "${name}", `
        + `not one the page ships (a character its fonts lack, or a font not loaded), first ${first.what}` });
    }
  } finally {
    await page.evaluate(restoreAfterFonts);
  }
  return problems;
}

// The text of every style sheet a page links from a file that has a :has() selector: the page
// itself may not read a linked sheet's rules (each file is an origin of its own).
function linkedSheetsWithHas(hrefs) {
  return hrefs.filter((href) => href && href.startsWith("file:"))
    .map((href) => { try { return readFileSync(fileURLToPath(href), "utf-8"); } catch { return ":has(*) {}"; } })
    .filter((text) => text.includes(":has("));
}

// A tab that opens page after page: the renderer process, and with it the compiled MathJax,
// reveal.js and Vega, carries over from one page to the next. What the browser reports (requests,
// console errors) goes to the page being checked; between two pages the tab shows about:blank.
async function openTab(browser) {
  const page = await browser.newPage();
  // DevTools' CSS agent, for fontsUsed(), enabled once on the blank tab: enabled on a page, it
  // reloads the page's resources (and logs "an unsafe attempt to load" a file: URL as an error).
  const devtools = await page.createCDPSession();
  await devtools.send("DOM.enable");
  await devtools.send("CSS.enable");
  const tab = { page, devtools, faults: null };
  const fault = (kind, detail) => { if (tab.faults) tab.faults.push({ kind, detail }); };
  await page.setViewport({ width: job.width, height: job.height });
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    if (LOCAL.test(request.url())) return request.continue();
    fault("network", `request for a non-local URL: ${request.url().slice(0, 100)}`);
    return request.abort();
  });
  page.on("requestfailed", (request) => {
    if (LOCAL.test(request.url())) fault("network", `failed to load ${request.url().slice(0, 100)}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") fault("console", message.text().slice(0, 200));
  });
  page.on("pageerror", (error) => fault("console", String(error).slice(0, 200)));
  return tab;
}

// A site's search page, opened from disk with ?q=QUERY: Sphinx's index must find the page EXPECT.
async function search(tab, path, query, expect) {
  const { page } = tab;
  const faults = [];
  tab.faults = faults;
  try {
    await page.goto(`${pathToFileURL(path).href}?q=${encodeURIComponent(query)}`, { waitUntil: "load", timeout: TIMEOUT });
    await page.waitForFunction(() => /Search finished|did not match/.test(
      (document.querySelector("#search-results .search-summary") || {}).innerText || ""), { timeout: TIMEOUT });
    const found = await page.evaluate(() => [...document.querySelectorAll("#search-results ul.search li a")]
      .map((a) => decodeURIComponent(a.getAttribute("href").split(/[?#]/)[0].split("/").pop())));
    const problems = faults.slice();
    if (!found.includes(expect)) {
      problems.push({ kind: "search", detail: `searching "${query}" does not find ${expect} (found: ${found.join(", ").slice(0, 150) || "nothing"})` });
    }
    await page.goto("about:blank", { timeout: TIMEOUT });
    return { problems, found, notes: 0 };
  } catch (error) {
    tab.broken = true;
    return { problems: faults.concat([{ kind: "load", detail: String(error).slice(0, 300) }]), found: [], notes: 0 };
  } finally {
    tab.faults = null;
  }
}

async function visit(tab, path, kind) {
  const { page } = tab;
  const faults = [];
  const times = { start: Date.now() };
  const busy = (await page.metrics()).TaskDuration;
  tab.faults = faults;
  try {
    await page.goto(pathToFileURL(path).href, { waitUntil: "load", timeout: TIMEOUT });
    times.loaded = Date.now() - times.start;
    // Wait on the page's own events: reveal.js ready (a deck), MathJax done typesetting, fonts loaded,
    // explorers drawn.
    await page.evaluate(async (timeoutMs) => {
      const ready = (async () => {
        if (window.Reveal && !Reveal.isReady()) await new Promise((done) => Reveal.on("ready", done));
        if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) throw new Error("MathJax did not start");
        await MathJax.startup.promise;
        await document.fonts.ready;
        // Every face the page declares, loaded before anything is measured: a face is otherwise
        // fetched when text first needs it (a slide shown later), and measured as a fallback till then.
        await Promise.all([...document.fonts].map((face) => face.load().catch(() => {})));
        // The explorers drawn (each waits on the font it is drawn in): measured as shown.
        await Promise.allSettled(window.peExplorers || []);
      })();
      let timer;
      const late = new Promise((_, fail) => {
        timer = setTimeout(() => fail(new Error(`not typeset within ${timeoutMs} ms`)), timeoutMs);
      });
      try { await Promise.race([ready, late]); } finally { clearTimeout(timer); }
    }, TIMEOUT);
    times.typeset = Date.now() - times.start;
    let result;
    if (kind === "deck") {
      const sheets = await page.evaluate(() => [...document.styleSheets].map((sheet) => sheet.href));
      result = await page.evaluate(inspectDeck, linkedSheetsWithHas(sheets));
    } else {
      result = await page.evaluate(inspectPage, job.sidebar ?? null);
      // Each interactive explorer: drawn, and redrawn when each of its sliders moves once.
      const explorers = await checkExplorers(page, TIMEOUT);
      result.explorers = explorers.count;
      for (const detail of explorers.problems) result.problems.push({ kind: "explorer", detail });
    }
    times.inspected = Date.now() - times.start;
    // How long the page kept its main thread busy (ms): loading, typesetting, layout, the checks.
    times.mainThread = Math.round(((await page.metrics()).TaskDuration - busy) * 1000);
    result.times = times;
    result.problems = faults.concat(result.problems, await fontsUsed(tab, kind));
    tab.faults = null;
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
    await page.goto("about:blank", { timeout: TIMEOUT });
    return result;
  } catch (error) {
    tab.broken = true;  // a tab that failed may be in any state: the next page gets a new one
    return { slides: [], notes: 0, problems: faults.concat([{ kind: "load", detail: String(error).slice(0, 300) }]) };
  } finally {
    tab.faults = null;
  }
}

// The pages to check, as they arrive on standard input; take() resolves to the next one, or to
// undefined once the input has ended and nothing is left.
const queue = [];
const waiting = [];
let ended = false;
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const item = JSON.parse(line);
  const worker = waiting.shift();
  if (worker) worker(item);
  else queue.push(item);
});
lines.on("close", () => {
  ended = true;
  for (const worker of waiting.splice(0)) worker(undefined);
});
const take = () => (queue.length || ended ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)));

const { child, endpoint } = startChromium({
  executable: job.executable ?? await chromium.executablePath(), userDataDir: job.userDataDir,
  tmpDir: job.tmpDir, width: job.width, height: job.height, timeoutMs: TIMEOUT,
});
const killer = setTimeout(() => { child.kill("SIGKILL"); process.exit(3); }, job.totalTimeoutMs ?? 300000);
let browser;
try {
  browser = await puppeteer.connect({ browserWSEndpoint: await endpoint, defaultViewport: null });
  const report = { browser: await browser.version(), decks: {}, pages: {} };
  // A few tabs at once: a page's time goes to parsing, MathJax typesetting and layout, each on
  // its own renderer process, so tabs use every core.
  const worker = async () => {
    let tab = null;
    for (let next = await take(); next; next = await take()) {
      if (!tab || tab.broken) {
        if (tab) await tab.page.close().catch(() => {});
        tab = await openTab(browser);
      }
      if (next.kind === "search") {
        report.pages[`${next.path}?q=${next.query}`] = await search(tab, next.path, next.query, next.expect);
      } else {
        (next.kind === "deck" ? report.decks : report.pages)[next.path] = await visit(tab, next.path, next.kind);
      }
    }
    if (tab) await tab.page.close().catch(() => {});
  };
  await Promise.all(Array.from({ length: job.tabs ?? 3 }, worker));
  process.stdout.write(JSON.stringify(report));
} finally {
  if (browser) await browser.close().catch(() => {});
  child.kill("SIGKILL");
  clearTimeout(killer);
}
