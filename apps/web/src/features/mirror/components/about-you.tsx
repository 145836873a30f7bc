import { type DeviceProfile, DeviceProfileSchema, GENDER_LABELS } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ProfileFields } from '../../../components/profile-fields';
import { useAuthStore } from '../../../lib/auth-store';
import { countryName } from '../../../lib/country-names';
import {
  type OwnProfile,
  profileOnDevice,
  saveProfileOnDevice,
  useLocalAnswers,
} from '../../../lib/local-answers';
import { successToast } from '../../../lib/toasts';

const profileKey = ['device-profile'] as const;

/**
 * "About you": the year of birth, gender and country the member's answers are grouped by. Kept
 * on their devices and in their encrypted vault, never beside the account (decision 020, slice
 * 2), so this is where they are set, seen and changed.
 */
export function AboutYou() {
  const version = useLocalAnswers((s) => s.version);
  const { data: profile, isPending } = useQuery({
    queryKey: [...profileKey, version],
    queryFn: profileOnDevice,
  });
  const [editing, setEditing] = useState(false);
  if (isPending) return null;
  const open = editing || !profile;
  return (
    <section className="me-section" aria-labelledby="me-about">
      <h2 id="me-about">About you</h2>
      {profile ? (
        <p className="me-about__facts">
          Born in {profile.yearOfBirth} · {GENDER_LABELS[profile.gender]} ·{' '}
          {countryName(profile.country)}
        </p>
      ) : (
        <p>
          Not set on this device. Your answers count in every total, but not in the groups by age
          and gender until you add these.
        </p>
      )}
      <p className="me-section__note">
        Kept on your devices and in your encrypted vault, never next to your account. Your answers
        carry your age band, gender and country, so results can be broken down; groups of fewer than
        10 people are never shown.
      </p>
      {open ? (
        <ProfileForm
          profile={profile ?? null}
          onDone={() => setEditing(false)}
          onCancel={profile ? () => setEditing(false) : undefined}
        />
      ) : (
        <button type="button" className="button" onClick={() => setEditing(true)}>
          Change
        </button>
      )}
    </section>
  );
}

function ProfileForm({
  profile,
  onDone,
  onCancel,
}: {
  profile: OwnProfile | null;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const country = useAuthStore((s) => s.user?.country) ?? 'US';
  const queryClient = useQueryClient();
  const form = useForm<DeviceProfile>({
    resolver: zodResolver(DeviceProfileSchema),
    defaultValues: profile
      ? { year_of_birth: profile.yearOfBirth, gender: profile.gender, country: profile.country }
      : { country },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    await saveProfileOnDevice({
      yearOfBirth: values.year_of_birth,
      gender: values.gender,
      country: values.country,
    });
    await queryClient.invalidateQueries({ queryKey: profileKey });
    successToast('Saved on this device');
    onDone();
  });
  return (
    <form onSubmit={onSubmit} noValidate className="form me-about__form">
      <ProfileFields form={form} />
      <div className="me-about__actions">
        <button type="submit" className="button button--primary">
          Save
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
