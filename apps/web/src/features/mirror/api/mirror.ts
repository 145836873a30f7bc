import type { MyData } from '@candor/contracts';
import { apiPost, apiRequest } from '../../../lib/api-client';
import { mirrorQuery } from '../../../lib/mirror-query';
import { saveFile } from '../../../lib/save-file';

export const mirrorQueries = {
  /** Every question the member answered, their answer against everyone's, newest first. */
  mirror: mirrorQuery,
};

/** The file name of the export, as the privacy page and the button promise. */
export const EXPORT_FILE_NAME = 'candor-my-data.json';

/** Fetches everything stored about the member and saves it as a JSON file in the browser. */
export async function downloadMyData(): Promise<void> {
  const data = await apiRequest<MyData>('/v1/user/export/');
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  saveFile(blob, EXPORT_FILE_NAME);
}

/** Erases the member's account; the password confirms that its owner asks (400 when wrong). */
export async function deleteAccount(password: string): Promise<void> {
  await apiPost<unknown>('/v1/user/delete/', { password });
}
