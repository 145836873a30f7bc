import type { QuestionResults } from '@candor/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { saveFile } from '../../lib/save-file';
import { type CardModel, canMakeCard, cardModel } from './card-model';
import { drawCard } from './draw-card';
import { ShareIcon } from './share-button';
import './share.css';

const FILE_NAME = 'candor-result.png';

interface Props {
  surveyName: string;
  question: string;
  results: QuestionResults;
  /** The person's own answer ('' when left blank), or null: it stays in the page. */
  mine: string | null;
  /** The survey's public link (its `shareable_link`). */
  url: string;
}

/** Whether this browser's share sheet takes image files. */
function canShareFile(file: File): boolean {
  const nav = navigator as Partial<Navigator>;
  return typeof nav.canShare === 'function' && typeof nav.share === 'function'
    ? nav.canShare({ files: [file] })
    : false;
}

/** The dialog's content: drawn only while the dialog is open. */
function CardMaker({
  surveyName,
  question,
  results,
  mine,
  url,
  onClose,
}: Props & { onClose: () => void }) {
  const [showMine, setShowMine] = useState(false);
  const [card, setCard] = useState<{ file: File; src: string; model: CardModel } | null>(null);
  const [failed, setFailed] = useState(false);
  const checkboxId = useId();
  const site = useMemo(() => new URL(url, window.location.origin).host, [url]);
  const model = useMemo(
    () => cardModel({ survey: surveyName, question, results, mine, showMine, site }),
    [surveyName, question, results, mine, showMine, site],
  );
  // The person's answer can go on the card only when it is one of the bars.
  const canShowMine =
    mine !== null && results.choices.some((c) => !c.is_blank && c.choice === mine);

  useEffect(() => {
    let src: string | null = null;
    let current = true;
    drawCard(model).then(
      (blob) => {
        if (!current) return;
        src = URL.createObjectURL(blob);
        setCard({ file: new File([blob], FILE_NAME, { type: 'image/png' }), src, model });
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
      if (src) URL.revokeObjectURL(src);
    };
  }, [model]);

  const shareable = card !== null && canShareFile(card.file);
  function share() {
    if (!card) return;
    navigator
      .share({
        files: [card.file],
        title: surveyName,
        text: `How people answered on Candor. Where do you stand? ${url}`,
      })
      .catch((err: unknown) => {
        // Closing the sheet is a choice; a refused share still leaves the download.
        if (!(err instanceof DOMException && err.name === 'AbortError'))
          saveFile(card.file, FILE_NAME);
      });
  }

  return (
    <>
      <div className="share-card__preview">
        {card ? (
          <img
            src={card.src}
            alt={card.model.alt}
            data-card-mine={card.model.showsMine ? 'shown' : 'hidden'}
            width={1080}
            height={1080}
          />
        ) : failed ? (
          <p className="notice">This card could not be drawn in this browser.</p>
        ) : (
          <div className="share-card__drawing" aria-busy="true" aria-label="Drawing the card" />
        )}
      </div>
      {canShowMine ? (
        <div className="share-card__option">
          <input
            id={checkboxId}
            type="checkbox"
            checked={showMine}
            onChange={(e) => setShowMine(e.target.checked)}
          />
          <label htmlFor={checkboxId}>Show my answer on the card</label>
        </div>
      ) : null}
      <p className="share-card__note">
        {showMine
          ? 'Your answer is on the card: anyone you share it with sees it.'
          : 'The card shows how everyone answered, not what you chose.'}{' '}
        It is made on this device; nothing is sent to Candor.
      </p>
      <div className="share-card__actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        {shareable ? (
          <button type="button" className="button" onClick={() => saveFile(card.file, FILE_NAME)}>
            Download
          </button>
        ) : null}
        <button
          type="button"
          className="button button--primary"
          disabled={!card}
          onClick={() => (shareable ? share() : card && saveFile(card.file, FILE_NAME))}
        >
          {shareable ? 'Share image' : 'Download image'}
        </button>
      </div>
    </>
  );
}

/**
 * "Share this result": a card image of one question's published numbers, drawn in the browser,
 * to share through the phone's share sheet or download. It leaves out the person's own answer
 * unless they tick "Show my answer on the card".
 */
export function ShareResult(props: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  if (!canMakeCard(props.results)) return null;
  return (
    <div className="share-result">
      <button
        type="button"
        className="button share-button"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        <ShareIcon />
        Share this result
        <span className="visually-hidden">: {props.question}</span>
      </button>
      <dialog
        ref={dialog}
        className="confirm share-card"
        aria-labelledby={titleId}
        onClose={() => setOpen(false)}
      >
        <h2 id={titleId} className="confirm__title">
          Share this result
        </h2>
        {open ? <CardMaker {...props} onClose={() => dialog.current?.close()} /> : null}
      </dialog>
    </div>
  );
}
