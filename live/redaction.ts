/**
 * What the user gave as credentials, in every form a server may trivially send it back in: as
 * given, the token without its scheme (`Bearer x` → `x`), Basic credentials decoded; and each of
 * those percent-encoded (URL, form, and every character), JSON-escaped (as needed, and every
 * character as \uXXXX), and in base64 and base64url with and without padding, also where it sits
 * at any offset inside a longer base64 text. Longest first, so a token inside a longer secret does
 * not leave the rest of the longer one readable.
 */
export function secretForms(values: string[]): string[] {
  const forms = new Set<string>();
  for (const base of secretBases(values)) for (const form of encodingsOf(base)) forms.add(form);
  return [...forms].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

function secretBases(values: string[]): Set<string> {
  const bases = new Set<string>();
  for (const value of values) {
    const trimmed = value.trim();
    if (trimmed === '') continue;
    bases.add(trimmed);
    const [scheme, ...rest] = trimmed.split(/\s+/);
    const credential = rest.join(' ');
    if (credential !== '') bases.add(credential);
    if (scheme?.toLowerCase() === 'basic' && credential !== '') {
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      if (decoded !== '') {
        bases.add(decoded);
        const password = decoded.slice(decoded.indexOf(':') + 1);
        if (decoded.includes(':') && password !== '') bases.add(password);
      }
    }
  }
  return bases;
}

/** A base64 fragment shorter than this is too likely to occur by chance in other text. */
const MIN_BASE64_CORE = 8;

function encodingsOf(base: string): string[] {
  const bytes = Buffer.from(base, 'utf8');
  const percent = encodeURIComponent(base);
  const base64 = bytes.toString('base64');
  const base64url = bytes.toString('base64url');
  return [
    base,
    percent,
    percent.replace(/%20/g, '+'),
    percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    // Matched regardless of case (fold): one form covers %4A and %4a.
    [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    encodeURI(base),
    JSON.stringify(base).slice(1, -1),
    // PHP's json_encode and others escape the slash too.
    JSON.stringify(base).slice(1, -1).replace(/\//g, '\\/'),
    [...base].map((character) => [...Array(character.length).keys()].map((index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`).join('')).join(''),
    // Hex of the bytes (case is folded when matched), and the value reversed: as trivial as base64.
    bytes.toString('hex'),
    [...base].reverse().join(''),
    // An error page that echoes the value HTML-escaped, as templates do, or as character references.
    htmlEscaped(base, '&#39;'),
    htmlEscaped(base, '&#x27;'),
    [...base].map((character) => `&#${character.codePointAt(0) ?? 0};`).join(''),
    [...base].map((character) => `&#x${(character.codePointAt(0) ?? 0).toString(16)};`).join(''),
    base64,
    base64.replace(/=+$/, ''),
    base64url,
    ...base64Cores(bytes, 'base64'),
    ...base64Cores(bytes, 'base64url'),
  ];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function htmlEscaped(text: string, apostrophe: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? apostrophe);
}

/**
 * The characters of a base64 text that depend on the secret's bytes alone, for the secret at each
 * of the three offsets it can have inside a longer encoded text (`{"token":"…"}` in base64).
 */
function base64Cores(bytes: Buffer, encoding: 'base64' | 'base64url'): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding).replace(/=+$/, '');
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length >= MIN_BASE64_CORE) cores.push(core);
  }
  return cores;
}

export const REDACTED = '[REDACTED]';

/**
 * Text compared with secrets case-insensitively (ASCII letters only, so that every position stays
 * where it was): a server that upper-cases an echo, or writes hex digits in the other case, still
 * gives the secret back. Over-redacting a text that equals a secret but for case costs nothing.
 */
function fold(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * How long a piece of a form must be to be redacted on its own, wherever it is: 12 characters of a
 * secret, whatever cut it (a check that quotes 40 characters of a value, a body cut at 8 KB),
 * give too much away, and 12 characters of a random token do not occur by chance. In the forms
 * that spend 3 or 6 characters on each of the secret's, the piece is as long in those.
 */
function fragmentLength(form: string): number {
  if (/^(%[0-9a-f]{2})+$/.test(form)) return 24;
  if (/^(\\u[0-9a-f]{4})+$/.test(form)) return 48;
  return 12;
}

/** Pieces are found by their 8-character parts, looked up every (fragment length - 7) characters: a piece of a fragment's length contains one. */
const PART = 8;

const MAX_PLACES = 16;

interface FragmentIndex {
  length: number;
  /** Every part of PART characters of the forms (none across whitespace), with where it is in which form. */
  parts: Map<string, Array<{ form: string; at: number }>>;
}

interface SecretIndex {
  forms: string[];
  fragments: FragmentIndex[];
}

const indexes = new WeakMap<string[], SecretIndex>();

function indexOf(forms: string[]): SecretIndex {
  const known = indexes.get(forms);
  if (known !== undefined) return known;
  const folded = [...new Set(forms.map(fold))].filter((form) => form !== '');
  const byLength = new Map<number, FragmentIndex>();
  for (const form of folded) {
    const length = fragmentLength(form);
    if (form.length <= length) continue;
    const index = byLength.get(length) ?? { length, parts: new Map() };
    byLength.set(length, index);
    for (let at = 0; at + PART <= form.length; at += 1) {
      const part = form.slice(at, at + PART);
      // A piece across `Bearer x`'s space would take the scheme's end with it; the credential alone is a form too.
      if (/\s/.test(part)) continue;
      const places = index.parts.get(part) ?? [];
      // A secret that repeats itself (`aaaa…`) has the same part everywhere: a few places find its pieces.
      if (places.length < MAX_PLACES) places.push({ form, at });
      index.parts.set(part, places);
    }
  }
  const index = { forms: folded, fragments: [...byLength.values()] };
  indexes.set(forms, index);
  return index;
}

const isSpace = (character: string | undefined) => character !== undefined && /\s/.test(character);

/** The text around `position` that agrees with `form` around `at`, never across whitespace, as [start, end). */
function agreement(folded: string, position: number, form: string, at: number): [number, number] {
  let before = 0;
  while (position - before > 0 && at - before > 0 && folded[position - before - 1] === form[at - before - 1] && !isSpace(form[at - before - 1])) before += 1;
  let after = PART;
  while (position + after < folded.length && at + after < form.length && folded[position + after] === form[at + after] && !isSpace(form[at + after])) after += 1;
  return [position - before, position + after];
}

/** Where the text holds a whole form, or a piece of one at least fragmentLength long, as [start, end) ranges. */
function secretRanges(folded: string, index: SecretIndex): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const form of index.forms) {
    for (let at = folded.indexOf(form); at !== -1; at = folded.indexOf(form, at + form.length)) ranges.push([at, at + form.length]);
  }
  for (const { length, parts } of index.fragments) {
    let covered = 0;
    for (let position = 0; position + PART <= folded.length; position += length - PART + 1) {
      if (position + PART <= covered) continue;
      for (const { form, at } of parts.get(folded.slice(position, position + PART)) ?? []) {
        const [start, end] = agreement(folded, position, form, at);
        if (end - start < length) continue;
        ranges.push([start, end]);
        covered = Math.max(covered, end);
      }
    }
  }
  return merged(ranges);
}

/** Overlapping and touching ranges as one, in order: one [REDACTED] for a secret found twice over. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  for (const [start, end] of ranges.sort((a, b) => a[0] - b[0])) {
    const last = result[result.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else result.push([start, end]);
  }
  return result;
}

/** Every occurrence of every secret form replaced, and every piece of one long enough to give it away. */
export function redactText(text: string, forms: string[]): string {
  if (forms.length === 0 || text === '') return text;
  const ranges = secretRanges(fold(text), indexOf(forms));
  if (ranges.length === 0) return text;
  let redacted = '';
  let kept = 0;
  for (const [start, end] of ranges) {
    redacted += `${text.slice(kept, start)}${REDACTED}`;
    kept = end;
  }
  return `${redacted}${text.slice(kept)}`;
}

/** A tail shorter than this that begins a secret form gives nothing away and is kept. */
const MIN_SECRET_TAIL = 4;

/**
 * The length of the longest end of `text` that is the start of `form` (KMP over the text's last
 * characters): what is left of a secret where a text was cut in the middle of it.
 */
function secretTailLength(text: string, form: string): number {
  const pattern = fold(form);
  if (pattern.length < 2) return 0;
  const tail = fold(text.slice(-(pattern.length - 1)));
  const failure = [0];
  for (let index = 1, matched = 0; index < pattern.length; index += 1) {
    while (matched > 0 && pattern[index] !== pattern[matched]) matched = failure[matched - 1] ?? 0;
    if (pattern[index] === pattern[matched]) matched += 1;
    failure[index] = matched;
  }
  let matched = 0;
  for (let index = 0; index < tail.length; index += 1) {
    const unit = tail[index];
    while (matched > 0 && (matched === pattern.length || unit !== pattern[matched])) matched = failure[matched - 1] ?? 0;
    if (unit === pattern[matched]) matched += 1;
  }
  return matched;
}

/** A text that was cut: an end that starts a secret form is redacted too. */
export function redactCutTail(text: string, forms: string[]): string {
  const longest = Math.max(0, ...forms.map((form) => secretTailLength(text, form)));
  return longest >= MIN_SECRET_TAIL ? `${text.slice(0, text.length - longest)}${REDACTED}` : text;
}

/**
 * A string from the server as a report may hold it: redacted first, then cut to `max` characters,
 * so that no cut leaves part of a secret readable. The raw text is cut first, with room for the
 * longest form, so that a huge string costs no more than a short one. `excerpt`: the text is
 * already the start of something longer (a body), so its end is treated as a cut and the cut is
 * not announced; otherwise the cut says how long the text was.
 */
export function redactAndCut(text: string, max: number, forms: string[], excerpt = false): string {
  const room = max + (forms[0]?.length ?? 0);
  const raw = text.length > room ? text.slice(0, room) : text;
  const redacted = redactText(raw, forms);
  if (raw === text && redacted.length <= max) return excerpt ? redactCutTail(redacted, forms) : redacted;
  const kept = redactCutTail(redacted.slice(0, max), forms);
  return excerpt ? kept : `${kept}… (cut at ${max} of ${text.length} characters)`;
}

/** A copy of a JSON-like value with `change` applied to every string in it, keys included. */
export function mapStrings<T>(value: T, change: (text: string) => string): T {
  if (typeof value === 'string') return change(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, change)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [change(key), mapStrings(item, change)])) as T;
  }
  return value;
}

