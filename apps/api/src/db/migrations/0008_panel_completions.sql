CREATE TABLE "panel_completions" (
	"id" serial PRIMARY KEY NOT NULL,
	"survey_id" integer NOT NULL,
	"panel" text NOT NULL,
	"participant_hash" text NOT NULL,
	"respondent_key" text NOT NULL,
	"code" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "panel_completions" ADD CONSTRAINT "panel_completions_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "panel_completions_respondent_uq" ON "panel_completions" USING btree ("survey_id","panel","respondent_key");--> statement-breakpoint
CREATE UNIQUE INDEX "panel_completions_participant_uq" ON "panel_completions" USING btree ("survey_id","panel","participant_hash");