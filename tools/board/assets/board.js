// The Tabula board page. The server owns the game and checks every move with
// the Tabula library; this page draws what it is sent (one JSON view per
// change, over server-sent events) and posts what the player clicks. The
// drawing is shared out: setup.js (the form), quoridor.js and quarto.js
// (the boards), panels.js (players, clocks, evaluation), moves.js (the move
// list and stepping through it), analysis.js (analysis mode and hints),
// review.js (game review and its graph); this file connects them.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';

let state = null;      // the last view from the server
let flipped = false;

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

// The notice keeps its room when empty, so that nothing below it moves.
function showNotice(text) {
  $('notice').textContent = text || '';
  $('notice').classList.toggle('empty', !text);
}

function receive(view) {
  state = view;
  window.tabulaState = state; // for the browser tests and the curious
  if (state.clock) noteServerTime(state.clock.at);
  checkViewed();
  syncForm();
  render();
}

function connect() {
  const events = new EventSource('/events');
  events.onopen = () => {
    $('connection').textContent = 'connected';
    $('connection').className = 'on';
    // A fresh view, to set the clocks by (the stream's first may have waited).
    fetch('/state').then((r) => r.json()).then((fresh) => { if (fresh.clock) noteServerTime(fresh.clock.at); })
      .catch(() => {});
  };
  events.onerror = () => { $('connection').textContent = 'reconnecting'; $('connection').className = 'off'; };
  events.onmessage = (message) => receive(JSON.parse(message.data));
}

// ---- drawing ----

// The board's own size: drawn at that size, or smaller where the screen is narrow.
function sizeBoard(width, height) {
  const svg = $('board');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.style.maxWidth = `${width}px`;
}

function render() {
  showNotice(state.notice);
  const board = viewing() ? viewed.board : state.board;
  const last = viewing() ? viewed.last : state.last;
  $('board').dataset.viewing = viewing() ? String(viewed.ply) : '';
  $('quarto-pieces').hidden = board.game !== 'quarto';
  if (board.game === 'quoridor') drawQuoridor(board, last); else drawQuarto(board, last);
  drawStatus();
  drawCards(board);
  drawEval();
  drawThinking();
  drawAnalysisPanel();
  drawMoves();
  drawReview();
  $('position-text').value = state.text;
  $('position-command').value = state.command;
  $('undo').disabled = state.moves.length === 0 && !state.result;
  $('redo').disabled = state.redo === 0;
  $('resign').disabled = !!state.result || state.toMove === null || !humanToMove();
}

// A person is to move on the live board.
function humanToMove() {
  return state && !viewing() && state.toMove !== null && state.seats[state.toMove].kind === 'human';
}

function seatName(seat) {
  const s = state.seats[seat];
  if (s.kind === 'human') return `P${seat + 1} (${SEAT_COLOURS[seat]}, human)`;
  const level = s.level === null ? 'full strength' : `level ${s.level}`;
  return `P${seat + 1} (${SEAT_COLOURS[seat]}, engine ${level})`;
}

function drawStatus() {
  let text;
  if (viewing()) {
    text = `Viewing move ${viewed.ply} of ${gameLine().length}: ▶| returns to the game`;
  } else if (state.result) {
    text = `Game over: ${state.result.why}`;
  } else if (humanToMove()) {
    text = `${seatName(state.toMove)} to move`;
  } else {
    text = `${seatName(state.toMove)} is thinking...`;
  }
  $('status').textContent = text;
  $('status').title = text;
  $('status').dataset.over = state.result ? 'yes' : 'no';
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
  $('load').onclick = () => { leaveViewing(); post('/load', { text: $('load-text').value }); };
  $('load-file').onchange = async (event) => {
    const file = event.target.files[0];
    if (file) $('load-text').value = await file.text();
  };
}

// In a browser; the page's own tests load these files without a document.
if (typeof document !== 'undefined') {
  setupForm();
  setupButtons();
  setupMoves();
  setupAnalysis();
  setupReview();
  setInterval(tickClocks, 100);
  connect();
}
