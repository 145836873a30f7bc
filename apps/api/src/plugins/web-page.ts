// The HTML of the web app's pages: the built index.html with what each page adds (preload hints,
// a server-rendered snapshot, embedded data), compressed once per distinct page and kept briefly.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Text for an HTML element or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * JSON text made safe inside `<script type="application/json">`: `<`, `>` and `&` (which JSON
 * only has inside strings) become `\u` escapes, so no value can close the element or open a
 * comment; JSON.parse reads the same value back.
 */
export function jsonForScript(json: string): string {
  return json.replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What one module adds to a page. Every part is markup the module has escaped itself. */
export interface PageParts {
  /** Tags for `<head>`, after the page's own (preload hints, meta tags). */
  head?: string;
  /** The content of `<div id="root">`: what shows before the scripts replace it. */
  root?: string;
  /** Markup at the end of `<body>`: JSON data blocks only (the CSP runs no inline script). */
  body?: string;
  /** A last change to the whole page (a head tag that replaces one of the template's own). */
  transform?: (html: string) => string;
}

/** The page asked for, as modules see it. */
export interface PageRequest {
  /** The path, decoded as the router sees it, without the query. */
  path: string;
  query: URLSearchParams;
  /** The origin people reach Candor at (PUBLIC_URL, else the request's). */
  origin: string;
}

/** A module's share of a page: its parts for this path, or undefined when the path is not its. */
export type PageContributor = (
  page: PageRequest,
) => PageParts | undefined | Promise<PageParts | undefined>;

/** index.html cut at the places parts go. */
export interface PageTemplate {
  /** Up to `</head>`. */
  head: string;
  /** From `</head>` up to the inside of `<div id="root">`. */
  beforeRoot: string;
  /** From the root's `</div>` up to `</body>`. */
  afterRoot: string;
  /** From `</body>` on. */
  end: string;
}

const ROOT = '<div id="root"></div>';

/** Cuts index.html where parts go; without a `</head>`, head parts go before the root. */
export function parseTemplate(html: string): PageTemplate {
  const open = ROOT.slice(0, -'</div>'.length);
  const rootAt = html.indexOf(ROOT);
  const headEnd = html.search(/<\/head>/i);
  const cut = headEnd >= 0 ? headEnd : rootAt >= 0 ? rootAt : html.length;
  const rest = html.slice(cut);
  const rootIn = rest.indexOf(ROOT);
  if (rootIn < 0) return { head: html.slice(0, cut), beforeRoot: rest, afterRoot: '', end: '' };
  const tail = rest.slice(rootIn + open.length);
  const bodyEnd = tail.search(/<\/body>/i);
  return {
    head: html.slice(0, cut),
    beforeRoot: rest.slice(0, rootIn + open.length),
    afterRoot: bodyEnd < 0 ? tail : tail.slice(0, bodyEnd),
    end: bodyEnd < 0 ? '' : tail.slice(bodyEnd),
  };
}

/** The page: the template with every module's parts, in the modules' order. */
export function renderPage(template: PageTemplate, parts: PageParts[]): string {
  const head = parts.map((p) => p.head ?? '').join('');
  const root = parts.map((p) => p.root ?? '').join('');
  const body = parts.map((p) => p.body ?? '').join('');
  const html =
    template.head + head + template.beforeRoot + root + template.afterRoot + body + template.end;
  return parts.reduce((page, p) => (p.transform ? p.transform(page) : page), html);
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The scripts and style sheets a module of the build needs before it runs. */
export interface ChunkFiles {
  js: string[];
  css: string[];
}

/**
 * Reads the build's manifest (Vite's `build.manifest`) and answers which files a source module
 * (`src/app/app.tsx`) loads, beyond what index.html already loads: the entry and its imports.
 * Without a manifest (an older build, a test's bare page) it knows no files.
 */
export function readChunkFiles(root: string): (src: string) => ChunkFiles {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(
      fs.readFileSync(path.join(root, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;
  } catch {
    return () => ({ js: [], css: [] });
  }
  // In Vite's order: a chunk's imports first (depth first), then its own style sheets, which is
  // also the order its loader adds them in, so the cascade does not change.
  const walk = (key: string, seen: Set<string>, out: ChunkFiles) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) walk(imported, seen, out);
    out.js.push(`/${chunk.file}`);
    for (const css of chunk.css ?? []) out.css.push(`/${css}`);
  };
  const inIndex: ChunkFiles = { js: [], css: [] };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (entry) walk(entry, new Set(), inIndex);
  const known = new Set([...inIndex.js, ...inIndex.css]);
  const cache = new Map<string, ChunkFiles>();
  return (src) => {
    let files = cache.get(src);
    if (!files) {
      const all: ChunkFiles = { js: [], css: [] };
      walk(src, new Set(), all);
      files = {
        js: all.js.filter((f) => !known.has(f)),
        css: [...new Set(all.css.filter((f) => !known.has(f)))],
      };
      cache.set(src, files);
    }
    return files;
  };
}

/** Link tags that fetch a module's scripts now and apply its style sheets (no script runs). */
export function chunkTags(files: ChunkFiles, { except }: { except?: ChunkFiles } = {}): string {
  const skip = new Set([...(except?.js ?? []), ...(except?.css ?? [])]);
  return [
    ...files.css
      .filter((f) => !skip.has(f))
      .map((f) => `<link rel="stylesheet" crossorigin href="${escapeHtml(f)}">`),
    ...files.js
      .filter((f) => !skip.has(f))
      .map((f) => `<link rel="modulepreload" crossorigin href="${escapeHtml(f)}">`),
  ].join('');
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** A page ready to send: its bytes as they are and compressed, and its entity tag. */
export interface BuiltPage {
  etag: string;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/**
 * Built pages by content: the same HTML is compressed once (off the event loop) and then served
 * from memory. Pages change with the survey content, so a few dozen distinct ones are kept.
 */
export function createPageCache(max = 64) {
  const pages = new Map<string, Promise<BuiltPage>>();
  return {
    get(html: string): Promise<BuiltPage> {
      const raw = Buffer.from(html);
      const hash = crypto.createHash('sha256').update(raw).digest('base64url').slice(0, 27);
      const known = pages.get(hash);
      if (known) {
        // Most recently used last: the oldest goes first when the map is full.
        pages.delete(hash);
        pages.set(hash, known);
        return known;
      }
      const built = Promise.all([
        gzip(raw, { level: 9 }),
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
      ]).then(([gz, br]) => ({ etag: `"${hash}"`, raw, gzip: gz, br }));
      built.catch(() => pages.delete(hash));
      pages.set(hash, built);
      if (pages.size > max) pages.delete(pages.keys().next().value!);
      return built;
    },
  };
}

/** The encoding to send: brotli, else gzip, else none, as the client's Accept-Encoding allows. */
export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const allowed = new Set<string>();
  for (const entry of (accept ?? '').split(',')) {
    const [name = '', ...params] = entry.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) allowed.add(name);
  }
  if (allowed.has('br')) return 'br';
  if (allowed.has('gzip')) return 'gzip';
  return null;
}
