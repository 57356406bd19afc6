// gridarena replay viewer: plain ES module, no imports, so the one-file export can inline it as is.
// It reads the replay from <script type="application/json" id="replay-data"> and draws frame N either
// from data.frames[N] (the export: every SVG inline) or from data.source.frame_url + N (the server).

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16]; // 1x = two plies per second
const COLOURS = ["#d35400", "#2471a3", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d", "#f1c40f"];
const KEYS = [
  ["Space", "play / pause"], ["← →", "one ply back / forward"], ["Shift + ← →", "ten plies back / forward"],
  ["Home End", "start / end"], ["- +", "slower / faster"], ["d", "debug overlays (legal cells) on / off"],
  ["c", "copy a link to this ply"], ["?", "this help"], ["Esc", "close the help"],
];

const MARKS = { blunder: "??", mistake: "?", inaccuracy: "?!", slower: "…", faster: "…", wasted: "+2" };
const KIND_TEXT = {
  result: "the first player's view: +1 won, −1 lost, estimates between (hollow points)",
  distance: "slides still needed to reach the goal",
  score: "the points best would score from here",
};
const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const $ = (sel, root = document) => root.querySelector(sel);
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function fmtMs(v) { return typeof v === "number" ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : "–"; }

export class Viewer {
  constructor(root, data) {
    this.root = root;
    this.data = data;
    this.turns = data.turns || [];
    this.plies = data.plies ?? this.turns.length;
    this.names = (data.header.players || []).map((p) => p.name);
    // The game's words (the server's frames.words): result sentence, parameters, seat colours, specs, and the
    // plies played before the first stored one (an opening), so the counts here are the board's.
    this.words = data.words || {};
    this.first = this.words.first_ply || 0;
    this.colours = this.names.map((_, i) => ((this.words.seats || [])[i] || {}).colour || COLOURS[i % COLOURS.length]);
    this.cache = new Map();
    this.ply = 0;
    this.speed = 2; // index of 1x
    this.timer = null;
    this.build();
    const wanted = this.requestedPly();
    this.go(wanted.ply, { notice: wanted.notice });
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  // Ply numbers as people see them: the board's count, which includes an opening played before the replay's first turn.
  shownPly(ply) { return this.first + ply; }

  requestedPly() {
    const params = new URLSearchParams(location.search || location.hash.replace(/^#/, "?"));
    const raw = params.get("ply") ?? params.get("turn");
    if (raw === null) return { ply: 0 };
    const n = Number.parseInt(raw, 10);
    if (!Number.isFinite(n)) return { ply: 0, notice: `?ply=${raw} is not a number: showing the start` };
    const ply = Math.max(0, Math.min(this.plies, n - this.first));
    const last = this.shownPly(this.plies);
    return { ply, notice: this.shownPly(ply) !== n ? `ply ${n} is outside ${this.first}–${last}: showing ply ${this.shownPly(ply)}` : null };
  }

  playerLine() {
    const players = el("span", { class: "players", id: "players" });
    const specs = this.words.specs || [];
    this.names.forEach((name, i) => {
      const seat = (this.words.seats || [])[i];
      const title = [seat ? `${seat.colour_name}` : "", specs[i] ? `spec: ${specs[i]}` : ""].filter(Boolean).join(" · ");
      // a swatch only where the board draws the seat in a colour of its own
      const swatch = seat ? el("span", { class: "swatch", style: `background:${seat.colour}` }) : "";
      players.append(el("span", { class: "player", title, "data-seat": String(i), "data-colour": seat ? seat.colour : "" },
        swatch, `${i + 1}: ${name}`), i + 1 < this.names.length ? " · " : "");
    });
    return players;
  }

  optionTable() {
    const rows = this.words.options || [];
    if (!rows.length) return el("span", {});
    return el("table", { class: "options", id: "options" }, ...rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v))));
  }

  build() {
    const h = this.data.header;
    const r = this.data.result;
    const players = this.playerLine();
    const seed = this.data.seed_text ?? String(h.seed); // as text: a 64-bit seed loses digits as a JS number
    const seedBox = el("span", { class: "seed" }, "seed ", el("code", { id: "seed" }, seed),
      el("button", { class: "copy", id: "copy-seed", title: "copy the seed", onclick: () => this.copy(seed, "seed copied") }, "copy"));
    const result = this.words.result || (r ? `${r.reason || r.termination}` : "no result: the replay stops before the end");
    const where = h.tournament != null ? `tournament ${h.tournament}, block ${h.block}, game ${h.game_index}` : "";
    this.root.append(
      el("div", { class: "gamehead" },
        el("div", { class: "headline" }, el("h1", {}, `${h.game}`), players),
        el("p", { id: "result", class: "result", "data-termination": r ? r.termination : "" }, result),
        el("div", { class: "facts" }, this.optionTable(),
          el("div", { class: "about" }, seedBox, this.data.source && this.data.source.kind === "tournament"
            ? el("a", { id: "tournament-link", href: `/tournaments/${h.tournament}` }, where)
            : el("span", { class: "muted" }, where),
          el("span", { class: "muted" }, `gridarena ${h.gridarena || "?"}${h.time_control ? ` · time ${h.time_control}` : ""}`)))),
    );
    if (this.data.problem) this.root.append(el("div", { class: "notice" }, this.data.problem));
    this.noticeBox = el("div", { class: "notice", id: "notice", hidden: "" });
    this.root.append(this.noticeBox);
    this.board = el("div", { id: "board" });
    this.range = el("input", { type: "range", id: "scrub", min: "0", max: String(this.plies), value: "0", "aria-label": "ply" });
    this.range.addEventListener("input", () => this.go(Number(this.range.value)));
    this.playButton = el("button", { id: "play", title: "play / pause (Space)", onclick: (e) => { this.toggle(); e.currentTarget.blur(); } }, "▶");
    this.speedSelect = el("select", { id: "speed", title: "speed (- +)" }, ...SPEEDS.map((s, i) => el("option", { value: String(i) }, `${s}×`)));
    this.speedSelect.value = String(this.speed);
    this.speedSelect.addEventListener("change", () => this.setSpeed(Number(this.speedSelect.value)));
    this.label = el("span", { id: "ply-label" });
    const btn = (id, text, title, fn) => el("button", { id, title, onclick: (e) => { fn(); e.currentTarget.blur(); } }, text);
    const controls = el("div", { class: "controls" },
      btn("first", "|«", "start (Home)", () => this.go(0)),
      btn("back10", "−10", "10 back (Shift+←)", () => this.go(this.ply - 10)),
      btn("back", "‹", "back (←)", () => this.go(this.ply - 1)),
      this.playButton,
      btn("forward", "›", "forward (→)", () => this.go(this.ply + 1)),
      btn("forward10", "+10", "10 forward (Shift+→)", () => this.go(this.ply + 10)),
      btn("last", "»|", "end (End)", () => this.go(this.plies)),
      this.range, this.speedSelect, this.label,
      btn("overlays", "d", "debug overlays (d)", () => this.board.classList.toggle("no-overlay")),
      btn("link", "link", "copy a link to this ply (c)", () => this.copy(this.link(), "link copied")),
      btn("help", "?", "keyboard shortcuts (?)", () => this.help(true)));
    this.evalBox = el("div", { id: "eval" });
    this.analysis = null;
    this.byPly = new Map();
    this.current = el("div", { id: "current" });
    this.banner = el("div", { class: "banner", id: "banner", hidden: "" });
    this.moves = el("ol", { class: "moves", id: "moves" });
    const mover = (p) => (p >= 0 ? (this.names[p] ?? `player ${p + 1}`) : "chance");
    const opening = this.words.opening || [];
    opening.forEach((t, i) => {
      this.moves.append(el("li", { class: "opening", "data-opening": String(i + 1), title: "the opening, played before the players' first move", onclick: () => this.go(0) },
        el("span", { class: "n" }, String(i + 1)), el("span", { class: "what" }, `${mover(t.player)}: ${t.action}`, el("span", { class: "muted" }, " (opening)"))));
    });
    if (!opening.length && this.first > 0) {
      this.moves.append(el("li", { class: "opening", "data-opening": "1", onclick: () => this.go(0) },
        el("span", { class: "n" }, this.first > 1 ? `1–${this.first}` : "1"), el("span", { class: "what" }, "the opening (not recorded in this replay)")));
    }
    this.turns.forEach((t, i) => {
      this.moves.append(el("li", { "data-ply": String(i + 1), onclick: () => this.go(i + 1) },
        el("span", { class: "n" }, String(this.shownPly(i + 1))), el("span", { class: "what" }, `${mover(t.player)}: ${t.action}`)));
    });
    this.moveItems = [...this.moves.querySelectorAll("li[data-ply]")];
    this.root.append(el("div", { class: "viewer" },
      el("section", {}, this.board, controls, this.evalBox),
      el("aside", { class: "panel" }, this.banner, el("h3", {}, "This ply"), this.current, el("h3", {}, "Moves"), this.moves)));
    const keys = el("table", {}, ...KEYS.map(([k, what]) => el("tr", {}, el("td", {}, el("kbd", {}, k)), el("td", {}, what))));
    this.helpBox = el("div", { class: "overlay-help", id: "help-overlay", hidden: "", onclick: () => this.help(false) },
      el("div", {}, el("h3", {}, "Keyboard shortcuts"), keys));
    document.body.append(this.helpBox);
    this.setUpAnalysis();
  }

  setUpAnalysis() {
    if (this.data.analysis) { this.showAnalysis(this.data.analysis); return; }
    const url = this.data.source && this.data.source.analysis_url;
    if (!url) return;
    const button = el("button", { id: "analyse", title: "analyse the game: evaluation graph and marked moves", onclick: () => this.loadAnalysis(url) }, "evaluation graph");
    this.evalBox.replaceChildren(button);
    if (new URLSearchParams(location.search).get("analysis") === "1") this.loadAnalysis(url);
  }

  async loadAnalysis(url) {
    this.evalBox.replaceChildren(el("p", { class: "muted", id: "eval-status" }, "analysing the whole game… (a few seconds a move at most, once: the answer is kept)"));
    try {
      const r = await fetch(url);
      const body = await r.json();
      if (!r.ok) throw new Error(body.error || `${r.status}`);
      this.showAnalysis(body);
    } catch (err) {
      this.evalBox.replaceChildren(el("p", { class: "error", id: "eval-status" }, `no analysis: ${err.message}`),
        el("button", { id: "analyse", onclick: () => this.loadAnalysis(url) }, "try again"));
    }
  }

  showAnalysis(analysis) {
    this.analysis = analysis;
    this.byPly = new Map(analysis.plies.map((p) => [p.ply, p]));
    for (const li of this.moveItems) {
      const p = this.byPly.get(Number(li.dataset.ply) - 1);
      if (!p) continue;
      const noise = p.error ? ` (± ${Number(p.error).toFixed(2)})` : "";
      li.title = `${p.before_text} → ${p.after_text}${noise}${p.best && p.best !== p.action ? ` (best ${p.best})` : ""}`;
      if (p.mark) {
        li.classList.add("marked", `mark-${p.mark}`);
        li.dataset.mark = p.mark;
        (li.querySelector(".what") || li).append(el("span", { class: "mark" }, ` ${MARKS[p.mark] || ""} ${p.mark}`));
      }
    }
    this.evalBox.replaceChildren(this.graph(analysis));
    this.cursor(this.ply);
    this.panel(this.ply);
  }

  graph(analysis) {
    const W = 640, H = 150, PAD = 8;
    const points = analysis.graph.flatMap((s) => s.points);
    let lo = -1, hi = 1;
    if (analysis.kind !== "result") { // distances from 0; scores around what was reached, so regrets show
      const values = points.map((p) => p[1]).filter(Number.isFinite);
      lo = analysis.kind === "distance" ? 0 : Math.min(...values) - 1;
      hi = Math.max(lo + 1, ...values) + (analysis.kind === "distance" ? 0 : 1);
    }
    const x = (ply) => PAD + (W - 2 * PAD) * ply / Math.max(1, this.plies);
    const y = (v) => H - PAD - (H - 2 * PAD) * (Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo || 1);
    const svg = svgEl("svg", { id: "eval-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "evaluation graph", "data-kind": analysis.kind });
    svg.append(svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "eval-bg" }));
    if (lo < 0 && hi > 0) svg.append(svgEl("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "eval-zero" }));
    const label = (v, at) => { const t = svgEl("text", { x: PAD + 2, y: at, class: "eval-label" }); t.textContent = analysis.kind === "result" ? (v > 0 ? "+1" : "−1") : String(Math.round(v)); return t; };
    svg.append(label(hi, PAD + 10), label(lo, H - PAD - 2));
    this.cursorLine = svgEl("line", { y1: PAD, y2: H - PAD, class: "eval-cursor" });
    svg.append(this.cursorLine);
    svg.addEventListener("click", (e) => {
      if (e.target.dataset && e.target.dataset.ply !== undefined) return;
      const box = svg.getBoundingClientRect();
      const ply = Math.round((((e.clientX - box.left) / box.width) * W - PAD) / (W - 2 * PAD) * this.plies);
      this.go(ply);
    });
    for (const series of analysis.graph) {
      const colour = analysis.graph.length > 1 || analysis.kind !== "result" ? this.colours[series.seat] || COLOURS[series.seat % COLOURS.length] : "#34495e";
      svg.append(svgEl("polyline", { points: series.points.map((p) => `${x(p[0])},${y(p[1])}`).join(" "), class: "eval-line", stroke: colour }));
      for (const [ply, value, exact, mark] of series.points) {
        const dot = svgEl("circle", { cx: x(ply), cy: y(value), r: mark ? 5 : 3, "data-ply": ply, "data-value": value,
          class: `eval-point${exact ? " exact" : ""}${mark ? ` mark-${mark}` : ""}`, stroke: colour, fill: exact ? colour : "#fff" });
        const title = svgEl("title");
        title.textContent = `ply ${this.shownPly(ply)}: ${Number(value).toFixed(2)}${mark ? ` (${mark})` : ""}`;
        dot.append(title);
        dot.addEventListener("click", () => this.go(ply));
        svg.append(dot);
      }
    }
    const many = analysis.graph.length > 1;
    const names = many ? ` (a line per player: ${analysis.graph.map((s) => this.names[s.seat] ?? s.seat).join(", ")})` : "";
    const kind = many && analysis.kind === "result" ? "each player's value: +1 first, −1 last, estimates between" : KIND_TEXT[analysis.kind] || analysis.kind;
    const caption = el("p", { class: "muted eval-caption" }, `${kind}${names}; click a point to go to that ply`,
      analysis.complete === false ? " · the time ran out: later moves are not analysed" : "",
      analysis.source ? ` · ${analysis.source}` : "");
    return el("div", {}, svg, caption, this.playerTable(analysis));
  }

  playerTable(analysis) {
    const rows = Object.entries(analysis.players || {}).map(([name, f]) => el("tr", {}, el("td", {}, name), el("td", { class: "num" }, f.moves),
      el("td", { class: "num" }, f.blunders), el("td", { class: "num" }, f.mistakes), el("td", { class: "num" }, f.inaccuracies),
      el("td", { class: "num" }, analysis.kind === "distance" ? f.wasted : f.slower + f.faster), el("td", { class: "num" }, f.loss_per_move ?? "–")));
    const last = analysis.kind === "distance" ? "wasted" : "slower/faster";
    return el("table", { id: "eval-players" }, el("tr", {}, ...["player", "moves", "blunders", "mistakes", "inaccuracies", last, "loss per move"].map((h) => el("th", {}, h))), ...rows);
  }

  cursor(ply) {
    if (!this.cursorLine) return;
    const W = 640, PAD = 8;
    const cx = PAD + (W - 2 * PAD) * ply / Math.max(1, this.plies);
    this.cursorLine.setAttribute("x1", cx);
    this.cursorLine.setAttribute("x2", cx);
  }

  async frame(ply) {
    if (this.data.frames) return this.data.frames[ply];
    if (!this.cache.has(ply)) {
      const url = `${this.data.source.frame_url}${ply}`;
      this.cache.set(ply, fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${url}: ${r.status}`)))));
    }
    return this.cache.get(ply);
  }

  async go(ply, { notice = null } = {}) {
    ply = Math.max(0, Math.min(this.plies, Math.trunc(ply)));
    this.ply = ply;
    this.range.value = String(ply);
    this.label.textContent = `ply ${this.shownPly(ply)} / ${this.shownPly(this.plies)}`;
    this.showNotice(notice);
    this.panel(ply);
    this.cursor(ply);
    this.updateAddress();
    try {
      const svg = await this.frame(ply);
      if (this.ply === ply) { this.board.innerHTML = svg; this.board.dataset.ply = String(ply); }
    } catch (err) {
      this.board.textContent = `cannot draw ply ${ply}: ${err.message}`;
    }
    if (!this.data.frames) for (let k = 1; k <= 3; k++) if (ply + k <= this.plies) this.frame(ply + k);
  }

  panel(ply) {
    this.current.replaceChildren();
    for (const li of this.moveItems) li.classList.toggle("current", Number(li.dataset.ply) === ply);
    const cur = this.moveItems[ply - 1];
    if (cur) cur.scrollIntoView({ block: "nearest" });
    const r = this.data.result;
    const forfeit = r && r.termination && !["normal", "adjudicated"].includes(r.termination);
    this.banner.hidden = !(r && ply === this.plies);
    this.banner.classList.toggle("forfeit", Boolean(forfeit));
    if (r) this.banner.textContent = `game over: ${this.words.result || r.reason || r.termination}`;
    if (ply === 0) {
      this.current.append(el("p", { class: "muted" }, this.first ? `the position after the opening (ply ${this.first})` : "the start position"));
      return;
    }
    const t = this.turns[ply - 1];
    const dl = el("dl", {});
    const row = (k, v) => dl.append(el("dt", {}, k), el("dd", {}, v));
    row("ply", `${this.shownPly(ply)} of ${this.shownPly(this.plies)}`);
    row("mover", t.player >= 0 ? `${this.names[t.player] ?? t.player} (seat ${t.player + 1})` : "chance");
    row("action", el("code", { id: "action" }, t.action));
    const limit = this.data.limit_ms;
    const bar = el("div", { class: "timebar" });
    if (typeof t.wall_ms === "number" && limit) {
      const share = t.wall_ms / limit;
      bar.append(el("div", { class: share > 1 ? "over" : "", style: `width:${Math.min(100, share * 100)}%` }));
    }
    row("time", el("span", {}, `${fmtMs(t.wall_ms)} wall, ${fmtMs(t.cpu_ms)} cpu${limit ? ` of ${limit} ms` : ""}`, bar));
    if (t.left_ms != null) row("left", fmtMs(t.left_ms));
    for (const [k, v] of Object.entries(t.info || {})) row(k, typeof v === "object" ? JSON.stringify(v) : String(v));
    const a = this.byPly.get(ply - 1);
    if (a) {
      row("value", el("span", { id: "analysis-value" }, `${a.before_text} → ${a.after_text}${a.error ? ` (± ${Number(a.error).toFixed(2)})` : ""}`));
      if (a.mark) row("mark", el("span", { id: "analysis-mark", class: `mark-${a.mark}` }, a.mark));
      if (a.best && a.best !== a.action) row("best", el("code", {}, a.best));
    }
    this.current.append(dl);
  }

  showNotice(text) {
    this.noticeBox.hidden = !text;
    this.noticeBox.textContent = text || "";
  }

  link() {
    const url = new URL(location.href);
    url.searchParams.delete("turn");
    url.searchParams.set("ply", String(this.shownPly(this.ply)));
    return url.toString();
  }

  updateAddress() {
    try { history.replaceState(null, "", this.link()); } catch { location.hash = `ply=${this.shownPly(this.ply)}`; }
  }

  copy(text, done) {
    const ok = () => this.showNotice(done);
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(ok, () => this.showNotice(text));
    else this.showNotice(text);
  }

  setSpeed(i) {
    this.speed = Math.max(0, Math.min(SPEEDS.length - 1, i));
    this.speedSelect.value = String(this.speed);
    if (this.timer) { this.pause(); this.play(); }
  }

  play() {
    if (this.ply >= this.plies) this.go(0);
    this.playButton.textContent = "❚❚";
    this.timer = setInterval(() => {
      if (this.ply < this.plies) this.go(this.ply + 1);
      if (this.ply >= this.plies) this.pause(); // stop on the last ply, not one tick later
    }, 500 / SPEEDS[this.speed]);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "▶";
  }

  toggle() { if (this.timer) this.pause(); else this.play(); }

  help(show) { this.helpBox.hidden = !show; }

  onKey(e) {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.target instanceof HTMLSelectElement) return;
    const step = e.shiftKey ? 10 : 1;
    const actions = {
      " ": () => this.toggle(), ArrowLeft: () => this.go(this.ply - step), ArrowRight: () => this.go(this.ply + step),
      Home: () => this.go(0), End: () => this.go(this.plies), "-": () => this.setSpeed(this.speed - 1),
      "+": () => this.setSpeed(this.speed + 1), "=": () => this.setSpeed(this.speed + 1),
      d: () => this.board.classList.toggle("no-overlay"), c: () => this.copy(this.link(), "link copied"),
      "?": () => this.help(this.helpBox.hidden), Escape: () => this.help(false),
    };
    const fn = actions[e.key];
    if (fn) { e.preventDefault(); fn(); }
  }
}

const source = document.getElementById("replay-data");
if (source) {
  window.gridarenaViewer = new Viewer(document.getElementById("viewer"), JSON.parse(source.textContent));
}