/**
 * The characters that are invisible or act on what is around them: control characters (C0, DEL,
 * C1), the ones that reorder or hide text (bidi controls and isolates, zero-width characters,
 * line and paragraph separators, the byte order mark, the soft hyphen, fillers, variation
 * selectors and tag characters, which split a token invisibly), the noncharacters U+FFFE and U+FFFF, and
 * lone surrogates (no character at all: XML cannot hold them, UTF-8 cannot encode them).
 */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\ufffe\uffff]|\udb40[\udc00-\udc7f\udd00-\uddef]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `\x1b`, `\u202e`, `\u{e0041}`: a character as a visible escape. */
function visibleEscape(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Makes a server-supplied string safe for a terminal and for XML: the unsafe characters become
 * visible escapes, so a body cannot move the cursor, print a fake line, set the title or the
 * clipboard, reorder what is read, or make a JUnit report ill-formed.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, visibleEscape);
}

/**
 * The unsafe characters JSON.stringify leaves as they are: it escapes C0 controls and lone
 * surrogates itself, and C0 is its own layout (newlines, indentation) outside strings.
 */
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\ufffe\uffff]|\udb40[\udc00-\udc7f\udd00-\uddef]/g;

/**
 * JSON text in which the unsafe characters JSON.stringify leaves as they are (DEL, C1, bidi,
 * U+2028/2029, noncharacters) are \u escapes: the same string for a JSON reader, inert on a
 * terminal or in a viewer. Outside strings, JSON text is ASCII, so every match is inside one.
 */
export function jsonText(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNESCAPED_BY_JSON, (character) => [...Array(character.length).keys()].map((index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`).join(''));
}
