// Render TeX formulas with MathJax 3's TeX input and report the ones that fail.
//
// Reads a JSON array of {"tex": "...", "display": true|false} on stdin and writes a
// JSON array of the same length: null for a formula MathJax renders, or the error
// message MathJax shows in its place (an <merror> node). One process checks every
// formula of the course (tests/tools/test_markdown.py starts it once).
//
// Packages: all of MathJax 3's TeX extensions, as JupyterLab 4 loads them, except
// `noerrors` and `noundefined`: they only change how a broken formula looks (its source
// in colour instead of an error box), which would hide exactly what we look for; and
// `bussproofs` (below).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { mathjax } = require('mathjax-full/js/mathjax.js');
const { TeX } = require('mathjax-full/js/input/tex.js');
const { liteAdaptor } = require('mathjax-full/js/adaptors/liteAdaptor.js');
const { RegisterHTMLHandler } = require('mathjax-full/js/handlers/html.js');
const { AllPackages } = require('mathjax-full/js/input/tex/AllPackages.js');
const { STATE } = require('mathjax-full/js/core/MathItem.js');

// bussproofs needs an output jax to measure boxes; the course draws no proof trees.
const LEFT_OUT = new Set(['noerrors', 'noundefined', 'bussproofs']);
const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);

function makeDocument() {
  // A fresh document per formula: \newcommand or \tag state never leaks between cells.
  const tex = new TeX({ packages: AllPackages.filter((name) => !LEFT_OUT.has(name)) });
  return mathjax.document('', { InputJax: tex });
}

function errorsIn(root) {
  const messages = [];
  root.walkTree((node) => {
    if (node.isKind('merror')) {
      messages.push(node.attributes.get('data-mjx-error') || 'merror');
    }
  });
  return messages;
}

function check(item) {
  try {
    const root = makeDocument().convert(item.tex, { display: Boolean(item.display), end: STATE.CONVERT });
    const messages = errorsIn(root);
    return messages.length ? messages.join('; ') : null;
  } catch (error) {
    return `MathJax failed: ${error && error.message ? error.message : String(error)}`;
  }
}

const items = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(items.map(check)));
