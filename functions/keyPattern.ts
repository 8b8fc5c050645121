import { isExtensionKey, ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { toPascalCase } from '../lib/words.js';

export interface KeyPatternOptions {
  /** Keys must match this pattern ... */
  match?: string;
  /** ... and must not match this one. */
  notMatch?: string;
  /** Message parts: `<subject> <problem>: <key>. <advice>.`; `{pascal}` in advice is the key in PascalCase. */
  subject: string;
  problem: string;
  advice: string;
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
      },
    },
  },
  (map, options) => {
    if (!isObject(map)) return [];
    const match = options.match === undefined ? undefined : new RegExp(options.match);
    const notMatch = options.notMatch === undefined ? undefined : new RegExp(options.notMatch);
    return Object.keys(map)
      .filter((key) => !isExtensionKey(key))
      .filter((key) => (match !== undefined && !match.test(key)) || (notMatch !== undefined && notMatch.test(key)))
      .map((key) => ({ message: `${options.subject} ${options.problem}: ${key}. ${options.advice.replace('{pascal}', toPascalCase(key))}.`, path: [key] }));
  },
);
