// Runs one regex `grep` search off the main thread, so that it can be terminated (see grep.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { searchTree } from './grep.js';

const { target, projectDir, pattern } = workerData as {
  target: string;
  projectDir: string;
  pattern: string;
};
searchTree(target, projectDir, pattern).then(
  (result) => parentPort?.postMessage({ result }),
  (error: NodeJS.ErrnoException) =>
    parentPort?.postMessage({ error: error.message, code: error.code }),
);
