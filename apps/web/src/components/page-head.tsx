import { useEffect } from 'react';

const SITE = 'Candor';
const DEFAULT_DESCRIPTION =
  'Answer the questions nobody else dares to ask, anonymously, and see where you stand against everyone else.';

/** Sets `<meta {attribute}="{key}" content>` in <head>, reusing the server's tag (or removing it). */
function setMeta(attribute: 'name' | 'property', key: string, content: string | null) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (content === null) {
    tag?.remove();
    return;
  }
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.append(tag);
  }
  tag.content = content;
}

/**
 * Title, description and Open Graph tags of a page. The server drew the first page's tags into
 * the HTML (crawlers read those); on each page the app shows, these same tags are updated in
 * place, one of each, never a second copy beside the server's.
 */
export function PageHead({
  title,
  description = DEFAULT_DESCRIPTION,
  image,
}: {
  title?: string;
  description?: string;
  image?: string | null;
}) {
  const fullTitle = title ? `${title} · ${SITE}` : `${SITE}: tough questions, honest answers`;
  const imageUrl = image ? new URL(image, window.location.origin).href : null;
  useEffect(() => {
    document.title = fullTitle;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', fullTitle);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:image', imageUrl);
  }, [fullTitle, description, imageUrl]);
  return null;
}
