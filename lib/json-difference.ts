/**
 * The JSON pointer of the first place where two JSON values differ (in document order of `a`,
 * then members only `b` has), or undefined when they are equal. Iterative: a hostile document
 * may nest beyond the call stack.
 */
export function firstDifference(a: unknown, b: unknown): string | undefined {
  const stack: Array<{ a: unknown; b: unknown; pointer: string }> = [{ a, b, pointer: '' }];
  while (stack.length > 0) {
    const { a: left, b: right, pointer } = stack.pop() as { a: unknown; b: unknown; pointer: string };
    if (Object.is(left, right)) continue;
    if (!isContainer(left) || !isContainer(right) || Array.isArray(left) !== Array.isArray(right)) return pointer === '' ? '/' : pointer;
    const keys = [...Object.keys(left), ...Object.keys(right).filter((key) => !Object.prototype.hasOwnProperty.call(left, key))];
    // Reversed onto the stack, so the first key is compared first.
    for (const key of keys.reverse()) {
      stack.push({ a: (left as Record<string, unknown>)[key], b: (right as Record<string, unknown>)[key], pointer: `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
    }
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
