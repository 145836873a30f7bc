// How a module joins the app (issue 31, point 8). A module wires its own repository, service and
// routes from the app's shared parts (`Core`) and hands back what it adds, by who may call it;
// `buildApp` registers each zone once, behind its guard, so a module never writes a guard of its
// own, and adding one is a single line of app.ts.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Keys } from '../lib/keys.js';
import type { Secrets } from '../lib/secrets.js';
import type { AuditService } from './audit/audit.service.js';

/** The app's shared parts every module is built from. */
export interface Core {
  /** The app itself: its logger, rate limits and token service (decorated before modules). */
  app: FastifyInstance;
  config: Config;
  db: Db;
  secrets: Secrets;
  keys: Keys;
  audit: AuditService;
  clock: () => Date;
}

/** Registers routes on the scope it is given (their prefix is the zone's). */
export type Routes = (scope: FastifyInstance) => Promise<void>;

/** Work one process runs at a time: started when it leads, stopped when it stops or closes. */
export interface Background {
  start(): void;
  stop(): Promise<void>;
}

/** What a module adds to the app. */
export interface AppModule {
  /** Under /api, for anyone: each route checks its own caller. */
  api?: Routes;
  /** Under /api/v1/admin, for moderators and admins. */
  staff?: Routes;
  /** Under /api/v1/admin, for admins only. */
  admin?: Routes;
  /** Run by the leader only (db/client.ts lead()). */
  background?: Background;
}
