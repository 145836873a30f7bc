import {
  LEAVE_BLANK_CHOICE,
  paceOf,
  readingFloorMs,
  takeYourTime,
  type PacedAnswer,
  type QuestionResults,
  type SurveyDetail,
} from '@candor/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { closedToMeOnDevice, useLocalAnswers } from '../../../lib/local-answers';
import {
  clearSurveyPosition,
  readPairArms,
  readSurveyPosition,
  savePairArms,
  saveSurveyPosition,
} from '../../../lib/survey-storage';
import { answeringQueries } from '../api/answers';
import {
  answersSentThisPage,
  localAnswers,
  onOutbox,
  recordAnswer,
  recordRating,
  setOutboxOwner,
} from '../api/outbox';
import { ranOutQid } from '../lib/deadline';
import { useEnterToGoOn } from '../lib/keys';
import { choiceToSend } from '../lib/randomized-response';
import {
  asksRating,
  instantFeedback,
  makeShuffle,
  nextStep,
  resumeStep,
  revisit,
  shuffleFits,
  inPersonsOrder,
  withOrder,
  withArms,
  askedQuestions,
  type FlowContext,
  type Shuffle,
  type Step,
} from '../lib/flow';
import { useSurveyStore } from '../stores/survey-store';
import type { Mine } from '../types';
import { FeedbackScreen } from './feedback-screen';
import { QuestionScreen, type AnswerInput } from './question-screen';
import { ResultsScreen } from './results-screen';
import type { Panel } from '../api/panel';
import { SurveyOutro } from './survey-outro';
import { VisitorGate } from './visitor-gate';
// The open answer's text box and the outro's share link are the shared form inputs: their
// sheet comes with the flow, not only with the account screens.
import '../../../components/form.css';
import { errorToast } from '../../../lib/toasts';
import '../styles/answering.css';

interface Props {
  survey: SurveyDetail;
  /** The logged-in member, or null for a visitor. */
  member: { uuid: string } | null;
  panel: Panel | null;
  /**
   * Shown until the person starts: the intro, given a start callback and their progress (null
   * while this browser's records are still being read: the start waits for them).
   */
  renderIntro: (
    start: () => void,
    progress: { answered: number; total: number } | null,
  ) => React.ReactNode;
}

function loadShuffle(survey: SurveyDetail): Shuffle {
  const saved = readSurveyPosition().currentShuffle as Shuffle | null;
  const fits = shuffleFits(saved, survey.gid, survey.questions);
  const drawn = fits ? saved! : makeShuffle(survey.gid, survey.questions);
  // A choice added since redraws the choice orders, never this person's order of the questions
  // (nor where their ratings fall): a reload keeps asking in the order they began.
  const same = saved?.gid === survey.gid;
  const base: Shuffle = {
    ...drawn,
    ...(same && Array.isArray(saved.order) ? { order: saved.order } : {}),
    ...(same && saved.rateAt !== undefined ? { rateAt: saved.rateAt } : {}),
  };
  // The pairs' arms drawn before stand, whatever became of the saved place (decision 029).
  const kept = readPairArms();
  const mine = Object.fromEntries(
    survey.questions.flatMap((q) => (kept[q.qid] ? [[q.qid, kept[q.qid]!] as const] : [])),
  );
  const shuffle = withOrder(
    withArms({ ...base, arms: { ...base.arms, ...mine } }, survey.questions),
    survey.questions,
  );
  savePairArms(shuffle.arms ?? {});
  return shuffle;
}

