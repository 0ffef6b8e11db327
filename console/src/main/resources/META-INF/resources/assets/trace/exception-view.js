// A call's exception as the client sent it, whole and preformatted. The Weave Python SDK sends a JSON string
// {type, message, traceback: [{filename, line_number, function_name, text}]}; the TypeScript SDK and others send
// plain text (a message, or a message with its stack). JSON is laid out as a Python traceback, with any other keys
// after it; anything else is shown as it came.
import { h } from '../shared/dom.js';

function parsed(text) {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) && ('type' in value || 'message' in value) ? value : null;
  } catch (notJson) {
    return null;
  }
}

function frameLines(frame) {
  if (!frame || typeof frame !== 'object') return [`  ${String(frame)}`];
  const lines = [`  File "${frame.filename ?? '?'}", line ${frame.line_number ?? '?'}, in ${frame.function_name ?? '?'}`];
  if (frame.text) lines.push(`    ${frame.text}`);
  return lines;
}

function tracebackText(traceback) {
  if (Array.isArray(traceback)) return ['Traceback (most recent call last):', ...traceback.flatMap(frameLines)].join('\n');
  return typeof traceback === 'string' ? traceback : JSON.stringify(traceback, null, 2);
}

/** An exception's one line: the Python SDK's JSON as "type: message", anything else as it came. */
export function exceptionHeadline(exception) {
  const text = typeof exception === 'string' ? exception : JSON.stringify(exception);
  const value = parsed(text);
  return value ? [value.type, value.message].filter((part) => part !== undefined && part !== null && part !== '').join(': ') : text;
}

export function exceptionView(exception) {
  const text = typeof exception === 'string' ? exception : JSON.stringify(exception, null, 2);
  const value = parsed(text);
  if (!value) return h('pre', { class: 'exception' }, text);
  const { type, message, traceback, ...rest } = value;
  const headline = [type, message].filter((part) => part !== undefined && part !== null && part !== '').join(': ');
  return h('pre', { class: 'exception' },
    traceback !== undefined && traceback !== null ? [tracebackText(traceback), '\n'] : null,
    h('strong', {}, headline),
    Object.keys(rest).length ? `\n${JSON.stringify(rest, null, 2)}` : null);
}
