import { createRulesetFunction, type IFunctionResult, type RulesetFunctionContext } from '@stoplight/spectral-core';

type SchemaSpec = Parameters<typeof createRulesetFunction>[0];
export type RelativeResult = IFunctionResult;
type Judge<O> = (input: unknown, options: O, context: RulesetFunctionContext) => RelativeResult[];

/**
 * Spectral expects absolute result paths; our functions speak relative to the node they judge
 * (simpler to read and to test), so the path of the given node is prefixed here, once.
 */
export function ruleFunction<O>(schemas: SchemaSpec, judge: Judge<O>) {
  return createRulesetFunction<unknown, O>(schemas, (input, options, context) =>
    isUnderExtension(context.path) ? [] : judge(input, options, context).map((result) => ({
      message: result.message,
      path: [...context.path, ...(result.path ?? [])],
    })),
  );
}

/** `paths` may hold `x-` extensions beside the paths; what is under them is no path item. */
function isUnderExtension(path: ReadonlyArray<string | number>): boolean {
  return path[0] === 'paths' && isExtensionKey(path[1]);
}

export function isExtensionKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('x-');
}
