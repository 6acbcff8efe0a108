// The board's shell: who is signed in (sessionStorage, never a cookie), which view the
// fragment names, the live stream, and refreshing the view in place when the team changes.

import { Api, Problem } from './api.js';
import { Live } from './live.js';
import { fill, h, refreshAges, route } from './dom.js';
import * as views from './views.js';

const STORE = 'reviewlock.board';

const main = document.getElementById('main');
const live = document.getElementById('live');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const signOut = document.getElementById('sign-out');
const notices = document.getElementById('notices');

const app = {
  api: null, // Api of the signed-in team
  mayAct: false, // a `user` token: resolutions and lifts
  team: null, // the team's record
  stream: null,
  statuses: new Map(), // artifact key → its status, dropped when an event names the artifact
  log: { events: [], through: 0 }, // the team's event log, as far as read
  route: null,
  refreshing: false,
  again: false,
  timer: null,
  streamState: 'off',
  lastSeq: null, // the last event the stream brought
  attention: 0, // open deadlocks, for the navigation
  navigated: false, // after the first view: a new view takes the focus
  retry: null, // a sign-in tried again after the server could not be reached
};

// ---- the session ----------------------------------------------------------------------------

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE)) || null;
  } catch {
    return null;
  }
}

function save(team, token) {
  sessionStorage.setItem(STORE, JSON.stringify({ team, token }));
}

