import type { Mirror } from '@candor/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';

/**
 * The member's mirror: every question they answered, their answer against everyone's, newest
 * first. Read by the mirror (`/me`) and by a survey's outro (one request for all its answers),
 * so it lives here, once: features never import each other.
 */
export const mirrorQuery = () =>
  queryOptions({
    queryKey: ['mirror'] as const,
    queryFn: ({ signal }) => apiRequest<Mirror>('/v1/user/mirror/', { signal }),
    staleTime: 10_000,
  });
