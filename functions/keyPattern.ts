import { isExtensionKey, ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';

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

/** Letters that do not decompose into an ASCII letter and a mark. */
const SPELLED_OUT: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'TH', ı: 'i',
};

/**
 * The name rewritten in PascalCase without losing a letter: accents are taken off (`Café` ->
 * `Cafe`), separators drop out and the word after each is capitalised (`monument_detail` ->
 * `MonumentDetail`), and the rest keeps its case, so capital runs stay (`monumentDTO` ->
 * `MonumentDTO`), except in a name written all in capitals (`MONUMENT-LIJST` -> `MonumentLijst`).
 * A name that starts with a digit gets `Schema` in front. Undefined when a letter has no ASCII
 * form (`Straße` has: `Strasse`; `Здание` has not).
 */
export function pascalCaseOf(name: string): string | undefined {
  const ascii = name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\x00-\x7F]/g, (letter) => SPELLED_OUT[letter] ?? letter);
  if (/[^\x00-\x7F]/.test(ascii.replace(/[^\p{L}\p{N}]/gu, ''))) return undefined;
  const shouting = !/[a-z]/.test(ascii);
  const words = ascii.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
  const pascal = words.map((word) => (shouting ? word.toLowerCase() : word)).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  if (pascal === '') return undefined;
  return /^[A-Z]/.test(pascal) ? pascal : `Schema${pascal}`;
}
