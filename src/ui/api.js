// The /v1 API as the page uses it: the person's bearer token on every call, refusals as the
// words of their problem+json, a gentle pace under the per-token rate limit.

/** A refusal or a failure, in words: the problem's `title` and `detail`, with its `code`. */
export class Problem extends Error {
  constructor(status, problem) {
    const title = problem.title || `HTTP ${status}`;
    super(problem.detail ? `${title}: ${problem.detail}` : title);
    this.status = status;
    this.code = problem.code || null;
    this.title = title;
    this.detail = problem.detail || '';
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.requestId = problem.request_id || null;
  }

  /** Everything a person needs: what, why, which field, and the request id to quote. */
  words() {
    const fields = this.errors.map((e) => `${e.field}: ${e.message}`);
    const parts = [this.message, ...fields];
    if (this.code) parts.push(`(code ${this.code}${this.requestId ? `, request ${this.requestId}` : ''})`);
    return parts.join(' ');
  }
}

/** The API's URL for `path` (`/teams/…`), relative to the page, so a path prefix is kept. */
export function apiUrl(path) {
  return new URL(`../v1${path}`, window.location.href).toString();
}

/** `/teams/{team}/artifacts/{key}…` with each segment encoded (a key's `/` as `%2F`). */
export function teamPath(team, ...segments) {
  return ['/teams', team, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}

export async function problemOf(response) {
  let body = {};
  try {
    body = await response.json();
  } catch {
    body = { title: `HTTP ${response.status}`, detail: response.statusText || 'the server answered without a problem document' };
  }
  return new Problem(response.status, body);
}

// A token bucket below the server's default per-token limit (50/s, burst 100): a board with
// many artifacts loads at a steady pace rather than being refused. A 429 still waits and retries.
const RATE = 20;
const BURST = 40;
let tokens = BURST;
let last = performance.now();

async function slot() {
  for (;;) {
    const now = performance.now();
    tokens = Math.min(BURST, tokens + ((now - last) / 1000) * RATE);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      return;
    }
    await sleep(((1 - tokens) / RATE) * 1000);
  }
}

export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A client of one team's API with one token. */
export class Api {
  constructor(team, token) {
    this.team = team;
    this.token = token;
  }

  headers(extra = {}) {
    return { Accept: 'application/json', Authorization: `Bearer ${this.token}`, ...extra };
  }

  /** Calls `method path` with an optional JSON body; the parsed answer, or throws a `Problem`. */
  async call(method, path, body, extra = {}) {
    const init = { method, headers: this.headers(extra), cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    for (let attempt = 0; ; attempt++) {
      await slot();
      let response;
      try {
        response = await fetch(apiUrl(path), init);
      } catch (e) {
        throw new Problem(0, { title: 'The server cannot be reached', detail: e.message || String(e) });
      }
      if (response.status === 429 && attempt < 5) {
        const seconds = Number(response.headers.get('Retry-After')) || 1;
        await sleep(Math.min(seconds, 10) * 1000);
        continue;
      }
      if (!response.ok) throw await problemOf(response);
      return response.status === 204 ? null : response.json();
    }
  }

  get(path) {
    return this.call('GET', path);
  }

  /** Every item of a paged list (`{ items, next_cursor }`), at most `max`. */
  async all(path, max = 5000) {
    const items = [];
    let cursor = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = await this.get(`${path}${sep}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor && items.length < max);
    return items;
  }

  team_() {
    return this.get(teamPath(this.team));
  }

  artifacts(state) {
    return this.all(teamPath(this.team, 'artifacts') + (state ? `?state=${encodeURIComponent(state)}` : ''));
  }

  status(key) {
    return this.get(teamPath(this.team, 'artifacts', key));
  }

  versions(key) {
    return this.all(teamPath(this.team, 'artifacts', key, 'versions'));
  }

  escalations() {
    return this.all(teamPath(this.team, 'escalations'));
  }

  agents() {
    return this.all(teamPath(this.team, 'agents'));
  }

  async lockouts() {
    // Not paged: the team's active lockouts.
    const page = await this.get(teamPath(this.team, 'lockouts'));
    return page.items;
  }

  /** Events after `after`, every page until the last. */
  async eventsAfter(after) {
    const events = [];
    for (;;) {
      const page = await this.get(`${teamPath(this.team, 'events')}?after=${after}&limit=500`);
      events.push(...page.items);
      if (page.items.length < 500) return events;
      after = page.next_after;
    }
  }

  resolve(key, body) {
    return this.call('POST', teamPath(this.team, 'artifacts', key, 'resolution'), body);
  }

  lift(key, agent, reason) {
    return this.call('POST', teamPath(this.team, 'artifacts', key, 'lockouts', agent, 'lift'), { reason });
  }

  /**
   * Whether this token may resolve deadlocks and lift lockouts: its scope is `user`, as
   * `GET /v1/teams/{team}/token` says.
   */
  async mayAct() {
    const token = await this.get(teamPath(this.team, 'token'));
    return token.scope === 'user';
  }
}
