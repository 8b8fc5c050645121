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
    judge(input, options, context).map((result) => ({
      message: result.message,
      path: [...context.path, ...(result.path ?? [])],
    })),
  );
}
