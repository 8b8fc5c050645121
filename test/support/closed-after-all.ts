/**
 * What a test file starts, closed after all its tests: `const { kept, onClose } = closedAfterAll();`
 * at the top level, then `const server = await kept(startServer())`, or `onClose(() => ...)` for
 * anything else to undo.
 */
export function closedAfterAll(): {
  kept: <T extends { close(): Promise<void> }>(started: Promise<T>) => Promise<T>;
  onClose: (close: () => Promise<void>) => void;
} {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });
  return {
    async kept(started) {
      const value = await started;
      closers.push(() => value.close());
      return value;
    },
    onClose: (close) => void closers.push(close),
  };
}
