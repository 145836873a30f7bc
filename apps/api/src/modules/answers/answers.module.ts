// Answering beside the credential as one module of the app: timing calls and the member's own
// lists for anyone; the moderation of written answers for moderators and admins. (Answers and
// ratings themselves take the survey's credential: modules/credentials.)
import type { CredentialsService } from '../credentials/credentials.service.js';
import type { AppModule, Core } from '../module.js';
import { answerModerationRoutes } from './answer-moderation.routes.js';
import { createAnswersRepository } from './answers.repository.js';
import { answersRoutes } from './answers.routes.js';
import { type AnswersServiceDeps, createAnswersService } from './answers.service.js';

export function answersModule(
  { db, keys, audit, clock }: Core,
  {
    surveys,
    credentials,
  }: Pick<AnswersServiceDeps, 'surveys'> & { credentials: CredentialsService },
): AppModule {
  const service = createAnswersService(createAnswersRepository(db), {
    surveys,
    audit,
    timingKey: keys.timing,
    clock,
  });
  return {
    api: async (api) => {
      await api.register(answersRoutes, { service, credentials });
    },
    staff: async (staff) => {
      await staff.register(answerModerationRoutes, { service });
    },
  };
}
