"use strict";
// The Friday game viewer: draws the snapshots friday_env.viewer computed with the engine.
// Everything is in this file: no network, no library. Game data is gzip + base64 per game
// (DecompressionStream), so a page can hold many games.

const DATA = JSON.parse(document.getElementById("friday-data").textContent);
const $ = (id) => document.getElementById(id);
const view = { game: null, meta: null, index: 0, cache: new Map() };

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function inflate(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// ------------------------------------------------------------------ drawing one decision

function drawHazard(fight) {
  const box = $("hazard");
  box.replaceChildren();
  box.className = "hazard" + (fight && fight.pirate ? " pirate" : "");
  if (!fight) return;
  box.append(element("div", "name", fight.card));
  const body = element("div", "body");
  body.append(element("div", "", fight.pirate ? "pirate: to beat" : "to beat"));
  const value = element("div", "value", String(fight.value));
  value.id = "hazard-value";
  body.append(value);
  const winning = fight.total >= fight.value;
  const outcome = winning ? "winning" : `losing by ${fight.value - fight.total}`;
  body.append(element("div", "total " + (winning ? "winning" : "losing"),
    `total ${fight.total} (${outcome})`));
  body.append(element("div", "", `free draws left ${fight.free_left} of ${fight.free_total}`));
  if (fight.step_down) body.append(element("div", "", `step -${fight.step_down}`));
  if (fight.special) body.append(element("div", "special", fight.special));
  if (fight.knowledge) body.append(element("div", "knowledge", `if beaten: ${fight.knowledge}`));
  box.append(body);
}

function drawOffer(shot) {
  const box = $("offer");
  box.replaceChildren();
  const groups = [["offered hazards", shot.offer, ""]];
  const pirateStep = shot.step === "pirates";
  if (!shot.fight || pirateStep) groups.push([pirateStep ? "pirates left" : "pirates", shot.pirates, " pirate"]);
  for (const [title, items, kind] of groups) {
    if (!items.length) continue;
    box.append(element("h3", "", title));
    for (const text of items) box.append(element("div", "option" + kind, text));
  }
  if (shot.beaten.length) box.append(element("h3", "", "beaten: " + shot.beaten.join(", ")));
}

// Card names wrap only after a slash ("raft/" then "equipment"), never inside a word.
function breakAfterSlashes(text) {
  return text.replaceAll("/", "/\u200B");
}

function drawCard(card, slot) {
  const classes = ["card", card.kind, card.side];
  for (const flag of ["used", "doubled", "destroyed"]) if (card[flag]) classes.push(flag);
  const node = element("div", classes.join(" "));
  node.dataset.card = card.card;
  node.dataset.slot = String(slot);
  node.append(element("div", "stripe"));
  node.append(element("div", "slot", `#${slot} ${card.side}`));
  const value = element("div", "value" + (card.value < 0 ? " negative" : ""), String(card.value));
  node.append(value);
  node.append(element("div", "key", breakAfterSlashes(card.card)));
  if (card.ability) node.append(element("div", "ability", card.ability));
  const marks = element("div", "marks");
  if (card.used) marks.append(element("span", "mark used", "used"));
  if (card.doubled) marks.append(element("span", "mark doubled", "x2"));
  if (card.destroyed) marks.append(element("span", "mark destroyed", "destroyed"));
  node.append(marks);
  return node;
}

function drawTable(shot) {
  const count = shot.table.length;
  $("table-title").textContent = shot.fight
    ? `table: ${count} card${count === 1 ? "" : "s"} (green border = free, black = paid)`
    : "no fight";
  $("table").replaceChildren(...shot.table.map(drawCard));
  const extra = [];
  if (shot.sort_hand.length) extra.push("sort hand: " + shot.sort_hand.join(", "));
  if (shot.phase === "lost fight: destroy") extra.push(`destroy budget: ${shot.budget} life`);
  $("extra").textContent = extra.join(" | ");
}

function drawPiles(piles) {
  const parts = [
    ["Robinson stack", piles.stack + (piles.unseen ? ` (${piles.unseen} unseen aging)` : "")],
    ["discard", piles.discard], ["destroyed", piles.destroyed], ["aging", piles.aging],
    ["hazard stack", piles.hazard_stack], ["hazard discard", piles.hazard_discard],
  ];
  if (piles.known_top.length) parts.push(["known top", piles.known_top.join(", ")]);
  const box = $("piles");
  box.replaceChildren();
  for (const [name, value] of parts) {
    const span = element("span", "pile", `${name} `);
    const count = element("b", "", String(value));
    count.dataset.pile = name;
    span.append(count, document.createTextNode("   "));
    box.append(span);
  }
}

function drawActions(shot) {
  const list = $("actions");
  list.replaceChildren();
  for (const [id, text] of shot.legal) {
    const item = element("li", id === shot.taken ? "taken" : "");
    item.dataset.action = String(id);
    item.append(element("span", "id", String(id)), document.createTextNode(text));
    if (id === shot.taken) item.append(document.createTextNode("  \u25C0 taken"));
    list.append(item);
  }
  if (!shot.legal.length) list.append(element("li", "", "none: the game is over"));
}

function drawScoreLine(shot) {
  const meta = view.meta;
  const line = $("score-line");
  line.replaceChildren();
  const result = meta.result;
  line.append(document.createTextNode(`score now ${shot.score} \u00B7 final: `));
  line.append(element("span", result, `${result}, score ${meta.score}`));
  line.append(document.createTextNode(` after ${view.game.snapshots.length - 1} decisions`));
}

function draw() {
  const shots = view.game.snapshots;
  const shot = shots[view.index];
  const last = shots.length - 1;
  $("step").textContent = shot.step;
  $("step").className = "chip " + shot.step;
  $("life").textContent = String(shot.life);
  $("reserve").textContent = String(shot.reserve);
  $("fights").textContent = String(shot.fights);
  $("score").textContent = String(shot.score);
  $("phase").textContent = shot.phase;
  drawHazard(shot.fight);
  drawOffer(shot);
  drawTable(shot);
  drawPiles(shot.piles);
  drawActions(shot);
  drawScoreLine(shot);
  $("slider").max = String(last);
  $("slider").value = String(view.index);
  // people count decisions from 1 (as friday replay does): snapshot k is decision k + 1,
  // and decision last + 1 is the end of the game
  $("jump").max = String(last + 1);
  $("jump").value = String(view.index + 1);
  $("position").textContent = view.index === last
    ? `end of game (${last} decisions)` : `decision ${view.index + 1} of ${last}`;
  document.body.dataset.decision = String(view.index);
}

// ---------------------------------------------------------------------------- moving

function go(index) {
  if (!view.game) return;
  const last = view.game.snapshots.length - 1;
  const target = Number.isNaN(index) ? view.index : Math.trunc(index); // Infinity: the end
  view.index = Math.max(0, Math.min(last, target));
  draw();
}

function nextFight(direction) {
  const starts = view.game.fight_starts;
  const target = direction > 0
    ? starts.find((i) => i > view.index)
    : [...starts].reverse().find((i) => i < view.index);
  if (target !== undefined) go(target);
}

function bindControls() {
  $("first").onclick = () => go(0);
  $("last").onclick = () => go(Infinity);
  $("prev").onclick = () => go(view.index - 1);
  $("next").onclick = () => go(view.index + 1);
  $("next-fight").onclick = () => nextFight(1);
  $("prev-fight").onclick = () => nextFight(-1);
  $("slider").oninput = (event) => go(Number(event.target.value));
  $("jump").onchange = (event) => {
    if (event.target.value.trim() === "") return; // an emptied box is no decision number
    go(Number(event.target.value) - 1);
    event.target.blur(); // the keys step the game again
  };
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" && event.target.type === "number") return;
    if (event.target.tagName === "SELECT") return;
    const moves = {
      ArrowRight: () => go(view.index + 1), ArrowLeft: () => go(view.index - 1),
      Home: () => go(0), End: () => go(Infinity),
      f: () => nextFight(1), F: () => nextFight(-1),
    };
    const move = moves[event.key];
    if (move) { move(); event.preventDefault(); }
  });
}

