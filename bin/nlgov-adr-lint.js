#!/usr/bin/env node
// nlgov-adr-lint [--ruleset <set or file>] [spectral lint options] <files or globs...>
//
// `spectral lint` with the ruleset chosen as spectral-action does: --ruleset if given (a module
// set of this package or a ruleset file), else the project's .spectral.* in the working directory
// (a rule turned off there stays off), else this package's full ruleset (nlgov-adr); so a
// description in any folder is linted. The package's names in a ruleset's `extends` (nlgov-adr,
// nlgov-adr/core, ...) are this package, also where the project has no node_modules (pre-commit).
// The pre-commit hook and the GitHub Action run it. Every other option goes to `spectral lint` as
// it is; its exit code is ours.
//
// Text output (Spectral's `stylish`, the default) is ours: the message on lines of its own,
// wrapped to the terminal's width (100 columns when not a terminal), coloured only on a terminal
// and not with NO_COLOR, FORCE_COLOR=0 or TERM=dumb (bin/lint-text.js). Every file written with
// -o/--output is named on stderr (not with -q).
//
// $refs are resolved by this package's resolver (dist/ogc-resolver.cjs, docs/ogc-schemas.md): local
// files as Spectral reads them, the OGC API schemas of schemas.opengis.net from the copies in this
// package, other http(s) URLs refused at once, so a lint gives the same findings offline and in CI.
// --fetch-remote-refs (or NLGOV_ADR_FETCH_REMOTE_REFS=1, for the GitHub Action) leaves Spectral's own
// resolver in place (it fetches every http(s) $ref, without a timeout); a --resolver of your own is
// passed on as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { descriptionsToLint, literalPattern } from './hook-selection.js';
import { formatArguments, formatsAndOutputs, isOn, splitArguments, withoutFormatsAndOutputs } from './lint-arguments.js';
import { colourWanted, renderText, widthOf } from './lint-text.js';
import { chooseRuleset, missingBuild, MODULE_SETS, ownNameFile, PACKAGE_NAME, PACKAGE_VERSION } from './ruleset-choice.js';

const require = createRequire(import.meta.url);
const spectralCli = require.resolve('@stoplight/spectral-cli');
const spectralVersion = JSON.parse(readFileSync(require.resolve('@stoplight/spectral-cli/package.json'), 'utf8')).version;

const HELP = `nlgov-adr-lint: lints OpenAPI descriptions against the Dutch API Design Rules (spectral lint with nlgov-adr).

usage: nlgov-adr-lint [options] <files or globs...>

options of nlgov-adr-lint:
  -r, --ruleset <set|file>  a module set (${MODULE_SETS.join(', ')}) or a ruleset
                            file; default: the project's .spectral.yaml (.yml, .json, .js, .mjs,
                            .cjs) in the working directory if there is one, else ${PACKAGE_NAME}
  --pre-commit              the files are what a commit changes (pre-commit passes them): lint
                            the OpenAPI descriptions among them (an openapi or swagger key at
                            the root, any name) and the repository's descriptions that $ref a
                            changed file; other JSON and YAML files are not linted
  --fetch-remote-refs       fetch http(s) $refs (default: refused, but for the OGC API schemas,
                            which come from this package); also NLGOV_ADR_FETCH_REMOTE_REFS=1
  -h, --help                this text
  --version                 the versions of nlgov-adr-lint and Spectral

options of spectral lint, passed on:
  -f, --format <name>       stylish (default: our text, wrapped to the terminal), json, junit,
                            html, text, teamcity, pretty, github-actions, sarif, code-climate,
                            gitlab, markdown; repeatable
  -o, --output <file>       write the output to a file; --output.<format> <file> per format
  -F, --fail-severity <s>   exit 1 from this severity on: error (default), warn, info, hint
  -D, --display-only-failures  only findings from --fail-severity on
  -q, --quiet               no logging, the output only
  -v, --verbose, -e/--encoding, --stdin-filepath, --resolver, --ignore-unknown-format,
  --fail-on-unmatched-globs, --show-documentation-url: as spectral lint --help says

Text output is coloured on a terminal only, and not with NO_COLOR, FORCE_COLOR=0 or TERM=dumb.
exit codes: 0 no finding from --fail-severity on; 1 findings; 2 the lint could not run.`;

function fail(message) {
  console.error(`nlgov-adr-lint: ${message}`);
  process.exit(2);
}

/** The ruleset file to give `spectral lint`: a module set's built file, or the ruleset file chosen. */
function rulesetFile(choice) {
  if (choice.kind === 'file') return choice.file;
  const problem = missingBuild(choice.name);
  if (problem !== undefined) fail(problem);
  return ownNameFile(choice.name);
}

/** The package's resolver, unless the user fetches remote $refs or brings a resolver of their own. */
function resolverArgs(fetchRemote, ownResolver) {
  if (fetchRemote || ownResolver) return [];
  const file = fileURLToPath(new URL('../dist/ogc-resolver.cjs', import.meta.url));
  if (!existsSync(file)) fail(`${file} is missing: build the package first (npm run build)`);
  return ['--resolver', file];
}

