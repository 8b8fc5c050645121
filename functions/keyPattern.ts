import { isExtensionKey, ruleFunction } from '../lib/rule-function.js';
import type { RulesetFunctionContext } from '@stoplight/spectral-core';
import { isObject, valueAt, type JsonPath } from '../lib/json.js';
import { resolvedDocument } from '../lib/inventory.js';
import { isUnresolvedReference } from '../lib/openapi.js';
import { pascalCaseOf } from '../lib/words.js';

export interface KeyPatternOptions {
  /** Keys must match this pattern ... */
  match?: string;
  /** ... and must not match this one. */
  notMatch?: string;
  /** Message parts: `<subject> <problem>: <key>. <advice>.`; `{pascal}` in advice is the key rewritten in PascalCase. */
  subject: string;
  problem: string;
  advice: string;
  /** The advice when `advice` has `{pascal}` and the key has no PascalCase form that keeps all its letters and passes. */
  fallbackAdvice?: string;
  /** Judge `x-` keys too: in a map that holds no specification extensions (components.schemas) they are names like any other. */
  extensionKeys?: boolean;
  /**
   * Judge the keys of this member of the given node (`schemas` of `components`). For a rule that
   * reads the unresolved document: where the member, or the node itself, is a `$ref` to another
   * file, its keys are read from the resolved document and reported at that `$ref`.
   */
  member?: string;
}

interface JudgedMap {
  keys: string[];
  /** Where each key is reported: its own path, or the `$ref` that brings the map in. */
  pathOf: (key: string) => JsonPath;
  /** The `$ref` the keys come through, named in the message. */
  through?: string;
}

/** Judges the keys of a map (paths, schema names) by pattern, one finding per key. */
export default ruleFunction<KeyPatternOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['subject', 'problem', 'advice'],
      properties: {
        match: { type: 'string' },
        notMatch: { type: 'string' },
        subject: { type: 'string' },
        problem: { type: 'string' },
        advice: { type: 'string' },
        fallbackAdvice: { type: 'string' },
        extensionKeys: { type: 'boolean' },
        member: { type: 'string' },
      },
    },
  },
  (node, options, context) => {
    const map = judgedMap(node, options.member, context);
    if (map === undefined) return [];
    const match = options.match === undefined ? undefined : new RegExp(options.match);
    const notMatch = options.notMatch === undefined ? undefined : new RegExp(options.notMatch);
    const passes = (key: string) => (match === undefined || match.test(key)) && (notMatch === undefined || !notMatch.test(key));
    const shown = (key: string) => (map.through === undefined ? key : `${key} (in ${map.through})`);
    return map.keys
      .filter((key) => options.extensionKeys === true || !isExtensionKey(key))
      .filter((key) => !passes(key))
      .map((key) => ({ message: `${options.subject} ${options.problem}: ${shown(key)}. ${advice(key, options, passes)}.`, path: map.pathOf(key) }));
  },
);

function judgedMap(node: unknown, member: string | undefined, context: RulesetFunctionContext): JudgedMap | undefined {
  if (member === undefined) return isObject(node) && typeof node.$ref !== 'string' ? { keys: Object.keys(node), pathOf: (key) => [key] } : undefined;
  if (!isObject(node)) return undefined;
  const reference = typeof node.$ref === 'string' ? { value: node.$ref, path: ['$ref'] } : referenceOf(node[member], [member, '$ref']);
  if (reference === undefined) return isObject(node[member]) ? { keys: Object.keys(node[member]), pathOf: (key) => [member, key] } : undefined;
  const resolved = valueAt(resolvedDocument(context), [...context.path, member]);
  // A `$ref` that did not resolve is still a reference, not a map with a key `$ref`: /core/doc-openapi reports it.
  if (!isObject(resolved) || isUnresolvedReference(resolved)) return undefined;
  return { keys: Object.keys(resolved), pathOf: () => reference.path, through: reference.value };
}

function referenceOf(value: unknown, path: JsonPath): { value: string; path: JsonPath } | undefined {
  return isObject(value) && typeof value.$ref === 'string' ? { value: value.$ref, path } : undefined;
}

function advice(key: string, options: KeyPatternOptions, passes: (key: string) => boolean): string {
  if (!options.advice.includes('{pascal}')) return options.advice;
  const pascal = pascalCaseOf(key);
  if (pascal !== undefined && passes(pascal)) return options.advice.replace('{pascal}', pascal);
  return options.fallbackAdvice ?? options.advice.replace('{pascal}', pascal ?? key);
}
