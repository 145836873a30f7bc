/**
 * Query-key prefixes that more than one feature needs. Features never import each other, so a
 * key one feature reads and another invalidates lives here, once.
 */

/** Every public survey read (home page bricks, survey screens). */
export const publicSurveysKey = ['surveys'] as const;

/**
 * The member's mirror (lib/mirror-query.ts): read by the mirror and the outro, read again by the
 * app when the vault brings answers. Here so the app's shell need not import the query, which
 * brings the contracts' results rules and with them zod (not on a first visit).
 */
export const mirrorKey = ['mirror'] as const;
