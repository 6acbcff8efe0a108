// README Examples 1 and 3 through the TypeScript client, against a running reviewlock: typed
// bodies, a refusal read as a typed problem, an idempotent retry, a 304, and the event stream
// followed with a timeout. Compiled with `tsc --strict` (clients/typescript/tsconfig.json).
//
//   REVIEWLOCK_URL=http://127.0.0.1:8080 REVIEWLOCK_ADMIN_TOKEN=rl_… node dist/test/examples.js

import assert from "node:assert/strict";
import { test } from "node:test";

import { createClient, followEvents, type Event, type Options, type Problem } from "../src/index.js";

const baseUrl = process.env.REVIEWLOCK_URL ?? "http://127.0.0.1:8080";
const adminToken = process.env.REVIEWLOCK_ADMIN_TOKEN;
const team = process.env.REVIEWLOCK_TEAM ?? "acme";
const path = { team };

/** The success body of a call; a refusal fails loudly with its problem. */
function ok<T>(reply: { data?: T; error?: unknown; response: Response }): T {
  assert.ok(reply.data !== undefined, `${reply.response.status}: ${JSON.stringify(reply.error)}`);
  return reply.data;
}

/** The problem of a refused call. */
function refused(reply: { error?: Problem; response: Response }): Problem {
  assert.ok(reply.error !== undefined, `expected a refusal, got ${reply.response.status}`);
  return reply.error;
}

