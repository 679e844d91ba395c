// The panels around the board: a card per player (name, walls in hand drawn
// as pieces, clock), the clocks ticking between the server's views, the
// evaluation bar (P1's point of view, from the engines' `score cp` and
// `score mate`) and what the engine is thinking.
'use strict';

let clockSkew = null; // this page's Date.now() less the server's, at best

// Remembers how far this page's clock is ahead of the server's: the least
// difference seen (a view that waited before it was sent only adds to it).
function noteServerTime(at) {
  const skew = Date.now() - at;
  if (clockSkew === null || skew < clockSkew) clockSkew = skew;
}

// `m:ss` (`h:mm:ss` from an hour), tenths under ten seconds.
function formatClock(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return (Math.floor(left / 100) / 10).toFixed(1);
  const seconds = Math.floor(left / 1000);
  const two = (n) => String(n).padStart(2, '0');
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  return h > 0 ? `${h}:${two(m)}:${two(seconds % 60)}` : `${m}:${two(seconds % 60)}`;
}

// The time `seat` has left now, counting down from the view's reading.
function clockLeft(clock, seat) {
  const left = clock.left[seat];
  if (clock.running !== seat) return left;
  return left - Math.max(0, Date.now() - (clockSkew ?? 0) - clock.at);
}

// Which seats' cards go above the board and which below (P1 below unless flipped).
function cardRows(players) {
  const rows = players === 2 ? { top: [1], bottom: [0] } : { top: [2, 3], bottom: [0, 1] };
  return flipped ? { top: rows.bottom, bottom: rows.top } : rows;
}

function seatLabel(seat) {
  const s = state.seats[seat];
  if (s.kind === 'human') return `P${seat + 1} human`;
  return `P${seat + 1} engine ${s.level === null ? 'full strength' : `level ${s.level}`}`;
}

function card(seat, board) {
  const div = document.createElement('div');
  div.className = `card p${seat + 1}${state.toMove === seat ? ' to-move' : ''}`;
  div.dataset.seat = seat + 1;
  const swatch = document.createElement('span');
  swatch.className = `swatch p${seat + 1}`;
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = seatLabel(seat);
  const hand = document.createElement('span');
  hand.className = 'hand';
  if (board.game === 'quoridor') {
    const count = board.hands[seat];
    hand.title = `${count} wall${count === 1 ? '' : 's'} in hand`;
    hand.dataset.walls = count;
    for (let i = 0; i < count; i++) {
      const piece = document.createElement('span');
      piece.className = 'wall-piece';
      hand.appendChild(piece);
    }
  }
  const clock = document.createElement('span');
  clock.className = 'clock';
  div.append(swatch, who, hand, clock);
  return div;
}

function drawCards(board) {
  const rows = cardRows(state.seats.length);
  for (const [where, seats] of Object.entries(rows)) {
    const box = $(`cards-${where}`);
    box.innerHTML = '';
    for (const seat of seats) box.appendChild(card(seat, board));
  }
  tickClocks();
}

// Shows each clock as it is now; called by every view and ten times a second.
function tickClocks() {
  if (!state) return;
  document.querySelectorAll('.card').forEach((div) => {
    const seat = Number(div.dataset.seat) - 1;
    const shown = div.querySelector('.clock');
    const clock = state.clock;
    if (!clock) { shown.textContent = ''; shown.className = 'clock none'; return; }
    const left = clockLeft(clock, seat);
    shown.textContent = formatClock(left);
    shown.className = `clock${clock.running === seat ? ' running' : ''}${left < 10000 ? ' low' : ''}`;
  });
}

// P1's share of the bar, 0..100: 50 for an even game, 0 or 100 for a mate.
function evalShare(evaluation) {
  if (!evaluation) return 50;
  if (evaluation.kind === 'mate') return evaluation.value > 0 ? 100 : 0;
  return 100 / (1 + Math.exp(-evaluation.value / 250));
}

function evalText(evaluation) {
  if (!evaluation) return '';
  if (evaluation.kind === 'mate') return `${evaluation.value > 0 ? '' : '-'}M${Math.abs(evaluation.value)}`;
  const tenths = Math.round(evaluation.value / 10);
  if (tenths === 0) return '0.0';
  return `${tenths > 0 ? '+' : '-'}${(Math.abs(tenths) / 10).toFixed(1)}`;
}

function drawEval() {
  const bar = $('eval-bar');
  const evaluation = state.eval;
  bar.classList.toggle('two', state.seats.length === 2);
  bar.classList.toggle('flipped', flipped);
  const share = evalShare(evaluation);
  $('eval-fill').style.height = `${share}%`;
  bar.dataset.p1 = share.toFixed(1);
  bar.dataset.shown = evaluation ? 'yes' : 'no';
  $('eval-text').textContent = evalText(evaluation);
  bar.title = evaluation ? `the engines' last score, P1's point of view: ${evalText(evaluation)}` : 'no score yet';
}

function drawThinking() {
  const t = state.thinking;
  $('thinking').textContent = t && !viewing()
    ? `P${t.seat + 1} depth ${t.depth ?? '-'}  score ${t.score ?? '-'}  nodes ${t.nodes ?? '-'}\npv ${t.pv.join(' ')}`
    : '';
}
