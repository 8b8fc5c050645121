import { isExtensionKey, ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
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
      },
    },
  },
  (map, options) => {
    // A map that is itself a `$ref` (seen when the rule lints the unresolved document) has its keys in another file.
    if (!isObject(map) || typeof map.$ref === 'string') return [];
    const match = options.match === undefined ? undefined : new RegExp(options.match);
    const notMatch = options.notMatch === undefined ? undefined : new RegExp(options.notMatch);
    const passes = (key: string) => (match === undefined || match.test(key)) && (notMatch === undefined || !notMatch.test(key));
    return Object.keys(map)
      .filter((key) => options.extensionKeys === true || !isExtensionKey(key))
      .filter((key) => !passes(key))
      .map((key) => ({ message: `${options.subject} ${options.problem}: ${key}. ${advice(key, options, passes)}.`, path: [key] }));
  },
);

function advice(key: string, options: KeyPatternOptions, passes: (key: string) => boolean): string {
  if (!options.advice.includes('{pascal}')) return options.advice;
  const pascal = pascalCaseOf(key);
  if (pascal !== undefined && passes(pascal)) return options.advice.replace('{pascal}', pascal);
  return options.fallbackAdvice ?? options.advice.replace('{pascal}', pascal ?? key);
}
