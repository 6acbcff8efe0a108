// The board's views, each drawn whole from one round of reads: Needs attention, Board,
// Artifact, Agents; and the sign-in form. Actions (a resolution, a lockout lift) are drawn
// only for a token that may take them, and a refusal is shown in the words of its problem.

import { Problem } from './api.js';
import {
  STATES,
  age,
  ageOf,
  artifactRoute,
  h,
  idFor,
  listWords,
  remedyWords,
  route,
  stateBadge,
  stateWords,
  when,
} from './dom.js';
import { timeline } from './timeline.js';

let attentionListener = () => {};

/** Tells the shell how many items need attention, whenever a view has counted them. */
export function onAttention(fn) {
  attentionListener = fn;
}

export async function draw(ctx) {
  if (ctx.route.view !== 'attention') {
    // The count in the navigation: open deadlocks. Not awaited: the view does not wait for it.
    ctx.api.escalations().then((e) => attentionListener(e.length), () => {});
  }
  switch (ctx.route.view) {
    case 'attention':
      return attention(ctx);
    case 'board':
      return board(ctx);
    case 'artifact':
      return artifact(ctx);
    case 'agents':
      return agents(ctx);
    default:
      return h(
        'section',
        {},
        h('h1', {}, 'No such view'),
        h('p', {}, h('a', { href: route(ctx.team) }, 'Open what needs attention')),
      );
  }
}

export function failure(e) {
  return h(
    'section',
    {},
    h('h1', {}, 'This view cannot be shown'),
    h('p', { class: 'problem', role: 'alert' }, e instanceof Problem ? e.words() : String(e)),
  );
}

// ---- reads shared by the views ---------------------------------------------------------------

/** The status of each key, from the cache unless an event named it or `revision` moved on. */
async function statuses(ctx, keys, revisions = new Map()) {
  const out = new Map();
  await Promise.all(
    keys.map(async (key) => {
      let s = ctx.statuses.get(key);
      if (!s || (revisions.has(key) && revisions.get(key) > s.revision)) {
        try {
          s = await ctx.api.status(key);
        } catch (e) {
          if (e instanceof Problem && e.status === 404) return;
          throw e;
        }
        ctx.statuses.set(key, s);
      }
      out.set(key, s);
    }),
  );
  return out;
}

/** Since when the artifact is in its state, from the status alone. */
function inStateSince(s) {
  const reviews = s.current_version?.reviews || [];
  const last = (verdict) => reviews.filter((r) => r.verdict === verdict).map((r) => r.created_at).sort().pop();
  switch (s.state) {
    case 'in_review':
      return s.current_version.submitted_at;
    case 'changes_requested':
      return last('reject') || s.updated_at;
    case 'in_revision':
      return s.assignment?.assigned_at || s.updated_at;
    case 'approved':
      return last('approve') || s.updated_at;
    case 'deadlocked':
      return s.escalation?.opened_at || s.updated_at;
    default:
      return s.updated_at;
  }
}

function artifactLink(team, key, title) {
  return h('a', { href: artifactRoute(team, key) }, h('span', { class: 'key' }, key), title ? ` — ${title}` : '');
}

function lockoutWords(l) {
  return `${l.agent}: rejected in version ${l.version} by ${l.reviewer}${l.reason ? ` — “${l.reason}”` : ''}`;
}

// ---- actions --------------------------------------------------------------------------------

/** Runs `act` for a form: its button busy meanwhile, a refusal in words in its output. */
function acting(form, output, act) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    output.className = 'result';
    output.textContent = 'Sending…';
    try {
      await act();
      output.textContent = '';
    } catch (err) {
      output.className = 'result problem';
      output.textContent = err instanceof Problem ? `Refused. ${err.words()}` : String(err);
    } finally {
      button.disabled = false;
    }
  });
}

