// gatherscatter explorer: plain JavaScript over the JSON API (/api/...). No build step, no dependency.
// State lives in the URL query: op, a.<arg> (JSON), dt.<arg> (dtype), v (op version), tab, to, tv,
// cmp (ops of any family compared with the current one, comma-separated; absent: its whole family).
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
};

const TABS = ["picture", "compare", "table", "translate"];
const DTYPES = ["auto", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float16", "float32", "float64"];
// starting inputs per family, by role (used when an op is picked with no inputs yet)
const EXAMPLES = {
  gather: { data: [[1, 2, 3], [4, 5, 6], [7, 8, 9]], indices: [2, 0] },
  gather_elements: { data: [[1, 2], [3, 4]], indices: [[0, 0], [1, 0]] },
  gather_nd: { data: [[1, 2], [3, 4]], indices: [[0, 0], [1, 1]] },
  scatter_elements: { data: [[0, 0, 0], [0, 0, 0], [0, 0, 0]], indices: [[1, 0, 2], [0, 2, 1]], updates: [[1, 2, 3], [4, 5, 6]] },
  scatter_nd: { data: [1, 2, 3, 4, 5, 6, 7, 8], indices: [[4], [3], [1], [7]], updates: [9, 10, 11, 12], shape: [8] },
  scatter_axis: { data: [[0, 0], [0, 0], [0, 0]], indices: [2, 0], updates: [[1, 2], [3, 4]] },
  general: { data: [1, 2, 3, 4], indices: [[0], [0], [2]], updates: [1, 2, 3] },
};
const GROUP_COLOURS = ["#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#ffed6f"];

const state = {
  ops: [], facts: null, seeds: [], targets: [],
  values: {},      // arg/attr name -> JSON text (args) or value (attrs), for the current op
  byRole: {},      // role -> JSON text: carried over when another op is picked
  dtypes: {}, version: null, tab: "picture", to: "torch", targetVersion: "",
  seq: 0, controllers: {}, tableFamily: null, tableData: null,
  cmp: [],         // ops compared with the current one (any families); empty: the current op's family
};

// ------------------------------------------------------------------ API

async function api(path, body, key) {
  if (key && state.controllers[key]) state.controllers[key].abort();
  const ctrl = new AbortController();
  if (key) state.controllers[key] = ctrl;
  const init = body === undefined ? { signal: ctrl.signal }
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: ctrl.signal };
  const r = await fetch(path, init);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: { type: "BadResponse", message: `HTTP ${r.status}` } }; }
  return { status: r.status, ok: r.ok, data };
}

// ------------------------------------------------------------------ URL state

function readURL() {
  const q = new URLSearchParams(location.search);
  const s = { op: q.get("op"), args: {}, dtypes: {}, version: q.get("v"), tab: q.get("tab"), to: q.get("to"), tv: q.get("tv"),
    cmp: (q.get("cmp") || "").split(",").map((x) => x.trim()).filter(Boolean) };
  for (const [k, v] of q) {
    if (k.startsWith("a.")) s.args[k.slice(2)] = v;
    if (k.startsWith("dt.")) s.dtypes[k.slice(3)] = v;
  }
  return s;
}

function writeURL() {
  const q = new URLSearchParams();
  if (state.facts) {
    q.set("op", state.facts.op);
    const arrays = new Set(state.facts.args.map((a) => a.name));
    for (const [k, v] of Object.entries(state.values)) {
      if (v === undefined) continue;
      q.set("a." + k, arrays.has(k) ? v : JSON.stringify(v));  // arrays: the text as typed; attributes: JSON
    }
    for (const [k, v] of Object.entries(state.dtypes)) if (v && v !== "auto") q.set("dt." + k, v);
    if (state.version !== null && state.version !== "") q.set("v", state.version);
  }
  if (state.cmp.length) q.set("cmp", state.cmp.join(","));
  if (state.tab !== "picture") q.set("tab", state.tab);
  if (state.tab === "translate") {
    q.set("to", state.to);
    if (state.targetVersion) q.set("tv", state.targetVersion);
  }
  const url = location.pathname + (q.toString() ? "?" + q.toString() : "");
  history.replaceState(null, "", url);
}

