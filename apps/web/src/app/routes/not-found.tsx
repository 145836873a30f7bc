import { PageHead } from '../../components/page-head';
import { StatusMessage } from '../../components/status';

export function NotFoundRoute() {
  return (
    <>
      <PageHead title="Page not found" />
      <StatusMessage title="This page does not exist">
        <p>Maybe the link is old, or a letter went missing. The surveys are all still here.</p>
      </StatusMessage>
    </>
  );
}