/** The user's resolution of a deadlock (R9): assign an eligible agent, or abandon. */
function resolveForm(ctx, s) {
  const id = (part) => idFor('resolve', part, s.key);
  const output = h('output', { id: id('out'), class: 'result', 'aria-live': 'assertive' });
  const choices = [
    ...s.eligible_agents.map((a) => h('option', { value: `assign:${a}` }, `Assign ${a} to write the next version`)),
    h('option', { value: 'abandon' }, 'Abandon the artifact (final)'),
  ];
  const form = h(
    'form',
    { class: 'action resolve', id: id('form'), 'aria-labelledby': id('legend') },
    h(
      'fieldset',
      {},
      h('legend', { id: id('legend') }, `Resolve the deadlock of ${s.key}`),
      s.eligible_agents.length
        ? null
        : h('p', { class: 'hint' }, 'Nobody may revise it: a coordinator can add an agent to the team, who will then be offered here.'),
      h('label', { for: id('action') }, 'Resolution'),
      h('select', { id: id('action'), name: 'action' }, choices),
      h('label', { for: id('reason') }, 'Reason (recorded with the resolution)'),
      h('textarea', { id: id('reason'), name: 'reason', required: true, rows: 2, maxlength: 10000 }),
      h('button', { type: 'submit', class: 'primary', id: id('submit') }, 'Resolve'),
      output,
    ),
  );
  acting(form, output, async () => {
    const choice = form.querySelector('select').value;
    const reason = form.querySelector('textarea').value.trim();
    const body = choice === 'abandon' ? { action: 'abandon', reason } : { action: 'assign', agent: choice.slice(7), reason };
    const after = await ctx.api.resolve(s.key, body);
    ctx.statuses.set(s.key, after);
    ctx.notice(
      body.action === 'abandon'
        ? `${s.key} abandoned.`
        : `${s.key}: ${body.agent} assigned; the artifact is ${stateWords(after.state)}.`,
    );
    ctx.refresh();
  });
  return form;
}

/** The user's early lift of one lockout (R10). */
function liftForm(ctx, s) {
  if (!s.lockouts.length) return null;
  const id = (part) => idFor('lift', part, s.key);
  const output = h('output', { id: id('out'), class: 'result', 'aria-live': 'assertive' });
  const form = h(
    'form',
    { class: 'action lift' },
    h('label', { for: id('agent') }, 'Locked-out agent'),
    h('select', { id: id('agent'), name: 'agent' }, s.lockouts.map((l) => h('option', { value: l.agent }, l.agent))),
    h('label', { for: id('reason') }, 'Reason (recorded with the lift)'),
    h('input', { id: id('reason'), name: 'reason', type: 'text', required: true, maxlength: 10000 }),
    h('button', { type: 'submit', id: id('submit') }, 'Lift the lockout'),
    output,
  );
  acting(form, output, async () => {
    const agent = form.querySelector('select').value;
    const reason = form.querySelector('input').value.trim();
    await ctx.api.lift(s.key, agent, reason);
    ctx.statuses.delete(s.key);
    ctx.notice(`${s.key}: ${agent} may write it again.`);
    ctx.refresh();
  });
  return h('details', { class: 'lift', id: id('details') }, h('summary', { id: id('summary') }, 'Lift a lockout early…'), form);
}

// ---- Needs attention ------------------------------------------------------------------------

async function attention(ctx) {
  const [escalations, waiting] = await Promise.all([ctx.api.escalations(), ctx.api.artifacts('changes_requested')]);
  escalations.sort((a, b) => a.opened_at.localeCompare(b.opened_at));
  const found = await statuses(
    ctx,
    [...escalations.map((e) => e.artifact), ...waiting.map((a) => a.key)],
    new Map(waiting.map((a) => [a.key, a.revision])),
  );
  const waitingStatuses = waiting
    .map((a) => found.get(a.key))
    .filter((s) => s && s.state === 'changes_requested')
    .sort((a, b) => inStateSince(a).localeCompare(inStateSince(b)));
  attentionListener(escalations.length);

  const deadlocks = escalations.map((e) => deadlockCard(ctx, e, found.get(e.artifact))).filter(Boolean);
  return h(
    'section',
    { 'aria-labelledby': 'view-title' },
    h('h1', { id: 'view-title' }, 'Needs attention'),
    h(
      'section',
      { 'aria-labelledby': 'deadlocks-title', class: 'group' },
      h('h2', { id: 'deadlocks-title' }, `Deadlocked, waiting for the user (${deadlocks.length})`),
      deadlocks.length
        ? h('ul', { class: 'cards' }, deadlocks.map((c) => h('li', {}, c)))
        : h('p', { class: 'empty' }, 'No deadlock: every rejected artifact has someone left who may revise it.'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'waiting-title', class: 'group' },
      h('h2', { id: 'waiting-title' }, `Rejected, waiting for a reviser (${waitingStatuses.length})`),
      waitingStatuses.length
        ? h('ul', { class: 'cards' }, waitingStatuses.map((s) => h('li', {}, waitingCard(ctx, s))))
        : h('p', { class: 'empty' }, 'Nothing waits for a reviser.'),
    ),
  );
}