test("README examples 1 and 3 through the TypeScript client", async () => {
  assert.ok(adminToken, "REVIEWLOCK_ADMIN_TOKEN is set");
  const admin = createClient({ baseUrl, token: adminToken });
  ok(await admin.PUT("/v1/teams/{team}", { params: { path }, body: { display_name: "Acme" } }));
  const created = ok(
    await admin.POST("/v1/teams/{team}/tokens", { params: { path }, body: { name: "orchestrator", scope: "coordinator" } }),
  );
  // A creation (201) carries the secret; a replay (200) the token without it, never stored.
  assert.ok("token" in created, "a fresh creation carries its secret");
  const options: Options = { baseUrl, token: created.token };
  const rl = createClient(options);
  for (const engineer of ["runtime-eng", "revision-eng", "quality-eng"]) {
    ok(await rl.PUT("/v1/teams/{team}/agents/{agent}", { params: { path: { team, agent: engineer } }, body: { roles: ["engineer"] } }));
  }
  ok(
    await rl.PUT("/v1/teams/{team}/agents/{agent}", {
      params: { path: { team, agent: "quality-reviewer" } },
      body: { roles: ["tester"], can_review: true, can_author: false },
    }),
  );

  // Example 1: reject → locked out → assign another → approve.
  const after = ok(await rl.GET("/v1/teams/{team}/events", { params: { path } })).next_after;
  const auth = ok(
    await rl.POST("/v1/teams/{team}/artifacts", {
      params: { path },
      body: { key: "auth", title: "Authentication module", paths: ["src/auth/**"], author: "runtime-eng", ref: "3f2a9c1" },
    }),
  );
  assert.equal(auth.state, "in_review");
  const artifact = { team, key: "auth" };
  const rejected = ok(
    await rl.POST("/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews", {
      params: { path: { ...artifact, n: 1 } },
      body: {
        reviewer: "quality-reviewer",
        verdict: "reject",
        grounds: "quality",
        reason: "Error handling is missing.",
        remedy: { action: "reassign" },
      },
    }),
  );
  assert.equal(rejected.artifact.state, "changes_requested");
  assert.deepEqual(rejected.artifact.lockouts.map((l) => l.agent), ["runtime-eng"]);
  // The author is refused, as a typed problem with its stable code.
  const problem = refused(
    await rl.POST("/v1/teams/{team}/artifacts/{key}/assignment", { params: { path: artifact }, body: { agent: "runtime-eng" } }),
  );
  assert.equal(problem.code, "agent_locked_out");
  assert.equal(problem.status, 409);
  const hook = ok(await rl.POST("/v1/teams/{team}/checks", { params: { path }, body: { agent: "runtime-eng", paths: ["src/auth/login.rs"] } }));
  assert.equal(hook.allowed, false);
  // The assignment, retried with the same Idempotency-Key: answered once, replayed once.
  const assignment = {
    params: { path: artifact, header: { "Idempotency-Key": "assign-auth-1" } },
    body: { agent: "revision-eng" },
  };
  const first = await rl.POST("/v1/teams/{team}/artifacts/{key}/assignment", assignment);
  const again = await rl.POST("/v1/teams/{team}/artifacts/{key}/assignment", assignment);
  assert.equal(ok(first).state, "in_revision");
  assert.equal(again.response.status, 201);
  assert.equal(again.response.headers.get("idempotency-replayed"), "true");
  assert.deepEqual(ok(again), ok(first));
  const v2 = ok(
    await rl.POST("/v1/teams/{team}/artifacts/{key}/versions", { params: { path: artifact }, body: { author: "revision-eng", ref: "8b41d07" } }),
  );
  assert.equal(v2.number, 2);
  const approved = ok(
    await rl.POST("/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews", {
      params: { path: { ...artifact, n: 2 } },
      body: { reviewer: "quality-reviewer", verdict: "approve" },
    }),
  );
  assert.equal(approved.artifact.state, "approved");
  assert.deepEqual(approved.artifact.lockouts, []);
  // A conditional read: 304 while the artifact is unchanged.
  const read = await rl.GET("/v1/teams/{team}/artifacts/{key}", { params: { path: artifact } });
  const etag = read.response.headers.get("etag");
  assert.ok(etag);
  const unchanged = await rl.GET("/v1/teams/{team}/artifacts/{key}", { params: { path: artifact, header: { "If-None-Match": etag } } });
  assert.equal(unchanged.response.status, 304);
  const want = ["artifact.created", "review.rejected", "assignment.created", "version.submitted", "review.approved"];
  const page = ok(await rl.GET("/v1/teams/{team}/events", { params: { path, query: { after } } }));
  assert.deepEqual(page.items.map((e) => e.type), want);
  // The same events, followed live as Server-Sent Events, for at most 10 seconds.
  const followed: Event[] = [];
  for await (const event of followEvents(options, team, { after, signal: AbortSignal.timeout(10_000) })) {
    followed.push(event);
    if (event.type === "review.rejected") {
      // Narrowed on `type`: `data` is the rejection's.
      assert.deepEqual(event.data.lockouts, ["runtime-eng"]);
    }
    if (followed.length === want.length) break;
  }
  assert.deepEqual(followed.map((e) => e.type), want);

  // Example 3: every eligible agent locked out → the user decides.
  const billing = { team, key: "billing" };
  ok(await rl.POST("/v1/teams/{team}/artifacts", { params: { path }, body: { key: "billing", title: "Billing", author: "runtime-eng" } }));
  const reject = { reviewer: "quality-reviewer", verdict: "reject", reason: "Still wrong.", remedy: { action: "reassign" } } as const;
  for (const [n, reviser] of [[1, "revision-eng"], [2, "quality-eng"]] as const) {
    const outcome = ok(
      await rl.POST("/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews", { params: { path: { ...billing, n } }, body: reject }),
    );
    assert.equal(outcome.artifact.state, "changes_requested");
    ok(await rl.POST("/v1/teams/{team}/artifacts/{key}/assignment", { params: { path: billing }, body: { agent: reviser } }));
    const version = ok(await rl.POST("/v1/teams/{team}/artifacts/{key}/versions", { params: { path: billing }, body: { author: reviser } }));
    assert.equal(version.number, n + 1);
  }
  const deadlocked = ok(
    await rl.POST("/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews", { params: { path: { ...billing, n: 3 } }, body: reject }),
  );
  assert.equal(deadlocked.artifact.state, "deadlocked");
  const open = ok(await rl.GET("/v1/teams/{team}/escalations", { params: { path } }));
  assert.deepEqual(open.items[0]?.details.authors, ["runtime-eng", "revision-eng", "quality-eng"]);
  const refusal = refused(
    await rl.POST("/v1/teams/{team}/artifacts/{key}/assignment", { params: { path: billing }, body: { agent: "runtime-eng" } }),
  );
  assert.equal(refusal.code, "deadlocked");
});
