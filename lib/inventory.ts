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

/**
 * A scalar as written in the linted file (`1.10`), where the parsed value lost its spelling (the
 * number 1.1). Undefined when the path is not in the linted file or spans several lines.
 */
export function writtenScalar(context: RulesetFunctionContext, path: JsonPath): string | undefined {
  const document: object = context.document;
  const input = 'input' in document ? document.input : undefined;
  const range = context.document.getRangeForJsonPath(path, false);
  if (typeof input !== 'string' || range === undefined || range.start.line !== range.end.line) return undefined;
  const line = input.split('\n')[range.start.line];
  return line?.slice(range.start.character, range.end.character);
}
