// An artifact's timeline, read from the team's event log (R12) and told in words: versions
// with their ref, verdicts with their reasons and evidence, lockouts created and lifted,
// assignments, escalations and resolutions. The versions' reviews add what an event leaves out
// (grounds, evidence, a version's ref and summary).

import { ageOf, h, listWords, remedyWords, stateWords, when } from './dom.js';

const VERSION_KINDS = {
  first: 'the first version',
  revision: 'a revision by the assignee',
  supersede: 'a replacement by its author',
  new_cycle: 'a new revision cycle',
};

const EVIDENCE = [
  ['counter_evidence', 'Counter-evidence'],
  ['violated_requirement', 'Violated requirement'],
  ['affected_scope', 'Affected scope'],
  ['approval_condition', 'Approved when'],
];

function versionFacts(version) {
  if (!version) return null;
  const facts = [];
  if (version.ref) facts.push(['Ref', h('code', {}, version.ref)]);
  if (version.contributors?.length) {
    facts.push(['Contributors', version.contributors.map((c) => `${c.agent} (${c.role.replace('_', '-')})`).join(', ')]);
  }
  if (version.summary) facts.push(['Summary', version.summary]);
  return facts;
}

function reviewFacts(review) {
  if (!review) return [];
  const facts = [];
  if (review.grounds) facts.push(['Grounds', review.grounds]);
  if (review.kind === 'focused_rereview') facts.push(['Kind', 'focused re-review']);
  if (review.ref) facts.push(['Reviewed ref', h('code', {}, review.ref)]);
  for (const [field, label] of EVIDENCE) {
    if (review.evidence?.[field]) facts.push([label, review.evidence[field]]);
  }
  return facts;
}

function factList(facts) {
  if (!facts || !facts.length) return null;
  return h(
    'dl',
    { class: 'facts' },
    facts.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
  );
}

/** One event as a heading, its words and its facts; null for an event of another kind. */
function entry(event, versions) {
  const d = event.data || {};
  const version = (n) => versions.get(n);
  const review = (n, reviewer) => version(n)?.reviews?.find((r) => r.reviewer === reviewer);
  switch (event.type) {
    case 'artifact.created':
      return {
        kind: 'version',
        title: `Created by ${d.author}: version 1`,
        words: `“${d.title}”`,
        facts: versionFacts(version(1)),
      };
    case 'version.submitted':
      return {
        kind: 'version',
        title: `Version ${d.version} submitted by ${d.author}`,
        words: `${VERSION_KINDS[d.kind] || d.kind}, in cycle ${d.cycle}; now ${stateWords(d.state)}.`,
        facts: versionFacts(version(d.version)),
      };
    case 'review.approved': {
      const more = d.required_approvals ? ` (${d.approvals} of ${d.required_approvals} approvals)` : '';
      return {
        kind: 'approve',
        title: `${d.reviewer} approved version ${d.version}${more}`,
        words: d.state === 'approved' ? 'Approved: the cycle ends and its lockouts are cleared.' : 'Still in review.',
        facts: reviewFacts(review(d.version, d.reviewer)),
      };
    }
    case 'review.rejected': {
      const facts = [['Reason', d.reason], ['Remedy', remedyWords(d.remedy)], ...reviewFacts(review(d.version, d.reviewer))];
      facts.push(['Locked out', listWords(d.lockouts || [])]);
      return {
        kind: d.deadlocked ? 'deadlock' : 'reject',
        title: `${d.reviewer} rejected version ${d.version}`,
        words: d.deadlocked
          ? 'Deadlocked: every agent who may write is locked out; escalated to the user.'
          : `Now ${stateWords(d.state)}; ${listWords(d.lockouts || [])} may not write the next version.`,
        facts,
      };
    }
    case 'assignment.created':
      return {
        kind: 'assign',
        title: `${d.agent} assigned to write the revision`,
        words: d.note ? `Note: ${d.note}` : `Now ${stateWords(d.state)}.`,
      };
    case 'assignment.released':
      return { kind: 'assign', title: `${d.agent}'s assignment released`, words: `Now ${stateWords(d.state)}.` };
    case 'escalation.resolved':
      return {
        kind: 'resolve',
        title: d.action === 'assign' ? `The user resolved the deadlock: ${d.agent} assigned` : 'The user abandoned the artifact',
        words: `Reason: ${d.reason}`,
      };
    case 'lockout.lifted':
      return { kind: 'lift', title: `The user lifted ${d.agent}'s lockout`, words: `Reason: ${d.reason}` };
    default:
      return null;
  }
}

/** The artifact's events, newest first, as an ordered list. */
export function timeline(events, versionList) {
  const versions = new Map(versionList.map((v) => [v.number, v]));
  const items = [];
  for (const event of events) {
    const e = entry(event, versions);
    if (!e) continue;
    items.push(
      h(
        'li',
        { class: `event event-${e.kind}`, dataset: { seq: event.seq, type: event.type } },
        h('p', { class: 'event-title' }, h('strong', {}, e.title)),
        h(
          'p',
          { class: 'event-when' },
          when(event.at),
          ' · ',
          ageOf(event.at, ' ago'),
          event.token?.name ? ` · by token ${event.token.name}` : '',
          ` · event ${event.seq}`,
        ),
        e.words ? h('p', {}, e.words) : null,
        factList(e.facts),
      ),
    );
  }
  if (!items.length) return h('p', {}, 'No event of this artifact yet.');
  return h('ol', { class: 'timeline', reversed: true }, items.reverse());
}
