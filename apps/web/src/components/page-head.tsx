const SITE = 'Candor';
const DEFAULT_DESCRIPTION =
  'Answer the questions nobody else dares to ask, anonymously, and see where you stand against everyone else.';

/** Title, description and Open Graph tags of a page (React 19 hoists them into <head>). */
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
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      {image ? (
        <meta property="og:image" content={new URL(image, window.location.origin).href} />
      ) : null}
    </>
  );
}