// ----------------------------------------------------------------------- the game list

async function openGame(position) {
  const entry = DATA.games[position];
  if (!view.cache.has(position)) view.cache.set(position, await inflate(entry.data));
  view.game = view.cache.get(position);
  view.meta = entry.meta;
  view.index = 0;
  $("game-title").textContent = entry.meta.title;
  for (const button of document.querySelectorAll("#game-list button")) {
    button.classList.toggle("current", Number(button.dataset.game) === position);
  }
  draw();
  document.body.dataset.game = String(position);
}

function fillFilter(id, values) {
  const select = $(id);
  select.replaceChildren(element("option", "", "all"));
  for (const value of values) select.append(element("option", "", String(value)));
  select.onchange = listGames;
}

function listGames() {
  const wanted = {
    agent: $("filter-agent").value, level: $("filter-level").value,
    result: $("filter-result").value,
  };
  const list = $("game-list");
  list.replaceChildren();
  let shown = 0;
  DATA.games.forEach((entry, position) => {
    const meta = entry.meta;
    const values = { agent: meta.agent, level: String(meta.level), result: meta.result };
    if (Object.keys(wanted).some((k) => wanted[k] !== "all" && wanted[k] !== values[k])) return;
    const button = element("button", position === Number(document.body.dataset.game) ? "current" : "");
    button.dataset.game = String(position);
    button.append(document.createTextNode(meta.label + " "));
    button.append(element("span", values.result, `${values.result} ${meta.score}`));
    button.onclick = () => openGame(position);
    const item = element("li");
    item.append(button);
    list.append(item);
    shown += 1;
  });
  const note = DATA.note ? ` ${DATA.note}` : "";
  $("games-count").textContent = `${shown} of ${DATA.games.length} games shown.${note}`;
}

function setUpList() {
  if (DATA.games.length < 2 && !DATA.note) return;
  $("games").hidden = false;
  const distinct = (key) => [...new Set(DATA.games.map((g) => g.meta[key]))].sort();
  fillFilter("filter-agent", distinct("agent"));
  fillFilter("filter-level", distinct("level"));
  fillFilter("filter-result", ["won", "lost", "not finished"]);
  listGames();
}

bindControls();
setUpList();
openGame(0).then(() => { document.body.dataset.ready = "true"; });