/** The whole answering flow of one survey: intro, questions, feedback, graphs and outro. */
export function SurveyFlow({ survey, member, panel, renderIntro }: Props) {
  const gid = survey.gid;
  const queryClient = useQueryClient();
  const loadQuestions = useSurveyStore((s) => s.loadQuestions);
  const appendAnswered = useSurveyStore((s) => s.appendAnswered);
  const setAttempted = useSurveyStore((s) => s.setAttempted);
  const allQuestions = useSurveyStore((s) =>
    s.firstSurveyGID === gid ? s.openVideoSurveyQuestions : survey.questions,
  );
  useEffect(() => loadQuestions(gid, survey.questions), [gid, survey.questions, loadQuestions]);

  const [shuffle] = useState(() => loadShuffle(survey));
  // This browser's records, with what they were read for (survey, person, local version):
  // records read for another are as good as none until read again.
  const [loaded, setLoaded] = useState<{ whose: string; rows: Map<string, Mine> } | null>(null);
  // A survey whose answers the member withdrew, or answered before credentials, takes no more
  // from them (decision 020).
  const closedToMe = useQuery({
    queryKey: [...answeringQueries.all(), 'closed-to-me', gid, member?.uuid ?? ''] as const,
    queryFn: () => closedToMeOnDevice(gid),
    enabled: member !== null,
  });
  const [results, setResults] = useState<Record<string, QuestionResults>>({});
  // When each answer of this page was given or sent (ms): results older than it do not hold
  // it yet. A visitor's answers are sent when they sign up, before this flow opens again.
  const [answeredAt, setAnsweredAt] = useState<Record<string, number>>(() =>
    answersSentThisPage(survey.gid),
  );
  // Answers this page saw the API take (its reply, or the outbox's since): only those are said
  // to be "in" before a first graph; one the outbox dropped or still holds never is.
  const [sentQids, setSentQids] = useState<ReadonlySet<string>>(
    () => new Set(Object.keys(answersSentThisPage(survey.gid))),
  );
  // Moves whenever this survey's outbox sends or drops an answer (what waits is read again).
  const [outboxMoves, setOutboxMoves] = useState(0);
  useEffect(
    () =>
      onOutbox((event) => {
        if (event.type === 'dropped' && event.item.gid === gid) setOutboxMoves((n) => n + 1);
        if (event.type !== 'sent' || event.item.kind !== 'answer' || event.item.gid !== gid) return;
        const { qid } = event.item;
        setAnsweredAt((t) => (qid in t ? t : { ...t, [qid]: Date.now() }));
        setSentQids((s) => new Set(s).add(qid));
        setOutboxMoves((n) => n + 1);
      }),
    [gid],
  );
  const [ratings, setRatings] = useState<Record<string, number>>({});
  const [offlineQids, setOfflineQids] = useState<ReadonlySet<string>>(new Set());
  // Each screen of the survey is also an entry of the browser's history (issue 30, point 8),
  // holding its step: Back steps to the previous screen, and leaving the survey is a Back from
  // its intro or a link. The screen is this state; the entries mirror it, and Back or Forward
  // set it from the entry (as it stands now: `revisit`).
  const location = useLocation();
  const navigate = useNavigate();
  const { pathname, search, hash } = location;
  // The same URL (never the location itself, whose key would be reused for the new entry).
  const here = useMemo(() => ({ pathname, search, hash }), [pathname, search, hash]);
  const [chosen, setStep] = useState<Step | null>(null);
  const [busy, setBusy] = useState(false);
  // Questions whose time ran out (a reload remembers the last one through its stored deadline).
  const [timedOut, setTimedOut] = useState<ReadonlySet<string>>(() => {
    const qid = ranOutQid();
    return new Set(qid ? [qid] : []);
  });

  // Answers given here before a login wait for the person to say whether they are theirs (the
  // claim question, issue 28); after that, or a "not my device", this browser's records are
  // read again.
  const claimPending = useLocalAnswers((s) => member !== null && s.offered > 0);
  const localVersion = useLocalAnswers((s) => s.version);
  const whose = `${gid} ${member?.uuid ?? ''}`;
  // While a change is read again (another tab's answer, the vault's sync) the rows read for
  // this survey and person stand: the screen does not fall back to waiting under the person.
  const local = loaded?.whose === whose ? loaded.rows : null;
  const setLocal = (update: (rows: Map<string, Mine>) => Map<string, Mine>) =>
    setLoaded((l) => (l?.whose === whose ? { whose, rows: update(l.rows) } : l));

  // What this person answered: this browser's records alone (decision 020). Their answers carry
  // no account, and those given as the member before credentials were copied here before the
  // records were read. The day a member's was given says whether a release holds it.
  const memberUuid = member?.uuid ?? null;
  useEffect(() => {
    let live = true;
    // The owner first: the app wires the outbox to the session too, but maybe not yet.
    void setOutboxOwner(memberUuid)
      .then(() => localAnswers(gid))
      .then((rows) => {
        if (!live) return;
        const read = [...rows].map(([qid, r]): [string, Mine] => [
          qid,
          { answer: r.answer, isBlank: r.isBlank, ...(memberUuid && { day: r.date }) },
        ]);
        setLoaded({ whose, rows: new Map(read) });
      })
      .catch(() => live && setLoaded({ whose, rows: new Map() }));
    return () => {
      live = false;
    };
  }, [gid, memberUuid, whose, localVersion]);
  const mine = useMemo(() => local ?? new Map<string, Mine>(), [local]);
  // One question of each honesty-gap pair (decision 029): the other is neither asked nor
  // counted in this person's progress. In this person's own order where the survey shuffles its
  // questions.
  const asked = useMemo(
    () => askedQuestions(allQuestions, shuffle.arms, new Set(mine.keys())),
    [allQuestions, shuffle.arms, mine],
  );
  const questions = useMemo(
    () => (survey.randomise_questions ? inPersonsOrder(asked, shuffle.order) : asked),
    [asked, shuffle.order, survey.randomise_questions],
  );
  useEffect(() => {
    setAttempted(
      [...mine].map(([qid, m]) => ({
        qid,
        gid,
        answer: m.answer,
        is_blank: m.isBlank,
        date: m.day ?? '',
      })),
    );
  }, [mine, gid, setAttempted]);

  const ctx: FlowContext = useMemo(
    () => ({
      questions,
      variant: survey.variant,
      answered: new Set(mine.keys()),
      visitorLimit: member ? null : survey.visitor_questions,
    }),
    [questions, survey.variant, survey.visitor_questions, mine, member],
  );
  const ready = local !== null && !claimPending;

  // Where to start, until the person acts: a survey they finished reopens on its results;
  // else the saved position (a reload, or the return from signing up), else the intro.
  const step = useMemo((): Step | null => {
    if (chosen) return chosen;
    if (!ready) return null;
    if (ctx.questions.length > 0 && ctx.questions.every((q) => ctx.answered.has(q.qid))) {
      return { kind: 'results' };
    }
    const saved = readSurveyPosition();
    return saved.surveyId === gid && survey.status === 'Open'
      ? resumeStep(ctx, saved.activeQuestion)
      : { kind: 'intro' };
  }, [chosen, ready, ctx, gid, survey.status]);

  // Keep the position and the shuffle so a reload lands on the same screen in the same order.
  useEffect(() => {
    if (!step || step.kind === 'intro') return;
    if (step.kind === 'outro' && !member) {
      // A visitor may sign up from the outro to count their answers: the saved survey and
      // question bring the signup back here (spec section 4), to their last answer's graph.
      const last = [...questions].reverse().find((q) => mine.has(q.qid));
      saveSurveyPosition({
        surveyId: gid,
        activeQuestion: last?.qid ?? null,
        currentShuffle: shuffle,
      });
      return;
    }
    if (step.kind === 'outro' || step.kind === 'results') {
      // The end: nothing to come back to but the results (another survey's place is kept).
      if (readSurveyPosition().surveyId === gid) clearSurveyPosition();
      return;
    }
    const active =
      'index' in step ? (questions[step.index]?.qid ?? null) : readSurveyPosition().activeQuestion;
    saveSurveyPosition({ surveyId: gid, activeQuestion: active, currentShuffle: shuffle });
  }, [step, gid, questions, shuffle, member, mine]);

  // How long answering took, measured here and sent with the answer (a duration, never a time
  // of day): the spec's timing calls would tie the account to each question it answered, which
  // an answer sent with an anonymous credential must not (decision 020).
  const shownAt = useRef<{ qid: string; at: number } | null>(null);
  useEffect(() => {
    if (step?.kind !== 'question') return;
    const qid = questions[step.index]?.qid;
    if (qid) shownAt.current = { qid, at: performance.now() };
  }, [step, questions]);
  const durationOf = (qid: string) =>
    shownAt.current?.qid === qid ? Math.round(performance.now() - shownAt.current.at) : undefined;

  // The pace of this visit's answers (issue 29, point 5), kept in memory only: someone who
  // rushes or straight-lines is told once, on the next question shown (whichever the flow goes
  // to), to take their time.
  const paced = useRef<PacedAnswer[]>([]);
  const [slowDown, setSlowDown] = useState<
    { after: number; on?: undefined } | { after?: undefined; on: number } | null
  >(null);
  const notePace = (index: number, input: AnswerInput, ms: number | undefined) => {
    const question = questions[index];
    if (!question) return;
    const shown = shuffle.choices[question.qid] ?? question.choices;
    paced.current.push({
      ms,
      floorMs: readingFloorMs(question),
      position: input.position ?? null,
      choices: shown.filter((c) => c !== LEAVE_BLANK_CHOICE).length,
      blank: input.isBlank,
      timedOut: input.timedOut === true,
    });
    if (slowDown === null && takeYourTime(paceOf(paced.current))) setSlowDown({ after: index });
  };

  // After Start, an answer or Next, focus moves to the new screen's heading: a screen reader
  // announces the new question, and Tab goes on from the top of the screen. A written answer's
  // box takes it instead, so typing starts at once (the box is described by the question).
  const flowRef = useRef<HTMLDivElement>(null);
  const [moves, setMoves] = useState(0);
  useEffect(() => {
    if (moves === 0) return;
    const box = flowRef.current?.querySelector<HTMLTextAreaElement>('textarea:not([disabled])');
    if (box) {
      box.focus({ preventScroll: true });
      return;
    }
    const heading = flowRef.current?.querySelector<HTMLElement>('h1');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }, [moves]);

  const go = (next: Step) => {
    setMoves((n) => n + 1);
    setStep(next);
    // A kind word that is due goes on the next question the person is taken to.
    if (
      next.kind === 'question' &&
      slowDown?.after !== undefined &&
      next.index !== slowDown.after
    ) {
      setSlowDown({ on: next.index });
    }
    window.scrollTo({ top: 0 });
    // An answered question's entry becomes its feedback's: Back then skips the question (it is
    // answered once) to the screen before it.
    const replace = step?.kind === 'question' && next.kind === 'feedback';
    void navigate(here, { replace, state: { surveyStep: next } });
  };
  // The first screen shown is written into the entry the page opened on, so Back returns to it.
  const entered = useRef(false);
  useEffect(() => {
    if (!step || entered.current) return;
    entered.current = true;
    void navigate(here, { replace: true, state: { surveyStep: step } });
  }, [step, here, navigate]);
  // Back and Forward: the entry's step (react-router keeps an entry's state under `usr`).
  const ctxRef = useRef(ctx);
  useEffect(() => {
    ctxRef.current = ctx;
  }, [ctx]);
  useEffect(() => {
    const onPop = () => {
      const entry = (window.history.state as { usr?: { surveyStep?: Step } } | null)?.usr;
      if (!entry?.surveyStep) return;
      setMoves((n) => n + 1);
      setStep(revisit(entry.surveyStep, ctxRef.current));
      window.scrollTo({ top: 0 });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  /**
   * Whether an answer's feedback shows its graph, with `answered` questions answered: always
   * where the survey shows graphs right away (v1); elsewhere, for a visitor, after their last
   * free question, so they see what answering gives before the sign-up wall (issue 30, point 2).
   */
  const graphAfter = (answered: number) =>
    instantFeedback(survey.variant) ||
    (member === null &&
      survey.visitor_questions < questions.length &&
      answered >= survey.visitor_questions);

  /** Records an answer; true once it is kept (the question screen then goes on). */
  const answer = async (index: number, input: AnswerInput): Promise<boolean> => {
    const question = questions[index];
    if (!question) return false;
    setBusy(true);
    const duration_ms = durationOf(question.qid);
    try {
      const { response } = await recordAnswer({
        qid: question.qid,
        gid,
        body: {
          ...(input.choice !== undefined
            ? { choice: choiceToSend(question, input.choice) }
            : { text: input.text ?? '' }),
          ...(duration_ms !== undefined && { duration_ms }),
        },
        answer: input.answer,
        isBlank: input.isBlank,
      });
      const given = { answer: input.answer, isBlank: input.isBlank };
      setLocal((m) => new Map(m).set(question.qid, given));
      if (input.timedOut) setTimedOut((t) => new Set(t).add(question.qid));
      notePace(index, input, duration_ms);
      setAnsweredAt((t) => ({ ...t, [question.qid]: Date.now() }));
      appendAnswered({ qid: question.qid, gid, date: '', owner: '', ...given });
      if (response?.results) {
        const fresh = response.results;
        setResults((r) => ({ ...r, [question.qid]: fresh }));
      }
      if (member && !response) setOfflineQids((s) => new Set(s).add(question.qid));
      if (response) setSentQids((s) => new Set(s).add(question.qid));
      if (!member && graphAfter(mine.size + (mine.has(question.qid) ? 0 : 1))) {
        // A visitor's answer stays here; their graph is the published one, fetched before the
        // feedback screen (as a member's comes with the answer) so that it does not arrive
        // later and push the rating away from a finger. A slow network waits at most 2 s.
        await Promise.race([
          queryClient.query(answeringQueries.results(question.qid)).catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, 2000)),
        ]);
      }
      return true;
    } catch {
      errorToast('Your answer could not be saved on this device.', {
        description: 'Check that your browser allows this site to store data, then try again.',
      });
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** Leaves the feedback of question `index` with its rating, if the person gave one. */
  const leaveFeedback = (index: number, score: number | null) => {
    const question = questions[index];
    if (!question) return;
    if (score !== null) void recordRating({ qid: question.qid, gid, score });
    go(nextStep({ kind: 'feedback', index }, ctx));
  };

  // The intro's start: Enter starts too (or continues, or opens a closed survey's results).
  const start = () =>
    go(survey.status === 'Closed' ? { kind: 'results' } : nextStep({ kind: 'intro' }, ctx));
  const introRef = useRef<HTMLDivElement>(null);
  useEnterToGoOn(introRef, start, step?.kind === 'intro');

  if (closedToMe.data) {
    const withdrew = closedToMe.data === 'withdrawn';
    return (
      <div className="flow-intro">
        <section className="flow-withdrawn" aria-labelledby="flow-withdrawn-title">
          <h1 id="flow-withdrawn-title">
            {withdrew
              ? `You withdrew your answers to ${survey.name}`
              : `You began ${survey.name} before answers became anonymous`}
          </h1>
          {withdrew ? (
            <p>
              They were deleted from Candor and leave its results at their next update. This survey
              takes no more answers from you.
            </p>
          ) : (
            <p>
              Your answers from then still count, and <Link to="/me">your mirror</Link> shows them.
              To keep them apart from your account, this survey takes no more answers from you.
            </p>
          )}
          <Link to="/" className="button button--primary">
            Find another survey
          </Link>
        </section>
      </div>
    );
  }

  if (!ready || !step) {
    // Until this browser's records are read, a person with no saved place in this survey (a
    // first visit from a link, nearly always) sees its intro at once, its start waiting: the
    // intro's picture is the page's largest, and it need not wait for the records' database.
    const saved = readSurveyPosition();
    if (!chosen && !(saved.surveyId === gid && survey.status === 'Open')) {
      return (
        <div className="flow-intro" ref={introRef}>
          {renderIntro(start, null)}
        </div>
      );
    }
    return <div className="flow flow--loading" aria-busy="true" aria-label="Loading survey" />;
  }

  switch (step.kind) {
    case 'intro':
      return (
        <div className="flow-intro" ref={introRef}>
          {renderIntro(start, { answered: mine.size, total: questions.length })}
        </div>
      );
    case 'question': {
      const question = questions[step.index];
      if (!question) return null;
      return (
        <div className={`flow${question.video_link_1 ? ' flow--video' : ''}`} ref={flowRef}>
          <QuestionScreen
            key={question.qid}
            question={question}
            choices={shuffle.choices[question.qid] ?? question.choices}
            number={step.index + 1}
            total={questions.length}
            busy={busy}
            takeYourTime={slowDown?.on === step.index}
            onAnswer={(input) => answer(step.index, input)}
            onNext={() => go({ kind: 'feedback', index: step.index })}
          />
        </div>
      );
    }
    case 'feedback': {
      const question = questions[step.index];
      if (!question) return null;
      return (
        <div className="flow" ref={flowRef}>
          <FeedbackScreen
            key={question.qid}
            question={question}
            number={step.index + 1}
            total={questions.length}
            mine={mine.get(question.qid) ?? null}
            timedOut={timedOut.has(question.qid)}
            results={results[question.qid] ?? null}
            answeredAt={answeredAt[question.qid] ?? null}
            withGraph={graphAfter(mine.size)}
            member={member !== null}
            offline={offlineQids.has(question.qid)}
            sent={sentQids.has(question.qid)}
            visitorLeft={member ? null : Math.max(0, survey.visitor_questions - mine.size)}
            askRating={asksRating(shuffle, step.index)}
            rating={ratings[question.qid] ?? null}
            onRate={(score) => setRatings((r) => ({ ...r, [question.qid]: score }))}
            onNext={(score) => leaveFeedback(step.index, score)}
            share={{ surveyName: survey.name, url: survey.shareable_link }}
          />
        </div>
      );
    }
    case 'gate':
      return (
        <div className="flow" ref={flowRef}>
          <VisitorGate answered={mine.size} total={questions.length} />
        </div>
      );
    case 'results':
      return (
        <div className="flow flow--wide" ref={flowRef}>
          <ResultsScreen
            survey={survey}
            // The survey's own order: the same list for everyone, at every visit.
            questions={asked}
            mine={mine}
            member={member !== null}
            answeredAt={answeredAt}
            sentQids={sentQids}
            outboxMoves={outboxMoves}
            // A visitor too: their answers are in this browser, the results are published ones.
            canSee={(qid) => survey.status === 'Closed' || mine.has(qid)}
            onNext={() => go({ kind: 'outro' })}
          />
        </div>
      );
    case 'outro':
      return (
        <div className="flow flow--wide" ref={flowRef}>
          <SurveyOutro
            survey={survey}
            questions={asked}
            mine={mine}
            member={member !== null}
            panel={panel}
            answeredAt={answeredAt}
          />
        </div>
      );
  }
}
