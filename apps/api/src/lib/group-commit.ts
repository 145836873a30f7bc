/**
 * Group commit: values that arrive while the writer is busy are written together by its next
 * batch. A batch leaves as soon as fewer than `inFlight` batches are being written (after the
 * current turn of the event loop, so values that arrive together leave together), with at most
 * `maxRows` values; there is no timer to wait for. Idle, a value is written at once (one
 * commit of latency); busy, the batches grow with the load, so the commits per value fall as the
 * rate rises.
 *
 * `write` answers each value of a batch, in order: an Error fails only that value's caller; a
 * thrown error fails the whole batch (and the next batch still goes).
 */
export function groupCommit<V, R>(
  write: (batch: readonly V[]) => Promise<ReadonlyArray<R | Error>>,
  options: { maxRows: number; inFlight: number },
): (value: V) => Promise<R> {
  interface Waiting {
    value: V;
    resolve: (result: R) => void;
    reject: (error: Error) => void;
  }
  let queue: Waiting[] = [];
  let writing = 0;
  let scheduled = false;

  function send(batch: Waiting[]) {
    writing += 1;
    write(batch.map((w) => w.value))
      .then(
        (results) => {
          if (results.length !== batch.length) {
            const error = new Error(`group commit: ${results.length} results for ${batch.length}`);
            for (const w of batch) w.reject(error);
            return;
          }
          batch.forEach((w, i) => {
            const result = results[i]!;
            if (result instanceof Error) w.reject(result);
            else w.resolve(result);
          });
        },
        (err: unknown) => {
          const error = err instanceof Error ? err : new Error(String(err));
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        writing -= 1;
        drain();
      });
  }

  function drain() {
    while (writing < options.inFlight && queue.length > 0) {
      const batch = queue.length <= options.maxRows ? queue : queue.slice(0, options.maxRows);
      queue = batch === queue ? [] : queue.slice(options.maxRows);
      send(batch);
    }
  }

  return (value: V) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ value, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        drain();
      });
    });
}
