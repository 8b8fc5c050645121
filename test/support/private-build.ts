import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = process.cwd();
const LEFT_OUT = new Set(['.git', 'node_modules', 'dist', 'coverage', 'test-artifacts', '.bench', 'scratch']);

/**
 * The work tree copied to a temporary folder (with this repository's node_modules linked in) and
 * built there with `tsup`, as `npm run build` does: a test that reads or packs dist/ cannot race
 * another test file that rebuilds this repository's own dist/, which tsup empties first.
 * Returns the copy's folder; the caller removes it.
 */
export async function privateBuild(prefix: string): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  cpSync(root, copy, { recursive: true, filter: (source) => !LEFT_OUT.has(relative(root, source).split(sep)[0] ?? '') });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  await run(join(root, 'node_modules', '.bin', 'tsup'), [], { cwd: copy, maxBuffer: 1 << 24 });
  return copy;
}
