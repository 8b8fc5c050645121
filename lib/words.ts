/** Splits an identifier (camelCase, snake_case, kebab-case, dotted) into lowercase words. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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

/** `page_size` -> `pageSize`. */
export function toCamelCase(name: string): string {
  const [first = '', ...rest] = identifierWords(name);
  const camel = first + rest.map(capitalize).join('');
  return /^[a-z]/.test(camel) ? camel : `p${capitalize(camel)}`;
}
