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

export function navigate(path, params) {
  location.hash = href(path, params);
}

/** '/p/<entity>/<project>/<rest…>', each segment encoded. */
export function projectPath(entity, project, ...rest) {
  return ['', 'p', entity, project, ...rest].map(encodeURIComponent).join('/');
}
