import { useEffect, useState } from 'react';
import { useAuthStore } from '../../../lib/auth-store';
import { answeredOnDevice } from '../../../lib/device-answers';
import { useLocalAnswers } from '../../../lib/local-answers';
import { tokenSubject } from '../../../lib/tokens';
import { existingVisitorOwner } from '../../../lib/visitor-session';

/**
 * The qids answered on this device by whoever uses it now (a member: theirs; a visitor: this
 * tab's), by survey gid; null until read. Read after the first paint (an effect), so the bricks
 * draw at once and gain their state a moment later; read again when the person or the device's
 * records change (a login, a claim, "this is not my device"), and when the tab comes back.
 */
export function useDeviceAnswers(): Map<string, Set<string>> | null {
  const auth = useAuthStore((s) => s.auth);
  const version = useLocalAnswers((s) => s.version);
  const [answered, setAnswered] = useState<Map<string, Set<string>> | null>(null);
  const [visible, setVisible] = useState(0);

  useEffect(() => {
    const onShow = () => {
      if (document.visibilityState === 'visible') setVisible((n) => n + 1);
    };
    document.addEventListener('visibilitychange', onShow);
    return () => document.removeEventListener('visibilitychange', onShow);
  }, []);

  useEffect(() => {
    let live = true;
    const owner = auth ? tokenSubject() : existingVisitorOwner();
    void answeredOnDevice(owner).then((found) => {
      if (live) setAnswered(found);
    });
    return () => {
      live = false;
    };
  }, [auth, version, visible]);

  return answered;
}
