// Building the page: elements made with text only (never HTML parsed from data), ages, and the
// words of the protocol as a person reads them.

/**
 * An element: `h('a', { href: '#x', class: 'k' }, 'text', child, [more])`. Attributes whose
 * value is null, undefined or false are left out; `on: { click: fn }` adds listeners.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'on') {
      for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Stable ids for form fields from any text (artifact keys hold `/` and `.`). */
export function idFor(...parts) {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)).join('--');
}

const UNITS = [
  [86400, 'd'],
  [3600, 'h'],
  [60, 'min'],
];

/** "2 d 3 h", "5 min", "40 s": how long ago `iso` was, in at most two units. */
export function age(iso, now = Date.now()) {
  let seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const parts = [];
  for (const [size, unit] of UNITS) {
    if (seconds >= size && parts.length < 2) {
      parts.push(`${Math.floor(seconds / size)} ${unit}`);
      seconds %= size;
    } else if (parts.length) break;
  }
  return parts.join(' ');
}

/** A `<time>` showing an age, kept current by `refreshAges`; the exact time on hover and to readers. */
export function ageOf(iso, suffix = '') {
  return h('time', { datetime: iso, title: exact(iso), dataset: { age: suffix } }, age(iso) + suffix);
}

/** A `<time>` showing the exact moment. */
export function when(iso) {
  return h('time', { datetime: iso }, exact(iso));
}

export function exact(iso) {
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Updates the text of every age on the page (not the rest: a form being typed into stays). */
export function refreshAges(root = document) {
  for (const t of root.querySelectorAll('time[data-age]')) {
    t.textContent = age(t.getAttribute('datetime')) + t.dataset.age;
  }
}

export const STATES = ['deadlocked', 'changes_requested', 'in_revision', 'in_review', 'approved', 'abandoned'];

const STATE_WORDS = {
  in_review: 'in review',
  changes_requested: 'changes requested',
  in_revision: 'in revision',
  approved: 'approved',
  deadlocked: 'deadlocked',
  abandoned: 'abandoned',
};

export function stateWords(state) {
  return STATE_WORDS[state] || state;
}

/** A state as a badge: its words, never its colour alone. */
export function stateBadge(state) {
  return h('span', { class: `state state-${state}` }, stateWords(state));
}

/** `a, b and c`. */
export function listWords(items, none = 'nobody') {
  const list = items.filter(Boolean);
  if (!list.length) return none;
  if (list.length === 1) return list[0];
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** The fragment route of a view. */
export function route(team, ...rest) {
  return `#/teams/${encodeURIComponent(team)}${rest.length ? '/' + rest.join('/') : ''}`;
}

export function artifactRoute(team, key) {
  return route(team, 'artifacts', encodeURIComponent(key));
}

export function remedyWords(remedy) {
  if (!remedy) return 'no remedy';
  if (remedy.action === 'reassign') return remedy.agent ? `reassign, to ${remedy.agent}` : 'reassign';
  const tags = (remedy.expertise || []).join(', ');
  return `escalate to an expert in ${tags}${remedy.agent ? ` (${remedy.agent})` : ''}`;
}
