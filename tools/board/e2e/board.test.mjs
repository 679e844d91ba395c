// Browser tests of tabula-board: the real binary, Debian's Chromium driven by
// playwright-core, and clicks where a person would click. Binaries come from
// target/release (build the workspace first); CHROMIUM overrides the browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, release, openBoard, view, waitFor, newGame, setSeats, placeWall } from './harness.mjs';

setup();
const ARENA = join(release, 'arena');
const TABULA = join(release, 'tabula');

// Steps along the shortest route of seat 0 to its goal (the north edge),
// walls considered, pawns ignored: the legal step nearest the goal.
function bestStep(s) {
  const { width, height, walls } = s.board;
  const col = (name) => name.charCodeAt(0) - 97;
  const row = (name) => Number(name.slice(1).replace(/[hv]$/, ''));
  const blocked = (c, r, dc, dr) => walls.some((w) => {
    const wc = col(w), wr = row(w);
    if (w.endsWith('h') && dc === 0) { const south = Math.min(r, r + dr); return south === wr && (c === wc || c === wc + 1); }
    if (w.endsWith('v') && dr === 0) { const west = Math.min(c, c + dc); return west === wc && (r === wr || r === wr + 1); }
    return false;
  });
  const dist = new Map();
  const queue = [];
  for (let c = 0; c < width; c++) { dist.set(`${c},${height}`, 0); queue.push([c, height]); }
  while (queue.length) {
    const [c, r] = queue.shift();
    for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nc = c + dc, nr = r + dr;
      if (nc < 0 || nc >= width || nr < 1 || nr > height || dist.has(`${nc},${nr}`) || blocked(c, r, dc, dr)) continue;
      dist.set(`${nc},${nr}`, dist.get(`${c},${r}`) + 1);
      queue.push([nc, nr]);
    }
  }
  const steps = s.legal.filter((m) => /^[a-o]\d+$/.test(m));
  steps.sort((a, b) => (dist.get(`${col(a)},${row(a)}`) ?? 99) - (dist.get(`${col(b)},${row(b)}`) ?? 99));
  return steps[0];
}

// The moves of a PGN record and its result, last: its movetext without
// move numbers (`1.`, `1...`), `{...}` comments and `;` lines.
function recordMoves(text) {
  const movetext = text.split('\n').filter((l) => !l.startsWith('[') && !l.startsWith(';')).join(' ');
  return movetext.replace(/\{[^}]*\}/g, ' ').split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t));
}

const humanTurn = (seat) => (s) => s.result || (s.toMove === seat && s.seats[seat].kind === 'human');

test('a whole 5x5 game against level 1, by clicks, to the end', async () => {
  const page = await openBoard();
  await newGame(page, { width: 5, height: 5, walls: 3, players: 2,
    seats: [{ kind: 'human' }, { kind: 'engine', level: 1, movetime: 50 }] });
  for (let turn = 0; turn < 60; turn++) {
    const s = await waitFor(page, humanTurn(0), 'P1 to move');
    if (s.result) break;
    const step = bestStep(s);
    await page.click(`#board rect.cell.legal[data-square="${step}"]`);
    await waitFor(page, (t) => t.moves.length > s.moves.length, `the step ${step}`);
  }
  const end = await waitFor(page, (s) => s.result, 'the end of the game');
  assert.equal(end.result.winner, 0, `the human walking the shortest route wins: ${JSON.stringify(end)}`);
  assert.match(await page.textContent('#status'), /Game over: P1 wins/);
  // The record holds every move and replays in arena's reader (the page's Save link).
  const record = await page.evaluate(() => fetch('/record').then((r) => r.text()));
  assert.ok(record.includes('[Result "1-0"]'), record);
  assert.deepEqual(recordMoves(record), [...end.moves, '1-0'], record);
});

