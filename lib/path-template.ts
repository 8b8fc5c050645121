/**
 * Matching concrete paths to OpenAPI path templates (`/a/{id}/b`): segment by segment, each
 * `{variable}` standing for one or more characters other than `/`.
 *
 * The description comes from a server nobody vouches for, and matching runs on the main thread,
 * so every match is bounded: a segment is matched greedily, each literal at its leftmost place
 * after the variables before it (exact for variables that take "one or more" characters, and
 * linear in the path, however many variables a segment has); a template with more than
 * MAX_SEGMENT_PIECES pieces in a segment, and a concrete path longer than MAX_MATCHED_PATH_LENGTH,
 * are not matched; matchPathKey stops at MAX_MATCH_WORK characters per path and says "not matched".
 */

/** Longer concrete paths are looked up literally only: longer than the request line most servers accept (8 KB). */
export const MAX_MATCHED_PATH_LENGTH = 8192;
/** A segment such as `{a}.{b}-{c}` has 5 pieces; one with more than this is no API's path and is never matched. */
export const MAX_SEGMENT_PIECES = 64;
/** Characters of the concrete path examined per matchPathKey call, over all templates tried (about 0.1 s of work). */
export const MAX_MATCH_WORK = 20_000_000;

/** One segment of a template: a literal, or literals between runs of variables. */
type CompiledSegment =
  | { kind: 'literal'; text: string }
  | {
    kind: 'template';
    /** Literal the segment starts with ('' when it starts with a variable). */
    head: string;
    /** Literal the segment ends with ('' when it ends with a variable). */
    tail: string;
    /** The literals in between, each after `gap` variables (at least one character each). */
    middle: Array<{ gap: number; literal: string }>;
    /** Variables between the last literal before the tail and the tail. */
    finalGap: number;
  }
  | { kind: 'unmatchable' };

interface CompiledTemplate {
  key: string;
  segments: CompiledSegment[];
}

/** Whether a concrete path fits an OpenAPI path template; false beyond the bounds above. */
export function matchesPathTemplate(template: string, path: string): boolean {
  if (path.length > MAX_MATCHED_PATH_LENGTH) return template === path;
  return templateMatches(compileTemplate(template), path.split('/'));
}

/** Templates of one `paths` object, compiled once and grouped by segment count; results kept per concrete path. */
interface PathIndex {
  bySegmentCount: Map<number, CompiledTemplate[]>;
  found: Map<string, string | undefined>;
}

const indexes = new WeakMap<object, PathIndex>();
/** Concrete paths whose match is remembered per `paths` object (a run has at most a few dozen). */
const MAX_REMEMBERED = 10_000;

/**
 * The key of `paths` a concrete path matches: a literal key wins over a template that also fits
 * it, as OpenAPI matches them; among templates the first in the description's order. Undefined
 * when none matches within the bounds.
 */
export function matchPathKey(paths: Record<string, unknown>, path: string): string | undefined {
  if (Object.hasOwn(paths, path) && paths[path] !== undefined) return path;
  if (path.length > MAX_MATCHED_PATH_LENGTH) return undefined;
  const index = indexOf(paths);
  if (index.found.has(path)) return index.found.get(path);
  const found = firstMatch(index.bySegmentCount.get(path.split('/').length) ?? [], path);
  if (index.found.size < MAX_REMEMBERED) index.found.set(path, found);
  return found;
}

function indexOf(paths: Record<string, unknown>): PathIndex {
  let index = indexes.get(paths);
  if (index === undefined) {
    index = { bySegmentCount: new Map(), found: new Map() };
    for (const key of Object.keys(paths)) {
      if (!key.includes('{') || paths[key] === undefined) continue;
      const compiled = compileTemplate(key);
      const group = index.bySegmentCount.get(compiled.segments.length);
      if (group === undefined) index.bySegmentCount.set(compiled.segments.length, [compiled]);
      else group.push(compiled);
    }
    indexes.set(paths, index);
  }
  return index;
}

function firstMatch(templates: CompiledTemplate[], path: string): string | undefined {
  const segments = path.split('/');
  // Each template tried costs at most about the path's length (plus one for a quick mismatch).
  const costPerTemplate = path.length + 1;
  let work = 0;
  for (const template of templates) {
    work += costPerTemplate;
    if (work > MAX_MATCH_WORK) return undefined;
    if (templateMatches(template, segments)) return template.key;
  }
  return undefined;
}

function templateMatches(template: CompiledTemplate, pathSegments: string[]): boolean {
  const { segments } = template;
  if (segments.length !== pathSegments.length) return false;
  // Literal segments first: they rule most templates out at the cost of a string comparison.
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as CompiledSegment;
    if (segment.kind === 'unmatchable') return false;
    if (segment.kind === 'literal' && segment.text !== pathSegments[index]) return false;
  }
  return segments.every((segment, index) => segment.kind !== 'template' || segmentMatches(segment, pathSegments[index] ?? ''));
}

function compileTemplate(key: string): CompiledTemplate {
  return { key, segments: key.split('/').map(compileSegment) };
}

type Piece = { literal: string } | { variable: true };

function compileSegment(segment: string): CompiledSegment {
  const pieces = piecesOf(segment);
  if (pieces === undefined) return { kind: 'unmatchable' };
  if (pieces.every((piece) => 'literal' in piece)) return { kind: 'literal', text: segment };
  let head = '';
  let tail = '';
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (first !== undefined && 'literal' in first) { head = first.literal; pieces.shift(); }
  if (last !== undefined && 'literal' in last) { tail = last.literal; pieces.pop(); }
  const middle: Array<{ gap: number; literal: string }> = [];
  let gap = 0;
  for (const piece of pieces) {
    if ('literal' in piece) {
      middle.push({ gap, literal: piece.literal });
      gap = 0;
    } else gap += 1;
  }
  return { kind: 'template', head, tail, middle, finalGap: gap };
}

/** The pieces of a segment, adjacent literals joined; undefined when there are more than MAX_SEGMENT_PIECES. */
function piecesOf(segment: string): Piece[] | undefined {
  const pieces: Piece[] = [];
  let position = 0;
  const addLiteral = (literal: string) => {
    const previous = pieces[pieces.length - 1];
    if (previous !== undefined && 'literal' in previous) previous.literal += literal;
    else pieces.push({ literal });
  };
  while (position < segment.length) {
    if (pieces.length > MAX_SEGMENT_PIECES) return undefined;
    const open = segment.indexOf('{', position);
    const close = open < 0 ? -1 : segment.indexOf('}', open);
    if (open < 0 || close < 0) {
      addLiteral(segment.slice(position));
      break;
    }
    if (open > position) addLiteral(segment.slice(position, open));
    pieces.push({ variable: true });
    position = close + 1;
  }
  return pieces.length > MAX_SEGMENT_PIECES ? undefined : pieces;
}

/**
 * Greedy and exact: the head at the start, the tail at the end, each literal in between at its
 * leftmost place that leaves a character for every variable before it. Taking the leftmost place
 * never loses a match (what follows only needs room after it), and the search only moves forward.
 */
function segmentMatches(segment: Extract<CompiledSegment, { kind: 'template' }>, text: string): boolean {
  if (!text.startsWith(segment.head) || !text.endsWith(segment.tail)) return false;
  let start = segment.head.length;
  const end = text.length - segment.tail.length;
  if (end < start) return false;
  for (const { gap, literal } of segment.middle) {
    const at = text.indexOf(literal, start + gap);
    if (at < 0 || at + literal.length > end) return false;
    start = at + literal.length;
  }
  return end - start >= segment.finalGap;
}
