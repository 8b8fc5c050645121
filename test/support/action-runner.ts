import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { conformantDocument } from '../fixtures/conformant.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { cloneWorkTree, runCommand } from './work-tree-clone.js';

/**
 * The GitHub Action (action.yml) run as a runner runs a composite action: each step's `run` with
 * `bash --noprofile --norc -eo pipefail`, in its working directory, with the variables a runner
 * sets (GITHUB_OUTPUT per step, GITHUB_STEP_SUMMARY, RUNNER_TEMP, GITHUB_ACTION_PATH, ...) and the
 * `${{ }}` expressions the action uses substituted. The action path is a clone of the work tree;
 * `prepareAction` builds its dist/ with the repository's node_modules linked in, so the action's
 * own install step finds it built (test/action.test.ts runs that step's npm ci).
 */
interface Step { name: string; id?: string; shell: string; run: string; env?: Record<string, string>; 'working-directory'?: string }
export interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}
interface Context {
  github: { action_path: string; workspace: string };
  inputs: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
}
export interface ActionRun { code: number; stdout: string; stderr: string; outputs: Record<string, string>; summary: string }

export const STEP_TIMEOUT = 240_000;

/** The descriptions the Action's tests lint: one with an error (/core/semver), one with only a warning (/core/doc-openapi-contact). */
export const withError = conformantDocument();
withError.info.version = '1.0';
const withWarning = conformantDocument();
withWarning.info.contact.email = 'info@example.nl';
export const errorYaml = stringify(withError);
export const warningJson = JSON.stringify(withWarning, null, 2);

/** The 1-based line of `text` that holds `needle` (0 when none does). */
export function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle)) + 1;
}

/** The expressions the action uses: a context property (github.action_path, inputs.x, steps.x.outputs.y); an unset one is ''. */
function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    if (!/^(github\.(action_path|workspace)|inputs\.[\w-]+|steps\.[\w-]+\.outputs\.[\w-]+)$/.test(expression)) throw new Error(`not supported here: ${expression}`);
    const value = expression.split('.').reduce<unknown>((object, key) => (object as Record<string, unknown> | undefined)?.[key], context);
    return typeof value === 'string' ? value : '';
  });
}

/** A clone of the work tree at `into`, built, as the action's checkout. */
export async function prepareAction(into: string): Promise<void> {
  await cloneWorkTree(into);
  // A work tree whose node_modules is a link itself (a git worktree) has it copied as a file.
  if (!existsSync(join(into, 'node_modules'))) symlinkSync(resolve('node_modules'), join(into, 'node_modules'));
  const build = await runCommand(process.execPath, [join(into, 'node_modules/tsup/dist/cli-default.js')], { cwd: into, timeout: STEP_TIMEOUT });
  if (build.code !== 0) throw new Error(`tsup failed in ${into}: ${build.stderr.slice(-2000)}`);
}

export async function runAction(actionPath: string, workspace: string, runnerTemp: string, inputs: Record<string, string> = {}, env: Record<string, string> = {}): Promise<ActionRun> {
  const action = parse(readFileSync(join(actionPath, 'action.yml'), 'utf8')) as Action;
  const defaults = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']));
  const context: Context = { github: { action_path: actionPath, workspace }, inputs: { ...defaults, ...inputs }, steps: {} };
  const outputs = () => Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value, context)]));
  const summaryFile = join(runnerTemp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  let stdout = '';
  let stderr = '';
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.shell !== 'bash') throw new Error(`step ${step.name} runs in ${step.shell}, not bash`);
    const script = join(runnerTemp, `step-${index}.sh`);
    const outputFile = join(runnerTemp, `output-${index}`);
    writeFileSync(script, substitute(step.run, context));
    writeFileSync(outputFile, '');
    const stepEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: runnerTemp,
      ...env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, substitute(value, context)])),
    };
    const cwd = substitute(step['working-directory'] ?? '${{ github.workspace }}', context);
    const result = await runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env: stepEnv, timeout: STEP_TIMEOUT });
    stdout += result.stdout;
    stderr += result.stderr;
    if (step.id !== undefined) {
      const lines = readFileSync(outputFile, 'utf8').split('\n').filter((line) => line !== '');
      context.steps[step.id] = { outputs: Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])) };
    }
    if (result.code !== 0) return { code: result.code, stdout, stderr, outputs: outputs(), summary: readFileSync(summaryFile, 'utf8') };
  }
  return { code: 0, stdout, stderr, outputs: outputs(), summary: readFileSync(summaryFile, 'utf8') };
}

/** A workspace (the checked-out repository) under `base` with these files. */
export function workspaceWith(base: string, files: Record<string, string>): string {
  const workspace = mkdtempSync(join(base, 'workspace-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  return workspace;
}

export interface Annotation { command: string; properties: Record<string, string>; message: string }

/** The workflow commands of a step's output, one per line as GitHub reads them. */
export function annotationsIn(stdout: string): Annotation[] {
  return stdout.split('\n').flatMap((line) => {
    const match = /^::(\w+)(?: (.*?))?::(.*)$/.exec(line);
    if (match === null) return [];
    const properties = Object.fromEntries((match[2] ?? '').split(',').filter((pair) => pair !== '').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
    return [{ command: match[1] as string, properties, message: match[3] as string }];
  });
}

const schema = JSON.parse(readFileSync('node_modules/@microsoft/sarif-multitool-ts/assets/sarif-2.1.0.schema.json', 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: false });
(ajvFormats as unknown as (instance: Ajv2020) => void)(ajv);
const validateSarif = ajv.compile(schema);

/** What makes a log invalid SARIF 2.1.0 (the schema @microsoft/sarif-multitool-ts ships); none for a valid one. */
export function sarifErrors(log: unknown): string[] {
  return validateSarif(log) ? [] : (validateSarif.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
