CREATE TYPE "public"."question_type" AS ENUM('Closed', 'Open');--> statement-breakpoint
CREATE TYPE "public"."survey_variant" AS ENUM('v1_large', 'v1_medium', 'v1_small', 'v2_large', 'v2_medium', 'v2_small');--> statement-breakpoint
CREATE TABLE "choices" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"label" text NOT NULL,
	"is_blank" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "genres" (
	"id" serial PRIMARY KEY NOT NULL,
	"gid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "genres_gid_unique" UNIQUE("gid"),
	CONSTRAINT "genres_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"qid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"survey_id" integer NOT NULL,
	"position" integer NOT NULL,
	"type" "question_type" NOT NULL,
	"text" text NOT NULL,
	"timer_seconds" integer DEFAULT 0 NOT NULL,
	"video_link_1" text,
	"video_link_2" text,
	"video_captions_1" text,
	"video_captions_2" text,
	"randomise_answers" boolean DEFAULT true NOT NULL,
	"max_length" integer,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questions_qid_unique" UNIQUE("qid"),
	CONSTRAINT "questions_timer_nonnegative" CHECK ("questions"."timer_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "survey_genres" (
	"survey_id" integer NOT NULL,
	"genre_id" integer NOT NULL,
	CONSTRAINT "survey_genres_survey_id_genre_id_pk" PRIMARY KEY("survey_id","genre_id")
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"gid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"cover_image" text,
	"cover_headline" text DEFAULT '' NOT NULL,
	"intro_image" text,
	"intro_text" text DEFAULT '' NOT NULL,
	"outro_text" text DEFAULT '' NOT NULL,
	"variant" "survey_variant" DEFAULT 'v1_medium' NOT NULL,
	"slot" integer DEFAULT 0 NOT NULL,
	"release_date" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "surveys_gid_unique" UNIQUE("gid"),
	CONSTRAINT "surveys_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "choices" ADD CONSTRAINT "choices_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_genres" ADD CONSTRAINT "survey_genres_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_genres" ADD CONSTRAINT "survey_genres_genre_id_genres_id_fk" FOREIGN KEY ("genre_id") REFERENCES "public"."genres"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "choices_question_position_uq" ON "choices" USING btree ("question_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "choices_question_label_uq" ON "choices" USING btree ("question_id","label");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_survey_position_uq" ON "questions" USING btree ("survey_id","position");--> statement-breakpoint
CREATE INDEX "survey_genres_genre_idx" ON "survey_genres" USING btree ("genre_id");--> statement-breakpoint
CREATE INDEX "surveys_listing_idx" ON "surveys" USING btree ("slot","id");