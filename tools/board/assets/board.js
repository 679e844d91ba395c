// The Tabula board page. The server owns the game and checks every move with
// the Tabula library; this page draws what it is sent (one JSON view per
// change, over server-sent events) and posts what the player clicks.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 48;      // Quoridor square size, px
const GAP = 12;       // groove between squares, where walls go
const STEP = CELL + GAP;
const QCELL = 70;     // Quarto square size
const SEAT_COLOURS = ['blue', 'red', 'green', 'yellow'];

let state = null;      // the last view from the server
let flipped = false;
let chosenSquare = null; // Quarto: the square picked before the piece to give
let ghostWall = null;    // Quoridor: the wall under the pointer

const $ = (id) => document.getElementById(id);

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// ---- talking to the server ----

async function post(action, fields) {
  const body = new URLSearchParams(fields || {});
  const answer = await fetch(action, { method: 'POST', body });
  if (!answer.ok) showNotice(await answer.text());
  return answer.ok;
}

function showNotice(text) {
  $('notice').textContent = text || '';
  $('notice').hidden = !text;
}

function connect() {
  const events = new EventSource('/events');
  events.onopen = () => { $('connection').textContent = 'connected'; $('connection').className = 'on'; };
  events.onerror = () => { $('connection').textContent = 'reconnecting'; $('connection').className = 'off'; };
  events.onmessage = (message) => {
    state = JSON.parse(message.data);
    window.tabulaState = state; // for the browser tests and the curious
    syncForm();
    render();
  };
}

// ---- the setup form ----

function seatForm(index) {
  const n = index + 1;
  const div = document.createElement('div');
  div.className = 'seat';
  div.id = `seat-form-${n}`;
  div.innerHTML =
    `<label>P${n} (${SEAT_COLOURS[index]}) <select name="seat${n}" id="seat${n}">` +
    '<option value="human">human</option><option value="engine">engine</option></select></label>' +
    `<label>Level <select name="level${n}" id="level${n}"><option value="full">full strength</option>` +
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) => `<option value="${l}">${l}</option>`).join('') + '</select></label>' +
    `<label>ms per move <input name="movetime${n}" id="movetime${n}" type="number" min="1" max="600000" value="1000"></label>`;
  return div;
}

// Quoridor fields for Quoridor, Quarto fields for Quarto, a seat per player.
function showFields() {
  const quarto = $('game').value === 'quarto';
  document.querySelectorAll('.quoridor-only').forEach((e) => { e.hidden = quarto; });
  document.querySelectorAll('.quarto-only').forEach((e) => { e.hidden = !quarto; });
  const players = quarto ? 2 : Number($('players').value);
  for (let n = 1; n <= 4; n++) $(`seat-form-${n}`).hidden = n > players;
}

// The setup form's fields (by name) for the game the server plays: its
// variant (the view's `setup`) and who sits in each seat.
function formValues(view) {
  const values = { ...view.setup };
  view.seats.forEach((seat, i) => {
    const n = i + 1;
    values[`seat${n}`] = seat.kind;
    if (seat.kind === 'engine') {
      values[`level${n}`] = seat.level === null ? 'full' : String(seat.level);
      values[`movetime${n}`] = String(seat.movetime);
    }
  });
  return values;
}

// Fills the form from the server's game whenever its variant or seats change
// (the first view, a new game, a load, an engine's seat handed to a person),
// so that the form never shows another game than the one played. Between
// such changes what the player types is left alone.
let formShows = null;
function syncForm() {
  const key = JSON.stringify([state.setup, state.seats]);
  if (key === formShows) return;
  formShows = key;
  for (const [name, value] of Object.entries(formValues(state))) {
    const field = document.querySelector(`#setup [name="${name}"]`);
    if (!field) continue;
    if (field.type === 'checkbox') field.checked = value === 'true'; else field.value = value;
  }
  showFields();
}

