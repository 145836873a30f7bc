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

/**
 * The survey list the home page shows, as the web app asks for it (under `/api`). The server
 * embeds this very answer in the home page's HTML so the list paints before the scripts run.
 */
export const HOME_SURVEY_LIST_PATH = '/v1/surveys/open-closed-random-video-surveys?page_size=100';
/**
 * The id of a page's JSON data block (`<script type="application/json">`): API answers the
 * server embedded, `{ "at": epoch ms, "responses": { "<path under /api>": answer } }`.
 */
export const PAGE_DATA_ID = 'candor-data';
