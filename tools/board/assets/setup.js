// The setup form of the Tabula board: the variant, the time control (arena's
// `tc=` forms, or `inf` for no clock) and who plays each seat. It always
// shows the game the server plays (see syncForm).
'use strict';

const SEAT_COLOURS = ['blue', 'red', 'green', 'yellow'];

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
    `<label class="movetime">ms per move <input name="movetime${n}" id="movetime${n}" type="number" min="1" max="600000" value="1000"></label>`;
  return div;
}

// No clock: engines think a set time per move (`inf`, or nothing, as arena's tc).
function untimed(tc) {
  return tc.trim() === '' || tc.trim().toLowerCase() === 'inf';
}

// Quoridor fields for Quoridor, Quarto fields for Quarto, a seat per player;
// the time per move only without a clock (with one, engines play the clock).
function showFields() {
  const quarto = $('game').value === 'quarto';
  // The other game's fields are hidden and not sent: the server reads only
  // the keys of the game asked for (a key of the other game is refused).
  const show = (e, shown) => {
    e.hidden = !shown;
    e.querySelectorAll('input, select').forEach((field) => { field.disabled = !shown; });
  };
  document.querySelectorAll('.quoridor-only').forEach((e) => show(e, !quarto));
  document.querySelectorAll('.quarto-only').forEach((e) => show(e, quarto));
  const players = quarto ? 2 : Number($('players').value);
  for (let n = 1; n <= 4; n++) $(`seat-form-${n}`).hidden = n > players;
  const clockless = untimed($('tc').value);
  document.querySelectorAll('#seats .movetime').forEach((e) => { e.hidden = !clockless; });
}

// The setup form's fields (by name) for the game the server plays: its
// variant and time control (the view's `setup`) and who sits in each seat.
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
  $('tc').oninput = showFields;
  showFields();
  $('setup').onsubmit = (event) => {
    event.preventDefault();
    const fields = new FormData($('setup'));
    flipped = false;
    leaveViewing();
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
