// Analysis mode on the Tabula board: the server runs one engine for the
// board (POST /analysis) and sends its candidate moves with every view; this
// file turns it on and off (the button, or the A key; Space pauses and
// resumes), keeps it on the position shown (the live game, or a move
// stepped to), lists the candidates with their scores, draws them on the
// board (the best brightest), shows a candidate's line, numbered, while the
// pointer is over it, and plays a candidate that is clicked on the live
// board when a person is to move. Hint (the button, or H) asks the same
// engine for one line on the live board and, once it has looked for about a
// second, keeps its best move on the board until the position changes; a
// rated game has neither until it ends.
'use strict';

const HINT_MS = 1000;
let hintAsked = null;  // {ply, at} while a hint is being looked for
let hint = null;       // {ply, candidate}: the hint shown on the live board

let analysisPaused = false; // turned off with Space, to come back with it
let hoveredMove = null;     // the candidate under the pointer
let analysedPly = null;     // the ply last asked for (null: the live game)

function analysisOn() {
  return !!(state && state.analysis);
}

function analysisLines() {
  return Number($('analysis-lines').value) || 3;
}

// Asks the server to analyse the position shown (or turns analysis off).
function askAnalysis(on) {
  if (!on) {
    analysedPly = null;
    return post('/analysis', { off: '1' });
  }
  analysedPly = viewing() ? viewed.ply : null;
  const fields = { lines: String(analysisLines()) };
  if (analysedPly !== null) fields.ply = String(analysedPly);
  return post('/analysis', fields);
}

// After stepping through the moves: the analysis follows the board shown.
function followShownPly() {
  if (!analysisOn()) return;
  const shown = viewing() ? viewed.ply : null;
  if (shown !== analysedPly) askAnalysis(true);
}

// A candidate's score as the page shows it: moves of advantage for the
// player to move (`cp` 100 is about one step of path), or a forced result.
function candidateScore(score) {
  if (!score) return '';
  const [kind, value, bound] = score.split(' ');
  const n = Number(value);
  const mark = bound === 'lowerbound' ? '≥' : bound === 'upperbound' ? '≤' : '';
  if (kind === 'mate') return n > 0 ? `${mark}wins in ${n}` : `loses in ${-n}`;
  return `${mark}${n >= 0 ? '+' : ''}${(n / 100).toFixed(2)}`;
}

// The candidates of the position shown, or none when they are of another;
// without analysis, the hint of the live board.
function shownCandidates() {
  if (!analysisOn() || hintAsked) {
    return hint && !viewing() && hint.ply === state.moves.length ? [hint.candidate] : [];
  }
  return state.analysis.ply === shownPly() ? state.analysis.candidates : [];
}

// Hints and analysis are off in a rated game until it ends.
function ratedGameOn() {
  return state.setup.rated === 'true' && !state.result;
}

function askHint() {
  if (!humanToMove() || ratedGameOn() || analysisOn()) return;
  hint = null;
  hintAsked = { ply: state.moves.length, at: Date.now() };
  post('/analysis', { lines: '1' });
  setTimeout(takeHint, HINT_MS);
}

// After a second of looking: the best move so far becomes the hint, and
// the engine stops.
function takeHint() {
  if (!hintAsked) return;
  const asked = hintAsked;
  hintAsked = null;
  const found = analysisOn() && state.analysis.ply === asked.ply ? state.analysis.candidates[0] : null;
  if (found && state.moves.length === asked.ply) hint = { ply: asked.ply, candidate: found };
  post('/analysis', { off: '1' });
}

// The line of the candidate under the pointer, as the engine gives it now.
function hoveredLine() {
  const c = shownCandidates().find((cand) => cand.move === hoveredMove);
  return c ? c.pv : null;
}

function hover(move) {
  hoveredMove = move;
  render();
}

// The list is updated in place, a row per rank, so that the row under the
// pointer stays the same element while the engine's lines change.
function drawAnalysisPanel() {
  const on = analysisOn();
  $('analyse').textContent = on && !hintAsked ? 'Stop analysis' : analysisPaused ? 'Resume analysis' : 'Analyse';
  $('analyse').disabled = ratedGameOn();
  $('hint').disabled = !humanToMove() || ratedGameOn() || (on && !hintAsked);
  $('analyse').setAttribute('aria-pressed', on ? 'true' : 'false');
  const list = $('candidates');
  const shown = shownCandidates();
  while (list.children.length > shown.length) list.lastChild.remove();
  while (list.children.length < shown.length) {
    const item = document.createElement('li');
    for (const cls of ['move', 'score', 'line']) {
      const part = document.createElement('span');
      part.className = cls;
      item.append(part, ' ');
    }
    item.onmouseenter = () => hover(item.dataset.move);
    item.onmouseleave = () => hover(null);
    item.onclick = () => playCandidate(item.dataset.move);
    list.appendChild(item);
  }
  // A small Quarto position's exact value, from the solver.
  const proven = on && state.analysis.ply === shownPly() ? state.analysis.proven : null;
  $('analysis-proven').hidden = !proven;
  if (proven) $('analysis-proven').textContent = provenText(proven);
  shown.forEach((c, i) => {
    const item = list.children[i];
    item.className = `candidate rank-${Math.min(c.rank, 8)}${c.move === hoveredMove ? ' hovered' : ''}`;
    item.dataset.move = c.move;
    item.dataset.rank = c.rank;
    item.querySelector('.move').textContent = c.move;
    const best = proven && proven.best === c.move;
    item.querySelector('.score').textContent = candidateScore(c.score) + (best ? ' (proven best)' : '');
    item.querySelector('.line').textContent = `d${c.depth} ${c.pv.slice(1, 8).join(' ')}`;
  });
}

