import { useNavigate } from 'react-router';
import { forgetThisDevice } from '../lib/local-answers';
import { errorToast, successToast } from '../lib/toasts';
import './not-my-device.css';

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

/** The login screen's way to leave nothing behind on a shared or borrowed device. */
export function NotMyDeviceNote() {
  const forget = useForgetThisDevice();
  return (
    <div className="not-my-device">
      <p id="not-my-device-hint">
        Using a shared or borrowed device? Clear the answers and the survey place it keeps.
      </p>
      <button
        type="button"
        className="button button--block"
        aria-describedby="not-my-device-hint"
        onClick={forget}
      >
        This is not my device
      </button>
    </div>
  );
}