/**
 * Where Spectral writes what: the text output (stylish) is asked of Spectral as json, in a file
 * of ours unless json is asked for a file anyway, and rendered here. Where json would go to
 * stdout beside a stylish file, Spectral's own stylish is left in place.
 */
function plan(formats, outputs) {
  const textTarget = outputs.stylish;
  if (textTarget === undefined || outputs.json === '<stdout>') return { formats, outputs };
  const { stylish: _text, ...others } = outputs;
  if (formats.includes('json')) return { formats: formats.filter((format) => format !== 'stylish'), outputs: others, textTarget, jsonFile: outputs.json };
  const folder = mkdtempSync(join(tmpdir(), 'nlgov-adr-lint-'));
  const jsonFile = join(folder, 'results.json');
  return { formats: formats.map((format) => (format === 'stylish' ? 'json' : format)), outputs: { ...others, json: jsonFile }, textTarget, jsonFile, folder };
}

/**
 * --pre-commit: the documents become the descriptions to lint, as patterns that match only their
 * own file (the paths are the repository's, not globs); none, and there is nothing to do.
 */
function selectDescriptions() {
  const { descriptions, because } = descriptionsToLint([...documents, ...afterSeparator]);
  if (descriptions.length === 0) process.exit(0);
  for (const [description, fragment] of because) console.error(`nlgov-adr-lint: linting ${description}: it $refs ${fragment}, which changed`);
  documents.splice(0, documents.length, ...descriptions.map(literalPattern));
  afterSeparator.splice(0, afterSeparator.length);
}

function writeText(results, target) {
  if (target === '<stdout>') process.stdout.write(renderText(results, { width: widthOf(process.stdout), colour: colourWanted(process.stdout, process.env) }));
  else writeFileSync(target, renderText(results, { colour: false }));
}

const { options, documents, afterSeparator } = splitArguments(process.argv.slice(2));
const named = (option, ...names) => names.includes(option[0].split('=')[0]);
if (options.some((option) => named(option, '-h', '--help'))) {
  console.log(HELP);
  process.exit(0);
}
if (options.some((option) => named(option, '--version'))) {
  console.log(`nlgov-adr-lint ${PACKAGE_VERSION} (${PACKAGE_NAME} ${PACKAGE_VERSION}, Spectral CLI ${spectralVersion})`);
  process.exit(0);
}
let ruleset;
for (const option of options.filter((option) => named(option, '-r', '--ruleset'))) {
  ruleset = option.length === 2 || option[0].includes('=') ? (option[1] ?? option[0].slice(option[0].indexOf('=') + 1)) : fail(`${option[0]} needs a value`);
}
const fetchRemote = process.env.NLGOV_ADR_FETCH_REMOTE_REFS === '1' || isOn(options, '--fetch-remote-refs', '--fetch-remote-refs');
const rest = options.filter((option) => !named(option, '-r', '--ruleset', '--fetch-remote-refs', '--pre-commit'));
if (isOn(options, '--pre-commit', '--pre-commit')) selectDescriptions();
const ownResolver = rest.some((option) => named(option, '--resolver'));
const quiet = isOn(rest, '-q', '--quiet');

const requested = formatsAndOutputs(rest);
const planned = plan(requested.formats, requested.outputs);
const spectralArgs = [
  'lint', '--ruleset', rulesetFile(chooseRuleset(ruleset, process.cwd())), ...resolverArgs(fetchRemote, ownResolver),
  ...withoutFormatsAndOutputs(rest).flat(), ...formatArguments(planned.formats, planned.outputs), ...documents, ...(afterSeparator.length > 0 ? ['--', ...afterSeparator] : []),
];
// Spectral's own messages (its errors, on stderr) coloured by the same rules as ours.
const environment = colourWanted(process.stderr, process.env) ? process.env : { ...process.env, FORCE_COLOR: '0' };
const preload = pathToFileURL(fileURLToPath(new URL('./resolve-own-names.js', import.meta.url))).href;
const run = spawnSync(process.execPath, ['--import', preload, spectralCli, ...spectralArgs], { stdio: 'inherit', env: environment });
const status = run.status ?? 2;
try {
  if (planned.textTarget !== undefined && (status === 0 || status === 1) && existsSync(planned.jsonFile)) {
    writeText(JSON.parse(readFileSync(planned.jsonFile, 'utf8')), planned.textTarget);
  }
  if (status === 0 || status === 1) {
    const written = Object.entries(requested.outputs).filter(([, target]) => target !== '<stdout>' && existsSync(target));
    if (!quiet) for (const [format, target] of written) console.error(`nlgov-adr-lint: wrote the ${format === 'stylish' ? 'text' : format} output to ${target}`);
  }
} finally {
  if (planned.folder !== undefined) rmSync(planned.folder, { recursive: true, force: true });
}
process.exit(status);
