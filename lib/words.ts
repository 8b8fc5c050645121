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

/** `monument_detail` -> `MonumentDetail`; a suggestion, so digits that cannot lead are kept behind a letter. */
export function toPascalCase(name: string): string {
  const pascal = identifierWords(name).map(capitalize).join('');
  return /^[A-Z]/.test(pascal) ? pascal : `Schema${pascal}`;
}

/** `page_size` -> `pageSize`. */
export function toCamelCase(name: string): string {
  const [first = '', ...rest] = identifierWords(name);
  const camel = first + rest.map(capitalize).join('');
  return /^[a-z]/.test(camel) ? camel : `p${capitalize(camel)}`;
}
