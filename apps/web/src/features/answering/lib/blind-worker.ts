/// <reference lib="webworker" />
import { handle, type BlindingRequest } from './blinding';

// Blinding and finalizing off the page's main thread (about 50 ms of big-number work each).
self.onmessage = (event: MessageEvent<BlindingRequest>) => {
  void handle(event.data).then((reply) => self.postMessage(reply));
};
