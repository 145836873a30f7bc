/** What this person answered to one question: the choice or text, or a deliberate blank. */
export interface Mine {
  answer: string;
  isBlank: boolean;
}