function setupForm() {
  const seats = $('seats');
  for (let i = 0; i < 4; i++) seats.appendChild(seatForm(i));
  $('game').onchange = showFields;
  $('players').onchange = showFields;
  showFields();
  $('setup').onsubmit = (event) => {
    event.preventDefault();
    const fields = new FormData($('setup'));
    flipped = false;
    post('/new', fields);
  };
  $('apply-seats').onclick = async () => {
    if (!state) return;
    for (let n = 1; n <= state.seats.length; n++) {
      const fields = { index: n };
      for (const key of ['seat', 'level', 'movetime']) fields[key + n] = $(key + n).value;
      if (!(await post('/seat', fields))) return;
    }
  };
}

// ---- drawing ----

function render() {
  showNotice(state.notice);
  const board = state.board;
  $('quarto-pieces').hidden = board.game !== 'quarto';
  if (board.game === 'quoridor') drawQuoridor(board); else drawQuarto(board);
  drawStatus();
  drawThinking();
  const moves = $('moves');
  moves.innerHTML = '';
  state.moves.forEach((m) => { const li = document.createElement('li'); li.textContent = m; moves.appendChild(li); });
  moves.scrollTop = moves.scrollHeight;
  $('position-text').value = state.text;
  $('position-command').value = state.command;
  $('undo').disabled = state.moves.length === 0 && !state.result;
  $('redo').disabled = state.redo === 0;
  $('resign').disabled = !!state.result || state.toMove === null || !humanToMove();
}

function seatName(seat) {
  const s = state.seats[seat];
  if (s.kind === 'human') return `P${seat + 1} (${SEAT_COLOURS[seat]}, human)`;
  const level = s.level === null ? 'full strength' : `level ${s.level}`;
  return `P${seat + 1} (${SEAT_COLOURS[seat]}, engine ${level})`;
}

function humanToMove() {
  return state && state.toMove !== null && state.seats[state.toMove].kind === 'human';
}

function drawStatus() {
  let text;
  if (state.result) {
    text = `Game over: ${state.result.why}`;
  } else if (humanToMove()) {
    text = `${seatName(state.toMove)} to move`;
  } else {
    text = `${seatName(state.toMove)} is thinking...`;
  }
  if (state.board.game === 'quoridor') {
    text += ' | walls in hand: ' + state.board.hands.map((h, i) => `P${i + 1} ${h}`).join(', ');
  }
  $('status').textContent = text;
  $('status').dataset.over = state.result ? 'yes' : 'no';
}

function drawThinking() {
  const t = state.thinking;
  $('thinking').textContent = t
    ? `P${t.seat + 1} depth ${t.depth ?? '-'}  score ${t.score ?? '-'}  nodes ${t.nodes ?? '-'}\npv ${t.pv.join(' ')}`
    : '';
}

// Quoridor squares: column letter from the west, row from the south.
function parseSquare(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1).replace(/[hv]$/, '')) };
}

function squareName(col, row) {
  return String.fromCharCode(97 + col) + row;
}

// A rectangle in unflipped board pixels, turned round when the board is flipped.
function place(rect, board) {
  if (!flipped) return rect;
  const w = board.width * STEP - GAP;
  const h = board.height * STEP - GAP;
  return { x: w - rect.x - rect.width, y: h - rect.y - rect.height, width: rect.width, height: rect.height };
}

function cellRect(col, row, board) {
  return { x: col * STEP, y: (board.height - row) * STEP, width: CELL, height: CELL };
}

function wallRect(name, board) {
  const { col, row } = parseSquare(name);
  if (name.endsWith('h')) {
    return { x: col * STEP, y: (board.height - row) * STEP - GAP, width: 2 * CELL + GAP, height: GAP };
  }
  return { x: col * STEP + CELL, y: (board.height - row - 1) * STEP, width: GAP, height: 2 * CELL + GAP };
}

// The tint of a square: the first seat whose goal it is, as the server's
// rules say (two players: P1 north, P2 south; four: P1 north, P2 east,
// P3 south, P4 west).
function goalClass(col, row, board) {
  const name = squareName(col, row);
  const seat = board.goals.findIndex((goal) => goal.includes(name));
  return seat < 0 ? '' : `goal-${seat + 1}`;
}

