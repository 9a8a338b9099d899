// The seog web page: send an SGF to POST /v1/score, show the SVG board it returns, and let the
// user flip blocks between alive and dead (sent back as overrides) until the count looks right.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  sgf: null,           // the SGF text being scored
  name: "game.sgf",    // its file name, for the download
  base: null,          // first stone of each block -> status seog decided without overrides
  overrides: new Map(),// first stone of a block -> "alive" | "dead", where the user disagrees
  answer: null,        // the last answer of the API
  seq: 0,              // request counter: only the newest answer is shown
};

const LABELS = {
  territory: "territory", stones: "stones", prisoners: "prisoners",
  dead_stones: "dead stones", komi: "komi", handicap: "handicap",
};

function setStatus(status) {
  document.body.dataset.state = status;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function loadGame(text, name) {
  state.sgf = text;
  state.name = name || "game.sgf";
  state.base = null;
  state.overrides.clear();
  $("sgf").value = text;
  score();
}

function requestBody() {
  const body = { sgf: state.sgf, svg: true, annotated_sgf: true };
  const rules = $("rules").value;
  const komi = $("komi").value.trim();
  if (rules) body.rules = rules;
  if (komi !== "") body.komi = Number(komi);
  if ($("markup").checked) body.use_markup = true;
  if ($("unfinished").checked) body.finished = false;  // a record without RE cannot say so itself
  if (state.overrides.size) {
    const dead = [], alive = [];
    for (const [vertex, status] of state.overrides) (status === "dead" ? dead : alive).push(vertex);
    body.overrides = { dead, alive };
  }
  return body;
}

// Resolves to false when this request failed (the server refused it), else true.
async function score() {
  if (!state.sgf || !state.sgf.trim()) {
    showError("Give an SGF first: drop a file, paste its text or pick an example.");
    return false;
  }
  const seq = ++state.seq;
  setStatus("busy");
  let answer;
  try {
    const response = await fetch("v1/score", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(requestBody()),
    });
    answer = await response.json().catch(() => ({ detail: `the server answered ${response.status}` }));
    if (!response.ok) throw new Error(answer.detail || `the server answered ${response.status}`);
  } catch (err) {
    if (seq !== state.seq) return true;
    showError(`Could not score this game: ${err.message}`);
    setStatus("error");
    return false;
  }
  if (seq !== state.seq) return true;
  showError("");
  state.answer = answer;
  if (!state.base) {
    state.base = new Map(answer.blocks.map((b) => [b.stones[0], b.status]));
  }
  render(answer);
  setStatus("ready");
  return true;
}

function render(answer) {
  $("output").hidden = false;
  const board = $("board");
  board.innerHTML = answer.svg || "<p>The server sent no picture.</p>";
  for (const stone of board.querySelectorAll("circle.stone")) {
    const title = stone.querySelector("title");
    stone.setAttribute("tabindex", "0");
    stone.setAttribute("role", "button");
    stone.setAttribute("aria-label", `${title ? title.textContent : stone.dataset.vertex}: click to flip`);
  }

  $("result").textContent = answer.result;
  $("recorded").textContent = answer.recorded_result ? `recorded in the file: ${answer.recorded_result}` : "";
  renderCounts(answer);
  $("notes").replaceChildren(...(answer.notes || []).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;  // e.g. the stones Tromp-Taylor counts as they stand though seog reads them dead
    return li;
  }));

  const changed = [...state.overrides].map(([v, s]) => `${v} ${s}`);
  $("overrides").textContent = changed.length ? `Your changes: ${changed.join(", ")}.` : "";
  $("reset").disabled = changed.length === 0;

  const list = $("uncertain");
  list.replaceChildren();
  for (const b of answer.blocks.filter((x) => x.uncertain)) {
    const li = document.createElement("li");
    const why = b.doubt === "race" ? ", in a liberty race that may end in seki, or in a capture the other way"
      : b.doubt === "rule" ? `, the ${b.source} rule turned the reader's verdict, p(alive) ${b.p_alive.toFixed(2)}`
      : b.p_alive === null ? "" : `, p(alive) ${b.p_alive.toFixed(2)}`;
    li.textContent = `uncertain: ${b.color} block at ${b.stones[0]} counted ${b.status}${why}`;
    list.append(li);
  }
  $("download").disabled = !answer.annotated_sgf;
}

