// A trace's calls as a tree in depth-first order, each with its depth, for the list and the timeline.

export function traceTree(calls) {
  const byParent = new Map();
  const ids = new Set(calls.map((call) => call.id));
  for (const call of calls) {
    // A call whose parent is not in this trace (deleted, or not yet written) shows as a root.
    const parent = call.parent_id && ids.has(call.parent_id) ? call.parent_id : null;
    if (!byParent.has(parent)) byParent.set(parent, []);
    byParent.get(parent).push(call);
  }
  const ordered = [];
  const visit = (parent, depth) => {
    const children = (byParent.get(parent) ?? []).sort((a, b) => a.started_at.localeCompare(b.started_at));
    for (const call of children) {
      ordered.push({ call, depth });
      visit(call.id, depth + 1);
    }
  };
  visit(null, 0);
  return ordered;
}
