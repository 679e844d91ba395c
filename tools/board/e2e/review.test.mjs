// Browser tests of game review and hints: a recorded game reviewed draws
// one graph point per position, marks the move that threw a proven win
// away, jumps to a move clicked on the graph, and comes back from its saved
// record; four players get candidates and no review; a hint shows one move
// and stops the engine; a rated game has neither until it ends; and the
// screenshots of analysis and review in docs/ (SCREENSHOTS=dir writes them
// elsewhere).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup, root, openBoard, view, waitFor, newGame, PHONE } from './harness.mjs';

setup();
const SHOTS = process.env.SCREENSHOTS || join(root, 'docs');
// A 9x9 game of Tabula level 4 against level 7 (arena, 100 ms a move).
const GAME = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'game-9x9.pgn'), 'utf8');
const human = { kind: 'human' };

// 3x3 Quarto, lines only: P2 could win at once with piece 2 on c1 (a1 and
// b1 share "attribute 2 clear" with it) but places it on a2 and gives 3,
// which wins on c1 for P1.
export const BLUNDER_GAME = '[Game "1"]\n[Variant "quarto 3x3 level=1"]\n\n0 a11 b12 a23 c1\n1-0\n';

async function load(page, text) {
  await page.fill('#load-text', text);
  const before = (await view(page)).version;
  await page.click('#load');
  return waitFor(page, (s) => s.version > before && s.ahead.length + s.moves.length === 5, 'the record loaded');
}

const reviewed = (s) => s.review && !s.review.running && s.review.done === s.review.total;

test('a review draws a point per position, marks the thrown-away win, jumps on a click, and is saved', async () => {
  const page = await openBoard();
  await load(page, BLUNDER_GAME);
  await page.selectOption('#review-effort', 'nodes=20000');
  await page.selectOption('#review-solve', '2000');
  await page.click('#review');
  let s = await waitFor(page, reviewed, 'the review to finish');
  assert.equal(s.review.total, 6, 'the start and five moves');
  assert.equal(await page.locator('#eval-graph .point').count(), 6, 'one point per position');
  const thrown = s.review.marks.find((m) => m.ply === 4);
  assert.ok(thrown && thrown.kind === 'blunder' && thrown.proven, JSON.stringify(s.review.marks));
  assert.match(thrown.text, /a23 turned a proven win into a loss/);
  assert.match(await page.getAttribute('#eval-graph .point[data-ply="4"]', 'class'), /mark-blunder/);
  assert.match(await page.textContent('#moves .mv[data-ply="4"]'), /a23\?\?/);
  assert.match(await page.textContent('#review-thresholds'), /inaccuracy 0.5, mistake 1, blunder 2/);
  assert.match(await page.textContent('#review-marks'), /proven result lost/);
  // The last position is P1's win, proven: a square at the top.
  assert.equal(await page.locator('#eval-graph rect.point.proven[data-ply="5"]').count(), 1);
  // A click on the graph shows that position.
  await page.click('#eval-graph .point[data-ply="2"]');
  await page.waitForSelector('#board[data-viewing="2"]');
  await page.click('#review-marks li[data-ply="4"]');
  await page.waitForSelector('#board[data-viewing="4"]');
  // Saved with the game, and shown again when the record is loaded.
  const record = await page.evaluate(() => fetch('/record').then((r) => r.text()));
  assert.match(record, /\{review nodes=20000 solve=2000; proven [WDL]{6}; last -; best [^}]*\}/, record);
  await page.click('#view-live');
  await newGame(page, { width: 5, height: 5, walls: 3, players: 2, seats: [human, human] });
  assert.equal((await view(page)).review, null);
  s = await load(page, record);
  assert.ok(reviewed(s), 'the loaded review is complete');
  assert.equal(await page.locator('#eval-graph .point').count(), 6);
  assert.ok(s.review.marks.some((m) => m.ply === 4 && m.proven), JSON.stringify(s.review.marks));
});