function renderCounts(answer) {
  const rows = [];
  for (const key of Object.keys(LABELS)) {
    const b = answer.breakdown.black[key], w = answer.breakdown.white[key];
    if (b === undefined && w === undefined) continue;
    rows.push([LABELS[key], b ?? "", w ?? ""]);
  }
  rows.push(["total", answer.score.black, answer.score.white]);
  const body = $("counts").tBodies[0];
  body.replaceChildren();
  for (const [label, b, w] of rows) {
    const tr = body.insertRow();
    tr.insertCell().textContent = label;
    tr.insertCell().textContent = b;
    tr.insertCell().textContent = w;
    if (label === "total") tr.className = "total";
  }
}

async function flip(vertex) {
  if (!state.answer) return;
  const block = state.answer.blocks.find((b) => b.stones.includes(vertex));
  if (!block) return;
  const key = block.stones[0];
  const wanted = block.status === "alive" ? "dead" : "alive";
  const before = state.overrides.get(key);
  if (state.base && state.base.get(key) === wanted) state.overrides.delete(key);
  else state.overrides.set(key, wanted);
  // A flip the server refuses (a dead stone under Tromp-Taylor, which counts every stone) is
  // taken back: its reason stays shown, and the next flip is not refused for it again.
  if (!(await score())) {
    if (before === undefined) state.overrides.delete(key);
    else state.overrides.set(key, before);
  }
}

function download() {
  if (!state.answer || !state.answer.annotated_sgf) return;
  const blob = new Blob([state.answer.annotated_sgf], { type: "application/x-go-sgf" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = state.name.replace(/\.sgf$/i, "") + "-scored.sgf";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function readFile(file) {
  if (file.size > 1 << 20) {
    showError(`${file.name} is over 1 MiB: that is not one game record.`);
    return;
  }
  loadGame(await file.text(), file.name);
}

async function loadExample(path) {
  if (!path) return;
  const response = await fetch(path);
  if (!response.ok) {
    showError(`Could not load the example ${path} (${response.status}).`);
    return;
  }
  loadGame(await response.text(), path.split("/").pop());
}

async function showModel() {
  try {
    const info = await (await fetch("v1/model")).json();
    $("model-note").textContent = info.trained
      ? `Dead stones decided by ${info.name}${info.version ? " " + info.version : ""}.`
      : "No trained model is loaded: blocks the static pass leaves open are decided by a simple heuristic.";
  } catch (err) {
    $("model-note").textContent = "";
  }
}

function wire() {
  const drop = $("drop");
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (e) => { e.preventDefault(); drop.classList.add("over"); });
  }
  for (const name of ["dragleave", "drop"]) {
    drop.addEventListener(name, () => drop.classList.remove("over"));
  }
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) readFile(file);
    else if (e.dataTransfer.getData("text")) loadGame(e.dataTransfer.getData("text"), "pasted.sgf");
  });
  $("file").addEventListener("change", (e) => { if (e.target.files[0]) readFile(e.target.files[0]); });
  $("example").addEventListener("change", (e) => loadExample(e.target.value));
  $("sgf").addEventListener("paste", () => setTimeout(() => loadGame($("sgf").value, "pasted.sgf"), 0));
  $("score").addEventListener("click", () => {
    if ($("sgf").value !== state.sgf) loadGame($("sgf").value, "pasted.sgf");
    else score();
  });
  $("rules").addEventListener("change", () => state.sgf && score());
  $("komi").addEventListener("change", () => state.sgf && score());
  for (const id of ["markup", "unfinished"]) {  // another reading of the game: the user's flips start again
    $(id).addEventListener("change", () => {
      state.base = null;
      state.overrides.clear();
      if (state.sgf) score();
    });
  }
  $("reset").addEventListener("click", () => { state.overrides.clear(); score(); });
  $("download").addEventListener("click", download);

  const board = $("board");
  board.addEventListener("click", (e) => {
    const stone = e.target.closest("circle.stone");
    if (stone) flip(stone.dataset.vertex);
  });
  board.addEventListener("keydown", (e) => {
    const stone = e.target.closest && e.target.closest("circle.stone");
    if (stone && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); flip(stone.dataset.vertex); }
  });
  setStatus("idle");
  showModel();
}

wire();
