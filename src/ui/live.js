// Following the team's event stream. `EventSource` cannot send an `Authorization` header, so
// the stream is read with fetch(): Server-Sent Events parsed by hand, `Last-Event-ID` sent on
// every reconnection so the server resumes after the last event seen, without a gap.

import { apiUrl, problemOf, sleep, teamPath } from './api.js';

// The server sends a keep-alive comment every 15 s: silence three times as long is a dead link.
const SILENCE_MS = 45000;
const BACKOFF_MS = [500, 1000, 2000, 5000, 10000, 15000];

/** Splits a `text/event-stream` body into events `{ id, event, data }`; `onBytes` on every chunk. */
async function* serverSentEvents(body, onBytes) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = { id: null, event: 'message', data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    buffer += value;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === '') {
        if (event.data.length) yield { id: event.id, event: event.event, data: event.data.join('\n') };
        event = { id: null, event: 'message', data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') event.data.push(value);
      else if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
    }
  }
}

/**
 * The stream of one team, reconnecting until stopped. `onEvent(event)` for each event as
 * served by GET /events; `onState({ state, ... })` with `connecting`, `connected` (the stream is
 * open: what the page shows may now be refreshed and is then current), `disconnected` (with
 * `retryIn` ms and the `problem` that ended it) or `refused` (the token no longer reads: no
 * retry).
 */
export class Live {
  constructor(api, onEvent, onState) {
    this.api = api;
    this.onEvent = onEvent;
    this.onState = onState;
    this.lastId = null;
    this.stopped = false;
    this.abort = null;
  }

  start() {
    this.run();
    return this;
  }

  stop() {
    this.stopped = true;
    this.abort?.abort();
  }

  async run() {
    let failures = 0;
    while (!this.stopped) {
      this.onState({ state: 'connecting', resuming: this.lastId !== null });
      const abort = new AbortController();
      this.abort = abort;
      let watchdog = null;
      const alive = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => abort.abort(new Error('no data, not even a keep-alive, for 45 s')), SILENCE_MS);
      };
      let problem = null;
      try {
        const headers = this.api.headers({ Accept: 'text/event-stream' });
        if (this.lastId !== null) headers['Last-Event-ID'] = this.lastId;
        alive();
        const response = await fetch(apiUrl(teamPath(this.api.team, 'events', 'stream')), {
          headers,
          cache: 'no-store',
          credentials: 'omit',
          signal: abort.signal,
        });
        if (!response.ok) {
          problem = await problemOf(response);
          if ([401, 403, 404].includes(response.status)) {
            clearTimeout(watchdog);
            this.onState({ state: 'refused', problem });
            return;
          }
          throw problem;
        }
        failures = 0;
        this.onState({ state: 'connected', resumed: this.lastId !== null });
        for await (const sse of serverSentEvents(response.body, alive)) {
          if (sse.id) this.lastId = sse.id;
          let event;
          try {
            event = JSON.parse(sse.data);
          } catch {
            continue;
          }
          this.onEvent(event);
        }
        problem = { message: 'the server ended the stream' };
      } catch (e) {
        problem = problem || { message: abort.signal.reason?.message || e.message || String(e) };
      } finally {
        clearTimeout(watchdog);
      }
      if (this.stopped) return;
      const retryIn = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
      failures += 1;
      this.onState({ state: 'disconnected', retryIn, problem });
      await sleep(retryIn);
    }
  }
}
