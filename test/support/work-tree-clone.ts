import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = process.cwd();

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=nlgov-adr test', '-c', 'user.email=test@example.nl', '-c', 'commit.gpgsign=false', ...args], { cwd, maxBuffer: 1 << 24 });
  return stdout;
}

/**
 * A clone of this repository at `into` with the work tree as it is now committed on top (changed
 * and deleted tracked files, and new files that git does not ignore): what pre-commit and the
 * GitHub Action check out. Nothing changes in the work tree itself. Returns the commit.
 */
export async function cloneWorkTree(into: string): Promise<string> {
  await run('git', ['clone', '--quiet', root, into]);
  const files = (await git(root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')).split('\0').filter((file) => file !== '');
  for (const file of files) {
    const target = join(into, file);
    if (existsSync(join(root, file))) {
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(root, file), target);
    } else rmSync(target, { force: true });
  }
  await git(into, 'add', '--all');
  await git(into, 'commit', '--quiet', '--allow-empty', '-m', 'the work tree under test');
  return (await git(into, 'rev-parse', 'HEAD')).trim();
}

/** Runs a command; its exit code, stdout and stderr, never a throw for a non-zero exit. */
export async function runCommand(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { ...options, maxBuffer: 1 << 26 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
    if (failed.killed === true || typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
