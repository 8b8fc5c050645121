/**
 * Whether a concrete path fits an OpenAPI path template (`/a/{id}/b`): segment by segment, each
 * `{variable}` standing for one or more characters other than `/`. Matched by dynamic
 * programming over the pieces of a segment, never by a backtracking regular expression: a
 * template with many variables in a row (`/{a}{b}{c}...x`) costs pieces × characters, not an
 * exponential number of ways to split the segment.
 */
export function matchesPathTemplate(template: string, path: string): boolean {
  const templateSegments = template.split('/');
  const pathSegments = path.split('/');
  if (templateSegments.length !== pathSegments.length) return false;
  return templateSegments.every((segment, index) => segmentMatches(piecesOf(segment), pathSegments[index] ?? ''));
}

/** The key of `paths` a concrete path matches: a literal key wins over a template that also fits it, as OpenAPI matches them. */
export function matchPathKey(paths: Record<string, unknown>, path: string): string | undefined {
  return paths[path] !== undefined ? path : Object.keys(paths).find((pathKey) => matchesPathTemplate(pathKey, path));
}

type Piece = { literal: string } | { variable: true };

function piecesOf(segment: string): Piece[] {
  const pieces: Piece[] = [];
  let rest = segment;
  while (rest !== '') {
    const open = rest.indexOf('{');
    const close = open < 0 ? -1 : rest.indexOf('}', open);
    if (open < 0 || close < 0) {
      pieces.push({ literal: rest });
      break;
    }
    if (open > 0) pieces.push({ literal: rest.slice(0, open) });
    pieces.push({ variable: true });
    rest = rest.slice(close + 1);
  }
  return pieces;
}

/** reachable[i]: the pieces so far can consume exactly the first i characters. */
function segmentMatches(pieces: Piece[], text: string): boolean {
  let reachable = new Array<boolean>(text.length + 1).fill(false);
  reachable[0] = true;
  for (const piece of pieces) {
    const next = new Array<boolean>(text.length + 1).fill(false);
    if ('literal' in piece) {
      for (let start = 0; start + piece.literal.length <= text.length; start += 1) {
        if (reachable[start] === true && text.startsWith(piece.literal, start)) next[start + piece.literal.length] = true;
      }
    } else {
      // One or more characters: every end after the first reachable start.
      let open = false;
      for (let end = 1; end <= text.length; end += 1) {
        open ||= reachable[end - 1] === true;
        next[end] = open;
      }
    }
    reachable = next;
  }
  return reachable[text.length] === true;
}
