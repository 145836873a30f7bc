// The end-to-end `test`: vitest's, extended with fixtures in the manner of epic-stack's Playwright
// utilities. A file gets one Chromium; a test gets `people` (each a browser context of their own,
// with an error watch) and, when it asks for one, an `admin`. Every account a test made is erased
// through the API when it ends.
import type { User } from '@candor/contracts';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { test as base, inject } from 'vitest';
import { call, eraseIfPresent, logInByApi, outboxCount, signUpByApi, token } from './api';
import { desktop, launchChromium } from './chromium';
import { type Person, nextPerson } from './people';
import { watchErrors } from './screens';

export interface PersonPage {
  context: BrowserContext;
  page: Page;
  watch: ReturnType<typeof watchErrors>;
  /** The person at this browser: their number, password and address. */
  who: Person;
}

/** An admin made for one test: signed up through the API, then promoted by the first admin. */
export type Admin = Person & { uuid: string };

export interface People {
  /**
   * A new person (or `who`, again): a browser context of their own (desktop unless told) whose
   * requests come from the person's address, a page, an error watch. `options.baseURL` opens
   * the server by another name.
   */
  newPage(options?: BrowserContextOptions, who?: Person): Promise<PersonPage>;
  /** A new person's number, password and address, without a browser. */
  person(kind?: Parameters<typeof nextPerson>[0]): Person;
  /** A new member signed up through the API (`premium`: one the risk checks hold for review). */
  member(kind?: 'US' | 'premium'): Promise<Person & { user: User }>;
  /**
   * A new admin, made the way a person is: signup, promotion by the first admin, then a first
   * login that sets up their authenticator (its secret kept by second-factor.ts).
   */
  admin(): Promise<Admin>;
}

/** The admin `npm run create-admin` made before the server started (global-setup). */
const firstAdmin = inject('firstAdmin');

function createPeople(browser: Browser, defaults: BrowserContextOptions) {
  const made: Person[] = [];
  const contexts: BrowserContext[] = [];
  const person = (kind?: Parameters<typeof nextPerson>[0]) => {
    const who = nextPerson(kind);
    made.push(who);
    return who;
  };

  const people: People = {
    async newPage(options = desktop, who = person()) {
      const context = await browser.newContext({
        // The server's address, unless a test opens it by another name (`localhost`, which
        // passkeys need: decision 024).
        baseURL: inject('baseURL'),
        ...options,
        ...defaults,
        extraHTTPHeaders: { 'X-Forwarded-For': who.ip },
      });
      contexts.push(context);
      const page = await context.newPage();
      return { context, page, watch: watchErrors(page), who };
    },
    person,
    async member(kind = 'US') {
      const who = person(kind);
      const { user } = await signUpByApi(who);
      return { ...who, user };
    },
    async admin() {
      const { user, ...who } = await people.member();
      const res = await call(`/api/v1/admin/users/${user.uuid}/role/`, {
        body: { role: 'admin' },
        token: await token(firstAdmin),
      });
      if (res.status !== 200) throw new Error(`Could not make ${who.e164} an admin: ${res.status}`);
      // The new admin's first login sets up their authenticator (decision 024).
      await logInByApi(who);
      return { ...who, uuid: user.uuid };
    },
  };

  /** Closes what the test left open and erases every account its people made. */
  async function cleanUp() {
    await Promise.all(contexts.map((c) => c.close()));
    for (const who of made) {
      // Only numbers that were texted a code can have an account.
      if (outboxCount(who.e164) > 0) await eraseIfPresent(who);
    }
  }
  return { people, cleanUp };
}

export const test = base
  // vitest reads the fixtures a fixture needs from its first parameter's destructuring.
  // eslint-disable-next-line no-empty-pattern
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  })
  // Context options every person of a file shares: a file sets them with `test.override`.
  .extend('contextOptions', {} as BrowserContextOptions)
  .extend('people', async ({ browser, contextOptions }, { onCleanup }) => {
    const { people, cleanUp } = createPeople(browser, contextOptions);
    onCleanup(cleanUp);
    return people;
  })
  .extend('admin', async ({ people }) => people.admin());

export const it = test;
