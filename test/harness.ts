import { join } from 'node:path';
import ruleset from '../ruleset.js';
import { createLinter, lintText, type Finding } from '../lib/lint.js';

export type { Finding };

const spectral = createLinter(ruleset);
export const FIXTURES = join(process.cwd(), 'test', 'fixtures');

/**
 * Lints a document with the whole published ruleset. A JS object is linted as JSON at a path
 * inside test/fixtures, so relative `$ref`s to files there resolve.
 */
export async function lint(document: object | string, source = join(FIXTURES, 'inline.json')): Promise<Finding[]> {
  const text = typeof document === 'string' ? document : JSON.stringify(document, null, 2);
  return lintText(spectral, text, source);
}

export async function findingsOf(code: string, document: object | string, source?: string): Promise<Finding[]> {
  return (await lint(document, source)).filter((finding) => finding.code === code);
}

/** Compact form for exact assertions: severity, path and message. */
export function summary(findings: Finding[]): Array<[string, string, string]> {
  return findings.map((finding) => [finding.severity, finding.path, finding.message]);
}
