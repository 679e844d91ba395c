// What the browser tests share: Debian's Chromium driven by playwright-core,
// real tabula-board processes (from target/release; TABULA_BOARD and
// CHROMIUM override), and the moves a person makes with the mouse. Each
// test file calls setup() once; boards and browser go when it ends.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const release = join(root, 'target', 'release');
const BOARD = process.env.TABULA_BOARD || join(release, 'tabula-board');
export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 390, height: 844 };

let browser;
const boards = [];

export function setup() {
  before(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
    for (const b of boards) b.kill('SIGTERM');
  });
}

// Starts a board on a free port (with its own Tabula engine unless `extra`
// names another); resolves to its address.
export function startBoard(extra = []) {
  const child = spawn(BOARD, ['--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  boards.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/http:\/\/[0-9.:]+\//);
      if (found) resolve(found[0]);
    });
    child.on('exit', (code) => reject(new Error(`tabula-board exited with ${code}: ${out}`)));
  });
}

export async function openBoard(extra, viewport = DESKTOP) {
  const url = await startBoard(extra);
  return openPage(url, viewport);
}

// Another page on a running board.
export async function openPage(url, viewport = DESKTOP) {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(url);
  await waitFor(page, (s) => s !== null && s !== undefined);
  return page;
}

export const view = (page) => page.evaluate(() => window.tabulaState);

export async function waitFor(page, condition, what = 'the board', seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const s = await view(page);
    if (s && condition(s)) return s;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last view: ${JSON.stringify(s)}`);
    await page.waitForTimeout(40);
  }
}

// Fills the setup form as a person would and starts the game.
export async function newGame(page, { game = 'quoridor', width, height, walls, players, board, level, seats, tc = 'inf' }) {
  await page.selectOption('#game', game);
  if (game === 'quoridor') {
    await page.fill('#width', String(width));
    await page.fill('#height', String(height));
    await page.fill('#walls', String(walls));
    await page.selectOption('#players', String(players));
  } else {
    await page.selectOption('#quarto-board', board);
    await page.selectOption('#quarto-level', String(level));
  }
  await page.fill('#tc', tc);
  await setSeats(page, seats);
  const before = (await view(page)).version;
  await page.click('#new-game');
  return waitFor(page, (s) => s.version > before && s.moves.length === 0 && s.seats.length === seats.length, 'the new game');
}

export async function setSeats(page, seats) {
  for (const [i, seat] of seats.entries()) {
    const n = i + 1;
    await page.selectOption(`#seat${n}`, seat.kind);
    if (seat.kind === 'engine') {
      await page.selectOption(`#level${n}`, String(seat.level ?? 'full'));
      // With a clock there is no time per move to give.
      if (await page.isVisible(`#movetime${n}`)) await page.fill(`#movetime${n}`, String(seat.movetime ?? 100));
    }
  }
}

// Page coordinates of the groove point nearest a wall's centre, nudged
// along the wall (the board may be drawn scaled: its own units are turned
// into the page's by its transformation matrix).
export async function wallPoint(page, name, board) {
  const STEP = 60, CELL = 48, GAP = 12;
  const c = name.charCodeAt(0) - 97;
  const r = Number(name.slice(1, -1));
  const x = 20 + c * STEP + CELL + GAP / 2;
  const y = 4 + (board.height - r) * STEP - GAP / 2;
  const [bx, by] = name.endsWith('h') ? [x + 15, y] : [x, y + 15];
  return page.evaluate(([bx, by]) => {
    const m = document.getElementById('board').getScreenCTM();
    return { x: m.a * bx + m.c * by + m.e, y: m.b * bx + m.d * by + m.f };
  }, [bx, by]);
}

export async function placeWall(page, name) {
  const s = await view(page);
  const p = await wallPoint(page, name, s.board);
  await page.mouse.move(p.x, p.y);
  const ghost = page.locator('#ghost');
  assert.equal(await ghost.getAttribute('data-wall'), name, 'the ghost follows the pointer');
  const legal = await ghost.getAttribute('data-legal');
  const shown = await ghost.boundingBox();
  await page.mouse.click(p.x, p.y);
  if (legal === 'yes') {
    // The wall lands where its ghost was.
    await waitFor(page, (t) => t.board.walls.includes(name), name);
    // The walls are drawn anew with each view (an engine may answer at once).
    const wall = page.locator(`#board rect.wall[data-wall="${name}"]`);
    // A redraw between finding the wall and measuring it detaches the one
    // found (its box reads null): measure the one drawn now, a few times at most.
    let box = null;
    for (let i = 0; i < 20 && box === null; i++) {
      await wall.waitFor();
      box = await wall.boundingBox();
    }
    assert.deepEqual(box, shown);
  }
  return legal;
}

