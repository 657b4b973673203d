// Runs one regex `grep` search off the main thread, so that it can be terminated (see grep.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { searchTree } from './grep.js';
import type { ReadGuard } from './read-guard.js';

const { target, projectDir, pattern, guards } = workerData as {
  target: string;
  projectDir: string;
  pattern: string;
  guards: ReadGuard[];
};
searchTree(target, projectDir, pattern, guards).then(
  (result) => parentPort?.postMessage({ result }),
  (error: NodeJS.ErrnoException) =>
    parentPort?.postMessage({ error: error.message, code: error.code }),
);
