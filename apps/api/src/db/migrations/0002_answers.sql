CREATE TYPE "public"."timing_kind" AS ENUM('answer', 'graph');--> statement-breakpoint
CREATE TABLE "answer_counts" (
	"question_id" integer NOT NULL,
	"dimension" text NOT NULL,
	"bucket" text NOT NULL,
	"choice_id" integer NOT NULL,
	"is_blank" boolean NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "answer_counts_question_id_dimension_bucket_choice_id_is_blank_pk" PRIMARY KEY("question_id","dimension","bucket","choice_id","is_blank")
);
--> statement-breakpoint
CREATE TABLE "answers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"respondent_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"choice_id" integer,
	"text" text,
	"is_blank" boolean NOT NULL,
	"answered_on" date NOT NULL,
	"idempotency_key" text,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"day" date NOT NULL,
	"referrer_host" text
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"respondent_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"score" smallint NOT NULL,
	CONSTRAINT "ratings_respondent_id_question_id_pk" PRIMARY KEY("respondent_id","question_id"),
	CONSTRAINT "ratings_score_range" CHECK ("ratings"."score" between 0 and 10)
);
--> statement-breakpoint
CREATE TABLE "respondents" (
	"id" serial PRIMARY KEY NOT NULL,
	"pseudonym" text NOT NULL,
	"gender" "gender" NOT NULL,
	"age_band" text NOT NULL,
	"country" text NOT NULL,
	"counts" boolean DEFAULT false NOT NULL,
	CONSTRAINT "respondents_pseudonym_unique" UNIQUE("pseudonym")
);
--> statement-breakpoint
CREATE TABLE "timings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"respondent_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"kind" "timing_kind" NOT NULL,
	"duration_ms" integer NOT NULL,
	"token_hash" text NOT NULL,
	CONSTRAINT "timings_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "timings_duration_nonnegative" CHECK ("timings"."duration_ms" >= 0)
);
--> statement-breakpoint
ALTER TABLE "answer_counts" ADD CONSTRAINT "answer_counts_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_choice_id_choices_id_fk" FOREIGN KEY ("choice_id") REFERENCES "public"."choices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timings" ADD CONSTRAINT "timings_respondent_id_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."respondents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timings" ADD CONSTRAINT "timings_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answers_respondent_question_uq" ON "answers" USING btree ("respondent_id","question_id");--> statement-breakpoint
CREATE INDEX "answers_unfolded_idx" ON "answers" USING btree ("question_id") WHERE not "answers"."folded";--> statement-breakpoint
CREATE INDEX "answers_respondent_id_idx" ON "answers" USING btree ("respondent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "timings_question_idx" ON "timings" USING btree ("question_id","kind");