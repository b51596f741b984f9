// The toolwright inspection report. Every text from the inputs is put in the page as
// text (textContent), never as markup. Tool details are gzip blocks inflated on demand.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("tw-data").textContent);
  const ROW = 28;
  const COL = { name: 0, api: 1, group: 2, method: 3, path: 4, flags: 5, summary: 6, warnings: 7, infos: 8, in: 9, out: 10 };
  const FLAG = { ro: 1, de: 2, id: 4, ow: 8, hidden: 16 };
  const rows = data.rows;
  const apis = data.apis;
  const hay = rows.map((r) => (r[0] + " " + r[4] + " " + r[3] + " " + r[6] + " " + apis[r[1]].name).toLowerCase());
  const state = { view: rows.map((_, i) => i), sort: "name", dir: 1, cursor: 0, open: -1 };

  // ---- small DOM helpers -------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  const $ = (id) => document.getElementById(id);
  const json = (v) => JSON.stringify(v, null, 2);

  // ---- compressed blocks ---------------------------------------------------------
  const blocks = new Map();
  function block(id) {
    if (!blocks.has(id)) {
      blocks.set(id, (async () => {
        const text = $(id).textContent;
        const bin = atob(text);
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        return JSON.parse(await new Response(stream).text());
      })());
    }
    return blocks.get(id);
  }
  const details = (i) => block("tw-chunk-" + Math.floor(i / data.chunk)).then((c) => c[i % data.chunk]);
  const definitions = (api) => block("tw-defs-" + api);

  // ---- header ----------------------------------------------------------------------
  function summary() {
    const s = data.summary;
    const box = $("summary");
    const item = (label, value) => el("span", null, label + " ", el("b", { text: value }));
    box.append(
      item("APIs:", apis.map((a) => a.name + (a.version ? " " + a.version : "")).join(", ")),
      item("Tools:", s.tools.toLocaleString("en")),
      item("Readiness:", s.score === null || s.score === undefined ? "–" : s.score + " (" + s.status + ")"),
      item("Findings:", s.warnings + " warnings, " + s.infos + " infos"),
      item("Edges:", String(s.edges)),
      el("span", { class: "note", text: data.generator }),
    );
  }

  // ---- tabs ------------------------------------------------------------------------
  const tabs = Array.from(document.querySelectorAll("[role=tab]"));
  const rendered = new Set();
  function selectTab(tab, focus) {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    }
    const id = tab.id;
    if (!rendered.has(id)) {
      rendered.add(id);
      if (id === "tab-readiness") readiness();
      if (id === "tab-fidelity") fidelity();
      if (id === "tab-graph") graph();
    }
    if (id === "tab-tools") draw();
    if (focus) tab.focus();
  }
  for (const t of tabs) {
    t.addEventListener("click", () => selectTab(t, false));
    t.addEventListener("keydown", (e) => {
      const i = tabs.indexOf(t);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      selectTab(tabs[(next + tabs.length) % tabs.length], true);
    });
  }

  // ---- the tool table ------------------------------------------------------------
  const body = $("rows");
  const spacer = $("spacer");
  const win = $("window");
  for (const [i, a] of apis.entries()) $("filter-api").append(el("option", { value: String(i), text: a.name }));

  const sortKeys = {
    name: (r) => r[0],
    api: (r) => apis[r[1]].name,
    group: (r) => r[2],
    path: (r) => r[4] + " " + r[3],
    flags: (r) => r[5],
    summary: (r) => r[6],
    findings: (r) => r[7] * 1e6 + r[8],
    edges: (r) => r[9] + r[10],
  };
  function applyView() {
    const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    const api = $("filter-api").value;
    const group = $("filter-group").value;
    const hint = $("filter-hint").value;
    const findings = $("filter-findings").value;
    const view = [];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (api !== "" && r[1] !== Number(api)) continue;
      if (group && r[2] !== group) continue;
      if (hint === "read-only" && !(r[5] & FLAG.ro)) continue;
      if (hint === "write" && r[5] & FLAG.ro) continue;
      if (hint === "destructive" && !(r[5] & FLAG.de)) continue;
      if (hint === "hidden" && !(r[5] & FLAG.hidden)) continue;
      if (findings === "warning" && !r[7]) continue;
      if (findings === "any" && !(r[7] + r[8])) continue;
      if (findings === "none" && r[7] + r[8]) continue;
      let ok = true;
      for (const w of words) if (!hay[i].includes(w)) { ok = false; break; }
      if (ok) view.push(i);
    }
    const key = sortKeys[state.sort];
    const dir = state.dir;
    if (state.sort !== "name" || dir !== 1) {
      view.sort((a, b) => {
        const x = key(rows[a]), y = key(rows[b]);
        return (x < y ? -1 : x > y ? 1 : a - b) * dir;
      });
    }
    state.view = view;
    state.cursor = Math.min(state.cursor, Math.max(0, view.length - 1));
    $("count").textContent = view.length.toLocaleString("en") + " of " + rows.length.toLocaleString("en") + " tools";
    $("tools-table").setAttribute("aria-rowcount", String(view.length + 1));
    spacer.style.height = view.length * ROW + "px";
    drawNow();
  }
  let pending = false;
  function draw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; drawNow(); });
  }
  function drawNow() {
    const first = Math.max(0, Math.floor(body.scrollTop / ROW) - 8);
    const last = Math.min(state.view.length, first + Math.ceil((body.clientHeight || 600) / ROW) + 16);
    win.style.transform = "translateY(" + first * ROW + "px)";
    const frag = document.createDocumentFragment();
    for (let p = first; p < last; p++) frag.append(rowElement(p));
    win.replaceChildren(frag);
  }
  function rowElement(p) {
    const i = state.view[p];
    const r = rows[i];
    const badges = el("span", null);
    if (r[5] & FLAG.ro) badges.append(el("span", { class: "badge ro", title: "readOnlyHint", text: "read-only" }));
    if (r[5] & FLAG.de) badges.append(el("span", { class: "badge de", title: "destructiveHint", text: "destructive" }));
    if (r[5] & FLAG.id && !(r[5] & FLAG.ro)) badges.append(el("span", { class: "badge id", title: "idempotentHint", text: "idem" }));
    const findings = el("span", null);
    if (r[7]) findings.append(el("span", { class: "w", title: r[7] + " warnings", text: r[7] + "w " }));
    if (r[8]) findings.append(el("span", { class: "i", title: r[8] + " infos", text: r[8] + "i" }));
    const classes = ["tr"];
    if (p === state.cursor) classes.push("cursor");
    if (i === state.open) classes.push("open");
    if (r[5] & FLAG.hidden) classes.push("hidden-tool");
    return el("div", { class: classes.join(" "), role: "row", id: "row-" + p, "aria-rowindex": p + 2, "aria-selected": String(i === state.open), "data-p": p, onclick: () => { state.cursor = p; openTool(i); } },
      el("span", { class: "name", role: "gridcell", title: r[0], text: r[0] }),
      el("span", { role: "gridcell", text: apis[r[1]].name }),
      el("span", { role: "gridcell", text: r[2] }),
      el("span", { role: "gridcell", title: r[3] + " " + r[4] }, el("span", { class: "method m-" + r[3], text: r[3] }), r[4]),
      el("span", { role: "gridcell" }, badges),
      el("span", { role: "gridcell", title: r[6], text: r[6] }),
      el("span", { role: "gridcell" }, findings),
      el("span", { role: "gridcell", title: r[9] + " in, " + r[10] + " out", text: r[9] + r[10] ? "←" + r[9] + " →" + r[10] : "" }),
    );
  }
  body.addEventListener("scroll", draw, { passive: true });
  window.addEventListener("resize", draw);
  for (const id of ["filter", "filter-api", "filter-group", "filter-hint", "filter-findings"]) {
    $(id).addEventListener("input", () => { body.scrollTop = 0; state.cursor = 0; applyView(); });
  }
  for (const b of document.querySelectorAll(".thead button")) {
    b.addEventListener("click", () => {
      const key = b.dataset.sort;
      // Counts sort largest first on the first click, text A to Z.
      const first = ["flags", "findings", "edges"].includes(key) ? -1 : 1;
      state.dir = state.sort === key ? -state.dir : first;
      state.sort = key;
      for (const o of document.querySelectorAll(".thead button")) o.setAttribute("aria-sort", o === b ? (state.dir === 1 ? "ascending" : "descending") : "none");
      applyView();
    });
  }
  function moveCursor(p) {
    if (!state.view.length) return;
    state.cursor = Math.max(0, Math.min(state.view.length - 1, p));
    const top = state.cursor * ROW;
    if (top < body.scrollTop) body.scrollTop = top;
    else if (top + ROW > body.scrollTop + body.clientHeight) body.scrollTop = top + ROW - body.clientHeight;
    body.setAttribute("aria-activedescendant", "row-" + state.cursor);
    drawNow();
  }
  body.addEventListener("keydown", (e) => {
    const page = Math.max(1, Math.floor(body.clientHeight / ROW) - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) { e.preventDefault(); moveCursor(state.cursor + moves[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); moveCursor(0); }
    else if (e.key === "End") { e.preventDefault(); moveCursor(state.view.length - 1); }
    else if (e.key === "Enter" && state.view.length) { e.preventDefault(); openTool(state.view[state.cursor]); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "/" && !/INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) { e.preventDefault(); selectTab(tabs[0], false); $("filter").focus(); }
  });

  // ---- details -------------------------------------------------------------------
  const index = new Map(rows.map((r, i) => [r[0], i]));
  let opening = 0;
  async function openTool(i, focus) {
    state.open = i;
    draw();
    const ticket = ++opening;
    const d = await details(i);
    if (ticket !== opening) return;
    const defs = await definitions(d.api);
    if (ticket !== opening) return;
    const pane = $("detail");
    pane.replaceChildren(...toolDetails(d, defs));
    pane.scrollTop = 0;
    history.replaceState(null, "", "#tool=" + encodeURIComponent(d.name));
    if (focus) pane.focus();
    document.body.dataset.opened = d.name;
  }
  function goToTool(name) {
    const i = index.get(name);
    if (i === undefined) return;
    selectTab(tabs[0], false);
    const p = state.view.indexOf(i);
    if (p >= 0) moveCursor(p);
    openTool(i, true);
  }
  function toolLink(name) {
    return el("button", { type: "button", class: "tool", onclick: () => goToTool(name), text: name });
  }
  function section(title, ...content) {
    return el("section", { class: "part", "data-part": title.toLowerCase().replace(/[^a-z]+/g, "-") }, el("h3", { text: title }), ...content);
  }
  function toolDetails(d, defs) {
    const out = [];
    const api = apis[d.api];
    out.push(el("h2", { text: d.name }));
    out.push(el("p", null, el("span", { class: "method m-" + d.method, text: d.method }), " ", el("code", { text: d.path }), " · ", api.name, " · ", d.group, d.exposed ? "" : " · not listed (forbidden)"));
    out.push(el("p", { class: "desc", text: d.description }));
    const hints = el("table", { class: "data" }, el("tr", null, el("th", { text: "Annotation" }), el("th", { text: "Value" }), el("th", { text: "Why (provenance)" })));
    for (const a of d.annotations) hints.append(el("tr", null, el("td", { text: a.hint }), el("td", { text: String(a.value) }), el("td", { text: a.why })));
    out.push(section("Annotations", hints));
    out.push(section("Input schema", schemaTree(d.input, defs.input, "input")));
    if (d.examples && d.examples.length) {
      const t = el("table", { class: "data" }, el("tr", null, el("th", { text: "Request" }), el("th", { text: "Arguments" })));
      for (const x of d.examples) t.append(el("tr", null, el("td", { text: x.request }), el("td", null, el("pre", { text: json(x.arguments) }))));
      out.push(section("Examples", t));
    }
    out.push(section("Output schema", d.output ? schemaTree(d.output, defs.output, "output") : el("p", { class: "note", text: "No typed success response: the result is what the server sends." }),
      d.wrapped ? el("p", { class: "note", text: "The response is not an object: it is wrapped as {\"result\": …}." }) : null));
    if (d.responses.length) {
      const t = el("table", { class: "data" }, el("tr", null, el("th", { text: "Status" }), el("th", { text: "Description" }), el("th", { text: "Body" })));
      for (const r of d.responses) t.append(el("tr", null, el("td", { text: r.status }), el("td", { text: r.description || "" }), el("td", { text: r.typed ? (r.json ? "JSON, typed" : "typed") : "–" })));
      out.push(section("Responses", t));
    }
    out.push(section("Contract", contract(d.contract || {})));
    out.push(section("Graph neighbours", edges(d.edges)));
    out.push(section("Readiness findings", d.findings.length ? findingList(d.findings.map((f) => [f.severity, f.code, f.tool, f.message, f.source]), false) : el("p", { class: "note", text: "None." })));
    out.push(section("Provider exports", exportsOf(d)));
    out.push(section("Native metadata", el("pre", { text: json(d.native || {}) })));
    if (d.openapi) out.push(section("Source metadata (artifact)", el("pre", { text: json({ openapi: d.openapi, ai_metadata: d.ai }) })));
    out.push(section("Source", excerpt(d.excerpt)));
    return out;
  }
  function exportsOf(d) {
    if (!data.exports.length) return el("p", { class: "note", text: "This report was written without provider exports (the runtime makes them): `toolwright report` includes the MCP, OpenAI, Anthropic and Gemini exports." });
    const box = el("div");
    for (const profile of data.exports) {
      const e = d.exports[profile];
      box.append(el("details", null, el("summary", { text: profile + (e ? (e.warnings && e.warnings.length ? " (" + e.warnings.length + " warnings)" : "") : " (not exported)") }),
        e ? el("pre", { text: json(e) }) : el("p", { class: "note", text: "Not in this profile's export." })));
    }
    return box;
  }
  function excerpt(x) {
    if (!x) return el("p", { class: "note", text: "No source position." });
    const pre = el("pre", { class: "excerpt", "aria-label": x.file + " from line " + x.first_line });
    x.lines.forEach((line, n) => pre.append(el("span", { class: "ln", text: String(x.first_line + n) }), line, "\n"));
    return el("div", null, el("p", { class: "note", text: x.file + ":" + x.first_line + ":" + x.column + (x.more ? " (" + x.more + " more lines)" : "") }), pre);
  }
  function contract(c) {
    const box = el("div");
    const consumes = c.consumes || [];
    const produces = c.produces || [];
    box.append(el("h4", { text: "Consumes (" + consumes.length + ")" }));
    if (consumes.length) {
      const t = el("table", { class: "data consumes" }, el("tr", null, ...["Name", "In", "Required", "Kind", "Type", "Tag", "Identifies"].map((h) => el("th", { text: h }))));
      for (const f of consumes) t.append(el("tr", null, el("td", { class: "name", text: f.name }), el("td", { text: f.location }), el("td", { text: f.required ? "yes" : "" }), el("td", { text: f.kind }), el("td", { text: f.field_type + (f.enum ? " " + JSON.stringify(f.enum) : "") }), el("td", { text: f.semantic_tag || "" }), el("td", { text: f.identifies || "" })));
      box.append(t);
    }
    box.append(el("h4", { text: "Produces (" + produces.length + ")" }));
    if (produces.length) {
      const t = el("table", { class: "data produces" }, el("tr", null, ...["Path", "Type", "Tag", "Resource", "Identifies"].map((h) => el("th", { text: h }))));
      for (const f of produces.slice(0, 500)) t.append(el("tr", null, el("td", { class: "name", text: f.path }), el("td", { text: f.field_type }), el("td", { text: f.semantic_tag || "" }), el("td", { text: f.resource || "" }), el("td", { text: f.identifies || "" })));
      box.append(t);
      if (produces.length > 500) box.append(el("p", { class: "note", text: (produces.length - 500) + " more fields." }));
    }
    if ((c.links || []).length) box.append(el("h4", { text: "Links" }), el("pre", { text: json(c.links) }));
    return box;
  }
  function edges(e) {
    const box = el("div");
    for (const [dir, list, label] of [["in", e.in, "Fed by"], ["out", e.out, "Feeds"]]) {
      box.append(el("h4", { text: label + " (" + list.length + ")" }));
      const ul = el("ul", { class: "edges-" + dir });
      for (const x of list) ul.append(el("li", null, toolLink(x.tool), " ", el("span", { class: "note", text: "(" + x.confidence + ", " + Number(x.score).toFixed(2) + ") " + (x.evidence || "") })));
      box.append(ul);
    }
    return box;
  }

  // ---- schema trees ----------------------------------------------------------------
  const KEYWORDS = ["format", "enum", "const", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf", "examples", "deprecated", "readOnly", "writeOnly", "dependentRequired"];
  function typeOf(s) {
    if (s === true || s === undefined) return "any";
    if (s === false) return "nothing";
    if (s.$ref) return s.$ref.replace("#/$defs/", "→ ");
    if (Array.isArray(s.type)) return s.type.join(" | ");
    if (s.type) return s.type + (s.type === "array" && s.items ? " of " + typeOf(s.items) : "");
    for (const k of ["oneOf", "anyOf", "allOf"]) if (s[k]) return k;
    return "any";
  }
  function schemaTree(schema, defs, direction) {
    const root = el("div", { class: "schema", "data-direction": direction });
    root.append(children(schema, defs, 0));
    return root;
  }
  function children(s, defs, depth) {
    const ul = el("ul", { class: "tree" });
    if (!s || typeof s !== "object") return ul;
    if (s.$ref) {
      const name = s.$ref.replace("#/$defs/", "");
      const def = defs[name];
      const d = el("details", null, el("summary", { text: "definition " + name }));
      let filled = false;
      d.addEventListener("toggle", () => { if (d.open && !filled) { filled = true; d.append(def ? children(def, defs, depth + 1) : el("p", { class: "note", text: "not found" })); } });
      ul.append(el("li", null, d));
      return ul;
    }
    const required = new Set(s.required || []);
    for (const [name, p] of Object.entries(s.properties || {})) ul.append(property(name, p, required.has(name), defs, depth));
    if (s.additionalProperties && typeof s.additionalProperties === "object") ul.append(property("[any key]", s.additionalProperties, false, defs, depth));
    if (s.items && typeof s.items === "object" && !s.properties) ul.append(property("[item]", s.items, false, defs, depth));
    for (const k of ["oneOf", "anyOf", "allOf"]) (s[k] || []).forEach((v, n) => ul.append(property(k + "[" + n + "]", v, false, defs, depth)));
    return ul;
  }
  function property(name, p, required, defs, depth) {
    const li = el("li");
    const head = [el("span", { class: "prop", text: name }), el("span", { class: "type", text: typeOf(p) })];
    if (required) head.push(el("span", { class: "req", text: "required" }));
    if (p && typeof p === "object") for (const k of KEYWORDS) if (k in p) head.push(el("span", { class: "kw", text: k + ": " + (typeof p[k] === "string" ? p[k] : JSON.stringify(p[k])).slice(0, 200) }));
    const desc = p && p.description ? el("div", { class: "note", text: p.description.length > 400 ? p.description.slice(0, 400) + "…" : p.description }) : null;
    const nested = p && typeof p === "object" && (p.properties || p.$ref || p.oneOf || p.anyOf || p.allOf || (p.items && typeof p.items === "object" && (p.items.properties || p.items.$ref || p.items.oneOf || p.items.anyOf)) || (p.additionalProperties && typeof p.additionalProperties === "object"));
    if (!nested) { li.append(...head, desc || ""); return li; }
    const d = el("details", depth < 1 ? { open: true } : null, el("summary", null, ...head));
    if (desc) d.append(desc);
    let filled = false;
    const fill = () => { if (!filled) { filled = true; d.append(children(p.items && !p.properties && !p.$ref && typeof p.items === "object" ? p.items : p, defs, depth + 1)); } };
    if (d.open) fill(); else d.addEventListener("toggle", () => d.open && fill());
    li.append(d);
    return li;
  }

  // ---- readiness ---------------------------------------------------------------------
  function findingList(list, withTool) {
    const ul = el("ul", { class: "findings" });
    const LIMIT = 500;
    const add = (from) => {
      for (const f of list.slice(from, from + LIMIT)) ul.append(el("li", null, el("span", { class: "sev-" + f[0], text: f[0] + " " }), el("code", { text: f[1] }), " ", withTool ? toolLink(f[2]) : "", withTool ? ": " : "", f[3], f[4] ? el("span", { class: "note", text: " — " + f[4] }) : ""));
      if (list.length > from + LIMIT) {
        const more = el("button", { type: "button", text: "Show " + Math.min(LIMIT, list.length - from - LIMIT) + " more", onclick: () => { more.remove(); add(from + LIMIT); } });
        ul.append(el("li", null, more));
      }
    };
    add(0);
    return ul;
  }
  function readiness() {
    const r = data.readiness;
    const panel = $("panel-readiness");
    panel.append(el("h2", null, "Readiness ", el("span", { class: "score", text: r.score === null || r.score === undefined ? "–" : String(r.score) }), " ", el("span", { text: r.status || "" })));
    const checks = el("table", { class: "data checks" }, el("tr", null, ...["Check", "Weight", "Applies to", "Failed", "Pass rate"].map((h, n) => el("th", { class: n ? "num" : null, text: h }))));
    for (const [code, c] of Object.entries(r.checks || {})) checks.append(el("tr", null, el("td", null, el("code", { text: code })), el("td", { class: "num", text: String(c.weight) }), el("td", { class: "num", text: String(c.applies) }), el("td", { class: "num", text: String(c.failed) }), el("td", { class: "num", text: c.applies ? (100 * (1 - c.failed / c.applies)).toFixed(1) + "%" : "–" })));
    panel.append(checks);
    for (const severity of ["error", "warning", "info"]) {
      const of = r.findings.filter((f) => f[0] === severity);
      if (!of.length) continue;
      const box = el("details", { class: "severity", "data-severity": severity, open: severity !== "info" }, el("summary", null, el("h2", { class: "sev-" + severity, style: "display:inline", text: of.length + " " + severity + (of.length === 1 ? "" : "s") })));
      const byCode = new Map();
      for (const f of of) { if (!byCode.has(f[1])) byCode.set(f[1], []); byCode.get(f[1]).push(f); }
      for (const [code, list] of byCode) {
        const d = el("details", null, el("summary", null, el("code", { text: code }), " — " + list.length));
        let filled = false;
        d.addEventListener("toggle", () => { if (d.open && !filled) { filled = true; d.append(findingList(list, true)); } });
        box.append(d);
      }
      panel.append(box);
    }
    if (!r.findings.length) panel.append(el("p", { text: "No findings." }));
  }

  // ---- fidelity ----------------------------------------------------------------------
  function fidelity() {
    const panel = $("panel-fidelity");
    panel.append(el("p", { class: "note", text: "Per source: what the raw document holds, what its import kept as native metadata and as first-class IR, what this report shows (every IR item and every native value), and what neither kept. Each import finding is listed with its location." }));
    for (const f of data.fidelity) {
      const box = el("section", { class: "fidelity" }, el("h2", { text: f.api + " — " + f.format }), el("p", { class: "note", text: f.source }));
      const t = el("table", { class: "data" }, el("tr", null, ...["Aspect", "Raw", "Native", "IR", "Shown", "Lost", "Notes"].map((h, n) => el("th", { class: n && n < 6 ? "num" : null, text: h }))));
      for (const r of f.rows) t.append(el("tr", null, el("td", { text: r.aspect }), ...["raw", "native", "ir", "shown", "lost"].map((k) => el("td", { class: "num" + (k === "lost" && r.lost ? " lost" : ""), text: String(r[k]) })), el("td", { class: "note", text: r.note })));
      box.append(t);
      if (f.findings.length) {
        box.append(el("h3", { text: "Import findings" }));
        const ul = el("ul");
        for (const g of f.findings) {
          const li = el("li", null, el("span", { class: "sev-" + g.severity, text: g.severity + " " }), el("code", { text: g.code }), " × " + g.count);
          const ex = el("ul");
          for (const x of g.examples) ex.append(el("li", null, el("span", { class: "note", text: (x.at || "") + " " }), x.message));
          li.append(ex);
          ul.append(li);
        }
        box.append(ul);
      } else box.append(el("p", { class: "note", text: "The import reported nothing for this source." }));
      panel.append(box);
    }
  }

  // ---- graph -------------------------------------------------------------------------
  function graph() {
    const s = data.summary;
    $("graph-note").textContent = s.edges ? s.drawn + " of " + s.edges + " edges drawn between " + s.nodes + " tools (producers on the left, consumers to the right; green: declared OpenAPI links). Every edge is also listed in its tools' details." : "";
    const svg = $("graph-svg");
    if (!svg) return;
    const info = $("graph-info");
    const show = (target) => {
      const edge = target.closest && target.closest("path.edge");
      if (edge) info.textContent = edge.querySelector("title").textContent;
    };
    svg.addEventListener("mouseover", (e) => show(e.target));
    let selected = null;
    const focusOn = (name) => {
      svg.querySelectorAll(".hl").forEach((n) => n.classList.remove("hl"));
      const node = name && svg.querySelector('.node[data-tool="' + CSS.escape(name) + '"]');
      selected = node ? name : null;
      $("graph-open").disabled = !node;
      svg.classList.toggle("focus", Boolean(node));
      if (!node) { info.textContent = name ? "No tool named like that takes part in an edge." : ""; return; }
      node.classList.add("hl");
      let n = 0;
      for (const e of svg.querySelectorAll("path.edge")) if (e.dataset.s === name || e.dataset.t === name) {
        e.classList.add("hl");
        svg.querySelector('.node[data-tool="' + CSS.escape(e.dataset.s === name ? e.dataset.t : e.dataset.s) + '"]').classList.add("hl");
        n++;
      }
      info.textContent = name + ": " + n + " edges";
      node.scrollIntoView({ block: "center", inline: "center" });
    };
    svg.addEventListener("click", (e) => {
      const node = e.target.closest(".node");
      if (node) focusOn(node.dataset.tool);
    });
    svg.addEventListener("dblclick", (e) => {
      const node = e.target.closest(".node");
      if (node) goToTool(node.dataset.tool);
    });
    $("graph-find").addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      const q = e.target.value.trim().toLowerCase();
      if (!q) return focusOn(null);
      const nodes = Array.from(svg.querySelectorAll(".node"));
      const hit = nodes.find((n) => n.dataset.tool.toLowerCase() === q) || nodes.find((n) => n.dataset.tool.toLowerCase().includes(q));
      focusOn(hit ? hit.dataset.tool : q);
    });
    $("graph-open").addEventListener("click", () => selected && goToTool(selected));
  }

  // ---- start -----------------------------------------------------------------------
  summary();
  applyView();
  drawNow();
  const hash = decodeURIComponent(location.hash.replace(/^#tool=/, ""));
  if (hash && index.has(hash)) goToTool(hash);
  document.body.dataset.ready = "true";
})();
