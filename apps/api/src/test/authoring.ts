import type { SurveyInput } from '@candor/contracts';

/** A draft survey's content for the admin API, released a minute ago; `extra` overrides. */
export const surveyBody = (extra: Partial<SurveyInput> = {}): SurveyInput => ({
  name: 'Money talk',
  author: 'Candor team',
  cover_headline: 'What do you really earn?',
  intro_screen_text: 'Four honest questions about money.',
  outro_screen_text: 'Thank you for your honesty.',
  variant: 'v1_large',
  release_date: new Date(Date.now() - 60_000).toISOString(),
  ...extra,
});
