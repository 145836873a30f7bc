import { PageHead } from '../../components/page-head';
import { StatusMessage } from '../../components/status';
import { useSurveyList } from '../../features/surveys/api/surveys';
import { BrickNavigation } from '../../features/surveys/components/brick-navigation';
import { SellingPoints } from '../../features/surveys/components/selling-points';

export function HomeRoute() {
  const surveys = useSurveyList();
  return (
    <>
      <PageHead />
      <section className="hero">
        <p className="hero__eyebrow">Tough questions. Honest answers.</p>
        <h1>The questions nobody else dares to ask.</h1>
        <p className="hero__lead">
          Answer anonymously, then see where you stand against everyone else. Every signup is a
          verified human, so the numbers mean something.
        </p>
      </section>
      {surveys.isPending ? (
        <div className="bricks bricks--loading" aria-busy="true" aria-label="Loading surveys">
          {Array.from({ length: 6 }, (_, i) => (
            <div
              key={i}
              className={`brick-skeleton brick-skeleton--${i === 0 ? 'large' : 'small'}`}
            />
          ))}
        </div>
      ) : surveys.isError ? (
        <StatusMessage
          title="We could not load the surveys"
          action={
            <button type="button" className="button" onClick={() => void surveys.refetch()}>
              Try again
            </button>
          }
        >
          <p>{surveys.error.message}</p>
        </StatusMessage>
      ) : (
        <BrickNavigation surveys={surveys.data.results} />
      )}
      <SellingPoints />
    </>
  );
}
