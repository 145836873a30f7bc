import { Navigate, useParams } from 'react-router';

/** `/{Survey_name}/{gid}` opens the survey; the name part is only for people reading the link. */
export function ShareLinkRoute() {
  const { gid = '' } = useParams();
  return <Navigate to={`/surveys/${encodeURIComponent(gid)}`} replace />;
}
