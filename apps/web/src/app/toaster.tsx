import { useEffect } from 'react';
import { Toaster as Sonner } from 'sonner';
import { toasterMounted } from '../lib/toasts';

/** The toasts' place on screen (loaded with the first toast: lib/toasts.ts). */
export default function Toaster() {
  useEffect(toasterMounted, []);
  return (
    // Below the sticky navbar (60 px), never over it: its links stay in reach.
    <Sonner
      theme="dark"
      position="top-center"
      richColors
      closeButton
      duration={4500}
      offset={{ top: 76 }}
      mobileOffset={{ top: 72, left: 12, right: 12 }}
    />
  );
}
