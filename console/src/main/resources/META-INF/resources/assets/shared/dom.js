// Building DOM from data: text always goes in as text (never as HTML), so values from the APIs cannot inject markup.

/** h('a', {href: '#/', class: 'x', onclick: fn}, 'text', child, [more]) */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** A line saying what is happening: loading, empty or an error (role=status, or role=alert for errors). */
export function state(text, kind = 'info') {
  return h('p', { class: `state state-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/**
 * An instant (ms or an ISO string) as the value of a datetime-local input, in this browser's time zone: minutes, and
 * its seconds when `seconds` is asked and they are not zero; null for no valid instant.
 */
export function datetimeLocal(instant, { seconds = false } = {}) {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return null;
  const pad = (number) => String(number).padStart(2, '0');
  const tail = seconds && date.getSeconds() ? `:${pad(date.getSeconds())}` : '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}${tail}`;
}

export function formatTime(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatLatency(ms) {
  if (ms === undefined || ms === null) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(2)} s`;
  return `${(ms / 60000).toFixed(1)} min`;
}

export function formatNumber(value) {
  return value === undefined || value === null ? '' : Number(value).toLocaleString();
}

export function formatCost(usd) {
  if (!usd) return '';
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(2)}`;
}