test('a wall that would shut a pawn in shows red and is refused with the reason', async () => {
  const page = await openBoard();
  await newGame(page, { width: 5, height: 5, walls: 3, players: 2, seats: [{ kind: 'human' }, { kind: 'human' }] });
  assert.equal(await placeWall(page, 'c1h'), 'yes');
  await waitFor(page, (s) => s.moves.length === 1, 'c1h');
  assert.equal(await placeWall(page, 'b1v'), 'yes');
  await waitFor(page, (s) => s.moves.length === 2, 'b1v');
  assert.equal(await placeWall(page, 'd1v'), 'no', 'd1v closes P1 into c1 and d1');
  const s = await waitFor(page, (t) => t.notice, 'the refusal');
  assert.match(s.notice, /cut a player off its goal/);
  assert.deepEqual(s.moves, ['c1h', 'b1v']);
  assert.equal(await page.locator('#board rect.wall').count(), 2);
  assert.match(await page.textContent('#notice'), /d1v/);
  // Flipped, P1's edge (row 1, with the walls just placed) is at the top.
  const wallY = async () => (await page.locator('#board rect.wall[data-wall="c1h"]').boundingBox()).y;
  const pawnY = async () => (await page.locator('#board [data-pawn="1"]').boundingBox()).y;
  const [wallBefore, pawnBefore] = [await wallY(), await pawnY()];
  await page.click('#flip');
  await page.waitForTimeout(500); // the pawn slides
  assert.ok((await wallY()) < wallBefore - 100 && (await pawnY()) < pawnBefore - 100, 'the board turned round');
});

test('a four-player game goes round and ends', async () => {
  const page = await openBoard();
  const engine = { kind: 'engine', movetime: 40 };
  await newGame(page, { width: 5, height: 5, walls: 2, players: 4, seats: [{ kind: 'human' }, engine, engine, engine] });
  assert.equal(await page.locator('#board [data-pawn]').count(), 4);
  // Each goal edge in its player's colour: P1 north, P2 east, P3 south, P4 west.
  const tint = (square) => page.getAttribute(`#board rect.cell[data-square="${square}"]`, 'class');
  assert.match(await tint('c5'), /goal-1/);
  assert.match(await tint('e3'), /goal-2/);
  assert.match(await tint('c1'), /goal-3/, 'row 1 is green P3\'s goal');
  assert.match(await tint('a3'), /goal-4/);
  const s = await waitFor(page, humanTurn(0), 'P1 to move');
  await page.click(`#board rect.cell.legal[data-square="${s.legal.find((m) => /^[a-o]\d+$/.test(m))}"]`);
  await waitFor(page, (t) => t.result || (t.moves.length >= 4 && t.toMove === 0), 'three engine moves');
  await setSeats(page, [engine]);
  await page.click('#apply-seats');
  const end = await waitFor(page, (t) => t.result, 'the end', 120);
  assert.match(end.result.why, /wins|draw/);
  assert.match(await page.textContent('#status'), /Game over/);
});

