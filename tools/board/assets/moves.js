// The move list, numbered by move (`1. e2 e8 2. ...`, a row per round of
// all players), and stepping through the game: a click on a move (or the
// arrows, or the keyboard's left and right) shows the board after it, as
// the server replays it (`GET /position?ply=N`); the live game goes on and
// is not touched. The last arrow goes back to the live board. Moves taken
// back, or loaded and not yet played, follow the live board's, greyed: the
// whole game can be stepped through and reviewed.
'use strict';

let viewed = null;   // {ply, board, last} while an earlier position is shown
let viewAsked = 0;   // the number of the last position asked for

function viewing() {
  return viewed !== null;
}

function leaveViewing() {
  viewed = null;
  viewAsked += 1;
}

// Rows of moves: [{number, moves: [{ply, text}]}], `players` moves a row.
function moveRows(moves, players) {
  const rows = [];
  moves.forEach((text, i) => {
    if (i % players === 0) rows.push({ number: i / players + 1, moves: [] });
    rows[rows.length - 1].moves.push({ ply: i + 1, text });
  });
  return rows;
}

// The ply shown: the viewed one, or the live game's last.
function shownPly() {
  return viewing() ? viewed.ply : state.moves.length;
}

// The whole game as known: the moves played, then those ahead.
function gameLine() {
  return state.moves.concat(state.ahead || []);
}

function drawMoves() {
  const list = $('moves');
  const current = shownPly();
  list.innerHTML = '';
  const played = state.moves.length;
  for (const row of moveRows(gameLine(), state.seats.length)) {
    const div = document.createElement('div');
    div.className = 'move-row';
    const number = document.createElement('span');
    number.className = 'num';
    number.textContent = `${row.number}.`;
    div.appendChild(number);
    for (const move of row.moves) {
      const button = document.createElement('button');
      button.type = 'button';
      const mark = typeof markAt === 'function' ? markAt(move.ply) : null;
      button.className = `mv${move.ply === current ? ' current' : ''}${move.ply > played ? ' ahead' : ''}` +
        `${mark ? ` mark-${mark.kind}` : ''}`;
      button.dataset.ply = move.ply;
      button.textContent = move.text + (mark ? moveGlyph(move.ply) : '');
      if (mark) button.title = mark.text;
      button.onclick = () => viewPly(move.ply);
      div.appendChild(button);
    }
    list.appendChild(div);
  }
  const shown = list.querySelector('.current');
  if (shown && !viewing()) list.scrollTop = list.scrollHeight;
  else if (shown) shown.scrollIntoView({ block: 'nearest' });
  $('view-start').disabled = current === 0;
  $('view-back').disabled = current === 0;
  $('view-forward').disabled = current >= gameLine().length;
  $('view-live').disabled = !viewing();
}

// Shows the board after `ply` moves; the last ply played is the live board.
async function viewPly(ply) {
  if (!state) return;
  const target = Math.max(0, Math.min(ply, gameLine().length));
  const asked = ++viewAsked;
  if (target === state.moves.length) {
    viewed = null;
    render();
    followShownPly();
    return;
  }
  const answer = await fetch(`/position?ply=${target}`);
  if (asked !== viewAsked) return; // a later step was asked for meanwhile
  if (!answer.ok) { showNotice(await answer.text()); return; }
  viewed = await answer.json();
  render();
  followShownPly();
}

// A new view from the server: a position past the game's end is no longer
// there to show, and the live board is shown as such.
function checkViewed() {
  if (viewing() && (viewed.ply > gameLine().length || viewed.ply === state.moves.length)) leaveViewing();
}

function setupMoves() {
  $('view-start').onclick = () => viewPly(0);
  $('view-back').onclick = () => viewPly(shownPly() - 1);
  $('view-forward').onclick = () => viewPly(shownPly() + 1);
  $('view-live').onclick = () => viewPly(state.moves.length);
  document.addEventListener('keydown', (event) => {
    if (!state || event.target.closest('input, textarea, select')) return;
    if (event.key === 'ArrowLeft') viewPly(shownPly() - 1);
    else if (event.key === 'ArrowRight') viewPly(shownPly() + 1);
    else return;
    event.preventDefault();
  });
}
