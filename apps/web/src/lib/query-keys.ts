/**
 * Query-key prefixes that more than one feature needs. Features never import each other, so a
 * key one feature reads and another invalidates lives here, once.
 */

/** Every public survey read (home page bricks, survey screens). */
export const publicSurveysKey = ['surveys'] as const;
