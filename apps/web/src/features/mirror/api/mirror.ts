import type { MyData } from '@candor/contracts';
import { apiPost, apiRequest } from '../../../lib/api-client';
import { secretsFor } from '../../../lib/password-secrets';
import { type OwnProfile, ownAnswersOnDevice, profileOnDevice } from '../../../lib/local-answers';
import { mirrorQuery, namedOwnAnswers } from '../../../lib/mirror-query';
import { saveFile } from '../../../lib/save-file';

export const mirrorQueries = {
  /** Every question the member answered, their answer against everyone's, newest first. */
  mirror: mirrorQuery,
};

/** The file name of the export, as the privacy page and the button promise. */
export const EXPORT_FILE_NAME = 'candor-my-data.json';

/** The export as saved: the API's, with the answers and ratings only this device holds. */
export type MyDataFile = MyData & {
  kept_on_your_devices: string;
  /** Gender, year of birth and country as this device keeps them (never beside the account). */
  profile_on_your_devices: OwnProfile | null;
};

/**
 * Everything stored about the member: what the API holds of the account, and the answers and
 * ratings given with anonymous credentials (decision 020), which the API cannot tell are theirs
 * and which only their devices and vault hold. Each answer appears once.
 */
export async function myData(): Promise<MyDataFile> {
  const [data, own, profile] = await Promise.all([
    apiRequest<MyData>('/v1/user/export/'),
    ownAnswersOnDevice(),
    profileOnDevice(),
  ]);
  const answered = new Set(data.answers.map((a) => a.qid));
  const rated = new Set(data.ratings.map((r) => r.qid));
  const named = await namedOwnAnswers(own.filter((a) => !answered.has(a.qid)));
  for (const { own: a, survey, question } of named) {
    data.answers.push({
      qid: a.qid,
      question: question.question,
      gid: a.gid,
      survey: survey.name,
      answer: a.answer,
      is_blank: a.isBlank,
      date: a.date,
      moderation: null,
      idempotency_key: null,
    });
  }
  for (const a of own) {
    if (a.rating !== undefined && !rated.has(a.qid))
      data.ratings.push({ qid: a.qid, score: a.rating });
  }
  data.answers.sort((x, y) => y.date.localeCompare(x.date));
  return {
    ...data,
    kept_on_your_devices:
      'Answers and ratings given with an anonymous answer credential, and your year of birth and ' +
      'gender, are kept on your devices and in your encrypted vault only: Candor stores the ' +
      'answers without anything that says they are yours, and never stores the rest.',
    profile_on_your_devices: profile,
  };
}

/** Saves everything stored about the member as a JSON file in the browser. */
export async function downloadMyData(): Promise<void> {
  const data = await myData();
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  saveFile(blob, EXPORT_FILE_NAME);
}

/**
 * Erases the member's account; the password confirms that its owner asks (400 when wrong). The
 * API gets its login secret, made here for the account's number (decision 020).
 */
export async function deleteAccount(password: string, phone: string): Promise<void> {
  const { login } = await secretsFor(password, phone);
  await apiPost<unknown>('/v1/user/delete/', { password: login });
}
