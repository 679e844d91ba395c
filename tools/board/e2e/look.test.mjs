// Browser tests of how the board looks and behaves as a game site: the last
// move, clocks, the evaluation bar, walls in hand, the numbered move list
// stepped through, Quarto's coordinates and winning line, principal
// variation colours, the favicon, the layout at desktop and phone width, and
// the screenshots in docs/ (SCREENSHOTS=dir writes them elsewhere).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup, root, openBoard, openPage, view, waitFor, newGame, placeWall, wallPoint, PHONE } from './harness.mjs';

setup();
const SHOTS = process.env.SCREENSHOTS || join(root, 'docs');
const human = { kind: 'human' };
const FIVE = { width: 5, height: 5, walls: 3, players: 2 };
const cellClass = (page, square) => page.getAttribute(`#board rect.cell[data-square="${square}"]`, 'class');
const walls = (page, seat) => page.locator(`.card[data-seat="${seat}"] .wall-piece`).count();

async function step(page, square) {
  const before = (await view(page)).moves.length;
  await page.click(`#board rect.cell.legal[data-square="${square}"]`);
  return waitFor(page, (s) => s.moves.length === before + 1, `the step ${square}`);
}

test('the last move, walls in hand, and the move list stepped through without touching the game', async () => {
  const page = await openBoard();
  await newGame(page, { ...FIVE, seats: [human, human] });
  assert.equal(await walls(page, 1), 3);
  assert.equal(await walls(page, 2), 3);
  await step(page, 'c2');
  assert.match(await cellClass(page, 'c1'), /last-from/);
  assert.match(await cellClass(page, 'c2'), /last-to/);
  await step(page, 'c4');
  assert.equal(await placeWall(page, 'b2h'), 'yes');
  await waitFor(page, (s) => s.moves.length === 3, 'the wall');
  assert.match(await page.getAttribute('#board rect.wall[data-wall="b2h"]', 'class'), /last/);
  assert.equal(await page.locator('#board rect.cell.last-from, #board rect.cell.last-to').count(), 0);
  assert.equal(await walls(page, 1), 2, 'P1 has one wall fewer in hand');
  assert.equal(await walls(page, 2), 3);
  await step(page, 'c3');
  // Numbered by move: 1. c2 c4 2. b2h c3.
  const rows = await page.locator('#moves .move-row').allTextContents();
  assert.deepEqual(rows.map((r) => r.replace(/\s+/g, ' ').trim()), ['1.c2c4', '2.b2hc3']);
  await page.click('#moves .mv[data-ply="1"]');
  await page.waitForSelector('#board[data-viewing="1"]');
  assert.equal(await page.getAttribute('#board [data-pawn="1"]', 'data-square'), 'c2');
  assert.equal(await page.getAttribute('#board [data-pawn="2"]', 'data-square'), 'c5');
  assert.equal(await page.locator('#board rect.wall').count(), 0);
  assert.equal(await page.locator('#board rect.cell.legal').count(), 0, 'a past position is not played on');
  assert.match(await page.textContent('#status'), /Viewing move 1 of 4/);
  assert.match(await page.getAttribute('#moves .mv[data-ply="1"]', 'class'), /current/);
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#board[data-viewing="2"]');
  assert.equal(await page.getAttribute('#board [data-pawn="2"]', 'data-square'), 'c4');
  assert.equal((await view(page)).moves.length, 4, 'the live game is untouched');
  await page.click('#view-live');
  await page.waitForSelector('#board[data-viewing=""]');
  assert.equal(await page.locator('#board rect.wall').count(), 1);
  assert.ok(await page.locator('#board rect.cell.legal').count() > 0, 'back on the live board, P1 moves');
});

test('clocks: the side to move\'s runs, the increment is added, running out loses on time', async () => {
  const page = await openBoard();
  await newGame(page, { ...FIVE, tc: '3+1', seats: [human, human] });
  assert.match(await page.getAttribute('.card[data-seat="1"] .clock', 'class'), /running/);
  assert.doesNotMatch(await page.getAttribute('.card[data-seat="2"] .clock', 'class'), /running/);
  assert.equal(await page.textContent('.card[data-seat="2"] .clock'), '3.0');
  const s = await step(page, 'c2');
  assert.ok(s.clock.left[0] > 3000, `P1 moved within a second and got 1 s more: ${s.clock.left}`);
  assert.match(await page.getAttribute('.card[data-seat="2"] .clock', 'class'), /running/);
  const end = await waitFor(page, (t) => t.result, 'P2 to run out of time', 10);
  assert.equal(end.result.why, 'P2 loses on time');
  assert.equal(end.result.winner, 0);
  assert.match(await page.textContent('#status'), /Game over: P2 loses on time/);
  assert.equal(await page.textContent('.card[data-seat="2"] .clock'), '0.0');
});

