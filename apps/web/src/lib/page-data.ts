import { PAGE_DATA_ID } from '@candor/contracts';

/** What the server embedded in the page it sent (apps/api/src/modules/surveys/survey-pages.ts). */
interface PageData {
  /** API answers by path under /api, as the app would have fetched them. */
  responses?: Record<string, unknown>;
  /** The home page's bricks: each cover's offset as the server drew it. */
  brickPositions?: Record<string, string>;
}

let read: PageData | undefined;
// When this page was asked for (performance.timeOrigin, which Safari 12 lacks).
const loadedAt = Date.now() - performance.now();

/** The page's JSON data block, parsed once; empty when the page has none (or it is broken). */
function pageData(): PageData {
  if (read) return read;
  read = {};
  const block = typeof document === 'undefined' ? null : document.getElementById(PAGE_DATA_ID);
  if (block?.textContent) {
    try {
      read = JSON.parse(block.textContent) as PageData;
    } catch {
      // Fetched the usual way instead.
    }
  }
  return read;
}

/**
 * An API answer the server sent with the page, for a query's initial data: the list paints in
 * the app's first render, exactly as the server drew it. As fresh as the page load itself.
 */
export function embeddedResponse(path: string): { data: unknown; at: number } | undefined {
  const data = pageData().responses?.[path];
  return data === undefined ? undefined : { data, at: loadedAt };
}

/** A home page brick's cover offset as the server drew it, so the cover does not jump. */
export function embeddedBrickPosition(gid: string): string | undefined {
  return pageData().brickPositions?.[gid];
}

/** Tests: forget what was read. */
export function resetPageData(): void {
  read = undefined;
}