function deadlockCard(ctx, escalation, s) {
  if (!s) return null;
  const details = escalation.details || {};
  const titleId = idFor('card', s.key);
  return h(
    'article',
    { class: 'card card-deadlocked', 'aria-labelledby': titleId, dataset: { artifact: s.key } },
    h('h3', { id: titleId }, artifactLink(ctx.team, s.key, s.title)),
    h('p', { class: 'meta' }, stateBadge(s.state), ' for ', ageOf(escalation.opened_at), ` · version ${s.current_version.number} · cycle ${s.cycle}`),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Locked out'),
      h('dd', {}, s.lockouts.length ? h('ul', {}, s.lockouts.map((l) => h('li', {}, lockoutWords(l)))) : 'nobody'),
      h('dt', {}, 'Why'),
      h(
        'dd',
        {},
        (details.rejections || []).length
          ? h(
              'ul',
              {},
              details.rejections.map((r) =>
                h('li', {}, `version ${r.version}, ${r.reviewer}: “${r.reason || 'no reason'}” (${remedyWords(r.remedy)})`),
              ),
            )
          : 'no rejection recorded',
      ),
      h('dt', {}, 'Authors so far'),
      h('dd', {}, listWords(details.authors || [])),
      h('dt', {}, 'Still eligible'),
      h('dd', {}, listWords(s.eligible_agents, 'nobody: every agent who may write is locked out')),
    ),
    ctx.mayAct ? resolveForm(ctx, s) : null,
    ctx.mayAct ? liftForm(ctx, s) : null,
  );
}

function waitingCard(ctx, s) {
  const titleId = idFor('card', s.key);
  const remedy = s.pending_remedy;
  return h(
    'article',
    { class: 'card card-changes_requested', 'aria-labelledby': titleId, dataset: { artifact: s.key } },
    h('h3', { id: titleId }, artifactLink(ctx.team, s.key, s.title)),
    h('p', { class: 'meta' }, stateBadge(s.state), ' for ', ageOf(inStateSince(s)), ` · version ${s.current_version.number}`),
    h(
      'dl',
      { class: 'facts' },
      remedy ? [h('dt', {}, 'Rejected by'), h('dd', {}, `${remedy.reviewer}: “${remedy.reason}”`)] : null,
      remedy ? [h('dt', {}, 'Remedy'), h('dd', {}, remedyWords(remedy))] : null,
      h('dt', {}, 'Locked out'),
      h('dd', {}, s.lockouts.length ? h('ul', {}, s.lockouts.map((l) => h('li', {}, lockoutWords(l)))) : 'nobody'),
      h('dt', {}, 'Still eligible'),
      h('dd', {}, listWords(s.eligible_agents)),
    ),
    h('p', { class: 'hint' }, 'A coordinator assigns the reviser.'),
    ctx.mayAct ? liftForm(ctx, s) : null,
  );
}

// ---- Board ----------------------------------------------------------------------------------

const SHOWN = 200;

