import type { SeedSurvey } from './types.js';

/** Every genre used by the sample surveys (shared set). */
export const sampleGenres: string[] = [
  'Relationships',
  'Money',
  'Body',
  'Ethics',
  'Society',
  'Hypotheticals',
  'Health',
  'Law',
];

const AUTHOR = 'Candor Editorial';

export const sampleSurveys: SeedSurvey[] = [
  {
    slug: 'time-travel',
    name: 'Time Travel',
    coverHeadline: 'Would you undo it?',
    author: AUTHOR,
    introText:
      'Three short video questions about time: the past you could change, the future you could ' +
      'see, and what you would give for it. Watch each clip, then answer. Your answers are ' +
      'anonymous.',
    outroText:
      'Thank you for travelling with us. See how your choices compare with everyone else who ' +
      'took the trip.',
    variant: 'v1_large',
    slot: 1,
    genres: ['Hypotheticals', 'Ethics'],
    releaseOffsetHours: -10,
    questions: [
      {
        type: 'Closed',
        text: 'You can go back ten years and undo one decision. Would you?',
        choices: ['Yes, without hesitation', 'Probably', 'Probably not', 'No, it made me who I am'],
        randomise: false,
        video: {
          link1: '/sample/video/time-travel-1.mp4',
          captions1: '/sample/video/time-travel-1.vtt',
        },
      },
      {
        type: 'Closed',
        text: 'A machine can tell you the exact date of your death. Do you look?',
        choices: [
          'Yes, I would look',
          'No, I would rather not know',
          'I would let someone I trust look for me',
          'I honestly cannot decide',
        ],
        timerSeconds: 30,
        video: {
          link1: '/sample/video/time-travel-2.mp4',
          captions1: '/sample/video/time-travel-2.vtt',
        },
      },
      {
        type: 'Closed',
        text: 'Would you trade ten years of your life to see the world a hundred years from now?',
        choices: [
          'Yes, without a second thought',
          'Tempting, but no',
          'No, I would rather live my own years',
          'I would give even more than ten years',
        ],
        video: {
          link1: '/sample/video/time-travel-3.mp4',
          captions1: '/sample/video/time-travel-3.vtt',
        },
      },
    ],
  },
  {
    slug: 'consent',
    name: 'Consent in Practice',
    coverHeadline: 'Is a yes always a yes?',
    author: AUTHOR,
    introText:
      'Five questions about asking, agreeing and the grey areas in between. Some touch on ' +
      'difficult experiences, so take your time and skip anything you would rather not answer. ' +
      'Your answers are anonymous.',
    outroText:
      'Thank you for answering honestly. Compare your answers with everyone else and see where ' +
      'you stand.',
    variant: 'v1_medium',
    slot: 2,
    genres: ['Relationships', 'Ethics', 'Law'],
    releaseOffsetHours: -72,
    questions: [
      {
        type: 'Closed',
        text: 'Before a first kiss, should you ask out loud, or is reading the moment enough?',
        choices: [
          'Always ask out loud',
          'Reading the moment is enough',
          'It depends on the person and the setting',
          'I have never really thought about it',
        ],
      },
      {
        type: 'Closed',
        text: 'Your partner says yes but seems hesitant. What do you do?',
        choices: [
          'Stop and ask if they are sure',
          'Slow down and watch how they respond',
          'Stop altogether for that night',
          'Carry on: a yes is a yes',
        ],
        timerSeconds: 25,
      },
      {
        type: 'Closed',
        text: 'Can someone who has been drinking give real consent?',
        choices: [
          'Yes, if they are clearly in control',
          'After a drink or two, but not more',
          'It depends on the couple and their history',
          'No, alcohol rules it out',
        ],
      },
      {
        type: 'Closed',
        text: 'In a long relationship, is consent assumed unless someone says no?',
        choices: [
          'Yes, that is part of being together',
          'Mostly, but checking in is good',
          'No, it should be given every time',
          'Not sure',
        ],
      },
      {
        type: 'Closed',
        text: 'Have you ever gone along with something intimate that you did not really want?',
        choices: ['Never', 'Once', 'A few times', 'Often'],
        randomise: false,
      },
    ],
  },
  {
    slug: 'money',
    name: 'Money Talks',
    coverHeadline: 'What would you do for double?',
    author: AUTHOR,
    introText:
      'Seven questions about earning, keeping, hiding and sharing money: the subject many of us ' +
      'find harder to discuss than sex. Your answers are anonymous.',
    outroText:
      'Thank you for your honesty. Compare your answers with everyone else and see how your ' +
      'money habits measure up.',
    variant: 'v2_large',
    slot: 3,
    genres: ['Money', 'Relationships', 'Society'],
    releaseOffsetHours: -24 * 20,
    closedOffsetHours: 24 * 3,
    questions: [
      {
        type: 'Closed',
        text: 'Do you know how much your closest friends earn?',
        choices: ['Yes, exactly', 'Roughly', 'No idea', 'I would rather not know'],
      },
      {
        type: 'Closed',
        text: 'Do you have money that your partner does not know about?',
        choices: ['Yes, a little', 'Yes, a lot', 'No', 'I do not have a partner'],
      },
      {
        type: 'Closed',
        text: 'You find a wallet with a large amount of cash and an ID card. What do you do?',
        choices: [
          'Return it, all of it',
          'Return it, but keep a little as a reward',
          'Hand it in and let someone else deal with it',
          'Post back the ID, keep the cash',
          'Keep all of it',
        ],
        timerSeconds: 20,
      },
      {
        type: 'Closed',
        text: 'Would you take a job you find meaningless for double your current pay?',
        choices: [
          'Yes, without hesitation',
          'Yes, for a few years',
          'No, meaning matters more to me',
          'I already have',
        ],
      },
      {
        type: 'Closed',
        text: 'Should the very rich pay more tax than they do now?',
        choices: ['Much more', 'A little more', 'About the same', 'Less than now'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Have you ever lied about money to someone close to you?',
        choices: ['Never', 'Once', 'A few times', 'Often'],
        randomise: false,
      },
      {
        type: 'Open',
        text: 'In a sentence: what is one thing about money you have never told anyone?',
        maxLength: 280,
      },
    ],
  },
  {
    slug: 'sex',
    name: 'Honest About Sex',
    coverHeadline: 'The questions nobody asks out loud',
    author: AUTHOR,
    introText:
      'Fifteen frank questions about sex: experience, honesty, desire and what stays unsaid. ' +
      'Nothing here is graphic, but it is personal. Your answers are anonymous.',
    outroText:
      'Thank you for being candid. See how your answers compare with everyone else, and you may ' +
      'find you are less unusual than you think.',
    variant: 'v2_medium',
    slot: 4,
    genres: ['Relationships', 'Body', 'Health'],
    releaseOffsetHours: -24 * 9,
    questions: [
      {
        type: 'Closed',
        text: 'How old were you the first time you had sex?',
        choices: ['Under 16', '16 to 18', '19 to 22', 'Over 22', 'I have not had sex yet'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Roughly how many sexual partners have you had?',
        choices: ['None', 'One', '2 to 5', '6 to 20', 'More than 20'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Have you ever lied to a partner about how many people you have slept with?',
        choices: [
          'Yes, I gave a lower number',
          'Yes, I gave a higher number',
          'No, I told the truth',
          'It has never come up',
        ],
      },
      {
        type: 'Closed',
        text: 'Have you ever faked an orgasm?',
        choices: ['Never', 'Once or twice', 'Sometimes', 'Often'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'How important is sex to you in a long-term relationship?',
        choices: ['Essential', 'Important, but not everything', 'Not very important', 'Not at all'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Would you stay in a happy relationship that had no sex at all?',
        choices: ['Yes', 'Yes, if we both wanted it that way', 'Only for a while', 'No'],
      },
      {
        type: 'Closed',
        text: 'Would you forgive a partner for a one-night stand?',
        choices: ['Yes', 'Probably, depending on the circumstances', 'Probably not', 'Never'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Is sexting with someone else cheating?',
        choices: [
          'Yes, always',
          'Only if it goes on for a while',
          'Only if it leads to meeting up',
          'No',
        ],
      },
      {
        type: 'Closed',
        text: 'Have you ever been attracted to someone outside the gender you usually go for?',
        choices: ['Yes', 'No', 'Not sure', 'I am attracted to more than one gender'],
      },
      {
        type: 'Closed',
        text: 'Could you be in an open relationship?',
        choices: [
          'Yes, I have been',
          'Yes, in theory',
          'Only if my partner really wanted it',
          'No',
        ],
      },
      {
        type: 'Closed',
        text: 'Have you ever had sex mainly to avoid an argument?',
        choices: ['Never', 'Once', 'A few times', 'Often'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'When were you last tested for sexually transmitted infections?',
        choices: ['In the last year', 'One to five years ago', 'More than five years ago', 'Never'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Would you want to know if your partner often fantasised about someone else?',
        choices: [
          'Yes, I would want to know',
          'No, thoughts are private',
          'Only if it is someone we know',
          'I assume they do anyway',
        ],
      },
      {
        type: 'Closed',
        text: 'Did your parents or carers ever talk to you about sex?',
        choices: ['Yes, openly', 'Once, awkwardly', 'Only about the risks', 'Never'],
      },
      {
        type: 'Open',
        text: 'In a sentence: what do you wish you had known about sex sooner?',
        maxLength: 280,
      },
    ],
  },
  {
    slug: 'taboos',
    name: 'Everyday Taboos',
    coverHeadline: 'Things we rarely say out loud',
    author: AUTHOR,
    introText:
      'Twenty-five questions on the subjects polite conversation avoids: porn, periods, bodies, ' +
      'drugs, religion and death. Some are light, some are heavy. Your answers are anonymous.',
    outroText:
      'Thank you for going there with us. Compare your answers with everyone else and see which ' +
      'taboos are not so taboo after all.',
    variant: 'v1_small',
    slot: 5,
    genres: ['Body', 'Society', 'Health'],
    releaseOffsetHours: -24 * 14,
    questions: [
      {
        type: 'Closed',
        text: 'How often do you watch porn?',
        choices: ['Never', 'A few times a year', 'Monthly', 'Weekly', 'Daily or almost daily'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Would you be upset to find out that your partner watches porn?',
        choices: ['Yes, very', 'A little', 'No', 'I would expect it'],
      },
      {
        type: 'Closed',
        text: 'Should porn sites have to check the age of every visitor?',
        choices: [
          'Yes, strictly',
          'Yes, if privacy is protected',
          'No, it is up to parents',
          'No, it cannot work',
        ],
      },
      {
        type: 'Closed',
        text: 'Have you ever paid for porn or other adult content?',
        choices: ['Yes, regularly', 'Yes, once or a few times', 'No'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Have you ever hidden a tampon or pad on your way to the bathroom?',
        choices: ['Yes, often', 'Sometimes', 'Never', 'Does not apply to me'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Should employers offer paid leave for severe period pain?',
        choices: [
          'Yes, as its own kind of leave',
          'It should count as ordinary sick leave',
          'No',
          'Not sure',
        ],
      },
      {
        type: 'Closed',
        text: 'How comfortable are you talking about periods in mixed company?',
        choices: ['Completely', 'Somewhat', 'Not really', 'Not at all'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Is there a part of your body you always try to hide?',
        choices: ['Yes, one', 'Yes, several', 'No'],
      },
      {
        type: 'Closed',
        text: 'Would you have cosmetic surgery if it were free and safe?',
        choices: ['Yes, and I know exactly what', 'Maybe', 'No', 'I already have'],
      },
      {
        type: 'Closed',
        text: "Have you ever commented on someone's weight and later regretted it?",
        choices: ['Yes', 'No', 'Not that I remember'],
      },
      {
        type: 'Closed',
        text: 'Would you go naked on a beach where everyone else is naked?',
        choices: ['Yes, happily', 'Maybe, after a while', 'No'],
      },
      {
        type: 'Closed',
        text: 'Do you pee in the shower?',
        choices: ['Yes, always', 'Sometimes', 'Never'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Have you ever taken an illegal drug?',
        choices: ['Never', 'Once', 'A few times', 'Regularly'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Should using drugs for yourself stop being a crime?',
        choices: ['Yes, for all drugs', 'Yes, but for cannabis only', 'No', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Have you ever driven after drinking more than you should have?',
        choices: ['Never', 'Once', 'A few times', 'Often'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Would you tell your doctor the whole truth about your drinking or drug use?',
        choices: [
          'Yes, all of it',
          'Most of it',
          'I would play it down',
          'There is nothing to tell',
        ],
      },
      {
        type: 'Closed',
        text: 'Do you believe in God or a higher power?',
        choices: ['Yes', 'No', 'Something, but not God', 'Unsure'],
      },
      {
        type: 'Closed',
        text: 'Have you ever pretended to believe, or not to believe, in order to fit in?',
        choices: ['Yes, I pretended to believe', 'Yes, I hid my belief', 'No'],
      },
      {
        type: 'Closed',
        text: 'Would you marry someone whose views on religion are very different from yours?',
        choices: ['Yes', 'Only if they did not push them on me', 'No'],
      },
      {
        type: 'Closed',
        text: 'Should children be raised in a religion before they can choose for themselves?',
        choices: [
          'Yes, it gives them roots',
          "It is the parents' choice",
          'No, they should choose',
        ],
      },
      {
        type: 'Closed',
        text: 'Have you ever felt relief when someone close to you died?',
        choices: ['Yes', 'No', 'I have not lost anyone close'],
      },
      {
        type: 'Closed',
        text: 'What would you like done with your body after you die?',
        choices: ['Burial', 'Cremation', 'Donated to science', 'Something else', 'Undecided'],
      },
      {
        type: 'Closed',
        text: 'Are you afraid of dying?',
        choices: ['Very', 'A little', 'Not really', 'Not at all'],
        randomise: false,
        timerSeconds: 20,
      },
      {
        type: 'Closed',
        text: 'Would you want to be at the bedside of a parent as they die?',
        choices: ['Yes', 'Only if they wanted me there', 'No', 'I already have been'],
      },
      {
        type: 'Open',
        text: 'In a sentence: what is a subject you wish people talked about more openly?',
        maxLength: 280,
      },
    ],
  },
  {
    slug: 'life-and-death',
    name: 'Life and Death',
    coverHeadline: 'Who decides when a life begins and ends?',
    author: AUTHOR,
    introText:
      'Thirty-five questions on the hardest choices of all: abortion, assisted dying, organ ' +
      'donation, the death penalty and more. Please take care: some may touch on your own ' +
      'losses. Your answers are anonymous.',
    outroText:
      'Thank you for thinking these through with us. Compare your answers with everyone else: ' +
      'on these questions, few people agree on everything.',
    variant: 'v2_small',
    slot: 6,
    genres: ['Ethics', 'Law', 'Health'],
    releaseOffsetHours: -24 * 30,
    questions: [
      {
        type: 'Closed',
        text: 'Should abortion be legal?',
        choices: [
          'Legal in all cases',
          'Legal in most cases',
          'Illegal in most cases',
          'Illegal in all cases',
        ],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Up to what point in a pregnancy should abortion be available on request?',
        choices: ['Never on request', 'Up to 12 weeks', 'Up to 24 weeks', 'At any point'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Should the other parent have a say in the decision to end a pregnancy?',
        choices: ['Yes, an equal say', 'A voice, but not the final say', 'No say at all'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Has abortion touched your life?',
        choices: ['Yes, directly', 'Yes, through someone close', 'No', 'Not that I know of'],
      },
      {
        type: 'Closed',
        text: 'Should doctors be allowed to refuse to perform abortions on moral grounds?',
        choices: ['Yes, always', 'Yes, if another doctor can step in', 'No'],
      },
      {
        type: 'Closed',
        text: 'Should every pregnant person be offered tests that screen for disabilities?',
        choices: ['Yes, everyone', 'Only when there is a known risk', 'No'],
      },
      {
        type: 'Closed',
        text: 'Should adults with a terminal illness be allowed help to end their lives?',
        choices: ['Yes', 'Yes, with strict safeguards', 'No', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Should assisted dying be allowed for unbearable suffering that is not terminal?',
        choices: ['Yes', 'Only for physical suffering', 'No', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'If you were terminally ill, would you consider assisted dying for yourself?',
        choices: ['Yes', 'Maybe', 'No', 'I cannot imagine it'],
      },
      {
        type: 'Closed',
        text: 'Could you help a loved one to die if they asked you and it were legal?',
        choices: ['Yes', 'Maybe', 'No'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Should an earlier request for assisted dying count once someone has dementia?',
        choices: ['Yes', 'Only if it was confirmed recently', 'No', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'If you were in a coma with no hope of recovery, how long should life support go on?',
        choices: [
          'Stop as soon as it is clear',
          'A few weeks, for my family',
          'As long as possible',
          'Let my family decide',
        ],
      },
      {
        type: 'Closed',
        text: 'Are you registered as an organ donor?',
        choices: ['Yes', 'No, but I would donate', 'No, and I would not donate', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Should everyone be an organ donor unless they opt out?',
        choices: ['Yes', 'No, it should be opt-in', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Should your family be able to overrule your wish to donate your organs?',
        choices: ['Yes', 'Only in exceptional cases', 'No'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Would you give one of your kidneys to a stranger while you are alive?',
        choices: ['Yes', 'Maybe', 'Only to family or friends', 'No'],
      },
      {
        type: 'Closed',
        text: 'Should living donors be paid for giving a kidney?',
        choices: ['Yes, a fair fee', 'Only their costs', 'No, never'],
      },
      {
        type: 'Closed',
        text: 'Should people who refuse to donate organs be lower on the list to receive one?',
        choices: ['Yes', 'No', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Should the death penalty exist for the worst crimes?',
        choices: ['Yes', 'Only when guilt is beyond any doubt', 'No, never', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'If one innocent person were executed for every hundred guilty, would you accept it?',
        choices: ['Yes, it is a price worth paying', 'No', 'I oppose the death penalty anyway'],
      },
      {
        type: 'Closed',
        text: 'Would you sit on a jury that could hand down a death sentence?',
        choices: ['Yes', 'No', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Should the family of a murder victim have a say in the sentence?',
        choices: ['Yes, a deciding say', 'A voice, but not a deciding one', 'No say'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Compared with execution, is life in prison without parole more humane?',
        choices: ['More humane', 'Less humane', 'About the same', 'Not sure'],
      },
      {
        type: 'Closed',
        text: 'Would you take a genetic test that says if you will get an incurable disease?',
        choices: ['Yes', 'Only if something could be done about it', 'No'],
      },
      {
        type: 'Closed',
        text: 'If you could, would you live to 150 in good health?',
        choices: ['Yes', 'Only if the people I love could too', 'No'],
      },
      {
        type: 'Closed',
        text: 'Pull a lever and a runaway train kills one person instead of five. Do you pull it?',
        choices: ['Yes, I pull the lever', 'No, I do not', 'I would freeze'],
        timerSeconds: 30,
      },
      {
        type: 'Closed',
        text: 'Pushing a stranger in front of a runaway train would save five people. Do you?',
        choices: ['Yes, I push', 'No, I do not', 'I would freeze'],
      },
      {
        type: 'Closed',
        text: 'Should a doctor ever hide the truth from a dying patient to spare them?',
        choices: ['Yes', 'Only if the patient asked not to know', 'No, never'],
      },
      {
        type: 'Closed',
        text: 'Should parents using IVF be allowed to choose embryos by their genes?',
        choices: ['Yes, to avoid serious disease', 'Yes, for any trait they want', 'No'],
      },
      {
        type: 'Closed',
        text: 'Is it ever right to kill someone in self-defence?',
        choices: ['Yes', 'Only as a last resort', 'No, never'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'Who should decide when to stop treating a newborn who cannot survive?',
        choices: ['The parents', 'The doctors', 'Parents and doctors together', 'A court'],
      },
      {
        type: 'Closed',
        text: 'Would you still eat meat if you had to kill the animal yourself?',
        choices: ['Yes', 'Only if I really needed to', 'No', 'I do not eat meat'],
      },
      {
        type: 'Closed',
        text: 'If only the mother or the baby can be saved in childbirth, who should come first?',
        choices: ['The mother', 'The baby', "It should be the mother's choice", 'Not sure'],
      },
      {
        type: 'Open',
        text: 'In a sentence: what would you want people to say about you when you are gone?',
        maxLength: 280,
      },
      {
        type: 'Open',
        text: 'If a life-saving treatment is scarce, who should get it first, and why?',
        maxLength: 500,
      },
    ],
  },
  {
    slug: 'crime',
    name: 'Crime and Conscience',
    coverHeadline: 'Would you turn them in?',
    author: AUTHOR,
    introText:
      'Five questions about the rules we bend, the ones we break and what we think should happen ' +
      'to people who break them. Your answers are anonymous.',
    outroText:
      'Thank you for your honesty. Compare your answers with everyone else and see how ' +
      'law-abiding we really are.',
    variant: 'v1_small',
    slot: 7,
    genres: ['Law', 'Ethics', 'Society'],
    releaseOffsetHours: 24 * 7,
    questions: [
      {
        type: 'Closed',
        text: 'Have you ever shoplifted?',
        choices: ['Never', 'Once, as a child', 'A few times', 'More than a few times'],
        randomise: false,
      },
      {
        type: 'Closed',
        text: 'A friend scrapes a parked car and drives off without a note. What do you do?',
        choices: [
          'Tell them to go back',
          'Leave a note myself',
          'Nothing, it is their business',
          'Report it',
        ],
      },
      {
        type: 'Closed',
        text: 'Would you report a family member to the police for a serious crime?',
        choices: ['Yes, whatever it was', 'Only if someone was hurt', 'No, family comes first'],
      },
      {
        type: 'Closed',
        text: 'What should prison be for, above all?',
        choices: ['Punishment', 'Protecting the public', 'Rehabilitation', 'All of these equally'],
      },
      {
        type: 'Closed',
        text: 'If you knew you would never be caught, which would tempt you most?',
        choices: [
          'Dodging a tax bill',
          'Taking something expensive',
          'Getting even with someone',
          'None of these',
        ],
      },
    ],
  },
];
