CREATE TYPE "public"."respondent_standing" AS ENUM('waiting', 'counting', 'left');--> statement-breakpoint
CREATE TYPE "public"."result_kind" AS ENUM('answer', 'rating', 'timing');--> statement-breakpoint
CREATE TABLE "results_queue" (
	"respondent_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"kind" "result_kind" NOT NULL,
	CONSTRAINT "results_queue_respondent_id_question_id_kind_pk" PRIMARY KEY("respondent_id","question_id","kind")
);
--> statement-breakpoint
ALTER TABLE "answer_counts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "answer_words" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "answer_counts" CASCADE;--> statement-breakpoint
DROP TABLE "answer_words" CASCADE;--> statement-breakpoint
ALTER TABLE "answers" DROP CONSTRAINT "answers_respondent_id_respondents_id_fk";
--> statement-breakpoint
ALTER TABLE "ratings" DROP CONSTRAINT "ratings_respondent_id_respondents_id_fk";
--> statement-breakpoint
ALTER TABLE "timings" DROP CONSTRAINT "timings_respondent_id_respondents_id_fk";
--> statement-breakpoint
DROP INDEX "answers_unfolded_idx";--> statement-breakpoint
DROP INDEX "answers_respondent_id_idx";--> statement-breakpoint
DROP INDEX "answers_moderation_idx";--> statement-breakpoint
ALTER TABLE "answers" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "answers" ALTER COLUMN "id" SET DEFAULT (floor(random() * 4503599627370496) + 1)::bigint;--> statement-breakpoint
ALTER TABLE "respondents" ALTER COLUMN "id" SET DATA TYPE integer;--> statement-breakpoint
ALTER TABLE "respondents" ALTER COLUMN "id" SET DEFAULT (floor(random() * 2147483646) + 1)::int;--> statement-breakpoint
ALTER TABLE "timings" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "timings" ALTER COLUMN "id" SET DEFAULT (floor(random() * 4503599627370496) + 1)::bigint;--> statement-breakpoint
ALTER TABLE "question_tallies" ADD COLUMN "pending" jsonb;--> statement-breakpoint
ALTER TABLE "question_tallies" ADD COLUMN "threshold_noise" integer;--> statement-breakpoint
ALTER TABLE "ratings" ADD COLUMN "counted_score" smallint;--> statement-breakpoint
ALTER TABLE "respondents" ADD COLUMN "profile" text;--> statement-breakpoint
ALTER TABLE "respondents" ADD COLUMN "standing" "respondent_standing" DEFAULT 'waiting' NOT NULL;--> statement-breakpoint
-- Existing profiles are sealed by the server at its next start (it has the key; SQL has not).
UPDATE "respondents" SET "profile" = 'plain:' || "gender"::text || '|' || "age_band" || '|' || "country",
  "standing" = CASE WHEN "counts" THEN 'counting'::respondent_standing ELSE 'waiting'::respondent_standing END;--> statement-breakpoint
ALTER TABLE "respondents" ALTER COLUMN "profile" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "timings" ADD COLUMN "counted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "results_queue" ADD CONSTRAINT "results_queue_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "results_queue" ADD CONSTRAINT "results_queue_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "timings" ADD CONSTRAINT "timings_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "answers_moderation_idx" ON "answers" USING btree ("question_id","moderation","answered_on" DESC NULLS LAST) WHERE "answers"."moderation" is not null;--> statement-breakpoint
ALTER TABLE "answers" DROP COLUMN "folded";--> statement-breakpoint
-- Serial ids told the order of signups and answers: existing rows get random ones (negative
-- first, so no new id meets an old one on the way).
UPDATE "respondents" SET "id" = -((floor(random() * 2147483646) + 1)::int);--> statement-breakpoint
UPDATE "respondents" SET "id" = -"id";--> statement-breakpoint
UPDATE "answers" SET "id" = -((floor(random() * 4503599627370496) + 1)::bigint);--> statement-breakpoint
UPDATE "answers" SET "id" = -"id";--> statement-breakpoint
UPDATE "timings" SET "id" = -((floor(random() * 4503599627370496) + 1)::bigint);--> statement-breakpoint
UPDATE "timings" SET "id" = -"id";--> statement-breakpoint
DROP SEQUENCE IF EXISTS "respondents_id_seq";--> statement-breakpoint
DROP SEQUENCE IF EXISTS "answers_id_seq";--> statement-breakpoint
DROP SEQUENCE IF EXISTS "timings_id_seq";--> statement-breakpoint
-- Published results start again under the new mechanism: everything is counted anew.
UPDATE "question_tallies" SET "snapshot" = NULL, "published_at" = NULL;--> statement-breakpoint
INSERT INTO "results_queue" ("respondent_id", "question_id", "kind")
  SELECT "respondent_id", "question_id", 'answer'::result_kind FROM "answers"
  UNION SELECT "respondent_id", "question_id", 'rating' FROM "ratings"
  UNION SELECT "respondent_id", "question_id", 'timing' FROM "timings" WHERE "kind" = 'answer';--> statement-breakpoint
-- Every insert of an answer, a rating or an answer timing queues it for the fold.
CREATE FUNCTION "queue_for_results"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "results_queue" ("respondent_id", "question_id", "kind")
  VALUES (NEW."respondent_id", NEW."question_id", TG_ARGV[0]::"result_kind")
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "answers_queue" AFTER INSERT ON "answers"
  FOR EACH ROW EXECUTE FUNCTION "queue_for_results"('answer');--> statement-breakpoint
CREATE TRIGGER "ratings_queue" AFTER INSERT ON "ratings"
  FOR EACH ROW EXECUTE FUNCTION "queue_for_results"('rating');--> statement-breakpoint
CREATE TRIGGER "timings_queue" AFTER INSERT ON "timings"
  FOR EACH ROW WHEN (NEW."kind" = 'answer') EXECUTE FUNCTION "queue_for_results"('timing');--> statement-breakpoint
ALTER TABLE "question_tallies" DROP COLUMN "changes";--> statement-breakpoint
ALTER TABLE "question_tallies" DROP COLUMN "published_changes";--> statement-breakpoint
ALTER TABLE "respondents" DROP COLUMN "gender";--> statement-breakpoint
ALTER TABLE "respondents" DROP COLUMN "age_band";--> statement-breakpoint
ALTER TABLE "respondents" DROP COLUMN "country";--> statement-breakpoint
ALTER TABLE "respondents" DROP COLUMN "counts";