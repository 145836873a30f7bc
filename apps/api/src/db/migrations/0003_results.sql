CREATE TYPE "public"."moderation_status" AS ENUM('pending', 'approved', 'hidden');--> statement-breakpoint
CREATE TABLE "answer_words" (
	"question_id" integer NOT NULL,
	"word" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "answer_words_question_id_word_pk" PRIMARY KEY("question_id","word")
);
--> statement-breakpoint
CREATE TABLE "question_tallies" (
	"question_id" integer PRIMARY KEY NOT NULL,
	"changes" bigint DEFAULT 0 NOT NULL,
	"published_changes" bigint DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone,
	"snapshot" jsonb
);
--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "moderation" "moderation_status";--> statement-breakpoint
ALTER TABLE "answer_words" ADD CONSTRAINT "answer_words_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_tallies" ADD CONSTRAINT "question_tallies_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answers_moderation_idx" ON "answers" USING btree ("question_id","moderation","id" DESC NULLS LAST) WHERE "answers"."moderation" is not null;