import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SurveyDetail } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import { UPLOADS_PATH, type ImagesService } from '../images/images.service.js';
import type { PageParts, PageRequest } from '../../plugins/web-page.js';
import type { SurveysService } from '../surveys/surveys.service.js';
import { surveyHeadTags, withHeadTags } from './share-head.js';
import { renderShareImage } from './share-image.js';

/** Bumped when the image's design changes, so caches holding the old one fetch the new. */
const IMAGE_DESIGN = 1;
/** Rendered images kept in memory (about 70-230 KB each). */
const MAX_IMAGES = 64;

/**
 * The survey a page path names: `/surveys/{gid}` (the survey's own route) or
 * `/{Survey_name}/{gid}` (its share link). Anything else names none.
 */
export function surveyGidOfPath(url: string): string | null {
  const pathname = url.split(/[?#]/)[0]!;
  const parts = pathname.split('/');
  if (parts.length !== 3 || parts[0] !== '') return null;
  const [, first, gid] = parts as [string, string, string];
  // Staff and API paths are not share links, whatever follows them.
  if (!first || first === 'admin' || first === 'api') return null;
  return isUuid(gid) ? gid.toLowerCase() : null;
}

/** What the share image shows, and so what its cache key and version are made of. */
function imageContent(survey: SurveyDetail) {
  return {
    name: survey.name,
    headline: survey.cover_headline,
    questions: survey.questions_count,
    closed: survey.status === 'Closed',
    cover: survey.cover_image,
  };
}

/** A short hash of the image's content: its `?v=` and ETag. */
function imageVersion(survey: SurveyDetail): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([IMAGE_DESIGN, imageContent(survey)]))
    .digest('base64url')
    .slice(0, 16);
}

/**
 * Link previews of surveys: the survey page's HTML with its own title, description and Open
 * Graph / X card tags (for crawlers, which run no script), and its share image. Only listed
 * surveys (published, released) have either: a draft or scheduled survey's link gets the site's
 * generic page and its image a 404, so nothing of it shows before it is out.
 *
 * Surveys come from the surveys service's snapshot (in memory, re-read every few seconds and at
 * once after an edit), so a burst of crawlers reads no database. Pages are kept per snapshot
 * survey object, so an edit shows as soon as the snapshot does; images by a hash of what they
 * show, so an edit that changes none of it renders nothing again.
 */
export function createShareService({
  surveys,
  images,
  webRoot,
}: {
  surveys: SurveysService;
  /** Uploaded covers. */
  images: Pick<ImagesService, 'read'>;
  /** The built web app: its index.html, and the sample covers; null when the API runs alone. */
  webRoot: string | null;
}) {
  const headTags = new WeakMap<SurveyDetail, string>();
  const rendered = new Map<string, Promise<Buffer>>();

  /** A cover's bytes by its public path: an upload, or a file of the web app; else null. */
  async function readCover(publicPath: string): Promise<Buffer | null> {
    if (publicPath.startsWith(UPLOADS_PATH)) {
      return (await images.read(publicPath.slice(UPLOADS_PATH.length))) ?? null;
    }
    if (!webRoot || !publicPath.startsWith('/')) return null;
    const root = path.resolve(webRoot);
    const file = path.resolve(root, `.${publicPath}`);
    // Never a file outside the web app's folder, whatever the path holds.
    if (!file.startsWith(root + path.sep)) return null;
    return fs.readFile(file).catch(() => null);
  }

  async function listed(gid: string, origin: string): Promise<SurveyDetail | null> {
    try {
      return await surveys.getByGid(gid, origin);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  return {
    /**
     * A page's part for a path naming a listed survey: its own head tags in place of the generic
     * ones (web-page.ts); nothing for any other path.
     */
    async pageParts(page: PageRequest): Promise<PageParts | undefined> {
      const gid = surveyGidOfPath(page.path);
      if (!gid) return undefined;
      const survey = await listed(gid, page.origin);
      if (!survey) return undefined;
      let tags = headTags.get(survey);
      if (tags === undefined) {
        tags = surveyHeadTags(survey, { origin: page.origin, imageVersion: imageVersion(survey) });
        // Kept as long as the snapshot's survey object is: the next snapshot renders afresh.
        headTags.set(survey, tags);
      }
      const own = tags;
      return { transform: (html) => withHeadTags(html, own) };
    },

    /** The share image of a listed survey (PNG, 1200x630) and its version; else NOT_FOUND. */
    async image(gid: string): Promise<{ png: Buffer; version: string }> {
      const survey = isUuid(gid) ? await listed(gid, '') : null;
      if (!survey) throw new AppError('NOT_FOUND');
      const version = imageVersion(survey);
      let rendering = rendered.get(version);
      if (!rendering) {
        const content = imageContent(survey);
        rendering = (content.cover ? readCover(content.cover) : Promise.resolve(null)).then(
          (cover) => renderShareImage(content, cover),
        );
        // A failed render is not kept: the next request tries again.
        rendering.catch(() => rendered.delete(version));
        rendered.set(version, rendering);
        // Oldest first out: a Map iterates in insertion order.
        if (rendered.size > MAX_IMAGES) rendered.delete(rendered.keys().next().value!);
      }
      return { png: await rendering, version };
    },
  };
}

export type ShareService = ReturnType<typeof createShareService>;
