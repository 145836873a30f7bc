import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { UPLOAD_IMAGE_TYPES, type UploadedImage } from '@candor/contracts';
import sharp, { type OutputInfo } from 'sharp';
import { AppError } from '../../lib/app-error.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { ImagesRepository } from './images.repository.js';

/** Longest side of a stored image: covers and intro images never need more. */
const MAX_SIDE = 1600;
/** Decoding bigger images is refused before it starts (a small file can hold a huge image). */
const MAX_INPUT_PIXELS = 40_000_000;
const FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
const NOT_AN_IMAGE = 'That file is not an image we can read. Upload a JPEG, PNG, WebP or GIF.';

/** The public path of a stored image (served by the uploads plugin). */
export const UPLOADS_PATH = '/uploads/';

/** A stored image's name: the hash of its content, as WebP. */
const IMAGE_NAME = /^[0-9a-f]{32}\.webp$/;

/**
 * Images uploaded by admins. Each is decoded and re-encoded as WebP (at most 1600 px a side):
 * only real images get through, their metadata (camera, place) is dropped, and its name is the
 * hash of its content, so the same image uploaded twice is stored once. They are kept in the
 * database, so every API process serves every image; those uploaded before (files in
 * `legacyDir`) are still served from there.
 */
export function createImagesService({
  repo,
  audit,
  legacyDir,
}: {
  repo: ImagesRepository;
  audit: AuditService;
  legacyDir: string;
}) {
  return {
    /** The bytes of a stored image, or undefined (never a path outside the images). */
    async read(name: string): Promise<Buffer | undefined> {
      if (!IMAGE_NAME.test(name)) return undefined;
      const stored = await repo.read(name);
      if (stored) return stored;
      return fs.readFile(path.join(legacyDir, name)).catch(() => undefined);
    },

    async store(
      bytes: Buffer,
      contentType: string | undefined,
      actor: Actor,
    ): Promise<UploadedImage> {
      const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
      if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(type)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload a JPEG, PNG, WebP or GIF image.');
      }
      if (!bytes.length) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          non_field_errors: ['The file is empty.'],
        });
      }
      let out: { data: Buffer; info: OutputInfo };
      try {
        const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
        const { format } = await image.metadata();
        if (!FORMATS.has(format)) throw new Error(`format ${format}`);
        out = await image
          .rotate()
          .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer({ resolveWithObject: true });
      } catch {
        throw new AppError('VALIDATION_FAILED', undefined, { non_field_errors: [NOT_AN_IMAGE] });
      }
      const name = `${crypto.createHash('sha256').update(out.data).digest('hex').slice(0, 32)}.webp`;
      await repo.save({ name, data: out.data, width: out.info.width, height: out.info.height });
      const stored = {
        url: `${UPLOADS_PATH}${name}`,
        width: out.info.width,
        height: out.info.height,
        bytes: out.data.length,
      };
      await audit.record(actor, 'image.upload', `image:${name}`, {
        width: stored.width,
        height: stored.height,
        bytes: stored.bytes,
      });
      return stored;
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;
