import { useNavigate } from 'react-router';
import { forgetThisDevice } from '../lib/local-answers';
import { errorToast, successToast } from '../lib/toasts';

/** "This is not my device": clears what this browser keeps of answering, then goes home. */
export function useForgetThisDevice() {
  const navigate = useNavigate();
  return () =>
    void forgetThisDevice().then(
      () => {
        successToast('This device is cleared', {
          description: 'It keeps no answers and no survey place any more.',
        });
        void navigate('/');
      },
      () => errorToast('This device could not be cleared. Please try again.'),
    );
}
