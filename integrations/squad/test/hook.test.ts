/**
 * The Squad hook against a real reviewlock server: `tests/squad.rs` starts one and runs these
 * tests with REVIEWLOCK_URL and REVIEWLOCK_ADMIN_TOKEN (a server-wide admin token) set.
 */
import { test, before } from 'node:test';
import * as assert from 'node:assert/strict';
import * as net from 'node:net';

import { createReviewlockHook, recordVerdict, repositoryRelative, type PreToolUseContext } from '../src/index.js';

const url = process.env.REVIEWLOCK_URL ?? '';
const admin = process.env.REVIEWLOCK_ADMIN_TOKEN ?? '';
const team = `squad-${process.pid}`;
const root = '/work/repo';
let coordinator = '';
const agentTokens: Record<string, string> = {};

async function api(method: string, route: string, token: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.ok, `${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function write(agentName: string, file: string, toolName = 'edit'): PreToolUseContext {
  return { toolName, arguments: { path: file, old_str: 'a', new_str: 'b' }, agentName, sessionId: 's-1' };
}

before(async () => {
  assert.ok(url && admin, 'REVIEWLOCK_URL and REVIEWLOCK_ADMIN_TOKEN name the server to test against');
  await api('PUT', `/v1/teams/${team}`, admin, { display_name: 'Squad' });
  coordinator = (await api('POST', `/v1/teams/${team}/tokens`, admin, { name: 'squad-coordinator', scope: 'coordinator' })).token;
  for (const agent of ['fenster', 'hockney']) {
    await api('PUT', `/v1/teams/${team}/agents/${agent}`, coordinator, { roles: ['engineer'] });
    agentTokens[agent] = (await api('POST', `/v1/teams/${team}/tokens`, admin, { name: `${agent}-hook`, scope: 'agent', agent })).token;
  }
  await api('PUT', `/v1/teams/${team}/agents/keaton`, coordinator, { can_review: true, can_author: false });
  await api('POST', `/v1/teams/${team}/artifacts`, coordinator, { key: 'auth', title: 'Authentication', paths: ['src/auth/**'], author: 'fenster' });
});

test('a rejection recorded with recordVerdict locks the author out, and the hook blocks its writes', async () => {
  const answer = await recordVerdict({
    url, team, token: coordinator, artifact: 'auth', version: 1, reviewer: 'keaton',
    verdict: 'reject', reason: 'Error handling is missing.', remedy: { action: 'reassign' }, idempotencyKey: `reject-${team}`,
  });
  const artifact = answer.artifact as { state: string; lockouts: { agent: string }[] };
  assert.equal(artifact.state, 'changes_requested');
  assert.deepEqual(artifact.lockouts.map((l) => l.agent), ['fenster']);

  const hook = createReviewlockHook({ url, team, root, token: (agent) => agentTokens[agent] ?? '' });
  const blocked = await hook(write('fenster', `${root}/src/auth/login.ts`));
  assert.equal(blocked.action, 'block');
  assert.match(blocked.reason ?? '', /^reviewlock denies agent 'fenster' this write: 'src\/auth\/login.ts' belongs to artifact 'auth'/);
  assert.match(blocked.reason ?? '', /ask the coordinator to reassign artifact 'auth' to another agent\.$/);
  // Relative spellings and every write tool Squad knows.
  for (const tool of ['create', 'write_file', 'create_file']) {
    assert.equal((await hook(write('fenster', './src/auth/login.ts', tool))).action, 'block', tool);
  }
  // Another agent, another file, or a call that writes nothing goes through.
  assert.deepEqual(await hook(write('hockney', 'src/auth/login.ts')), { action: 'allow' });
  assert.deepEqual(await hook(write('fenster', 'README.md')), { action: 'allow' });
  assert.deepEqual(await hook({ toolName: 'view', arguments: { path: 'src/auth/login.ts' }, agentName: 'fenster', sessionId: 's' }), { action: 'allow' });
  // Outside the repository: blocked without asking.
  const outside = await hook(write('hockney', '/etc/hosts'));
  assert.equal(outside.action, 'block');
  assert.match(outside.reason ?? '', /outside the repository/);
});

test('an agent token answers only for its own agent: borrowing it blocks', async () => {
  const hook = createReviewlockHook({ url, team, root, token: agentTokens.hockney ?? '' });
  const result = await hook(write('fenster', 'README.md'));
  assert.equal(result.action, 'block');
  assert.match(result.reason ?? '', /^reviewlock could not be asked.*403/);
});

test('recordVerdict throws the problem of a refused verdict', async () => {
  await assert.rejects(
    recordVerdict({ url, team, token: coordinator, artifact: 'auth', version: 1, reviewer: 'fenster', verdict: 'approve' }),
    /answered 4\d\d \w+/,
  );
});

test('fails closed when reviewlock cannot be asked, and failOpen says so', async () => {
  // Nothing listens: a port that was free a moment ago.
  const closed = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  const down = createReviewlockHook({ url: `http://127.0.0.1:${closed}`, team, root, token: 'rl_x' });
  const result = await down(write('fenster', 'README.md'));
  assert.equal(result.action, 'block');
  assert.match(result.reason ?? '', /^reviewlock could not be asked .*cannot reach the server/);

  // Accepts and never answers.
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as net.AddressInfo).port;
  const slow = createReviewlockHook({ url: `http://127.0.0.1:${port}`, team, root, token: 'rl_x', timeoutMs: 200 });
  const started = Date.now();
  const timedOut = await slow(write('fenster', 'README.md'));
  assert.equal(timedOut.action, 'block');
  assert.match(timedOut.reason ?? '', /did not answer within 200 ms/);
  assert.ok(Date.now() - started < 2000);
  sockets.forEach((s) => s.destroy());
  silent.close();

  const bad = createReviewlockHook({ url, team, root, token: 'rl_nope' });
  assert.match((await bad(write('fenster', 'README.md'))).reason ?? '', /401 unauthenticated/);

  const logged: string[] = [];
  const open = createReviewlockHook({ url: `http://127.0.0.1:${closed}`, team, root, token: 'rl_x', failOpen: true, warn: (m) => logged.push(m) });
  assert.deepEqual(await open(write('fenster', 'README.md')), { action: 'allow' });
  assert.equal(logged.length, 1);
  assert.match(logged[0] ?? '', /failOpen: letting edit of 'README.md' by 'fenster' through although reviewlock could not be asked/);
});

test('paths are made relative to the root, and nothing outside it is', () => {
  assert.equal(repositoryRelative('/r', '/r/src/a.ts'), 'src/a.ts');
  assert.equal(repositoryRelative('/r', './src//x/../a.ts'), 'src/a.ts');
  assert.equal(repositoryRelative('/r', '../other/a.ts'), null);
  assert.equal(repositoryRelative('/r', '/rx/a.ts'), null);
  assert.equal(repositoryRelative('/r', '/r'), null);
});
