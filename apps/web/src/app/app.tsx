import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { useAuthStore } from '../features/auth/stores/auth-store';
import { router } from './router';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 404 will not turn into a 200 by asking again; network hiccups might.
      retry: (count, error) => count < 2 && !('status' in error && error.status === 404),
      refetchOnWindowFocus: false,
    },
  },
});

// Restore the session once at start when both tokens are stored (spec section 4).
void useAuthStore.getState().restore();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster theme="dark" position="top-center" richColors closeButton duration={4500} />
    </QueryClientProvider>
  );
}