test('an engine on a clock, and its score on the evaluation bar from P1\'s point of view', async () => {
  const page = await openBoard();
  await newGame(page, { ...FIVE, tc: '10+0.5', seats: [human, { kind: 'engine', level: 'full' }] });
  assert.ok(await page.isHidden('#movetime2'), 'with a clock, no time per move');
  await step(page, 'c2');
  const s = await waitFor(page, (t) => t.moves.length === 2 && t.eval, 'the engine\'s move and score', 30);
  assert.ok(s.clock.left[1] < 10500 && s.clock.left[1] > 0, `the engine played on its clock: ${s.clock.left}`);
  assert.equal(s.result, null);
  assert.equal(await page.getAttribute('#eval-bar', 'data-shown'), 'yes');
  const share = Number(await page.getAttribute('#eval-bar', 'data-p1'));
  const expected = s.eval.kind === 'mate' ? (s.eval.value > 0 ? 100 : 0) : 100 / (1 + Math.exp(-s.eval.value / 250));
  assert.ok(Math.abs(share - expected) < 0.1, `${share} for ${JSON.stringify(s.eval)}`);
  assert.ok(await page.isVisible('#eval-bar'));
});

test('Quarto: coordinates, the last square and the winning line', async () => {
  const page = await openBoard();
  await newGame(page, { game: 'quarto', board: '4x4', level: 1, seats: [human, human] });
  const labels = await page.locator('#board text.label').allTextContents();
  assert.deepEqual(labels.sort(), ['1', '2', '3', '4', 'a', 'b', 'c', 'd']);
  await page.click('#pool [data-piece="1"]');
  await waitFor(page, (s) => s.moves.length === 1, 'the gift');
  // Dark pieces (odd numbers) along row 1.
  for (const [square, piece] of [['a1', '3'], ['b1', '5'], ['c1', '7']]) {
    const n = (await view(page)).moves.length;
    await page.click(`#board rect[data-square="${square}"]`);
    await page.click(`#pool [data-piece="${piece}"]`);
    await waitFor(page, (s) => s.moves.length === n + 1, `${square}${piece}`);
    assert.match(await page.getAttribute(`#board rect[data-square="${square}"]`, 'class'), /last/);
  }
  await page.click('#board rect[data-square="d1"]');
  const end = await waitFor(page, (s) => s.result, 'the win');
  assert.equal(end.result.winner, 0);
  const won = await page.locator('#board rect.qcell.win').evaluateAll((cells) => cells.map((c) => c.dataset.square));
  assert.deepEqual(won.sort(), ['a1', 'b1', 'c1', 'd1']);
});

// Where an element is on the page (not on the screen, which scrolls).
const placed = (page, selector) => page.$eval(selector, (e) => {
  const r = e.getBoundingClientRect();
  return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
});
const boardBox = (page) => placed(page, '#board');

for (const [name, viewport] of [['desktop', undefined], ['phone', PHONE]]) {
  test(`layout at ${name} width: the board fits above the controls and nothing moves as texts change`, async () => {
    const page = await openBoard([], viewport);
    await newGame(page, { width: 9, height: 9, walls: 10, players: 2, seats: [human, human] });
    const box = await boardBox(page);
    const controls = await placed(page, '#controls');
    const width = viewport ? viewport.width : 1400;
    assert.ok(box.x >= 0 && box.x + box.width <= width, `the board is on the screen: ${JSON.stringify(box)}`);
    assert.ok(box.y + box.height <= controls.y, 'the controls are below the board');
    if (viewport) assert.ok(box.y + box.height <= viewport.height, 'the whole board on the first screen');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
    // A status that changes and a refusal shown: the board stays where it is.
    await step(page, 'e2');
    assert.equal(await placeWall(page, 'd5h'), 'yes');
    await waitFor(page, (s) => s.moves.length === 2, 'd5h');
    assert.equal(await placeWall(page, 'e5h'), 'no', 'e5h overlaps d5h');
    await waitFor(page, (s) => s.notice, 'the refusal');
    assert.deepEqual(await boardBox(page), box, 'the board did not move');
    assert.deepEqual(await placed(page, '#controls'), controls);
  });
}

test('screenshots for the README: desktop and phone, with the engine thinking', async () => {
  const requests = [];
  const page = await openBoard();
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  const icon = await page.getAttribute('link[rel="icon"]', 'href');
  assert.ok(icon.startsWith('data:image/svg+xml,'), 'the favicon is built into the page');
  await newGame(page, { width: 9, height: 9, walls: 10, players: 2, tc: '120+3',
    seats: [human, { kind: 'engine', level: 'full' }] });
  await step(page, 'e2');
  await waitFor(page, (s) => s.moves.length === 2, 'the engine\'s reply', 60);
  assert.equal(await placeWall(page, 'd6h'), 'yes');
  await waitFor(page, (s) => s.moves.length === 4, 'the engine\'s reply', 60);
  await step(page, 'e3');
  const s = await waitFor(page, (t) => t.thinking && t.thinking.pv.length >= 4 && t.thinking.depth >= 5,
    'a principal variation', 60);
  // Markers in the colour of the side that plays each move: P2 thinks.
  assert.match(await page.getAttribute('#q-pvs [data-pv="1"]', 'class'), /pv-p2/);
  assert.match(await page.getAttribute('#q-pvs [data-pv="2"]', 'class'), /pv-p1/);
  const p = await wallPoint(page, 'c3h', s.board);
  await page.mouse.move(p.x, p.y);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'board.png') });
  const url = page.url();
  const phone = await openPage(url, PHONE);
  // The same game (the engine may have moved meanwhile).
  await waitFor(phone, (t) => t.moves.length >= s.moves.length, 'the game, on the phone');
  await phone.screenshot({ path: join(SHOTS, 'board-phone.png') });
  assert.ok(!requests.includes('/favicon.ico'), `no favicon request: ${requests}`);
});
