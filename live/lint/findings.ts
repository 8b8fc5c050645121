import type { ISpectralDiagnostic } from '@stoplight/spectral-core';
import { toFinding, type Finding } from '../../lib/lint.js';
import { boundedText, MAX_FINDING_TEXT } from './bounded-text.js';

/**
 * Findings as the report keeps them: each string a server put there (a path key, a message that
 * quotes one, a document's URL) cut at MAX_FINDING_TEXT characters, and no more findings, nor
 * characters in them, than the report can carry. A path key of 200,000 characters in a thousand
 * findings would otherwise make a report of hundreds of MB, or none at all.
 */

/** A diagnostic as a finding: each segment of its path, the path, the message and the source bounded. */
export function boundedFinding(diagnostic: ISpectralDiagnostic): Finding {
  const finding = toFinding({ ...diagnostic, path: [] });
  return {
    ...finding,
    path: boundedPath(diagnostic.path.map(String)),
    message: boundedText(finding.message),
    ...(finding.source === undefined ? {} : { source: boundedText(finding.source) }),
  };
}

/** Characters of one path segment kept: a long key is cut on its own, so the path still shows where it leads. */
const MAX_SEGMENT = 200;

function boundedPath(segments: string[]): string {
  let joined = '';
  let length = 0;
  for (const [index, segment] of segments.entries()) {
    const piece = `${index === 0 ? '' : '.'}${boundedText(segment, MAX_SEGMENT)}`;
    length += piece.length;
    if (joined.length <= MAX_FINDING_TEXT) joined += piece.slice(0, MAX_FINDING_TEXT + 1);
  }
  return boundedText(joined, MAX_FINDING_TEXT, length);
}

/** The findings kept: at most `maxCount`, and of their strings at most `maxChars` characters together; the rest counted. */
export function keptFindings(findings: Finding[], maxCount: number, maxChars: number): { kept: Finding[]; omitted: number } {
  const kept: Finding[] = [];
  let chars = 0;
  for (const finding of findings) {
    chars += finding.code.length + finding.path.length + finding.message.length + (finding.source?.length ?? 0);
    if (kept.length >= maxCount || chars > maxChars) break;
    kept.push(finding);
  }
  return { kept, omitted: findings.length - kept.length };
}
