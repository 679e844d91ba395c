// Browser tests of analysis mode: candidates appear and update, hovering
// one draws its line, a click plays it, Space pauses, and stepping through
// the moves moves the analysis with the board shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openBoard, view, waitFor, newGame } from './harness.mjs';

setup();

const candidatesAt = (ply, lines) => (s) =>
  s.analysis && s.analysis.ply === ply && s.analysis.candidates.filter((c) => c.score).length >= lines;

test('analysis shows candidates that follow the board, their lines on hover, and plays a click', async () => {
  const page = await openBoard();
  await newGame(page, { width: 9, height: 9, walls: 10, players: 2,
    seats: [{ kind: 'human' }, { kind: 'human' }] });
  for (const move of ['e2', 'e8', 'e3', 'e7']) {
    await page.click(`[data-square="${move}"]`);
    await waitFor(page, (s) => s.moves.at(-1) === move, `${move} played`);
  }
  await page.selectOption('#analysis-lines', '3');
  await page.click('#analyse');
  let s = await waitFor(page, candidatesAt(4, 3), 'three candidates with scores');
  // Listed and drawn, the best first and brightest. The analysis goes on
  // while the page is read, so the list, the drawing and the state are
  // read together, and read again until an update has been drawn.
  const shown = () => page.evaluate(() => ({
    state: (window.tabulaState.analysis?.candidates ?? []).map((c) => c.move),
    listed: [...document.querySelectorAll('#candidates li')].map((li) => li.dataset.move),
    drawn: [...document.querySelectorAll('.cand')].map((g) => [g.dataset.cand, Number(g.getAttribute('opacity'))]),
  }));
  let seen = await shown();
  for (let tries = 0; tries < 50 && !(seen.listed.length >= 3 && seen.listed.join() === seen.state.join()); tries++) {
    await page.waitForTimeout(40);
    seen = await shown();
  }
  assert.ok(seen.listed.length >= 3, `three listed: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen.listed, seen.state);
  const drawn = seen.drawn;
  assert.equal(drawn.length, seen.state.length);
  assert.ok(drawn[0][1] > drawn[drawn.length - 1][1], `the best is the brightest: ${JSON.stringify(drawn)}`);
  // Hovering the second candidate draws its line, numbered from 1.
  // (A new iteration redraws the list: hover again until the line shows.)
  let numbers = [];
  for (let tries = 0; tries < 50 && numbers.length === 0; tries++) {
    await page.mouse.move(0, 0);
    await page.hover('#candidates li:nth-child(2)');
    numbers = await page.$$eval('#q-pvs .pv text', (ts) => ts.map((t) => t.textContent));
    if (numbers.length === 0) await page.waitForTimeout(40);
  }
  assert.ok(numbers.length >= 1 && numbers[0] === '1', `numbered line: ${numbers}`);
  // Stepping back to the start: the candidates are the start's.
  await page.click('#view-start');
  s = await waitFor(page, candidatesAt(0, 3), 'candidates at the start');
  await page.click('#view-live');
  s = await waitFor(page, candidatesAt(4, 3), 'candidates of the live board again');
  // Space pauses (the engine stops), and resumes.
  await page.locator('body').press('Space');
  await waitFor(page, (v) => v.analysis === null, 'analysis paused');
  assert.match(await page.textContent('#analyse'), /Resume/);
  await page.locator('body').press('Space');
  s = await waitFor(page, candidatesAt(4, 3), 'analysis resumed');
  // A click on the best candidate plays it (read and clicked at once: the
  // list may be redrawn with a new best between two calls).
  const best = await page.evaluate(() => {
    const first = document.querySelector('#candidates li:first-child');
    first.click();
    return first.dataset.move;
  });
  await waitFor(page, (v) => v.moves.length === 5 && v.moves[4] === best, `${best} played`);
  s = await waitFor(page, candidatesAt(5, 3), 'the analysis follows the game');
  await page.click('#analyse');
  await waitFor(page, (v) => v.analysis === null, 'analysis off');
  assert.equal((await view(page)).moves.length, 5);
});
