// Tests of the page's own logic, without a browser: board.js is run in a
// bare context (it starts nothing when there is no document) and its
// functions are called on views as the server sends them. Run with
// `node --test page.test.mjs`; no package is needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'assets', 'board.js'), 'utf8');
const page = vm.createContext({});
vm.runInContext(source, page);

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
