// The board (/ui/) in headless Chromium, through WebDriver, against a real reviewlock started
// by tests/board.rs: REVIEWLOCK_URL and REVIEWLOCK_ADMIN_TOKEN name it, BOARD_SCREENSHOTS is
// where each view's screenshot is written (docs/images/ of the repository). Every wait is for
// a condition, with a generous limit; nothing is timed.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import axe from 'axe-core';
import { Builder, By } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';

const BASE = process.env.REVIEWLOCK_URL;
const ADMIN = process.env.REVIEWLOCK_ADMIN_TOKEN;
const SHOTS = process.env.BOARD_SCREENSHOTS;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMEDRIVER = process.env.CHROMEDRIVER || '/usr/bin/chromedriver';
const WAIT = 30000;
const TEAM = 'acme';

assert.ok(BASE && ADMIN, 'REVIEWLOCK_URL and REVIEWLOCK_ADMIN_TOKEN name the server');

// ---- the API, as a coordinator and an admin would use it -------------------------------------

async function api(method, route, token, body) {
  const response = await fetch(`${BASE}/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function must(status, method, route, body, token = ADMIN) {
  const reply = await api(method, route, token, body);
  assert.equal(reply.status, status, `${method} ${route}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

const t = (...segments) => `/teams/${TEAM}${segments.map((s) => `/${encodeURIComponent(s)}`).join('')}`;

async function reject(key, version, reviewer, reason, remedy = { action: 'reassign' }) {
  return must(201, 'POST', t('artifacts', key, 'versions', String(version), 'reviews'), {
    reviewer,
    verdict: 'reject',
    grounds: 'quality',
    reason,
    remedy,
  });
}

const tokens = {};

/** A team with a deadlock (`svc/auth`: a, b and c each rejected), an artifact waiting for a
 *  reviser, one in review, one approved, and d, who joined after the deadlock. */
async function setUp() {
  await must(201, 'PUT', t(), { display_name: 'Acme' });
  const agent = (id, body) => must(201, 'PUT', t('agents', id), body);
  await agent('a', { display_name: 'Ada', kind: 'ai', roles: ['engineer'], expertise: ['rust'] });
  await agent('b', { display_name: 'Bo', kind: 'ai', roles: ['engineer'], expertise: ['typescript'], aliases: ['bo@acme.test'] });
  await agent('c', { display_name: 'Cy', kind: 'ai', roles: ['engineer'] });
  await agent('q', { display_name: 'Quinn', kind: 'ai', roles: ['code-reviewer'], can_review: true, can_author: false });
  tokens.user = (await must(201, 'POST', t('tokens'), { name: 'the-user', scope: 'user' })).token;
  tokens.read = (await must(201, 'POST', t('tokens'), { name: 'wall-screen', scope: 'read' })).token;

  // PROTOCOL §6, example 3: three authors rejected in turn, and nobody left.
  await must(201, 'POST', t('artifacts'), {
    key: 'svc/auth',
    title: 'Authentication module',
    kind: 'module',
    paths: ['svc/auth/**'],
    author: 'a',
    ref: '3f2a9c1',
    summary: 'Login, sessions and token refresh.',
  });
  await reject('svc/auth', 1, 'q', 'No test covers token refresh.');
  await must(201, 'POST', t('artifacts', 'svc/auth', 'assignment'), { agent: 'b' });
  await must(201, 'POST', t('artifacts', 'svc/auth', 'versions'), { author: 'b', ref: '9b1e0d4', summary: 'Tests for refresh.' });
  await reject('svc/auth', 2, 'q', 'Sessions never expire.');
  await must(201, 'POST', t('artifacts', 'svc/auth', 'assignment'), { agent: 'c' });
  await must(201, 'POST', t('artifacts', 'svc/auth', 'versions'), { author: 'c', ref: 'c0ffee1' });
  const last = await reject('svc/auth', 3, 'q', 'Refresh tokens are logged in clear.');
  assert.equal(last.artifact.state, 'deadlocked');

  await must(201, 'POST', t('artifacts'), { key: 'ci-config', title: 'CI pipeline', author: 'c' });
  await reject('ci-config', 1, 'q', 'The cache key ignores the lock file.');
  await must(201, 'POST', t('artifacts'), { key: 'billing', title: 'Invoices and payments', author: 'a', ref: '5d6e7f8' });
  await must(201, 'POST', t('artifacts'), { key: 'docs/readme.md', title: 'README', kind: 'doc', author: 'b' });
  await must(201, 'POST', t('artifacts', 'docs/readme.md', 'versions', '1', 'reviews'), { reviewer: 'q', verdict: 'approve' });
  // d joins after the deadlock: the one the user may assign.
  await agent('d', { display_name: 'Dee', kind: 'human', roles: ['engineer'], expertise: ['auth'] });
}

/**
 * A TCP relay in front of the server, to cut the page's connections as a network or a proxy
 * would: `down()` closes every connection and refuses new ones until `up()`. `heard` holds
 * what the browser sent, to read the headers of its requests.
 */
async function relay(target) {
  const { hostname, port } = new URL(target);
  const open = new Set();
  let accepting = true;
  const relayed = { heard: '' };
  const server = net.createServer((client) => {
    if (!accepting) return client.destroy();
    const upstream = net.connect(Number(port), hostname);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(close);
    };
    open.add(close);
    client.on('data', (bytes) => {
      relayed.heard += bytes.toString('latin1');
    });
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  relayed.url = `http://127.0.0.1:${server.address().port}`;
  relayed.down = () => {
    accepting = false;
    for (const close of [...open]) close();
  };
  relayed.up = () => {
    accepting = true;
  };
  relayed.close = () => new Promise((resolve) => server.close(resolve));
  return relayed;
}

// ---- the browser ------------------------------------------------------------------------------

let driver;
let profile; // Chromium's fresh user data directory, removed after the run

async function viewport(width, height) {
  await driver.sendDevToolsCommand('Emulation.setDeviceMetricsOverride', {
    width,
    height,
    deviceScaleFactor: 1,
    mobile: width < 600,
  });
}

async function waitFor(what, condition) {
  await driver.wait(async () => {
    try {
      return await condition();
    } catch {
      return false;
    }
  }, WAIT, `waited ${WAIT / 1000} s for ${what}`);
}

const text = async (css) => (await driver.findElement(By.css(css))).getText();
const count = async (css) => (await driver.findElements(By.css(css))).length;
const js = (script, ...args) => driver.executeScript(script, ...args);

/** Opens a fragment of /ui/ in the same page (no reload) and waits until the view is current. */
async function open(fragment, heading) {
  await js('window.location.hash = arguments[0]', fragment);
  await waitFor(`the view ${fragment}`, async () => (await text('main h1')).includes(heading));
  await caughtUp();
}

async function caughtUp() {
  await waitFor('the page to follow the stream and be caught up', async () =>
    (await (await driver.findElement(By.id('live'))).getAttribute('data-state')) === 'live',
  );
}

/** axe-core in the page: no serious or critical violation. */
async function accessible(name) {
  await js(axe.source);
  const found = await driver.executeAsyncScript(`
    const done = arguments[arguments.length - 1];
    axe.run(document, { resultTypes: ['violations'] })
      .then((r) => done(JSON.stringify(r.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))))
      .catch((e) => done(JSON.stringify([{ id: 'axe-error', impact: 'critical', help: String(e) }])));`);
  const violations = JSON.parse(found).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(violations, [], `${name}: accessibility violations`);
}

/** The page fits its width: nothing scrolls sideways. */
async function fits(name, width) {
  const [scroll, inner] = await js('return [document.documentElement.scrollWidth, window.innerWidth]');
  assert.ok(scroll <= inner, `${name} at ${width} px: the page is ${scroll} px wide`);
}

/** The whole page at `width`, as docs/images/board-{name}-{laptop|phone}.png. */
async function screenshot(name, width) {
  if (!SHOTS) return;
  await viewport(width, 800);
  const height = await js('return Math.min(Math.max(document.documentElement.scrollHeight, 600), 2600)');
  await viewport(width, height);
  const png = await driver.takeScreenshot();
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.writeFileSync(path.join(SHOTS, `board-${name}-${width < 600 ? 'phone' : 'laptop'}.png`), png, 'base64');
  await viewport(1280, 900);
}

before(async () => {
  await setUp();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewlock-board-chromium-'));
  const options = new chrome.Options()
    .setChromeBinaryPath(CHROMIUM)
    .addArguments(
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--lang=en-US',
      '--window-size=1280,900',
      `--user-data-dir=${profile}`,
    );
  driver = await new Builder()
    .forBrowser('chrome')
    .setChromeOptions(options)
    .setChromeService(new chrome.ServiceBuilder(CHROMEDRIVER))
    .build();
  await viewport(1280, 900);
});

after(async () => {
  await driver?.quit();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

// ---- the scenarios -----------------------------------------------------------------------------

test('an invalid token shows a clear message, and leaves the address bar', async () => {
  await driver.get(`${BASE}/ui/#team=${TEAM}&token=rl_not_a_token_of_this_server`);
  await waitFor('the refusal', async () => (await text('#signin-out')).includes('does not accept this token'));
  const words = await text('#signin-out');
  assert.match(words, /unauthenticated/, words);
  assert.equal(await js('return window.location.hash'), `#/teams/${TEAM}`);
  assert.equal(await js('return sessionStorage.getItem("reviewlock.board")'), null, 'a refused token is not kept');
  await accessible('sign-in');
  await screenshot('signin', 1280);
});

test('a read token: the inbox lists the deadlock, and no view offers an action', async () => {
  await driver.get(`${BASE}/ui/#team=${TEAM}&token=${tokens.read}`);
  await waitFor('the deadlock in the inbox', async () => (await count('article[data-artifact="svc/auth"]')) === 1);
  await caughtUp();
  assert.equal(await js('return window.location.hash'), `#/teams/${TEAM}`, 'the token left the address bar');
  const card = await text('article[data-artifact="svc/auth"]');
  for (const words of ['deadlocked', 'a: rejected in version 1 by q', 'b: rejected in version 2', 'c: rejected in version 3', 'Refresh tokens are logged in clear.']) {
    assert.ok(card.includes(words), `the card says ${words}:\n${card}`);
  }
  assert.match(card, /Still eligible\s+d\b/, 'd, who joined after the deadlock, may revise it');
  assert.match(await text('article[data-artifact="ci-config"]'), /changes requested/);
  assert.match(await text('#who'), /read only/);
  for (const [fragment, heading] of [
    [`#/teams/${TEAM}`, 'Needs attention'],
    [`#/teams/${TEAM}/board`, 'Board'],
    [`#/teams/${TEAM}/artifacts/svc%2Fauth`, 'svc/auth'],
    [`#/teams/${TEAM}/agents`, 'Agents'],
  ]) {
    await open(fragment, heading);
    assert.equal(await count('main form.action'), 0, `${heading}: no action for a read token`);
    assert.equal(await count('main details.lift'), 0, `${heading}: no lift for a read token`);
    await accessible(`${heading} (read token)`);
  }
});

test('a change through the API appears on an open page without a reload', async () => {
  await open(`#/teams/${TEAM}/board`, 'Board');
  await js('window.__sameDocument = true');
  await must(201, 'POST', t('artifacts'), { key: 'payments', title: 'Payment provider', author: 'b' });
  await waitFor('the new artifact on the board', async () => (await count('tr[data-artifact="payments"]')) === 1);
  await reject('payments', 1, 'q', 'Retries are not idempotent.');
  await waitFor('its new state', async () => (await text('tr[data-artifact="payments"]')).includes('changes requested'));
  await caughtUp();
  assert.equal(await js('return window.__sameDocument'), true, 'the page was not reloaded');

  // The artifact view follows too: its timeline grows.
  await open(`#/teams/${TEAM}/artifacts/payments`, 'payments');
  await must(201, 'POST', t('artifacts', 'payments', 'assignment'), { agent: 'd', note: 'Dee knows the provider.' });
  await waitFor('the assignment in the timeline', async () => (await text('main .timeline')).includes('d assigned to write the revision'));
  assert.equal(await js('return window.__sameDocument'), true, 'the page was not reloaded');
});

test('after a drop the page says it is disconnected, then resumes with Last-Event-ID and catches up', async () => {
  const link = await relay(BASE);
  try {
    await driver.get(`${link.url}/ui/#team=${TEAM}&token=${tokens.read}`);
    await waitFor('the inbox', async () => (await text('main h1')) === 'Needs attention');
    await open(`#/teams/${TEAM}/board`, 'Board');
    // An event seen before the drop: the stream resumes after it.
    await must(201, 'POST', t('artifacts'), { key: 'search', title: 'Search index', author: 'a' });
    await waitFor('the first artifact', async () => (await count('tr[data-artifact="search"]')) === 1);
    const seen = (await must(200, 'GET', `${t('events')}?after=0&limit=500`)).items.at(-1).seq;

    link.down();
    let said = '';
    await waitFor('the page to say it is disconnected', async () => {
      // The state and its words read at once: between attempts it says "Reconnecting…".
      const [state, words] = await js('const l = document.getElementById("live"); return [l.dataset.state, l.textContent]');
      said = words;
      return state === 'disconnected';
    });
    assert.match(said, /^Disconnected .*retrying in \d+ s$/);
    const before = link.heard.length;
    // Committed while the page cannot hear it.
    await must(201, 'POST', t('artifacts'), { key: 'search-ui', title: 'Search page', author: 'b' });

    link.up();
    await waitFor('the missed artifact', async () => (await count('tr[data-artifact="search-ui"]')) === 1);
    await caughtUp();
    const resumed = link.heard.slice(before).match(/GET [^ ]*\/events\/stream[^\r]*\r\n(?:[^\r]+\r\n)*?last-event-id: *(\d+)\r\n/i);
    assert.ok(resumed, 'the reconnection sent Last-Event-ID');
    assert.equal(Number(resumed[1]), seen, 'it resumed after the last event seen');
  } finally {
    link.down();
    await link.close();
  }
});

test("a commit status's link opens the artifact, once a token is typed in", async () => {
  // A new tab: nothing kept. The link as a commit status carries it, the key's `/` unencoded.
  // (Cleared from a page of the same origin that runs no script of its own.)
  await driver.get(`${BASE}/healthz`);
  await js('sessionStorage.clear()');
  await driver.get(`${BASE}/ui/#/teams/${TEAM}/artifacts/svc/auth`);
  await waitFor('the sign-in form', async () => (await count('#signin-token')) === 1);
  assert.match(await text('main'), /Sign in to team acme to open this link\./);
  assert.equal(await (await driver.findElement(By.id('signin-team'))).getAttribute('value'), TEAM);
  await driver.findElement(By.id('signin-token')).sendKeys(tokens.user, '\n');
  await waitFor('the artifact', async () => (await text('main h1')) === 'svc/auth');
  await caughtUp();
  assert.equal(await js('return window.location.hash'), `#/teams/${TEAM}/artifacts/svc/auth`, 'the token is in no URL');
  assert.match(await text('#who'), /may resolve and lift/);
  assert.equal(await count('main form.resolve'), 1, 'a user token may resolve the deadlock here');
});

test('each view at laptop, phone and wall widths, light and dark: no serious accessibility violation, no sideways scroll', async () => {
  await driver.get(`${BASE}/ui/#team=${TEAM}&token=${tokens.user}`);
  await waitFor('the user session', async () => (await text('#who')).includes('may resolve and lift'));
  for (const [name, fragment, heading] of [
    ['attention', `#/teams/${TEAM}`, 'Needs attention'],
    ['board', `#/teams/${TEAM}/board`, 'Board'],
    ['artifact', `#/teams/${TEAM}/artifacts/svc%2Fauth`, 'svc/auth'],
    ['agents', `#/teams/${TEAM}/agents`, 'Agents'],
  ]) {
    await open(fragment, heading);
    for (const width of [1280, 360, 2560]) {
      await viewport(width, 900);
      await fits(name, width);
      await accessible(`${name} at ${width} px`);
      if (width !== 2560) await screenshot(name, width);
    }
    await viewport(1280, 900);
    // The dark colour scheme's contrast too.
    await driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
    try {
      assert.equal(await js('return matchMedia("(prefers-color-scheme: dark)").matches'), true);
      await accessible(`${name} in the dark scheme`);
    } finally {
      await driver.sendDevToolsCommand('Emulation.setEmulatedMedia', { features: [] });
    }
  }
});

test('a user resolves the deadlock from the page, and the API shows the resolution', async () => {
  await driver.get(`${BASE}/ui/#team=${TEAM}&token=${tokens.user}`);
  const form = 'article[data-artifact="svc/auth"] form.resolve';
  await waitFor('the resolution form', async () => (await count(form)) === 1);
  await caughtUp();

  // What is being typed survives a live refresh of the view.
  await (await driver.findElement(By.css(`${form} select`))).findElement(By.css('option[value="assign:d"]')).click();
  await driver.findElement(By.css(`${form} textarea`)).sendKeys('a draft');
  await must(201, 'POST', t('artifacts'), { key: 'notes', title: 'Release notes', author: 'a' });
  const seq = (await must(200, 'GET', `${t('events')}?after=0&limit=500`)).items.at(-1).seq;
  await waitFor('the refresh after the new event', async () => (await text('#live')) === `Live: caught up through event ${seq}`);
  // The view was drawn again: its elements are new ones, holding what was typed and chosen.
  const reason = await driver.findElement(By.css(`${form} textarea`));
  assert.equal(await reason.getAttribute('value'), 'a draft');
  assert.equal(await js('return document.activeElement === arguments[0]', reason), true, 'the focus stayed');
  assert.equal(await (await driver.findElement(By.css(`${form} select`))).getAttribute('value'), 'assign:d');

  // A refusal is shown in the words of its problem: a reason of blanks is no reason.
  await reason.clear();
  await reason.sendKeys('   ');
  await driver.findElement(By.css(`${form} button[type=submit]`)).click();
  await waitFor('the refusal', async () => (await text(`${form} output`)).includes('invalid_field'));
  assert.match(await text(`${form} output`), /Refused\. .*reason/);
  assert.equal((await must(200, 'GET', t('artifacts', 'svc/auth'))).state, 'deadlocked', 'the refusal changed nothing');

  // Now with a reason, by keyboard: the form submits from its button.
  await reason.clear();
  await reason.sendKeys('Dee joined with auth expertise and wrote none of the rejected versions.');
  const button = await driver.findElement(By.css(`${form} button[type=submit]`));
  await js('arguments[0].focus()', button);
  await button.sendKeys('\n');
  await waitFor('the deadlock to leave the inbox', async () => (await count('article[data-artifact="svc/auth"]')) === 0);
  assert.match(await text('#notices'), /svc\/auth: d assigned/);

  const status = await must(200, 'GET', t('artifacts', 'svc/auth'));
  assert.equal(status.state, 'in_revision');
  assert.equal(status.assignment.agent, 'd');
  assert.equal(status.assignment.assigned_by, 'user');
  assert.equal(status.escalation, null);
  const events = await must(200, 'GET', `${t('events')}?after=0&limit=500`);
  const resolved = events.items.filter((e) => e.type === 'escalation.resolved');
  assert.equal(resolved.length, 1);
  assert.equal(resolved[0].artifact, 'svc/auth');
  assert.equal(resolved[0].data.reason, 'Dee joined with auth expertise and wrote none of the rejected versions.');
  assert.equal(resolved[0].token.name, 'the-user');

  // The lift of a lockout, from the artifact view: the API shows it gone.
  await open(`#/teams/${TEAM}/artifacts/ci-config`, 'ci-config');
  await driver.findElement(By.css('details.lift summary')).click();
  await driver.findElement(By.css('details.lift input')).sendKeys('c fixed the cache key with the user.');
  await driver.findElement(By.css('details.lift button[type=submit]')).click();
  await waitFor('the lift', async () => (await text('#notices')).includes('ci-config: c may write it again.'));
  const lockouts = await must(200, 'GET', `${t('lockouts')}?artifact=ci-config`);
  assert.deepEqual(lockouts.items, []);
});
