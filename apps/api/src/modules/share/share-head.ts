import type { SurveyDetail } from '@candor/contracts';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH } from './share-image.js';
import { escapeHtml } from '../../plugins/web-page.js';

const SITE = 'Candor';

/** The path of a survey's share image; `?v=` changes with what the image shows. */
export const shareImagePath = (gid: string, version: string) =>
  `/api/v1/surveys/${gid}/share-image.png?v=${version}`;

/** The page's description, as the survey intro's own head says it. */
export function descriptionOf(survey: SurveyDetail): string {
  const count = `${survey.questions_count} ${survey.questions_count === 1 ? 'question' : 'questions'}`;
  const what =
    survey.status === 'Closed'
      ? `${count} on Candor: closed, see how people answered.`
      : `${count} on Candor. Answer anonymously and see where you stand.`;
  return survey.cover_headline.trim() ? `${survey.cover_headline.trim()} ${what}` : what;
}

/**
 * The head tags of a survey's page for link previews (Open Graph, X/Twitter cards), every value
 * escaped: the title, description and image alt are staff-written text.
 */
export function surveyHeadTags(
  survey: SurveyDetail,
  { origin, imageVersion }: { origin: string; imageVersion: string },
): string {
  const title = `${survey.name} · ${SITE}`;
  const description = descriptionOf(survey);
  const image = `${origin}${shareImagePath(survey.gid, imageVersion)}`;
  const alt = `${survey.name}: ${survey.questions_count} questions on ${SITE}`;
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}" />`;
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', survey.shareable_link),
    meta('property', 'og:image', image),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(SHARE_IMAGE_WIDTH)),
    meta('property', 'og:image:height', String(SHARE_IMAGE_HEIGHT)),
    meta('property', 'og:image:alt', alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    meta('name', 'twitter:image:alt', alt),
    `<link rel="canonical" href="${escapeHtml(survey.shareable_link)}" />`,
  ].join('\n    ');
}

// The page's own generic tags that a survey's tags replace (og:site_name and the rest stay).
const REPLACED = [
  /<title>[\s\S]*?<\/title>\s*/gi,
  /<meta\s[^>]*?(?:name|property)="(?:description|og:(?:type|title|description|url|image[:\w]*)|twitter:[:\w]+)"[^>]*>\s*/gi,
  /<link\s[^>]*?rel="canonical"[^>]*>\s*/gi,
];

/** index.html with its generic title, description and preview tags replaced by `tags`. */
export function withHeadTags(html: string, tags: string): string {
  const end = html.search(/<\/head>/i);
  if (end < 0) return html;
  let head = html.slice(0, end);
  for (const pattern of REPLACED) head = head.replace(pattern, '');
  return `${head.trimEnd()}\n    ${tags}\n  ${html.slice(end)}`;
}
