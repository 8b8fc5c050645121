/** Kept equal to package.json's version by test/meta.test.ts. */
export const PACKAGE_VERSION = '0.1.0';

/** `/core/transport/tls` -> `core-transport-tls`, `nlgov:global-search` -> `nlgov-global-search`. */
export function ruleSlug(code: string): string {
  return code.replace(/^\//, '').replace(/[/:]/g, '-');
}

/**
 * Each rule links to its page in the published package of the same version (docs/ ships with
 * it), so a link always matches the rules that produced the finding. A file:// link derived from
 * import.meta.url would be nicer offline, but the Spectral CLI evaluates bundled rulesets where
 * import.meta is not available.
 */
export function documentationUrl(code: string): string {
  return `https://unpkg.com/nlgov-adr@${PACKAGE_VERSION}/docs/rules/${ruleSlug(code)}.md`;
}