function drawQuoridor(board) {
  const svg = $('board');
  const size = { w: board.width * STEP - GAP + 24, h: board.height * STEP - GAP + 24 };
  if (svg.dataset.shape !== `q${board.width}x${board.height}${flipped}`) {
    svg.innerHTML = '';
    svg.dataset.shape = `q${board.width}x${board.height}${flipped}`;
    svg.setAttribute('width', size.w);
    svg.setAttribute('height', size.h);
    el('g', { id: 'q-cells', transform: 'translate(20,4)' }, svg);
    el('g', { id: 'q-walls', transform: 'translate(20,4)' }, svg);
    el('g', { id: 'q-pvs', transform: 'translate(20,4)' }, svg);
    el('g', { id: 'q-pawns', transform: 'translate(20,4)' }, svg);
    el('rect', { id: 'ghost', class: 'ghost', transform: 'translate(20,4)', width: 0, height: 0 }, svg);
    const labels = el('g', { class: 'labels' }, svg);
    for (let c = 0; c < board.width; c++) {
      const r = place(cellRect(c, 1, board), board);
      el('text', { class: 'label', x: 20 + r.x + CELL / 2 - 3, y: size.h - 4 }, labels).textContent = String.fromCharCode(97 + c);
    }
    for (let row = 1; row <= board.height; row++) {
      const r = place(cellRect(0, row, board), board);
      el('text', { class: 'label', x: 2, y: 4 + r.y + CELL / 2 + 4 }, labels).textContent = row;
    }
    svg.onmousemove = (event) => hoverWall(event, board);
    svg.onmouseleave = () => { ghostWall = null; drawGhost(); };
    svg.onclick = (event) => clickQuoridor(event);
  }
  const legal = new Set(state.legal);
  const human = humanToMove();
  const cells = $('q-cells');
  cells.innerHTML = '';
  for (let row = 1; row <= board.height; row++) {
    for (let col = 0; col < board.width; col++) {
      const name = squareName(col, row);
      const r = place(cellRect(col, row, board), board);
      const playable = human && legal.has(name);
      el('rect', { ...r, class: `cell ${goalClass(col, row, board)}${playable ? ' legal' : ''}`, 'data-square': name }, cells);
    }
  }
  const walls = $('q-walls');
  walls.innerHTML = '';
  for (const w of board.walls) el('rect', { ...place(wallRect(w, board), board), class: 'wall', 'data-wall': w }, walls);
  const pawns = $('q-pawns');
  board.pawns.forEach((square, seat) => {
    let pawn = pawns.querySelector(`[data-pawn="${seat + 1}"]`);
    if (!pawn) {
      pawn = el('circle', { class: `pawn p${seat + 1}`, r: CELL * 0.36, cx: 0, cy: 0, 'data-pawn': seat + 1 }, pawns);
    }
    const { col, row } = parseSquare(square);
    const r = place(cellRect(col, row, board), board);
    pawn.style.transform = `translate(${r.x + CELL / 2}px, ${r.y + CELL / 2}px)`;
    pawn.dataset.square = square;
  });
  drawPv(board);
  if (ghostWall && !legalWallShown()) ghostWall = null;
  drawGhost();
}

function drawPv(board) {
  const pvs = $('q-pvs');
  pvs.innerHTML = '';
  const t = state.thinking;
  if (!t || state.result) return;
  t.pv.slice(0, 6).forEach((move, i) => {
    const g = el('g', { class: 'pv' }, pvs);
    if (/^[a-o]\d+[hv]$/.test(move)) {
      const r = place(wallRect(move, board), board);
      el('rect', { ...r, class: 'pv-wall' }, g);
      el('text', { x: r.x + r.width / 2 - 4, y: r.y + r.height / 2 + 5 }, g).textContent = i + 1;
    } else if (/^[a-o]\d+$/.test(move)) {
      const { col, row } = parseSquare(move);
      const r = place(cellRect(col, row, board), board);
      el('circle', { cx: r.x + CELL / 2, cy: r.y + CELL / 2, r: CELL * 0.2 }, g);
      el('text', { x: r.x + CELL / 2 - 4, y: r.y + CELL / 2 + 5 }, g).textContent = i + 1;
    }
  });
}

