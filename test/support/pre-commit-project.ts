import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cloneWorkTree, runCommand } from './work-tree-clone.js';

/**
 * A project as a team has it with this repository's pre-commit hook: a git repository whose
 * .pre-commit-config.yaml names a clone of this work tree (changes committed) and the hook id,
 * `pre-commit install --install-hooks` done with the system node (nothing but the npm registry
 * reached), a pre-commit cache of its own and no GIT_* variables of an outer git.
 */
export interface HookProject {
  /** The project's folder. */
  folder: string;
  run(command: string, args: string[], timeout?: number): Promise<{ code: number; stdout: string; stderr: string }>;
  /** `git commit -m message` as the API team. */
  commit(message: string): Promise<{ code: number; stdout: string; stderr: string }>;
  lastCommit(): Promise<string>;
  /** Writes a file of the project, its folders made. */
  write(path: string, content: string): void;
  remove(): void;
}

export const HOOK_INSTALL_TIMEOUT = 600_000;
export const HOOK_COMMIT_TIMEOUT = 90_000;

export async function hookProject(prefix: string, hookOptions: string[] = ['verbose: true']): Promise<HookProject> {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const repository = join(base, 'nlgov-adr');
  const commit = await cloneWorkTree(repository);
  const folder = join(base, 'project');
  mkdirSync(folder);
  const environment: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  environment.PRE_COMMIT_HOME = join(base, 'pre-commit-home');
  // What npm has cached is taken as it is, not asked for again (pre-commit runs npm install without a lock).
  environment.npm_config_prefer_offline = 'true';
  const run = (command: string, args: string[], timeout = HOOK_COMMIT_TIMEOUT) => runCommand(command, args, { cwd: folder, env: environment, timeout });
  const write = (path: string, content: string) => {
    const file = join(folder, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  await run('git', ['init', '--quiet']);
  write('.pre-commit-config.yaml', [
    'repos:',
    `  - repo: ${repository}`,
    `    rev: ${commit}`,
    '    hooks:',
    '      - id: nlgov-adr',
    '        language_version: system # the node on PATH: no download',
    ...hookOptions.map((option) => `        ${option}`),
    '',
  ].join('\n'));
  await run('git', ['add', '.pre-commit-config.yaml']);
  const install = await run('pre-commit', ['install', '--install-hooks'], HOOK_INSTALL_TIMEOUT);
  if (install.code !== 0 || !install.stdout.includes('pre-commit installed at .git/hooks/pre-commit')) {
    throw new Error(`pre-commit install --install-hooks failed (exit ${install.code}): ${install.stdout}${install.stderr}`);
  }
  return {
    folder,
    run,
    commit: (message) => run('git', ['-c', 'user.name=API team', '-c', 'user.email=api@example.nl', 'commit', '-m', message]),
    lastCommit: async () => (await run('git', ['log', '-1', '--format=%s'])).stdout.trim(),
    write,
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