// The solver's value of the position shown, in words.
function provenText(p) {
  const plies = p.plies === null ? '' : ` in ${p.plies} plies`;
  const best = p.best ? `; best ${p.best}` : '';
  if (p.winner === 'draw') return `Proven by the solver: a draw${best}`;
  const who = p.winner === 'first' ? 'the player to move wins' : 'the player to move loses';
  return `Proven by the solver: ${who}${plies}${best}`;
}

function playCandidate(move) {
  if (humanToMove() && state.legal.includes(move)) post('/move', { move });
}

// The candidates on a Quoridor board: a ring on a pawn's target square or
// the wall itself, with its score; the best is the most opaque.
function drawQuoridorCandidates(board) {
  const layer = $('q-cands');
  if (!layer) return;
  layer.innerHTML = '';
  for (const c of shownCandidates()) {
    const opacity = Math.max(0.25, 1 - 0.15 * (c.rank - 1));
    const g = el('g', { class: `cand rank-${c.rank}`, 'data-cand': c.move, opacity }, layer);
    let x;
    let y;
    if (/^[a-o]\d+[hv]$/.test(c.move)) {
      const r = place(wallRect(c.move, board), board);
      el('rect', { ...r, class: 'cand-wall' }, g);
      x = r.x + r.width / 2;
      y = r.y + r.height / 2;
    } else if (/^[a-o]\d+$/.test(c.move)) {
      const { col, row } = parseSquare(c.move);
      const r = place(cellRect(col, row, board), board);
      x = r.x + CELL / 2;
      y = r.y + CELL / 2;
      el('circle', { cx: x, cy: y, r: CELL * 0.42, class: 'cand-ring' }, g);
    } else {
      continue;
    }
    el('text', { x, y: y - CELL * 0.5 + 10, class: 'cand-score', 'text-anchor': 'middle' }, g).textContent =
      candidateScore(c.score);
    g.onmouseenter = () => hover(c.move);
    g.onmouseleave = () => hover(null);
    g.onclick = (event) => { event.stopPropagation(); playCandidate(c.move); };
  }
}

// The candidates on a Quarto board: the square to place on, with the piece
// to give and the score.
function drawQuartoCandidates(board) {
  const svg = $('board');
  for (const c of shownCandidates()) {
    const m = /^([a-d])(\d)([0-9a-f])?$/.exec(c.move);
    if (!m) continue;
    const corner = quartoCorner(m[1].charCodeAt(0) - 97, Number(m[2]) - 1, board.side);
    const opacity = Math.max(0.25, 1 - 0.15 * (c.rank - 1));
    const g = el('g', { class: `cand rank-${c.rank}`, 'data-cand': c.move, opacity }, svg);
    const x = corner.x + QCELL / 2;
    const y = corner.y + QCELL / 2;
    el('circle', { cx: x, cy: y, r: QCELL * 0.4, class: 'cand-ring' }, g);
    el('text', { x, y: y + 4, class: 'cand-score', 'text-anchor': 'middle' }, g).textContent =
      `${m[3] ? `give ${m[3]} ` : ''}${candidateScore(c.score)}`;
    g.onmouseenter = () => hover(c.move);
    g.onmouseleave = () => hover(null);
    g.onclick = () => playCandidate(c.move);
  }
}

function setupAnalysis() {
  $('analyse').onclick = () => { analysisPaused = false; askAnalysis(!analysisOn()); };
  $('analysis-lines').onchange = () => { if (analysisOn()) askAnalysis(true); };
  $('hint').onclick = askHint;
  document.addEventListener('keydown', (event) => {
    if (!state || event.target.closest('input, textarea, select, button')) return;
    if (event.key === ' ') {
      // Space pauses analysis, and resumes it where it was paused.
      if (analysisOn()) { analysisPaused = true; askAnalysis(false); } else if (analysisPaused) {
        analysisPaused = false;
        askAnalysis(true);
      } else return;
    } else if (event.key === 'a' || event.key === 'A') {
      analysisPaused = false;
      askAnalysis(!analysisOn());
    } else if (event.key === 'h' || event.key === 'H') {
      askHint();
    } else return;
    event.preventDefault();
  });
}
