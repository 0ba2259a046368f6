// hostwcg web app: the setup forms, the board, the clicks and the keys (docs/web.md).
// The server sends a seat's board and its legal actions; this page only draws them and
// sends back the action clicked. No build step, nothing fetched from elsewhere.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
};

let ws = null;        // the socket of the game shown
let mode = "";        // play | watch | replay
let last = null;      // the last state message
let started = null;   // the "started" message
let waiting = false;  // an action was sent, no answer yet

// ------------------------------------------------------------ setup
function showTab(name) {
  $$(".tab").forEach(b => b.classList.toggle("on", b.dataset.tab === name));
  $$(".pane").forEach(p => p.classList.toggle("on", p.dataset.pane === name));
  $("#setup").hidden = false;
  $("#game").hidden = true;
  if (ws) { ws.close(); ws = null; }
  status("");
}

async function loadOptions() {
  const r = await fetch("/api/options");
  const o = await r.json();
  $$("select.agents").forEach(s => {
    s.replaceChildren(...o.agents.map(a => new Option(a, a)));
    if (o.agents.includes(s.dataset.default)) s.value = s.dataset.default;
  });
  $$("select.decks").forEach(s => {
    s.replaceChildren(new Option("drawn from the seed", ""),
      ...o.decks.map(d => new Option(`${d.name} (${d.host})`, d.id)));
  });
  const res = $("#results");
  res.replaceChildren(...o.results.map(f => new Option(f.replace(/^\d+\//, ""), f)));
  $("#no-results").hidden = o.results.length > 0;
  if (o.results.length) loadRecords();
  const ul = $("#reports");
  ul.replaceChildren(...o.reports.map(f => {
    const li = el("li"); const a = el("a", "", f.replace(/^\d+\//, ""));
    a.href = "/reports/" + f.split("/").map(encodeURIComponent).join("/");
    a.target = "_blank"; li.append(a); return li;
  }));
  $("#no-reports").hidden = o.reports.length > 0;
}

async function loadRecords() {
  const f = $("#results").value;
  const sel = $("#records");
  sel.replaceChildren(new Option("loading...", ""));
  const r = await fetch("/api/records?file=" + encodeURIComponent(f));
  const o = await r.json();
  if (o.error) { sel.replaceChildren(new Option(o.error, "")); return; }
  sel.replaceChildren(...o.records.map(x => new Option(`#${x.index} ${x.about}`, x.index)));
  if (o.more) sel.append(new Option(`(more games in the file: give a key)`, ""));
}

function start(msg) {
  if (ws) ws.close();
  mode = msg.mode; last = null; started = null; waiting = false;
  $("#log").replaceChildren();
  $("#over").hidden = true;
  $("#setup").hidden = true;
  $("#game").hidden = false;
  $("#controls").replaceChildren();
  ["#side-top", "#side-bottom", "#hand", "#decision", "#stack", "#choices", "#battle"].forEach(s => $(s).replaceChildren());
  status("connecting...");
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}/ws`);
  ws = sock;
  sock.onopen = () => { sock.send(JSON.stringify(msg)); status("starting..."); };
  sock.onmessage = ev => { if (sock === ws) receive(JSON.parse(ev.data)); };
  sock.onclose = () => { if (sock === ws) status("disconnected: start a new game from the tabs"); };
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  ws.send(JSON.stringify(msg));
}

function status(text) { $("#status").textContent = text; }

// ------------------------------------------------------------ messages
function receive(m) {
  if (m.type === "error") {
    waiting = false;
    logLine(m.message, "err");
    status(m.message);
    if (!started) { showBack(); }
    return;
  }
  if (m.type === "started") { started = m; controls(); describeStart(m); return; }
  if (m.type === "control") { if (last) { last.paused = m.paused; last.delay = m.delay; } controls(); return; }
  if (m.type === "state") { waiting = false; state(m); }
}

function showBack() {
  const back = el("button", "", "Back to the setup");
  back.onclick = () => showTab(mode);
  $("#decision").replaceChildren(back);
}

function describeStart(m) {
  if (m.mode === "play") logLine(`You are ${m.you}, playing ${m.decks[m.you]}, against ${m.vs} (seed ${m.seed})`, "turn");
  if (m.mode === "watch") logLine(`A: ${m.agents[0]}${m.decks.A ? ", " + m.decks.A : ""} vs B: ${m.agents[1]}${m.decks.B ? ", " + m.decks.B : ""} (seed ${m.seed})`, "turn");
  if (m.mode === "replay") logLine(m.about, "turn");
}

function state(m) {
  last = m;
  document.body.dataset.states = String(+(document.body.dataset.states || 0) + 1);  // for tests
  if (m.reset) $("#log").replaceChildren();
  for (const e of m.log) {
    if (e.turn) logLine(e.turn, "turn");
    else if (e.forced) logLine("Taken for you (your only choice): " + e.forced, "forced");
    else logLine(e.line, "");
  }
  drawBoard(m);
  drawDecision(m);
  controls();
  const over = $("#over");
  if (m.over) {
    over.hidden = false;
    over.replaceChildren(el("div", "", `${m.over.verdict} Game over after ${m.over.turns} turns.`),
      el("div", "why", m.over.text));
    const again = el("button", "", "New game"); again.onclick = () => showTab(mode);
    over.append(again);
    status(m.over.verdict);
  } else {
    over.hidden = true;
    const d = m.decision;
    status(d && d.mine ? "your move" : mode === "play" ? "opponent is deciding..." : m.where);
  }
}

function logLine(text, cls) {
  const log = $("#log");
  const prev = log.lastElementChild;
  const tag = /^\[[\w ]+\] /.exec(text);
  if (!cls && tag && prev && !prev.className && prev.textContent.startsWith(tag[0])) {
    prev.textContent += "; " + text.slice(tag[0].length);  // the same phase goes on: one line
  } else {
    log.append(el("div", cls, text));
  }
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------ the board
function optionsByPlace(m) {
  const by = new Map();
  const d = m.decision;
  if (!d || !d.mine) return by;
  for (const o of d.options) {
    if (!o.place) continue;
    if (!by.has(o.place)) by.set(o.place, []);
    by.get(o.place).push(o);
  }
  return by;
}

function drawBoard(m) {
  const b = m.board;
  const me = typeof b.seat === "number" ? b.seat : 0;
  const by = optionsByPlace(m);
  $("#where").textContent = m.where + (m.at !== undefined ? `  |  action ${m.at}/${m.total}` : "")
    + (m.last ? `  |  last: ${m.last}` : "");
  $("#battle").textContent = b.battle ? b.battle.text : "";
  drawSide($("#side-top"), b.sides[1 - me], b, by, true);
  drawSide($("#side-bottom"), b.sides[me], b, by, false);
  const hand = $("#hand");
  hand.className = "hand";
  const mine = b.sides[me];
  hand.replaceChildren(...(mine.hand || []).map(c => cardEl(c, by)));
  if (mine.hand && typeof b.seat !== "number") hand.prepend(el("span", "muted", `${"AB"[me]}'s hand:`));
  if (!mine.hand) hand.replaceChildren(el("span", "muted", `${"AB"[me]}'s hand: ${mine.hand_count} cards`));
  $("#stack").replaceChildren(...b.stack.slice().reverse().map(s => {
    const it = el("div", "stackitem", `${"AB"[s.controller]}: ${s.title}` + (s.targets_text ? ` -> ${s.targets_text}` : ""));
    it.dataset.place = `stack${s.index}`;
    hookPlace(it, by, s.card ? s.card.tip : "face-down card");
    return it;
  }));
  const cards = b.decision && b.decision.cards ? b.decision.cards : [];
  $("#choices").replaceChildren(...cards.map(c => cardEl(c, by)));
}

function drawSide(box, side, b, by, top) {
  const P = "AB"[side.player];
  const info = el("div", "info");
  const you = typeof b.seat === "number" && b.seat === side.player ? " (you)" : "";
  info.append(el("div", `pname p${P}`, `${P}${you}`));
  const host = el("div", "card hostcard");
  host.dataset.place = `${P}.host`;
  const h = side.host;
  host.append(el("div", "nm", h.name || "hidden Host"));
  if (h.health !== null && h.health !== undefined) {
    host.append(el("div", "", `Health ${Math.max(0, h.health - side.damage_count)}/${h.health}  Soul ${h.soul}`));
  }
  hookPlace(host, by, h.name ? `${h.name} | Host (${h.resource})${h.health !== null ? ` | health ${h.health}, soul ${h.soul}` : ""} | ${h.text}` : "a hidden Host");
  info.append(host);
  const pool = Object.entries(side.pool).filter(([, n]) => n).map(([r, n]) => `${n}${r}`).join(" ") || "-";
  const kv = (k, v) => { const d = el("div", "kv"); d.append(el("span", "", k), el("b", "", v)); return d; };
  info.append(kv("AP", side.ap), kv("Pool", pool), kv("Hand", side.hand_count), kv("Deck", side.deck),
    kv("Damage", side.damage_count), kv("Drop", side.drop.length), kv("Banished", side.banished.length));
  if (side.damage && side.damage.length) info.title = "Damage zone: " + side.damage.map(c => c.name).join(", ");
  if (top && side.hand && side.hand.length) info.append(el("div", "muted", "Hand: " + side.hand.map(c => c.name).join(", ")));
  const dropNames = side.drop.map(c => c.name).join(", ");
  if (dropNames) info.append(el("div", "muted", "Drop: " + dropNames));
  const rows = el("div", "rows");
  const front = el("div", "row"), back = el("div", "row"), forms = el("div", "row");
  front.append(el("div", "rowlabel", "front row"));
  back.append(el("div", "rowlabel", "back row"));
  side.front.forEach((c, i) => front.append(c ? cardEl(c, by) : slotEl(`${P}.f${i}`, by)));
  side.back.forEach((c, i) => back.append(c ? cardEl(c, by) : slotEl(`${P}.b${i}`, by)));
  if (side.forms.length) { forms.append(el("div", "rowlabel", "forms")); side.forms.forEach(c => forms.append(cardEl(c, by))); }
  if (top) rows.append(back, front); else rows.append(front, back);
  if (side.forms.length) rows.append(forms);
  box.replaceChildren(info, rows);
}

function slotEl(place, by) {
  const s = el("div", "slot", place.split(".")[1]);
  s.dataset.place = place;
  hookPlace(s, by, "empty slot " + place);
  return s;
}

function cardEl(c, by) {
  if (c.name === null) {
    const e = el("div", "card back", c.face_down ? "face down" : "?");
    e.dataset.place = c.place;
    hookPlace(e, by, c.face_down ? "a face-down card" : "a hidden card");
    return e;
  }
  const e = el("div", "card");
  e.dataset.place = c.place;
  const top = el("div", "top");
  top.append(el("div", "nm", c.name));
  if (c.cost) top.append(el("span", "cost", c.cost));
  e.append(top);
  e.append(el("div", "ty", c.type === "entity" && c.subtypes.length ? c.subtypes.join(" ") : c.type));
  const tags = [];
  if (c.keywords.length) tags.push(c.keywords.join(", ").replaceAll("_", " "));
  if (c.sick) tags.push("sick");
  if (c.attacked) tags.push("attacked");
  if (c.face_down) tags.push("face down");
  if (tags.length) e.append(el("div", "tag", tags.join(" | ")));
  e.append(el("div", "tx", c.text));
  if (c.type === "entity" || c.type === "token") {
    const st = el("div", "st");
    st.append(el("span", "pw", `P${c.power}`), el("span", "hp", `H${c.health - c.damage}/${c.health}`));
    e.append(st);
    if (c.damage) e.classList.add("hurt");
  }
  if (c.attacked) e.classList.add("done");
  for (const mk of c.markers || []) {
    const me = el("div", "tag", "+ " + (mk.name || "face-down marker"));
    me.dataset.place = mk.place;
    hookPlace(me, by, mk.tip || "face-down marker");
    e.append(me);
  }
  hookPlace(e, by, c.tip);
  return e;
}

function hookPlace(node, by, tip) {
  node.title = tip || "";
  node.addEventListener("mouseenter", () => { $("#cardinfo").textContent = (tip || "").split(" | ").join("\n"); });
  const opts = by.get(node.dataset.place);
  if (!opts) return;
  node.classList.add("can");
  node.title = (tip ? tip + "\n\n" : "") + "Click: " + opts.map(o => o.label).join(" / ");
  node.addEventListener("click", ev => {
    ev.stopPropagation();
    if (opts.length === 1) act(opts[0].a); else menu(ev, opts);
  });
}

function menu(ev, opts) {
  const m = $("#menu");
  m.replaceChildren(...opts.map(o => {
    const b = el("button", "", o.label);
    b.onclick = e => { e.stopPropagation(); m.hidden = true; act(o.a); };
    return b;
  }));
  m.hidden = false;
  m.style.left = Math.min(ev.clientX, innerWidth - 220) + "px";
  m.style.top = Math.min(ev.clientY, innerHeight - 40 * opts.length) + "px";
}

// ------------------------------------------------------------ the decision
function drawDecision(m) {
  const box = $("#decision");
  const d = m.decision;
  box.className = "";
  if (!d) { box.replaceChildren(); if (m.over) return; return; }
  if (!d.mine) {
    const who = mode === "play" ? "The opponent" : d.player;
    box.replaceChildren(el("div", "title", `${who} to decide: ${d.kind.replaceAll("_", " ")}`));
    if (m.next) box.append(el("div", "prompt", `recorded: ${m.next}`));
    const n = d.options.length;
    if (mode !== "play" && n) box.append(el("div", "prompt", `${n} legal action${n === 1 ? "" : "s"}`));
    return;
  }
  box.className = "mine";
  box.replaceChildren(el("div", "title", d.title));
  if (d.prompt) box.append(el("div", "prompt", d.prompt));
  const loose = d.options.filter(o => !o.place);
  const placed = d.options.filter(o => o.place);
  if (placed.length) box.append(el("div", "prompt", `Click a highlighted card or slot (${placed.length} choices), or:`));
  const btns = el("div", "btns");
  loose.forEach((o, i) => {
    const b = el("button", o.kind === "pass" ? "pass" : "", `${i < 9 ? i + 1 + ". " : ""}${o.label}`);
    b.dataset.action = o.a;
    b.onclick = () => act(o.a);
    btns.append(b);
  });
  box.append(btns);
  const all = el("details");
  all.append(el("summary", "", `All ${d.options.length} legal actions`));
  const list = el("div", "btns");
  d.options.forEach(o => { const b = el("button", "", o.label); b.title = o.a; b.dataset.action = o.a; b.onclick = () => act(o.a); list.append(b); });
  all.append(list);
  box.append(all);
}

function act(a) {
  if (mode !== "play" || !last || !last.decision || !last.decision.mine || waiting) return;
  waiting = true;
  $("#menu").hidden = true;
  status("...");
  send({ type: "act", action: a });
}

function confirmOption(d) {
  const o = d.options;
  return o.find(x => x.kind === "yes") || o.find(x => x.a === "pay auto") || (o.length === 1 ? o[0] : null);
}

// ------------------------------------------------------------ watch and replay controls
function controls() {
  const c = $("#controls");
  if (mode === "play") {
    if (!last || last.over) { c.replaceChildren(); return; }
    const give = el("button", "", "Concede");
    give.onclick = () => { if (confirm("Give up this game?")) send({ type: "concede" }); };
    c.replaceChildren(give);
    return;
  }
  if (mode === "watch" && last) {
    const p = el("button", "", last.paused ? "Resume" : "Pause");
    p.id = "pause";
    p.onclick = () => send({ type: last.paused ? "resume" : "pause" });
    const s = el("button", "", "Step");
    s.id = "step"; s.disabled = !last.paused || !!last.over;
    s.onclick = () => send({ type: "step" });
    const speed = el("input"); speed.type = "range"; speed.min = "0"; speed.max = "100";
    speed.value = String(Math.round(100 - Math.log10(last.delay / 0.02) / Math.log10(500) * 100));
    speed.title = `${last.delay.toFixed(2)} s between actions`;
    speed.onchange = () => send({ type: "speed", delay: +(0.02 * Math.pow(500, (100 - speed.value) / 100)).toFixed(3) });
    c.replaceChildren(p, s, el("span", "muted", "speed"), speed);
  }
  if (mode === "replay" && last) {
    const b = (label, id, msg, off) => { const x = el("button", "", label); x.id = id; x.disabled = off; x.onclick = () => send(msg); return x; };
    const atStart = last.at === 0, atEnd = last.at === last.total;
    const pos = el("input"); pos.type = "range"; pos.min = "0"; pos.max = String(last.total); pos.value = String(last.at);
    pos.onchange = () => send({ type: "seek", to: +pos.value });
    const side = el("select");
    [["spectator", "spectator"], ["all", "every card"], ["A", "A"], ["B", "B"]].forEach(([v, t]) => side.append(new Option(t, v)));
    side.value = last.seat;
    side.onchange = () => send({ type: "side", side: side.value });
    c.replaceChildren(b("|<", "first", { type: "seek", to: 0 }, atStart), b("<< turn", "prevturn", { type: "turn", by: -1 }, atStart),
      b("< step", "back", { type: "step", by: -1 }, atStart), b("step >", "fwd", { type: "step", by: 1 }, atEnd),
      b("turn >>", "nextturn", { type: "turn", by: 1 }, atEnd), b(">|", "last", { type: "seek", to: last.total }, atEnd), pos, side);
  }
}

// ------------------------------------------------------------ keys
document.addEventListener("keydown", ev => {
  if (ev.target.matches("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") { $("#menu").hidden = true; return; }
  if (!last || $("#game").hidden) return;
  if (mode === "replay") {
    if (ev.key === "ArrowRight") send({ type: "step", by: 1 });
    else if (ev.key === "ArrowLeft") send({ type: "step", by: -1 });
    else return;
    ev.preventDefault(); return;
  }
  if (mode === "watch") {
    if (ev.key === " ") { send({ type: last.paused ? "resume" : "pause" }); ev.preventDefault(); }
    else if (ev.key === "ArrowRight" && last.paused) send({ type: "step" });
    return;
  }
  const d = last.decision;
  if (!d || !d.mine) return;
  let o = null;
  if (ev.key === " " || ev.key === "p") o = d.options.find(x => x.kind === "pass");
  else if (ev.key === "Enter" || ev.key === "y") o = confirmOption(d);
  else if (/^[1-9]$/.test(ev.key)) {
    const btn = $$("#decision > .btns button")[+ev.key - 1];
    if (btn) o = { a: btn.dataset.action };
  }
  if (o) { ev.preventDefault(); act(o.a); }
});

document.addEventListener("click", () => { $("#menu").hidden = true; });

// ------------------------------------------------------------ forms
$$(".tab").forEach(b => b.addEventListener("click", () => showTab(b.dataset.tab)));
$("#results").addEventListener("change", loadRecords);
$("#form-play").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  const mine = f.get("deck0"), theirs = f.get("deck1");
  const seat = f.get("seat");
  start({ type: "start", mode: "play", vs: f.get("vs"), seat, seed: +f.get("seed"),
    decks: seat === "A" ? [mine, theirs] : [theirs, mine] });
});
$("#form-watch").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  start({ type: "start", mode: "watch", agents: [f.get("a"), f.get("b")], seed: +f.get("seed"),
    decks: [f.get("deck0"), f.get("deck1")], side: f.get("side"), delay: 0.5 });
});
$("#form-replay").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  const msg = { type: "start", mode: "replay", file: f.get("file"), side: f.get("side") };
  if (f.get("key")) msg.key = f.get("key"); else msg.index = +(f.get("index") || 0);
  start(msg);
});
loadOptions().catch(e => status("cannot load the options: " + e));
