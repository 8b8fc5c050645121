/**
 * A string a server chose, as adr-check keeps it: at most MAX_FINDING_TEXT characters, the cut
 * visible. Apart from findings.ts so that a worker that compares documents loads no Spectral.
 */
export const MAX_FINDING_TEXT = 1000;

/** Cut with a visible ellipsis and the original length (`length`, when `text` is already a prefix), never inside a surrogate pair. */
export function boundedText(text: string, max = MAX_FINDING_TEXT, length = text.length): string {
  if (length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${length.toLocaleString('en-US')} characters)`;
}

