/**
 * reviewlock as a Squad pre-tool-use hook.
 *
 * Squad's `HookPipeline` (bradygaster/squad, packages/squad-sdk/src/hooks/index.ts) runs each
 * `onPreToolUse` hook before a tool call; the first `{ action: 'block' }` wins. Its own
 * `ReviewerLockoutHook.createHook()` keeps lockouts in memory and matches paths by substring.
 * `createReviewlockHook` takes the same context and gives the same block result, but asks
 * reviewlock (`POST /v1/teams/{team}/checks`), so the lockout is the team's, held in one
 * database for every coordinator, and paths are matched against the artifacts' globs.
 *
 * It fails closed: when reviewlock cannot be asked (unreachable, too slow, a 5xx, a refused
 * token) the write is blocked with a reason saying so, unless `failOpen` is set, which logs
 * every call it lets through.
 */
import * as path from 'node:path';

// --- Squad's hook contract (structurally the same as squad-sdk's types) ---

export type HookAction = 'allow' | 'block' | 'modify';

export interface PreToolUseContext {
  toolName: string;
  arguments: Record<string, unknown>;
  agentName: string;
  sessionId: string;
}

export interface PreToolUseResult {
  action: HookAction;
  modifiedArguments?: Record<string, unknown>;
  reason?: string;
}

export type PreToolUseHook = (ctx: PreToolUseContext) => PreToolUseResult | Promise<PreToolUseResult>;

/** The tools Squad's own lockout hook treats as writes, and where they name the file. */
export const WRITE_TOOLS = ['edit', 'create', 'write_file', 'create_file'];

export interface ReviewlockHookOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The team whose artifacts the files may belong to. */
  team: string;
  /**
   * The token to ask with: the agent's own `agent` token (the safe choice: the server answers
   * only about that agent), or a `read` token of the team. A function picks one per agent.
   */
  token: string | ((agentName: string) => string);
  /**
   * The reviewlock agent id of a Squad agent name. By default the name is sent as an alias
   * (R16): the roster agent whose id or one of whose `aliases` it is; a name that names no
   * agent is the most restricted writer, refused wherever a lockout covers the file.
   */
  agentId?: (agentName: string) => string;
  /** The repository's root, which paths are made relative to; default `process.cwd()`. */
  root?: string;
  /** Longest wait for reviewlock's answer, in milliseconds; default 2000. */
  timeoutMs?: number;
  /** Let writes through when reviewlock cannot be asked (logged each time); default false. */
  failOpen?: boolean;
  /** Where `failOpen` logs; default `console.warn`. */
  warn?: (message: string) => void;
}

interface Denial {
  artifact: string | null;
  code: string;
  detail: string;
}

