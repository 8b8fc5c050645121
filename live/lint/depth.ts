/**
 * How deeply a parsed JSON value nests, and where its deepest point is, without recursion (a
 * hostile description may nest far beyond the call stack). Stops counting past `limit`.
 */
export function nestingDepth(root: unknown, limit: number): { depth: number; path: string[] } {
  const stack: Array<{ value: unknown; depth: number; path: string[] }> = [{ value: root, depth: 0, path: [] }];
  let deepest = { depth: 0, path: [] as string[] };
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: string[] };
    if (typeof value !== 'object' || value === null) continue;
    const level = depth + 1;
    if (level > deepest.depth) deepest = { depth: level, path };
    if (level > limit) return deepest;
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: level, path: path.length < 12 ? [...path, key] : path });
    }
  }
  return deepest;
}
