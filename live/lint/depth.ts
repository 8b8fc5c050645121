/**
 * How deeply a parsed JSON value nests, and where its deepest point is, without recursion (a
 * hostile description may nest far beyond the call stack). Stops counting past `limit`. Each
 * entry keeps only its key and parent, so the walk allocates no path per node.
 */
interface Step { value: unknown; depth: number; key: string; parent: Step | undefined }

export function nestingDepth(root: unknown, limit: number): { depth: number; path: string[] } {
  const stack: Step[] = [{ value: root, depth: 0, key: '', parent: undefined }];
  let deepest: Step | undefined;
  let deepestDepth = 0;
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    if (typeof step.value !== 'object' || step.value === null) continue;
    const level = step.depth + 1;
    if (level > deepestDepth) { deepestDepth = level; deepest = step; }
    if (level > limit) break;
    for (const [key, child] of Object.entries(step.value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: level, key, parent: step });
    }
  }
  return { depth: deepestDepth, path: pathOf(deepest).slice(0, 12) };
}

function pathOf(step: Step | undefined): string[] {
  const keys: string[] = [];
  for (let current = step; current?.parent !== undefined; current = current.parent) keys.push(current.key);
  return keys.reverse();
}
