// Plain constants of the contract, with no schema library behind them: screens of a first visit
// can import them without loading zod.

/** The label of the choice every closed question carries for "I'd rather not answer". */
export const LEAVE_BLANK_CHOICE = 'Leave blank';
/** Longest open answer any question may allow; a question's own `max_length` may be lower. */
export const OPEN_ANSWER_MAX_LENGTH = 2000;
/** Questions a visitor may answer before being asked to sign up (the API's default). */
export const VISITOR_FREE_QUESTIONS = 3;
export const RATING_MIN = 0;
export const RATING_MAX = 10;
/** No published number of the results describes fewer than this many people. */
export const MIN_PUBLISHED_COUNT = 10;