test('four players get candidates and no review', async () => {
  const page = await openBoard();
  await newGame(page, { width: 5, height: 5, walls: 3, players: 4, seats: [human, human, human, human] });
  assert.ok(await page.isDisabled('#review'));
  await page.click('#analyse');
  await waitFor(page, (s) => s.analysis && s.analysis.candidates.some((c) => c.score), 'four-player candidates');
  assert.ok(await page.locator('.cand').count() >= 1);
  await page.click('#analyse');
  await waitFor(page, (s) => s.analysis === null, 'analysis off');
  const refused = await page.evaluate(() => fetch('/review', { method: 'POST', body: new URLSearchParams({ nodes: '5000' }) })
    .then(async (r) => [r.status, await r.text()]));
  assert.deepEqual([refused[0], /two-player/.test(refused[1])], [422, true]);
});

test('a hint shows the best move and stops the engine; a rated game has none until it ends', async () => {
  const page = await openBoard();
  await newGame(page, { width: 9, height: 9, walls: 10, players: 2, seats: [human, human] });
  await page.click('#hint');
  await page.waitForSelector('#board .cand');
  const s = await waitFor(page, (v) => v.analysis === null, 'the engine stopped after the hint');
  const hinted = await page.getAttribute('#board .cand', 'data-cand');
  assert.ok(s.legal.includes(hinted), `${hinted} is a legal move`);
  // Listed too; a click plays it.
  assert.equal(await page.getAttribute('#candidates li:first-child', 'data-move'), hinted);
  await page.click('#candidates li:first-child');
  await waitFor(page, (v) => v.moves[0] === hinted, 'the hint played');
  assert.equal(await page.locator('#board .cand').count(), 0, 'the hint is gone with its position');
  await page.check('#rated');
  await newGame(page, { width: 9, height: 9, walls: 10, players: 2, seats: [human, human] });
  assert.equal((await view(page)).setup.rated, 'true');
  assert.ok(await page.isDisabled('#hint'));
  assert.ok(await page.isDisabled('#analyse'));
  const refused = await page.evaluate(() => fetch('/analysis', { method: 'POST', body: new URLSearchParams({ lines: '1' }) })
    .then((r) => r.status));
  assert.equal(refused, 422);
  await page.click('#resign');
  await waitFor(page, (v) => v.result !== null, 'the game over');
  assert.ok(!(await page.isDisabled('#analyse')), 'analysis after the game');
  await page.uncheck('#rated');
});

test('screenshots of analysis and review, desktop and phone', async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const [viewport, suffix] of [[undefined, ''], [PHONE, '-phone']]) {
    const page = await openBoard(undefined, viewport);
    await page.fill('#load-text', GAME);
    await page.click('#load');
    const loaded = await waitFor(page, (s) => s.ahead.length > 40, 'the recorded game');
    // Analysis of a middlegame position stepped to, one line hovered.
    await page.click('#moves .mv[data-ply="24"]');
    await page.waitForSelector('#board[data-viewing="24"]');
    await page.selectOption('#analysis-lines', '3');
    await page.click('#analyse');
    await waitFor(page, (s) => s.analysis && s.analysis.ply === 24 &&
      s.analysis.candidates.filter((c) => c.score && c.depth >= 6).length >= 3, 'three candidates at move 24');
    await page.hover('#candidates li:nth-child(2)');
    if (suffix) await page.locator('#play').screenshot({ path: join(SHOTS, `board-analysis${suffix}.png`) });
    else await page.screenshot({ path: join(SHOTS, `board-analysis${suffix}.png`) });
    await page.click('#analyse');
    await waitFor(page, (s) => s.analysis === null, 'analysis off');
    // The whole game reviewed, a mark stepped to.
    await page.selectOption('#review-effort', 'nodes=20000');
    await page.click('#review');
    const s = await waitFor(page, reviewed, 'the review', 120);
    assert.equal(s.review.total, loaded.ahead.length + 1);
    assert.equal(await page.locator('#eval-graph .point').count(), s.review.total);
    assert.ok(s.review.marks.length >= 1, 'the weaker side made mistakes');
    const shown = s.review.marks.find((m) => m.kind === 'blunder') || s.review.marks[0];
    await page.click(`#review-marks li[data-ply="${shown.ply}"]`);
    await page.waitForSelector(`#board[data-viewing="${shown.ply}"]`);
    if (suffix) await page.locator('#review-panel').screenshot({ path: join(SHOTS, `board-review${suffix}.png`) });
    else await page.screenshot({ path: join(SHOTS, `board-review${suffix}.png`), fullPage: true });
    await page.close();
  }
});
