/**
 * The one worker entry of the pool (core/archive/workerPool.ts), bundled as dist/poolWorker.js:
 * each request names its kind, and the handler of that kind runs it against the archives this
 * thread opened itself (kept open across tasks and runs). Handlers live beside the work they do
 * (`verify`: core/archive/verifyWorker.ts; Find in Files: core/search/searchWorker.ts; extraction:
 * core/archive/extractWorker.ts; the cold index: core/scriptIndex/indexWorker.ts).
 */
import { getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { POOL_WORKER_ROLE, type PoolAnswer, type PoolRequest } from '../archive/workerPool';
import { WorkerArchives } from '../archive/workerArchives';
import { VERIFY_KIND, type VerifyTask, verifyTask } from '../archive/verifyWorker';
import { EXTRACT_KIND, type ExtractTask, extractTask } from '../archive/extractWorker';
import { SEARCH_KIND, SearchWorkerState, type SearchTask } from '../search/searchWorker';
import { INDEX_KIND, type IndexTask, indexTask } from '../scriptIndex/indexWorker';

/** Whether this thread was started by the pool. */
export function isPoolWorker(): boolean {
  return !isMainThread && (workerData as { role?: string } | undefined)?.role === POOL_WORKER_ROLE;
}

/** Answer requests until the thread is terminated. */
export function servePool(): void {
  const archives = new WorkerArchives();
  const search = new SearchWorkerState(archives);
  const handlers: Record<string, (task: unknown) => unknown> = {
    [VERIFY_KIND]: (t) => verifyTask(archives, t as VerifyTask),
    [SEARCH_KIND]: (t) => search.run(t as SearchTask),
    [EXTRACT_KIND]: (t) => extractTask(archives, t as ExtractTask),
    [INDEX_KIND]: (t) => indexTask(archives, t as IndexTask),
  };
  // One request at a time, in the order sent: the pool keeps a second one waiting here, and an
  // async handler (extraction) must not interleave with the next.
  let queue: Promise<void> = Promise.resolve();
  parentPort!.on('message', (req: PoolRequest) => {
    queue = queue.then(() => answer(req));
  });
  const answer = async (req: PoolRequest): Promise<void> => {
    const out: PoolAnswer = { id: req.id, heapBytes: 0 };
    try {
      const handler = handlers[req.kind];
      if (!handler) throw new Error(`no handler for ${JSON.stringify(req.kind)}`);
      out.result = await handler(req.task);
    } catch (e) {
      out.error = String((e as Error)?.stack ?? e);
    }
    out.heapBytes = getHeapStatistics().used_heap_size; // process.memoryUsage() also reads the RSS: dearer
    parentPort!.postMessage(out);
  };
}

if (isPoolWorker()) servePool();
