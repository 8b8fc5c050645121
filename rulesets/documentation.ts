import { documentationUrl as pageOf } from '../lib/documentation-url.js';

export { PACKAGE_VERSION, ruleSlug } from '../lib/documentation-url.js';

/**
 * Each rule links to its page in the repository at the release tag of this version
 * (lib/documentation-url.ts), so a link always matches the rules that produced the finding and
 * renders on GitHub. A file:// link derived from import.meta.url would be nicer offline, but the
 * Spectral CLI evaluates bundled rulesets where import.meta is not available.
 */
export function documentationUrl(code: string): string {
  const url = pageOf(code);
  if (url === undefined) throw new Error(`Rule code is not one of nlgov-adr's: ${code}. Name it /<module>/<rule> or nlgov:<rule>.`);
  return url;
}
