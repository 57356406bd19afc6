// Play in the browser: the board is the game's own SVG; a click on an element with data-action posts
// that action (Isolation: a cell; sliding puzzle: a tile next to a blank) and the page shows the
// position after the bot's answer. "hint" asks the server which action its hint bot would play.
// The game's token is a cookie the server set when the game started (sent back to this game's routes
// only); without it the page watches. Each answer carries the moves from the ply the page has on.

const root = document.getElementById("play");
const id = root.dataset.id;
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

root.innerHTML = `<h1 id="title">play</h1><p id="status" class="muted"></p><p id="message" class="notice" hidden></p>
  <div class="viewer"><section><div id="board" class="playing"></div>
  <div class="controls"><button id="hint" hidden>hint</button><button id="resign" hidden>resign</button>
  <a id="replay-link" hidden>open the replay</a></div></section>
  <aside class="panel"><h3>Moves</h3><ol class="moves" id="moves"></ol></aside></div>`;
const board = document.getElementById("board");
const turns = [];
let busy = false;
let names = [];

function message(text) {
  const box = document.getElementById("message");
  box.hidden = !text;
  box.textContent = text || "";
}

function addTurns(s) {
  if (s.since > turns.length) return false; // a gap: the caller asks again from what the page has
  turns.length = s.since;
  turns.push(...s.turns);
  return true;
}

function show(s) {
  if (!addTurns(s)) return refresh(0);
  names = s.names;
  document.getElementById("title").textContent = `${s.game}: ${s.names.join(" vs ")}`;
  board.innerHTML = s.svg;
  board.dataset.plies = String(s.plies);
  let status;
  if (s.error) status = `error: ${s.error}`;
  else if (s.over) status = `game over: ${s.verdict || (s.result ? s.result.reason || s.result.termination : "")}`;
  else if (!s.yours) status = "watching (this game was started in another browser)";
  else status = s.your_turn ? "your move: click" : "the bot is thinking…";
  const line = document.getElementById("status");
  line.textContent = `ply ${s.plies} · ${status}`;
  line.dataset.over = String(s.over);
  line.dataset.yourTurn = String(s.your_turn && s.yours);
  const list = document.getElementById("moves");
  list.innerHTML = turns.map((t, i) =>
    `<li><span class="n">${i + 1}</span><span class="what">${esc(names[t.player] ?? "chance")}: ${esc(t.action)}</span></li>`).join("");
  document.getElementById("hint").hidden = !s.hint || s.over || !s.yours;
  document.getElementById("resign").hidden = s.over || !s.yours;
  const link = document.getElementById("replay-link");
  link.hidden = false;
  link.href = `/replays/view?path=${encodeURIComponent(`web/${s.replay}`)}`;
  if (!s.over && !s.error && !(s.your_turn && s.yours)) setTimeout(() => refresh(turns.length, 20), 0); // a move comes
}

async function call(url, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  for (;;) {
    const response = await fetch(url, options);
    const data = await response.json();
    if (response.status === 503 && response.headers.get("retry-after")) { // every worker is busy: wait and ask again
      message(data.error);
      await new Promise((done) => setTimeout(done, 1000 * Number(response.headers.get("retry-after"))));
      continue;
    }
    if (!response.ok) throw new Error(data.error || response.statusText);
    message("");
    return data;
  }
}

let polling = false;
async function refresh(since, wait = 0) {
  if (polling) return;
  polling = true;
  try {
    show(await call(`/api/play/${id}?since=${since}&wait=${wait}`));
  } catch (err) {
    message(err.message);
  } finally {
    polling = false;
  }
}

board.addEventListener("click", async (e) => {
  const target = e.target.closest("[data-action]");
  if (!target || busy) return;
  busy = true;
  message("");
  try {
    show(await call(`/api/play/${id}/move`, { action: target.dataset.action, since: turns.length }));
  } catch (err) {
    message(err.message);
  } finally {
    busy = false;
  }
});

document.getElementById("hint").addEventListener("click", async () => {
  try {
    const h = await call(`/api/play/${id}/hint`, {});
    const left = h.info && typeof h.info.length === "number" ? ` (${h.info.length} moves to the goal)` : "";
    message(`hint from ${h.by}: ${h.action}${left}`);
    board.querySelectorAll(".hinted").forEach((n) => n.classList.remove("hinted"));
    const node = [...board.querySelectorAll("[data-action]")].find((n) => (n.dataset.actions || n.dataset.action).split("|").includes(h.action));
    if (node) { node.classList.add("hinted"); node.setAttribute("stroke", "#8e44ad"); node.setAttribute("stroke-width", "4"); }
    document.getElementById("hint").dataset.action = h.action;
  } catch (err) {
    message(err.message);
  }
});

document.getElementById("resign").addEventListener("click", async () => {
  try {
    show(await call(`/api/play/${id}/resign`, { since: turns.length }));
  } catch (err) {
    message(err.message);
  }
});

refresh(0);
