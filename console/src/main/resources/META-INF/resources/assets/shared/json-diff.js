// Where two JSON values differ, path by path.

/** Every path where two JSON values differ: [path, before, after], `undefined` where a side lacks it. */
export function jsonDifferences(before, after, path = '') {
  const isObject = (value) => value !== null && typeof value === 'object';
  if (!isObject(before) || !isObject(after) || Array.isArray(before) !== Array.isArray(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [[path || '(value)', before, after]];
  }
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => jsonDifferences(before[key], after[key], Array.isArray(before) ? `${path}[${key}]` : path ? `${path}.${key}` : key));
}
