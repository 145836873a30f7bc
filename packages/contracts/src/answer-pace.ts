// How carefully one person is answering one survey (issue 29, point 5), read on their device
// from what it already has: how long each answer took against the time its words take to read,
// long runs of the same on-screen position, and timers run out. No zod here: the answering
// screens import it. Nothing of it leaves the device in this slice: the web app reads the pace to
// tell a rushing person, kindly, to take their time.

import { LEAVE_BLANK_CHOICE } from './constants.js';

/**
 * The speeding floor per word of the question and its choices: 300 ms, the threshold of Zhang
 * and Conrad (2014, "Speeding in web surveys", Survey Research Methods 8(2)), below which
 * nobody can have read what they answered.
 */
export const SPEEDING_MS_PER_WORD = 300;
/** A run of this many closed answers at the same position is straight-lining. */
export const STRAIGHT_RUN = 5;
/** Questions with fewer choices than this (leave-blank not counted) join no run: two choices
 * in a row at the same place say little. */
export const RUN_MIN_CHOICES = 3;
/** Hurried once at least this many answers were sped, and at least a third of the answers. */
export const SPED_AT_LEAST = 2;

/** What the floor reads of a question. */
export interface PacedQuestion {
  type: 'Closed' | 'Open';
  question: string;
  /** Labels; the leave-blank choice, if listed, is not read. */
  choices: readonly string[];
  video_link_1: string | null;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * The least time, in ms, in which the question and its choices can be read; null where speed
 * says nothing: a written answer (typing takes its own time) or a video (watching does).
 */
export function readingFloorMs(q: PacedQuestion): number | null {
  if (q.type !== 'Closed' || q.video_link_1) return null;
  const read = [q.question, ...q.choices.filter((c) => c !== LEAVE_BLANK_CHOICE)];
  return read.reduce((sum, text) => sum + words(text), 0) * SPEEDING_MS_PER_WORD;
}

/** One answer as the pace reads it. */
export interface PacedAnswer {
  /** How long it took, from the question showing to the answer; undefined when unknown. */
  ms: number | undefined;
  /** readingFloorMs of its question. */
  floorMs: number | null;
  /** Its on-screen position among the choices shown (0 first); null for a written answer. */
  position: number | null;
  /** How many choices were shown, leave-blank not counted; 0 for a written answer. */
  choices: number;
  /** Left blank (chosen, or the timer ran out). */
  blank: boolean;
  /** The question's timer ran out. */
  timedOut: boolean;
}

/** The pace of a run of answers, in the order given. */
export interface Pace {
  answered: number;
  /** Answers given faster than their floor (blank ones and run-outs are not speeding). */
  sped: number;
  /** The longest run of closed answers at one position, among questions of 3 choices or more. */
  longestRun: number;
  timedOut: number;
}

/** Reads the pace of `answers` (one survey's, in the order they were given). */
export function paceOf(answers: readonly PacedAnswer[]): Pace {
  let sped = 0;
  let timedOut = 0;
  let run = 0;
  let longestRun = 0;
  let last: number | null = null;
  for (const a of answers) {
    if (a.timedOut) timedOut++;
    if (!a.blank && a.ms !== undefined && a.floorMs !== null && a.ms < a.floorMs) sped++;
    const inRun = !a.blank && a.position !== null && a.choices >= RUN_MIN_CHOICES;
    if (!inRun) {
      run = 0;
      last = null;
      continue;
    }
    run = a.position === last ? run + 1 : 1;
    last = a.position;
    longestRun = Math.max(longestRun, run);
  }
  return { answered: answers.length, sped, longestRun, timedOut };
}

/**
 * A survey's answers, as a band (never the timings themselves): `inattentive` is the survey
 * methodologists' name for what speeding, straight-lining and run-out timers indicate.
 */
export type QualityBand = 'careful' | 'inattentive';

/** At least SPED_AT_LEAST answers, and a third of all, were faster than anyone reads. */
const rushed = (pace: Pace) => pace.sped >= SPED_AT_LEAST && pace.sped * 3 >= pace.answered;
/** STRAIGHT_RUN answers in a row sat at one position. */
const straightLined = (pace: Pace) => pace.longestRun >= STRAIGHT_RUN;

/**
 * The band of a pace: inattentive when rushed, straight-lined, or when the timer ran out on at
 * least half of 4 or more answers; careful otherwise.
 */
export function qualityBand(pace: Pace): QualityBand {
  const ranOut = pace.answered >= 4 && pace.timedOut * 2 >= pace.answered;
  return rushed(pace) || straightLined(pace) || ranOut ? 'inattentive' : 'careful';
}

/**
 * Whether to tell the person, kindly, to take their time: when they rush or straight-line. Not
 * for run-out timers: someone who ran out of time needs no telling to slow down.
 */
export const takeYourTime = (pace: Pace): boolean => rushed(pace) || straightLined(pace);
