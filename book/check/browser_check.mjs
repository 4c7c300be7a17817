#!/usr/bin/env node
// Opens every page of the built book in a real (headless) Chromium and fails on what a
// reader would see as broken.
//
//   node book/check/browser_check.mjs [BUILD_DIR]        (default: book/build)
//
// The pages are served by a small static HTTP server on 127.0.0.1 that this script starts
// and stops itself (the 404 page has <base href="/">, which only works from a server root).
// Any request that would leave that server is blocked and reported: the book must work
// offline. The browser is the system's Chromium (CHROMIUM, default /usr/bin/chromium),
// driven by playwright-core, which never downloads a browser of its own.
//
// A page fails when, after it has loaded (images decoded, fonts ready):
//
// - its text shows raw TeX outside code and typeset math: \( \) \[ \] $$ or a TeX command
//   such as \frac (math that KaTeX did not typeset);
// - it has a KaTeX error element (.katex-error);
// - an <img> did not load (not complete, or naturalWidth 0);
// - it shows an unresolved {{#include ...}} / {{#rustdoc_include ...}} directive, or an
//   ANCHOR: / ANCHOR_END: marker (a misspelt anchor);
// - a code block (<pre>) is empty;
// - it logged a console error or an uncaught exception, a request failed or got an HTTP
//   error status, or it tried to load anything from outside the local server;
// - a link on it points to a page of the book that does not exist, or to a #fragment that
//   no element of the target page (as the browser built it) has as its id or name.
//
// It also checks that each edition's search (Pagefind, offline) works and shows no TeX in
// its excerpts: on index.html it types "softmax" into the search box and expects at least
// one result; and, when the Chinese edition is built (zh-CN/), that its search finds
// 注意力, 多头注意力 and 位置编码 on their chapters.
//
// Every problem is printed on its own line as `page: detail`. Exit status: 0 all good,
// 1 problems found, 2 usage or set-up error (no build, no browser).
// BROWSER_CHECK_VERBOSE=1 also prints how long each page took.

import { createServer } from "node:http";
import { readdir, readFile, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const NAV_TIMEOUT_MS = 45_000; // the print page typesets every formula of the book; CI machines may be loaded
const SEARCH_TERM = "softmax";
const CONCURRENCY = 4;
const VERBOSE = process.env.BROWSER_CHECK_VERBOSE === "1";

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".eot": "application/vnd.ms-fontobject",
  ".txt": "text/plain; charset=utf-8",
};

function usage(message) {
  console.error(`browser_check: ${message}`);
  process.exit(2);
}

async function listPages(root) {
  const pages = [];
  async function walk(dir) {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && e.name.endsWith(".html")) pages.push(path.relative(root, full).split(path.sep).join("/"));
    }
  }
  await walk(root);
  return pages;
}