function legalWallShown() {
  return humanToMove() && state.board.hands[state.toMove] > 0;
}

// The wall nearest the pointer when it is over a groove, else null.
function hoverWall(event, board) {
  if (!state || state.board.game !== 'quoridor' || !legalWallShown()) { ghostWall = null; drawGhost(); return; }
  const box = $('board').getBoundingClientRect();
  let x = event.clientX - box.left - 20;
  let y = event.clientY - box.top - 4;
  if (flipped) { x = board.width * STEP - GAP - x; y = board.height * STEP - GAP - y; }
  const nearest = (value, count, centre) => {
    let best = 0;
    for (let i = 0; i < count; i++) if (Math.abs(value - centre(i)) < Math.abs(value - centre(best))) best = i;
    return best;
  };
  // Distance to the nearest horizontal groove (between rows) and vertical groove (between columns).
  const rowGap = nearest(y, board.height - 1, (i) => (i + 1) * STEP - GAP / 2); // i=0: groove below the top row
  const colGap = nearest(x, board.width - 1, (i) => i * STEP + CELL + GAP / 2);
  const dy = Math.abs(y - ((rowGap + 1) * STEP - GAP / 2));
  const dx = Math.abs(x - (colGap * STEP + CELL + GAP / 2));
  const reach = GAP;
  if (Math.min(dx, dy) > reach) { ghostWall = null; drawGhost(); return; }
  if (dy <= dx) {
    const row = board.height - 1 - rowGap; // the row south of the groove
    const col = nearest(x, board.width - 1, (i) => i * STEP + CELL + GAP / 2);
    ghostWall = squareName(col, row) + 'h';
  } else {
    const col = colGap;
    const row = board.height - 1 - nearest(y, board.height - 1, (i) => (i + 1) * STEP - GAP / 2);
    ghostWall = squareName(col, row) + 'v';
  }
  drawGhost();
}

function drawGhost() {
  const ghost = $('ghost');
  if (!ghost) return;
  if (!ghostWall || !state) {
    ghost.setAttribute('width', 0);
    ghost.setAttribute('height', 0);
    ghost.removeAttribute('data-wall');
    return;
  }
  const r = place(wallRect(ghostWall, state.board), state.board);
  for (const k of ['x', 'y', 'width', 'height']) ghost.setAttribute(k, r[k]);
  const legal = state.legal.includes(ghostWall);
  ghost.setAttribute('class', `ghost ${legal ? 'legal' : 'illegal'}`);
  ghost.dataset.wall = ghostWall;
  ghost.dataset.legal = legal ? 'yes' : 'no';
}

function clickQuoridor(event) {
  if (!humanToMove()) return;
  const square = event.target.dataset && event.target.dataset.square;
  if (square && event.target.classList.contains('cell')) {
    if (state.legal.includes(square)) post('/move', { move: square });
    return;
  }
  // A wall click is sent even when the ghost shows it illegal: the server says why.
  if (ghostWall) post('/move', { move: ghostWall });
}

// ---- Quarto ----

