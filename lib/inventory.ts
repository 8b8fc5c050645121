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

/** A `$ref` the resolver could not follow: where it stands (`path` ends in `$ref`), in which file, and why. */
export interface ResolverError {
  path: JsonPath;
  message: string;
  /** The file the `$ref` is written in, as Spectral names it; absent for a document without a source. */
  source?: string;
}

/**
 * The `$ref`s the resolver could not follow. Spectral keeps one per distinct message: the first
 * place that failed that way.
 */
export function resolverErrors(context: RulesetFunctionContext): ResolverError[] {
  return asArray(inventoryField(context, 'errors')).flatMap((error): ResolverError[] => {
    if (!isObject(error) || !Array.isArray(error.path) || typeof error.message !== 'string') return [];
    return [{ path: error.path as JsonPath, message: error.message, ...(typeof error.source === 'string' ? { source: error.source } : {}) }];
  });
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
