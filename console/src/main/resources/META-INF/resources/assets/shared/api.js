// The platform's public APIs on this origin (the console routes each prefix to its service), called with
// the signed-in key as a Bearer token.
import { session } from './session.js';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function send(path, body, method = body === undefined ? 'GET' : 'POST', contentType = 'application/json') {
  const headers = { Authorization: `Bearer ${session.key()}` };
  if (body !== undefined) headers['Content-Type'] = contentType;
  let response;
  try {
    response = await fetch(path, { method, headers,
      body: body === undefined ? undefined : contentType === 'application/json' ? JSON.stringify(body) : body });
  } catch (error) {
    throw new ApiError(0, `The console could not be reached (${error.message}).`);
  }
  if (!response.ok) {
    const text = await response.text();
    let message = text || response.statusText;
    try {
      const parsed = JSON.parse(text);
      message = parsed.reason ?? parsed.error?.message ?? (typeof parsed.detail === 'string' ? parsed.detail
        : Array.isArray(parsed.detail) ? parsed.detail.map((issue) => `${(issue.loc ?? []).join('.')}: ${issue.msg}`).join('; ')
          : JSON.stringify(parsed.detail ?? parsed));
    } catch (notJson) { /* the raw text is the message */ }
    if (response.status === 401) {
      window.dispatchEvent(new CustomEvent('console:unauthorized'));
    }
    throw new ApiError(response.status, `${response.status}: ${message}`);
  }
  return response;
}

/** The body as JSON; null for an empty one (201 or 202 without a body, 204). */
async function json(response) {
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export const api = {
  get: async (path) => (await send(path)).json(),
  post: async (path, body) => json(await send(path, body, 'POST')),
  put: async (path, body) => json(await send(path, body, 'PUT')),
  delete: async (path) => json(await send(path, undefined, 'DELETE')),
  /** A body sent as it is (a file's text), answered with JSON. */
  upload: async (path, text, contentType) => json(await send(path, text, 'POST', contentType)),
  /** A JSON Lines endpoint's objects. */
  lines: async (path, body) => (await (await send(path, body)).text()).split('\n').filter((line) => line.trim())
    .map((line) => JSON.parse(line)),
  /** A JSON Lines endpoint's objects one by one, as they arrive. */
  streamLines: async function* streamLines(path, body) {
    const reader = (await send(path, body)).body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) if (line.trim()) yield JSON.parse(line);
    }
    if (pending.trim()) yield JSON.parse(pending);
  },
};

/** Weave refs of this project's objects: weave:///entity/project/object|op/name:digest */
export function parseRef(value) {
  if (typeof value !== 'string') return null;
  const match = /^weave:\/\/\/([^/]+)\/([^/]+)\/(object|op|table|call)\/([^:/]+)(?::([^/]+))?(\/.*)?$/.exec(value);
  return match && { entity: match[1], project: match[2], kind: match[3], name: match[4], digest: match[5] };
}

/** The short name of an op ref, or the op name as it is. */
export function opShortName(opName) {
  const ref = parseRef(opName);
  return ref && ref.kind === 'op' ? ref.name : opName;
}