// Bit 0 colour (dark), bit 1 height (tall), bit 2 shape (square), bit 3 hollow.
function drawPiece(parent, piece, cx, cy, attributes) {
  const g = el('g', { class: 'piece', 'data-piece': piece.toString(16) }, parent);
  const dark = piece & 1;
  const tall = attributes > 1 ? piece & 2 : 2;
  const square = attributes > 2 ? piece & 4 : 0;
  const hollow = attributes > 3 ? piece & 8 : 0;
  const radius = tall ? 26 : 17;
  const tone = dark ? 'dark' : 'light';
  if (square) {
    el('rect', { x: cx - radius, y: cy - radius, width: 2 * radius, height: 2 * radius, class: `body ${tone}` }, g);
  } else {
    el('circle', { cx, cy, r: radius, class: `body ${tone}` }, g);
  }
  if (hollow) el('circle', { cx, cy, r: radius * 0.4, class: 'hole' }, g);
  el('title', {}, g).textContent =
    `piece ${piece.toString(16)}: ${dark ? 'dark' : 'light'}` +
    (attributes > 1 ? (tall ? ', tall' : ', short') : '') +
    (attributes > 2 ? (square ? ', square' : ', round') : '') +
    (attributes > 3 ? (hollow ? ', hollow' : ', solid') : '');
  return g;
}

function drawQuarto(board) {
  const svg = $('board');
  const side = board.side;
  const px = side * QCELL;
  svg.dataset.shape = 'quarto';
  svg.onmousemove = null;
  svg.onmouseleave = null;
  svg.onclick = null;
  svg.innerHTML = '';
  svg.setAttribute('width', px + 24);
  svg.setAttribute('height', px + 24);
  const human = humanToMove();
  const squaresOk = new Set(state.legal.filter((m) => m.length >= 2).map((m) => m.slice(0, 2)));
  if (!human || board.hand === null) chosenSquare = null;
  for (let s = 0; s < side * side; s++) {
    const col = s % side;
    const row = Math.floor(s / side);
    let x = col * QCELL;
    let y = (side - 1 - row) * QCELL;
    if (flipped) { x = px - QCELL - x; y = px - QCELL - y; }
    const name = String.fromCharCode(97 + col) + (row + 1);
    const playable = human && squaresOk.has(name) && board.cells[s] === null;
    const cls = `qcell${playable ? ' legal' : ''}${chosenSquare === name ? ' chosen' : ''}`;
    const cell = el('rect', { x: x + 20, y: y + 2, width: QCELL, height: QCELL, class: cls, 'data-square': name }, svg);
    if (playable) cell.onclick = () => chooseSquare(name);
    if (board.cells[s] !== null) drawPiece(svg, board.cells[s], x + 20 + QCELL / 2, y + 2 + QCELL / 2, board.attributes);
  }
  const hand = $('hand');
  hand.innerHTML = '';
  if (board.hand !== null) drawPiece(hand, board.hand, 30, 30, board.attributes);
  const pool = $('pool');
  pool.innerHTML = '';
  pool.setAttribute('width', Math.max(1, board.available.length) * 62);
  pool.setAttribute('height', 62);
  const giving = human && (board.hand === null || chosenSquare !== null);
  board.available.forEach((piece, i) => {
    const g = drawPiece(pool, piece, 31 + i * 62, 31, board.attributes);
    if (giving) {
      g.classList.add('choosable');
      g.onclick = () => givePiece(piece);
    }
  });
}

function chooseSquare(name) {
  if (state.legal.includes(name)) { // a winning placement, or the last piece: nothing to give
    post('/move', { move: name });
    return;
  }
  chosenSquare = name;
  render();
}

function givePiece(piece) {
  const move = (state.board.hand === null ? '' : chosenSquare || '') + piece.toString(16);
  chosenSquare = null;
  post('/move', { move });
}

// ---- buttons ----

function setupButtons() {
  // Against an engine, the server takes back to the human's last turn.
  $('undo').onclick = () => post('/undo');
  $('redo').onclick = () => post('/redo');
  $('resign').onclick = () => post('/resign');
  $('flip').onclick = () => { flipped = !flipped; if (state) render(); };
  $('copy-command').onclick = () => {
    const text = $('position-command').value;
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
    $('position-command').select();
  };
  $('load').onclick = () => post('/load', { text: $('load-text').value });
  $('load-file').onchange = async (event) => {
    const file = event.target.files[0];
    if (file) $('load-text').value = await file.text();
  };
}

// In a browser; the page's own tests load this file without a document.
if (typeof document !== 'undefined') {
  setupForm();
  setupButtons();
  connect();
}
