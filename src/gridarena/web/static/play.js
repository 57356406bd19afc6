// Play in the browser: the board is the game's own SVG; a click on an element with data-action posts
// that action (Isolation: a cell; sliding puzzle: a tile next to a blank) and the page shows the
// position after the bot's answer. "hint" asks the server which action its hint bot would play.

const root = document.getElementById("play");
const id = root.dataset.id;
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

root.innerHTML = `<h1 id="title">play</h1><p id="status" class="muted"></p><p id="message" class="notice" hidden></p>
  <div class="viewer"><section><div id="board" class="playing"></div>
  <div class="controls"><button id="hint" hidden>hint</button><a id="replay-link" hidden>open the replay</a></div></section>
  <aside class="panel"><h3>Moves</h3><ol class="moves" id="moves"></ol></aside></div>`;
const board = document.getElementById("board");
let busy = false;

function message(text) {
  const box = document.getElementById("message");
  box.hidden = !text;
  box.textContent = text || "";
}

function show(s) {
  document.getElementById("title").textContent = `${s.game}: ${s.names.join(" vs ")}`;
  board.innerHTML = s.svg;
  board.dataset.plies = String(s.plies);
  let status;
  if (s.error) status = `error: ${s.error}`;
  else if (s.over) status = `game over: ${s.verdict || (s.result ? s.result.reason || s.result.termination : "")}`;
  else status = s.your_turn ? "your move: click" : "the bot is thinking…";
  const line = document.getElementById("status");
  line.textContent = `ply ${s.plies} · ${status}`;
  line.dataset.over = String(s.over);
  line.dataset.yourTurn = String(s.your_turn);
  document.getElementById("moves").innerHTML = s.turns.map((t, i) =>
    `<li><span class="n">${i + 1}</span><span class="what">${esc(s.names[t.player] ?? "chance")}: ${esc(t.action)}</span></li>`).join("");
  const hint = document.getElementById("hint");
  hint.hidden = !s.hint || s.over;
  const link = document.getElementById("replay-link");
  link.hidden = false;
  link.href = `/replays/view?path=${encodeURIComponent(`web/${s.replay}`)}`;
}

async function call(url, body) {
  const response = await fetch(url, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

board.addEventListener("click", async (e) => {
  const target = e.target.closest("[data-action]");
  if (!target || busy) return;
  busy = true;
  message("");
  try {
    show(await call(`/api/play/${id}/move`, { action: target.dataset.action }));
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

call(`/api/play/${id}`).then(show, (err) => message(err.message));
