// The descriptions the pre-commit hook lints (nlgov-adr-lint --pre-commit): pre-commit passes the
// staged JSON and YAML files. An OpenAPI description is one with `openapi` or `swagger` at its root,
// whatever its name; any other staged file may be a fragment a description `$ref`s (a schema, a
// parameter, paths), so the repository's descriptions that reach it through their `$ref`s, directly
// or through other fragments, are linted too. package.json, docker-compose.yaml and the like are
// neither: not linted. A staged deletion (or the old name of a renamed file), which pre-commit does
// not pass, is such a fragment too: a description still $ref'ing it no longer resolves. Reading is bounded: files of at most MAX_FILE_BYTES, at most
// MAX_REPOSITORY_FILES of the repository's JSON/YAML files, each walked to at most MAX_NODES nodes.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { parse } from 'yaml';

export const MAX_FILE_BYTES = 20_000_000;
export const MAX_REPOSITORY_FILES = 5_000;
const MAX_NODES = 2_000_000;

/** The file's text, or undefined: too large or unreadable. */
function readText(file) {
  try {
    return statSync(file).size > MAX_FILE_BYTES ? undefined : readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The text parsed (JSON is YAML), or undefined: not one JSON or YAML document. */
function parseText(text) {
  if (text === undefined) return undefined;
  try {
    return parse(text, { maxAliasCount: 1000 });
  } catch {
    return undefined;
  }
}

function isMapping(data) {
  return data !== null && typeof data === 'object' && !Array.isArray(data);
}

/** An OpenAPI (or Swagger) description: `openapi` or `swagger` at its root. */
export function isDescription(data) {
  return isMapping(data) && ('openapi' in data || 'swagger' in data);
}

/** The files (repository paths) a document's `$ref`s name, resolved against its own path. */
export function referencedFiles(data, file) {
  const found = new Set();
  const pending = [data];
  let nodes = 0;
  while (pending.length > 0 && nodes < MAX_NODES) {
    const node = pending.pop();
    nodes += 1;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const target = referencedFile(value, file);
        if (target !== undefined) found.add(target);
      } else if (value !== null && typeof value === 'object') pending.push(value);
    }
  }
  return found;
}

/** `./schemas/pet.yaml#/Pet` in api/v1/openapi.yaml -> api/v1/schemas/pet.yaml; a URL or a same-document $ref: none. */
function referencedFile(reference, file) {
  const location = reference.split('#')[0];
  if (location === '' || /^[a-z][a-z0-9+.-]*:/i.test(location)) return undefined;
  let decoded = location;
  try {
    decoded = decodeURIComponent(location);
  } catch {
    // Not percent-encoded as a URI should be: taken as written.
  }
  return posix.normalize(posix.join(posix.dirname(file), decoded));
}

/** The repository's tracked and staged JSON and YAML files, at most MAX_REPOSITORY_FILES; none outside a git repository. */
function repositoryFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--', '*.json', '*.yaml', '*.yml'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (listed.status !== 0) return [];
  return listed.stdout.split('\0').filter((file) => file !== '' && !file.split('/').includes('node_modules')).slice(0, MAX_REPOSITORY_FILES);
}

/** The JSON and YAML files the commit deletes, renamed ones by their old name; none outside a git repository. */
function stagedDeletions() {
  const listed = spawnSync('git', ['diff', '--cached', '--name-only', '--no-renames', '--diff-filter=D', '-z', '--', '*.json', '*.yaml', '*.yml'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (listed.status !== 0) return [];
  return listed.stdout.split('\0').filter((file) => file !== '');
}

/**
 * Spectral's CLI reads every file it is given as a fast-glob pattern and turns backslashes into
 * slashes first, so fast-glob's escapePath does not survive it: each glob character becomes a
 * bracket expression of itself (`api/[v1]/x.yaml` -> `api/[[]v1[]]/x.yaml`), and a leading `!`
 * (a negated pattern) gets `./` before it. `+`, `@` and `!` are extglobs only before a `(`, which
 * is escaped. A backslash in a name cannot be passed.
 */
export function literalPattern(file) {
  const escaped = file.replace(/[()*?[\]{}|]/g, (character) => `[${character}]`);
  return escaped.startsWith('!') ? `./${escaped}` : escaped;
}

/**
 * The descriptions among the staged files, and those of the repository that `$ref` a staged file
 * that is none (directly or through other files). `because` names, for each description that is
 * not staged itself, the changed file it reaches.
 */
export function descriptionsToLint(stagedFiles) {
  const staged = stagedFiles.map((file) => posix.normalize(file.replaceAll('\\', '/')));
  const descriptions = new Set();
  const fragments = new Set();
  for (const file of staged) {
    const data = parseText(readText(file));
    if (isDescription(data)) descriptions.add(file);
    else if (data !== null && typeof data === 'object') fragments.add(file);
  }
  for (const file of stagedDeletions()) fragments.add(file);
  const because = new Map();
  if (fragments.size === 0) return { descriptions: [...descriptions], because };
  // Who refers to whom, read only from the files that have a $ref at all.
  const referrers = new Map();
  const parsed = new Map();
  for (const file of repositoryFiles()) {
    const text = readText(file);
    if (text === undefined || !text.includes('$ref')) continue;
    const data = parseText(text);
    parsed.set(file, data);
    for (const target of referencedFiles(data, file)) referrers.set(target, [...(referrers.get(target) ?? []), file]);
  }
  // From each changed fragment back along the $refs, to the descriptions that reach it.
  for (const fragment of fragments) {
    const seen = new Set([fragment]);
    const queue = [fragment];
    while (queue.length > 0) {
      const current = queue.shift();
      for (const referrer of referrers.get(current) ?? []) {
        if (seen.has(referrer)) continue;
        seen.add(referrer);
        if (isDescription(parsed.get(referrer))) {
          if (!descriptions.has(referrer)) because.set(referrer, fragment);
          descriptions.add(referrer);
        }
        queue.push(referrer);
      }
    }
  }
  return { descriptions: [...descriptions], because };
}
