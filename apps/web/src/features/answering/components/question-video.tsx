import { lazy, Suspense } from 'react';

// The player (and the YouTube / Vimeo adapters) load only when a question has a video.
const ReactPlayer = lazy(() => import('react-player'));

const YOUTUBE_ID = /^[\w-]{11}$/;

/**
 * A YouTube link as the privacy-enhanced player's (youtube-nocookie.com): YouTube sets no cookie
 * until the person plays the video, and it is the only YouTube frame the CSP allows. Its start
 * time (`t`) is kept; other links are returned as they are.
 */
export function privacyEnhancedSrc(src: string): string {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return src;
  }
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, '');
  let id: string | null | undefined = null;
  if (host === 'youtu.be') id = /^\/([\w-]{11})\/?$/.exec(url.pathname)?.[1];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id =
      url.pathname === '/watch'
        ? url.searchParams.get('v')
        : /^\/(?:embed|shorts|live)\/([\w-]{11})\/?$/.exec(url.pathname)?.[1];
  } else return src;
  if (!id || !YOUTUBE_ID.test(id)) return src;
  const start = url.searchParams.get('t') ?? url.searchParams.get('start');
  const t = start && /^[\dhms]+$/i.test(start) ? `?t=${start}` : '';
  return `https://www.youtube-nocookie.com/embed/${id}${t}`;
}

interface Props {
  src: string;
  captions: string | null;
  title: string;
  /** It played to its end. */
  onEnded?: () => void;
  /** It started playing: `left` is how many seconds it has to go, when the player knows. */
  onPlaying?: (left: number | null) => void;
  /** It could not be loaded or played. */
  onFailed?: () => void;
}

/** A question's video: YouTube, Vimeo or a direct file, with a captions track where given. */
export function QuestionVideo({ src, captions, title, onEnded, onPlaying, onFailed }: Props) {
  return (
    <figure className="question-video">
      <Suspense fallback={<div className="question-video__placeholder" aria-busy="true" />}>
        <ReactPlayer
          src={privacyEnhancedSrc(src)}
          controls
          playsInline
          preload="metadata"
          width="100%"
          height="100%"
          aria-label={title}
          onEnded={() => onEnded?.()}
          onError={() => onFailed?.()}
          onPlay={(event) => {
            const { duration, currentTime } = event.currentTarget;
            onPlaying?.(Number.isFinite(duration) ? Math.max(0, duration - currentTime) : null);
          }}
        >
          {captions ? (
            <track kind="captions" src={captions} srcLang="en" label="English" default />
          ) : null}
        </ReactPlayer>
      </Suspense>
    </figure>
  );
}