// A reproducible sequence of choices.
function chooser(seed) {
  let x = seed;
  return (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
}

test('Quarto at rule level 2, pieces given and placed by clicks, to a win', async () => {
  const page = await openBoard();
  await newGame(page, { game: 'quarto', board: '4x4', level: 2,
    seats: [{ kind: 'human' }, { kind: 'engine', movetime: 100 }] });
  const pick = chooser(7);
  for (let turn = 0; turn < 20; turn++) {
    const s = await waitFor(page, humanTurn(0), 'P1 to move');
    if (s.result) break;
    const move = s.legal[pick(s.legal.length)];
    if (/^[0-9a-f]$/.test(move)) {
      await page.click(`#pool [data-piece="${move}"]`);
    } else {
      await page.click(`#board rect[data-square="${move.slice(0, 2)}"]`);
      if (move.length > 2) await page.click(`#pool [data-piece="${move.slice(2)}"]`);
    }
    await waitFor(page, (t) => t.moves.length > s.moves.length, `the turn ${move}`);
  }
  const end = await waitFor(page, (s) => s.result, 'the end');
  assert.notEqual(end.result.winner, null, `a win at level 2: ${JSON.stringify(end)}`);
  assert.equal(end.variant, 'quarto 4x4 level=2');
  assert.ok((await page.locator('#board [data-piece]').count()) >= 4);
});

test('the form shows the game the board plays, from the first page and after a load', async () => {
  const page = await openBoard();
  const s = await view(page);
  assert.deepEqual(s.seats.map((seat) => seat.kind), ['human', 'human']);
  assert.equal(await page.inputValue('#seat1'), 'human');
  assert.equal(await page.inputValue('#seat2'), 'human', 'the board starts human against human');
  await page.fill('#load-text', 'quarto 3x3 level=1 board=.../.../... hand=- turn=1');
  await page.click('#load');
  await waitFor(page, (t) => t.variant === 'quarto 3x3 level=1', 'the Quarto position');
  assert.equal(await page.inputValue('#game'), 'quarto');
  assert.equal(await page.inputValue('#quarto-board'), '3x3');
  assert.ok(await page.isHidden('#width'), 'the Quoridor fields are hidden');
});

test('an arena record loads and steps through move by move', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-pgn-'));
  const pgn = join(dir, 'games.pgn');
  execFileSync(ARENA, ['-engine', `cmd=${TABULA}`, 'name=A', '-engine', `cmd=${TABULA}`, 'name=B',
    '-each', 'depth=2', '-variant', 'width=5', 'height=5', 'walls=2', '-games', '1', '-pgnout', pgn],
    { cwd: dir }); // arena keeps its match state (config.json) where it runs
  const text = readFileSync(pgn, 'utf8');
  const moves = recordMoves(text).slice(0, -1);
  const page = await openBoard();
  await page.fill('#load-text', text);
  await page.click('#load');
  await waitFor(page, (s) => s.redo === moves.length && s.moves.length === 0, 'the loaded record');
  for (let i = 1; i <= moves.length; i++) {
    await page.click('#redo');
    const s = await waitFor(page, (t) => t.moves.length === i, `move ${i}`);
    assert.deepEqual(s.moves, moves.slice(0, i));
  }
  const end = await view(page);
  assert.ok(end.result, 'the record ends in a finished game');
  await page.click('#undo');
  await waitFor(page, (s) => s.moves.length === moves.length - 1 && s.redo === 1, 'a step back');
});

test('an engine that crashes mid-game is reported and the game is kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-crash-'));
  const script = join(dir, 'crashy.sh');
  writeFileSync(script, `#!/bin/sh
n=0
while IFS= read -r line; do
  case "$line" in
    uci) echo 'id name Crashy'; echo uciok ;;
    isready) echo readyok ;;
    go*) n=$((n+1)); if [ $n -ge 2 ]; then exit 1; fi; echo 'bestmove c4' ;;
    quit) exit 0 ;;
  esac
done
`);
  chmodSync(script, 0o755);
  const page = await openBoard(['--engine', script]);
  await newGame(page, { width: 5, height: 5, walls: 3, players: 2,
    seats: [{ kind: 'human' }, { kind: 'engine', level: 1, movetime: 50 }] });
  await page.click('#board rect.cell.legal[data-square="c2"]');
  await waitFor(page, (s) => s.moves.length === 2, 'the engine answers c4');
  await page.click('#board rect.cell.legal[data-square="b2"]');
  const s = await waitFor(page, (t) => t.notice, 'the crash report');
  assert.match(s.notice, /P2 crashed; the seat is now human/);
  assert.deepEqual(s.moves, ['c2', 'c4', 'b2']);
  assert.equal(s.seats[1].kind, 'human');
  await page.click('#board rect.cell.legal[data-square="c3"]');
  await waitFor(page, (t) => t.moves.length === 4, 'the game goes on');
});
