// One tournament: standings with Elo and intervals, crosstable, forfeits with reasons, per-bot time,
// and every game linked to its replay. The data is /api/tournaments/ID (the report of
// `gridarena results --json` plus the games); while the tournament runs, server-sent events push it again.

const root = document.getElementById("tournament");
const id = root.dataset.id;

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
// A value that rounds to zero prints without its sign ("-0.0" reads as a bug).
// A player's name, its spec on hover (the specs are listed under "players' specs" too).
const specs = new Map();
const who = (name) => (specs.has(name) && specs.get(name) !== name
  ? `<span class="entrant" title="${esc(specs.get(name))}">${esc(name)}</span>` : `<span class="entrant">${esc(name)}</span>`);
const num = (v, digits = 1) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(digits).replace(/^-(0\.?0*)$/, "$1") : "–");

function standings(report) {
  const rows = report.standings || [];
  const single = rows.length && rows[0].wins === null;
  const head = single
    ? "<tr><th>player</th><th>runs</th><th>mean</th><th>sd</th><th>95% interval</th><th>failed</th></tr>"
    : "<tr><th>#</th><th>player</th><th>games</th><th>W</th><th>L</th><th>D</th><th>score</th><th>Elo</th><th>95% interval</th></tr>";
  const body = rows.map((r, i) => {
    if (single) {
      const ci = r.ci95 || [];
      const failed = Object.values(r.failures || {}).reduce((a, b) => a + b, 0);
      return `<tr><td>${who(r.player)}</td><td class="num">${r.games}</td><td class="num">${num(r.mean, 2)}</td>` +
        `<td class="num">${num(r.sd, 2)}</td><td class="num">${num(ci[0], 2)} … ${num(ci[1], 2)}</td><td class="num">${failed}</td></tr>`;
    }
    const ci = r.elo_ci95 || [];
    return `<tr><td>${i + 1}</td><td>${who(r.player)}</td><td class="num">${r.games}</td><td class="num">${r.wins}</td>` +
      `<td class="num">${r.losses}</td><td class="num">${r.draws}</td><td class="num">${num(r.score === null ? null : r.score * 100)}%</td>` +
      `<td class="num">${num(r.elo)}</td><td class="num">${num(ci[0])} … ${num(ci[1])}</td></tr>`;
  }).join("");
  return `<table id="standings">${head}${body}</table>`;
}

function crosstable(report) {
  const ct = report.crosstable;
  if (!ct || ct.entrants.length < 2) return "";
  const head = `<tr><th></th>${ct.entrants.map((e) => `<th>${esc(e)}</th>`).join("")}</tr>`;
  const body = ct.rows.map((row) => `<tr><th>${esc(row.player)}</th>${ct.entrants.map((o) => {
    const c = row.vs[o];
    return `<td class="num">${o === row.player ? "·" : c ? `${c.points}/${c.games}` : "–"}</td>`;
  }).join("")}</tr>`).join("");
  return `<h2>Crosstable</h2><table id="crosstable">${head}${body}</table>`;
}

function forfeits(report, games) {
  const counts = Object.entries(report.forfeits || {}).map(([name, reasons]) => {
    const total = Object.values(reasons).reduce((a, b) => a + b, 0);
    const parts = Object.entries(reasons).map(([k, v]) => `${v} ${k}`).join(", ");
    return `<li>${esc(name)}: ${total}${total ? ` (${esc(parts)})` : ""}</li>`;
  }).join("");
  const lost = games.filter((g) => !["normal", "adjudicated"].includes(g.termination));
  const details = lost.map((g) => `<li>block ${g.block} game ${g.game}: ${esc(g.seats[g.forfeit_seat] ?? "")} ` +
    `${esc(g.termination)}${g.detail ? ` — ${esc(g.detail)}` : ""}</li>`).join("");
  return `<h2>Forfeits</h2><ul id="forfeits">${counts}</ul>${details ? `<ul id="forfeit-details">${details}</ul>` : ""}`;
}

