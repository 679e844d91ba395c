// Tests of the page's own logic, without a browser: the page's scripts are
// run in one bare context, in the page's order (board.js starts nothing
// when there is no document), and their functions are called on views as
// the server sends them. Run with
// `node --test page.test.mjs`; no package is needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');
const page = vm.createContext({});
// The scripts in the order index.html loads them.
const html = readFileSync(join(assets, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script src="\/([a-z]+\.js)"><\/script>/g)].map((m) => m[1]);
for (const name of scripts) vm.runInContext(readFileSync(join(assets, name), 'utf8'), page, { filename: name });

test('the page loads its scripts, board.js last', () => {
  assert.deepEqual(scripts,
    ['setup.js', 'quoridor.js', 'quarto.js', 'panels.js', 'moves.js', 'analysis.js', 'review.js', 'board.js']);
});

test('the evaluation graph: P1 up, clamped at ten moves, the positions spread over its width', () => {
  // review.js draws on 320 x 120 with a margin of 6.
  assert.equal(page.graphY(0), 60);
  assert.equal(page.graphY(1000), 6, 'P1 ten moves ahead at the top');
  assert.equal(page.graphY(5000), 6, 'clamped');
  assert.equal(page.graphY(-1000), 114);
  assert.equal(page.graphX(0, 66), 6);
  assert.equal(page.graphX(65, 66), 314);
  assert.equal(page.graphX(0, 1), 6, 'a game without moves');
});

test('candidate scores read as moves of advantage or a forced result', () => {
  assert.equal(page.candidateScore('cp 31'), '+0.31');
  assert.equal(page.candidateScore('cp -250'), '-2.50');
  assert.equal(page.candidateScore('cp 0 lowerbound'), '≥+0.00');
  assert.equal(page.candidateScore('mate 3'), 'wins in 3');
  assert.equal(page.candidateScore('mate -2'), 'loses in 2');
  assert.equal(page.candidateScore(null), '');
});

// The goal rows and columns as the server names them (view.rs: from the rules).
const edge = (width, height, which) => {
  const squares = [];
  for (let row = 1; row <= height; row++) {
    for (let col = 0; col < width; col++) {
      const name = String.fromCharCode(97 + col) + row;
      if ({ north: row === height, south: row === 1, east: col === width - 1, west: col === 0 }[which]) squares.push(name);
    }
  }
  return squares;
};

test('four players: P1 north, P2 east, P3 south, P4 west are tinted as their pawns', () => {
  const board = { width: 5, height: 5, pawns: ['c1', 'a3', 'c5', 'e3'],
    goals: ['north', 'east', 'south', 'west'].map((w) => edge(5, 5, w)) };
  assert.equal(page.goalClass(2, 5, board), 'goal-1', 'c5: P1 (blue) goes north');
  assert.equal(page.goalClass(4, 3, board), 'goal-2', 'e3: P2 (red) goes east');
  assert.equal(page.goalClass(2, 1, board), 'goal-3', 'c1: P3 (green) goes south');
  assert.equal(page.goalClass(0, 3, board), 'goal-4', 'a3: P4 (yellow) goes west');
  assert.equal(page.goalClass(2, 3, board), '', 'c3: nobody\'s goal');
});

test('two players: P1 north, P2 south', () => {
  const board = { width: 5, height: 5, pawns: ['c1', 'c5'], goals: [edge(5, 5, 'north'), edge(5, 5, 'south')] };
  assert.equal(page.goalClass(2, 5, board), 'goal-1');
  assert.equal(page.goalClass(2, 1, board), 'goal-2');
  assert.equal(page.goalClass(4, 3, board), '');
});

test('the form shows the game the server plays: its variant and seats', () => {
  const start = {
    setup: { game: 'quoridor', width: '9', height: '9', walls: '10', players: '2', multijump: 'false' },
    seats: [{ kind: 'human' }, { kind: 'human' }],
  };
  const values = page.formValues(start);
  assert.equal(values.seat1, 'human');
  assert.equal(values.seat2, 'human', 'the first page plays human against human, and says so');
  assert.equal(values.width, '9');
  const quarto = {
    setup: { game: 'quarto', board: '3x3', level: '1' },
    seats: [{ kind: 'engine', level: 3, movetime: 250 }, { kind: 'engine', level: null, movetime: 1000 }],
  };
  const loaded = page.formValues(quarto);
  assert.equal(loaded.game, 'quarto', 'after a Quarto position is loaded the form says Quarto');
  assert.equal(loaded.board, '3x3');
  assert.deepEqual([loaded.seat1, loaded.level1, loaded.movetime1], ['engine', '3', '250']);
  assert.deepEqual([loaded.seat2, loaded.level2], ['engine', 'full']);
});

test('clocks read m:ss, h:mm:ss from an hour, tenths under ten seconds', () => {
  assert.equal(page.formatClock(300000), '5:00');
  assert.equal(page.formatClock(61500), '1:01');
  assert.equal(page.formatClock(3723000), '1:02:03');
  assert.equal(page.formatClock(9950), '9.9');
  assert.equal(page.formatClock(-20), '0.0', 'a fallen clock shows zero');
});

test('the evaluation bar: P1 ahead fills more of it, a mate all or none', () => {
  assert.equal(page.evalShare(null), 50);
  assert.equal(page.evalShare({ kind: 'cp', value: 0 }), 50);
  assert.ok(page.evalShare({ kind: 'cp', value: 200 }) > 65);
  assert.ok(page.evalShare({ kind: 'cp', value: -200 }) < 35);
  assert.equal(page.evalShare({ kind: 'mate', value: 3 }), 100);
  assert.equal(page.evalShare({ kind: 'mate', value: -1 }), 0);
  assert.equal(page.evalText({ kind: 'cp', value: 150 }), '+1.5');
  assert.equal(page.evalText({ kind: 'mate', value: -2 }), '-M2');
  assert.equal(page.evalText({ kind: 'cp', value: -1 }), '0.0', 'no minus zero');
  assert.equal(page.evalText({ kind: 'cp', value: -34 }), '-0.3');
});

test('the move list is numbered by move, a row per round', () => {
  // Plain data, out of the page's context (whose arrays are of another realm).
  const rows = JSON.parse(JSON.stringify(page.moveRows(['e2', 'e8', 'e3', 'e7', 'd3h'], 2)));
  assert.deepEqual(rows.map((r) => r.number), [1, 2, 3]);
  assert.deepEqual(rows[2].moves, [{ ply: 5, text: 'd3h' }]);
  const four = JSON.parse(JSON.stringify(page.moveRows(['c2', 'b3', 'c4', 'd3', 'c3'], 4)));
  assert.deepEqual(four.map((r) => r.moves.length), [4, 1]);
});

test('principal variation markers go round the seats from the one thinking', () => {
  assert.deepEqual([0, 1, 2, 3].map((i) => page.pvSeat(1, i, 2)), [1, 0, 1, 0]);
  assert.deepEqual([0, 1, 2, 3, 4].map((i) => page.pvSeat(2, i, 4)), [2, 3, 0, 1, 2]);
});
