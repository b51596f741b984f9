// Opens an inspection report in headless Chromium and uses it as a person would:
// filter, sort, open a tool (schemas, contract, exports, source), the readiness
// findings, the graph and the fidelity matrix, by mouse and by keyboard. Prints one
// JSON object (timings, counts); exits 1 with the reason on the first failed check.
//
//   node report.mjs '{"file": "/abs/report.html", "shots": "/abs/dir", "name": "github",
//                     "filter": "pulls merge", "expect": "pulls_merge", "tool": "pulls_merge"}'
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const cfg = JSON.parse(process.argv[2]);
const result = { name: cfg.name };
const fail = (why) => { throw new Error(why); };
const check = (ok, why) => { if (!ok) fail(why); };

const profile = mkdtempSync(join(tmpdir(), "toolwright-chromium-"));
mkdirSync(cfg.shots, { recursive: true });
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1440, height: 900 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const errors = [];
const requests = [];
try {
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") errors.push(m.type() + ": " + m.text()); });
  page.on("pageerror", (e) => errors.push("pageerror: " + e.message));
  page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
  const shot = (what) => page.screenshot({ path: join(cfg.shots, `${cfg.name}-${what}.png`) });

  // Open: from navigation to a drawn, usable table.
  const t0 = Date.now();
  await page.goto("file://" + cfg.file);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#window .tr");
  result.open_ms = Date.now() - t0;
  result.rows = await page.evaluate(() => JSON.parse(document.getElementById("tw-data").textContent).rows.length);
  check(result.rows === cfg.tools, `expected ${cfg.tools} rows, the page has ${result.rows}`);
  const drawn = await page.locator("#window .tr").count();
  check(drawn > 0 && drawn < 120, `the table should draw only the visible rows (virtualised), drew ${drawn}`);
  check((await page.textContent("#count")).startsWith(cfg.tools.toLocaleString("en") + " of"), "the count shows every tool");
  await shot("table");

  // Filter: typing to the rows shown, timed in the page (input event to painted rows).
  result.filter_ms = await page.evaluate(async (q) => {
    const input = document.getElementById("filter");
    const t = performance.now();
    input.value = q;
    input.dispatchEvent(new Event("input"));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t;
  }, cfg.filter);
  const names = await page.locator("#window .tr .name").allTextContents();
  check(names.includes(cfg.expect), `filtering "${cfg.filter}" should show ${cfg.expect}; shows ${names.slice(0, 10)}`);
  const filtered = await page.textContent("#count");
  check(!filtered.startsWith(cfg.tools.toLocaleString("en") + " of") || cfg.tools === names.length, "filtering narrows the rows");
  result.filtered = filtered;
  await shot("filtered");
  // Open and filter together, as a person sees them.
  result.open_and_filter_ms = result.open_ms + Math.round(result.filter_ms);

  // Sorting: by name descending, then back.
  await page.fill("#filter", "");
  await page.click('.thead button[data-sort="name"]');
  const desc = await page.locator("#window .tr .name").allTextContents();
  const sorted = [...desc].sort().reverse();
  check(JSON.stringify(desc.slice(0, 5)) === JSON.stringify(sorted.slice(0, 5)) && desc[0] >= desc[desc.length - 1], `sorting by name descending: ${desc.slice(0, 5)}`);
  check(await page.getAttribute('.thead button[data-sort="name"]', "aria-sort") === "descending", "the header says it sorts descending");
  await page.click('.thead button[data-sort="findings"]');
  const byFindings = await page.evaluate(() => Array.from(document.querySelectorAll("#window .tr")).map((r) => r.children[6].textContent));
  result.most_findings = byFindings[0];
  if (cfg.findings) check(byFindings[0] !== "", "sorting by findings puts the most first");
  await page.click('.thead button[data-sort="name"]');

  // A tool's details: schemas, contract, exports, native metadata, source.
  await page.fill("#filter", cfg.tool);
  await page.locator("#window .tr .name", { hasText: new RegExp("^" + cfg.tool + "$") }).first().click();
  await page.waitForFunction((n) => document.body.dataset.opened === n, cfg.tool);
  const detail = page.locator("#detail");
  check((await detail.locator("h2").first().textContent()) === cfg.tool, "the pane shows the tool");
  const props = await detail.locator('[data-part="input-schema"] .prop').count();
  check(props > 0 || cfg.noInput, "the input schema tree lists properties");
  result.input_props = props;
  check(await detail.locator('[data-part="contract"] table.consumes tr').count() > 1 || cfg.noInput, "the contract lists what the tool consumes");
  if (cfg.produces) check(await detail.locator('[data-part="contract"] table.produces tr').count() > 1, "the contract lists what the tool produces");
  await shot("detail-top");
  const hints = await detail.locator('[data-part="annotations"] td').allTextContents();
  check(hints.includes("readOnlyHint") && hints.some((t) => / method| group|declared/.test(t)), "annotations carry their provenance");
  if (cfg.exports) {
    const summaries = await detail.locator('[data-part="provider-exports"] summary').allTextContents();
    check(["mcp", "openai", "anthropic", "gemini"].every((p) => summaries.some((s) => s.startsWith(p))), `exports for each profile: ${summaries}`);
    await detail.locator('[data-part="provider-exports"] summary', { hasText: "openai" }).click();
    const exported = await detail.locator('[data-part="provider-exports"] details[open] pre').textContent();
    check(exported.includes('"tool"') && exported.includes('"parameters"'), "the OpenAI export is shown");
  }
  if (cfg.example) {
    const rows = await detail.locator('[data-part="examples"] td').allTextContents();
    check(rows.some((t) => t.includes(cfg.example)), `the usage examples are shown: ${rows}`);
  }
  const lines = await detail.locator('[data-part="source"] .ln').allTextContents();
  check(lines.length > 0 && Number(lines[0]) >= 1, "the source excerpt has line numbers");
  result.source_first_line = Number(lines[0]);
  const native = await detail.locator('[data-part="native-metadata"] pre').textContent();
  check(native.includes('"api"'), "native metadata is shown");
  // A nested schema node opens on demand.
  const closed = detail.locator('[data-part="output-schema"] details:not([open]) > summary').first();
  if (await closed.count()) { await closed.click(); }
  await shot("detail");

  // Keyboard only: "/" to the filter, arrows in the table, Enter opens.
  await page.fill("#filter", "");
  await page.keyboard.press("Escape");
  await page.focus("#rows");
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const third = await page.evaluate(() => { const d = JSON.parse(document.getElementById("tw-data").textContent); return d.rows.map((r) => r[0]).sort()[2]; });
  await page.waitForFunction((n) => document.body.dataset.opened === n, third);
  await page.locator("body").press("/");
  check(await page.evaluate(() => document.activeElement.id) === "filter", "/ focuses the filter");
  await page.keyboard.type(cfg.expect);
  await page.waitForFunction((n) => Array.from(document.querySelectorAll("#window .tr .name")).some((e) => e.textContent === n), cfg.expect);
  // Tabs by arrow keys.
  await page.focus("#tab-tools");
  await page.keyboard.press("ArrowRight");
  check(await page.evaluate(() => !document.getElementById("panel-readiness").hidden), "ArrowRight moves to the Readiness tab");

  // Readiness: findings by severity, each linked to its tool.
  await shot("readiness");
  const severities = await page.locator("#panel-readiness details.severity").count();
  result.severities = severities;
  if (cfg.findings) {
    check(severities > 0, "findings are grouped by severity");
    const group = page.locator("#panel-readiness details.severity[open] > details").first();
    await group.locator("summary").click();
    const link = group.locator("button.tool").first();
    const target = await link.textContent();
    await link.click();
    await page.waitForFunction((n) => document.body.dataset.opened === n, target);
    check(await page.evaluate(() => !document.getElementById("panel-tools").hidden), "a finding's link opens the tool");
  }

  // Graph: drawn, evidence on hover, a tool found and highlighted.
  await page.click("#tab-graph");
  if (cfg.edges) {
    const edges = await page.locator("#graph-svg path.edge").count();
    const nodes = await page.locator("#graph-svg g.node").count();
    result.graph = { edges, nodes };
    check(edges > 0 && nodes > 1, "the graph has edges and nodes");
    const edge = page.locator("#graph-svg path.edge").first();
    await edge.scrollIntoViewIfNeeded();
    await edge.dispatchEvent("mouseover");
    const info = await page.textContent("#graph-info");
    // The evidence in words: a produced field, a declared link, or the path's own
    // structure (a list or a create feeding the item under it).
    check(/→/.test(info) && /produces|link|lists the items of|creates an item of/i.test(info), `hovering an edge shows its evidence: ${info}`);
    const node = await page.locator("#graph-svg g.node").first().getAttribute("data-tool");
    await page.fill("#graph-find", node);
    await page.press("#graph-find", "Enter");
    check(await page.locator("#graph-svg g.node.hl").count() >= 2, "finding a tool highlights it and its neighbours");
    await shot("graph");
    await page.click("#graph-open");
    await page.waitForFunction((n) => document.body.dataset.opened === n, node);
  } else {
    await shot("graph");
  }

  // Fidelity: a matrix per source.
  await page.click("#tab-fidelity");
  const aspects = await page.locator("#panel-fidelity table.data tr").count();
  check(aspects > 3, "the fidelity matrix has rows");
  result.fidelity_rows = aspects;
  const lost = await page.locator("#panel-fidelity td.lost").count();
  result.fidelity_lost_cells = lost;
  await shot("fidelity");

  check(errors.length === 0, "console errors: " + errors.join(" | "));
  check(requests.length === 0, "the page made requests: " + requests.join(", "));
  console.log(JSON.stringify(result));
} catch (e) {
  console.log(JSON.stringify({ ...result, error: String(e && e.message || e), console: errors, requests }));
  process.exitCode = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
