// reviewlock's TypeScript client: the types generated from the spec (schema.d.ts, by
// openapi-typescript) and a thin typed wrapper over openapi-fetch. Paths, parameters, bodies,
// responses and problems are all checked by `tsc --strict`.
//
//   const rl = createClient({ baseUrl: "http://127.0.0.1:8080", token });
//   const { data, error } = await rl.GET("/v1/teams/{team}/artifacts/{key}", {
//     params: { path: { team: "acme", key: "auth" } },
//   });
//   if (error) console.log(error.code); // a Problem: branch on its code
//
// The event stream (Server-Sent Events) is endless, so it is not read through openapi-fetch:
// `followEvents` yields each event, typed, until the signal aborts.

import createFetchClient, { type Client, type Middleware } from "openapi-fetch";

import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";
export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type Code = Schemas["Code"];
/** One event of a team's log: narrow it on `type` to read its `data`. */
export type Event = Schemas["Event"];
export type EventType = Event["type"];

export interface Options {
  /** Where reviewlock listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A bearer token (`rl_…`). */
  token: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export type ReviewlockClient = Client<paths>;

/** A typed client of every route; every request carries the bearer token. */
export function createClient(options: Options): ReviewlockClient {
  // Every media type: bodies are `application/json`, problems `application/problem+json`.
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${options.token}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}

/** Whether a value is a problem document (what every refusal answers). */
export function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && "code" in value && "status" in value;
}

/** Thrown by `followEvents` when the stream cannot be opened: the problem the server answered. */
export class ProblemError extends Error {
  constructor(public readonly problem: Problem) {
    super(`${problem.code}: ${problem.detail}`);
  }
}

export interface FollowOptions {
  /** Start after this seq: 0 for the whole log; by default the next event to commit. */
  after?: number;
  /** Ends the stream (e.g. `AbortSignal.timeout(30_000)`); the generator then returns. */
  signal?: AbortSignal;
}

/**
 * Follows a team's events as Server-Sent Events (`GET /v1/teams/{team}/events/stream`), in seq
 * order, as they commit. Resume after a disconnection with `after` = the last `seq` received.
 * Returns when `signal` aborts or the server ends the stream.
 */
export async function* followEvents(
  options: Options,
  team: string,
  follow: FollowOptions = {},
): AsyncGenerator<Event, void, undefined> {
  const url = new URL(`/v1/teams/${encodeURIComponent(team)}/events/stream`, options.baseUrl);
  if (follow.after !== undefined) url.searchParams.set("after", String(follow.after));
  const fetch = options.fetch ?? globalThis.fetch;
  // Aborted when the caller's signal is, and when the caller stops iterating: the connection
  // closes either way.
  const stop = new AbortController();
  const abort = () => stop.abort();
  follow.signal?.addEventListener("abort", abort, { once: true });
  if (follow.signal?.aborted) return;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${options.token}`, Accept: "text/event-stream" },
      signal: stop.signal,
    });
  } catch (e) {
    follow.signal?.removeEventListener("abort", abort);
    if (stop.signal.aborted) return;
    throw e;
  }
  if (!response.ok || response.body === null) {
    follow.signal?.removeEventListener("abort", abort);
    const body: unknown = await response.json().catch(() => null);
    if (isProblem(body)) throw new ProblemError(body);
    throw new Error(`the event stream answered ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        if (line === "") {
          // A blank line ends an event; comments (`: keep-alive`) carry no data.
          if (data.length > 0) yield JSON.parse(data.join("\n")) as Event;
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(5).replace(/^ /, ""));
        }
      }
    }
  } catch (e) {
    if (stop.signal.aborted) return;
    throw e;
  } finally {
    follow.signal?.removeEventListener("abort", abort);
    stop.abort();
    await reader.cancel().catch(() => undefined);
  }
}
