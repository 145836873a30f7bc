import type { SurveySummary } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { adminQueries, downloadPanelCompletions } from '../../api/admin';
import { actionErrorText } from '../../lib/wording';
import { ListError, ListLoading } from '../list-states';

/**
 * Research-panel completions of a survey: how many each panel's participants completed, and the
 * CSV (panel, completion code, day) to settle with the panel. No answers in either, and no time
 * of day: Candor keeps the day of a completion only (decision 021).
 */
export function PanelCompletions({ survey }: { survey: SurveySummary }) {
  const counts = useQuery(adminQueries.panelCompletions(survey.gid));
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadPanelCompletions(survey.gid);
    } catch (err) {
      toast.error(
        actionErrorText(
          err,
          `The panel completions of “${survey.name}” could not be downloaded. Try again in a moment.`,
        ),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel-completions" aria-labelledby="panel-completions-title">
      <h2 id="panel-completions-title" className="results-admin__question">
        Panel completions
      </h2>
      {counts.isError ? (
        <ListError what="The panel completions" onRetry={() => void counts.refetch()} />
      ) : !counts.data ? (
        <ListLoading label="Loading the panel completions" />
      ) : counts.data.panels.length === 0 ? (
        <p className="field__hint">
          Nobody has completed this survey from a research panel link yet.
        </p>
      ) : (
        <>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Panel</th>
                <th scope="col">Completions</th>
                <th scope="col">Last completion (day)</th>
              </tr>
            </thead>
            <tbody>
              {counts.data.panels.map((p) => (
                <tr key={p.panel}>
                  <td>{p.panel}</td>
                  <td>{p.completions}</td>
                  <td>
                    {/* Midnight UTC stands for the day: shown in UTC, or it moves a day west. */}
                    {new Date(p.last_completed_at).toLocaleDateString(undefined, {
                      timeZone: 'UTC',
                    })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button
            type="button"
            className="button"
            disabled={busy}
            aria-busy={busy}
            onClick={() => void download()}
          >
            {busy ? 'Preparing…' : 'Download completions CSV'}
          </button>
        </>
      )}
    </section>
  );
}
