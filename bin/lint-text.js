// The text output of nlgov-adr-lint, in place of Spectral's `stylish`: stylish puts position,
// severity, code, message and path on one line (hundreds of characters, wrapped by every
// terminal); here the message has lines of its own, wrapped to the width, as ESLint's and
// Spectral's `pretty` output do. Rendered from Spectral's `json` format; paths printed as stylish
// prints them (Spectral's printPath: paths./pets.get.parameters[0].name).
import { createRequire } from 'node:module';

// The Spectral CLI's own copy, which it depends on: the same paths as its formats print.
const fromSpectralCli = createRequire(createRequire(import.meta.url).resolve('@stoplight/spectral-cli'));
const { printPath, PrintStyle } = fromSpectralCli('@stoplight/spectral-runtime');

const SEVERITIES = [
  { name: 'error', plural: 'errors', colour: 31 },
  { name: 'warning', plural: 'warnings', colour: 33 },
  { name: 'information', plural: 'infos', colour: 34 },
  { name: 'hint', plural: 'hints', colour: 37 },
];
/** Narrower than this, the message starts at a small indent instead of under the severity. */
const MIN_MESSAGE_WIDTH = 30;
export const DEFAULT_WIDTH = 100;

/**
 * Whether to colour what goes to `stream`: never with NO_COLOR (https://no-color.org), FORCE_COLOR=0
 * or TERM=dumb; always with another FORCE_COLOR; else only on a terminal.
 */
export function colourWanted(stream, environment) {
  if ((environment.NO_COLOR ?? '') !== '') return false;
  if (environment.FORCE_COLOR !== undefined) return !['0', 'false'].includes(environment.FORCE_COLOR);
  if (environment.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** The terminal's width, or DEFAULT_WIDTH when `stream` is no terminal. */
export function widthOf(stream) {
  return stream.isTTY === true && Number.isInteger(stream.columns) && stream.columns > 0 ? stream.columns : DEFAULT_WIDTH;
}

/** Control characters of a description's text shown, never sent to the terminal as they are. */
function printable(text) {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` in lines of at most `width` characters, broken between words (a longer word is cut). */
export function wrap(text, width) {
  const lines = [];
  for (const paragraph of String(text).split('\n')) {
    let line = '';
    for (let word of printable(paragraph).split(/ +/).filter((part) => part !== '')) {
      while (word.length > width) {
        if (line !== '') lines.push(line);
        line = '';
        lines.push(word.slice(0, width));
        word = word.slice(width);
      }
      if (word === '') continue;
      if (line === '') line = word;
      else if (line.length + 1 + word.length <= width) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

function styler(colour) {
  const style = (codes, text) => (colour ? `\u001b[${codes}m${text}\u001b[0m` : text);
  return {
    underline: (text) => style(4, text),
    dim: (text) => style(2, text),
    severity: (severity, text) => style(SEVERITIES[severity]?.colour ?? 37, text),
    summary: (severity, text) => style(`${SEVERITIES[severity]?.colour ?? 37};1`, text),
  };
}

function plural(count, word, words = `${word}s`) {
  return `${count} ${count === 1 ? word : words}`;
}

/** Spectral's summary line, word for word: `✖ 3 problems (1 error, 2 warnings, 0 infos, 0 hints)`. */
export function summaryOf(results) {
  const counts = SEVERITIES.map((_, severity) => results.filter((result) => result.severity === severity).length);
  const parts = SEVERITIES.map((severity, index) => plural(counts[index], severity.plural.replace(/s$/, ''), severity.plural));
  return `✖ ${plural(results.length, 'problem')} (${parts.join(', ')})`;
}

function severityName(result) {
  return SEVERITIES[result.severity]?.name ?? String(result.severity);
}

function position(result) {
  return result.range === undefined ? '' : `${result.range.start.line + 1}:${result.range.start.character + 1}`;
}

/**
 * Spectral's json results as text lines no wider than `width`: per file its name, per finding a
 * line with position, severity, rule and path, then the message (and documentation URL) wrapped
 * beneath it; Spectral's summary line last. Nothing when there are no results, as stylish.
 */
export function renderText(results, { width = DEFAULT_WIDTH, colour = false } = {}) {
  if (results.length === 0) return '';
  const style = styler(colour);
  const bySource = new Map();
  for (const result of results) {
    const source = result.source ?? '<unknown>';
    bySource.set(source, [...(bySource.get(source) ?? []), result]);
  }
  const lines = [''];
  for (const [source, findings] of bySource) {
    lines.push(...wrap(source, width).map(style.underline));
    const positionWidth = Math.max(...findings.map((finding) => position(finding).length));
    const severityWidth = Math.max(...findings.map((finding) => severityName(finding).length));
    const underSeverity = 2 + positionWidth + 2;
    const indent = width - underSeverity >= MIN_MESSAGE_WIDTH ? underSeverity : 4;
    for (const finding of findings) {
      const head = `  ${position(finding).padStart(positionWidth)}  ${severityName(finding).padEnd(severityWidth)}  ${printable(finding.code ?? '')}`;
      const path = printable(printPath(finding.path ?? [], PrintStyle.Dot));
      const styledHead = `  ${style.dim(position(finding).padStart(positionWidth))}  ${style.severity(finding.severity, severityName(finding).padEnd(severityWidth))}  ${printable(finding.code ?? '')}`;
      const pathFits = path === '' || head.length + 2 + path.length <= width;
      if (head.length <= width) lines.push(pathFits && path !== '' ? `${styledHead}  ${style.dim(path)}` : styledHead);
      else lines.push(...wrap(head.trim(), width - 2).map((line) => `  ${line}`));
      const pad = ' '.repeat(indent);
      if (!pathFits) lines.push(...wrap(path, width - indent).map((line) => pad + style.dim(line)));
      lines.push(...wrap(finding.message ?? '', width - indent).map((line) => pad + line));
      if (typeof finding.documentationUrl === 'string' && finding.documentationUrl !== '') lines.push(...wrap(finding.documentationUrl, width - indent).map((line) => pad + style.dim(line)));
    }
    lines.push('');
  }
  const highest = Math.min(...results.map((result) => result.severity));
  lines.push(style.summary(highest, summaryOf(results)));
  return `${lines.join('\n')}\n`;
}