async function board(ctx) {
  const query = ctx.route.query;
  const wanted = STATES.includes(query.get('state')) ? query.get('state') : '';
  const text = (query.get('key') || '').trim().toLowerCase();
  const [all, lockouts] = await Promise.all([ctx.api.artifacts(), ctx.api.lockouts()]);
  const counts = new Map(STATES.map((s) => [s, 0]));
  for (const a of all) counts.set(a.state, (counts.get(a.state) || 0) + 1);
  const listed = all
    .filter((a) => (!wanted || a.state === wanted) && (!text || `${a.key} ${a.title}`.toLowerCase().includes(text)))
    .sort((a, b) => STATES.indexOf(a.state) - STATES.indexOf(b.state) || a.updated_at.localeCompare(b.updated_at));
  const shown = listed.slice(0, SHOWN);
  const found = await statuses(ctx, shown.map((a) => a.key), new Map(shown.map((a) => [a.key, a.revision])));
  const lockedOut = new Map();
  for (const l of lockouts) lockedOut.set(l.artifact, [...(lockedOut.get(l.artifact) || []), l.agent]);

  const filterLink = (state, words) =>
    h(
      'a',
      { href: route(ctx.team, 'board') + (state ? `?state=${state}` : ''), 'aria-current': state === wanted ? 'true' : null },
      words,
    );
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter artifacts' },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'filter-state' }, 'State'),
      h(
        'select',
        { id: 'filter-state', name: 'state' },
        h('option', { value: '' }, `any (${all.length})`),
        STATES.map((s) => h('option', { value: s, selected: s === wanted }, `${stateWords(s)} (${counts.get(s)})`)),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'filter-key' }, 'Key or title contains'),
      h('input', { id: 'filter-key', name: 'key', type: 'search', value: query.get('key') || '', autocomplete: 'off' }),
    ),
    h('button', { type: 'submit', id: 'filter-submit' }, 'Filter'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    const state = form.querySelector('select').value;
    const key = form.querySelector('input').value.trim();
    if (state) q.set('state', state);
    if (key) q.set('key', key);
    const qs = q.toString();
    window.location.hash = route(ctx.team, 'board') + (qs ? `?${qs}` : '');
  });

  const rows = shown.map((a) => {
    const s = found.get(a.key);
    const locked = lockedOut.get(a.key) || [];
    return h(
      'tr',
      { dataset: { artifact: a.key } },
      h('th', { scope: 'row', 'data-label': 'Artifact' }, artifactLink(ctx.team, a.key, a.title)),
      h('td', { 'data-label': 'State' }, stateBadge(a.state)),
      h('td', { 'data-label': 'Version' }, String(a.current_version)),
      h('td', { 'data-label': 'Author' }, s ? s.current_version.author : a.original_author),
      h('td', { 'data-label': 'Assignee' }, s?.assignment ? s.assignment.agent : '—'),
      h('td', { 'data-label': 'Locked out' }, locked.length ? locked.join(', ') : '—'),
      h('td', { 'data-label': 'In state for' }, s ? ageOf(inStateSince(s)) : ageOf(a.updated_at)),
    );
  });
  return h(
    'section',
    { 'aria-labelledby': 'view-title' },
    h('h1', { id: 'view-title' }, 'Board'),
    h(
      'nav',
      { 'aria-label': 'Artifacts by state', class: 'counts' },
      h('ul', {}, [
        h('li', {}, filterLink('', `All ${all.length}`)),
        ...STATES.map((s) => h('li', { class: `count-${s}` }, filterLink(s, `${stateWords(s)} ${counts.get(s)}`))),
      ]),
    ),
    form,
    listed.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'artifacts' },
            h(
              'caption',
              {},
              `${listed.length} artifact${listed.length === 1 ? '' : 's'}${wanted ? ` ${stateWords(wanted)}` : ''}${text ? ` matching “${text}”` : ''}`,
              listed.length > SHOWN ? ` (the first ${SHOWN} shown: filter to narrow)` : '',
            ),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Artifact', 'State', 'Version', 'Author', 'Assignee', 'Locked out', 'In state for'].map((c) =>
                  h('th', { scope: 'col' }, c),
                ),
              ),
            ),
            h('tbody', {}, rows),
          ),
        )
      : h('p', { class: 'empty' }, all.length ? 'No artifact matches the filter.' : 'The team has no artifact yet.'),
  );
}

// ---- Artifact -------------------------------------------------------------------------------