function bots(report) {
  const rows = Object.entries(report.bots || {}).map(([name, b]) => `<tr><td>${esc(name)}</td><td class="num">${b.moves}</td>` +
    `<td class="num">${num(b.wall_ms_mean, 2)}</td><td class="num">${num(b.wall_ms_p99, 2)}</td><td class="num">${num(b.wall_ms_max, 2)}</td>` +
    `<td class="num">${b.depth_max ?? "–"}</td></tr>`).join("");
  return `<h2>Time per move</h2><table id="bots"><tr><th>player</th><th>moves</th><th>mean ms</th><th>p99 ms</th><th>max ms</th><th>depth</th></tr>${rows}</table>`;
}

function entrantList(report) {
  const rows = (report.entrants || []).map((e) => `<tr><td>${esc(e.name)}</td><td><code>${esc(e.spec)}</code></td></tr>`).join("");
  return `<details id="entrants"><summary>players' specs</summary><table><tr><th>player</th><th>spec</th></tr>${rows}</table></details>`;
}

function gameList(games) {
  const rows = games.map((g) => {
    const result = esc(g.result);
    const analysis = g.url ? ` · <a class="analysis" href="${esc(g.url)}?analysis=1" title="${g.analysed ? "stored by gridarena analyze" : "analysed when opened, the whole game at up to a quarter of a second a position"}">analysis${g.analysed ? " ✓" : ""}</a>` : "";
    const link = g.url ? `<a href="${esc(g.url)}">view</a>${analysis}` : "no replay";
    return `<tr><td class="num">${g.block}</td><td class="num">${g.game}</td><td>${result}</td><td>${esc(g.termination)}</td>` +
      `<td class="num">${g.plies}</td><td>${link}</td></tr>`;
  }).join("");
  return `<h2>Games (${games.length})</h2><table id="games"><tr><th>block</th><th>game</th><th>result</th><th>termination</th><th>plies</th><th></th></tr>${rows}</table>`;
}

function liveList(live) {
  if (!live.length) return "";
  const rows = live.map((g) => `<tr><td class="num">${g.block}</td><td class="num">${g.game}</td>` +
    `<td class="num">${g.plies}</td><td>${g.url ? `<a href="${esc(g.url)}">watch</a> (reload for new moves)` : ""}</td></tr>`).join("");
  return `<h2>Being played (${live.length})</h2><table id="live-games"><tr><th>block</th><th>game</th><th>plies so far</th><th></th></tr>${rows}</table>`;
}

function render(data, live) {
  const r = data.report;
  for (const e of r.entrants || []) specs.set(e.name, e.spec);
  const players = (r.entrants || []).map((e) => who(e.name)).join(", ");
  root.innerHTML =
    `<h1>Tournament ${r.tournament}: ${esc(r.game_title ?? r.game)}</h1>` +
    `<p><span class="badge ${esc(r.status)}" id="status">${esc(r.status)}</span> ${live ? '<span class="badge live" id="live">live</span>' : ""} ` +
    `<span id="players">${players}</span> · seed <code>${esc(data.seed_text ?? r.seed)}</code> · ${r.blocks.done}/${r.blocks.scheduled} blocks done · ` +
    `<span id="game-count">${data.games.length}</span> games stored</p>` + entrantList(r) +
    standings(r) + (r.match_text ? `<pre id="match">${esc(r.match_text)}</pre>` : "") +
    liveList(data.live || []) + crosstable(r) + forfeits(r, data.games) + bots(r) + gameList(data.games);
}

async function main() {
  const response = await fetch(`/api/tournaments/${id}`);
  const data = await response.json();
  if (!response.ok) { root.innerHTML = `<p class="error">${esc(data.error)}</p>`; return; }
  render(data, data.report.status === "running");
  if (data.report.status !== "running") return;
  const events = new EventSource(`/api/tournaments/${id}/events`);
  events.addEventListener("report", (e) => {
    const fresh = JSON.parse(e.data);
    const running = fresh.report.status === "running";
    render(fresh, running);
    if (!running) events.close();
  });
}

main();