// A static file server for the build directory, on an ephemeral port of 127.0.0.1.
function startServer(root) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://127.0.0.1");
      let rel = decodeURIComponent(url.pathname);
      if (rel.endsWith("/")) rel += "index.html";
      const file = path.resolve(root, "." + rel);
      if (file !== root && !file.startsWith(root + path.sep)) throw Object.assign(new Error("outside"), { code: "ENOENT" });
      const info = await stat(file);
      if (!info.isFile()) throw Object.assign(new Error("not a file"), { code: "ENOENT" });
      const body = await readFile(file);
      res.writeHead(200, {
        "Content-Type": MIME[path.extname(file).toLowerCase()] || "application/octet-stream",
        "Content-Length": body.length,
        "Cache-Control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("not found\n");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

// Runs inside the page: everything the checks need, from the DOM as the browser built it.
async function inspectPage() {
  const SKIP = new Set(["CODE", "PRE", "SCRIPT", "STYLE", "TEXTAREA", "NOSCRIPT", "KBD", "SAMP", "TEMPLATE"]);
  const RAW_TEX = /\\[()[\]]|\$\$|\\(?:[A-Za-z]{2,}|[,;!])/g;
  const DIRECTIVE = /\{\{#\s*[A-Za-z_]+[^}\n]{0,80}\}{0,2}/g;
  const ANCHOR = /\bANCHOR(?:_END)?:\s*\S*/g;
  const clip = (s) => s.replace(/\s+/g, " ").trim().slice(0, 100);
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
      let p = e.tagName.toLowerCase();
      if (e.id) p += `#${e.id}`;
      parts.unshift(p);
    }
    return parts.join(" > ");
  };
  const isMath = (el) =>
    el.tagName === "MATH" || el.namespaceURI === "http://www.w3.org/1998/Math/MathML" ||
    [...el.classList].some((c) => c.startsWith("katex"));

  // Images: make lazy ones load now, wait until each has loaded or failed.
  const imgs = [...document.images];
  await Promise.all(
    imgs.map((img) => {
      if (img.loading === "lazy") img.loading = "eager";
      if (img.complete) return null;
      return new Promise((resolve) => {
        img.addEventListener("load", resolve, { once: true });
        img.addEventListener("error", resolve, { once: true });
        setTimeout(resolve, 5000);
      });
    }),
  );
  await document.fonts.ready;

  const problems = [];
  const images = imgs.map((img) => ({
    src: img.getAttribute("src"),
    ok: img.complete && img.naturalWidth > 0,
    complete: img.complete,
    naturalWidth: img.naturalWidth,
  }));
  for (const img of images) {
    if (!img.ok) problems.push(`image ${img.src} did not load (complete=${img.complete}, naturalWidth=${img.naturalWidth})`);
  }

  // Raw TeX in the prose: text nodes outside code, scripts and typeset math.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      for (let e = node.parentElement; e; e = e.parentElement) {
        if (SKIP.has(e.tagName) || isMath(e)) return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue;
    for (const m of text.matchAll(RAW_TEX)) {
      const ctx = clip(text.slice(Math.max(0, m.index - 30), m.index + m[0].length + 30));
      problems.push(`raw TeX ${JSON.stringify(m[0])} in the text (${where(n.parentElement)}): ...${ctx}...`);
    }
  }

  // Unresolved directives and anchor markers, anywhere a reader can see text: prose, code,
  // folded <details> answers (everything but scripts and styles).
  const textWalker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      for (let e = node.parentElement; e; e = e.parentElement) {
        if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"].includes(e.tagName)) return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  const chunks = [];
  for (let n = textWalker.nextNode(); n; n = textWalker.nextNode()) chunks.push(n.nodeValue);
  const allText = chunks.join("");
  const seen = new Set();
  for (const re of [DIRECTIVE, ANCHOR]) {
    for (const m of allText.matchAll(re)) {
      const what = clip(m[0]);
      if (seen.has(what)) continue;
      seen.add(what);
      problems.push(
        re === DIRECTIVE ? `unresolved mdBook directive shown: ${what}` : `anchor marker shown: ${what} (a misspelt anchor?)`,
      );
    }
  }

  for (const el of document.querySelectorAll(".katex-error")) {
    problems.push(`KaTeX error: ${clip(el.getAttribute("title") || el.textContent)}`);
  }

  const pres = [...document.querySelectorAll("pre")];
  pres.forEach((pre, i) => {
    if (!pre.textContent.trim()) {
      const prev = pre.previousElementSibling;
      problems.push(`code block ${i + 1} of ${pres.length} is empty${prev ? ` (after: ${clip(prev.textContent).slice(0, 60)})` : ""}`);
    }
  });

  // Ids of this page, and its links, resolved by the browser.
  const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
  for (const a of document.querySelectorAll("a[name]")) ids.push(a.getAttribute("name"));
  const links = [...document.querySelectorAll("a[href]")].map((a) => ({
    href: a.getAttribute("href"),
    url: a.href,
    text: clip(a.textContent).slice(0, 40),
  }));

  return {
    problems,
    ids,
    links,
    stats: {
      math: document.querySelectorAll(".katex").length,
      images: imgs.length,
      code: pres.length,
      links: links.length,
    },
  };
}

// Types `term` into an edition's Pagefind search box (opened from the menu bar by the button
// labelled `label`) and returns the links and excerpts of the results, or null (with a
// problem) when there are none.
async function pagefindSearch(page, url, label, term, problems) {
  await page.goto(url, { waitUntil: "load", timeout: NAV_TIMEOUT_MS });
  await page.click(`button[aria-label='${label}']`, { timeout: 5000 });
  const input = page.locator("#book-search input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  await input.fill(term);
  const links = page.locator("#book-search .pagefind-ui__result-link");
  try {
    await links.first().waitFor({ state: "attached", timeout: 10_000 });
  } catch {
    problems.push(`search for "${term}" gave no result`);
    return null;
  }
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href") || ""));
  const excerpts = await page.locator("#book-search .pagefind-ui__result-excerpt").allTextContents();
  const tex = excerpts.find((text) => /\\[a-zA-Z]+/.test(text));
  if (tex) problems.push(`search for "${term}" shows TeX in a result: ${tex.slice(0, 80)}`);
  return { hrefs, excerpts };
}

// The English edition's search (Pagefind) finds SEARCH_TERM, with no TeX in its excerpts.
async function checkSearch(page, base, problems) {
  try {
    const found = await pagefindSearch(page, base + "index.html", "Search this book", SEARCH_TERM, problems);
    return found ? found.hrefs.length : 0;
  } catch (e) {
    problems.push(`search could not be used: ${String(e.message || e).split("\n")[0]}`);
    return 0;
  }
}

// The Chinese edition's search (Pagefind): each term must find its chapter among the first
// five pages found, and no result's excerpt may show TeX source.
const CHINESE_SEARCHES = [
  ["注意力", "02-attention.html"],
  ["多头注意力", "03-multi-head-attention.html"],
  ["位置编码", "04-positional-encoding.html"],
];

async function checkChineseSearch(page, base, problems) {
  let found = 0;
  for (const [term, expected] of CHINESE_SEARCHES) {
    try {
      const results = await pagefindSearch(page, base + "zh-CN/index.html", "搜索本书", term, problems);
      if (!results) continue;
      // The first five pages found (a page's sections are listed under it).
      const pages = [...new Set(results.hrefs.map((href) => href.split("#")[0]))].slice(0, 5);
      if (!pages.some((href) => href.endsWith(expected))) {
        problems.push(`Chinese search for "${term}" does not find ${expected} among its first pages: ${pages.join(", ")}`);
      }
      found += results.hrefs.length;
    } catch (e) {
      problems.push(`Chinese search could not be used: ${String(e.message || e).split("\n")[0]}`);
    }
  }
  return found;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0] === "-h" || args[0] === "--help") {
    console.log("usage: node browser_check.mjs [BUILD_DIR]   (default: book/build)");
    process.exit(args.length > 1 ? 2 : 0);
  }
  const root = path.resolve(args[0] || path.join(here, "..", "build"));
  if (!existsSync(root) || !(await stat(root)).isDirectory()) usage(`${root} is not a directory (build the book first: mdbook build)`);
  if (!existsSync(CHROMIUM)) usage(`no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)`);
  let chromium;
  try {
    ({ chromium } = await import("playwright-core"));
  } catch {
    usage(`playwright-core is not installed (run npm ci in ${here})`);
  }
  const pages = await listPages(root);
  if (pages.length === 0) usage(`${root}: no HTML pages (is the book built?)`);

  const started = Date.now();
  const server = await startServer(root);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const origin = new URL(base).origin;
  const short = (url) => (url.startsWith(origin + "/") ? url.slice(origin.length + 1) : url);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
  const found = new Map(); // page path -> its problems, printed in page order
  const totals = { pages: 0, math: 0, images: 0, code: 0, links: 0 };
  const idsOf = new Map(); // page path -> Set of ids
  const linksOf = new Map(); // page path -> links
  let searchResults = 0;
  let chineseResults = null;

  // Opens one page in its own tab, with listeners that attribute every console message and
  // request to it, and runs `body` once it has loaded; waits until none of its requests is
  // still in flight (the favicon is fetched after `load`), so that leaving the page never
  // cancels one of them.
  async function withPage(context, label, body) {
    const problems = [];
    found.set(label, problems);
    const page = await context.newPage();
    page.setDefaultTimeout(NAV_TIMEOUT_MS);
    const inflight = new Set();
    // What the page's events report, gathered first and turned into problems at the end,
    // sorted, so that the order in which the browser happens to deliver events does not
    // change the output, and one missing file is one problem rather than three.
    const external = new Set();
    const httpErrors = new Map(); // url -> status
    const failed = new Map(); // url -> error text
    const consoleErrors = []; // [text, url of the source or resource]
    const exceptions = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(origin + "/") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      external.add(url);
      return route.abort("blockedbyclient");
    });
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const loc = msg.location();
      consoleErrors.push([msg.text(), loc && loc.url ? loc.url : "", loc ? loc.lineNumber : 0]);
    });
    page.on("pageerror", (err) => exceptions.push(String(err.message || err).split("\n")[0]));
    page.on("request", (req) => inflight.add(req));
    page.on("requestfinished", (req) => inflight.delete(req));
    page.on("requestfailed", (req) => {
      inflight.delete(req);
      failed.set(req.url(), req.failure()?.errorText ?? "?");
    });
    page.on("response", (res) => {
      if (res.status() >= 400) httpErrors.set(res.url(), res.status());
    });
    page.on("dialog", (d) => d.dismiss().catch(() => {}));
    try {
      await body(page, problems);
      const deadline = Date.now() + 5000;
      while (inflight.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const req of inflight) problems.push(`request still pending after 5 s: ${short(req.url())}`);
    } catch (e) {
      problems.push(`could not be checked: ${String(e.message || e).split("\n")[0]}`);
    } finally {
      await page.close().catch(() => {});
    }
    const events = [];
    for (const url of external) events.push(`tries to load ${url} from outside the book (blocked)`);
    for (const [url, status] of httpErrors) events.push(`HTTP ${status} for ${short(url)}`);
    for (const [url, err] of failed) {
      if (!external.has(url) && !httpErrors.has(url)) events.push(`request failed: ${short(url)} (${err})`);
    }
    for (const [text, url, line] of consoleErrors) {
      // The browser's own "Failed to load resource" line for a request already reported.
      if (/^Failed to load resource/.test(text) && (external.has(url) || httpErrors.has(url) || failed.has(url))) continue;
      events.push(`console error: ${text}${url ? ` (at ${short(url)}:${line})` : ""}`);
    }
    for (const text of exceptions) events.push(`uncaught exception: ${text}`);
    problems.push(...[...new Set(events)].sort());
  }

  async function checkOne(context, rel) {
    const t0 = Date.now();
    await withPage(context, rel, async (page, problems) => {
      const res = await page.goto(base + rel, { waitUntil: "load", timeout: NAV_TIMEOUT_MS });
      if (!res || !res.ok()) {
        problems.push(`could not be opened (HTTP ${res ? res.status() : "none"})`);
        return;
      }
      const result = await page.evaluate(inspectPage);
      problems.push(...result.problems);
      idsOf.set(rel, new Set(result.ids));
      linksOf.set(rel, result.links);
      totals.pages += 1;
      totals.math += result.stats.math;
      totals.images += result.stats.images;
      totals.code += result.stats.code;
      totals.links += result.stats.links;
    });
    if (VERBOSE) console.error(`browser_check: ${rel} checked in ${Date.now() - t0} ms`);
  }

  try {
    const context = await browser.newContext({
      viewport: { width: 1200, height: 900 },
      reducedMotion: "reduce",
      serviceWorkers: "block",
    });
    // A few tabs at a time; each page's findings are kept apart and printed in page order.
    const queue = [...pages];
    const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) await checkOne(context, rel);
    });
    await Promise.all(workers);
    await withPage(context, "index.html (search)", async (page, problems) => {
      searchResults = await checkSearch(page, base, problems);
    });
    if (existsSync(path.join(root, "zh-CN", "pagefind"))) {
      await withPage(context, "zh-CN/index.html (search)", async (page, problems) => {
        chineseResults = await checkChineseSearch(page, base, problems);
      });
    }
    await context.close();
  } finally {
    await browser.close().catch(() => {});
    await new Promise((resolve) => server.close(resolve));
  }

  // Links, once every page's ids are known: the target page must exist, and its fragment
  // must be an id (or <a name>) on it.
  for (const [rel, links] of linksOf) {
    const problems = found.get(rel);
    const reported = new Set();
    for (const link of links) {
      let url;
      try {
        url = new URL(link.url);
      } catch {
        problems.push(`link ${JSON.stringify(link.href)} is not a valid URL`);
        continue;
      }
      if (url.origin !== origin) continue; // external sites are not checked offline
      const target = decodeURIComponent(url.pathname.replace(/^\//, "")) || "index.html";
      const key = `${target}#${url.hash}`;
      if (reported.has(key)) continue;
      const file = path.join(root, target.endsWith("/") ? target + "index.html" : target);
      if (!existsSync(file)) {
        reported.add(key);
        problems.push(`link ${JSON.stringify(link.href)} ("${link.text}"): no such page ${target}`);
        continue;
      }
      if (!url.hash || url.hash === "#") continue;
      const fragment = decodeURIComponent(url.hash.slice(1));
      const ids = idsOf.get(target);
      if (ids && !ids.has(fragment)) {
        reported.add(key);
        problems.push(`link ${JSON.stringify(link.href)} ("${link.text}"): ${target} has no element with id ${JSON.stringify(fragment)}`);
      }
    }
  }

  const problems = [];
  for (const rel of [...pages, "index.html (search)", "zh-CN/index.html (search)"]) {
    for (const p of found.get(rel) || []) problems.push(`${rel}: ${p}`);
  }

  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const summary =
    `${totals.pages} pages, ${totals.math} math, ${totals.images} images, ${totals.code} code blocks, ` +
    `${totals.links} links, ${searchResults} search results for "${SEARCH_TERM}", ` +
    (chineseResults === null ? "" : `${chineseResults} Chinese search results, `) +
    `${secs} s`;
  if (problems.length) {
    for (const p of problems) console.log(p);
    console.error(`browser_check: ${problems.length} problem(s) in ${root} (${summary})`);
    process.exit(1);
  }
  console.log(`browser_check: ok (${summary})`);
}

main().catch((e) => {
  console.error(`browser_check: ${e.stack || e}`);
  process.exit(2);
});