/** Reads the team's log past what this page has read, every page of it (R12: nothing skipped). */
async function syncLog(ctx) {
  const fresh = await ctx.api.eventsAfter(ctx.log.through);
  for (const e of fresh) {
    if (e.seq > ctx.log.through) {
      ctx.log.events.push(e);
      ctx.log.through = e.seq;
    }
  }
}

async function artifact(ctx) {
  const key = ctx.route.key;
  ctx.statuses.delete(key);
  let s;
  try {
    [s] = await Promise.all([ctx.api.status(key), syncLog(ctx)]);
  } catch (e) {
    if (e instanceof Problem && e.status === 404) {
      return h(
        'section',
        {},
        h('h1', {}, key),
        h('p', { class: 'problem', role: 'alert' }, `No artifact ${key} in team ${ctx.team}. ${e.words()}`),
      );
    }
    throw e;
  }
  ctx.statuses.set(key, s);
  const versions = await ctx.api.versions(key);
  const events = ctx.log.events.filter((e) => e.artifact === key);
  const v = s.current_version;
  const facts = [
    ['State', [stateBadge(s.state), ' for ', ageOf(inStateSince(s))]],
    ['Current version', [`${v.number} by ${v.author}`, v.ref ? [', ref ', h('code', {}, v.ref)] : '', `, submitted `, when(v.submitted_at)]],
    ['Cycle', String(s.cycle)],
    ['Kind', s.kind || '—'],
    ['Paths', s.paths.length ? s.paths.join(', ') : '—'],
    ['Original author', s.original_author],
    ['Assignee', s.assignment ? `${s.assignment.agent} (by the ${s.assignment.assigned_by}, ${age(s.assignment.assigned_at)} ago)` : '—'],
    ['Pending remedy', s.pending_remedy ? `${remedyWords(s.pending_remedy)}, asked by ${s.pending_remedy.reviewer}: “${s.pending_remedy.reason}”` : '—'],
    ['Locked out', s.lockouts.length ? h('ul', {}, s.lockouts.map((l) => h('li', {}, lockoutWords(l)))) : 'nobody'],
    ['Eligible to revise', listWords(s.eligible_agents)],
    ['Created', when(s.created_at)],
    ['Updated', [when(s.updated_at), ` (revision ${s.revision})`]],
  ];
  const act = ctx.mayAct && (s.state === 'deadlocked' || s.lockouts.length);
  return h(
    'section',
    { 'aria-labelledby': 'view-title', dataset: { artifact: key, state: s.state } },
    h('p', { class: 'crumbs' }, h('a', { href: route(ctx.team, 'board') }, 'Board'), ' › artifact'),
    h('h1', { id: 'view-title' }, h('span', { class: 'key' }, key)),
    h('p', { class: 'title' }, s.title),
    h('div', { class: 'columns' },
      h(
        'section',
        { 'aria-labelledby': 'status-title', class: 'status' },
        h('h2', { id: 'status-title' }, 'Status'),
        h('dl', { class: 'facts' }, facts.map(([t, d]) => [h('dt', {}, t), h('dd', {}, d)])),
        act
          ? h(
              'section',
              { 'aria-labelledby': 'actions-title', class: 'actions' },
              h('h2', { id: 'actions-title' }, 'Actions'),
              s.state === 'deadlocked' ? resolveForm(ctx, s) : null,
              liftForm(ctx, s),
            )
          : null,
      ),
      h(
        'section',
        { 'aria-labelledby': 'timeline-title', class: 'history' },
        h('h2', { id: 'timeline-title' }, 'Timeline, newest first'),
        timeline(events, versions),
      ),
    ),
  );
}

// ---- Agents ---------------------------------------------------------------------------------

