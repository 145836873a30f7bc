/** What this person answered to one question: the choice or text, or a deliberate blank. */
export interface Mine {
  answer: string;
  isBlank: boolean;
  /**
   * The day the API recorded it (a member's, from their attempted questions): after a reload
   * the page no longer knows when it was sent, and judges by the day as the mirror does.
   */
  day?: string;
}