/** `#team=T&token=X` (a wall screen's bookmark): kept for this tab, then removed from the address bar. */
function takeFragmentToken() {
  const hash = window.location.hash.slice(1);
  if (!/(^|&)token=/.test(hash)) return;
  const params = new URLSearchParams(hash);
  const team = params.get('team') || saved()?.team || '';
  const token = params.get('token') || '';
  const next = team ? route(team) : '#/';
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}${next}`);
  if (team && token) {
    // A new token replaces the tab's session, whoever was signed in.
    stopSession();
    save(team, token);
  }
}

async function signIn(team, token) {
  const api = new Api(team, token);
  const record = await api.team_(); // 401 for a bad token, 404 for another team's
  const mayAct = await api.mayAct();
  save(team, token);
  startSession(api, record, mayAct);
}

function startSession(api, record, mayAct) {
  stopSession();
  app.api = api;
  app.team = record;
  app.mayAct = mayAct;
  app.statuses.clear();
  app.lastSeq = null;
  app.log = { events: [], through: 0 };
  fill(
    who,
    h('span', { class: 'team' }, record.display_name ? `${record.display_name} (${record.id})` : record.id),
    ' · ',
    h('span', { class: mayAct ? 'scope scope-act' : 'scope' }, mayAct ? 'may resolve and lift' : 'read only'),
  );
  who.hidden = false;
  nav.hidden = false;
  signOut.hidden = false;
  app.stream = new Live(api, onEvent, onStreamState).start();
}

function stopSession() {
  app.stream?.stop();
  app.stream = null;
  app.api = null;
  who.hidden = true;
  nav.hidden = true;
  signOut.hidden = true;
  setLive('off', 'Not connected');
}

signOut.addEventListener('click', () => {
  sessionStorage.removeItem(STORE);
  stopSession();
  notice('Signed out: the token is forgotten by this tab.');
  window.location.hash = '#/';
  render();
});

// ---- live -----------------------------------------------------------------------------------

function setLive(state, words) {
  app.streamState = state;
  live.dataset.state = state;
  live.textContent = words;
}

function onStreamState(s) {
  if (s.state === 'connecting') {
    setLive('connecting', s.resuming ? 'Reconnecting…' : 'Connecting…');
  } else if (s.state === 'connected') {
    // What changed while the stream was down is in a fresh read of the view.
    app.statuses.clear();
    setLive('updating', 'Live: updating…');
    schedule(0);
  } else if (s.state === 'disconnected') {
    setLive('disconnected', `Disconnected (${s.problem?.message || 'the stream ended'}); retrying in ${Math.ceil(s.retryIn / 1000)} s`);
  } else if (s.state === 'refused') {
    setLive('disconnected', `Not following changes: ${s.problem.words()}`);
  }
}

function onEvent(event) {
  if (event.artifact) app.statuses.delete(event.artifact);
  app.lastSeq = event.seq;
  if (app.streamState === 'live') setLive('updating', 'Live: updating…');
  schedule(100);
}

/** Refreshes the view after `delay` ms; events arriving meanwhile join the same refresh. */
function schedule(delay) {
  clearTimeout(app.timer);
  app.timer = setTimeout(refresh, delay);
}

async function refresh() {
  if (app.refreshing) {
    app.again = true;
    return;
  }
  app.refreshing = true;
  try {
    await render();
  } finally {
    app.refreshing = false;
  }
  if (app.again) {
    app.again = false;
    schedule(0);
  } else if (app.stream && ['updating', 'live'].includes(app.streamState)) {
    const seq = app.lastSeq ? ` through event ${app.lastSeq}` : '';
    setLive('live', `Live: caught up${seq}`);
  }
}

// ---- routing and rendering ------------------------------------------------------------------

/** The view the fragment names: `#/teams/{team}[/board|/agents|/artifacts/{key}]`. */
function parseRoute() {
  const hash = window.location.hash.replace(/^#/, '');
  const m = hash.match(/^\/teams\/([^/?]+)(?:\/([^?]*))?(?:\?(.*))?$/);
  if (!m) return { view: 'home' };
  const team = decodeURIComponent(m[1]);
  const rest = m[2] || '';
  const query = new URLSearchParams(m[3] || '');
  if (rest === '' || rest === 'attention') return { view: 'attention', team };
  if (rest === 'board') return { view: 'board', team, query };
  if (rest === 'agents') return { view: 'agents', team };
  if (rest.startsWith('artifacts/') && rest.length > 'artifacts/'.length) {
    // A key's `/` may come encoded (`%2F`) or not.
    return { view: 'artifact', team, key: decodeURIComponent(rest.slice('artifacts/'.length)) };
  }
  return { view: 'unknown', team };
}

function markNav(r) {
  const links = { attention: 'nav-attention', board: 'nav-board', agents: 'nav-agents' };
  for (const [view, id] of Object.entries(links)) {
    const a = document.getElementById(id);
    a.href = route(r.team || app.api?.team || '', view === 'attention' ? 'attention' : view);
    if (r.view === view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** What a person typed or chose in the view, to put back after it is drawn again. */
function keepInput() {
  // The focus, by id, else by the link's address (a keyboard user reading the board keeps their place).
  const active = main.contains(document.activeElement) ? document.activeElement : null;
  const focus = active?.id ? { id: active.id } : active?.tagName === 'A' ? { href: active.getAttribute('href') } : null;
  const kept = { values: new Map(), open: new Set(), focus };
  for (const el of main.querySelectorAll('input[id], select[id], textarea[id]')) {
    kept.values.set(el.id, el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value);
  }
  for (const el of main.querySelectorAll('details[id][open]')) kept.open.add(el.id);
  for (const el of main.querySelectorAll('output[id]')) kept.values.set(el.id, el.textContent);
  return kept;
}

function restoreInput(kept) {
  for (const [id, value] of kept.values) {
    const el = document.getElementById(id);
    if (!el || !main.contains(el)) continue;
    if (el.tagName === 'OUTPUT') el.textContent = value;
    else if (el.type === 'checkbox' || el.type === 'radio') el.checked = value;
    else if (el.tagName !== 'SELECT' || [...el.options].some((o) => o.value === value)) el.value = value;
  }
  for (const id of kept.open) {
    const el = document.getElementById(id);
    if (el) el.open = true;
  }
  if (kept.focus) {
    const el = kept.focus.id
      ? document.getElementById(kept.focus.id)
      : main.querySelector(`a[href="${CSS.escape(kept.focus.href)}"]`);
    if (el && main.contains(el)) el.focus({ preventScroll: true });
  }
}

let drawnRoute = '';

async function render() {
  const r = parseRoute();
  const key = window.location.hash;
  const fresh = key !== drawnRoute;
  const session = saved();

  if (!app.api || (r.team && r.team !== app.api.team) || r.view === 'home') {
    if (session && !app.api && (!r.team || r.team === session.team)) {
      // A reload, or the fragment's token: sign in again with what this tab kept.
      try {
        setLive('connecting', 'Signing in…');
        await signIn(session.team, session.token);
        if (r.view === 'home') {
          history.replaceState(null, '', route(session.team));
          return render();
        }
      } catch (e) {
        stopSession();
        if (e instanceof Problem && [401, 403, 404].includes(e.status)) {
          // Refused: the token is forgotten.
          sessionStorage.removeItem(STORE);
        } else {
          // The server cannot be reached, or failed: the token is kept, and tried again soon.
          clearTimeout(app.retry);
          app.retry = setTimeout(render, 5000);
        }
        const kept = sessionStorage.getItem(STORE) ? 'Trying again in 5 s with the token this tab kept.' : null;
        drawSignIn(r.team || session.team, e, kept);
        return;
      }
    } else if (app.api && r.view === 'home') {
      history.replaceState(null, '', route(app.api.team));
      return render();
    } else {
      stopSession();
      drawSignIn(r.team || session?.team || '', null, r.team ? `Sign in to team ${r.team} to open this link.` : null);
      return;
    }
  }

  markNav(r);
  const ctx = {
    api: app.api,
    team: app.api.team,
    mayAct: app.mayAct,
    statuses: app.statuses,
    log: app.log,
    notice,
    refresh: () => schedule(0),
    route: r,
  };
  let content;
  try {
    content = await views.draw(ctx);
  } catch (e) {
    content = views.failure(e);
    if (e instanceof Problem && e.status === 401) {
      setLive('disconnected', `Signed out: ${e.words()}`);
    }
  }
  if (window.location.hash !== key) return; // the person moved on meanwhile
  const kept = fresh ? null : keepInput();
  const scroll = window.scrollY;
  fill(main, content);
  if (kept) {
    restoreInput(kept);
    window.scrollTo(0, scroll);
  } else {
    drawnRoute = key;
    const heading = main.querySelector('h1');
    document.title = `${heading ? heading.textContent + ' · ' : ''}reviewlock board`;
    if (app.navigated) main.focus({ preventScroll: false });
  }
  updateAttentionCount();
}

function updateAttentionCount() {
  const count = document.getElementById('attention-count');
  count.textContent = app.attention ? `(${app.attention})` : '';
}

function drawSignIn(team, error, why) {
  drawnRoute = '';
  markNav({ team });
  fill(
    main,
    views.signIn({
      team,
      error,
      why,
      onSubmit: async (t, token, output) => {
        output.textContent = 'Checking the token…';
        try {
          await signIn(t, token);
          const r = parseRoute();
          if (r.team !== t) history.replaceState(null, '', route(t));
          output.textContent = '';
          render();
        } catch (e) {
          output.textContent = e instanceof Problem ? views.signInWords(e, t) : String(e);
          output.focus();
        }
      },
    }),
  );
  document.title = 'Sign in · reviewlock board';
}

function notice(words, kind = 'ok') {
  const item = h('p', { class: `notice notice-${kind}` }, words);
  notices.appendChild(item);
  setTimeout(() => item.remove(), 15000);
}

// The count in the navigation, set by the attention view.
views.onAttention((n) => {
  app.attention = n;
  updateAttentionCount();
});

window.addEventListener('hashchange', () => {
  if (window.location.hash === '#main') return;
  takeFragmentToken();
  app.navigated = true;
  render();
});

// The skip link moves focus, and leaves the route alone.
document.querySelector('.skip').addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
});

setInterval(() => refreshAges(main), 15000);

takeFragmentToken();
render();