// ------------------------------------------------------------------ op search (combobox)

function opMatches(text) {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return state.ops;
  return state.ops.filter((o) => {
    const hay = `${o.op} ${o.family} ${o.kind} ${o.summary}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  }).sort((a, b) => {
    const w = words[0];
    const score = (o) => (o.op.toLowerCase().includes(w) ? 0 : 1) + (o.name.toLowerCase().startsWith(w) ? 0 : 0.5);
    return score(a) - score(b);
  });
}

let active = -1;
function renderList() {
  const input = $("op-search"), list = $("op-list"), empty = $("op-empty");
  const found = opMatches(input.value).slice(0, 40);
  list.replaceChildren();
  active = found.length ? Math.min(Math.max(active, 0), found.length - 1) : -1;
  found.forEach((o, i) => {
    const li = el("li", {
      role: "option", id: "opt-" + i, "data-op": o.op, "aria-selected": i === active ? "true" : "false",
      onmousedown: (ev) => { ev.preventDefault(); chooseOp(o.op); },
    }, el("span", { class: "opname", text: o.op }), el("span", { class: "opfam", text: `${o.family} · ${o.kind}` }),
    el("span", { class: "opsum", text: o.summary.replace(/``/g, "") }));
    list.append(li);
  });
  const open = document.activeElement === input;
  list.hidden = !open || !found.length;
  empty.hidden = !open || found.length > 0;
  empty.textContent = found.length ? "" : `No op matches “${input.value}”. Try a framework (torch, onnx) or a family (scatter_nd).`;
  input.setAttribute("aria-expanded", list.hidden ? "false" : "true");
  if (active >= 0) {
    input.setAttribute("aria-activedescendant", "opt-" + active);
    const cur = $("opt-" + active);
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  } else input.removeAttribute("aria-activedescendant");
}

function setupSearch() {
  const input = $("op-search");
  input.addEventListener("input", () => { active = 0; renderList(); });
  input.addEventListener("focus", () => { active = 0; renderList(); });
  input.addEventListener("blur", () => { $("op-list").hidden = true; $("op-empty").hidden = true; input.setAttribute("aria-expanded", "false"); });
  input.addEventListener("keydown", (ev) => {
    const n = $("op-list").children.length;
    if (ev.key === "ArrowDown") { active = (active + 1) % Math.max(n, 1); renderList(); ev.preventDefault(); }
    else if (ev.key === "ArrowUp") { active = (active - 1 + n) % Math.max(n, 1); renderList(); ev.preventDefault(); }
    else if (ev.key === "Enter") {
      const li = $("opt-" + active);
      if (li) { chooseOp(li.dataset.op); ev.preventDefault(); }
    } else if (ev.key === "Escape") { input.value = ""; input.blur(); }
  });
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
    if (ev.key === "/" && !typing) { input.focus(); input.select(); ev.preventDefault(); }
  });
}

async function chooseOp(name, preset) {
  const input = $("op-search");
  input.value = "";
  input.blur();
  const r = await api("/api/ops/" + encodeURIComponent(name), undefined, "facts");
  if (!r.ok) { showError(r.data); return; }
  const facts = r.data;
  // keep the current inputs by role, so that the same inputs can go through another op
  if (state.facts) for (const a of state.facts.args) if (state.values[a.name] !== undefined) state.byRole[roleKey(a)] = state.values[a.name];
  state.facts = facts;
  state.values = {};
  state.dtypes = {};
  state.version = null;
  const ex = EXAMPLES[facts.family] || EXAMPLES.general;
  for (const a of facts.args) {
    if (preset && preset.args[a.name] !== undefined) state.values[a.name] = preset.args[a.name];
    else if (state.byRole[roleKey(a)] !== undefined && !preset) state.values[a.name] = state.byRole[roleKey(a)];
    else {
      let v = ex[a.role];
      if (v === undefined) continue;
      if (a.form === "tuple") v = transpose(v);
      state.values[a.name] = JSON.stringify(v);
    }
    if (preset && preset.dtypes[a.name]) state.dtypes[a.name] = preset.dtypes[a.name];
  }
  for (const a of facts.attrs) {
    if (preset && preset.args[a.name] !== undefined) state.values[a.name] = parseAttr(a, preset.args[a.name]).value;
    else if (a.required) state.values[a.name] = a.type === "str" ? (a.choices[0] ?? "") : 0;
  }
  if (preset && preset.version !== null && preset.version !== undefined) state.version = String(preset.version);
  $("seed-note").hidden = !(preset && preset.note);
  if (preset && preset.note) $("seed-note").textContent = preset.note;
  renderOp();
  await runAll();  // at once: the 200 ms pause is for typing only
}

function roleKey(a) { return a.role + (a.form === "tuple" ? ":tuple" : ""); }

function transpose(v) {
  // index tuples on the last axis -> a list of index arrays (one per indexed axis)
  if (!Array.isArray(v) || !v.length || !Array.isArray(v[0])) return [v];
  return v[0].map((_, j) => v.map((row) => row[j]));
}

// ------------------------------------------------------------------ the form, from the op's facts

function renderOp() {
  const f = state.facts;
  $("op-title").textContent = f.op;
  const vers = f.versions.length ? (f.version_kw ? `${f.version_kw} ${f.versions.join(", ")}` : `version ${f.versions.join(", ")}`) : "";
  $("op-meta").textContent = `${f.family} · ${f.kind}${vers ? " · " + vers : ""}`;
  $("op-summary").textContent = f.summary.replace(/``/g, "");
  $("op-doc").textContent = f.doc;
  document.title = `${f.op} · gatherscatter explorer`;
  state.cmp = state.cmp.filter((n) => n !== f.op);  // the current op is always compared first
  renderCmpChips();
  const form = $("inputs");
  form.replaceChildren();
  for (const a of f.args) form.append(argField(a));
  if (f.attrs.length) form.append(el("h3", { text: "Attributes" }));
  for (const a of f.attrs) form.append(attrField(a));
  if (f.version_kw) {
    const sel = el("select", { id: "f-version", name: "version", onchange: (e) => { state.version = e.target.value || null; update(); } },
      el("option", { value: "", text: "newest (default)" }),
      ...f.versions.map((v) => {
        const adds = (f.version_notes || {})[String(v)];  // what this version adds (the op's record)
        return el("option", { value: String(v), text: adds ? `${v} (adds ${adds})` : String(v) });
      }));
    sel.value = state.version ?? "";
    form.append(el("div", { class: "field" }, el("label", { for: "f-version", text: f.version_kw }), sel));
  }
  if (!f.args.length && !f.attrs.length) form.append(el("p", { class: "empty", text: "This op takes no arguments." }));
}

function argField(a) {
  const id = "f-" + a.name;
  const ta = el("textarea", {
    id, name: a.name, rows: "3", spellcheck: "false", "aria-describedby": id + "-hint",
    placeholder: a.required ? "required: a JSON array" : "optional (leave empty)",
    oninput: (e) => { state.values[a.name] = e.target.value.trim() === "" ? undefined : e.target.value; validate(ta); update(); },
  });
  ta.value = state.values[a.name] ?? "";
  const dsel = el("select", { id: id + "-dtype", "aria-label": a.name + " dtype",
    onchange: (e) => { state.dtypes[a.name] = e.target.value; update(); } }, ...DTYPES.map((d) => el("option", { value: d, text: d })));
  dsel.value = state.dtypes[a.name] || "auto";
  const hint = a.form === "tuple" ? "a list of index arrays, one per indexed axis"
    : a.role === "shape" ? "the output shape (a list of integers)" : `JSON, e.g. [[1, 2], [3, 4]]`;
  return el("div", { class: "field arg" },
    el("label", { for: id }, el("span", { class: "name", text: a.name }), el("span", { class: "role role-" + a.role, text: a.role }),
      a.required ? null : el("span", { class: "opt", text: "optional" })),
    ta, el("div", { class: "sub" }, el("small", { id: id + "-hint", text: hint }), a.role === "shape" ? null : dsel),
    el("small", { class: "invalid", id: id + "-err", role: "status" }));
}

function validate(ta) {
  const err = $(ta.id + "-err");
  if (ta.value.trim() === "") { ta.removeAttribute("aria-invalid"); err.textContent = ""; return true; }
  try { JSON.parse(ta.value); ta.removeAttribute("aria-invalid"); err.textContent = ""; return true; } catch (e) {
    ta.setAttribute("aria-invalid", "true"); err.textContent = "not valid JSON: " + e.message; return false;
  }
}

function attrField(a) {
  const id = "f-" + a.name;
  const label = el("label", { for: id }, el("span", { class: "name", text: a.name }),
    a.required ? el("span", { class: "opt", text: "required" }) : el("span", { class: "opt", text: "default " + JSON.stringify(a.default) }));
  const cur = state.values[a.name];
  let input;
  if (a.choices && a.choices.length) {
    input = el("select", { id, name: a.name, onchange: (e) => { state.values[a.name] = JSON.parse(e.target.value); update(); } },
      ...a.choices.map((c) => el("option", { value: JSON.stringify(c), text: c === null ? "None" : c === "" ? "'' (empty)" : String(c) })));
    input.value = JSON.stringify(cur !== undefined ? cur : a.default);
  } else if (a.type === "int") {
    input = el("input", { id, name: a.name, type: "number", step: "1", inputmode: "numeric",
      placeholder: a.nullable || a.default === null ? "None" : "",
      oninput: (e) => { const t = e.target.value; state.values[a.name] = t === "" ? (a.required ? undefined : null) : Number(t); update(); } });
    input.value = cur !== undefined && cur !== null ? String(cur) : (a.default !== null ? String(a.default) : "");
  } else {
    input = el("input", { id, name: a.name, type: "text", spellcheck: "false", placeholder: "JSON value, e.g. 0 or 1.5",
      oninput: (e) => {
        const t = e.target.value.trim();
        try { state.values[a.name] = t === "" ? undefined : JSON.parse(t); input.removeAttribute("aria-invalid"); } catch (err) {
          input.setAttribute("aria-invalid", "true"); return;
        }
        update();
      } });
    input.value = cur !== undefined ? JSON.stringify(cur) : "";
  }
  return el("div", { class: "field attr" }, label, input);
}

function parseAttr(a, text) {
  if (typeof text !== "string") return { value: text };
  try { return { value: JSON.parse(text) }; } catch (e) { return { value: text }; }
}

// ------------------------------------------------------------------ requests

function requestArgs() {
  const f = state.facts;
  const args = {}, dtypes = {};
  for (const a of f.args) {
    const t = state.values[a.name];
    if (t === undefined) continue;
    try { args[a.name] = JSON.parse(t); } catch (e) { return { bad: `${a.name} is not valid JSON` }; }
    if (state.dtypes[a.name] && state.dtypes[a.name] !== "auto") dtypes[a.name] = state.dtypes[a.name];
  }
  for (const a of f.attrs) if (state.values[a.name] !== undefined) args[a.name] = state.values[a.name];
  const body = { op: f.op, args };
  if (Object.keys(dtypes).length) body.dtypes = dtypes;
  if (state.version) body.version = /^\d+$/.test(state.version) ? Number(state.version) : state.version;
  return { body };
}

let timer = null;
function update() {
  clearTimeout(timer);
  timer = setTimeout(runAll, 200);
}

async function runAll() {
  writeURL();
  if (!state.facts) return;
  const { body, bad } = requestArgs();
  if (bad) { showError({ error: { type: "InputError", message: bad } }); return; }
  const seq = ++state.seq;
  setStatus("Computing…");
  const jobs = [runExplain(body, seq)];
  if (state.tab === "compare") jobs.push(runCompare(body, seq));
  if (state.tab === "table") jobs.push(runTable());
  if (state.tab === "translate") jobs.push(runTranslate(false));
  try { await Promise.all(jobs); } catch (e) {
    if (e.name === "AbortError") return;
    showError({ error: { type: "NetworkError", message: "the server did not answer (is `gatherscatter serve` still running?)" } });
  }
  if (seq === state.seq) setStatus("");
}

function setStatus(t) { $("status").textContent = t; document.body.classList.toggle("busy", !!t); }

function showError(data) {
  const box = $("error");
  if (!data || !data.error) { box.hidden = true; box.replaceChildren(); return; }
  box.replaceChildren(el("strong", { text: data.error.type }), document.createTextNode(": " + data.error.message));
  box.hidden = false;
}

async function runExplain(body, seq) {
  const r = await api("/api/explain", body, "explain");
  if (seq !== state.seq) return;
  const exp = r.ok ? r.data : r.data.explanation;
  showError(r.ok ? null : r.data);
  const pic = $("picture");
  $("scroll-hint").hidden = true;
  if (!exp) {
    pic.replaceChildren(el("p", { class: "empty", text: "No picture: fix the inputs (see the error above)." }));
    $("explanation").textContent = ""; $("loop").textContent = "";
    return;
  }
  if (exp.svg) {
    const doc = new DOMParser().parseFromString(exp.svg, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg && svg.nodeName === "svg") {
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", `picture of ${exp.label}: which cell went where`);
      for (const r of svg.querySelectorAll("rect[data-tensor]")) {
        const t = doc.createElementNS("http://www.w3.org/2000/svg", "title");
        t.textContent = `${r.getAttribute("data-tensor")}[${r.getAttribute("data-pos")}]`;
        r.append(t);
      }
      const shown = document.importNode(svg, true);
      pic.replaceChildren(shown);
      // a little too wide: shrink to fit; much too wide (a phone): keep the size, scroll sideways
      const natural = Number(shown.getAttribute("width")) || 0, room = pic.clientWidth;
      shown.classList.toggle("fit", natural > room && natural < room * 1.6);
      $("scroll-hint").hidden = !(room > 0 && natural >= room * 1.6);
    }
  } else {
    pic.replaceChildren(el("p", { class: "empty", text: `Picture not drawn: ${exp.picture_note || "too large"}.` }));
  }
  $("explanation").textContent = exp.text;
  $("loop").textContent = exp.loop || "(none)";
}

// ------------------------------------------------------------------ compare

function grid(value, diff, cls) {
  if (!value || value.value === null) return el("p", { class: "empty", text: value ? value.note : "" });
  const shape = value.shape, v = value.value;
  const diffSet = new Set((diff || []).map((p) => p.join(",")));
  const table = el("table", { class: "grid " + (cls || "") });
  const cell = (x, pos) => el("td", { "data-pos": pos.join(","), "data-value": JSON.stringify(x), class: diffSet.has(pos.join(",")) ? "diff" : null,
    text: fmt(x) + (diffSet.has(pos.join(",")) ? "*" : "") });
  if (shape.length === 0) { table.append(el("tr", {}, cell(v, []))); return table; }
  if (shape.length === 1) { table.append(el("tr", {}, ...v.map((x, j) => cell(x, [j])))); return table; }
  // rank >= 2: 2-D slices stacked
  const wrap = el("div", { class: "slices" });
  const walk = (arr, lead) => {
    if (lead.length === shape.length - 2) {
      const t = el("table", { class: "grid " + (cls || "") });
      arr.forEach((row, i) => t.append(el("tr", {}, ...row.map((x, j) => cell(x, [...lead, i, j])))));
      if (lead.length) wrap.append(el("small", { class: "slice", text: `[${lead.join(", ")}, :, :]` }));
      wrap.append(t);
      return;
    }
    arr.forEach((sub, i) => walk(sub, [...lead, i]));
  };
  walk(v, []);
  return wrap;
}

function fmt(x) {
  if (typeof x === "boolean") return x ? "T" : "F";
  if (typeof x === "number" && !Number.isInteger(x)) return String(Number(x.toPrecision(4)));
  return String(x);
}

// ------------------------------------------------------------------ compare: the family, or chosen ops of any family

function renderCmpChips() {
  const chips = $("cmp-chips");
  const cur = state.facts ? state.facts.op : null;
  chips.replaceChildren();
  if (state.cmp.length && cur) chips.append(el("li", { class: "current", "data-op": cur }, el("code", { text: cur })));
  for (const name of state.cmp) {
    chips.append(el("li", { "data-op": name }, el("code", { text: name }),
      el("button", { type: "button", "aria-label": "remove " + name, title: "remove " + name, text: "×",
        onclick: () => { state.cmp = state.cmp.filter((n) => n !== name); renderCmpChips(); update(); } })));
  }
  $("cmp-family").hidden = !state.cmp.length;
  $("compare-hint").firstChild.textContent = state.cmp.length
    ? "The same inputs through the chosen ops (each with its own defaults; axis and batch_dims carried over where the op has them), grouped by result. Cells marked "
    : "The same inputs through every op of the family (each with its own defaults; axis and batch_dims carried over), grouped by result. Cells marked ";
}

function addCmpOp() {
  const input = $("cmp-add"), err = $("cmp-err");
  const text = input.value.trim();
  if (!text) return;
  const known = state.ops.find((o) => o.op === text) || state.ops.find((o) => o.op.toLowerCase() === text.toLowerCase());
  if (!known) { input.setAttribute("aria-invalid", "true"); err.textContent = `unknown op “${text}”: pick one from the list (FRAMEWORK.OP)`; return; }
  input.removeAttribute("aria-invalid"); err.textContent = "";
  if (known.op !== state.facts.op && !state.cmp.includes(known.op)) state.cmp.push(known.op);
  input.value = "";
  renderCmpChips();
  update();
}

function setupCompare() {
  $("cmp-add-btn").addEventListener("click", addCmpOp);
  $("cmp-add").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { addCmpOp(); ev.preventDefault(); } });
  $("cmp-family").addEventListener("click", () => { state.cmp = []; renderCmpChips(); update(); });
}

async function runCompare(body, seq) {
  const box = $("compare");
  if (state.cmp.length) body = { ...body, ops: state.cmp };
  const r = await api("/api/compare", body, "compare");
  if (seq !== state.seq) return;
  if (!r.ok) {
    box.replaceChildren(el("p", { class: "error-inline", text: `${r.data.error.type}: ${r.data.error.message}` }));
    return;
  }
  const c = r.data;
  const parts = [];
  parts.push(el("p", { class: c.agree ? "verdict ok" : "verdict warn",
    text: c.agree ? `All ${c.ran} ops that ran agree.`
      : `${c.groups.length} distinct result${c.groups.length === 1 ? "" : "s"} and ${c.errors.length} error${c.errors.length === 1 ? "" : "s"} from ${c.ran} ops that ran (${c.ops ? "ops " + c.ops.join(", ") : "family " + c.family}).` }));
  const groups = el("div", { class: "groups" });
  c.groups.forEach((g, n) => {
    const mine = g.ops.some((o) => o.op === c.op);
    groups.append(el("article", { class: "group" + (mine ? " mine" : ""), "data-group": g.tag, style: null },
      el("h3", {}, el("span", { class: "tag", "data-colour": String(n % GROUP_COLOURS.length), text: g.tag }),
        ` ${g.ops.length} op${g.ops.length === 1 ? "" : "s"}` + (g.value ? ` · shape (${g.value.shape.join(", ")}) ${g.value.dtype}` : "")),
      grid(g.value, g.differs_from_A, "tag-" + (n % GROUP_COLOURS.length)),
      el("ul", { class: "ops" }, ...g.ops.map((o) => el("li", { class: o.op === c.op ? "current" : null },
        el("code", { text: o.label }), o.notes.length ? el("small", { text: " " + o.notes.join("; ") }) : null)))));
  });
  parts.push(groups);
  if (c.errors.length) {
    parts.push(el("h3", { class: "errhead", text: `Errors (${c.errors.length} op${c.errors.length === 1 ? "" : "s"})` }));
    parts.push(el("ul", { class: "errors" }, ...c.errors.map((e) => el("li", { "data-op": e.op },
      el("span", { class: "tag tag-err", text: "E" }), el("code", { text: e.label }), ": " + e.error))));
  }
  if (c.not_applicable.length) {
    parts.push(el("details", {}, el("summary", { text: `Cannot take these inputs (${c.not_applicable.length} op${c.not_applicable.length === 1 ? "" : "s"})` }),
      el("ul", {}, ...c.not_applicable.map((e) => el("li", {}, el("code", { text: e.op }), ": " + e.reason)))));
  }
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ table

async function runTable() {
  const fam = state.facts.family;
  const box = $("table");
  if (state.tableFamily === fam && state.tableData) { highlightColumn(); return; }
  if (!["gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd", "scatter_axis"].includes(fam)) {
    box.replaceChildren(el("p", { class: "empty", text: `No comparison table for the family “${fam}” (its ops take their own index forms).` }));
    return;
  }
  const r = await api("/api/table?family=" + encodeURIComponent(fam), undefined, "table");
  if (!r.ok) { box.replaceChildren(el("p", { class: "error-inline", text: `${r.data.error.type}: ${r.data.error.message}` })); return; }
  const t = r.data;
  state.tableFamily = fam; state.tableData = t;
  const head = el("tr", {}, el("th", { scope: "col", text: "case" }), ...t.columns.map((c) => el("th", { scope: "col", "data-op": c.op, text: c.label })));
  const rows = t.rows.map((row) => el("tr", {}, el("th", { scope: "row", text: row.case }),
    ...row.cells.map((cell, j) => el("td", { class: "st-" + cell.status.replace("/", ""), "data-op": t.columns[j].op },
      el("span", { class: "stag", text: { ok: "✓", error: "✗", "n/a": "–", other: "?" }[cell.status] || "?" }), " " + cell.text))));
  const table = el("table", { class: "family" }, el("caption", { text: t.title }), el("thead", {}, head), el("tbody", {}, ...rows));
  const notes = t.skipped.map((s) => el("li", { text: `skipped ${s.op}: ${s.reason}` }));
  box.replaceChildren(table, notes.length ? el("ul", { class: "notes" }, ...notes) : "");
  highlightColumn();
}

function highlightColumn() {
  for (const c of $("table").querySelectorAll("[data-op]")) c.classList.toggle("current", c.dataset.op === state.facts.op);
}

// ------------------------------------------------------------------ translate

async function runTranslate(verify) {
  const box = $("translation");
  const f = state.facts;
  if (!f.translatable && !f.attrs.length) {
    box.replaceChildren(el("p", { class: "empty", text: `${f.op} cannot be translated from here yet.` }));
    return;
  }
  const attrs = {};
  for (const a of f.attrs) if (state.values[a.name] !== undefined) attrs[a.name] = state.values[a.name];
  if (f.version_kw && state.version) attrs[f.version_kw] = /^\d+$/.test(state.version) ? Number(state.version) : state.version;
  const body = { op: f.op, to: state.to, attrs };
  if (state.targetVersion) body.version = Number(state.targetVersion);
  if (verify) {
    const n = Number($("verify-n").value || 200);
    body.verify = n;
    box.querySelector(".verify")?.replaceChildren(el("p", { text: `Verifying on ${n} generated cases…` }));
  }
  const r = await api("/api/translate", body, "translate");
  if (!r.ok) { box.replaceChildren(el("p", { class: "error-inline", role: "alert", text: `${r.data.error.type}: ${r.data.error.message}` })); return; }
  const t = r.data;
  const parts = [
    el("p", { class: t.exact ? "verdict ok" : "verdict warn" }, el("span", { class: "tag", text: t.exact ? "✓" : "!" }),
      t.exact ? ` exact: ${t.source} → ${t.target} (${t.ops.join(", ") || "no op"})` : ` not exact: the closest translation (${t.ops.join(", ")}); see the divergences`),
    el("p", {}, el("strong", { text: "Meaning: " }), el("code", { text: t.meaning })),
    el("h3", { text: "Steps" }),
    el("ol", { class: "steps" }, ...t.steps.map((s) => el("li", {}, el("code", { text: s.text }), s.why ? el("small", { text: "  — " + s.why }) : null))),
    el("h3", { text: `Divergences (${t.divergences.length})` }),
    t.divergences.length ? el("ul", { class: "divergences" }, ...t.divergences.map((d) => el("li", { text: d }))) : el("p", { text: "none" }),
  ];
  if (t.ignored.length) parts.push(el("p", { class: "hint", text: `Not part of the translation: ${t.ignored.join(", ")}.` }));
  parts.push(el("h3", { text: `Code (${t.target})` }));
  parts.push(t.code ? el("pre", { class: "code" }, el("code", { text: t.code })) : el("p", { class: "empty", text: t.code_error || "no code" }));
  const vbox = el("div", { class: "verify" });
  if (t.verify) {
    vbox.append(el("p", { class: t.verify.ok ? "verdict ok" : "verdict bad", "data-ok": String(t.verify.ok) },
      el("span", { class: "tag", text: t.verify.ok ? "✓" : "✗" }), ` verify: ${t.verify.agree} of ${t.verify.total} cases agree` +
      (t.verify.ok ? "; every difference is a listed divergence" : `; ${t.verify.failures.length} unexplained failure(s)`)),
    el("pre", { class: "text wrap", text: t.verify.text }));
  } else vbox.append(el("p", { class: "hint", text: "Verify runs the source op and the translation on generated cases (negative, duplicate, out-of-range, empty)." }));
  parts.push(vbox);
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ tabs

function selectTab(name, focus) {
  state.tab = name;
  for (const t of TABS) {
    const b = $("tab-" + t), on = t === name;
    b.setAttribute("aria-selected", on ? "true" : "false");
    b.tabIndex = on ? 0 : -1;
    $("view-" + t).hidden = !on;
    if (on && focus) b.focus();
  }
  update();
}

function setupTabs() {
  for (const t of TABS) $("tab-" + t).addEventListener("click", () => selectTab(t));
  $("tabs").addEventListener("keydown", (ev) => {
    const i = TABS.indexOf(state.tab);
    if (ev.key === "ArrowRight") { selectTab(TABS[(i + 1) % TABS.length], true); ev.preventDefault(); }
    if (ev.key === "ArrowLeft") { selectTab(TABS[(i - 1 + TABS.length) % TABS.length], true); ev.preventDefault(); }
    if (ev.key === "Home") { selectTab(TABS[0], true); ev.preventDefault(); }
    if (ev.key === "End") { selectTab(TABS[TABS.length - 1], true); ev.preventDefault(); }
  });
  $("target").addEventListener("change", (e) => { state.to = e.target.value; update(); });
  $("target-version").addEventListener("input", (e) => { state.targetVersion = e.target.value; update(); });
  $("verify").addEventListener("click", () => runTranslate(true));
}

// ------------------------------------------------------------------ start

async function start() {
  setupSearch();
  setupTabs();
  setupCompare();
  $("inputs").addEventListener("submit", (ev) => { ev.preventDefault(); runAll(); });  // Enter: run now, no reload
  const [ops, seeds, targets] = await Promise.all([api("/api/ops"), api("/api/seeds"), api("/api/targets")]);
  if (!ops.ok) { showError(ops.data); return; }
  state.ops = ops.data;
  state.seeds = seeds.ok ? seeds.data : [];
  state.targets = targets.ok ? targets.data : [];
  $("target").replaceChildren(...state.targets.map((t) => el("option", { value: t, text: t })));
  $("cmp-ops").replaceChildren(...state.ops.map((o) => el("option", { value: o.op, label: `${o.family} · ${o.kind}` })));
  const tour = $("tour");
  state.seeds.forEach((s, i) => tour.append(el("option", { value: String(i), text: `${i + 1}. ${s.title}` })));
  tour.addEventListener("change", () => {
    const s = state.seeds[Number(tour.value)];
    if (!s) return;
    const args = {};
    for (const [k, v] of Object.entries(s.args)) args[k] = JSON.stringify(v);
    chooseOp(s.op, { args, dtypes: {}, version: s.version, note: `${s.title} — ${s.source}. ${s.note}` });
  });
  const u = readURL();
  if (u.to && state.targets.includes(u.to)) state.to = u.to;
  $("target").value = state.to;
  if (u.tv) { state.targetVersion = u.tv; $("target-version").value = u.tv; }
  state.cmp = u.cmp.filter((n) => state.ops.some((o) => o.op === n));
  if (u.tab && TABS.includes(u.tab)) selectTab(u.tab);
  if (u.op) await chooseOp(u.op, { args: u.args, dtypes: u.dtypes, version: u.version });
  else if (state.seeds.length) { tour.value = "0"; tour.dispatchEvent(new Event("change")); }
  document.body.dataset.readyMs = String(Math.round(performance.now()));  // navigation start -> first picture
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", () => {
  start().catch((e) => showError({ error: { type: "NetworkError", message: "cannot reach the server: " + e.message } }));
});
