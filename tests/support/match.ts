// The matching rules of ../shared/scenarios/README.md: a partial, structural match that
// says where it failed.

export function mismatch(expected: unknown, actual: unknown, path = "$"): string | null {
  if (expected === null || typeof expected !== "object") {
    return Object.is(expected, actual) ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const m = mismatch(expected[i], actual[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  const spec = expected as Record<string, unknown>;
  if ("$length" in spec) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${JSON.stringify(actual)}`;
    return actual.length === spec.$length ? null : `${path}: expected length ${spec.$length}, got ${actual.length}`;
  }
  if ("$contains" in spec) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${JSON.stringify(actual)}`;
    for (const wanted of spec.$contains as unknown[]) {
      if (!actual.some((item) => mismatch(wanted, item) === null)) {
        return `${path}: no item matches ${JSON.stringify(wanted)}`;
      }
    }
    return null;
  }
  if (actual === null || typeof actual !== "object") return `${path}: expected an object, got ${JSON.stringify(actual)}`;
  if ("errorCode" in spec) {
    const error = (actual as { error?: unknown }).error;
    if (typeof error !== "string" || error.length === 0) return `${path}: an error reply needs a non-empty \`error\``;
  }
  for (const key of Object.keys(spec)) {
    const m = mismatch(spec[key], (actual as Record<string, unknown>)[key], `${path}.${key}`);
    if (m) return m;
  }
  return null;
}
