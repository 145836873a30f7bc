import { useForgetThisDevice } from './forget-device';
import './not-my-device.css';

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
