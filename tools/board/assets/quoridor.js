// Quoridor on the Tabula board: squares, goal tints, walls, pawns, the last
// move (from and to squares, or the wall), the engine's principal variation
// (numbered, in the colour of the side that plays each move), analysis
// mode's candidates (analysis.js) and the ghost
// wall that follows the pointer over the grooves.
'use strict';

const CELL = 48;      // square size, in the board's own units
const GAP = 12;       // groove between squares, where walls go
const STEP = CELL + GAP;
const MARGIN = { left: 20, top: 4 }; // room for the row numbers
let ghostWall = null; // the wall under the pointer

// Squares: column letter from the west, row from the south.
function parseSquare(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1).replace(/[hv]$/, '')) };
}

function squareName(col, row) {
  return String.fromCharCode(97 + col) + row;
}

// A rectangle in unflipped board units, turned round when the board is flipped.
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

// The board's natural size; the page scales it down to fit a narrow screen.
function quoridorSize(board) {
  return { w: board.width * STEP - GAP + MARGIN.left + 4, h: board.height * STEP - GAP + MARGIN.top + 20 };
}

function drawQuoridor(board, last) {
  const svg = $('board');
  const size = quoridorSize(board);
  const shape = `q${board.width}x${board.height}${flipped}`;
  if (svg.dataset.shape !== shape) {
    svg.innerHTML = '';
    svg.dataset.shape = shape;
    sizeBoard(size.w, size.h);
    const at = `translate(${MARGIN.left},${MARGIN.top})`;
    for (const id of ['q-cells', 'q-walls', 'q-cands', 'q-pvs', 'q-pawns']) el('g', { id, transform: at }, svg);
    el('rect', { id: 'ghost', class: 'ghost', transform: at, width: 0, height: 0 }, svg);
    const labels = el('g', { class: 'labels' }, svg);
    for (let c = 0; c < board.width; c++) {
      const r = place(cellRect(c, 1, board), board);
      el('text', { class: 'label', x: MARGIN.left + r.x + CELL / 2 - 3, y: size.h - 6 }, labels).textContent = String.fromCharCode(97 + c);
    }
    for (let row = 1; row <= board.height; row++) {
      const r = place(cellRect(0, row, board), board);
      el('text', { class: 'label', x: 2, y: MARGIN.top + r.y + CELL / 2 + 4 }, labels).textContent = row;
    }
    svg.onmousemove = (event) => hoverWall(event, board);
    svg.onmouseleave = () => { ghostWall = null; drawGhost(); };
    svg.onclick = (event) => clickQuoridor(event, board);
  }
  const legal = new Set(state.legal);
  const human = humanToMove();
  const lastSquares = last ? last.squares : [];
  const cells = $('q-cells');
  cells.innerHTML = '';
  for (let row = 1; row <= board.height; row++) {
    for (let col = 0; col < board.width; col++) {
      const name = squareName(col, row);
      const r = place(cellRect(col, row, board), board);
      const playable = human && legal.has(name);
      const lastClass = lastSquares[0] === name ? ' last-from' : lastSquares[1] === name ? ' last-to' : '';
      el('rect', { ...r, class: `cell ${goalClass(col, row, board)}${playable ? ' legal' : ''}${lastClass}`, 'data-square': name }, cells);
    }
  }
  const walls = $('q-walls');
  walls.innerHTML = '';
  for (const w of board.walls) {
    const lastClass = last && last.wall === w ? ' last' : '';
    el('rect', { ...place(wallRect(w, board), board), class: `wall${lastClass}`, 'data-wall': w }, walls);
  }
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
  drawQuoridorCandidates(board);
  drawPv(board);
  if (ghostWall && !legalWallShown()) ghostWall = null;
  drawGhost();
}

// The seat that plays move `i` of a principal variation that `seat` starts.
function pvSeat(seat, i, players) {
  return (seat + i) % players;
}

// The line drawn: the one of the candidate under the pointer (analysis
// mode), else what the engine on move is thinking on the live board.
function drawPv(board) {
  const pvs = $('q-pvs');
  pvs.innerHTML = '';
  const shownToMove = viewing() ? viewed.toMove : state.toMove;
  const line = hoveredLine();
  const t = line && shownToMove !== null ? { seat: shownToMove, pv: line } : state.thinking;
  if (!t || (!line && (state.result || viewing()))) return;
  t.pv.slice(0, line ? 8 : 6).forEach((move, i) => {
    const side = pvSeat(t.seat, i, board.pawns.length) + 1;
    const g = el('g', { class: `pv pv-p${side}`, 'data-pv': i + 1 }, pvs);
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

// A point of the page in the board's own units (the board may be scaled).
function boardPoint(event) {
  const svg = $('board');
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  return { x: p.x - MARGIN.left, y: p.y - MARGIN.top };
}

// The wall nearest the pointer when it is over a groove, else null.
function wallAt(event, board) {
  let { x, y } = boardPoint(event);
  if (flipped) { x = board.width * STEP - GAP - x; y = board.height * STEP - GAP - y; }
  const nearest = (value, count, centre) => {
    let best = 0;
    for (let i = 0; i < count; i++) if (Math.abs(value - centre(i)) < Math.abs(value - centre(best))) best = i;
    return best;
  };
  const rowCentre = (i) => (i + 1) * STEP - GAP / 2; // i = 0: the groove below the top row
  const colCentre = (i) => i * STEP + CELL + GAP / 2;
  const rowGap = nearest(y, board.height - 1, rowCentre);
  const colGap = nearest(x, board.width - 1, colCentre);
  const dy = Math.abs(y - rowCentre(rowGap));
  const dx = Math.abs(x - colCentre(colGap));
  if (Math.min(dx, dy) > GAP) return null;
  const row = board.height - 1 - rowGap; // the row south of the groove
  return dy <= dx ? squareName(colGap, row) + 'h' : squareName(colGap, row) + 'v';
}

function hoverWall(event, board) {
  ghostWall = state && state.board.game === 'quoridor' && legalWallShown() ? wallAt(event, board) : null;
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

function clickQuoridor(event, board) {
  if (!humanToMove()) return;
  const square = event.target.dataset && event.target.dataset.square;
  if (square && event.target.classList.contains('cell')) {
    if (state.legal.includes(square)) post('/move', { move: square });
    return;
  }
  // A tap has no hover before it: the wall is found from the click itself.
  hoverWall(event, board);
  // A wall click is sent even when the ghost shows it illegal: the server says why.
  if (ghostWall) post('/move', { move: ghostWall });
}
