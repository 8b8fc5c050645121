import { parseServeArgs, SERVE_HELP, ServeUsageError } from './options.js';
import { startWebChecker } from './server.js';

/**
 * `adr-check serve`: starts the web checker and runs until SIGINT or SIGTERM, then lets the
 * running checks end. Bad flags are one line on stderr and exit 2, as adr-check's own.
 */
export async function serve(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseServeArgs(argv);
  } catch (error) {
    const message = error instanceof ServeUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? (error as Error).message : `internal error: ${(error as Error).message}`;
    process.stderr.write(`adr-check serve: ${message.split('\n')[0]}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${SERVE_HELP}\n`);
    return 0;
  }
  let checker;
  try {
    checker = await startWebChecker(options);
  } catch (error) {
    process.stderr.write(`adr-check serve: cannot start: ${((error as Error).message ?? String(error)).split('\n')[0]}\n`);
    return 2;
  }
  process.stdout.write(`adr-check serve: listening on ${checker.origin} (data in ${options.dataDir}; ${options.maxRunning} checks at once, ${options.maxQueued} waiting)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stdout.write('adr-check serve: stopping; running checks finish first\n');
  await checker.close();
  return 0;
}
