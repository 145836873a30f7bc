import { type ExternalToast, toast } from 'sonner';

/**
 * Dismisses the error toasts on screen: they were about a try that has now worked (a wrong
 * password must not stay beside "Logged In").
 */
export function dismissErrorToasts(): void {
  for (const shown of toast.getToasts()) {
    if ('type' in shown && shown.type === 'error') toast.dismiss(shown.id);
  }
}

/** A success toast; the errors of earlier tries leave first. */
export function successToast(message: string, options?: ExternalToast): string | number {
  dismissErrorToasts();
  return toast.success(message, options);
}