async function agents(ctx) {
  const [roster, lockouts] = await Promise.all([ctx.api.agents(), ctx.api.lockouts()]);
  const byAgent = new Map();
  for (const l of lockouts) byAgent.set(l.agent, [...(byAgent.get(l.agent) || []), l]);
  roster.sort((a, b) => Number(b.active) - Number(a.active) || a.id.localeCompare(b.id));
  const may = (a) => [a.can_author ? 'author' : null, a.can_review ? 'review' : null].filter(Boolean).join(', ') || '—';
  const rows = roster.map((a) => {
    const locked = byAgent.get(a.id) || [];
    return h(
      'tr',
      { dataset: { agent: a.id }, class: a.active ? null : 'retired' },
      h('th', { scope: 'row', 'data-label': 'Agent' }, h('span', { class: 'key' }, a.id), a.display_name ? ` — ${a.display_name}` : ''),
      h('td', { 'data-label': 'Kind' }, a.kind === 'ai' ? 'AI' : 'human', a.active ? '' : ' (retired)'),
      h('td', { 'data-label': 'Roles' }, a.roles.join(', ') || '—'),
      h('td', { 'data-label': 'May' }, may(a)),
      h('td', { 'data-label': 'Expertise' }, a.expertise.join(', ') || '—'),
      h('td', { 'data-label': 'Aliases' }, a.aliases.join(', ') || '—'),
      h(
        'td',
        { 'data-label': 'Locked out of' },
        locked.length
          ? h('ul', { class: 'inline' }, locked.map((l) => h('li', {}, h('a', { href: artifactRoute(ctx.team, l.artifact) }, l.artifact), ` (v${l.version}, ${l.reviewer})`)))
          : '—',
      ),
    );
  });
  return h(
    'section',
    { 'aria-labelledby': 'view-title' },
    h('h1', { id: 'view-title' }, 'Agents'),
    roster.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'agents' },
            h('caption', {}, `${roster.filter((a) => a.active).length} active, ${roster.filter((a) => !a.active).length} retired; ${lockouts.length} active lockout${lockouts.length === 1 ? '' : 's'}`),
            h('thead', {}, h('tr', {}, ['Agent', 'Kind', 'Roles', 'May', 'Expertise', 'Aliases', 'Locked out of'].map((c) => h('th', { scope: 'col' }, c)))),
            h('tbody', {}, rows),
          ),
        )
      : h('p', { class: 'empty' }, 'The team has no agent yet.'),
  );
}

// ---- sign in --------------------------------------------------------------------------------

export function signInWords(e, team) {
  if (e.status === 401) return `The server does not accept this token. ${e.words()}`;
  if (e.status === 404) return `This token cannot read team “${team}”, or there is no such team. ${e.words()}`;
  if (e.status === 429) return `Too many attempts: wait a little and try again. ${e.words()}`;
  return e.words();
}

export function signIn({ team, error, why, onSubmit }) {
  const output = h('p', { id: 'signin-out', class: error ? 'result problem' : 'result', role: 'alert', tabindex: -1 }, error ? (error instanceof Problem ? signInWords(error, team) : String(error)) : '');
  const form = h(
    'form',
    { class: 'signin', 'aria-labelledby': 'view-title' },
    h('label', { for: 'signin-team' }, 'Team'),
    h('input', { id: 'signin-team', name: 'team', required: true, value: team || '', autocomplete: 'off', spellcheck: 'false', pattern: '[a-z0-9][a-z0-9\\-]{0,62}' }),
    h('label', { for: 'signin-token' }, 'Token'),
    h('input', { id: 'signin-token', name: 'token', type: 'password', required: true, autocomplete: 'off', spellcheck: 'false' }),
    h('button', { type: 'submit', class: 'primary' }, 'Open the board'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onSubmit(form.querySelector('#signin-team').value.trim(), form.querySelector('#signin-token').value.trim(), output);
  });
  return h(
    'section',
    { class: 'narrow' },
    h('h1', { id: 'view-title' }, 'Open a team’s board'),
    why ? h('p', {}, why) : null,
    h(
      'p',
      {},
      'Paste a team token. A read token shows the board; a user token may also resolve deadlocks and lift lockouts. ',
      'The token stays in this browser tab (session storage) and is sent only as a bearer header to this server: never in a cookie or a URL.',
    ),
    form,
    output,
    h(
      'p',
      { class: 'hint' },
      'For a wall screen, open ',
      h('code', {}, '/ui/#team=TEAM&token=TOKEN'),
      ': the page keeps the token and removes it from the address bar.',
    ),
  );
}
