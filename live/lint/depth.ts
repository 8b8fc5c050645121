/**
 * The shape of a parsed JSON value, without recursion (a hostile description may nest far beyond
 * the call stack): how deeply it nests and where its deepest point is, its widest object, and its
 * longest path (its keys joined with dots), each with where it is. Stops counting depth past
 * `limit`. Each entry keeps only its key and parent, so the walk allocates no path per node.
 */
interface Step { value: unknown; depth: number; key: string; parent: Step | undefined; pathLength: number }

export interface Shape {
  depth: number;
  path: string[];
  /** Members of the widest object. */
  members: number;
  membersPath: string[];
  /** Characters of the longest path, keys joined with dots. */
  pathLength: number;
  longestPath: string[];
}

export function shapeOf(root: unknown, limit: number): Shape {
  const stack: Step[] = [{ value: root, depth: 0, key: '', parent: undefined, pathLength: 0 }];
  let deepest: Step | undefined;
  let deepestDepth = 0;
  let widest: Step | undefined;
  let widestMembers = 0;
  let longest: { parent: Step | undefined; key: string; length: number } = { parent: undefined, key: '', length: 0 };
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    if (typeof step.value !== 'object' || step.value === null) continue;
    const level = step.depth + 1;
    if (level > deepestDepth) { deepestDepth = level; deepest = step; }
    if (level > limit) break;
    const children = Object.entries(step.value);
    if (!Array.isArray(step.value) && children.length > widestMembers) { widestMembers = children.length; widest = step; }
    for (const [key, child] of children) {
      const pathLength = step.pathLength + (step.parent === undefined ? 0 : 1) + key.length;
      if (pathLength > longest.length) longest = { parent: step, key, length: pathLength };
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: level, key, parent: step, pathLength });
    }
  }
  return {
    depth: deepestDepth,
    path: pathOf(deepest).slice(0, 12),
    members: widestMembers,
    membersPath: pathOf(widest).slice(0, 12),
    pathLength: longest.length,
    longestPath: [...pathOf(longest.parent), longest.key].slice(0, 12),
  };
}

function pathOf(step: Step | undefined): string[] {
  const keys: string[] = [];
  for (let current = step; current?.parent !== undefined; current = current.parent) keys.push(current.key);
  return keys.reverse();
}
