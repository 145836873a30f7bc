import { lazy, Suspense } from 'react';

// The player (and the YouTube / Vimeo adapters) load only when a question has a video.
const ReactPlayer = lazy(() => import('react-player'));

interface Props {
  src: string;
  captions: string | null;
  title: string;
}

/** A question's video: YouTube, Vimeo or a direct file, with a captions track where given. */
export function QuestionVideo({ src, captions, title }: Props) {
  return (
    <figure className="question-video">
      <Suspense fallback={<div className="question-video__placeholder" aria-busy="true" />}>
        <ReactPlayer
          src={src}
          controls
          playsInline
          preload="metadata"
          width="100%"
          height="100%"
          aria-label={title}
        >
          {captions ? (
            <track kind="captions" src={captions} srcLang="en" label="English" default />
          ) : null}
        </ReactPlayer>
      </Suspense>
    </figure>
  );
}
