/**
 * What the user gave as credentials, in every form a server may send it back in: as given, the
 * token without its scheme (`Bearer x` → `x`), Basic credentials decoded, and each of those
 * percent-encoded (URL, form) and JSON-escaped. Longest first, so a token inside a longer
 * secret does not leave the rest of the longer one readable.
 */
export function secretForms(values: string[]): string[] {
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
  const forms = new Set<string>();
  for (const base of bases) {
    forms.add(base);
    forms.add(encodeURIComponent(base));
    forms.add(encodeURIComponent(base).replace(/%20/g, '+'));
    forms.add(encodeURIComponent(base).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
    forms.add(JSON.stringify(base).slice(1, -1));
  }
  return [...forms].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

export const REDACTED = '[REDACTED]';

/** Every occurrence of every secret form replaced. */
export function redactText(text: string, forms: string[]): string {
  let redacted = text;
  for (const form of forms) if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED);
  return redacted;
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
 * Makes a server-supplied string safe for a terminal: control characters (C0, DEL, C1), and the
 * invisible ones that reorder or hide text (bidi overrides, line separators), become visible
 * escapes, so a body cannot move the cursor, print a fake line, set the title or the clipboard.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
