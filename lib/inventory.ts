import type { RulesetFunctionContext } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';
import { asArray, isObject } from './json.js';

/**
 * Spectral passes a DocumentInventory but declares only a narrow interface for it; the resolved
 * document and the resolver's errors are read defensively from the instance.
 */
function inventoryField(context: RulesetFunctionContext, field: 'resolved' | 'errors'): unknown {
  const inventory: object = context.documentInventory;
  return field in inventory ? (inventory as Record<typeof field, unknown>)[field] : undefined;
}

/** The resolved document, whatever node the rule was given. */
export function resolvedDocument(context: RulesetFunctionContext): unknown {
  return inventoryField(context, 'resolved');
}

/** The `$ref`s the resolver could not follow, each with the path where it stands. */
export function resolverErrors(context: RulesetFunctionContext): Array<{ path: JsonPath; message: string }> {
  return asArray(inventoryField(context, 'errors')).filter(
    (error): error is { path: JsonPath; message: string } => isObject(error) && Array.isArray(error.path) && typeof error.message === 'string',
  );
}
