// Game review on the Tabula board: the server's engine goes over every
// position of the game (POST /review, at the effort chosen here; Cancel
// stops it) and sends its values with every view. This file shows the
// progress, draws the evaluation graph (SVG, from P1's point of view, a
// forced or proven result clamped to ten moves, a proven value drawn as a
// square), marks the moves that gave advantage away (the thresholds are
// the server's, stated under the graph) and jumps to a move when the graph,
// a mark or a point is clicked.
'use strict';

const GRAPH_W = 320;
const GRAPH_H = 120;
const GRAPH_PAD = 6;
const GRAPH_CLAMP = 1000; // hundredths of a move: ten moves
const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

function reviewFields() {
  const [key, value] = $('review-effort').value.split('=');
  return { [key]: value, solve: $('review-solve').value };
}

function startReview() {
  return post('/review', reviewFields());
}

function cancelReview() {
  return post('/review', { cancel: '1' });
}

// The review of the game shown, if any.
function shownReview() {
  return state && state.review ? state.review : null;
}

// The mark of the move that led to `ply`, if the review made one.
function markAt(ply) {
  const review = shownReview();
  return review ? review.marks.find((m) => m.ply === ply) || null : null;
}

// The move list's glyph after a marked move (`??`, `?`, `?!`; a proven
// result thrown away is a blunder).
function moveGlyph(ply) {
  const mark = markAt(ply);
  if (!mark) return '';
  return mark.proven ? '??' : GLYPHS[mark.kind];
}

function graphX(ply, total) {
  return GRAPH_PAD + (ply * (GRAPH_W - 2 * GRAPH_PAD)) / Math.max(1, total - 1);
}

function graphY(value) {
  const v = Math.max(-GRAPH_CLAMP, Math.min(GRAPH_CLAMP, value));
  return GRAPH_H / 2 - (v / GRAPH_CLAMP) * (GRAPH_H / 2 - GRAPH_PAD);
}

// The graph's points: one per position (the start and after every move),
// a position not valued yet left out of the line.
function drawGraph(review) {
  const svg = $('eval-graph');
  svg.innerHTML = '';
  svg.setAttribute('viewBox', `0 0 ${GRAPH_W} ${GRAPH_H}`);
  el('rect', { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: 'graph-bg' }, svg);
  el('line', { x1: 0, x2: GRAPH_W, y1: GRAPH_H / 2, y2: GRAPH_H / 2, class: 'graph-zero' }, svg);
  const shown = shownPly();
  el('line', { x1: graphX(shown, review.total), x2: graphX(shown, review.total), y1: 0, y2: GRAPH_H,
    class: 'graph-now' }, svg);
  const valued = review.points.filter((p) => p && p.valued);
  if (valued.length > 0) {
    const xs = valued.map((p) => graphX(p.ply, review.total));
    const ys = valued.map((p) => graphY(p.value));
    const line = xs.map((x, i) => `${x.toFixed(1)},${ys[i].toFixed(1)}`).join(' ');
    const area = `${xs[0].toFixed(1)},${GRAPH_H / 2} ${line} ${xs[xs.length - 1].toFixed(1)},${GRAPH_H / 2}`;
    el('polygon', { points: area, class: 'graph-area' }, svg);
    el('polyline', { points: line, class: 'graph-line' }, svg);
  }
  for (const p of review.points) {
    if (!p) continue;
    const mark = markAt(p.ply);
    const x = graphX(p.ply, review.total);
    const y = graphY(p.value);
    const cls = `point${p.proven ? ' proven' : ''}${mark ? ` mark-${mark.kind}` : ''}${p.ply === shown ? ' now' : ''}`;
    const attrs = { class: cls, 'data-ply': p.ply };
    const shape = p.proven
      ? el('rect', { ...attrs, x: x - 3, y: y - 3, width: 6, height: 6 }, svg)
      : el('circle', { ...attrs, cx: x, cy: y, r: mark ? 3.5 : 2 }, svg);
    const title = el('title', {}, shape);
    title.textContent = `${p.ply === 0 ? 'start' : `after move ${p.ply}`}: ${p.label}${mark ? ` (${mark.text})` : ''}`;
  }
}

// A click anywhere on the graph shows the nearest position.
function graphClick(event) {
  const review = shownReview();
  if (!review) return;
  const box = $('eval-graph').getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * GRAPH_W;
  const step = (GRAPH_W - 2 * GRAPH_PAD) / Math.max(1, review.total - 1);
  viewPly(Math.max(0, Math.min(review.total - 1, Math.round((x - GRAPH_PAD) / step))));
}

function drawMarks(review) {
  const list = $('review-marks');
  list.innerHTML = '';
  for (const mark of review.marks) {
    const item = document.createElement('li');
    item.className = `mark mark-${mark.kind}${mark.proven ? ' proven' : ''}`;
    item.dataset.ply = mark.ply;
    const number = Math.floor((mark.ply - 1) / state.seats.length) + 1;
    item.textContent = `${number}. ${mark.proven ? 'proven result lost' : mark.kind}: ${mark.text}`;
    item.onclick = () => viewPly(mark.ply);
    list.appendChild(item);
  }
}

function drawReview() {
  const review = shownReview();
  const two = state.seats.length === 2;
  $('review').disabled = !two || (review && review.running);
  $('review').title = two ? 'Let the engine go over every position of the game' : 'four players: no graph';
  $('review-cancel').hidden = !(review && review.running);
  // Proofs where the engine's solver applies (see review.rs).
  const b = state.board;
  const provable = b.game === 'quarto' || b.width * b.height <= 64;
  $('review-solve').disabled = !provable;
  if (!provable) $('review-solve').value = '0';
  $('review-result').hidden = !review;
  if (!review) return;
  $('review-progress').max = review.total;
  $('review-progress').value = review.done;
  let status = `${review.done} of ${review.total} positions (${review.effort}`;
  status += review.solve ? `, proofs up to ${review.solve / 1000} s each)` : ')';
  if (review.cancelled) status += ': cancelled';
  else if (review.error) status += `: ${review.error}`;
  else if (!review.running) status += ': done';
  $('review-status').textContent = status;
  const t = review.thresholds;
  $('review-thresholds').textContent =
    `Marks by the advantage a move gives away: inaccuracy ${t.inaccuracy / 100}, mistake ${t.mistake / 100},` +
    ` blunder ${t.blunder / 100} moves or more (100 = one step of path); a move that turns a proven win or` +
    ' draw into less is a blunder whatever the scores. Squares: values the solver proved.';
  drawGraph(review);
  drawMarks(review);
}

function setupReview() {
  $('review').onclick = startReview;
  $('review-cancel').onclick = cancelReview;
  $('eval-graph').addEventListener('click', graphClick);
}