/** A Squad `onPreToolUse` hook that asks reviewlock before every file write. */
export function createReviewlockHook(options: ReviewlockHookOptions): PreToolUseHook {
  const root = path.resolve(options.root ?? process.cwd());
  const timeoutMs = options.timeoutMs ?? 2000;
  const warn = options.warn ?? ((m: string) => console.warn(m));
  return async (ctx: PreToolUseContext): Promise<PreToolUseResult> => {
    if (!WRITE_TOOLS.includes(ctx.toolName)) {
      return { action: 'allow' };
    }
    const args = ctx.arguments as { path?: unknown; file_path?: unknown };
    const filePath = args.path || args.file_path;
    if (!filePath || typeof filePath !== 'string') {
      return { action: 'allow' };
    }
    const relative = repositoryRelative(root, filePath);
    if (relative === null) {
      return {
        action: 'block',
        reason: `reviewlock blocks writing '${filePath}': outside the repository at ${root}, where no lockout can be checked. Write only files inside the repository.`,
      };
    }
    const agent = options.agentId ? options.agentId(ctx.agentName) : ctx.agentName;
    const writer = options.agentId ? { agent } : { alias: agent };
    const token = typeof options.token === 'function' ? options.token(ctx.agentName) : options.token;
    let denials: Denial[];
    try {
      const answer = (await call(options.url, token, timeoutMs, 'POST', `/v1/teams/${enc(options.team)}/checks`, {
        ...writer,
        paths: [relative],
      })) as { allowed: boolean; denials: Denial[] };
      denials = answer.denials;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (options.failOpen) {
        warn(`reviewlock squad hook: failOpen: letting ${ctx.toolName} of '${relative}' by '${agent}' through although reviewlock could not be asked: ${why}`);
        return { action: 'allow' };
      }
      return {
        action: 'block',
        reason: `reviewlock could not be asked whether this write is allowed, so it is blocked (the hook fails closed): ${why}. Do not work around it; tell the user or the coordinator that the lockout service is unavailable.`,
      };
    }
    if (denials.length === 0) {
      return { action: 'allow' };
    }
    const artifacts = [...new Set(denials.flatMap((d) => (d.artifact ? [`artifact '${d.artifact}'`] : [])))];
    const next = artifacts.length
      ? `ask the coordinator to reassign ${artifacts.join(', ')} to another agent`
      : 'ask the coordinator to assign this work to an agent that may write it';
    return {
      action: 'block',
      reason: `reviewlock denies agent '${agent}' this write: ${denials.map((d) => `${d.detail} (${d.code})`).join('; ')}. Do not retry it or write these files another way; ${next}.`,
    };
  };
}

/** `file` relative to `root` with `/` separators, or null when it is not inside `root`. */
export function repositoryRelative(root: string, file: string): string | null {
  const relative = path.relative(root, path.resolve(root, file));
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return null;
  }
  return relative.split(path.sep).join('/');
}

// --- The coordinator's side: recording a verdict ---

export interface VerdictOptions {
  url: string;
  team: string;
  /** A coordinator token of the team (or the reviewer's own agent token). */
  token: string;
  artifact: string;
  version: number;
  reviewer: string;
  verdict: 'approve' | 'reject';
  /** Required to reject: what is wrong. */
  reason?: string;
  grounds?: string;
  /** On a rejection: `{ action: 'reassign' }`, or another remedy of PROTOCOL.md. */
  remedy?: Record<string, unknown>;
  /** Makes a retry safe: the same key replays the first answer. */
  idempotencyKey?: string;
  timeoutMs?: number;
}

/**
 * Records a reviewer's verdict on a version (`POST …/artifacts/{key}/versions/{n}/reviews`) and
 * returns the server's answer: the review and the artifact with its lockouts. A rejection locks
 * out everyone credited on the version, which every `createReviewlockHook` then enforces.
 * Throws with the problem's `code` and `detail` when refused.
 */
export async function recordVerdict(options: VerdictOptions): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = { reviewer: options.reviewer, verdict: options.verdict };
  for (const field of ['reason', 'grounds', 'remedy'] as const) {
    if (options[field] !== undefined) body[field] = options[field];
  }
  const url = `/v1/teams/${enc(options.team)}/artifacts/${enc(options.artifact)}/versions/${options.version}/reviews`;
  const headers = options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : undefined;
  return (await call(options.url, options.token, options.timeoutMs ?? 10000, 'POST', url, body, headers)) as Record<string, unknown>;
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

/** One request with a timeout; the parsed JSON of a 2xx, else an Error saying what happened. */
async function call(
  base: string,
  token: string,
  timeoutMs: number,
  method: string,
  route: string,
  body: unknown,
  extra?: Record<string, string>,
): Promise<unknown> {
  const url = `${base.replace(/\/+$/, '')}${route}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
      throw new Error(`the server at ${base} did not answer within ${timeoutMs} ms`);
    }
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
    throw new Error(`cannot reach the server at ${base}: ${cause}`);
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: reported below when the status is not a success.
  }
  if (!response.ok) {
    const problem = (json ?? {}) as { code?: string; detail?: string };
    throw new Error(`${base} answered ${response.status} ${problem.code ?? 'no code'}: ${problem.detail ?? text.slice(0, 200)}`);
  }
  return json;
}
