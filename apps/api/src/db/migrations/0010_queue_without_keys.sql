ALTER TABLE "results_queue" DROP CONSTRAINT "results_queue_respondent_id_respondents_id_fk";
--> statement-breakpoint
ALTER TABLE "results_queue" DROP CONSTRAINT "results_queue_question_id_questions_id_fk";
--> statement-breakpoint
-- One statement per inserting statement instead of a function call and an insert per row: the
-- trigger sees the statement's new rows as a table (rows ON CONFLICT skipped are not in it).
DROP TRIGGER "answers_queue" ON "answers";--> statement-breakpoint
DROP TRIGGER "ratings_queue" ON "ratings";--> statement-breakpoint
DROP TRIGGER "timings_queue" ON "timings";--> statement-breakpoint
DROP FUNCTION "queue_for_results"();--> statement-breakpoint
CREATE FUNCTION "queue_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "results_queue" ("respondent_id", "question_id", "kind")
  SELECT "respondent_id", "question_id", TG_ARGV[0]::"result_kind" FROM "inserted"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "queue_inserted_answer_timings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "results_queue" ("respondent_id", "question_id", "kind")
  SELECT "respondent_id", "question_id", 'timing' FROM "inserted" WHERE "kind" = 'answer'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "answers_queue" AFTER INSERT ON "answers" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_inserted"('answer');--> statement-breakpoint
CREATE TRIGGER "ratings_queue" AFTER INSERT ON "ratings" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_inserted"('rating');--> statement-breakpoint
CREATE TRIGGER "timings_queue" AFTER INSERT ON "timings" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_inserted_answer_timings"();
