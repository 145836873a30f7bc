import { type AdminSurvey, AdminSurveySchema, type SurveyInput } from '@candor/contracts';
import type { App } from '../app.js';
import { post } from './accounts.js';

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

/**
 * A survey of one closed question made through the admin API (a draft, or published when
 * `publish`), as the admin with `token`; throws on any refusal, with the API's reply.
 */
export async function surveyWithQuestion(
  app: App,
  token: string,
  body: SurveyInput,
  { publish }: { publish: boolean },
): Promise<AdminSurvey> {
  const ok = async (url: string, payload: unknown, status: number) => {
    const res = await post(app, `/api/v1/admin${url}`, payload, { token });
    if (res.statusCode !== status) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return AdminSurveySchema.parse(res.json());
  };
  const { gid } = await ok('/surveys/', body, 201);
  const question = {
    type: 'Closed',
    question: 'Have you ever hidden a debt?',
    choices: ['Yes', 'No'],
  };
  const made = await ok(`/surveys/${gid}/questions/`, question, 201);
  return publish ? ok(`/surveys/${gid}/publish/`, {}, 200) : made;
}
