// Quarto on the Tabula board: the squares with their coordinates (a-d,
// 1-4), the pieces drawn by their attributes, the last square filled, the
// winning line of a won game, the piece in hand and the pieces to give.
'use strict';

const QCELL = 70;      // square size, in the board's own units
const QMARGIN = { left: 20, top: 2 };
const POOL_ROW = 8;    // pieces to give per row
let chosenSquare = null; // the square picked before the piece to give

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

// The corner of square (col, row), row 0 in the south, flipped or not.
function quartoCorner(col, row, side) {
  let x = col * QCELL;
  let y = (side - 1 - row) * QCELL;
  if (flipped) { x = (side - 1) * QCELL - x; y = (side - 1) * QCELL - y; }
  return { x: x + QMARGIN.left, y: y + QMARGIN.top };
}

function drawQuarto(board, last) {
  const svg = $('board');
  const side = board.side;
  const px = side * QCELL;
  svg.dataset.shape = 'quarto';
  svg.onmousemove = null;
  svg.onmouseleave = null;
  svg.onclick = null;
  svg.innerHTML = '';
  sizeBoard(px + QMARGIN.left + 4, px + QMARGIN.top + 20);
  const human = humanToMove();
  const squaresOk = new Set(state.legal.filter((m) => m.length >= 2).map((m) => m.slice(0, 2)));
  if (!human || board.hand === null) chosenSquare = null;
  const line = new Set(board.line);
  const lastSquare = last && last.squares.length ? last.squares[0] : null;
  for (let s = 0; s < side * side; s++) {
    const col = s % side;
    const row = Math.floor(s / side);
    const { x, y } = quartoCorner(col, row, side);
    const name = String.fromCharCode(97 + col) + (row + 1);
    const playable = human && squaresOk.has(name) && board.cells[s] === null;
    const cls = `qcell${playable ? ' legal' : ''}${chosenSquare === name ? ' chosen' : ''}` +
      `${line.has(name) ? ' win' : ''}${lastSquare === name ? ' last' : ''}`;
    const cell = el('rect', { x, y, width: QCELL, height: QCELL, class: cls, 'data-square': name }, svg);
    if (playable) cell.onclick = () => chooseSquare(name);
    if (board.cells[s] !== null) drawPiece(svg, board.cells[s], x + QCELL / 2, y + QCELL / 2, board.attributes);
  }
  for (let i = 0; i < side; i++) {
    const column = quartoCorner(i, 0, side);
    el('text', { class: 'label', x: column.x + QCELL / 2 - 3, y: px + QMARGIN.top + 15 }, svg).textContent =
      String.fromCharCode(97 + i);
    const row = quartoCorner(0, i, side);
    el('text', { class: 'label', x: 4, y: row.y + QCELL / 2 + 4 }, svg).textContent = i + 1;
  }
  drawQuartoCandidates(board);
  drawQuartoPieces(board, human);
}

// The piece in hand, and the pieces still to give in rows of POOL_ROW.
function drawQuartoPieces(board, human) {
  const hand = $('hand');
  hand.innerHTML = '';
  if (board.hand !== null) drawPiece(hand, board.hand, 30, 30, board.attributes);
  const pool = $('pool');
  pool.innerHTML = '';
  const rows = Math.max(1, Math.ceil(board.available.length / POOL_ROW));
  const width = Math.min(POOL_ROW, Math.max(1, board.available.length)) * 62;
  pool.setAttribute('viewBox', `0 0 ${width} ${rows * 62}`);
  pool.setAttribute('width', width);
  pool.setAttribute('height', rows * 62);
  const giving = human && (board.hand === null || chosenSquare !== null);
  board.available.forEach((piece, i) => {
    const g = drawPiece(pool, piece, 31 + (i % POOL_ROW) * 62, 31 + Math.floor(i / POOL_ROW) * 62, board.attributes);
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
