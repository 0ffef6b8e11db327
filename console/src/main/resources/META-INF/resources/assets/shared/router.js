// Every view's address lives in the URL's #fragment (#/p/entity/project/calls?status=error), so a reload
// or a shared link opens the same view, and the server needs one page only. Path segments are
// URI-component encoded; routes decode what they capture.

export function currentRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const at = hash.indexOf('?');
  return at < 0 ? { path: hash, params: new URLSearchParams() }
    : { path: hash.slice(0, at), params: new URLSearchParams(hash.slice(at + 1)) };
}

/** '#/p/e/p/calls?x=1' from a path and parameters (empty values dropped). */
export function href(path, params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, value);
  }
  const text = query.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

/** Opens a view; its own address again renders it anew, as a filter form submitted unchanged must show fresh data. */
export function navigate(path, params) {
  const target = href(path, params);
  if (location.hash === target) refresh();
  else location.hash = target;
}

/** Renders the current view again (the address did not change, so no hashchange would). */
export function refresh() {
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** '/p/<entity>/<project>/<rest…>', each segment encoded. */
export function projectPath(entity, project, ...rest) {
  return ['', 'p', entity, project, ...rest].map(encodeURIComponent).join('/');
}

/** A call's address: its trace with the call selected. */
export function callHref(entity, project, traceId, callId) {
  return href(projectPath(entity, project, 'traces', traceId), { call: callId });
}
